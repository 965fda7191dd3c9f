"""The exact-time library's u'(0) window (library/weak_exact.py: adaptive_slope_points)."""

from __future__ import annotations

import numpy as np

from weakpareto.library.weak_exact import adaptive_slope_points
from weakpareto.numerics.weak_caputo import model_initial_weights


def caputo_start_field(alpha: float = 1.4, nt: int = 200, nx: int = 64):
    """``u = 1 + a(x) + u1(x) t + c(x) t^alpha / Gamma(alpha + 1)`` with a known ``u'(0)``."""
    t = np.linspace(0.0, 4.0, nt)
    x = np.linspace(0.0, 2 * np.pi, nx, endpoint=False)
    u1 = 0.3 * np.sin(x)
    c = 0.5 * np.cos(2 * x) - 0.2
    u = 1.5 + 0.2 * np.sin(3 * x)[None] + np.outer(t, u1) + np.outer(t**alpha / 1.33, c)
    return t, u, u1


def slope_error(u: np.ndarray, u1: np.ndarray, dt: float, points: int) -> float:
    _, c1 = model_initial_weights(u.shape[0], dt, 1.5, points, True)
    return float(np.sqrt(np.mean((c1[0] @ u - u1) ** 2)))


def test_clean_data_keep_the_base_window():
    t, u, _ = caputo_start_field()
    assert adaptive_slope_points(u, float(t[1] - t[0]), 12, 5) == 12


def test_noisy_data_widen_the_window_and_the_slope_error_falls():
    """1 % multiplicative noise: Lepski's rule widens the window, and the error of u'(0)
    against the known slope falls by more than half (noise-dominated at the base window)."""
    t, u, u1 = caputo_start_field()
    dt = float(t[1] - t[0])
    noisy = u * (1.0 + 0.01 * np.random.default_rng(0).standard_normal(u.shape))
    points = adaptive_slope_points(noisy, dt, 12, 5)
    assert points > 12
    assert slope_error(noisy, u1, dt, points) < 0.5 * slope_error(noisy, u1, dt, 12)
