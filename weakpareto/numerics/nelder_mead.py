"""Bounded Nelder–Mead on many independent problems at once.

Used by the block bootstrap (docs/method/extensions.md#bootstrap-intervals).

The simplex method of Nelder and Mead (reflection 1, expansion 2, contraction 1/2, shrink 1/2;
the non-adaptive constants), with the conventions of SciPy's ``minimize(method="Nelder-Mead",
bounds=...)``: the start is clipped into the box; the initial simplex moves each coordinate by
5 % (0.00025 where it is zero), vertices beyond the upper bound are reflected back and all are
clipped; every trial point is clipped into the box; the vertices are sorted by value after every
iteration; the method stops when the simplex is within ``xatol`` of its best vertex in every
coordinate *and* its values within ``fatol`` of the best value, or after ``maxiter`` iterations.

Every problem follows exactly the trajectory it would follow alone (tested against SciPy,
iteration and evaluation counts included); what is shared is the objective call: one call
scores one trial point of every running problem (``fun(points, problems)``), so an objective
that is cheap per point but costly per call (small Gram systems) is paid once per phase of an
iteration rather than once per point.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from weakpareto._typing import Array, IntArray

#: ``fun(points (M, d), problems (M,)) -> values (M,)``: the objective of each point's problem.
BatchObjective = Callable[[Array, IntArray], Array]

RHO, CHI, PSI, SIGMA = 1, 2, 0.5, 0.5  # reflection, expansion, contraction, shrink
NONZERO_STEP, ZERO_STEP = 0.05, 0.00025  # initial simplex


@dataclass(frozen=True)
class BatchResult:
    """Best vertex, its value, iterations and objective evaluations per problem."""

    x: Array  # (P, d)
    fun: Array  # (P,)
    nit: IntArray  # (P,)
    nfev: IntArray  # (P,)


def _sorted(sim: Array, fsim: Array) -> tuple[Array, Array]:
    # a stable sort: what NumPy's default sort does on arrays this short
    order = np.argsort(fsim, axis=1, kind="stable")
    return np.take_along_axis(sim, order[:, :, None], axis=1), np.take_along_axis(fsim, order, 1)


def initial_simplex(x0: Array, lower: Array, upper: Array) -> Array:
    """``(P, d + 1, d)``: each start and one vertex per coordinate moved by 5 % (module doc)."""
    p, d = x0.shape
    sim = np.repeat(x0[:, None, :], d + 1, axis=1)
    k = np.arange(d)
    sim[:, 1 + k, k] = np.where(x0 != 0, (1 + NONZERO_STEP) * x0, ZERO_STEP)
    sim = np.where(sim > upper, 2 * upper - sim, sim)
    return np.clip(sim, lower, upper)


def minimize_batched(
    fun: BatchObjective,
    x0: Array,
    lower: Array,
    upper: Array,
    *,
    maxiter: int,
    xatol: float,
    fatol: float,
) -> BatchResult:
    """Minimise ``P`` problems from starts ``x0 (P, d)`` in the box ``[lower, upper] (d,)``."""
    lower, upper = np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)
    x0 = np.clip(np.asarray(x0, dtype=float), lower, upper)
    n_prob, d = x0.shape
    if d == 0:
        values = fun(x0, np.arange(n_prob))
        one = np.ones(n_prob, dtype=np.intp)
        return BatchResult(x0, np.asarray(values, float), one, one)
    sim = initial_simplex(x0, lower, upper)
    owner = np.repeat(np.arange(n_prob), d + 1)
    fsim = np.asarray(fun(sim.reshape(-1, d), owner), dtype=float).reshape(n_prob, d + 1)
    sim, fsim = _sorted(sim, fsim)
    nit = np.ones(n_prob, dtype=np.intp)
    nfev = np.full(n_prob, d + 1, dtype=np.intp)
    running = np.ones(n_prob, dtype=bool)
    while True:
        running &= nit < maxiter
        spread = np.abs(sim[:, 1:] - sim[:, :1]).max(axis=(1, 2))
        drop = np.abs(fsim[:, :1] - fsim[:, 1:]).max(axis=1)
        running &= ~((spread <= xatol) & (drop <= fatol))
        a = np.flatnonzero(running)
        if a.size == 0:
            break
        s, f = sim[a], fsim[a]
        xbar = np.add.reduce(s[:, :-1], axis=1) / d
        worst = s[:, -1]
        xr = np.clip((1 + RHO) * xbar - RHO * worst, lower, upper)
        fxr = np.asarray(fun(xr, a), dtype=float)
        expand = fxr < f[:, 0]
        take_r = ~expand & (fxr < f[:, -2])
        outside = ~expand & ~take_r & (fxr < f[:, -1])
        second = ~take_r  # expansion, outside or inside contraction: one more point
        xe = np.clip((1 + RHO * CHI) * xbar - RHO * CHI * worst, lower, upper)
        xc = np.clip((1 + PSI * RHO) * xbar - PSI * RHO * worst, lower, upper)
        xcc = np.clip((1 - PSI) * xbar + PSI * worst, lower, upper)
        x2 = np.where(expand[:, None], xe, np.where(outside[:, None], xc, xcc))
        f2 = np.full(a.size, np.nan)
        if second.any():
            f2[second] = fun(x2[second], a[second])
        new_x, new_f = xr.copy(), fxr.copy()
        use2 = (expand & (f2 < fxr)) | (outside & (f2 <= fxr))
        inside = second & ~expand & ~outside
        use2 |= inside & (f2 < f[:, -1])
        new_x[use2], new_f[use2] = x2[use2], f2[use2]
        shrink = second & ~expand & ~use2
        keep = ~shrink
        s[keep, -1], f[keep, -1] = new_x[keep], new_f[keep]
        if shrink.any():
            best = s[shrink, :1]
            moved = np.clip(best + SIGMA * (s[shrink, 1:] - best), lower, upper)
            s[shrink, 1:] = moved
            f[shrink, 1:] = np.asarray(
                fun(moved.reshape(-1, d), np.repeat(a[shrink], d)), dtype=float
            ).reshape(-1, d)
        nfev[a] += 1 + second + d * shrink
        nit[a] += 1
        sim[a], fsim[a] = _sorted(s, f)
    return BatchResult(sim[:, 0], fsim.min(axis=1), nit, nfev)
