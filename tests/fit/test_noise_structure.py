"""The time-correlated-noise check against closed forms and particle data."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from weakpareto.benchmarks.particles import levy_flight_density
from weakpareto.fit.noise_structure import (
    ORDERS,
    TIME_TO_SPACE,
    check_time_correlated_noise,
    time_to_space_ratio,
)


def _smooth(nt: int = 240, nx: int = 200) -> np.ndarray:
    t = np.linspace(0.0, 3.0, nt)[:, None]
    x = np.linspace(0.0, 2 * np.pi, nx, endpoint=False)[None, :]
    return 1.5 + np.exp(-0.3 * t) * np.sin(x) + 0.4 * np.exp(-t) * np.cos(2 * x + 0.3)


def _ar1_in_time(shape: tuple[int, int], rho: float, rng: np.random.Generator) -> np.ndarray:
    """Unit-variance noise, AR(1) with coefficient ``rho`` along time, white along space."""
    e = rng.standard_normal(shape)
    n = np.empty(shape)
    n[0] = e[0]
    scale = np.sqrt(1.0 - rho * rho)
    for i in range(1, shape[0]):  # a recursion in time over whole frames
        n[i] = rho * n[i - 1] + scale * e[i]
    return n


def _ar1_difference_level(rho: float) -> float:
    """min_k Var(Delta^k n) / C(2k, k) of unit AR(1) noise: sum_ij c_i c_j rho^|i-j| with
    c_i = (-1)^i C(k, i), in closed form."""
    levels = []
    for k in ORDERS:
        c = np.array([(-1) ** i * comb(k, i) for i in range(k + 1)], dtype=float)
        lag = np.abs(np.subtract.outer(np.arange(k + 1), np.arange(k + 1)))
        levels.append(float(c @ (rho**lag) @ c) / comb(2 * k, k))
    return min(levels)


@pytest.mark.parametrize("law", ["additive", "multiplicative"])
def test_white_noise_reads_the_same_along_time_and_space(law: str) -> None:
    rng = np.random.default_rng(3)
    u = _smooth()
    noise = 0.02 * rng.standard_normal(u.shape)
    noisy = u + noise if law == "additive" else u * (1.0 + noise)
    ratio = time_to_space_ratio(noisy)
    assert ratio is not None and abs(ratio - 1.0) < 0.08
    assert check_time_correlated_noise([noisy]) == []


@pytest.mark.parametrize("rho", [0.5, 0.8])
def test_ar1_noise_ratio_matches_its_closed_form(rho: float) -> None:
    rng = np.random.default_rng(5)
    u = _smooth(400, 300)
    noisy = u + 0.02 * _ar1_in_time(u.shape, rho, rng)
    ratio = time_to_space_ratio(noisy)
    assert ratio == pytest.approx(_ar1_difference_level(rho), rel=0.05)
    assert ratio < TIME_TO_SPACE
    (warning,) = check_time_correlated_noise([noisy])
    assert warning.code == "correlated_noise" and f"{ratio:.2f}" in warning.message


def test_clean_fields_are_not_judged() -> None:
    assert time_to_space_ratio(_smooth()) is None  # no noise along space
    t = np.linspace(0.0, 1.0, 80)[:, None]
    x = np.linspace(-1.0, 1.0, 120)[None, :]
    front = np.tanh((x - 0.5 * t) / 0.02)  # a sharp moving front: not white along x
    assert time_to_space_ratio(front) is None
    assert check_time_correlated_noise([front, _smooth()]) == []
    assert time_to_space_ratio(np.ones((10, 10))) is None


def _particles(n: int, seed: int) -> np.ndarray:
    cfg = {
        "generator": {
            "kind": "levy_flight",
            "particles": n,
            "ic": {"offset": 1.0, "harmonics": [{"fn": "sin", "m": 1, "amp": 0.6, "phase": 0.0}]},
        },
        "grid": {"nt": 61, "nx": 64, "T": 1.2, "L": 2 * np.pi, "t_endpoint": True},
        "truth": {
            "mode": "int",
            "alpha": 1.0,
            "operator": "riesz",
            "terms": [{"power": 0, "order": 2.0, "coef": 0.3}],
        },
    }
    return levy_flight_density(cfg, seed).u


def test_particle_counting_noise_is_flagged() -> None:
    u = _particles(20_000, 0)
    ratio = time_to_space_ratio(u)
    assert ratio is not None and ratio < TIME_TO_SPACE
    # the same noise level drawn independently per frame reads white
    rng = np.random.default_rng(0)
    white = u.mean(axis=1, keepdims=True) + rng.standard_normal(u.shape) * np.std(
        np.diff(u, axis=1)
    ) / np.sqrt(2)
    assert check_time_correlated_noise([white]) == []
    assert [w.code for w in check_time_correlated_noise([u])] == ["correlated_noise"]
    (done,) = check_time_correlated_noise([u], intrinsic=True)
    assert "refit with noise_kind=intrinsic" not in done.message


def test_a_fit_on_particle_data_carries_the_warning() -> None:
    from weakpareto import WeakPareto

    u = _particles(20_000, 1)
    t = np.linspace(0.0, 1.2, u.shape[0])
    x = np.arange(u.shape[1]) * 2 * np.pi / u.shape[1]
    model = WeakPareto(operator="riesz", beta_range=(0.5, 3.0)).fit(u, t, x)
    assert "correlated_noise" in [w.code for w in model.warnings_]
