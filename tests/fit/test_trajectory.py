"""refit=auto|weak|trajectory (fit/trajectory.py): the selected linear model refitted to the
samples' trajectory, on exact per-mode Mittag-Leffler solutions with measurement noise."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.errors import UserInputError
from weakpareto.numerics.mittag_leffler import mittag_leffler
from weakpareto.user.estimator import WeakPareto

NX, NT = 64, 70
X = 2 * np.pi * np.arange(NX) / NX
K = np.fft.fftfreq(NX, 1.0 / NX)
T = np.linspace(0.0, 2.0, NT)


def diffusion_wave(noise: float, seed: int) -> np.ndarray:
    """``D_t^1.4 u = 0.12 D_x^2 u`` (directional: ``-0.12 k^2``), zero initial velocity, three
    harmonics, plus ``noise`` x std(u) white noise."""
    u0 = np.sin(X) + 0.35 * np.sin(2 * X + 0.3) + 0.15 * np.sin(3 * X - 0.2)
    z = np.multiply.outer(T**1.4, -0.12 * K**2)
    u = np.real(np.fft.ifft(mittag_leffler(z, 1.4, 1.0) * np.fft.fft(u0), axis=-1))
    rng = np.random.default_rng(seed)
    return u + noise * np.std(u) * rng.standard_normal(u.shape)


SETTINGS = {
    "operator": "directional",
    "powers": (0,),
    "max_terms": 3,
    "alpha_range": (1.05, 1.85),
    "beta_range": (0.5, 2.5),
}


def test_the_refit_recovers_a_diffusion_wave_the_weak_estimate_misses_at_1_percent():
    """Noise seed 103: the weak estimate's order is 0.03 off (D_x^1.9704), the trajectory
    refit's within 0.01 with alpha within 0.005 and the coefficient within 1 %."""
    u = diffusion_wave(0.01, 103)
    weak = WeakPareto(refit="weak", **SETTINGS).fit(u, T, X)
    model = WeakPareto(**SETTINGS).fit(u, T, X)  # refit="auto", the default
    assert abs(weak.orders_[0] - 2.0) > 0.025
    assert model.mode_ == "sup" and model.orders_.size == 1
    assert abs(model.alpha_ - 1.4) < 0.005
    assert abs(model.orders_[0] - 2.0) < 0.01
    assert abs(model.coef_[0] / 0.12 - 1) < 0.01
    (note,) = [w for w in model.warnings_ if w.code == "trajectory_refit"]
    assert note.level == "info" and "Fourier modes" in note.message
    assert model.result_.timings["trajectory_modes"] == 3.0
    assert not [w for w in weak.warnings_ if w.code == "trajectory_refit"]
    # the weak front is the same; only the final estimate differs
    assert [f["equation"] for f in model.pareto_front_] == [
        f["equation"] for f in weak.pareto_front_
    ]
    again = WeakPareto.from_json(model.to_json())
    assert again.refit == "auto" and again.equation_ == model.equation_


def test_clean_data_are_refitted_to_the_truth():
    model = WeakPareto(refit="trajectory", **SETTINGS).fit(diffusion_wave(0.0, 0), T, X)
    assert model.alpha_ == pytest.approx(1.4, abs=1e-6)
    assert model.orders_[0] == pytest.approx(2.0, abs=1e-6)
    assert model.coef_[0] == pytest.approx(0.12, rel=1e-6)


@pytest.mark.parametrize(
    ("irregular", "reason"),
    [(True, "irregular sampling times"), (False, "missing samples")],
)
def test_a_nonlinear_model_outside_the_steppers_reach_keeps_its_weak_estimate(irregular, reason):
    """The stepper needs uniform times and every sample: ``auto`` keeps the weak estimate
    silently, an explicit ``refit=trajectory`` is warned with the reason."""
    rng = np.random.default_rng(1)
    t = np.linspace(0.0, 1.0, 60)
    u = 1.0 + 0.5 * np.outer(np.exp(-t), np.sin(X)) + 1e-3 * rng.standard_normal((60, NX))
    if irregular:
        t = t + 0.004 * np.sin(7 * t)
    else:
        u = np.where(rng.random(u.shape) < 0.05, np.nan, u)
    settings = {"operator": "riesz", "powers": (1,), "max_terms": 1}
    auto = WeakPareto(**settings).fit(u, t, X)
    weak = WeakPareto(refit="weak", **settings).fit(u, t, X)
    assert auto.powers_.tolist() == [1] and auto.equation_ == weak.equation_
    assert not [w for w in auto.warnings_ if w.code == "trajectory_refit"]
    assert auto.grid_["refit"]["estimate"] == "weak"
    asked = WeakPareto(refit="trajectory", **settings).fit(u, t, X)
    (w,) = [w for w in asked.warnings_ if w.code == "trajectory_refit"]
    assert w.level == "warning" and w.message == f"trajectory refit not applied: {reason}"


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"refit": "exact"}, "refit='exact' is not one of"),
        ({"refit": "trajectory", "domain": "bounded"}, "refit=trajectory is not implemented"),
    ],
)
def test_refusals_are_one_line(params, match):
    with pytest.raises(UserInputError, match=match) as info:
        WeakPareto(**{**SETTINGS, **params}).fit(diffusion_wave(0.0, 0), T, X)
    assert "\n" not in str(info.value)


def test_several_experiments_are_refitted_together_each_from_its_own_start():
    """Three short records of ``D_t^0.7 u = 0.3 R^1.5 u`` (exact per-mode solutions, own initial
    conditions, lengths and grids, 1 % noise): one refit of the pooled model, every frame used."""
    rng = np.random.default_rng(5)
    fields, times, xs = [], [], []
    for nt, nx, t_end, phase in ((31, 64, 0.5, 0.0), (41, 48, 0.8, 1.0), (25, 64, 0.4, 2.0)):
        x = 2 * np.pi * np.arange(nx) / nx
        k = np.fft.fftfreq(nx, 1.0 / nx)
        t = np.linspace(0.0, t_end, nt)
        u0 = 1.0 + np.sin(x + phase) + 0.4 * np.cos(2 * x - phase) + 0.2 * np.sin(3 * x)
        z = np.multiply.outer(t**0.7, -0.3 * np.abs(k) ** 1.5)
        u = np.real(np.fft.ifft(mittag_leffler(z, 0.7, 1.0) * np.fft.fft(u0), axis=-1))
        fields.append(u + 0.01 * np.std(u) * rng.standard_normal(u.shape))
        times.append(t)
        xs.append(x)
    settings = {"operator": "riesz", "alpha_range": (0.2, 1.9), "beta_range": (0.0, 3.2)}
    model = WeakPareto(**settings).fit(fields, times, xs)
    (note,) = [w for w in model.warnings_ if w.code == "trajectory_refit"]
    assert "97 frames" in note.message  # 31 + 41 + 25
    assert model.mode_ == "sub" and model.orders_.size == 1
    assert abs(model.alpha_ - 0.7) < 0.01 and abs(model.orders_[0] - 1.5) < 0.02
    assert abs(model.coef_[0] / 0.3 - 1) < 0.02


def test_a_refit_on_its_trust_box_is_named():
    """trust_edge: an order on the 0.3 box around its weak start (inside beta_range) is named;
    on the search range's own edge, or inside, it is not."""
    from weakpareto.fit.trajectory import trust_edge
    from weakpareto.method.trajectory_fit import TrajectoryFit, TrajectoryModel

    model = TrajectoryModel.of_terms("sub", ("riesz",), (1.65,))
    box = (np.array([0.5, 1.35, -np.inf]), np.array([0.99, 1.95, np.inf]))
    wide = (np.array([0.5, 1.05, -np.inf]), np.array([0.99, 2.0, np.inf]))

    def fit_at(alpha: float, order: float) -> TrajectoryFit:
        p = np.array([alpha, order, 0.3])
        return TrajectoryFit(alpha, p[1:2], p[2:], 1.0, 0.5, 3, 50, 9, 0.1, parameters=p)

    assert trust_edge(model, fit_at(0.8, 1.35), box, wide) == ("order 1", 1)
    assert trust_edge(model, fit_at(0.8, 1.5), box, wide) is None
    assert trust_edge(model, fit_at(0.5, 1.5), box, wide) is None  # alpha_range's own edge
