"""Diagnostics that refit candidate models on the fit's weak equations: would an order beyond
``beta_range`` (:func:`probe_beta_outside`), a term of the other operator family
(:func:`probe_other_family`) or moving a term off its bound (:func:`bound_advice`) explain the
target better? Each answers with measured residuals, so a warning's advice is what the data
support rather than a guess.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from typing import cast

import numpy as np

from weakpareto._typing import Array
from weakpareto.fit.context import (
    FitContext,
    FitWarning,
    index_term,
    num,
    range_text,
    search_index,
    source_families,
    system,
)
from weakpareto.library.families import FamilyLibrary, column_kinds, with_families
from weakpareto.library.weak import WeakLibrary
from weakpareto.method.exact_fit import profiled_system
from weakpareto.records import Equation, Family, Term

#: ``beta_range`` probe: factor by which one out-of-range term must cut E_fit, and the smallest
#: E_fit worth probing (below it the residual is discretisation error and noise).
PROBE_GAIN = 3.0
PROBE_MIN_FIT = 0.02
#: Orders probed beyond the upper bound of beta_range (added to it) and below the lower one
#: (fractions of it; plus the identity term beta = 0).
PROBE_ABOVE = (0.25, 0.5, 1.0, 1.5, 2.0, 2.5)
PROBE_BELOW = (0.5, 0.0)
#: A term on a beta bound: orders tried beyond it (other orders fixed, coefficients refitted),
#: and the factor by which one must cut E_fit for "widen beta_range" to be the advice.
BOUND_PROBE_STEPS = (0.25, 0.5, 1.0)
BOUND_PROBE_GAIN = 0.9
#: ``operator_family`` probe: orders of the other family tried across beta_range (from
#: FAMILY_PROBE_MIN: order 0 is the identity, the same in every family).
FAMILY_PROBE_ORDERS = 15
FAMILY_PROBE_MIN = 0.25


def refit_error(ctx: FitContext, eq: Equation, terms: Sequence[Term]) -> float:
    """All-row relative residual of ``terms`` at their orders, coefficients by least squares."""
    if not terms:
        return 1.0
    y, x = system(ctx, eq, terms)
    coef = np.linalg.lstsq(x, y, rcond=None)[0]
    return float(np.linalg.norm(y - x @ coef) / (np.linalg.norm(y) + 1e-300))


def bound_advice(eq: Equation, ctx: FitContext, k: int, upper: bool, widened: str) -> str:
    """What to do about term ``k`` on a beta bound, measured rather than assumed: widen the range
    only when an order beyond the bound fits better (the other orders fixed, coefficients
    refitted); otherwise the term stands in for something an order cannot supply."""
    if ctx.source is None:
        return f"widen it, e.g. beta_range={widened}"
    term = eq.terms[k]
    b = float(term.order)
    steps = [b + d for d in BOUND_PROBE_STEPS] if upper else [b - d for d in BOUND_PROBE_STEPS]
    base = refit_error(ctx, eq, eq.terms)
    tried = []
    for order in (o for o in steps if o > 0.0):
        terms = list(eq.terms)
        terms[k] = dataclasses.replace(term, order=order)
        tried.append((refit_error(ctx, eq, terms), order))
    if not tried:
        return f"widen it, e.g. beta_range={widened}"
    best, order = min(tried)
    if best <= BOUND_PROBE_GAIN * base and base >= PROBE_MIN_FIT:
        return (
            f"widen it, e.g. beta_range={widened} (order {order:g} cuts E_fit from {num(base)} "
            f"to {num(best)})"
        )
    dropped = refit_error(ctx, eq, [t for j, t in enumerate(eq.terms) if j != k])
    if base < PROBE_MIN_FIT:  # what is left is discretisation error and noise
        why = f"E_fit {num(base)} is already at the level of discretisation error and noise"
    else:
        why = f"orders beyond it do not fit better (E_fit {num(base)}, {num(best)} at {order:g})"
    return (
        f"{why}, so widening beta_range would not help; without the term E_fit is "
        f"{num(dropped)}: it likely stands in for noise (e.g. the counting noise of particle "
        "densities), a missing term of another kind or another operator family, not for an "
        "order beyond the range"
    )


def _columns(ctx: FitContext, index: int, orders: Sequence[float]) -> Array:
    """Exact weak columns ``(K, n)`` of one power (2-D: direction index) at several orders."""
    return np.asarray(ctx.source.columns(index, np.asarray(orders, dtype=float))).T


def _best_subsets(gram: Array, rhs: Array, yy: float, subsets: np.ndarray, ridge: float) -> float:
    """Smallest relative residual over column subsets ``(N, s)`` (column-normalised ridge)."""
    if subsets.size == 0:
        return np.inf
    g = gram[subsets[:, :, None], subsets[:, None, :]]
    b = rhs[subsets]
    s = subsets.shape[1]
    a = np.linalg.solve(g + ridge * np.eye(s), b[..., None])[..., 0]
    rss = yy - 2.0 * np.einsum("ni,ni->n", a, b) + np.einsum("ni,nij,nj->n", a, g, a)
    return float(np.sqrt(max(float(np.min(rss)), 0.0) / yy)) if yy > 0 else np.inf


def _subsets(pool: Sequence[int], size: int, must: int | None = None) -> np.ndarray:
    if must is None:
        combos = list(itertools.combinations(pool, size))
    else:
        combos = [(*c, must) for c in itertools.combinations(pool, size - 1)]
    return np.array(combos, dtype=np.intp).reshape(len(combos), size)


def probe_beta_outside(
    eq: Equation, ctx: FitContext, fit_error: float, floor: float = 0.0
) -> list[FitWarning]:
    """Would one term of an order outside beta_range explain much more of the target?

    A small dictionary — the selected terms, a coarse grid of in-range orders (7 per power;
    2-D: per direction) and the out-of-range candidates (:data:`PROBE_ABOVE` beyond the upper
    bound, :data:`PROBE_BELOW` of the lower one) — is searched exhaustively for the best
    subset of up to ``c + 1`` terms (c = selected size) with and without one out-of-range
    term. The warning fires when the out-of-range term cuts the residual by PROBE_GAIN against
    both E_fit and the best in-range subset, so the gain is due to the order, not to the size.
    """
    if fit_error < PROBE_MIN_FIT or fit_error <= 1.5 * floor or not eq.terms:
        return []
    blo, bhi = ctx.beta_range
    outside = [bhi + d for d in PROBE_ABOVE]
    if blo > 0.0:
        outside += [blo * f for f in PROBE_BELOW]
    inside = list(np.linspace(blo, bhi, 7))
    families = source_families(ctx.source)
    indices = (
        (0, 1) if ctx.two_d else column_kinds(ctx.powers, len(families)) if families else ctx.powers
    )
    y = np.asarray(ctx.source.targets(np.array([eq.alpha]), eq.mode)[0])
    blocks, labels, is_out = [], [], []
    by_index: dict[int, list[float]] = {i: [] for i in indices}
    for term in eq.terms:
        by_index.setdefault(search_index(term, ctx), []).append(float(term.order))
    for i, orders in by_index.items():
        grid = orders + [b for b in inside if all(abs(b - o) > 1e-9 for o in orders)]
        for group, flag in ((grid, False), (outside, True)):
            blocks.append(_columns(ctx, i, group))
            labels += [(i, b) for b in group]
            is_out += [flag] * len(group)
    x = np.hstack(blocks)
    keep = np.all(np.isfinite(x), axis=0)
    x, labels, is_out = (
        x[:, keep],
        [lab for lab, k in zip(labels, keep, strict=True) if k],
        [f for f, k in zip(is_out, keep, strict=True) if k],
    )
    y, x = profiled_system(ctx.source, eq.mode, float(eq.alpha), y, x)  # as E_fit was scored
    keep = np.linalg.norm(x, axis=0) > 0
    x, labels = x[:, keep], [lab for lab, k in zip(labels, keep, strict=True) if k]
    flags = np.array(is_out)[keep]
    norms = np.linalg.norm(x, axis=0)
    xn = x / norms
    gram, rhs, yy = xn.T @ xn, xn.T @ y, float(y @ y)
    size = min(len(eq.terms) + 1, 4)
    pool_in = [int(j) for j in np.flatnonzero(~flags)]
    base = fit_error
    for s in range(1, size + 1):
        base = min(base, _best_subsets(gram, rhs, yy, _subsets(pool_in, s), ctx.ridge))
    best: tuple[float, int] | None = None
    for col in (int(j) for j in np.flatnonzero(flags)):
        err = min(
            _best_subsets(gram, rhs, yy, _subsets(pool_in, s, col), ctx.ridge)
            for s in range(1, size + 1)
        )
        if best is None or err < best[0]:
            best = (err, col)
    if best is None or not best[0] * PROBE_GAIN <= base:
        return []
    err, col = best
    index, b = labels[col]
    cand = index_term(index, b, ctx)
    new = (
        range_text(blo, b + 0.5) if b > bhi else range_text(max(0.0, min(b, blo) - 0.1 * blo), bhi)
    )
    what = "the identity u" if cand.is_identity else f"order {b:g}"
    name = cand.text(ctx.operator)  # type: ignore[arg-type]
    return [
        FitWarning(
            "beta_range",
            f"a term {name} ({what}, outside beta_range={range_text(blo, bhi)}) would cut the "
            f"relative residual from {num(base)} (best with in-range orders) to {num(err)}; "
            f"widen it, e.g. beta_range={new}",
        )
    ]


def _mixed_fit(
    library: FamilyLibrary,
    families: tuple[Family, Family],
    own_orders: list[float],
    y: Array,
    size: int,
    ridge: float,
    fit_error: float,
    eq: Equation,
    other_orders: list[float],
) -> tuple[float, tuple[float, float] | None]:
    """The best own-family residual of up to ``size`` terms (at most ``fit_error``) and the best
    residual, with its order, of a model that takes one column of the other family (rows
    profiled at the equation's order, as its ``E_fit``)."""
    own, other = families
    x = np.hstack(
        [
            np.asarray(library.columns(library.kind(0, own), np.array(own_orders))).T,
            np.asarray(library.columns(library.kind(0, other), np.array(other_orders))).T,
        ]
    )
    y, x = profiled_system(library, eq.mode, float(eq.alpha), y, x)
    norms = np.linalg.norm(x, axis=0)
    keep = np.isfinite(norms) & (norms > 0)
    is_other = np.r_[np.zeros(len(own_orders), bool), np.ones(len(other_orders), bool)][keep]
    orders = np.r_[own_orders, other_orders][keep]
    xn = x[:, keep] / norms[keep]
    gram, rhs, yy = xn.T @ xn, xn.T @ y, float(y @ y)
    pool_own = [int(j) for j in np.flatnonzero(~is_other)]
    pool_all = list(range(xn.shape[1]))
    base = fit_error
    for c in range(1, size + 1):
        base = min(base, _best_subsets(gram, rhs, yy, _subsets(pool_own, c), ridge))
    best: tuple[float, float] | None = None
    for col in (int(j) for j in np.flatnonzero(is_other)):
        rest = [j for j in pool_all if j != col]
        err = min(
            _best_subsets(gram, rhs, yy, _subsets(rest, c, col), ridge) for c in range(1, size + 1)
        )
        if best is None or err < best[0]:
            best = (err, float(orders[col]))
    return base, best


def probe_other_family(
    eq: Equation, ctx: FitContext, fit_error: float, floor: float
) -> list[FitWarning]:
    """Would terms of the other operator family explain much more of the target?

    For a one-family fit (directional or Riesz, 1-D periodic weak library) whose E_fit is well
    above discretisation and noise: the best linear model of up to ``c`` terms (``c`` the
    selected size, coefficients by least squares) over the selected orders and
    :data:`FAMILY_PROBE_ORDERS` orders across ``beta_range`` in the fit's family, against the
    best such model that takes at least one term from the other family. The warning fires when
    mixing cuts the residual by :data:`PROBE_GAIN` (the other family's order refined around the
    best grid order): the model class, not the noise, limits the
    fit (an advection plus a symmetric fractional dispersion is neither family alone), and
    ``operator=auto`` searches both."""
    if ctx.two_d or fit_error < PROBE_MIN_FIT or fit_error <= 1.5 * floor or not eq.terms:
        return []
    if not isinstance(ctx.source, WeakLibrary) or ctx.operator not in ("directional", "riesz"):
        return []
    own = cast(Family, ctx.operator)
    other: Family = "riesz" if own == "directional" else "directional"
    library = with_families(ctx.source, (own, other))
    lo, hi = ctx.beta_range
    grid = [float(b) for b in np.linspace(max(lo, FAMILY_PROBE_MIN), hi, FAMILY_PROBE_ORDERS)]
    selected = [float(t.order) for t in eq.terms if t.power == 0 and not t.is_identity]
    own_orders = selected + [b for b in grid if all(abs(b - o) > 1e-9 for o in selected)]
    y = np.asarray(library.targets(np.array([eq.alpha]), eq.mode)[0])
    size = min(eq.size, 3)
    mix = (library, (own, other), own_orders, y, size, ctx.ridge, fit_error, eq)
    base, best = _mixed_fit(*mix, grid)
    if best is not None and len(grid) > 1:
        # the grid's step decides how close to its own order the other family gets: refine
        # around the best one so that a coarse grid does not hide the mixed model
        step = grid[1] - grid[0]
        fine = np.clip(np.linspace(best[1] - step, best[1] + step, 9), grid[0], hi)
        _, refined = _mixed_fit(*mix, [float(b) for b in fine])
        best = min(best, refined) if refined is not None else best
    if best is None or best[0] * PROBE_GAIN > base:
        return []
    err, order = best
    name = Term(0, order, 1.0, family=other).text(ctx.operator)  # type: ignore[arg-type]
    return [
        FitWarning(
            "operator_family",
            f"a term {name} of the other operator family ({other}) would cut the relative "
            f"residual from {num(base)} (best {own} model of up to {size} terms) to {num(err)}: "
            f"the {own} family alone cannot hold these data; fit with operator=auto, which "
            "chooses each term's family",
        )
    ]
