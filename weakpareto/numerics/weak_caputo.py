"""Exact weak Caputo derivatives: the derivative moved onto compactly supported polynomial tests.

For a test function ``phi`` supported in ``[a, b] ⊂ [0, T]`` the Caputo derivative of order
``alpha`` moves onto the test function exactly (fractional integration by parts; the boundary
terms vanish because ``phi`` and its derivatives vanish at ``T`` and the subtracted Taylor
polynomial of ``u`` vanishes at ``0`` with the needed derivatives):

    int_0^T phi C D^alpha u dt = int_0^T (u - u(0) - [alpha > 1] t u'(0)) RL D^alpha_{T-} phi dt,

``RL D^alpha_{T-}`` the right-sided Riemann–Liouville derivative (alpha = 1: ``-phi'``). This is
the continuous counterpart of the paper's transposed L1 target (paper Eqs. 9 and 12) without the
``O(dt^{2-alpha})`` L1 error and without a boundary term at ``T``.

Tests are the polynomial bumps ``phi(t) = ((t - a)(b - t) / r^2)^p`` on ``[a, b]``, ``r = (b-a)/2``.
Writing ``phi = F(b - t) 1[t < b] - G(a - t) 1[t < a]`` with polynomials ``F, G`` whose monomials
have degree ``>= p``, every monomial has the closed-form right derivative

    RL D^alpha_{T-} (c - t)_+^m = Gamma(m + 1) / Gamma(m + 1 - alpha) (c - s)_+^{m - alpha}.

Far to the left of the support (``s < a - r``) the two sums cancel; there the derivative is the
regular integral ``(1/Gamma(-alpha)) int_a^b (t - s)^{-alpha-1} phi(t) dt``, evaluated by
Gauss–Legendre quadrature (the kernel is analytic on the support, so 24 nodes give ~1e-15).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from weakpareto._typing import FloatArray, IntArray

#: Gauss–Legendre nodes for the far-field integral (kernel analytic within a Bernstein ellipse of
#: parameter >= 2 + sqrt(3) around the support, so the error is below 3.73^(-48)).
FAR_FIELD_NODES = 32


def _monomial_coefficients(power: int) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Degrees ``m`` and coefficients of ``F(z) = sum f_m (z/r)^m`` and ``G(y) = sum g_m (y/r)^m``.

    ``phi = (z (2r - z))^p / r^{2p}`` with ``z = b - t``; for ``t < a``, ``y = a - t``:
    ``phi = (-y)^p (2r + y)^p / r^{2p}``.
    """
    i = np.arange(power + 1)
    binom = np.array([comb(power, k) for k in i], dtype=float)
    degrees = (power + i).astype(float)
    f = binom * 2.0 ** (power - i) * (-1.0) ** i
    g = (-1.0) ** power * binom * 2.0 ** (power - i)
    return degrees, f, g


@dataclass(frozen=True)
class PolynomialBumps:
    """Tests ``phi_k(t) = scale_k ((t - a_k)(b_k - t)/r_k^2)^p`` on ``[a_k, b_k]``, zero outside."""

    lower: FloatArray  # a_k, shape (K,)
    upper: FloatArray  # b_k, shape (K,)
    power: int
    scale: FloatArray  # row factors (l2 normalisation of the sampled rows)

    @property
    def radius(self) -> FloatArray:
        return 0.5 * (self.upper - self.lower)

    def values(self, t: ArrayLike) -> FloatArray:
        """``phi_k(t_i)``, shape ``(K, n)``."""
        t = np.asarray(t, dtype=float)
        a, b, r = self.lower[:, None], self.upper[:, None], self.radius[:, None]
        inside = (t[None, :] > a) & (t[None, :] < b)
        base = np.where(inside, (t[None, :] - a) * (b - t[None, :]) / r**2, 0.0)
        return self.scale[:, None] * base**self.power

    def right_derivative(self, t: ArrayLike, alphas: ArrayLike) -> FloatArray:
        """``RL D^alpha_{T-} phi_k (t_i)`` for every order: shape ``(G, K, n)``; alpha in (0, 2)."""
        return self.plan(t).evaluate(alphas)

    def plan(self, t: ArrayLike) -> RightDerivativePlan:
        """The order-independent part of :meth:`right_derivative` on the times ``t``: which
        (bump, time) pairs take the closed form and which the far-field quadrature (with the
        logarithms of its distances, so an order costs one ``exp`` per node)."""
        t = np.asarray(t, dtype=float)
        k_all, i_all = np.meshgrid(np.arange(self.lower.size), np.arange(t.size), indexing="ij")
        use_far = t[None, :] < (self.lower - 0.5 * self.radius)[:, None]  # (K, n)
        far, near = np.flatnonzero(use_far), np.flatnonzero(~use_far)
        kn, sn = k_all.ravel()[near], t[i_all.ravel()[near]]
        kf, sf = k_all.ravel()[far], t[i_all.ravel()[far]]
        a, b, r = self.lower, self.upper, self.radius
        x, w = np.polynomial.legendre.leggauss(FAR_FIELD_NODES)
        tq = 0.5 * (a + b)[:, None] + r[:, None] * x[None, :]  # (K, Q)
        phi = ((tq - a[:, None]) * (b[:, None] - tq) / r[:, None] ** 2) ** self.power
        zb = np.maximum(b[kn] - sn, 0.0) / r[kn]
        za = np.maximum(a[kn] - sn, 0.0) / r[kn]
        # right of a bump (s >= b) both powers vanish: those pairs stay exactly 0
        inside = zb > 0.0
        za_in = za[inside]
        return RightDerivativePlan(
            shape=(self.lower.size, t.size),
            power=self.power,
            near=near[inside],
            near_zb=zb[inside],
            near_r=r[kn][inside],
            left=np.flatnonzero(za_in > 0.0),
            left_za=za_in[za_in > 0.0],
            far=far,
            far_log_gap=np.log(tq[kf] - sf[:, None]),  # gap >= r/2 on far pairs
            far_weight=(w[None, :] * phi * r[:, None])[kf],
            scale=self.scale,
        )

    def _closed_form(self, t: FloatArray, alphas: FloatArray) -> FloatArray:
        """Closed form on every (bump, time) pair, unscaled (a reference for the quadrature)."""
        t = np.asarray(t, dtype=float)
        pairs = np.arange(self.lower.size * t.size)
        values = _closed_form_values(self._pairs(t, pairs), self.power, alphas)
        return values.reshape((-1, self.lower.size, t.size))

    def _far_field(self, t: FloatArray, alphas: FloatArray) -> FloatArray:
        """Far-field quadrature on every pair left of its bump (others 0), unscaled."""
        t = np.asarray(t, dtype=float)
        k, i = np.meshgrid(np.arange(self.lower.size), np.arange(t.size), indexing="ij")
        x, w = np.polynomial.legendre.leggauss(FAR_FIELD_NODES)
        a, b, r = self.lower, self.upper, self.radius
        tq = 0.5 * (a + b)[:, None] + r[:, None] * x[None, :]
        phi = ((tq - a[:, None]) * (b[:, None] - tq) / r[:, None] ** 2) ** self.power
        gap = tq[k.ravel()] - t[i.ravel()][:, None]
        left = np.all(gap > 0.0, axis=1)
        out = np.zeros((np.atleast_1d(alphas).size, k.size))
        weight = (w[None, :] * phi * r[:, None])[k.ravel()[left]]
        out[:, left] = _far_field_values(np.log(gap[left]), weight, alphas)
        return out.reshape((-1,) + k.shape)

    def _pairs(self, t: ArrayLike, pairs: IntArray) -> tuple[FloatArray, FloatArray, FloatArray]:
        t = np.asarray(t, dtype=float)
        k, i = np.divmod(pairs, t.size)
        a, b, r = self.lower[k], self.upper[k], self.radius[k]
        return np.maximum(b - t[i], 0.0) / r, np.maximum(a - t[i], 0.0) / r, r


def _closed_form_values(
    pairs: tuple[FloatArray, FloatArray, FloatArray], power: int, alphas: ArrayLike
) -> FloatArray:
    """``sum_m c_m [(b - s)/r]^(m - alpha) - d_m [(a - s)/r]^(m - alpha)`` times ``r^-alpha`` per
    pair (module docstring), from the pairs' ``(b - s)_+/r``, ``(a - s)_+/r`` and ``r``: ``(G, P)``.
    Powers, not exp(log): the two sums cancel to ~1e-10 of their size, and ``pow`` keeps the
    last bits that exp-of-log loses."""
    zb, za, r = pairs
    alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
    degrees, f, g = _monomial_coefficients(power)
    gam = special.poch(degrees[None, :] + 1.0 - alphas[:, None], alphas[:, None])  # (G, M)
    expo = (degrees[None, :] - alphas[:, None])[:, None, :]  # (G, 1, M), all > 0
    pb = zb[None, :, None] ** expo  # (G, P, M)
    pa = za[None, :, None] ** expo
    total = pb @ (f[None, :] * gam)[:, :, None] - pa @ (g[None, :] * gam)[:, :, None]
    return total[..., 0] * r[None, :] ** (-alphas[:, None])


def _closed_form_sparse(plan: RightDerivativePlan, alphas: FloatArray) -> FloatArray:
    """:func:`_closed_form_values` on the plan's pairs with ``s < b``, the ``(a - s)_+`` sum taken
    only where ``s < a``: the same operations on the nonzero powers, so the values are equal
    bit for bit (a zero power contributes an exact 0), at about half the ``pow`` calls."""
    degrees, f, g = _monomial_coefficients(plan.power)
    gam = special.poch(degrees[None, :] + 1.0 - alphas[:, None], alphas[:, None])  # (G, M)
    expo = (degrees[None, :] - alphas[:, None])[:, None, :]  # (G, 1, M), all > 0
    total = (plan.near_zb[None, :, None] ** expo @ (f[None, :] * gam)[:, :, None])[..., 0]
    pa = plan.left_za[None, :, None] ** expo
    total[:, plan.left] -= (pa @ (g[None, :] * gam)[:, :, None])[..., 0]
    return total * plan.near_r[None, :] ** (-alphas[:, None])


def _far_field_values(log_gap: FloatArray, weight: FloatArray, alphas: ArrayLike) -> FloatArray:
    """``(1/Gamma(-alpha)) sum_q w_q phi(t_q) r (t_q - s)^(-alpha - 1)`` per pair: ``(G, P)``."""
    alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
    kern = np.exp((-alphas[:, None, None] - 1.0) * log_gap[None])  # (G, P, Q)
    rg = special.rgamma(-alphas)  # 1/Gamma(-alpha): 0 at alpha = 1 (a local derivative)
    return rg[:, None] * np.einsum("gpq,pq->gp", kern, weight)


@dataclass(frozen=True)
class RightDerivativePlan:
    """Order-independent geometry of :meth:`PolynomialBumps.right_derivative` on one time grid."""

    shape: tuple[int, int]  # (K, n)
    power: int
    near: IntArray  # flat (bump, time) indices of the closed form with s < b
    near_zb: FloatArray  # (b - s) / r > 0
    near_r: FloatArray
    left: IntArray  # positions within ``near`` of the pairs left of the support (s < a)
    left_za: FloatArray  # (a - s) / r > 0 on those
    far: IntArray  # flat indices of the far-field quadrature
    far_log_gap: FloatArray  # (P_far, Q)
    far_weight: FloatArray  # (P_far, Q)
    scale: FloatArray  # (K,)

    def evaluate(self, alphas: ArrayLike) -> FloatArray:
        """``RL D^alpha_{T-} phi_k (t_i)``, shape ``(G, K, n)``."""
        alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
        out = np.zeros((alphas.size, self.shape[0] * self.shape[1]))
        out[:, self.near] = _closed_form_sparse(self, alphas)
        out[:, self.far] = _far_field_values(self.far_log_gap, self.far_weight, alphas)
        return self.scale[None, :, None] * out.reshape((alphas.size,) + self.shape)


def polynomial_bumps(
    t: ArrayLike, count: int, radius: float, power: int, normalise: bool = True
) -> PolynomialBumps:
    """``count`` bumps of half-width ``radius`` with centres evenly in ``[t_0 + r, t_last - r]``.

    Rows are l2-normalised on the grid like the paper's tests when ``normalise``
    (docs/method/test-functions.md#row-normalisation).
    """
    t = np.asarray(t, dtype=float)
    span = float(t[-1] - t[0])
    if not 0.0 < radius <= 0.5 * span:
        raise ValueError(f"bump radius {radius} must lie in (0, {0.5 * span}] for this grid")
    if count < 1:
        raise ValueError(f"count must be >= 1, got {count}")
    if power < 3:
        raise ValueError(f"bump power {power} must be >= 3 (smooth right derivative up to 2)")
    centres = np.linspace(t[0] + radius, t[-1] - radius, count)
    bumps = PolynomialBumps(centres - radius, centres + radius, int(power), np.ones(count))
    if not normalise:
        return bumps
    norms = np.sqrt(np.sum(bumps.values(t) ** 2, axis=1) + 1e-14)
    return PolynomialBumps(bumps.lower, bumps.upper, bumps.power, 1.0 / norms)


def initial_weights(
    nt: int, dt: float, points: int, fit: bool, slope_points: int | None = None
) -> tuple[FloatArray, FloatArray]:
    """Weights ``c0, c1`` (length ``nt``) with ``u(0) ≈ c0 @ u`` and ``u'(0) ≈ c1 @ u``.

    ``fit=False``: the first sample and the second-order one-sided difference
    ``(-3 u_0 + 4 u_1 - u_2) / (2 dt)``. ``fit=True``: least-squares quadratics through the first
    ``points`` samples (for ``u(0)``) and the first ``slope_points`` samples (for ``u'(0)``,
    default ``points``); a slope from noisy samples needs a longer window than a value.
    """
    c0, c1 = np.zeros(nt), np.zeros(nt)
    if not fit:
        c0[0] = 1.0
        c1[:3] = np.array([-3.0, 4.0, -1.0]) / (2.0 * dt)
        return c0, c1

    def quadratic_fit(m: int) -> FloatArray:
        n = min(max(int(m), 3), nt)
        s = dt * np.arange(n)
        return np.linalg.pinv(np.stack([np.ones(n), s, s * s], axis=1))  # (3, n)

    p0 = quadratic_fit(points)
    p1 = quadratic_fit(points if slope_points is None else slope_points)
    c0[: p0.shape[1]], c1[: p1.shape[1]] = p0[0], p1[1]
    return c0, c1


def caputo_start_basis(s: FloatArray, alphas: FloatArray, superunit: bool) -> FloatArray:
    """Leading terms of a Caputo solution at its start, ``(G, n, q)`` for the times ``s`` after
    the start and each order of ``alphas``.

    For ``C D^alpha u = F(u)`` with ``F`` smooth, ``u = u(0) + F(u(0)) t^alpha / Gamma(alpha + 1)
    + O(t^{2 alpha})`` for ``0 < alpha < 1`` and ``u = u(0) + u'(0) t + F(u(0)) t^alpha /
    Gamma(alpha + 1) + O(t^{alpha + 1})`` for ``1 < alpha < 2``: the basis is
    ``{1, t^alpha, t^{2 alpha}}`` and ``{1, t, t^alpha, t^{alpha + 1}}``. A polynomial basis
    cannot follow ``t^alpha`` and biases ``u'(0)``, which enters every superunit target."""
    a = np.asarray(alphas, dtype=float)[:, None]
    t = np.asarray(s, dtype=float)[None, :]
    ones = np.ones_like(a * t)
    if superunit:
        cols = [ones, ones * t, t**a, t ** (a + 1.0)]
    else:
        cols = [ones, t**a, t ** (2.0 * a)]
    return np.stack(cols, axis=-1)


def model_initial_weights(
    nt: int, dt: float, alphas: ArrayLike, points: int, superunit: bool
) -> tuple[FloatArray, FloatArray]:
    """Weights ``c0, c1`` of shape ``(G, nt)``: ``u(0) ≈ c0[g] @ u`` and ``u'(0) ≈ c1[g] @ u``
    from the least-squares fit of the first ``points`` samples by :func:`caputo_start_basis` at
    order ``alphas[g]`` (``c1`` is zero for sub-unit orders)."""
    alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
    q = 4 if superunit else 3
    n = min(max(int(points), q + 1), nt)
    basis = caputo_start_basis(dt * np.arange(n, dtype=np.float64), alphas, superunit)
    coef = np.linalg.pinv(basis)  # (G, q, n)
    c0 = np.zeros((alphas.size, nt))
    c1 = np.zeros((alphas.size, nt))
    c0[:, :n] = coef[:, 0]
    if superunit:
        c1[:, :n] = coef[:, 1]
    return c0, c1


def with_initial_terms(
    weights: FloatArray, t: FloatArray, c0: FloatArray, c1: FloatArray | None
) -> FloatArray:
    """Temporal weights ``W_eff`` with ``W_eff @ u = W @ (u - u(0) - t u'(0))``, the initial
    values estimated as ``c0 @ u`` and ``c1 @ u`` (``c1=None``: no slope term).

    ``weights`` has shape ``(..., nt)``; the result is an exact linear functional of ``u``, so
    the noise covariance of the target follows from it (:mod:`weakpareto.library.noise_covariance`).
    """
    c0 = np.asarray(c0)
    if c0.ndim == 2:  # one estimate per order: weights (G, K, nt), c0 and c1 (G, nt)
        c0 = c0[:, None, :]
        c1 = None if c1 is None else np.asarray(c1)[:, None, :]
    out = weights - weights.sum(axis=-1, keepdims=True) * c0
    if c1 is not None:
        out = out - (weights @ (t - t[0]))[..., None] * c1
    return out
