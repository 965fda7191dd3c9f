"""Trajectory refit by variable projection (method/trajectory_fit.py), on exact per-mode
Mittag-Leffler solutions (no weak-form discretisation involved)."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.method.trajectory_fit import (
    MaskedModeData,
    ModeData,
    TrajectoryModel,
    mode_basis,
    projected_residual,
    refit_trajectory,
)
from weakpareto.numerics.mittag_leffler import mittag_leffler
from weakpareto.numerics.operators import spectral_multiplier

NX, PERIOD = 48, 2 * np.pi
X = PERIOD * np.arange(NX) / NX
KAPPA = 2 * np.pi * np.fft.fftfreq(NX, d=PERIOD / NX)


def exact_field(t, alpha, families, orders, coef, slope=False):
    """``u(t, x)`` of ``D_t^alpha u = sum xi_j X_j^{beta_j} u`` per Fourier mode, from
    three harmonics (and, super-unit, an initial velocity of two others)."""
    u0 = 1.0 + np.sin(X) + 0.4 * np.cos(2 * X + 0.3) + 0.2 * np.sin(3 * X - 0.5)
    lam = sum(c * spectral_multiplier(f, KAPPA, b) for f, b, c in zip(families, orders, coef))
    z = np.multiply.outer(t**alpha, lam)
    spec = (
        mittag_leffler(z, alpha, 1.0) * np.fft.fft(u0) if alpha != 1 else np.exp(z) * np.fft.fft(u0)
    )
    if slope:
        v0 = 0.3 * np.cos(X) + 0.2 * np.sin(2 * X)
        spec = spec + t[:, None] * mittag_leffler(z, alpha, 2.0) * np.fft.fft(v0)
    return np.real(np.fft.ifft(spec, axis=-1))


CASES = [
    ("sub", 0.7, ("riesz",), (1.5,), (0.4,)),
    ("int", 1.0, ("directional", "riesz"), (1.0, 1.6), (-0.5, 0.3)),
    ("sup", 1.4, ("directional",), (2.0,), (0.2,)),
    ("sub", 0.85, ("riesz", "riesz"), (0.0, 2.0), (-0.3, 0.25)),
]


@pytest.mark.parametrize("mode, alpha, families, orders, coef", CASES)
def test_clean_exact_solution_is_recovered_from_a_perturbed_start(
    mode, alpha, families, orders, coef
):
    t = np.linspace(0.0, 2.0, 60)
    u = exact_field(t, alpha, families, orders, coef, slope=mode == "sup")
    data = ModeData.of_field(u, t, PERIOD, noise_variance=0.0)
    model = TrajectoryModel.of_terms(mode, families, orders)
    start_orders = np.array([b + 0.05 if b > 0 else 0.0 for b in orders])
    start_coef = 1.05 * np.array(coef)
    start_alpha = alpha - 0.03 if mode == "sub" else alpha + 0.03 if mode == "sup" else 1.0
    lower = model.pack(0.55 if mode == "sub" else 1.05, np.maximum(start_orders - 0.3, 0.1),
                       np.full(len(coef), -np.inf))  # fmt: skip
    upper = model.pack(0.99 if mode == "sub" else 1.9, start_orders + 0.3,
                       np.full(len(coef), np.inf))  # fmt: skip
    fit = refit_trajectory(data, model, start_alpha, start_orders, start_coef, lower, upper)
    if mode != "int":
        assert fit.alpha == pytest.approx(alpha, abs=1e-6)
    np.testing.assert_allclose(fit.orders, orders, atol=1e-6)
    np.testing.assert_allclose(fit.coef, coef, rtol=1e-6)
    assert fit.residual < 1e-16 < fit.start_residual


def test_the_residual_vanishes_at_the_truth_and_the_weights_are_parseval():
    t = np.linspace(0.0, 1.5, 40)
    u = exact_field(t, 0.6, ("riesz",), (1.2,), (0.5,))
    data = ModeData.of_field(u, t, PERIOD, noise_variance=0.0)
    model = TrajectoryModel.of_terms("sub", ("riesz",), (1.2,))
    rates = model.rates(data.kappa, np.array([1.2]), np.array([0.5]))
    r = projected_residual(data, mode_basis(data.times, "sub", 0.6, rates))
    energy = np.sum(data.weights * np.sum(np.abs(data.spectrum) ** 2, axis=0))
    assert r @ r < 1e-24 * energy
    # the half spectrum's weights give the samples' energy (modes without signal hold ~0)
    assert energy == pytest.approx(NX * np.sum(u * u), rel=1e-12)
    wrong = projected_residual(data, mode_basis(data.times, "sub", 0.6, 1.5 * rates))
    assert wrong @ wrong > 1e-6 * energy


def test_only_modes_with_signal_are_used():
    rng = np.random.default_rng(0)
    t = np.linspace(0.0, 2.0, 50)
    u = exact_field(t, 0.8, ("riesz",), (1.5,), (0.3,))
    noisy = u + 0.01 * rng.standard_normal(u.shape)
    data = ModeData.of_field(noisy, t, PERIOD, noise_variance=1e-4)
    assert sorted(np.round(data.kappa).astype(int)) == [0, 1, 2, 3]
    assert data.times[0] == 0.0


def test_orders_that_are_equal_stay_one_parameter():
    model = TrajectoryModel.of_terms("sub", ("directional", "directional_right", "riesz"),
                                     (1.5, 1.5, 0.0))  # fmt: skip
    assert model.order_groups == (0, 0, -1) and model.n_orders == 1
    packed = model.pack(0.8, np.array([1.5, 1.5, 0.0]), np.array([0.2, 0.1, -0.3]))
    assert packed.tolist() == [0.8, 1.5, 0.2, 0.1, -0.3]
    alpha, orders, coef = model.unpack(np.array([0.7, 1.4, 1.0, 2.0, 3.0]), 0.8)
    assert alpha == 0.7 and orders.tolist() == [1.4, 1.4, 0.0] and coef.tolist() == [1.0, 2.0, 3.0]


def test_missing_samples_are_fitted_where_they_were_taken():
    """A tenth of the samples missing (set to 1e3: they must not be read): the clean solution is
    recovered from a perturbed start."""
    rng = np.random.default_rng(3)
    t = np.sort(np.r_[0.0, rng.uniform(0.0, 2.0, 58), 2.0])  # irregular times too
    u = exact_field(t, 0.75, ("directional", "riesz"), (1.0, 1.7), (-0.6, 0.3))
    missing = rng.random(u.shape) < 0.1
    missing[0] = False
    kappa = ModeData.of_field(u, t, PERIOD, noise_variance=0.0).kappa
    data = MaskedModeData.of_field(np.where(missing, 1e3, u), t, X, kappa, missing)
    assert data.n_frames == t.size and data.values.size == int((~missing).sum())
    model = TrajectoryModel.of_terms("sub", ("directional", "riesz"), (1.0, 1.7))
    lower = model.pack(0.55, np.array([0.7, 1.4]), np.full(2, -np.inf))
    upper = model.pack(0.99, np.array([1.3, 2.0]), np.full(2, np.inf))
    fit = refit_trajectory(data, model, 0.72, np.array([1.05, 1.65]), np.array([-0.55, 0.33]),
                           lower, upper)  # fmt: skip
    assert fit.alpha == pytest.approx(0.75, abs=1e-6)
    np.testing.assert_allclose(fit.orders, [1.0, 1.7], atol=1e-6)
    np.testing.assert_allclose(fit.coef, [-0.6, 0.3], rtol=1e-6)


@pytest.mark.parametrize(("mode", "alpha"), [("sub", 0.6), ("sup", 1.5)])
def test_an_onset_before_the_record_is_recovered_with_the_equation(mode, alpha):
    """A field started 1.5 time units before its first sample (exact per-mode solution at the
    time since the onset): from a start off in alpha, the order, the coefficient and the delay
    (0.2 of the record's 2 units) the onset model finds all four; at delay 0 the residual is
    far above it (the missing memory)."""
    t = np.linspace(0.0, 2.0, 60)
    u = exact_field(t + 1.5, alpha, ("riesz",), (1.5,), (0.4,), slope=mode == "sup")
    data = ModeData.of_field(u, t, PERIOD, noise_variance=0.0)
    model = TrajectoryModel.of_terms(mode, ("riesz",), (1.5,), onset=True)
    assert model.onset and model.n_parameters == 4
    a_lo, a_hi = (0.3, 0.99) if mode == "sub" else (1.05, 1.9)
    lower = model.pack(a_lo, np.array([0.5]), np.array([-np.inf]), 0.0)
    upper = model.pack(a_hi, np.array([2.5]), np.array([np.inf]), 20.0)
    start = (alpha + 0.1, np.array([1.7]), np.array([0.3]))
    fit = refit_trajectory(data, model, *start, lower, upper, delay=0.4)
    assert fit.alpha == pytest.approx(alpha, abs=1e-6)
    assert fit.delay == pytest.approx(1.5, rel=1e-5)
    np.testing.assert_allclose(fit.orders, [1.5], atol=1e-6)
    np.testing.assert_allclose(fit.coef, [0.4], rtol=1e-6)
    plain = TrajectoryModel.of_terms(mode, ("riesz",), (1.5,))
    at_zero = refit_trajectory(data, plain, *start, np.delete(lower, 1), np.delete(upper, 1))
    assert fit.residual < 1e-14 and at_zero.residual > 1e4 * max(fit.residual, 1e-16)


def test_the_integer_branch_has_no_onset_parameter():
    model = TrajectoryModel.of_terms("int", ("riesz",), (1.5,), onset=True)
    assert not model.onset and model.n_parameters == 2


@pytest.mark.parametrize(("family", "order", "coef"), [("tempered_riesz", 1.5, 0.3),
                                                       ("tempered", 0.7, -0.3)])  # fmt: skip
def test_a_tempered_family_is_refitted_with_lambda_given_or_free(family, order, coef):
    """u_t = c X^{beta, lambda} u, lambda = 1.3 (exact per-mode exponentials of the tempered
    symbol, docs/method/tempered.md): with lambda given the refit finds order and coefficient;
    with lambda a parameter (started at 2) it finds lambda too."""
    from weakpareto.numerics.tempered import tempered_spectral_multiplier

    t = np.linspace(0.0, 2.0, 60)
    u0 = 1.0 + np.sin(X) + 0.4 * np.cos(2 * X + 0.3) + 0.2 * np.sin(3 * X - 0.5)
    lam = coef * tempered_spectral_multiplier(family, KAPPA, order, 1.3)
    u = np.real(np.fft.ifft(np.exp(np.multiply.outer(t, lam)) * np.fft.fft(u0), axis=-1))
    data = ModeData.of_field(u, t, PERIOD, noise_variance=0.0)
    for free in (False, True):
        model = TrajectoryModel.of_terms("int", (family,), (order,), tempering=1.3,
                                         tempering_free=free)  # fmt: skip
        assert model.n_parameters == 2 + free
        lo = [np.log(0.1)] if free else []
        hi = [np.log(10.0)] if free else []
        lower = np.array([*lo, order - 0.25, -np.inf])
        upper = np.array([*hi, order + 0.25, np.inf])
        fit = refit_trajectory(data, model, 1.0, np.array([order + 0.1]), np.array([1.1 * coef]),
                               lower, upper, tempering=2.0 if free else None)  # fmt: skip
        np.testing.assert_allclose(fit.orders, [order], atol=1e-6)
        np.testing.assert_allclose(fit.coef, [coef], rtol=1e-6)
        assert fit.tempering == pytest.approx(1.3, rel=1e-6)


def test_the_reported_residual_is_the_residual_at_the_fitted_parameters():
    """The fit reports the optimiser's residual at its solution (not evaluated once more): it
    equals, bit for bit, the projected residual recomputed at the fitted parameters."""
    t = np.linspace(0.0, 2.0, 50)
    u = exact_field(t, 0.75, ("riesz",), (1.4,), (0.35,))
    rng = np.random.default_rng(3)
    data = ModeData.of_field(u + 0.01 * rng.standard_normal(u.shape), t, PERIOD, 1e-4)
    model = TrajectoryModel.of_terms("sub", ("riesz",), (1.4,))
    lower = model.pack(0.55, np.array([1.1]), np.array([-np.inf]))
    upper = model.pack(0.99, np.array([1.7]), np.array([np.inf]))
    fit = refit_trajectory(data, model, 0.7, np.array([1.45]), np.array([0.3]), lower, upper)
    assert fit.parameters is not None
    alpha, orders, coef = model.unpack(fit.parameters, 0.7)
    basis = mode_basis(data.times, "sub", alpha, model.rates(data.kappa, orders, coef, 0.0))
    r = data.residual(basis) / np.sqrt(data.energy)
    assert fit.residual == float(r @ r) > 0.0
