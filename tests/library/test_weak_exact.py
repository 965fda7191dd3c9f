"""The exact-time library's u'(0) window and noise estimate (library/weak_exact.py)."""

from __future__ import annotations

import numpy as np

from weakpareto.library.noise_level import estimate_noise
from weakpareto.library.weak_exact import adaptive_slope_points, exact_time_weak_library
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
    assert adaptive_slope_points(u, float(t[1] - t[0]), 12, 5, estimate_noise(u, "auto")) == 12


def test_noisy_data_widen_the_window_and_the_slope_error_falls():
    """1 % multiplicative noise: Lepski's rule widens the window, and the error of u'(0)
    against the known slope falls by more than half (noise-dominated at the base window)."""
    t, u, u1 = caputo_start_field()
    dt = float(t[1] - t[0])
    noisy = u * (1.0 + 0.01 * np.random.default_rng(0).standard_normal(u.shape))
    points = adaptive_slope_points(noisy, dt, 12, 5, estimate_noise(noisy, "auto"))
    assert points > 12
    assert slope_error(noisy, u1, dt, points) < 0.5 * slope_error(noisy, u1, dt, 12)


def test_a_record_too_short_for_a_second_window_keeps_the_base_one():
    t, u, _ = caputo_start_field(nt=30)
    noisy = u * (1.0 + 0.01 * np.random.default_rng(1).standard_normal(u.shape))
    assert (
        adaptive_slope_points(noisy, float(t[1] - t[0]), 12, 5, estimate_noise(noisy, "auto")) == 12
    )
    assert (
        adaptive_slope_points(noisy, float(t[1] - t[0]), 20, 5, estimate_noise(noisy, "auto")) == 20
    )


def test_the_library_reads_the_noise_once_and_hands_it_to_the_score():
    t, u, _ = caputo_start_field()
    x = np.linspace(0.0, 2 * np.pi, u.shape[1], endpoint=False)
    noisy = u * (1.0 + 0.01 * np.random.default_rng(2).standard_normal(u.shape))
    lib = exact_time_weak_library(noisy, t, x, operator="riesz", initial="model")
    fresh = estimate_noise(noisy, "auto")
    assert lib.noise is not None and fresh is not None
    assert lib.noise_estimate("auto") is lib.noise
    assert lib.noise.law == fresh.law and lib.noise.level == fresh.level
    np.testing.assert_array_equal(lib.noise.variance, fresh.variance)
    additive = lib.noise_estimate("additive")
    assert additive is not None and additive.law == "additive"
    assert exact_time_weak_library(noisy, t, x, operator="riesz").noise is None
