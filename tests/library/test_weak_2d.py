"""2-D directional weak features against dense formulas (paper Sec. subsec:twod;
docs/method/two-d.md#weak-features)."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.benchmarks.generators import generate
from weakpareto.library.weak_2d import (
    build_test_functions_2d,
    weak_library_2d,
)
from weakpareto.method.search import power_patterns
from weakpareto.numerics import operators as ops


@pytest.fixture(scope="module")
def tiny():
    """A rough random field on a tiny grid: even nx (Nyquist bin), odd ny, unequal periods."""
    rng = np.random.default_rng(11)
    nt, nx, ny = 14, 10, 9
    t = 0.07 * np.arange(nt)
    x = np.arange(nx) * (2 * np.pi / nx)
    y = np.arange(ny) * (3.0 / ny)
    u = rng.standard_normal((nt, nx, ny)) + np.sin(x)[None, :, None] * np.cos(t)[:, None, None]
    lib = weak_library_2d(u, t, x, y, period=2 * np.pi, period_y=3.0, test_counts=(4, 5, 3))
    return u, t, x, y, lib


def _dense_tests(lib) -> np.ndarray:
    """The full K x N test matrix (Kronecker product; only affordable on the tiny grid)."""
    return np.kron(np.kron(lib.temporal_tests, lib.x_tests), lib.y_tests)


def _data_side(u, lib, d, beta):
    """X_beta^{(d)} u on the data side, along axis x (d=0) or y (d=1)."""
    period = (lib.period_x, lib.period_y)[d]
    mult = ops.directional_multiplier(ops.wavenumbers(u.shape[1 + d], period), beta)
    return ops.apply_multiplier(u, mult, axis=1 + d)


@pytest.mark.parametrize("d", [0, 1])
@pytest.mark.parametrize("beta", [0.5, 1.0, 1.37, 2.5])
def test_columns_equal_dense_kronecker_formula(tiny, d, beta):
    """Mode-wise contraction == q * Phi vec(X^{(d)} u) with the dense Kronecker test matrix."""
    u, _, _, _, lib = tiny
    col = lib.columns(d, np.array([beta]))[0]
    dense = lib.quadrature * _dense_tests(lib) @ _data_side(u, lib, d, beta).ravel()
    assert col.shape == (lib.n_rows,)
    np.testing.assert_allclose(col, dense, rtol=0, atol=1e-12 * np.abs(dense).max())
    rel = np.linalg.norm(col - dense) / np.linalg.norm(dense)
    assert rel <= 1e-12


@pytest.mark.parametrize("d", [0, 1])
def test_columns_equal_adjoint_on_the_tests(tiny, d):
    """<X u, phi_k>_h == <u, X^* phi_k>_h: the adjoint acts on the axis-d test only."""
    u, _, _, _, lib = tiny
    beta = 1.7
    period = (lib.period_x, lib.period_y)[d]
    mult = ops.directional_multiplier(ops.wavenumbers(u.shape[1 + d], period), beta)
    kt, kx, ky = lib.shape
    ref = np.empty((kt, kx, ky))
    for a in range(kt):
        for ell in range(kx):
            for m in range(ky):
                phi = np.einsum(
                    "i,j,k->ijk", lib.temporal_tests[a], lib.x_tests[ell], lib.y_tests[m]
                )
                adj = ops.apply_multiplier_adjoint(phi, mult, axis=1 + d)
                ref[a, ell, m] = lib.quadrature * np.sum(u * adj)
    col = lib.columns(d, np.array([beta]))[0]
    assert np.linalg.norm(col - ref.ravel()) / np.linalg.norm(ref) <= 1e-12


def test_batched_columns_equal_single_order_calls(tiny):
    _, _, _, _, lib = tiny
    betas = np.array([0.6, 1.1, 2.2])
    batch = lib.columns(1, betas)
    for g, b in enumerate(betas):
        np.testing.assert_allclose(batch[g], lib.columns(1, np.array([b]))[0], rtol=1e-13)


@pytest.mark.parametrize("alpha, mode", [(0.7, "sub"), (1.0, "int"), (1.3, "sup")])
def test_targets_equal_dense_projection_of_discrete_caputo(tiny, alpha, mode):
    u, t, _, _, lib = tiny
    b = lib.targets(np.array([alpha]), mode)[0]
    d = ops.caputo_matrix(t.size, t[1] - t[0], alpha, mode)
    dense = lib.quadrature * _dense_tests(lib) @ np.tensordot(d, u, axes=(1, 0)).ravel()
    assert np.linalg.norm(b - dense) / np.linalg.norm(dense) <= 1e-12


def test_project_matches_dense(tiny):
    u, _, _, _, lib = tiny
    dense = lib.quadrature * _dense_tests(lib) @ u.ravel()
    np.testing.assert_allclose(lib.project(u), dense, rtol=1e-12, atol=1e-14)


def test_bad_direction_index_raises(tiny):
    _, _, _, _, lib = tiny
    with pytest.raises(ValueError, match="direction index"):
        lib.columns(2, np.array([1.0]))


def test_paper_counts_and_widths_on_the_benchmark_grid():
    """30 x 40 x 40 = 48 000 rows; spatial width L/30 on each axis
    (docs/method/test-functions.md#per-benchmark-values)."""
    f = generate("twod_a", 0)
    lib = weak_library_2d(f.u, f.t, f.x, f.y)
    assert lib.shape == (30, 40, 40) and lib.n_rows == 48000
    temporal, sx, sy = build_test_functions_2d(f.t, f.x, f.y, 2 * np.pi, 2 * np.pi)
    # Row maxima of a Gaussian of width w, l2-normalised, sampled at spacing h, centred on a node:
    # the ratio of neighbours is exp(-h^2 / (2 w^2)).
    h = f.x[1] - f.x[0]
    ratio = sx[0, 1] / sx[0, 0]
    width = np.sqrt(-(h**2) / (2 * np.log(ratio)))
    assert width == pytest.approx(2 * np.pi / 30, rel=1e-10)
    np.testing.assert_allclose(sx, sy)
    assert temporal.shape == (30, 90)


def test_truth_nearly_solves_the_clean_weak_system():
    """Benchmark B: residual of the true equation ~ the L1 discretisation error (~0.6 %)."""
    f = generate("twod_b", 0)
    lib = weak_library_2d(f.u, f.t, f.x, f.y)
    b = lib.targets(np.array([0.85]), "sub")[0]
    cols = [lib.columns(d, np.array([o]))[0] for d, o in ((0, 1.0), (0, 1.7), (1, 1.4))]
    resid = np.linalg.norm(b - np.stack(cols, 1) @ np.array([-0.6, 0.3, 0.2]))
    assert resid / np.linalg.norm(b) < 1e-2


def test_direction_patterns_are_the_direction_multisets():
    """power_patterns over the direction indices enumerates {x, y} multisets: 2, 3, 4, 5."""
    for c, n in zip(range(1, 5), (2, 3, 4, 5)):
        pats = power_patterns((0, 1), c)
        assert len(pats) == n == len(set(pats))
        assert all(list(p) == sorted(p) for p in pats)
