import numpy as np
import pytest

from weakpareto.numerics.orders import (
    beta_blend,
    beta_nodes,
    blend,
    first_positive,
    temporal_branches,
)


@pytest.mark.parametrize(
    "rng, expected",
    [  # node counts per branch, docs/method/library.md#temporal-branches
        ((0.60, 1.05), {"sub": 42, "int": 1, "sup": 7}),
        ((0.80, 1.15), {"sub": 28, "int": 1, "sup": 21}),
        ((0.65, 1.00), {"sub": 47, "int": 1}),
        ((0.85, 1.15), {"sub": 24, "int": 1, "sup": 24}),
        ((0.65, 1.85), {"sub": 15, "int": 1, "sup": 34}),
    ],
)
def test_branch_node_counts(rng, expected):
    branches = temporal_branches(rng, 47, 1e-3)
    assert {b.mode: b.nodes.size for b in branches} == expected
    for b in branches:
        if b.mode == "sub":
            assert b.hi == pytest.approx(min(rng[1], 0.999)) and b.nodes[-1] == b.hi
        if b.mode == "sup":
            assert b.lo == pytest.approx(max(rng[0], 1.001)) and b.nodes[0] == b.lo


def test_branches_never_cross_one():
    for b in temporal_branches((0.6, 1.05), 47, 1e-3):
        if b.mode == "sub":
            assert np.all(b.nodes < 1.0)
        if b.mode == "sup":
            assert np.all(b.nodes > 1.0)


@pytest.mark.parametrize("bad", [(1.2, 0.9), (0.0, 0.5), (0.5, 2.0), (0.9992, 0.9998)])
def test_bad_alpha_ranges_rejected(bad):
    with pytest.raises(ValueError):
        temporal_branches(bad, 47, 1e-3)


def test_blend_reproduces_linear_functions():
    nodes = np.linspace(0.5, 2.0, 59)
    bank = 3.0 * nodes - 1.0
    z = np.array([0.5, 0.77, 1.234, 2.0])
    idx, w = blend(z, nodes)
    np.testing.assert_allclose((w * bank[idx]).sum(-1), 3.0 * z - 1.0, rtol=1e-12)
    np.testing.assert_allclose(w.sum(-1), 1.0, atol=1e-12)


def test_identity_snapping_and_first_positive_node():
    nodes = beta_nodes((0.0, 2.1), 59)
    assert first_positive(nodes) == pytest.approx(2.1 / 58)  # 0.036207
    idx, w = beta_blend(np.array([0.0, 0.03, 0.0363]), nodes)
    assert idx[0].tolist() == [0, 0] and w[0].tolist() == [1.0, 0.0]
    assert idx[1].tolist() == [0, 0] and w[1].tolist() == [1.0, 0.0]  # snapped, never blended
    assert idx[2].tolist() == [1, 2]  # above the first positive node: blends nodes 1-2


def test_min_positive_order_moves_the_first_positive_node_and_snaps_below_it():
    from weakpareto.numerics.orders import beta_blend, beta_nodes, first_positive, snap_beta

    nodes = beta_nodes((0.0, 2.0), 21, min_positive=0.5)
    assert nodes[0] == 0.0 and first_positive(nodes) == 0.5 and nodes[-1] == 2.0
    assert nodes.size == 21
    np.testing.assert_array_equal(
        snap_beta(np.array([0.1, 0.49, 0.5, 1.2]), nodes), [0, 0, 0.5, 1.2]
    )
    idx, w = beta_blend(np.array([0.3]), nodes)
    assert idx[0, 0] == 0 and w[0, 0] == 1.0  # an identity proposal uses node 0 alone
    # no identity in range, or no floor: the paper's uniform grid
    np.testing.assert_array_equal(beta_nodes((0.5, 2.0), 7, 0.8), np.linspace(0.5, 2.0, 7))
    np.testing.assert_array_equal(beta_nodes((0.0, 2.0), 7, None), np.linspace(0.0, 2.0, 7))
    with pytest.raises(ValueError, match="below beta_max"):
        beta_nodes((0.0, 0.4), 7, 0.5)
