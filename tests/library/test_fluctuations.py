"""Covariance of weak features under intrinsic fluctuations (library/fluctuations.py)."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.library.fluctuations import IntrinsicCovariance, propagator_matrices
from weakpareto.library.weak import weak_library
from weakpareto.numerics.operators import spectral_multiplier, wavenumbers

NT, NX, L = 40, 32, 2 * np.pi


def _fluctuations(rates: np.ndarray, v: float, runs: int, seed: int) -> np.ndarray:
    """Stationary fluctuations obeying u_t = L u exactly per step: delta(t + dt) = G delta(t)
    + eta with Cov(eta) = v (I - G G^T), delta(0) white of variance v; ``(runs, NT, NX)``."""
    rng = np.random.default_rng(seed)
    dt = 1.0 / (NT - 1)
    g = np.exp(rates * dt)  # symbol of G over one step (conjugate-symmetric: G is real)
    shape = np.sqrt(np.maximum(1.0 - np.abs(g) ** 2, 0.0))
    out = np.empty((runs, NT, NX))
    d = rng.normal(0.0, np.sqrt(v), (runs, NX))
    out[:, 0] = d
    for i in range(1, NT):  # a simulation of the process, not a hot path
        eta = np.fft.ifft(shape * np.fft.fft(rng.normal(0.0, np.sqrt(v), (runs, NX)))).real
        d = np.fft.ifft(g * np.fft.fft(d)).real + eta
        out[:, i] = d
    return out


@pytest.mark.parametrize("kind", ["riesz", "directional"])
def test_covariance_matches_monte_carlo_of_fluctuations_that_obey_the_dynamics(kind):
    t = np.linspace(0.0, 1.0, NT)
    x = np.linspace(0.0, L, NX, endpoint=False)
    lib = weak_library(np.zeros((NT, NX)), t, x, operator=kind, test_counts=(6, 8))
    kappa = wavenumbers(NX, L)
    rates = 0.3 * spectral_multiplier(kind, kappa, np.array([1.5]))[0]  # u_t = 0.3 X^1.5 u
    v, betas = 0.04, np.array([1.5, 0.8])
    cov = IntrinsicCovariance.build(lib, t, v, rates).system(betas)
    runs = _fluctuations(rates, v, 4000, seed=1)
    feats = []
    for d in runs:
        y = lib.quadrature * (
            lib.target_weights(np.array([1.0]), "int")[0] @ d @ lib.spatial_tests.T
        )
        cols = [
            lib.quadrature * (lib.temporal_tests @ d @ a.T)
            for a in lib.spatial_adjoint_tests(betas)
        ]
        feats.append([float(np.sum(f * g)) for f in [y, *cols] for g in [y, *cols]])
    empirical = np.mean(feats, axis=0).reshape(3, 3)
    se = np.std(feats, axis=0).reshape(3, 3) / np.sqrt(len(runs))
    assert np.all(np.abs(empirical - cov) <= 4.0 * se + 1e-3 * np.abs(cov).max())
    # the time correlation matters: white-in-time noise of the same variance gives far less
    white = IntrinsicCovariance.build(lib, t, v, np.full(NX, -1e9 + 0j)).system(betas)
    assert np.abs(white[1, 1] - cov[1, 1]) > 10 * se[1, 1]


def test_propagator_is_hermitian_and_one_at_equal_times():
    t = np.linspace(0.0, 2.0, 7)
    e = propagator_matrices(np.array([-0.5 + 2.0j, -3.0]), t)
    np.testing.assert_allclose(e, np.conj(np.swapaxes(e, 1, 2)))
    np.testing.assert_allclose(np.diagonal(e, axis1=1, axis2=2), 1.0)
    assert e[0, 3, 1] == pytest.approx(np.exp((-0.5 + 2.0j) * (t[3] - t[1])))
