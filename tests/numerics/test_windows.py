"""Tests for weakpareto.numerics.windows against the rules of docs/method/test-functions.md and its
per-benchmark table."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.numerics import windows as tf

# (name, t grid, x grid, L, (K_t, K_x), w_t, w_x) -- paper budget,
# docs/method/test-functions.md#per-benchmark-values
BENCHMARKS = [
    ("FADE", 0.1 * np.arange(1, 151), 0.25 * np.arange(120), 30.0, (44, 60), 1.05, 0.6667),
    (
        "RD space",
        np.linspace(0.0, 1.0, 90),
        np.linspace(0.0, 20.0, 96, endpoint=False),
        20.0,
        (30, 48),
        0.07079,
        0.5556,
    ),
    (
        "RD time-space",
        np.linspace(0.0, 3.0, 80),
        np.linspace(0.0, 20.0, 80, endpoint=False),
        20.0,
        (26, 40),
        0.21266,
        0.6667,
    ),
    (
        "Burgers",
        np.arange(1, 151) * 12.0 / 150,
        np.linspace(0.0, 30.0, 120, endpoint=False),
        30.0,
        (44, 60),
        0.84,
        0.6667,
    ),
]


@pytest.mark.parametrize("name,t,x,length,counts,wt,wx", BENCHMARKS, ids=[b[0] for b in BENCHMARKS])
def test_benchmark_table(name, t, x, length, counts, wt, wx) -> None:
    kt, kx = tf.paper_test_counts(t.size, x.size)
    assert (kt, kx) == counts
    assert kt * kx == counts[0] * counts[1]
    assert tf.temporal_gaussian_width(t) == pytest.approx(wt, abs=6e-5)
    assert tf.spatial_gaussian_width(x[1] - x[0], length, kx) == pytest.approx(wx, abs=6e-5)
    theta = tf.temporal_tests(t, kt)
    psi = tf.spatial_tests(x, length, kx)
    assert theta.shape == (kt, t.size) and psi.shape == (kx, x.size)
    np.testing.assert_allclose(np.linalg.norm(theta, axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(psi, axis=1), 1.0, atol=1e-12)


def test_fade_total_rows() -> None:
    kt, kx = tf.paper_test_counts(150, 120)
    assert kt * kx == 2640


@pytest.mark.parametrize(
    "budget,nt,nx,expected",
    [
        ("paper", 150, 120, (44, 60)),
        ("paper", 30, 40, (20, 32)),
        ("paper", 400, 400, (44, 80)),
        ("standard", 150, 120, (26, 40)),
        ("standard", 40, 30, (14, 20)),
        ("smoke", 150, 120, (14, 24)),
        ("smoke", 50, 50, (10, 12)),
    ],
)
def test_count_budgets(budget, nt, nx, expected) -> None:
    assert tf.paper_test_counts(nt, nx, budget) == expected


def test_unknown_budget() -> None:
    with pytest.raises(ValueError):
        tf.paper_test_counts(10, 10, "huge")  # type: ignore[arg-type]


def test_width_floors() -> None:
    t = np.linspace(0.0, 1.0, 11)  # dt = 0.1: 3 dt = 0.3 > 0.07 * 1.1
    assert tf.temporal_gaussian_width(t) == pytest.approx(0.3)
    assert tf.spatial_gaussian_width(0.5, 10.0, 80) == pytest.approx(1.0)  # 2 dx floor
    assert tf.spatial_gaussian_width(0.01, 9.0, 10) == pytest.approx(0.5)  # max(18, .) floor


def test_temporal_gaussian_centres_and_values() -> None:
    t = np.linspace(0.0, 3.0, 80)
    w = tf.temporal_gaussian_width(t)
    rows = tf.gaussian_test_functions(t, 26, w)
    centres = np.linspace(2.5 * w, 3.0 - 2.5 * w, 26)
    raw = np.exp(-0.5 * ((t[None, :] - centres[:, None]) / w) ** 2)
    ref = raw / np.sqrt(np.sum(raw**2, axis=1, keepdims=True) + 1e-14)
    np.testing.assert_allclose(rows, ref, rtol=1e-13, atol=1e-15)
    # each row is a positive single-peaked window, maximal at the grid point nearest its centre
    np.testing.assert_array_equal(
        np.argmax(rows, axis=1), np.argmin(np.abs(t[None, :] - centres[:, None]), axis=1)
    )


def test_periodic_gaussians_are_circular_shifts() -> None:
    x = np.linspace(0.0, 30.0, 120, endpoint=False)  # L/K = 0.5 = 2 dx
    w = tf.spatial_gaussian_width(x[1] - x[0], 30.0, 60)
    rows = tf.gaussian_test_functions(x, 60, w, periodic=True, period=30.0)
    for ell in (1, 7, 31, 59):
        np.testing.assert_allclose(rows[ell], np.roll(rows[0], 2 * ell), atol=1e-14)
    # the wrapped distance makes the row centred at x0 symmetric about index 0
    np.testing.assert_allclose(rows[0][1:], rows[0][1:][::-1], atol=1e-14)
    # period defaults to n*dx
    np.testing.assert_array_equal(tf.gaussian_test_functions(x, 60, w, periodic=True), rows)


def test_bumps_support_and_norm() -> None:
    t = np.linspace(0.0, 10.0, 201)
    w = 0.5
    rows = tf.bump_test_functions(t, 9, w)
    centres = np.linspace(1.02 * 1.5, 10.0 - 1.02 * 1.5, 9)
    outside = np.abs(t[None, :] - centres[:, None]) >= 3 * w
    assert np.all(rows[outside] == 0.0)
    assert np.all(rows[~outside] >= 0.0)
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-12)
    s = (t - centres[4]) / (3 * w)
    raw = np.where(np.abs(s) < 1, (1 - s**2) ** 6, 0.0)
    np.testing.assert_allclose(rows[4], raw / np.linalg.norm(raw), rtol=1e-12)
    x = np.linspace(0.0, 20.0, 80, endpoint=False)
    prow = tf.bump_test_functions(x, 40, 0.6, periodic=True)
    np.testing.assert_allclose(prow[3], np.roll(prow[0], 6), atol=1e-14)


def test_fourier_rows_two_term_riesz() -> None:
    nx, length = 128, 2 * np.pi
    x = np.linspace(0.0, length, nx, endpoint=False)
    kx = tf.paper_test_counts(90, nx)[1]
    assert kx == 64
    mm = tf.fourier_max_mode(nx, kx)
    assert mm == 62
    rows = tf.spatial_tests(x, length, kx, family="fourier")
    assert rows.shape == (2 * 62 + 1, nx)
    # orthonormal (all modes below Nyquist), and the ordering 1, cos m, sin m
    np.testing.assert_allclose(rows @ rows.T, np.eye(125), atol=1e-12)
    np.testing.assert_allclose(rows[0], 1 / np.sqrt(nx), rtol=1e-12)
    np.testing.assert_allclose(rows[5], np.cos(3 * x) / np.sqrt(nx / 2), atol=1e-12)
    np.testing.assert_allclose(rows[6], np.sin(3 * x) / np.sqrt(nx / 2), atol=1e-12)


@pytest.mark.parametrize(
    "nx,kx,expected", [(128, 64, 62), (120, 60, 58), (40, 32, 18), (10, 5, 3), (4, 5, 1), (6, 8, 1)]
)
def test_fourier_max_mode(nx, kx, expected) -> None:
    assert tf.fourier_max_mode(nx, kx) == expected
