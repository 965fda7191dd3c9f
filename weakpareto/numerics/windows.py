"""Test-function families for the weak library (paper Sec. 3.1; docs/method/test-functions.md).

Each family returns a 2-D array of rows ``(count, n)`` sampled on a 1-D grid; the weak test
functions are the separable products ``phi_k(t, x) = vartheta_{l_t}(t) psi_{l_x}(x)`` (paper
Sec. 3.1). Every row is divided by ``sqrt(sum(row**2) + 1e-14)`` (plain discrete l2, no quadrature
weight; docs/method/test-functions.md#row-normalisation). Reported runs use Gaussian rows in time
and space, and Fourier spatial rows only for the periodic high-order Riesz case
(docs/method/test-functions.md#which-family-where); compact bumps exist but are not used in reported
results.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from weakpareto._typing import FloatArray

Budget = Literal["paper", "standard", "smoke"]

#: Guard added to the squared row norm before normalisation
#: (docs/method/test-functions.md#row-normalisation).
ROW_NORM_EPS = 1e-14


def normalise_rows(rows: ArrayLike) -> FloatArray:
    """Divide every row by ``sqrt(sum(row**2) + 1e-14)``
    (docs/method/test-functions.md#row-normalisation)."""
    r = np.asarray(rows, dtype=float)
    return r / np.sqrt(np.sum(r * r, axis=-1, keepdims=True) + ROW_NORM_EPS)


def paper_test_counts(nt: int, nx: int, budget: Budget = "paper") -> tuple[int, int]:
    """Numbers ``(K_t, K_x)`` of temporal and spatial tests for a budget
    (docs/method/test-functions.md#test-counts).

    paper: ``max(20, min(44, nt//3)), max(32, min(80, nx//2))``;
    standard: ``max(14, min(26, nt//4)), max(20, min(48, nx//3))``;
    smoke: ``max(8, min(14, nt//5)), max(10, min(24, nx//4))``.
    """
    if budget == "paper":
        return max(20, min(44, nt // 3)), max(32, min(80, nx // 2))
    if budget == "standard":
        return max(14, min(26, nt // 4)), max(20, min(48, nx // 3))
    if budget == "smoke":
        return max(8, min(14, nt // 5)), max(10, min(24, nx // 4))
    raise ValueError(f"unknown test budget {budget!r}; expected 'paper', 'standard' or 'smoke'")


def _spacing(grid: FloatArray) -> float:
    if grid.ndim != 1 or grid.size < 2:
        raise ValueError("grid must be a 1-D array with at least 2 points")
    return float(grid[1] - grid[0])


def temporal_gaussian_width(t: ArrayLike) -> float:
    """Temporal Gaussian width ``max(3 dt, 0.070 (t_last - t_0 + dt))``
    (docs/method/test-functions.md#widths).

    The width does not depend on ``K_t``. The paper text says that more tests narrow the
    windows "in time and space", but the reference implementation couples only the spatial
    width to the count. We follow the reference behaviour, because the paper's numbers were
    produced by it (docs/method/reference-differences.md#temporal-width).
    """
    t = np.asarray(t, dtype=float)
    dt = _spacing(t)
    return max(3.0 * dt, 0.070 * (float(t[-1] - t[0]) + dt))


def spatial_gaussian_width(dx: float, length: float, count: int) -> float:
    """Spatial Gaussian width ``max(2 dx, L / max(18, 0.75 K_x))`` (count-to-width rule,
    docs/method/test-functions.md#widths)."""
    return max(2.0 * dx, length / max(18.0, 0.75 * count))


def _periodic_distance(grid: FloatArray, centres: FloatArray, period: float) -> FloatArray:
    """Signed distance ``grid - centre`` wrapped into ``[-L/2, L/2)``, shape ``(count, n)``."""
    d = grid[None, :] - centres[:, None]
    return np.mod(d + 0.5 * period, period) - 0.5 * period


def _distances(
    grid: ArrayLike, count: int, pad: float, periodic: bool, period: float | None
) -> FloatArray:
    """Distances of every grid point to ``count`` centres (periodic or padded non-periodic)."""
    g = np.asarray(grid, dtype=float)
    h = _spacing(g)
    if count < 1:
        raise ValueError(f"count must be >= 1, got {count}")
    if periodic:
        length = g.size * h if period is None else float(period)
        centres = g[0] + np.arange(count) * (length / count)
        return _periodic_distance(g, centres, length)
    centres = np.linspace(g[0] + pad, g[-1] - pad, count)
    return g[None, :] - centres[:, None]


def gaussian_test_functions(
    grid: ArrayLike,
    count: int,
    width: float,
    periodic: bool = False,
    period: float | None = None,
) -> FloatArray:
    """Gaussian rows ``exp(-(d/w)**2 / 2)``, l2-normalised, shape ``(count, n)``
    (docs/method/test-functions.md#gaussian-tests).

    Non-periodic (time): centres ``linspace(g_0 + 2.5 w, g_last - 2.5 w, count)``.
    Periodic (space): centres ``g_0 + l L / count`` with the distance wrapped to
    ``[-L/2, L/2)``; ``period=None`` takes ``L = n * dx`` (endpoint-excluded grid).
    """
    d = _distances(grid, count, 2.5 * width, periodic, period)
    return normalise_rows(np.exp(-0.5 * (d / width) ** 2))


def bump_test_functions(
    grid: ArrayLike,
    count: int,
    width: float,
    periodic: bool = False,
    period: float | None = None,
) -> FloatArray:
    """Compactly supported bumps ``(1 - s**2)**6`` on ``|s| < 1``, ``s = d/(3w)``
    (docs/method/test-functions.md#compact-bumps).

    Centres as for :func:`gaussian_test_functions`, except that the non-periodic padding is
    ``1.02 * 3w``. Rows are l2-normalised. Not used in the reported results.
    """
    d = _distances(grid, count, 1.02 * 3.0 * width, periodic, period)
    s = d / (3.0 * width)
    return normalise_rows(np.where(np.abs(s) < 1.0, (1.0 - s * s) ** 6, 0.0))


def fourier_max_mode(nx: int, count: int) -> int:
    """Highest Fourier test mode ``min(max(8, K_x), max(1, nx//2 - 2))``, clipped to ``nx//2 - 1``.

    docs/method/test-functions.md#fourier-tests (e.g. ``nx = 128``, ``K_x = 64`` gives 62, i.e. 125
    spatial rows).
    """
    return min(max(8, count), max(1, nx // 2 - 2), nx // 2 - 1)


def fourier_test_functions(x: ArrayLike, length: float, max_mode: int) -> FloatArray:
    """Periodic Fourier rows ``1, cos(2 pi m x/L), sin(2 pi m x/L)``, ``m = 1..max_mode``.

    docs/method/test-functions.md#fourier-tests. Rows are ordered
    ``[1, cos_1, sin_1, cos_2, sin_2, ...]`` (``2 max_mode + 1`` rows), each l2-normalised.
    Used for the periodic high-order Riesz case only
    (docs/method/test-functions.md#which-family-where).
    """
    x = np.asarray(x, dtype=float)
    if max_mode < 0:
        raise ValueError(f"max_mode must be >= 0, got {max_mode}")
    m = np.arange(1, max_mode + 1, dtype=float)[:, None]
    arg = 2.0 * np.pi * m * x[None, :] / length
    trig = np.stack([np.cos(arg), np.sin(arg)], axis=1).reshape(2 * max_mode, x.size)
    return normalise_rows(np.vstack([np.ones((1, x.size)), trig]))


def temporal_tests(t: ArrayLike, count: int) -> FloatArray:
    """Reported temporal family: non-periodic Gaussians of width :func:`temporal_gaussian_width`."""
    return gaussian_test_functions(t, count, temporal_gaussian_width(t))


def spatial_tests(
    x: ArrayLike,
    length: float,
    count: int,
    family: Literal["gaussian", "fourier", "bump"] = "gaussian",
) -> FloatArray:
    """Spatial family on a periodic grid of period ``length`` (docs/method/test-functions.md).

    gaussian/bump: ``count`` periodic rows of width :func:`spatial_gaussian_width`;
    fourier: ``2 * fourier_max_mode(nx, count) + 1`` rows.
    """
    x = np.asarray(x, dtype=float)
    if family == "fourier":
        return fourier_test_functions(x, length, fourier_max_mode(x.size, count))
    width = spatial_gaussian_width(_spacing(x), length, count)
    if family == "gaussian":
        return gaussian_test_functions(x, count, width, periodic=True, period=length)
    if family == "bump":
        return bump_test_functions(x, count, width, periodic=True, period=length)
    raise ValueError(f"unknown spatial test family {family!r}")
