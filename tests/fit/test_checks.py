"""Diagnostics of every fit: noise estimate, bounds, poor fit, flat front, small terms, probe."""

from __future__ import annotations

import json

import numpy as np
import pytest

from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.fit.checks import (
    FitContext,
    FitWarning,
    check_bounds,
    check_fit,
    check_front,
    noise_note,
)
from weakpareto.library.noise_level import relative_noise_level
from weakpareto.records import DiscoveryResult, Equation, FrontPoint, Term
from weakpareto.user.estimator import WeakPareto

LEVELS = (0.0, 0.01, 0.05, 0.10)


def kdv_two_soliton(nt: int = 60, nx: int = 128, length: float = 40.0):
    """Exact 2-soliton of u_t = -6 u u_x - u_xxx: u = 2 (log tau)_xx with
    tau = 1 + e^eta1 + e^eta2 + A e^(eta1 + eta2), eta_i = k_i x - k_i^3 t,
    A = ((k1 - k2) / (k1 + k2))^2; amplitudes k^2/2 = 2 and 0.98, speeds k^2 = 4 and 1.96.
    The solitons cross at t = 0 and stay > 8 widths from the ends of [-20, 20) for |t| <= 3,
    so the field is periodic to ~1e-6."""
    k1, k2 = 2.0, 1.4
    t = np.linspace(-3.0, 3.0, nt)
    x = -length / 2 + length * np.arange(nx) / nx
    tt, xx = np.meshgrid(t, x, indexing="ij")
    e1, e2 = np.exp(k1 * xx - k1**3 * tt), np.exp(k2 * xx - k2**3 * tt)
    a = ((k1 - k2) / (k1 + k2)) ** 2
    tau = 1 + e1 + e2 + a * e1 * e2
    tau_x = k1 * e1 + k2 * e2 + a * (k1 + k2) * e1 * e2
    tau_xx = k1**2 * e1 + k2**2 * e2 + a * (k1 + k2) ** 2 * e1 * e2
    return 2 * (tau * tau_xx - tau_x**2) / tau**2, t, x


def test_kdv_field_solves_kdv():
    u, t, x = kdv_two_soliton(nt=201, nx=256)
    k = 2 * np.pi * np.fft.fftfreq(x.size, x[1] - x[0])
    spec = np.fft.fft(u, axis=1)
    ux = np.fft.ifft(1j * k * spec, axis=1).real
    uxxx = np.fft.ifft((1j * k) ** 3 * spec, axis=1).real
    ut = np.gradient(u, t, axis=0, edge_order=2)
    resid = ut + 6 * u * ux + uxxx
    assert np.linalg.norm(resid[2:-2]) / np.linalg.norm(ut[2:-2]) < 0.01  # O(dt^2) of gradient
    assert abs(u.max() - 2.0) < 0.01


# -- noise estimate -----------------------------------------------------------------------------
def _fields():
    out = {name: np.asarray(generate(name).u) for name in ("fade", "burgers", "riesz2")}
    out["kdv"] = kdv_two_soliton(nt=101, nx=256)[0]
    return out


@pytest.fixture(scope="module")
def fields():
    return _fields()


@pytest.mark.parametrize("law", ["additive_gaussian", "multiplicative"])
def test_noise_estimate_within_a_factor_of_two(fields, law):
    """Known noise at 0/1/5/10 %: the estimate is within a factor 2 (in fact a few %)."""
    for name, u in fields.items():
        for level in LEVELS:
            noisy = add_noise(u, law, level, 0)
            true = float(np.sqrt(np.mean((noisy - u) ** 2)) / np.std(u))  # rms / std(u)
            est = relative_noise_level(noisy)
            if level == 0.0:
                assert est < 1e-3, (name, est)
            else:
                assert true / 2 <= est <= 2 * true, (name, law, level, est, true)
                assert abs(est / true - 1) < 0.1, (name, law, level, est, true)


def test_noise_estimate_is_unit_free(fields):
    noisy = add_noise(fields["fade"], "additive_gaussian", 0.05, 0)
    assert relative_noise_level(noisy * 1e-9 + 3.0) == pytest.approx(
        relative_noise_level(noisy), rel=1e-6
    )


# -- the README example and KdV -----------------------------------------------------------------
@pytest.fixture(scope="module")
def kdv_default_range():
    u, t, x = kdv_two_soliton()
    model = WeakPareto(alpha_range=(0.5, 1.5), beta_range=(0.5, 2.0), powers=(0, 1, 2))
    return model.set_params(popsize=4, maxiter=8).fit(u, t, x)


def test_kdv_with_default_beta_range_warns_beta_range(kdv_default_range, capsys):
    m = kdv_default_range
    codes = [w.code for w in m.warnings_ if w.level == "warning"]
    assert "beta_range" in codes, m.warnings_
    # the fix is named: an order on the upper bound of [0.5, 2], or the third-order term outside
    range_warnings = [w.message for w in m.warnings_ if w.code == "beta_range"]
    assert all("beta_range=[0.5," in msg for msg in range_warnings)
    assert any("order 3" in msg or "upper bound" in msg for msg in range_warnings)
    m.print()
    out = capsys.readouterr().out
    assert "warning: [beta_range]" in out
    data = json.loads(m.to_json())
    assert any(w["code"] == "beta_range" and w["level"] == "warning" for w in data["warnings"])
    assert all(set(w) == {"code", "level", "message"} for w in data["warnings"])
    assert all("\n" not in w["message"] for w in data["warnings"])
    again = WeakPareto.from_json(m.to_json())
    assert again.warnings_ == m.warnings_ and again.noise_level_ == m.noise_level_


def test_kdv_with_wide_range_has_no_range_warning():
    u, t, x = kdv_two_soliton()
    m = WeakPareto(alpha_range=(0.9, 1.1), beta_range=(0.5, 4.5), powers=(0, 1)).fit(u, t, x)
    assert m.mode_ == "int" and sorted(np.round(m.orders_, 2)) == [1.0, 3.0]
    assert [w.code for w in m.warnings_ if w.level == "warning"] == []


# -- individual checks on constructed results ---------------------------------------------------
def _ctx(eq: Equation, front=(), **kw) -> FitContext:
    res = DiscoveryResult(
        front=tuple(front),
        pareto=tuple(fp.size for fp in front),
        selected_size=kw.pop("selected", eq.size),
        selected=eq,
        final=eq,
        fit_error=kw.pop("fit_error", 0.01),
    )
    base = dict(
        source=None,
        result=res,
        alpha_range=(0.6, 1.05),
        beta_range=(0.5, 2.0),
        powers=(0, 1, 2),
        max_terms=4,
        ridge=1e-3,
        operator="directional",
        two_d=False,
        u=np.zeros((2, 2)),
    )
    base.update(kw)
    return FitContext(**base)  # type: ignore[arg-type]


def test_bounds_within_one_percent_of_the_width():
    width = 0.45
    eq = Equation("sub", 0.6 + 0.009 * width, (Term(0, 1.0, -1.0), Term(0, 2.0 - 0.004, 0.5)))
    out = check_bounds(eq, _ctx(eq))
    assert [w.code for w in out] == ["alpha_range", "beta_range"]
    assert "alpha_range=[0.3,1.05]" in out[0].message and "beta_range=[0.5,3]" in out[1].message
    inside = Equation("sub", 0.6 + 0.02 * width, (Term(0, 1.0, -1.0), Term(0, 1.97, 0.5)))
    assert check_bounds(inside, _ctx(inside)) == []
    identity = Equation("int", 1.0, (Term(0, 0.0, 0.1),))  # beta = 0 with beta_range [0, 2]
    assert check_bounds(identity, _ctx(identity, beta_range=(0.0, 2.0))) == []


def _front(errors):
    eq = Equation("int", 1.0, (Term(0, 1.0, 1.0),))
    return [FrontPoint(i + 1, e, e, np.log10(e), 0.0, 0.0, eq) for i, e in enumerate(errors)]


def test_front_not_flat():
    eq = Equation("int", 1.0, (Term(0, 1.0, 1.0),))
    steep = DiscoveryResult(tuple(_front([0.9, 0.8, 0.01])), (1, 2, 3), 1, eq, eq, 0.9)
    (w,) = check_front(steep, 4)
    assert w.code == "front_not_flat" and "80.0x" in w.message and "selection=bic" in w.message
    at_max = DiscoveryResult(tuple(_front([0.9, 0.5, 0.1])), (1, 2, 3), 3, eq, eq, 0.3)
    assert "raise max_terms (now 3)" in check_front(at_max, 3)[0].message
    flat = DiscoveryResult(tuple(_front([5e-3, 1.2e-4, 9.5e-5])), (1, 2, 3), 2, eq, eq, 0.01)
    assert check_front(flat, 4) == []  # FADE's front
    tail = DiscoveryResult(tuple(_front([4.8e-4, 1.65e-6, 7.35e-7])), (1, 2, 3), 2, eq, eq, 1e-3)
    assert check_front(tail, 4) == []  # clean two-term Riesz: 290x, then 2.2x is flat


def test_fit_thresholds_and_info_level():
    assert [w.code for w in check_fit(0.31, 0.0)] == ["poor_fit"]
    assert "max_terms" in check_fit(0.31, 0.0)[0].message
    assert check_fit(0.2, 0.1) == []  # noise explains it
    # a poor fit the noise accounts for: no advice to add terms
    (w,) = check_fit(0.9, 0.7)
    assert w.code == "noise_dominated" and "max_terms" not in w.message and "0.7" in w.message
    assert [w.code for w in check_fit(0.9, 0.6)] == ["poor_fit"]  # 0.6 < 0.7 x 0.9
    assert [w.code for w in check_fit(0.2, 0.01)] == ["misfit"]
    assert check_fit(0.04, 0.0) == []
    assert noise_note(0.03).level == "info" and noise_note(0.3).level == "warning"
    w = FitWarning("x", "msg")
    assert FitWarning.from_dict(w.to_dict()) == w and w.line() == "warning: [x] msg"


def test_fade_at_10_percent_has_no_warnings(noisy_fade):
    u, t, x = noisy_fade
    m = WeakPareto(alpha_range=(0.6, 1.05), max_terms=3, popsize=4, maxiter=8, polish=False)
    m.fit(u, t, x)
    codes = [w.code for w in m.warnings_ if w.level == "warning"]
    assert codes == []  # the 10 % FADE fit: both terms far above the noise floor
    assert 0.05 < m.noise_level_ < 0.1  # 10 % multiplicative: 7.8 % of std(u)
    assert 0 < m.grid_["noise_floor"] < 0.1


def test_noise_floor_of_a_family_library_is_its_families_own(noisy_fade):
    """Without ``operator`` the fit searches a family library; a selected model of directional
    terms leaves the surrogate noise the directional library leaves (same tests, same draw)."""
    u, t, x = noisy_fade
    cheap = {"alpha_range": (0.6, 1.05), "max_terms": 3, "popsize": 4, "maxiter": 8}
    auto = WeakPareto(**cheap, polish=False).fit(u, t, x)
    one = WeakPareto(operator="directional", **cheap, polish=False).fit(u, t, x)
    assert auto.equation_.text() == one.equation_.text()
    assert auto.grid_["noise_floor"] == pytest.approx(one.grid_["noise_floor"], rel=1e-12)


def test_small_term_is_flagged(noisy_fade):
    from weakpareto.fit.checks import check_small_terms
    from weakpareto.library.weak import weak_library

    u, t, x = noisy_fade
    nt, nx = u.shape
    lib = weak_library(
        u / np.abs(u).max(),
        np.arange(nt, dtype=float),
        np.arange(nx, dtype=float),
        operator="directional",
        power_mode="positive",
    )
    c1, c2 = -(0.1**0.8) / 0.25, 0.5 * 0.1**0.8 * 0.25**-1.7  # FADE in grid units
    eq = Equation("sub", 0.8, (Term(0, 1.0, c1), Term(0, 1.7, c2), Term(1, 1.2, 1e-5)))
    out = check_small_terms(eq, _ctx(eq, source=lib), floor=0.02)
    assert [w.code for w in out] == ["small_term"]
    assert "u D_x^1.2000 u" in out[0].message and "max_terms=2" in out[0].message


def _riesz_field(order: float, coef: float = 0.3):
    """Exact solution of u_t = coef R^order u (Riesz symbol -|k|^order) on [0, 2 pi)."""
    t = np.linspace(0.0, 1.0, 81)
    x = np.linspace(0.0, 2 * np.pi, 64, endpoint=False)
    u = np.zeros((t.size, x.size))
    for k, a in ((1, 1.0), (2, 0.5), (3, 0.3), (5, 0.1)):
        u += a * np.exp(-coef * k**order * t)[:, None] * np.cos(k * x + 0.3 * k)[None]
    return u, t, x


@pytest.mark.parametrize("true_order, advice", [(2.5, "widen it"), (1.5, "would not help")])
def test_a_term_on_the_beta_bound_is_told_to_widen_only_when_that_fits_better(true_order, advice):
    """Clean exact fields: a term on the upper bound 2.0 of beta_range when the truth is R^2.5
    (an order beyond the range fits better: widen) and when the truth is R^1.5 with a spurious
    bound term (no order beyond fits better: widening would not help)."""
    from weakpareto.library.weak import weak_library

    u, t, x = _riesz_field(true_order)
    lib = weak_library(u, t, x, operator="riesz")
    if true_order > 2.0:
        eq = Equation("int", 1.0, (Term(0, 2.0, 0.3),))
    else:
        eq = Equation("int", 1.0, (Term(0, 1.5, 0.3), Term(0, 2.0, 1e-4)))
    ctx = _ctx(eq, source=lib, operator="riesz", beta_range=(0.5, 2.0), alpha_range=(0.5, 1.5))
    (w,) = [w for w in check_bounds(eq, ctx) if w.code == "beta_range"]
    assert advice in w.message
