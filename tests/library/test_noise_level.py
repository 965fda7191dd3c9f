"""The package's one noise estimator (library/noise_level.py)."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from weakpareto.library.noise_level import (
    DIFFERENCE_ORDERS,
    difference_levels,
    estimate_noise,
    pooled_noise_level,
    relative_noise_level,
)


def decaying_modes(nt: int, nx: int) -> np.ndarray:
    """A smooth positive field (2 +- 1.5) on ``t in [0, 2]`` and one period in x."""
    t = np.linspace(0.0, 2.0, nt)[:, None]
    x = np.linspace(0.0, 2 * np.pi, nx, endpoint=False)[None]
    return 2.0 + np.cos(x) * np.exp(-t) + 0.5 * np.sin(3 * x) * np.cos(t)


def test_estimates_level_and_law_of_multiplicative_and_additive_noise():
    u = decaying_modes(120, 96)
    rng = np.random.default_rng(0)
    mult = u * (1 + 0.02 * rng.uniform(-1, 1, u.shape))  # relative std 0.02/sqrt(3)
    est = estimate_noise(mult, "auto")
    assert est is not None and est.law == "multiplicative"
    assert est.level == pytest.approx(0.02 / np.sqrt(3), rel=0.05)
    add = u + 0.01 * rng.standard_normal(u.shape)
    est = estimate_noise(add, "auto")
    assert est is not None and est.law == "additive"
    assert est.level == pytest.approx(0.01, rel=0.05)
    assert estimate_noise(add, "none") is None


def test_every_difference_order_reads_the_variance_of_white_noise():
    """k-th differences of white noise have variance C(2k, k) s^2: each order reads s^2."""
    noise = 0.3 * np.random.default_rng(1).standard_normal((400, 300))
    for axis in (0, 1):
        levels = difference_levels(noise, axis)
        assert sorted(levels) == list(DIFFERENCE_ORDERS)
        for level in levels.values():
            assert level == pytest.approx(0.09, rel=0.04)


def test_difference_levels_equal_numpy_differences():
    u = np.random.default_rng(2).standard_normal((30, 20))
    levels = difference_levels(u, 1)
    for k in DIFFERENCE_ORDERS:
        d = np.diff(u, n=k, axis=1)
        assert levels[k] == pytest.approx(float(np.mean(d * d)) / comb(2 * k, k), rel=1e-12)


def test_relative_level_of_a_smooth_field_with_noise():
    u = decaying_modes(200, 128)
    noisy = u + 0.02 * float(np.std(u)) * np.random.default_rng(3).standard_normal(u.shape)
    assert relative_noise_level(noisy) == pytest.approx(0.02, rel=0.05)
    assert relative_noise_level(np.full((20, 20), 2.0)) == 0.0


def test_pooled_level_is_the_sample_weighted_rms():
    rng = np.random.default_rng(4)
    a = rng.standard_normal((100, 50))
    b = rng.standard_normal((40, 50))
    la, lb = relative_noise_level(a), relative_noise_level(b)
    expected = np.sqrt((a.size * la**2 + b.size * lb**2) / (a.size + b.size))
    assert pooled_noise_level([a, b]) == pytest.approx(expected, rel=1e-12)
    assert pooled_noise_level([a]) == la
