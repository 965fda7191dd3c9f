"""Particle densities (benchmarks/particles.py) and exact Mittag-Leffler fields with an initial
velocity: data made without the method's discretisations, checked against closed forms."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.particles import histogram_density, sample_density
from weakpareto.numerics.weak_caputo import polynomial_bumps

TWO_PI = 2.0 * np.pi


def _levy(mu: float, k: float, n: int) -> dict:
    return {
        "name": "levy",
        "generator": {
            "kind": "levy_flight",
            "particles": n,
            "ic": {"offset": 1.0, "harmonics": [{"fn": "cos", "m": 1, "amp": 0.5}]},
        },
        "grid": {"nt": 11, "nx": 32, "T": 1.0, "L": TWO_PI, "t_endpoint": True},
        "truth": {"mode": "int", "alpha": 1.0, "operator": "riesz",
                  "terms": [{"power": 0, "order": mu, "coef": k}]},
    }  # fmt: skip


@pytest.mark.parametrize("mu", [1.2, 2.0])
def test_levy_flight_modes_decay_like_the_fractional_laplacian(mu):
    """The first Fourier mode of the density decays as exp(-K |k|^mu t) (k = 1 on a 2 pi
    period), within the counting noise of the particles; mass is conserved exactly."""
    n, k_coef = 400_000, 0.7
    f = generate(_levy(mu, k_coef, n), 3)
    dx = f.x[1] - f.x[0]
    np.testing.assert_allclose(f.u.sum(axis=1) * dx, 1.0, rtol=1e-12)
    mode1 = np.abs(np.fft.rfft(f.u, axis=1)[:, 1]) * dx / np.pi  # amplitude of cos(x)
    expected = mode1[0] * np.exp(-k_coef * f.t)
    noise = 3.0 * np.sqrt(2.0 / n) / np.pi  # 3 sigma of a mode's counting noise
    assert np.max(np.abs(mode1 - expected)) < noise + 0.01 * mode1[0]
    assert mode1[0] == pytest.approx(0.5 / TWO_PI, abs=noise)  # (1 + 0.5 cos x) / (2 pi)


def test_sampling_and_histogram_reproduce_a_density():
    rng = np.random.default_rng(0)
    cells = (np.arange(64) + 0.5) / 64 * TWO_PI
    density = 1.0 + 0.8 * np.sin(cells)
    pos = sample_density(density, TWO_PI, 200_000, rng)
    hist = histogram_density(pos, TWO_PI, 16)
    truth = density.reshape(16, 4).mean(axis=1) / (density.mean() * TWO_PI)
    np.testing.assert_allclose(hist, truth, atol=4 * np.sqrt(truth.max() / (200_000 * 0.39)))
    with pytest.raises(ValueError, match="nonnegative"):
        sample_density(-density, TWO_PI, 10, rng)


def test_mittag_leffler_field_with_initial_velocity_solves_the_caputo_equation():
    """D_t^1.4 u = -0.5 (-Delta) u with u(0) = cos x, u_t(0) = 0.3 sin 2x: the field starts at
    u(0) with slope u_t(0), and on bump tests its weak Caputo derivative (the right-sided
    derivative of the test, initial terms removed exactly) equals the right-hand side."""
    cfg = {
        "name": "wave",
        "generator": {
            "kind": "mittag_leffler",
            "ic": {
                "harmonics": [{"fn": "cos", "m": 1, "amp": 1.0}],
                "velocity": [{"fn": "sin", "m": 2, "amp": 0.3}],
            },
        },
        "grid": {"nt": 2001, "nx": 16, "T": 2.0, "L": TWO_PI, "t_endpoint": True},
        "truth": {"mode": "sup", "alpha": 1.4, "operator": "riesz",
                  "terms": [{"power": 0, "order": 2.0, "coef": 0.5}]},
    }  # fmt: skip
    f = generate(cfg, 0)
    u0, v0 = np.cos(f.x), 0.3 * np.sin(2 * f.x)
    np.testing.assert_allclose(f.u[0], u0, atol=1e-12)
    h = f.t[1] - f.t[0]
    # u = u0 + v0 t - 0.5 |k|^2 u0 t^1.4 / Gamma(2.4) + ...: the slope error is O(h^0.4)
    slope_error = np.abs((f.u[1] - f.u[0]) / h - v0)
    assert np.max(slope_error) < 1.1 * 0.5 * h**0.4 / 1.2422 and np.max(slope_error) > 0
    bumps = polynomial_bumps(f.t, 5, 0.3, 4, normalise=False)
    w = bumps.right_derivative(f.t, [1.4])[0]  # (K, nt)
    lhs = h * w @ (f.u - u0 - np.outer(f.t, v0))
    laplacian = np.real(np.fft.ifft(-(np.fft.fftfreq(16, 1 / 16) ** 2) * np.fft.fft(f.u)))
    rhs = h * bumps.values(f.t) @ (0.5 * laplacian)
    np.testing.assert_allclose(lhs, rhs, atol=2e-3 * np.max(np.abs(rhs)))
