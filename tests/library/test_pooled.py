"""Several experiments as one feature source (weakpareto.library.pooled): stacked weak rows."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.library.gram import build_banks
from weakpareto.library.pooled import PooledSource, parts_of, row_counts
from weakpareto.library.weak import weak_library
from weakpareto.library.weak_exact import exact_time_weak_library
from weakpareto.method.exact_fit import exact_system
from weakpareto.numerics.orders import beta_nodes, temporal_branches


def _field(nt: int, nx: int, dt: float, mode: int, seed: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    t = dt * np.arange(nt)
    x = np.arange(nx) * (2 * np.pi / nx)
    decay = np.exp(-0.3 * mode**1.5 * t)[:, None]
    u = 1.0 + np.sin(mode * x + 0.3)[None] * decay + 0.01 * rng.standard_normal((nt, nx))
    return u, t, x


@pytest.fixture(scope="module")
def two_libraries():
    """Two experiments with different lengths, grids and initial conditions."""
    a = weak_library(*_field(30, 32, 0.02, 1, 0), operator="riesz", test_counts=(8, 10))
    b = weak_library(*_field(45, 48, 0.015, 2, 1), operator="riesz", test_counts=(9, 12))
    return a, b


def test_pooled_rows_are_the_single_rows_stacked(two_libraries):
    """Targets, columns and exact systems of the pool equal the two single systems'
    row-concatenation exactly (the same floating-point values, not close ones)."""
    a, b = two_libraries
    pooled = PooledSource((a, b))
    assert pooled.n_rows == a.n_rows + b.n_rows == 8 * 10 + 9 * 12
    assert pooled.row_counts == (80, 108) and pooled.offsets == (0, 80)
    betas = np.array([0.0, 0.8, 1.5])
    orders = {"sub": np.array([0.55, 0.9]), "int": np.array([1.0]), "sup": np.array([1.3])}
    for mode, alphas in orders.items():
        np.testing.assert_array_equal(
            pooled.targets(alphas, mode),
            np.concatenate([a.targets(alphas, mode), b.targets(alphas, mode)], axis=1),
        )
    for power in (0, 1, 2):
        np.testing.assert_array_equal(
            pooled.columns(power, betas),
            np.concatenate([a.columns(power, betas), b.columns(power, betas)], axis=1),
        )
    y, x = exact_system(pooled, "sub", 0.7, (0, 1), np.array([1.5, 0.9]))
    ya, xa = exact_system(a, "sub", 0.7, (0, 1), np.array([1.5, 0.9]))
    yb, xb = exact_system(b, "sub", 0.7, (0, 1), np.array([1.5, 0.9]))
    np.testing.assert_array_equal(y, np.concatenate([ya, yb]))
    np.testing.assert_array_equal(x, np.concatenate([xa, xb]))


def test_pooled_order_banks_stack_the_single_banks(two_libraries):
    a, b = two_libraries
    branches = temporal_branches((0.5, 1.5), 16, 0.02)
    nodes = beta_nodes((0.0, 2.0), 20)
    banks = [build_banks(s, branches, nodes, (0, 1)) for s in (a, b, PooledSource((a, b)))]
    np.testing.assert_array_equal(
        banks[2].vectors, np.concatenate([banks[0].vectors, banks[1].vectors], axis=1)
    )


def test_a_single_source_is_a_pool_of_one(two_libraries):
    a, b = two_libraries
    assert parts_of(a) == (a,) and row_counts(a) == (80,)
    pooled = PooledSource((a, b))
    assert parts_of(pooled) == (a, b) and row_counts(pooled) == (80, 108)
    np.testing.assert_array_equal(pooled.experiment_of_rows(), np.repeat([0, 1], [80, 108]))
    with pytest.raises(ValueError, match=">= 2 experiments"):
        PooledSource((a,))


def test_pooled_rows_are_profiled_per_experiment():
    """Each experiment's super-unit rows are profiled by its own library (its own start), and
    a pool of libraries that do not profile returns the very vectors it was given."""
    fields = [_field(40, 32, 0.05, 1, 0), _field(50, 32, 0.04, 2, 1)]
    parts = tuple(
        exact_time_weak_library(u, t, x, operator="riesz", test_counts=(8, 8),
                                start_slope="profile")
        for u, t, x in fields
    )  # fmt: skip
    pool = PooledSource(parts)
    v = np.random.default_rng(7).standard_normal((2, pool.n_rows))
    got = pool.profile_rows("sup", 1.4, v)
    lo = parts[0].n_rows
    np.testing.assert_array_equal(got[:, :lo], parts[0].profile_rows("sup", 1.4, v[:, :lo]))
    np.testing.assert_array_equal(got[:, lo:], parts[1].profile_rows("sup", 1.4, v[:, lo:]))
    assert not np.allclose(got, v)
    assert pool.profile_rows("sub", 0.7, v) is v
