"""Irregular times, NaN gaps, mask= and numpy.ma at the user's door (WeakPareto, wp discover)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from weakpareto.errors import UserInputError
from weakpareto.numerics.mittag_leffler import mittag_leffler
from weakpareto.user.estimator import WeakPareto

NX, L = 64, 2 * np.pi
X = L * np.arange(NX) / NX
K = np.fft.fftfreq(NX, L / NX) * 2 * np.pi
LAM = -1.0 * (1j * K) + 0.5 * (1j * K) ** 1.7  # D^0.8 u = -D_x u + 0.5 D_x^1.7 u
U0 = np.exp(-((X - L / 3) ** 2) / (2 * (L / 12) ** 2))
FAST = dict(method="weak_pareto_exact", alpha_range=(0.6, 1.05), beta_range=(0.5, 2.0),
            powers=(0,), max_terms=2, popsize=5, maxiter=12)  # fmt: skip


def _field(t: np.ndarray) -> np.ndarray:
    z = np.multiply.outer(t**0.8, LAM)
    return np.real(np.fft.ifft(mittag_leffler(z, 0.8, 1.0) * np.fft.fft(U0), axis=-1))


def _jittered(n: int = 70, span: float = 2.0) -> np.ndarray:
    rng = np.random.default_rng(0)
    h = span / (n - 1)
    t = np.linspace(0, span, n) + rng.uniform(-0.4, 0.4, n) * h
    t[0], t[-1] = 0.0, span
    return t


def _check(model: WeakPareto, rtol: float = 0.03) -> None:
    assert model.mode_ == "sub" and abs(model.alpha_ - 0.8) < 0.02
    assert sorted(np.round(model.orders_, 1)) == [1.0, 1.7]
    coef = model.coef_[np.argsort(model.orders_)]
    np.testing.assert_allclose(coef, [-1.0, 0.5], rtol=rtol)


def test_irregular_times_recover_the_equation_and_say_so():
    t = _jittered()
    model = WeakPareto(**FAST).fit(_field(t), t, X)
    _check(model)
    rec = model.grid_["sampling"]
    assert rec["irregular_t"] and rec["missing_samples"] == 0 and rec["temporal_tests_dropped"] == 0
    assert any(w.code == "sampling" for w in model.warnings_)
    json.loads(model.to_json())


def _gaps(u: np.ndarray, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    mask = rng.random(u.shape) < 0.05
    mask[rng.choice(np.arange(1, u.shape[0]), u.shape[0] // 10, replace=False)] = True
    mask[0] = False
    return mask


def test_gaps_nan_and_masks_recover_the_equation():
    t = np.linspace(0, 2.0, 70)
    u = _field(t)
    mask = _gaps(u)
    bad = np.where(mask & (np.random.default_rng(5).random(u.shape) < 0.5), np.nan, u)
    model = WeakPareto(**FAST).fit(bad, t, X, mask=mask)
    _check(model, rtol=0.07)  # gaps cost coefficient accuracy: 3-6 % (tab_irregular)
    rec = model.grid_["sampling"]
    assert rec["missing_frames"] == 7 and rec["irregular_t"]
    assert rec["missing_samples"] == int(mask[~mask.all(axis=1)].sum())


def test_masked_garbage_is_never_read():
    t = np.linspace(0, 2.0, 70)
    u = _field(t)
    mask = _gaps(u)
    mask[40:48, 20:30] = True
    garbage = u.copy()
    garbage[40:48, 20:30] = 1e3
    a = WeakPareto(**FAST).fit(garbage, t, X, mask=mask)
    b = WeakPareto(**FAST).fit(np.ma.masked_array(u, mask=mask), t, X)
    assert a.equation_.text() == b.equation_.text()
    assert a.grid_["sampling"]["rows_dropped"] > 0


def test_other_methods_and_2d_refuse_with_the_fix():
    t = _jittered()
    u = _field(t)
    with pytest.raises(UserInputError, match="t is not uniform.*method=weak_pareto_exact"):
        WeakPareto(method="weak_pareto_robust").fit(u, t, X)
    with pytest.raises(UserInputError, match="gaps and masks need method=weak_pareto_exact"):
        WeakPareto(method="weak_pareto").fit(
            _field(t * 0 + np.linspace(0, 2, 70)), np.linspace(0, 2, 70), X, mask=u > 0.9
        )
    with pytest.raises(UserInputError, match="periodic domain"):
        WeakPareto(**{**FAST, "domain": "bounded"}).fit(u, t, X)
    v = np.linspace(0, 2, 70)
    u2 = np.ma.masked_array(np.ones((70, 16, 16)) * v[:, None, None], mask=False)
    u2.mask[3, 3, 3] = True
    with pytest.raises(UserInputError, match="1-D only"):
        WeakPareto(powers=(0,)).fit(u2, v, X[:16], X[:16])


def test_too_little_left_and_a_missing_first_frame_are_refused():
    t = np.linspace(0, 2.0, 70)
    u = _field(t)
    with pytest.raises(UserInputError, match="first frame"):
        WeakPareto(**FAST).fit(u, t, X, mask=np.r_[[True], np.zeros(69, bool)][:, None] & (X >= 0))
    many = np.random.default_rng(2).random(u.shape) < 0.45
    many[0] = False
    with pytest.raises(UserInputError, match="too little"):
        WeakPareto(**FAST).fit(u, t, X, mask=many | (np.arange(70)[:, None] % 3 == 1) & (X < 3))


def test_wp_discover_reads_a_mask_key(tmp_path, capsys):
    from weakpareto.user.discover_command import discover_command

    t = _jittered()
    u = _field(t)
    mask = np.random.default_rng(4).random(u.shape) < 0.03
    mask[0] = False
    np.savez(tmp_path / "d.npz", u=u, t=t, x=X, mask=mask)
    skip = ("alpha_range", "beta_range", "powers")
    args = [f"{k}={v}" for k, v in FAST.items() if k not in skip]
    ranges = ["alpha_range=[0.6,1.05]", "beta_range=[0.5,2.0]", "powers=[0]"]
    discover_command([f"data={tmp_path / 'd.npz'}", f"out={tmp_path / 'r.json'}", *ranges, *args])
    out = json.loads((tmp_path / "r.json").read_text())
    assert out["grid"]["sampling"]["missing_samples"] == int(mask.sum())
    assert "mask:" in capsys.readouterr().out
