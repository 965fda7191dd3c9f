"""Quadrature on irregular time samples and on periodic rows with missing samples.

Time: the trapezoid rule on the actual samples ``t_0 < t_1 < ... < t_{n-1}``,

    int f dt ≈ sum_i w_i f(t_i),  w_0 = h_0 / 2,  w_i = (h_{i-1} + h_i) / 2,  w_{n-1} = h_{n-2} / 2,

``h_i = t_{i+1} - t_i``: error ``O(max h^2)`` for a twice differentiable integrand; on a uniform
grid the weights are ``dt`` inside and ``dt / 2`` at the two ends.

Start values: ``u(0) ≈ c0 @ u`` and ``u'(0) ≈ c1 @ u`` from the first samples at their actual
offsets ``s_i = t_i - t_0`` (the derivative of the quadratic through the first three samples, a
least-squares quadratic, or the Caputo start basis of
:func:`weakpareto.numerics.weak_caputo.caputo_start_basis`).

Missing samples: each column ``x_j`` is integrated in time by the trapezoid rule on its present
samples (the integrand linear in time across each gap; :func:`time_gap_weights`): the temporal
tests are wide and smooth, so this is far more accurate than across a gap in ``x``, where the
tests span a few samples. :func:`periodic_fill` gives a row's periodic linear interpolant in
``x`` at its missing samples, for what needs a whole row (a non-local spatial operator).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from weakpareto._typing import FloatArray
from weakpareto.numerics.weak_caputo import caputo_start_basis


def trapezoid_weights(t: ArrayLike) -> FloatArray:
    """Trapezoid weights ``w_i`` of the samples ``t`` (module docstring)."""
    t = np.asarray(t, dtype=float)
    h = np.diff(t)
    w = np.zeros(t.size)
    w[:-1] += 0.5 * h
    w[1:] += 0.5 * h
    return w


def mean_step(t: ArrayLike) -> float:
    """``(t_last - t_0) / (n - 1)``: the step of the uniform grid with the same span and count."""
    t = np.asarray(t, dtype=float)
    return float(t[-1] - t[0]) / max(t.size - 1, 1)


def is_uniform(t: ArrayLike, rtol: float = 1e-9) -> bool:
    """Whether every step equals the mean step within ``rtol`` of it."""
    h = np.diff(np.asarray(t, dtype=float))
    return bool(h.size == 0 or np.max(np.abs(h - h.mean())) <= rtol * abs(h.mean()))


def start_weights(
    s: ArrayLike, points: int, fit: bool, slope_points: int | None = None
) -> tuple[FloatArray, FloatArray]:
    """``c0, c1`` (length ``n``) with ``u(0) ≈ c0 @ u``, ``u'(0) ≈ c1 @ u`` at offsets ``s``.

    ``fit=False``: the first sample and the derivative at ``s_0 = 0`` of the quadratic through
    the first three samples, ``l_0'(0) = -(1/s_1 + 1/s_2)``, ``l_1'(0) = s_2 / (s_1 (s_2 - s_1))``,
    ``l_2'(0) = -s_1 / (s_2 (s_2 - s_1))`` (error ``O(s_1 s_2 u''')``; uniform steps give
    ``(-3, 4, -1) / (2 dt)``). ``fit=True``: least-squares quadratics in ``s`` through the first
    ``points`` (value) and ``slope_points`` (slope, default ``points``) samples.
    """
    s = np.asarray(s, dtype=float) - float(np.asarray(s, dtype=float)[0])
    n = s.size
    c0, c1 = np.zeros(n), np.zeros(n)
    if not fit:
        s1, s2 = s[1], s[2]
        c0[0] = 1.0
        c1[:3] = [-(1.0 / s1 + 1.0 / s2), s2 / (s1 * (s2 - s1)), -s1 / (s2 * (s2 - s1))]
        return c0, c1

    def quadratic_fit(m: int) -> FloatArray:
        k = min(max(int(m), 3), n)
        return np.linalg.pinv(np.stack([np.ones(k), s[:k], s[:k] ** 2], axis=1))  # (3, k)

    p0 = quadratic_fit(points)
    p1 = quadratic_fit(points if slope_points is None else slope_points)
    c0[: p0.shape[1]], c1[: p1.shape[1]] = p0[0], p1[1]
    return c0, c1


def model_start_weights(
    s: ArrayLike, alphas: ArrayLike, points: int, superunit: bool
) -> tuple[FloatArray, FloatArray]:
    """``c0, c1`` of shape ``(G, n)``: least-squares fit of the first ``points`` samples at
    offsets ``s`` by the Caputo start basis at each order (``c1`` zero for sub-unit orders)."""
    s = np.asarray(s, dtype=float) - float(np.asarray(s, dtype=float)[0])
    alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
    q = 4 if superunit else 3
    k = min(max(int(points), q + 1), s.size)
    coef = np.linalg.pinv(caputo_start_basis(s[:k], alphas, superunit))  # (G, q, k)
    c0 = np.zeros((alphas.size, s.size))
    c1 = np.zeros((alphas.size, s.size))
    c0[:, :k] = coef[:, 0]
    if superunit:
        c1[:, :k] = coef[:, 1]
    return c0, c1


def masked_start_values(
    s: ArrayLike, u: ArrayLike, present: ArrayLike, alphas: ArrayLike, points: int
) -> FloatArray:
    """Super-unit start values ``(G, 2, nx)``: ``u(0)`` and ``u'(0)`` of every column, the
    least-squares fit of its present samples among the first ``points`` (at offsets ``s``) by
    the Caputo start basis ``{1, t, t^alpha, t^(alpha + 1)}`` at each order
    (:func:`weakpareto.numerics.weak_caputo.caputo_start_basis`).

    A missing sample is a zero row of its column's design, so the pseudo-inverse gives it zero
    weight; a complete column gets the weights of :func:`model_start_weights`. A column with
    fewer present samples than basis terms gets the minimum-norm fit (its start is then
    underdetermined)."""
    s = np.asarray(s, dtype=float) - float(np.asarray(s, dtype=float)[0])
    alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
    k = min(max(int(points), 5), s.size)
    basis = caputo_start_basis(s[:k], alphas, True)  # (G, k, 4)
    mask = np.asarray(present, dtype=bool)[:k].T.astype(float)  # (nx, k)
    coef = np.linalg.pinv(basis[:, None, :, :] * mask[None, :, :, None])  # (G, nx, 4, k)
    head = np.asarray(u, dtype=float)[:k] * mask.T  # (k, nx), missing values never read
    return np.einsum("gjqk,kj->gqj", coef[:, :, :2, :], head)


def present_around(present: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Per sample ``(i, j)`` of a ``(nt, nx)`` mask, the last present index ``<= i`` of its column
    (-1 where there is none) and the first present index ``>= i`` (``nt`` where there is none)."""
    present = np.asarray(present, dtype=bool)
    n = present.shape[0]
    i = np.arange(n)[:, None]
    last = np.maximum.accumulate(np.where(present, i, -1), axis=0)
    first = np.minimum.accumulate(np.where(present, i, n)[::-1], axis=0)[::-1]
    return last, first


def product_nodes(t: ArrayLike, step: float) -> tuple[FloatArray, FloatArray]:
    """Nodes of the product trapezoid rule ``int K(t) v(t) dt`` for a rough known ``K`` and
    ``v`` known at the samples ``t``: every step longer than ``step`` is cut into
    ``ceil(h_i / step)`` equal parts, ``K`` is read at all nodes and ``v`` is its linear
    interpolant between the samples. Returns the nodes ``s`` (the samples among them) and the
    matrix ``P`` ``(len(s), len(t))`` of the samples' hat functions at the nodes, so
    ``sum_i (sum_k w_k K(s_k) P_ki) v_i`` with ``w`` the trapezoid weights of ``s``. A sampling
    with no step longer than ``step`` gives ``s = t``, ``P = I``."""
    t = np.asarray(t, dtype=float)
    h = np.diff(t)
    parts = np.maximum(np.ceil(h / step - 1e-9), 1).astype(int)
    at = np.concatenate([[0], np.cumsum(parts)])  # node index of every sample
    step_of = np.repeat(np.arange(h.size), parts)  # the step each later node lies in
    q = (np.arange(at[-1]) - np.repeat(at[:-1], parts) + 1) / np.repeat(parts, parts)
    s = np.concatenate([t[:1], t[step_of] + q * h[step_of]])
    s[at] = t  # the samples exactly
    P = np.zeros((s.size, t.size))
    P[0, 0] = 1.0
    later = np.arange(1, s.size)
    np.add.at(P, (later, step_of), 1.0 - q)
    np.add.at(P, (later, step_of + 1), q)
    return s, P


def time_fill(t: ArrayLike, u: ArrayLike, present: ArrayLike) -> FloatArray:
    """``u`` with each missing sample replaced by the linear interpolant in time of its
    column's nearest present samples (the nearest one's value before the first or after the
    last present sample of the column); a column with no present sample reads the rows'
    periodic interpolant in ``x`` of the filled columns (:func:`periodic_fill`)."""
    t = np.asarray(t, dtype=float)
    u = np.asarray(u, dtype=float)
    present = np.asarray(present, dtype=bool)
    n = t.size
    some = present.any(axis=0)
    # a wholly missing column: indices of its own, read as nothing
    last, first = present_around(present | ~some)
    p = np.where(last < 0, first, last)
    q = np.where(first >= n, last, first)
    up = np.take_along_axis(u, p, axis=0)
    uq = np.take_along_axis(u, q, axis=0)
    span = t[q] - t[p]
    lam = np.where(span > 0.0, (t[:, None] - t[p]) / np.where(span > 0.0, span, 1.0), 0.0)
    filled = np.where(present, u, up + lam * (uq - up))
    if some.all():
        return filled
    return periodic_fill(filled, np.broadcast_to(some, u.shape))


def _neighbours(present: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nearest present sample strictly before and after every sample of each row, as unwrapped
    periodic indices (``-nx <= prev < j < next <= 2 nx``); rows need a present sample."""
    nt, nx = present.shape
    idx = np.arange(-nx, 2 * nx)
    tiled = np.tile(present, (1, 3))
    before = np.where(tiled, idx[None, :], -4 * nx)
    after = np.where(tiled, idx[None, :], 4 * nx)
    last = np.maximum.accumulate(before, axis=1)  # last present index <= k
    first = np.minimum.accumulate(after[:, ::-1], axis=1)[:, ::-1]  # first present index >= k
    prev = last[:, nx - 1 : 2 * nx - 1]  # <= j - 1
    nxt = first[:, nx + 1 : 2 * nx + 1]  # >= j + 1
    return prev, nxt


def time_gap_weights(t: ArrayLike, present: ArrayLike) -> FloatArray:
    """Relative trapezoid weights ``(nt, nx)`` in time of each column ``x_j`` with its missing
    samples removed (module docstring): ``(t_q - t_p) / (t_{i+1} - t_{i-1})`` for a present
    sample ``i`` with nearest present neighbours ``p < i < q`` in its column (the ends ``t_0``,
    ``t_last`` where there is none), 0 for a missing one; 1 in a complete column."""
    t = np.asarray(t, dtype=float)
    present = np.asarray(present, dtype=bool)
    n = t.size
    i = np.arange(n)[:, None]
    last, first = present_around(present)
    last, first = np.maximum(last, 0), np.minimum(first, n - 1)  # the ends where there is none
    prev = np.vstack([np.zeros((1, present.shape[1]), dtype=int), last[:-1]])
    nxt = np.vstack([first[1:], np.full((1, present.shape[1]), n - 1)])
    full = t[np.minimum(i + 1, n - 1)] - t[np.maximum(i - 1, 0)]
    return np.where(present, (t[nxt] - t[prev]) / full, 0.0)


def periodic_fill(u: ArrayLike, present: ArrayLike) -> FloatArray:
    """``u`` with each missing sample replaced by the periodic linear interpolant of its row's
    present neighbours in ``x``."""
    u = np.asarray(u, dtype=float)
    present = np.asarray(present, dtype=bool)
    nx = u.shape[1]
    prev, nxt = _neighbours(present)
    j = np.arange(nx)[None, :]
    up = np.take_along_axis(u, prev % nx, axis=1)
    un = np.take_along_axis(u, nxt % nx, axis=1)
    filled = up + (un - up) * (j - prev) / (nxt - prev)
    return np.where(present, u, filled)
