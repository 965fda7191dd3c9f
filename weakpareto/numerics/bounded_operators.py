"""Finite-domain fractional derivatives of sampled data on a window ``[a, b]`` (bounded domains).

Left Riemann–Liouville derivative with terminal ``a`` (the window's left edge), right with
terminal ``b``, and their symmetric Riesz-type combination

    R^beta = -(D_a^beta + D_b^beta) / (2 cos(pi beta / 2))

(which is ``d^2/dx^2`` at ``beta = 2``, like the periodic ``-|kappa|^beta``). Matrices act along
the last axis; the discrete adjoint under uniform quadrature is the transpose
(:func:`weakpareto.numerics.operators.discrete_adjoint`), and the transpose of the left matrix is
a right-sided matrix (terminal ``b``).

Discretisation: the weighted-shifted Grünwald formula (shifts 1 and 0, weights ``beta/2`` and
``1 - beta/2``; second order for functions that vanish smoothly at the terminal; at ``beta = 1``
it is the central difference, at ``beta = 2`` the central second difference) plus two starting
weights per row on the terminal's first two samples that make every row exact for ``1`` and
``x - a`` (Lubich-type correction; without it a nonzero edge value costs first order
everywhere). The first row (``x = a``, where the derivative of a nonzero edge value is infinite)
is left uncorrected. Used for the nonlinear columns ``u^p X_beta u`` of the bounded weak library;
linear columns move the operator onto the compactly supported tests instead
(:mod:`weakpareto.numerics.compact_windows`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from weakpareto._typing import FloatArray
from weakpareto.numerics.operators import grunwald_letnikov_weights

#: Half-width around odd integers where the Riesz-type combination (0/0 there) is interpolated
#: linearly between ``n - delta`` and ``n + delta``.
RIESZ_ODD_DELTA = 1e-2


#: Default accuracy order of the data-side matrices (shifts 2, 1, 0, -1; four starting weights).
DEFAULT_ORDER = 4


def shift_weights(beta: float, order: int = DEFAULT_ORDER) -> tuple[FloatArray, FloatArray]:
    """Shifts ``p`` and weights ``lambda_p`` of a weighted-shifted Grünwald formula of ``order``.

    The shifted formula ``h^-beta sum_k g_k f(x - (k - p) h)`` has the symbol
    ``(i w)^beta exp(a y + beta y^2/24 + O(y^4))``, ``y = i w h``, ``a = p - beta/2``; the weights
    cancel the ``y, ..., y^(order-1)`` terms (``order`` 2: shifts 1, 0 with ``beta/2``,
    ``1 - beta/2``; ``order`` 4: shifts 2, 1, 0, -1).
    """
    if order not in (2, 4):
        raise ValueError(f"order must be 2 or 4, got {order}")
    shifts = np.arange(order // 2, order // 2 - order, -1, dtype=float)
    a = shifts - beta / 2.0
    b = beta / 24.0
    rows = [np.ones_like(a), a, a * a / 2.0 + b, a**3 / 6.0 + a * b][:order]
    rhs = np.zeros(order)
    rhs[0] = 1.0
    lam = np.asarray(np.linalg.solve(np.array(rows), rhs), dtype=float)
    return np.asarray(shifts, dtype=float), lam


def wsgd_left_matrix(n: int, h: float, betas: ArrayLike, order: int = DEFAULT_ORDER) -> FloatArray:
    """Left weighted-shifted Grünwald matrices ``(G, n, n)`` with starting correction.

    Row ``i`` approximates ``D_a^beta f(x_i)``, ``x_i = a + i h``; order 0 is the identity.
    Terms needing samples beyond the right edge are dropped (last ``order/2`` rows, where the
    compact tests vanish). ``order`` starting weights on ``f_0 .. f_{order-1}`` make every row
    ``i >= 1`` exact for the polynomials ``(x - a)^k``, ``k < order``.
    """
    b = np.atleast_1d(np.asarray(betas, dtype=float))
    g = grunwald_letnikov_weights(n + order, b)  # (G, n+order)
    idx = np.arange(n)
    diff = idx[:, None] - idx[None, :]  # i - j
    mats = np.zeros((b.size, n, n))
    x = h * idx.astype(float)
    k_deg = np.arange(order)
    vander = x[:order, None] ** k_deg[None, :]  # (order, order): samples j, degree k
    for m, beta in enumerate(b):
        if beta == 0.0:
            mats[m] = np.eye(n)
            continue
        shifts, lam = shift_weights(float(beta), order)
        for p, w in zip(shifts, lam):
            k = diff + int(p)  # f(x_i - (k - p) h) = f_j with k = i - j + p
            mats[m] += w * np.where(k >= 0, np.take(g[m], np.clip(k, 0, n + order - 1)), 0.0)
        mats[m] *= h ** (-beta)
        with np.errstate(divide="ignore", invalid="ignore"):
            exact = np.stack(
                [
                    np.where(x > 0, x ** (kk - beta), 0.0)
                    * special.gamma(kk + 1.0)
                    * special.rgamma(kk + 1.0 - beta)
                    for kk in k_deg
                ],
                axis=1,
            )  # (n, order)
        resid = exact - mats[m] @ (x[:, None] ** k_deg[None, :])
        corr = np.linalg.solve(vander.T, resid[1:].T).T  # (n-1, order) weights on f_0..
        mats[m, 1:, :order] += corr
    return mats


def _flip(mats: FloatArray) -> FloatArray:
    return np.asarray(mats[..., ::-1, ::-1], dtype=float)


def wsgd_right_matrix(n: int, h: float, betas: ArrayLike, order: int = DEFAULT_ORDER) -> FloatArray:
    """Right matrices (terminal ``b``): the mirror ``J L J`` of :func:`wsgd_left_matrix`."""
    return _flip(wsgd_left_matrix(n, h, betas, order))


def riesz_combination(left: FloatArray, right: FloatArray, betas: FloatArray) -> FloatArray:
    """``-(left + right) / (2 cos(pi beta / 2))`` per order (leading axis = orders)."""
    c = np.cos(0.5 * np.pi * np.asarray(betas, dtype=float))
    shape = (-1,) + (1,) * (left.ndim - 1)
    return np.asarray(-(left + right) / (2.0 * c.reshape(shape)), dtype=float)


def riesz_safe_orders(betas: ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Orders to evaluate so that odd integers are avoided: ``(lo, hi, weight)``; the Riesz
    value at ``beta`` is ``(1 - weight) * R(lo) + weight * R(hi)`` (``lo = hi``, weight 0 away
    from odd integers; order 0 is the identity and kept)."""
    b = np.atleast_1d(np.asarray(betas, dtype=float))
    n = np.rint(b)
    odd = (np.mod(n, 2) == 1) & (np.abs(b - n) < RIESZ_ODD_DELTA)
    lo = np.where(odd, n - RIESZ_ODD_DELTA, b)
    hi = np.where(odd, n + RIESZ_ODD_DELTA, b)
    weight = np.where(odd, (b - lo) / (2.0 * RIESZ_ODD_DELTA), 0.0)
    return lo, hi, weight


def bounded_riesz_matrix(n: int, h: float, betas: ArrayLike) -> FloatArray:
    """Riesz-type matrices ``-(L + R)/(2 cos(pi beta/2))`` ``(G, n, n)``; order 0 is identity."""
    b = np.atleast_1d(np.asarray(betas, dtype=float))
    lo, hi, wt = riesz_safe_orders(b)

    def comb(orders: FloatArray) -> FloatArray:
        mats = riesz_combination(
            wsgd_left_matrix(n, h, orders), wsgd_right_matrix(n, h, orders), orders
        )
        mats[orders == 0.0] = np.eye(n)
        return mats

    out = comb(lo)
    if np.any(wt > 0):
        out = (1.0 - wt)[:, None, None] * out + wt[:, None, None] * comb(hi)
    return out
