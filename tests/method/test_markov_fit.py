"""One-step refit by instrumental-variable propagators (method/markov_fit.py), on fields made
per Fourier mode by the model's own linear stochastic dynamics and on exact clean solutions (no
weak form involved)."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.method.markov_fit import PropagatorData, refit_markov
from weakpareto.method.trajectory_fit import TrajectoryModel
from weakpareto.numerics.operators import spectral_multiplier

NX, PERIOD, DT = 64, 2 * np.pi, 0.02
KAPPA = np.fft.rfftfreq(NX, d=PERIOD / NX) * 2 * np.pi
FAMILIES, ORDERS, COEF = ("riesz",), np.array([1.5]), np.array([0.5])


def rates(families=FAMILIES, orders=ORDERS, coef=COEF):
    return sum(c * spectral_multiplier(f, KAPPA, b) for f, b, c in zip(families, orders, coef))


def state_noise_field(nt, fluctuation, seed, lam=None):
    """``U_k(t + dt) = exp(dt lambda_k) U_k(t) + e_k``: three excited harmonics plus stationary
    fluctuations of standard deviation ``fluctuation`` per grid point in every mode (the
    innovations' variance ``(1 - |P_k|^2)`` of it), the law of a density of independent
    particles; returns ``(u, t)``."""
    rng = np.random.default_rng(seed)
    lam = rates() if lam is None else lam
    prop = np.exp(DT * lam)
    var = fluctuation**2 * NX  # per rfft coefficient (both parts together) of white noise
    spec = np.zeros((nt, KAPPA.size), dtype=complex)
    spec[0, 1:4] = NX * np.array([0.3, 0.15j, 0.08])
    draw = rng.standard_normal(KAPPA.size) + 1j * rng.standard_normal(KAPPA.size)
    spec[0] += np.sqrt(var / 2) * draw
    innov = np.sqrt(var * (1 - np.abs(prop) ** 2) / 2)
    for i in range(1, nt):  # the time recursion of a stochastic process (not a hot path)
        e = rng.standard_normal(KAPPA.size) + 1j * rng.standard_normal(KAPPA.size)
        spec[i] = prop * spec[i - 1] + innov * e
    spec[:, 0] = NX
    spec[:, -1] = spec[:, -1].real
    return np.fft.irfft(spec, n=NX, axis=1), DT * np.arange(nt)


def fit_markov(u, t, orders=ORDERS, coef=COEF, families=FAMILIES):
    data = PropagatorData.of_field(u, t, PERIOD)
    assert isinstance(data, PropagatorData), data
    model = TrajectoryModel.of_terms("int", families, orders)
    n = len(coef)
    lower = model.pack(1.0, np.full(n, 0.1), np.full(n, -np.inf))
    upper = model.pack(1.0, np.full(n, 3.0), np.full(n, np.inf))
    return refit_markov(data, model, np.asarray(orders), np.asarray(coef), lower, upper), data


def test_clean_linear_field_is_recovered_exactly_from_a_perturbed_start():
    lam = rates(("directional", "riesz"), (1.0, 1.6), (-0.5, 0.3))
    t = DT * np.arange(80)
    spec0 = NX * np.exp(-0.3 * KAPPA) * np.exp(1j * KAPPA)  # every mode excited
    u = np.fft.irfft(np.exp(np.multiply.outer(t, lam)) * spec0, n=NX, axis=1)
    fit, _ = fit_markov(u, t, (1.05, 1.55), (-0.45, 0.33), ("directional", "riesz"))
    np.testing.assert_allclose(fit.orders, [1.0, 1.6], atol=1e-7)
    np.testing.assert_allclose(fit.coef, [-0.5, 0.3], atol=1e-7)


def test_state_noise_order_and_chi_square():
    """Fluctuations that obey the dynamics: over six seeds the order's mean is within 0.01 and
    the coefficient's within 1 % of the truth, and the chi-square per degree of freedom of the
    right model averages one (its seed scatter is sqrt(2 / dof) ~ 0.2)."""
    orders, coefs, per_dof = [], [], []
    for seed in range(6):
        u, t = state_noise_field(150, 0.01, seed)
        fit, data = fit_markov(u, t, (1.4,), (0.45,))
        assert fit.dof == 2 * data.kappa.size - 2
        orders.append(fit.orders[0])
        coefs.append(fit.coef[0])
        per_dof.append(fit.chi2 / fit.dof)
    assert abs(np.mean(orders) - 1.5) < 0.01
    assert abs(np.mean(coefs) / 0.5 - 1) < 0.01
    assert np.mean(per_dof) == pytest.approx(1.0, abs=0.15)


def test_a_wrong_model_leaves_a_large_chi_square():
    t = DT * np.arange(200)
    lam = rates(("riesz", "directional"), (1.5, 1.0), (0.5, -0.8))
    u = state_noise_field(200, 0.01, 7, lam=lam)[0]
    fit, _ = fit_markov(u, t)  # the drift is missing
    assert fit.chi2 / fit.dof > 10


def test_white_measurement_noise_does_not_bias_the_instrumented_fit():
    lam = rates()
    t = DT * np.arange(200)
    spec0 = NX * np.exp(-0.15 * KAPPA)
    clean = np.fft.irfft(np.exp(np.multiply.outer(t, lam)) * spec0, n=NX, axis=1)
    found = []
    for seed in range(4):
        noisy = clean + 0.01 * np.random.default_rng(seed).standard_normal(clean.shape)
        found.append(fit_markov(noisy, t)[0].orders[0])
    assert abs(np.mean(found) - 1.5) < 0.02


def test_refusals_name_the_reason():
    u, t = state_noise_field(30, 0.01, 0)
    bent = t.copy()
    bent[5] += 1e-3
    assert "not uniform" in PropagatorData.of_field(u, bent, PERIOD)
    assert "frames" in PropagatorData.of_field(u[:5], t[:5], PERIOD)
    flat = np.ones_like(u) + 1e-3 * np.random.default_rng(0).standard_normal(u.shape)
    assert "correlation over a step" in PropagatorData.of_field(flat, t, PERIOD)
    with pytest.raises(ValueError, match="integer branch"):
        sub = TrajectoryModel.of_terms("sub", FAMILIES, ORDERS)
        data = PropagatorData.of_field(u, t, PERIOD)
        refit_markov(data, sub, ORDERS, COEF, np.zeros(3), np.ones(3))


def test_tempered_family_at_a_given_lambda_is_recovered_exactly():
    from weakpareto.numerics.tempered import tempered_spectral_multiplier

    lam = 0.3 * np.asarray(tempered_spectral_multiplier("tempered_riesz", KAPPA, 1.5, 1.0))
    t = DT * np.arange(80)
    spec0 = NX * np.exp(-0.2 * KAPPA)
    u = np.fft.irfft(np.exp(np.multiply.outer(t, lam)) * spec0, n=NX, axis=1)
    data = PropagatorData.of_field(u, t, PERIOD)
    model = TrajectoryModel.of_terms("int", ("tempered_riesz",), (1.4,), tempering=1.0)
    lower = model.pack(1.0, np.array([0.5]), np.array([-np.inf]))
    upper = model.pack(1.0, np.array([2.0]), np.array([np.inf]))
    fit = refit_markov(data, model, np.array([1.4]), np.array([0.25]), lower, upper)
    np.testing.assert_allclose([fit.orders[0], fit.coef[0]], [1.5, 0.3], atol=1e-7)


def test_tempered_family_with_lambda_free_recovers_lambda():
    from weakpareto.numerics.tempered import tempered_spectral_multiplier

    lam = 0.3 * np.asarray(tempered_spectral_multiplier("tempered_riesz", KAPPA, 1.5, 1.0))
    t = DT * np.arange(80)
    u = np.fft.irfft(np.exp(np.multiply.outer(t, lam)) * NX * np.exp(-0.2 * KAPPA), n=NX, axis=1)
    data = PropagatorData.of_field(u, t, PERIOD)
    model = TrajectoryModel.of_terms(
        "int", ("tempered_riesz",), (1.4,), tempering=1.3, tempering_free=True
    )
    lower = model.pack(1.0, np.array([0.5]), np.array([-np.inf]), tempering=0.1)
    upper = model.pack(1.0, np.array([2.0]), np.array([np.inf]), tempering=10.0)
    fit = refit_markov(data, model, np.array([1.4]), np.array([0.25]), lower, upper)
    np.testing.assert_allclose([fit.orders[0], fit.coef[0], fit.tempering], [1.5, 0.3, 1.0],
                               atol=1e-6)  # fmt: skip
