"""Finite-domain data-side operators: convergence on closed forms, discrete adjoints, integers."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

from weakpareto.numerics.bounded_operators import (
    bounded_riesz_matrix,
    shift_weights,
    wsgd_left_matrix,
    wsgd_right_matrix,
)
from weakpareto.numerics.operators import discrete_adjoint


def _errors(beta: float, k: int, order: int) -> list[float]:
    """Max error of the left matrix on x^k (RL derivative, terminal 0) on [0.25, 0.9]."""
    out = []
    for n in (25, 50, 100, 200):
        h = 1.0 / n
        x = h * np.arange(n + 1)
        a = wsgd_left_matrix(n + 1, h, [beta], order)[0]
        with np.errstate(divide="ignore"):
            exact = special.gamma(k + 1) / special.gamma(k + 1 - beta) * x ** (k - beta)
        m = (x >= 0.25) & (x <= 0.9)
        out.append(float(np.max(np.abs(a @ x**k - exact)[m])))
    return out


@pytest.mark.parametrize("order", [2, 4])
@pytest.mark.parametrize("beta", [0.4, 1.5, 2.5])
def test_convergence_order_on_power_functions(order: int, beta: float) -> None:
    errs = np.array(_errors(beta, 5, order))
    rates = np.log2(errs[:-1] / errs[1:])
    assert np.all(rates > order - 0.25), rates


def test_starting_weights_make_low_degree_polynomials_exact() -> None:
    n, h, beta = 60, 0.1, 1.3
    x = h * np.arange(n)
    a = wsgd_left_matrix(n, h, [beta])[0]
    for k in range(4):
        exact = special.gamma(k + 1) / special.gamma(k + 1 - beta) * x[1:] ** (k - beta)
        assert np.allclose((a @ x**k)[1:], exact, rtol=1e-9, atol=1e-9)


def test_integer_orders_are_central_differences() -> None:
    n, h = 40, 0.5
    shifts, lam = shift_weights(1.0, 4)
    assert np.allclose(lam, [-1 / 12, 7 / 12, 7 / 12, -1 / 12])
    a1 = wsgd_left_matrix(n, h, [1.0])[0]
    row = a1[20, 18:23] * h
    assert np.allclose(row, [1 / 12, -2 / 3, 0.0, 2 / 3, -1 / 12], atol=1e-12)
    a2 = wsgd_left_matrix(n, h, [2.0], order=2)[0]
    assert np.allclose(a2[20, 19:22] * h * h, [1.0, -2.0, 1.0])
    r2 = bounded_riesz_matrix(n, h, [2.0])[0]
    assert np.allclose(r2[20], wsgd_left_matrix(n, h, [2.0])[0][20], atol=1e-9)


def test_discrete_adjoint_identity_on_the_window() -> None:
    rng = np.random.default_rng(0)
    n, h = 50, 0.2
    f, g = rng.standard_normal(n), rng.standard_normal(n)
    for mats in (
        wsgd_left_matrix(n, h, [0.7, 1.6]),
        wsgd_right_matrix(n, h, [0.7, 1.6]),
        bounded_riesz_matrix(n, h, [1.3, 1.8]),
    ):
        adj = discrete_adjoint(mats)
        lhs = h * np.einsum("gij,j,i->g", mats, f, g)
        rhs = h * np.einsum("j,gji,i->g", f, adj, g)
        assert np.allclose(lhs, rhs, rtol=1e-12)
    # the adjoint of the left matrix is right-sided: its upper triangle carries the weights
    adj = discrete_adjoint(wsgd_left_matrix(n, h, [0.7]))[0]
    assert np.allclose(np.tril(adj, -3)[: n - 4, 4:], 0.0)


def test_riesz_is_continuous_through_odd_integers() -> None:
    n, h = 30, 0.3
    near = bounded_riesz_matrix(n, h, [0.98, 0.995, 1.0, 1.005, 1.02])
    assert np.all(np.isfinite(near))
    inner = near[:, 5:-5]  # rows where compact tests live (edge rows carry the terminal terms)
    mid = inner[2]
    assert np.max(np.abs(inner[1] - mid)) < 0.05 * np.max(np.abs(mid))
    assert np.max(np.abs(inner[3] - mid)) < 0.05 * np.max(np.abs(mid))
