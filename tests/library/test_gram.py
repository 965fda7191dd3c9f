"""The Gram-table objective equals the direct K-row evaluation (issue: ≤ 1e-10 relative)."""

import numpy as np
import pytest

from weakpareto.library.gram import GramTables, RowGram, build_banks, evaluate_direct
from weakpareto.library.weak import weak_library
from weakpareto.method.search import PatternObjective, train_val_split
from weakpareto.method.settings import SearchSettings
from weakpareto.numerics.orders import beta_nodes, temporal_branches


@pytest.fixture(scope="module")
def system(noisy_fade):
    u, t, x = noisy_fade
    lib = weak_library(u, t, x, operator="directional", power_mode="positive")
    branches = temporal_branches((0.6, 1.05), 47, 1e-3)
    banks = build_banks(lib, branches, beta_nodes((0.5, 2.0), 59), (0, 1, 2))
    tr, va = train_val_split(banks.n_rows, 0.25, 0)
    return banks, GramTables.build(banks, tr, va), tr, va


def test_split_sizes_match_spec():
    tr, va = train_val_split(2640, 0.25, 0)
    assert va.size == 660 and tr.size == 1980
    assert np.intersect1d(tr, va).size == 0
    np.testing.assert_array_equal(train_val_split(2640, 0.25, 0)[1], va)


@pytest.mark.parametrize("mode, powers", [("sub", (0, 0)), ("int", (1, 0)), ("sup", (0, 1, 2))])
def test_gram_objective_matches_direct(system, mode, powers):
    banks, tables, tr, va = system
    obj = PatternObjective(banks, tables, banks.branch(mode), powers, SearchSettings())
    rng = np.random.default_rng(7)
    br = banks.branch(mode)
    n = 6
    betas = rng.uniform(0.5, 2.0, (n, len(powers)))
    x = np.column_stack([rng.uniform(br.lo, br.hi, n), betas]) if obj.fractional else betas
    _, _, ev = obj.fit(x)
    for i in range(n):
        alpha = x[i, 0] if obj.fractional else 1.0
        idx, w = banks.target_stencil(mode, np.array(alpha))
        y = banks.interpolate(idx, w)
        cols = [
            banks.interpolate(*banks.column_stencil(p, np.array(b)))
            for p, b in zip(powers, betas[i])
        ]
        ref = evaluate_direct(y, np.stack(cols, 1), tr, va, 1e-3)
        np.testing.assert_allclose(ev.coef[i], ref.coef[0], rtol=1e-9)
        assert ev.val_error[i] == pytest.approx(ref.val_error[0], rel=1e-10)
        assert ev.train_error[i] == pytest.approx(ref.train_error[0], rel=1e-10)
        assert ev.val_mse[i] == pytest.approx(ref.val_mse[0], rel=1e-10)


def test_bank_nodes_equal_exact_features(system, noisy_fade):
    banks, *_ = system
    u, t, x = noisy_fade
    lib = weak_library(u, t, x, operator="directional", power_mode="positive")
    node = banks.beta_nodes[17]
    idx, w = banks.column_stencil(1, np.array(node))
    np.testing.assert_allclose(
        banks.interpolate(idx, w), lib.columns(1, np.array([node]))[0], rtol=1e-12, atol=1e-15
    )


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_row_gram_of_finite_vectors_equals_the_selected_columns_bit_for_bit(layout):
    """An all-finite array skips the column selection; its Gram table and sums keep the bits
    the selection gives (a Fortran-ordered copy: BLAS and the row sums follow the layout)."""
    v = np.random.default_rng(3).standard_normal((4, 1200))
    if layout == "F":
        v = np.asfortranarray(v)
    elif layout == "strided":
        v = np.random.default_rng(3).standard_normal((4, 2400))[:, ::2]
    table = RowGram.of(v)
    selected = v[:, np.ones(v.shape[1], dtype=bool)]
    assert np.array_equal(table.gram, selected @ selected.T)
    assert np.array_equal(table.sums, selected.sum(axis=1)) and table.n == v.shape[1]
    v_nan = v.copy()
    v_nan[2, 5] = np.nan  # a column with a missing value leaves every row's sums
    keep = np.ones(v.shape[1], dtype=bool)
    keep[5] = False
    dropped, kept = RowGram.of(v_nan), v_nan[:, keep]
    assert np.array_equal(dropped.gram, kept @ kept.T) and dropped.n == keep.sum()
