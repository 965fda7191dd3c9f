"""Noise covariance of weak features (library/noise_covariance.py)."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.library.noise_covariance import (
    FeatureCovariance,
    realisation_spread,
    row_mask,
)
from weakpareto.library.weak import weak_library
from weakpareto.library.weak_exact import exact_time_weak_library


def smooth_field(nt: int = 80, nx: int = 64) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    t = np.linspace(0.0, 1.0, nt)
    x = np.linspace(0.0, 2 * np.pi, nx, endpoint=False)
    u = 1.5 + np.sin(x)[None] * np.exp(-0.5 * t)[:, None] + 0.3 * np.cos(2 * x)[None] * t[:, None]
    return t, x, u


@pytest.mark.parametrize("exact", [False, True])
def test_covariance_matches_monte_carlo(exact):
    """Predicted covariance of [target, linear column] summed over a row subset vs 600 draws."""
    t, x, u = smooth_field(40, 32)
    build = exact_time_weak_library if exact else weak_library
    kw = dict(operator="riesz", test_counts=(8, 8))
    lib = build(u, t, x, **kw)
    variance = np.full(u.shape, 0.05**2)
    rows = np.arange(0, 64, 3)
    mask = row_mask(rows, lib.shape)
    cov = FeatureCovariance(lib, variance).system("sub", 0.7, (0,), np.array([1.3]), mask)
    rng = np.random.default_rng(1)
    draws = []
    for _ in range(600):
        noise = 0.05 * rng.standard_normal(u.shape)
        noise[0] = 0.0  # the covariance is the bulk's: u(0)'s noise is left uncorrected
        noisy = build(u + noise, t, x, **kw)
        y = noisy.targets(np.array([0.7]), "sub")[0][rows]
        c = noisy.columns(0, np.array([1.3]))[0][rows]
        draws.append(np.stack([y, c]))
    d = np.array(draws)  # (R, 2, rows)
    d = d - d.mean(axis=0)
    empirical = np.einsum("rik,rjk->ij", d, d) / (len(draws) - 1)
    np.testing.assert_allclose(np.diag(empirical), np.diag(cov), rtol=0.12)
    corr = empirical[0, 1] / np.sqrt(empirical[0, 0] * empirical[1, 1])
    pred = cov[0, 1] / np.sqrt(cov[0, 0] * cov[1, 1])
    assert corr == pytest.approx(pred, abs=0.08)


def test_profiled_super_unit_covariance_matches_monte_carlo():
    """With u'(0) profiled out (start_slope="profile") the covariance projects the temporal
    weights and tests as the exact system projects its rows: the whole noise (start samples
    included), predicted vs 600 draws of the profiled system. Unprofiled, the noise of the
    estimated u'(0) dominates the target (its variance is several times larger)."""
    from weakpareto.method.exact_fit import exact_system

    t, x, u = smooth_field(40, 32)
    kw = dict(operator="riesz", test_counts=(8, 8), start_slope="profile")
    lib = exact_time_weak_library(u, t, x, **kw)
    rows = np.arange(0, 64, 3)
    mask = row_mask(rows, lib.shape)
    args = ("sup", 1.4, (0,), np.array([1.3]), (mask,))
    (cov,) = FeatureCovariance(lib, np.full(u.shape, 0.05**2)).systems(*args, with_start=True)
    plain = exact_time_weak_library(u, t, x, operator="riesz", test_counts=(8, 8))
    (unprofiled,) = FeatureCovariance(plain, np.full(u.shape, 0.05**2)).systems(
        *args, with_start=True
    )
    assert unprofiled[0, 0] > 3.0 * cov[0, 0]
    rng = np.random.default_rng(5)
    draws = []
    for _ in range(600):
        noisy = exact_time_weak_library(u + 0.05 * rng.standard_normal(u.shape), t, x, **kw)
        y, c = exact_system(noisy, *args[:4])
        draws.append(np.stack([y[rows], c[rows, 0]]))
    d = np.array(draws)
    d = d - d.mean(axis=0)
    empirical = np.einsum("rik,rjk->ij", d, d) / (len(draws) - 1)
    np.testing.assert_allclose(np.diag(empirical), np.diag(cov), rtol=0.12)
    corr = empirical[0, 1] / np.sqrt(empirical[0, 0] * empirical[1, 1])
    assert corr == pytest.approx(cov[0, 1] / np.sqrt(cov[0, 0] * cov[1, 1]), abs=0.08)


def test_realisation_spread_matches_monte_carlo():
    """sd(n^T n) / E(n^T n) of a target's row noise: closed form vs 1000 Gaussian draws."""
    from weakpareto.library.noise_covariance import realisation_spread

    t, x, u = smooth_field(40, 32)
    lib = weak_library(u, t, x, operator="riesz", test_counts=(8, 8))
    cov = FeatureCovariance(lib, np.full(u.shape, 0.05**2))
    w = cov.bulk_weights(np.array([0.7]), "sub")[0]
    rng = np.random.default_rng(2)
    energies = []
    for _ in range(1000):
        noise = 0.05 * rng.standard_normal(u.shape)
        rows = lib.quadrature * (w @ noise @ lib.spatial_tests.T)
        energies.append(float(np.sum(rows**2)))
    e = np.array(energies)
    assert realisation_spread(cov, w) == pytest.approx(e.std() / e.mean(), rel=0.1)


@pytest.mark.parametrize("constant", [False, True])
@pytest.mark.parametrize("n_linear", [0, 2])
def test_blocks_equal_the_covariance_formula_term_by_term(n_linear, constant):
    """``blocks`` against the module's formula written out row by row (no linear column too);
    a constant variance (additive noise) takes the row-sum path."""
    t, x, u = smooth_field(30, 24)
    lib = exact_time_weak_library(u, t, x, operator="riesz", test_counts=(6, 5))
    rng = np.random.default_rng(3)
    s = rng.uniform(0.5, 2.0, u.shape) * 1e-3
    if constant:
        s = np.full(u.shape, 1.3e-3)
    assert (FeatureCovariance(lib, s).constant_variance is not None) == constant
    mask = (rng.random(lib.shape) < 0.7).astype(float)
    w = lib.target_weights(np.array([0.45, 0.8]), "sub")  # (G, K_t, nt)
    adj = lib.spatial_adjoint_tests(np.array([0.7, 1.6])[:n_linear])  # (B, K_x, nx)
    tt, tc, cc = FeatureCovariance(lib, s).blocks(w, adj, mask)
    temporal, spatial, q2 = lib.temporal_tests, lib.spatial_tests, (lib.dt * lib.dx) ** 2

    def cov(a_f, b_f, a_g, b_g):  # sum_{a,l} M[a,l] sum_ij A_f[a,i] A_g[a,i] s_ij B_f[l,j] B_g[l,j]
        total = 0.0
        for a in range(mask.shape[0]):
            for m in range(mask.shape[1]):
                if mask[a, m]:
                    total += np.sum(np.outer(a_f[a] * a_g[a], b_f[m] * b_g[m]) * s)
        return q2 * total

    for g in range(2):
        for h in range(2):
            assert tt[g, h] == pytest.approx(cov(w[g], spatial, w[h], spatial), rel=1e-12)
        for b in range(n_linear):
            assert tc[g, b] == pytest.approx(cov(w[g], spatial, temporal, adj[b]), rel=1e-12)
    assert tc.shape == (2, n_linear) and cc.shape == (n_linear, n_linear)
    for b in range(n_linear):
        for c in range(n_linear):
            assert cc[b, c] == pytest.approx(cov(temporal, adj[b], temporal, adj[c]), rel=1e-12)


def test_several_masks_at_once_equal_one_mask_at_a_time_bit_for_bit():
    """The training and validation covariances of a trial system share their mask-independent
    products; each equals the one-mask computation on a fresh covariance exactly."""
    t, x, u = smooth_field(30, 24)
    lib = exact_time_weak_library(u, t, x, operator="riesz", test_counts=(6, 5))
    rng = np.random.default_rng(5)
    s = rng.uniform(0.5, 2.0, u.shape) * 1e-3
    masks = tuple((rng.random(lib.shape) < 0.6).astype(float) for _ in range(2))
    together = FeatureCovariance(lib, s).systems(
        "sub", 0.7, (0, 1, 0), np.array([0.9, 1.2, 1.7]), masks
    )
    for mask, got in zip(masks, together):
        alone = FeatureCovariance(lib, s).system(
            "sub", 0.7, (0, 1, 0), np.array([0.9, 1.2, 1.7]), mask
        )
        assert np.array_equal(got, alone)
        assert np.all(got[2] == 0.0) and np.all(got[:, 2] == 0.0)  # the nonlinear column


def test_adjoint_tests_of_one_order_are_kept_read_only_and_equal_the_batched_ones():
    t, x, u = smooth_field(30, 24)
    lib = weak_library(u, t, x, operator="riesz", test_counts=(6, 5))
    batched = lib.spatial_adjoint_tests(np.array([0.6, 1.3]))
    one = lib.spatial_adjoint_tests(np.array([1.3]))
    assert lib.spatial_adjoint_tests(np.array([1.3])) is one  # kept for the next call
    assert not one.flags.writeable
    np.testing.assert_array_equal(one[0], batched[1])


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("operator", ["riesz", "directional", "directional_right"])
def test_a_trial_systems_adjoint_tests_order_by_order_equal_the_batched_ones(exact, operator):
    """Trial systems ask for their columns' adjoint tests one order at a time (the single
    orders the columns just computed are kept): each order has the bits of a batched call, on
    grids whose transforms are odd, even, prime and power-of-two sized."""
    rng = np.random.default_rng(7)
    build = exact_time_weak_library if exact else weak_library
    for nx in (24, 31, 60, 97, 128):
        t, x, u = smooth_field(30, nx)
        lib = build(u, t, x, operator=operator, test_counts=(6, 7))
        assert lib.keeps_single_orders
        cov = FeatureCovariance(lib, np.full(u.shape, 0.01))
        for _ in range(5):
            betas = rng.uniform(0.05, 2.5, size=3)
            batched = cov.adjoint_tests([0, 0, 0], betas)
            np.testing.assert_array_equal(cov.trial_adjoint_tests([0, 0, 0], betas), batched)
            for g, b in enumerate(betas):
                np.testing.assert_array_equal(
                    lib.spatial_adjoint_tests(np.array([b]))[0], batched[g]
                )


def test_sources_without_kept_single_orders_are_asked_in_one_batch():
    """A bounded window's tests (no kept single orders) give the batched adjoint tests."""
    from weakpareto.library.weak_bounded import bounded_weak_library

    t, x, u = smooth_field(30, 40)
    lib = bounded_weak_library(u, t, x, operator="riesz", beta_max=2.0, test_counts=(6, 5))
    assert not lib.keeps_single_orders
    cov = FeatureCovariance(lib, np.full(u.shape, 0.01))
    betas = np.array([0.7, 1.6])
    np.testing.assert_array_equal(
        cov.trial_adjoint_tests([0, 0], betas), cov.adjoint_tests([0, 0], betas)
    )


def test_realisation_spread_equals_the_formed_row_covariance():
    """``sqrt(2 tr S^2) / tr S`` without forming S equals the value from the formed (K x K)
    row covariance ``S[(a,l),(b,m)] = sum_ij W_ai W_bi psi_l(x_j) psi_m(x_j) s_ij``."""
    t, x, u = smooth_field(30, 24)
    lib = exact_time_weak_library(u, t, x, operator="riesz", test_counts=(6, 5))
    s = np.random.default_rng(2).uniform(0.5, 2.0, u.shape) * 1e-3
    w = lib.target_weights(np.array([0.7]), "sub")[0]
    sp = lib.spatial_tests
    rows = np.einsum("ai,bi,lj,mj,ij->albm", w, w, sp, sp, s).reshape(30, 30)
    formed = np.sqrt(2.0 * np.sum(rows * rows)) / np.trace(rows)
    assert realisation_spread(FeatureCovariance(lib, s), w) == pytest.approx(formed, rel=1e-12)


def test_covariance_of_several_families_matches_monte_carlo():
    """Predicted covariance of [target, directional, Riesz, right-directional linear columns]
    of one family library (column kinds 0, 1, 2) summed over a row subset vs 600 draws: the
    cross terms between families come from each family's own adjoint tests."""
    from weakpareto.library.families import with_families

    t, x, u = smooth_field(40, 32)
    families = ("directional", "riesz", "directional_right")

    def build(field: np.ndarray):
        base = exact_time_weak_library(field, t, x, operator="directional", test_counts=(8, 8))
        return with_families(base, families)

    lib = build(u)
    variance = np.full(u.shape, 0.05**2)
    rows = np.arange(0, 64, 3)
    mask = row_mask(rows, lib.shape)
    kinds, betas = (0, 1, 2), np.array([1.0, 1.3, 0.7])
    parts = lib.parts
    cov = FeatureCovariance(parts[0], variance, parts).system("sub", 0.7, kinds, betas, mask)
    rng = np.random.default_rng(1)
    draws = []
    for _ in range(600):
        noise = 0.05 * rng.standard_normal(u.shape)
        noise[0] = 0.0  # the covariance is the bulk's: u(0)'s noise is left uncorrected
        noisy = build(u + noise)
        y = noisy.targets(np.array([0.7]), "sub")[0][rows]
        cols = [noisy.columns(k, betas[[j]])[0][rows] for j, k in enumerate(kinds)]
        draws.append(np.stack([y, *cols]))
    d = np.array(draws)
    d = d - d.mean(axis=0)
    empirical = np.einsum("rik,rjk->ij", d, d) / (len(draws) - 1)
    np.testing.assert_allclose(np.diag(empirical), np.diag(cov), rtol=0.12)
    scale = np.sqrt(np.outer(np.diag(cov), np.diag(cov)))
    np.testing.assert_allclose(empirical / scale, cov / scale, atol=0.08)
    # a family's column is its own library's: the one-family covariance of that part
    alone = FeatureCovariance(parts[1], variance).system("sub", 0.7, (0,), betas[[1]], mask)
    np.testing.assert_allclose(cov[np.ix_([0, 2], [0, 2])], alone, rtol=1e-12)


@pytest.mark.parametrize(("mode", "alpha"), [("sub", 0.95), ("sup", 1.5)])
def test_realisation_spread_on_a_strided_grid_equals_the_full_grid(monkeypatch, mode, alpha):
    """Above ``SPREAD_SAMPLES`` per axis the two sums run on a strided subgrid (edges kept
    sample by sample, where a super-unit target's ``u'(0)`` weights spike): within 0.5 % of
    the full-grid value, and the full-grid value differs from the strided one (a real stride)."""
    from weakpareto.library import noise_covariance as nc

    t, x, u = smooth_field(1100, 1040)
    lib = weak_library(u, t, x, operator="riesz", test_counts=(12, 16))
    s = (0.01 * u) ** 2 + 1e-6
    cov = FeatureCovariance(lib, s)
    w = cov.bulk_weights(np.array([alpha]), mode)[0]
    strided = nc.realisation_spread(cov, w)
    monkeypatch.setattr(nc, "SPREAD_SAMPLES", 2000)
    full = nc.realisation_spread(cov, w)
    assert strided == pytest.approx(full, rel=5e-3)
    assert strided != full


def test_blocks_in_small_pieces_equal_the_blocks_in_one(monkeypatch):
    """Targets and columns taken a few at a time (memory) give the same covariance."""
    from weakpareto.library import noise_covariance as nc

    t, x, u = smooth_field(30, 24)
    lib = exact_time_weak_library(u, t, x, operator="riesz", test_counts=(6, 5))
    rng = np.random.default_rng(7)
    s = rng.uniform(0.5, 2.0, u.shape) * 1e-3
    mask = (rng.random(lib.shape) < 0.7).astype(float)
    w = lib.target_weights(np.array([0.3, 0.45, 0.8]), "sub")
    adj = lib.spatial_adjoint_tests(np.array([0.7, 1.1, 1.6]))
    whole = FeatureCovariance(lib, s).blocks(w, adj, mask)
    monkeypatch.setattr(nc, "BLOCK_VALUES", 2 * adj[0].size)  # two targets or columns a block
    pieces = FeatureCovariance(lib, s).blocks(w, adj, mask)
    for a, b in zip(whole, pieces):
        np.testing.assert_allclose(b, a, rtol=1e-13)


def test_constant_variance_path_equals_the_general_path():
    """Additive noise: the row sums of ``W o T`` give the same blocks as the full product."""
    t, x, u = smooth_field(30, 24)
    lib = exact_time_weak_library(u, t, x, operator="riesz", test_counts=(6, 5))
    rng = np.random.default_rng(9)
    s = np.full(u.shape, 2.0e-3)
    masks = tuple((rng.random(lib.shape) < 0.6).astype(float) for _ in range(2))
    w = lib.target_weights(np.array([0.3, 0.45, 0.8]), "sub")
    adj = lib.spatial_adjoint_tests(np.array([0.7, 1.1, 1.6]))
    fast = FeatureCovariance(lib, s)
    general = FeatureCovariance(lib, s)
    general.__dict__["constant_variance"] = None  # force the full product
    for a, b in zip(fast.blocks_per_mask(w, adj, masks), general.blocks_per_mask(w, adj, masks)):
        for x_fast, x_general in zip(a, b):
            np.testing.assert_allclose(x_fast, x_general, rtol=1e-12, atol=0.0)


@pytest.mark.parametrize(
    ("mode", "alpha", "slope"), [("sub", 0.7, "estimate"), ("sup", 1.4, "profile")]
)
def test_kept_trial_orders_give_the_fresh_covariance_bit_for_bit(mode, alpha, slope):
    """The trial systems of one order share its target weights and time sums: every later
    system of that order (other supports, other column orders, the profiled super-unit system)
    equals the one a fresh covariance computes, and at most KEPT_ORDERS orders are kept."""
    from weakpareto.library.noise_covariance import KEPT_ORDERS

    t, x, u = smooth_field(30, 24)
    lib = exact_time_weak_library(u, t, x, operator="riesz", test_counts=(6, 5), start_slope=slope)
    s = np.random.default_rng(2).uniform(0.5, 2.0, u.shape) * 1e-3
    mask = (np.random.default_rng(3).random(lib.shape) < 0.6).astype(float)
    shared = FeatureCovariance(lib, s)
    for powers, betas in [((0,), [1.3]), ((0, 1), [0.9, 1.2]), ((0, 0), [0.4, 1.8])]:
        for start in (False, True):
            got = shared.systems(mode, alpha, powers, np.array(betas), (mask,), start)[0]
            fresh = FeatureCovariance(lib, s).systems(
                mode, alpha, powers, np.array(betas), (mask,), start
            )[0]
            assert np.array_equal(got, fresh)
    for a in np.linspace(alpha - 0.1, alpha + 0.1, KEPT_ORDERS + 3):
        shared.system(mode, float(a), (0,), np.array([1.3]), mask)
    assert len(shared._per_order) == KEPT_ORDERS
