"""Power patterns, duplicate penalty, anchors and bound handling (paper Sec. 4.2;
docs/method/search.md)."""

import itertools

import numpy as np
import pytest

from weakpareto.method.search import (
    _inside_bounds,
    anchor_points,
    duplicate_penalty,
    power_patterns,
    train_val_split,
)
from weakpareto.numerics.orders import temporal_branches


def test_power_patterns_counts_and_order():
    # paper Sec. 4.2: P_2 for {0,1,2} has 6 nondecreasing patterns; "important" ones first
    assert [len(power_patterns((0, 1, 2), c)) for c in (1, 2, 3, 4)] == [3, 6, 10, 15]
    assert power_patterns((0, 1, 2), 2)[:3] == [(0, 0), (0, 1), (1, 1)]
    assert sorted(power_patterns((0, 1, 2), 2)) == [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]
    assert power_patterns((0,), 3) == [(0, 0, 0)]
    assert all(list(p) == sorted(p) for p in power_patterns((0, 1, 2), 4))


def test_duplicate_penalty_formula():
    betas = np.array([[1.0, 1.0], [1.0, 1.02], [1.0, 1.05], [1.0, 1.0]])
    pen = duplicate_penalty((0, 0), betas, 0.02, 0.04)
    np.testing.assert_allclose(pen, [0.02, 0.01, 0.0, 0.02])
    assert duplicate_penalty((0, 1), betas, 0.02, 0.04).tolist() == [0, 0, 0, 0]  # other power


def test_anchor_grid_fade():
    sub = temporal_branches((0.6, 1.05), 47, 1e-3)[0]
    grid = anchor_points(sub, (0.5, 2.0), (0, 0), 800)
    # 5 alpha anchors x 7 beta anchors {0.5, 0.8, 1.0, 1.1, 1.4, 1.7, 2.0} squared
    # (docs/method/search.md#anchor-start)
    assert grid.shape == (5 * 49, 3)
    assert set(np.round(grid[:, 1], 6)) == {0.5, 0.8, 1.0, 1.1, 1.4, 1.7, 2.0}
    big = anchor_points(sub, (0.5, 2.0), (0, 0, 0, 0), 800)
    assert big.shape == (800, 5)  # subsampled without replacement, deterministic
    np.testing.assert_array_equal(big, anchor_points(sub, (0.5, 2.0), (0, 0, 0, 0), 800))


@pytest.mark.parametrize("c", [1, 2, 3, 4])
def test_anchor_grid_is_the_cartesian_product_in_itertools_order(c):
    """The grid (before its seeded subsample) is ``itertools.product`` of the anchor axes, the
    last axis fastest, to the bit: the subsample's indices pick the same points."""
    branches = temporal_branches((0.6, 1.4), 47, 1e-3)
    for branch in branches:
        alphas = [] if branch.is_integer else [np.linspace(branch.lo, branch.hi, 5).tolist()]
        if alphas:
            alphas[0] = sorted(
                {*alphas[0], *[v for v in (1.0, 2.0) if branch.lo <= v <= branch.hi]}
            )
        betas = sorted({*np.linspace(0.5, 2.0, 6).tolist(), 1.0, 2.0})
        reference = np.array(list(itertools.product(*alphas, *[betas] * c)), dtype=float)
        grid = anchor_points(branch, (0.5, 2.0), (0,) * c, 10**6)
        assert grid.dtype == reference.dtype and np.array_equal(grid, reference)


def test_x0_on_bound_is_accepted_by_scipy_rescaling():
    bounds = [(0.6, 0.999), (0.5, 2.0)]
    x = _inside_bounds(np.array([0.999, 2.0]), bounds)
    lo, hi = np.array([0.6, 0.5]), np.array([0.999, 2.0])
    scaled = (x - 0.5 * (lo + hi)) / (hi - lo) + 0.5
    assert np.all((scaled >= 0) & (scaled <= 1))
    assert x == pytest.approx([0.999, 2.0], abs=1e-12)


def test_x0_on_bound_passes_the_reciprocal_rescaling_too():
    """(2.966 - mid) / span + 0.5 is exactly 1, but SciPy multiplies by the reciprocal of the
    span and gets 1 + 2e-16: the anchor must be stepped inward for that product as well."""
    bounds = [(1.467, 2.966)]
    x = _inside_bounds(np.array([2.966]), bounds)
    mid, span = 0.5 * (1.467 + 2.966), 2.966 - 1.467
    assert (x[0] - mid) * (1.0 / span) + 0.5 <= 1.0
    assert x[0] < 2.966 and x[0] == pytest.approx(2.966, abs=1e-14)


def test_split_is_seeded_and_disjoint():
    a_tr, a_va = train_val_split(1040, 0.25, 3)
    b_tr, b_va = train_val_split(1040, 0.25, 3)
    np.testing.assert_array_equal(a_va, b_va)
    assert a_va.size == 260 and np.union1d(a_tr, a_va).size == 1040
    assert not np.array_equal(a_va, train_val_split(1040, 0.25, 4)[1])
