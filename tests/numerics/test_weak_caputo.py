"""Exact weak Caputo derivatives on polynomial bumps (numerics/weak_caputo.py)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate
from scipy.special import gamma

from weakpareto.numerics import operators as ops
from weakpareto.numerics.weak_caputo import (
    PolynomialBumps,
    initial_weights,
    model_initial_weights,
    polynomial_bumps,
    with_initial_terms,
)

A, B, P = 0.3, 0.7, 4
BUMP = PolynomialBumps(np.array([A]), np.array([B]), P, np.array([1.0]))


def phi(t: float) -> float:
    r = 0.5 * (B - A)
    return ((t - A) * (B - t) / r**2) ** P if A < t < B else 0.0


def caputo_of_power(k: int, alpha: float, t: float) -> float:
    """Caputo derivative of ``t^k`` (closed form, k > alpha)."""
    return gamma(k + 1) / gamma(k + 1 - alpha) * t ** (k - alpha)


def test_order_one_is_minus_the_derivative():
    poly = np.polynomial.Polynomial([-A, 1.0]) * np.polynomial.Polynomial([B, -1.0]) / 0.04
    poly = poly**P
    s = np.linspace(0.0, 1.0, 201)
    expected = np.where((s > A) & (s < B), -poly.deriv()(s), 0.0)
    got = BUMP.right_derivative(s, [1.0])[0, 0]
    # peak |phi'| is ~20; left of the support the closed form cancels two sums (~1e-12 relative)
    np.testing.assert_allclose(got, expected, atol=1e-10)


@pytest.mark.parametrize("alpha", [0.3, 0.75, 1.4, 1.85])
@pytest.mark.parametrize("k", [2, 3])
def test_fractional_integration_by_parts_against_the_caputo_closed_form(alpha, k):
    """int phi C D^alpha t^k = int (t^k - [alpha>1] t u'(0)) RL D^alpha_{T-} phi; u(0)=u'(0)=0.

    Left: the Caputo closed form of t^k against phi (scipy quad). Right: our right derivative
    evaluated pointwise at quad's nodes, both sides independent."""
    lhs = integrate.quad(lambda t: phi(t) * caputo_of_power(k, alpha, t), A, B, epsabs=1e-13)[0]

    def w(t: float) -> float:
        return float(BUMP.right_derivative(np.array([t]), [alpha])[0, 0, 0])

    rhs = integrate.quad(lambda t: t**k * w(t), 0.0, B, points=[A - 0.1, A], limit=200)[0]
    assert rhs == pytest.approx(lhs, rel=1e-9)


def test_far_field_quadrature_matches_closed_form_where_both_hold():
    s = np.array([A - 0.11, A - 0.13, A - 0.2])  # left of a - r/2, still fine for closed form
    alphas = np.array([0.4, 0.9, 1.6])
    near = BUMP._closed_form(s, alphas)
    far = BUMP._far_field(s, alphas)
    # the closed form cancels two sums of size ~ (b - s)^8 / r^8 <= 3^8 here: ~1e-10 relative
    np.testing.assert_allclose(far, near, rtol=5e-10)


def _weak_caputo_error(n: int, alpha: float, scheme: str) -> float:
    """|discrete weak target - exact| for u = t^2 + t^3 on bump tests (u(0) = u'(0) = 0)."""
    t = np.linspace(0.0, 1.0, n + 1)
    dt = 1.0 / n
    u = t**2 + t**3
    bumps = polynomial_bumps(t, 3, 0.2, P, normalise=False)
    mode = "sub" if alpha < 1 else "sup"
    if scheme == "exact":
        c0, c1 = initial_weights(t.size, dt, 5, fit=False)
        w = with_initial_terms(
            bumps.right_derivative(t, [alpha])[0], t, c0, c1 if alpha > 1 else None
        )
        got = dt * (w @ u)
    else:
        phis = bumps.values(t)
        got = dt * (phis @ (ops.caputo_matrix(n + 1, dt, alpha, mode) @ u))
    exact = np.array(
        [
            integrate.quad(
                lambda s, k=k: (
                    bumps.values(np.array([s]))[k, 0]
                    * (caputo_of_power(2, alpha, s) + caputo_of_power(3, alpha, s))
                ),
                bumps.lower[k],
                bumps.upper[k],
                epsabs=1e-14,
            )[0]
            for k in range(3)
        ]
    )
    return float(np.max(np.abs(got - exact)))


@pytest.mark.parametrize("alpha", [0.4, 0.8, 1.5])
def test_exact_target_converges_at_second_order_faster_than_l1(alpha):
    ns = np.array([80, 160, 320])
    exact = np.array([_weak_caputo_error(n, alpha, "exact") for n in ns])
    order = np.log2(exact[:-1] / exact[1:])
    assert np.all(order > 1.9), order
    if alpha < 1:  # the L1 target: O(dt^(2 - alpha))
        l1 = np.array([_weak_caputo_error(n, alpha, "l1") for n in ns])
        l1_order = np.log2(l1[:-1] / l1[1:])
        assert np.all(np.abs(l1_order - (2 - alpha)) < 0.15), l1_order
        assert exact[-1] < 0.1 * l1[-1]


@pytest.mark.parametrize("fit", [False, True])
def test_initial_weights_are_exact_on_quadratics(fit):
    t = np.linspace(0.0, 0.5, 40)
    u = 1.5 - 2.0 * t + 3.0 * t**2
    c0, c1 = initial_weights(t.size, t[1] - t[0], 7, fit)
    assert c0 @ u == pytest.approx(1.5, abs=1e-12)
    assert c1 @ u == pytest.approx(-2.0, abs=1e-10)


@pytest.mark.parametrize("alpha", [0.6, 1.3, 1.7])
def test_model_initial_weights_are_exact_on_the_caputo_start_terms(alpha):
    """u = u0 + u1 t + a t^alpha + b t^(alpha+1) (super-unit; sub-unit: u0 + a t^alpha +
    b t^(2 alpha)): the Caputo basis returns u(0) and u'(0) exactly; a quadratic does not."""
    t = np.linspace(0.0, 1.0, 201)
    dt = t[1] - t[0]
    sup = alpha > 1
    u = 0.7 + 0.8 * t**alpha + (-0.5 * t ** (alpha + 1) if sup else -0.5 * t ** (2 * alpha))
    u = u + (0.3 * t if sup else 0.0)
    c0, c1 = model_initial_weights(t.size, dt, [alpha, alpha], 8, sup)
    assert c0.shape == c1.shape == (2, t.size)
    np.testing.assert_allclose(c0 @ u, 0.7, atol=1e-11)
    np.testing.assert_allclose(c1 @ u, 0.3 if sup else 0.0, atol=1e-9)
    if sup:
        _, quad = initial_weights(t.size, dt, 8, True)
        assert abs(quad @ u - 0.3) > 0.01  # t^alpha defeats a polynomial slope


def test_per_order_initial_terms_match_the_single_order_form():
    t = np.linspace(0.0, 1.0, 101)
    w = BUMP.right_derivative(t, [1.3, 1.6])  # (2, 1, nt)
    c0, c1 = model_initial_weights(t.size, t[1] - t[0], [1.3, 1.6], 6, True)
    both = with_initial_terms(w, t, c0, c1)
    for g in range(2):
        np.testing.assert_array_equal(both[g], with_initial_terms(w[g], t, c0[g], c1[g]))


def test_bumps_vanish_outside_support_and_are_normalised():
    t = np.linspace(0.0, 2.0, 101)
    bumps = polynomial_bumps(t, 5, 0.3, 4)
    v = bumps.values(t)
    np.testing.assert_allclose(np.sum(v**2, axis=1), 1.0, rtol=1e-12)
    outside = (t[None] <= bumps.lower[:, None]) | (t[None] >= bumps.upper[:, None])
    assert np.all(v[outside] == 0.0)
    with pytest.raises(ValueError, match="radius"):
        polynomial_bumps(t, 5, 1.5, 4)


def test_plan_skips_no_pair_it_needs_and_keeps_right_of_support_exactly_zero():
    """The plan evaluates the closed form only where a power is nonzero; every pair it skips
    is right of its bump (exactly 0), and the rest agree with the dense closed form."""
    t = np.linspace(0.0, 2.0, 161)
    bumps = polynomial_bumps(t, 9, 0.3, P)
    alphas = np.array([0.35, 0.8, 1.4])
    got = bumps.plan(t).evaluate(alphas)
    dense = bumps.scale[None, :, None] * bumps._closed_form(t, alphas)
    right = t[None, :] >= bumps.upper[:, None]
    assert right.any() and np.all(got[:, right] == 0.0)
    near = ~right & (t[None, :] >= (bumps.lower - 0.5 * bumps.radius)[:, None])
    scale = np.max(np.abs(dense[:, near]))
    np.testing.assert_allclose(got[:, near], dense[:, near], rtol=0, atol=1e-13 * scale)
