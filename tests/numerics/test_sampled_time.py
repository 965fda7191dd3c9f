"""Quadrature and start weights on irregular samples, periodic gap weights and fill."""

from __future__ import annotations

import numpy as np

from weakpareto.numerics.sampled_time import (
    is_uniform,
    model_start_weights,
    periodic_fill,
    product_nodes,
    start_weights,
    time_fill,
    time_gap_weights,
    trapezoid_weights,
)


def _jittered(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    h = 1.0 / (n - 1)
    t = np.linspace(0.0, 1.0, n) + rng.uniform(-0.4, 0.4, n) * h
    t[0], t[-1] = 0.0, 1.0
    return t


def test_trapezoid_is_second_order_on_jittered_times():
    errors = []
    for n in (41, 81, 161, 321):
        t = _jittered(n)
        errors.append(abs(trapezoid_weights(t) @ np.exp(np.sin(3 * t)) - 2.0188898451843835))
    slopes = -np.diff(np.log(errors)) / np.log(2.0)
    assert np.all(slopes > 1.7), slopes


def test_trapezoid_on_uniform_grid_is_dt_inside_half_at_ends():
    w = trapezoid_weights(0.1 * np.arange(6))
    np.testing.assert_allclose(w, [0.05, 0.1, 0.1, 0.1, 0.1, 0.05], rtol=1e-14)
    assert is_uniform(0.1 * np.arange(6)) and not is_uniform(_jittered(10))


def test_start_slope_is_exact_on_quadratics_at_irregular_offsets():
    s = np.array([0.0, 0.013, 0.031, 0.05, 0.06])
    u = 2.0 - 3.0 * s + 5.0 * s**2
    for fit in (False, True):
        c0, c1 = start_weights(s, 5, fit)
        assert abs(c0 @ u - 2.0) < 1e-12 and abs(c1 @ u + 3.0) < 1e-9
    c0, c1 = start_weights(0.1 * np.arange(5), 5, False)
    np.testing.assert_allclose(c1[:3], [-15.0, 20.0, -5.0], rtol=1e-13)


def test_model_start_fits_the_caputo_basis_at_irregular_offsets():
    s = np.cumsum(np.r_[0.0, [0.01, 0.02, 0.015, 0.03, 0.01, 0.02]])
    u = 1.0 + 0.5 * s - 2.0 * s**1.4 + 0.3 * s**2.4
    c0, c1 = model_start_weights(s, [1.4], 7, True)
    assert abs(c0[0] @ u - 1.0) < 1e-9 and abs(c1[0] @ u - 0.5) < 1e-7


def test_time_gap_weights_are_the_trapezoid_rule_linear_across_gaps():
    t = _jittered(60)
    present = np.ones((60, 4), dtype=bool)
    present[[5, 6, 30], 0] = False
    present[59, 1] = False
    present[0, 2] = False
    w = time_gap_weights(t, present) * trapezoid_weights(t)[:, None]
    np.testing.assert_array_equal(w[:, 3], trapezoid_weights(t))
    assert np.all(w[~present] == 0.0)
    # constants integrate exactly across interior gaps (at an end, where every test vanishes,
    # the last present sample is not extended to the end)
    np.testing.assert_allclose(w.sum(axis=0)[[0, 3]], 1.0, rtol=1e-14)
    f = 1.0 + t - 2.0 * t**2  # the error is the interpolant's across the gap: O(gap^3 f'')
    np.testing.assert_allclose(w[:, 0] @ f, 1.0 + 0.5 - 2.0 / 3.0, atol=2e-4)


def test_periodic_fill_is_linear_across_gaps_and_never_reads_them():
    nx = 32
    x = 2 * np.pi * np.arange(nx) / nx
    present = np.ones((2, nx), dtype=bool)
    present[0, [0, 5, 6, 31]] = False
    f = np.cos(x)[None].repeat(2, 0) + 2.0
    filled = periodic_fill(np.where(present, f, 1e3), present)
    np.testing.assert_array_equal(filled[1], f[1])
    np.testing.assert_allclose(filled[0, 5], f[0, 4] + (f[0, 7] - f[0, 4]) / 3, rtol=1e-14)
    assert np.max(np.abs(filled - f)) < 0.2


def test_masked_start_values_fit_each_column_on_its_present_samples():
    """A start u = a + b t + c t^alpha + d t^(alpha+1) is in the basis: every column's u(0), u'(0)
    come out exact, whatever a missing sample holds; complete columns match the linear weights."""
    from weakpareto.numerics.sampled_time import masked_start_values, model_start_weights

    alpha = 1.4
    s = np.sort(np.r_[0.0, np.random.default_rng(2).uniform(0.0, 0.2, 11)])
    a, b = np.array([1.0, -0.5, 0.3]), np.array([0.2, 1.5, -2.0])
    u = (
        a
        + np.outer(s, b)
        + np.outer(s**alpha, [0.7, -0.1, 0.4])
        + np.outer(s ** (alpha + 1), [1, 2, 3])
    )
    present = np.ones_like(u, dtype=bool)
    present[2, 1] = present[4, 2] = False
    garbage = u.copy()
    garbage[~present] = 1e3
    values = masked_start_values(s, garbage, present, np.array([alpha]), 8)
    np.testing.assert_allclose(values[0, 0], a, atol=1e-9)
    np.testing.assert_allclose(values[0, 1], b, atol=1e-7)
    c0, c1 = model_start_weights(s, np.array([alpha]), 8, True)
    np.testing.assert_allclose(values[0, 0, 0], c0[0] @ u[:, 0], rtol=1e-12)
    np.testing.assert_allclose(values[0, 1, 0], c1[0] @ u[:, 0], rtol=1e-10)


def test_product_nodes_integrate_a_rough_kernel_against_the_linear_interpolant():
    t = np.linspace(0.0, 1.0, 21)
    s, p = product_nodes(t, t[1] - t[0])
    np.testing.assert_array_equal(s, t)
    np.testing.assert_array_equal(p, np.eye(t.size))
    kept = np.delete(t, [7, 12, 13])  # steps of 2 and 3 mean-grid steps
    s, p = product_nodes(kept, t[1] - t[0])
    np.testing.assert_allclose(s, t, atol=1e-15)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    v = 1.0 + 2.0 * kept  # linear: its interpolant is exact
    np.testing.assert_allclose(p @ v, 1.0 + 2.0 * s)


def test_time_fill_is_linear_in_time_per_column_and_never_reads_gaps():
    t = np.array([0.0, 0.1, 0.3, 0.6, 1.0])
    u = np.stack([1.0 + 2.0 * t, 3.0 - t], axis=1)
    present = np.ones(u.shape, dtype=bool)
    present[[1, 2], 0] = False
    present[4, 1] = False
    garbage = np.where(present, u, 1e6)
    got = time_fill(t, garbage, present)
    np.testing.assert_allclose(got[:, 0], u[:, 0])  # linear column: exact across the gap
    assert got[4, 1] == u[3, 1]  # after the last present sample: its value


def test_time_fill_reads_a_wholly_missing_column_from_its_neighbours_in_x():
    t = np.linspace(0.0, 1.0, 6)
    x = np.arange(5.0)
    u = np.add.outer(2.0 * t, x)  # linear in x: the periodic interpolant is exact inside
    present = np.ones(u.shape, dtype=bool)
    present[:, 2] = False
    present[3, 1] = False
    got = time_fill(t, np.where(present, u, 1e6), present)
    np.testing.assert_allclose(got, u)
