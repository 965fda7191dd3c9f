"""Support-size selection: Pareto front, signed-chord elbow, information criteria, stopping rules
and inactive-term pruning (paper Secs. 4.3-4.4; docs/method/search.md#support-sweep-and-stopping,
#pareto-front-and-elbow, #inactive-term-pruning).
All functions are pure and operate on plain arrays so they can be tested on constructed fronts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from weakpareto.method.settings import SelectionSettings

EPS = 1e-14


def pareto_front(sizes: NDArray, errors: NDArray) -> NDArray[np.intp]:
    """Indices (sorted by size) of points not dominated in (size, error).

    A point is dominated by another with ``size <=`` and ``error <=``, one of them strict.
    """
    sizes = np.asarray(sizes, dtype=float)
    errors = np.asarray(errors, dtype=float)
    keep = []
    for i in range(sizes.size):
        dominated = np.any(
            (sizes <= sizes[i])
            & (errors <= errors[i])
            & ((sizes < sizes[i]) | (errors < errors[i]))
        )
        if not dominated:
            keep.append(i)
    keep_arr = np.array(keep, dtype=np.intp)
    return keep_arr[np.argsort(sizes[keep_arr], kind="stable")]


def select_elbow(sizes: NDArray, errors: NDArray, margin: float = 0.15) -> int:
    """Index (into the given front, sorted by size) selected by the signed-chord elbow.

    One point: take it. Two points: the larger iff it improves ``log10(E + eps)`` by more than
    ``margin``. Three or more: min-max normalise ``x = c`` and the benefit ``y = -log10(E + eps)``;
    among interior points with positive signed excess ``y_n - x_n`` over the chord take the largest;
    if none, the smallest model (paper Sec. 4.3; docs/method/search.md#pareto-front-and-elbow).
    """
    sizes = np.asarray(sizes, dtype=float)
    errors = np.asarray(errors, dtype=float)
    n = sizes.size
    if n == 0:
        raise ValueError("cannot select from an empty front")
    if n == 1:
        return 0
    logs = np.log10(errors + EPS)
    if n == 2:
        return 1 if (logs[0] - logs[1]) > margin else 0
    x = (sizes - sizes.min()) / (sizes.max() - sizes.min() + EPS)
    y = -logs
    yn = (y - y.min()) / (y.max() - y.min() + EPS)
    excess = yn - x
    interior = excess[1:-1]
    if np.any(interior > 0):
        return 1 + int(np.argmax(interior))
    return 0


def select_gain(
    sizes: NDArray,
    errors: NDArray,
    margin: float = 0.15,
    floor: float = 1e-8,
    floors: NDArray | None = None,
) -> int:
    """Index (into the given front, sorted by size) selected by the per-term gain rule (ours).

    The paper's two-point margin rule applied along the whole front: start from the smallest
    model; a larger model ``c'`` replaces the current choice ``c`` when
    ``log10(E_c + eps) - log10(E_c' + eps) > margin * (c' - c)``. For two points this is exactly
    the paper's rule; unlike the signed-chord elbow it selects the last point of a front that
    keeps falling (convex in log), and a long flat start does not hide a later drop. Errors are
    compared as ``log10(E + floor)``: below ``floor`` (a relative residual of 1e-4 for the
    variance-normalised E_val) a model already matches the data to numerical precision, and a
    further "gain" only fits round-off or discretisation error. ``floors``: one floor per
    point instead (:func:`_select_gain_per_model`).
    """
    sizes = np.asarray(sizes, dtype=float)
    if sizes.size == 0:
        raise ValueError("cannot select from an empty front")
    if floors is not None:
        return _select_gain_per_model(sizes, np.asarray(errors, dtype=float), margin, floors)
    logs = np.log10(np.asarray(errors, dtype=float) + floor)
    chosen = 0
    for k in range(1, sizes.size):
        if logs[chosen] - logs[k] > margin * (sizes[k] - sizes[chosen]):
            chosen = k
    return chosen


def _select_gain_per_model(sizes: NDArray, errors: NDArray, margin: float, floors: NDArray) -> int:
    """The gain rule with a floor per model: each comparison uses the larger floor of the two
    models (with a noise model, the noise energy their residuals carry; differences below it
    are a realisation of the noise, not evidence for a term)."""
    floors = np.asarray(floors, dtype=float)
    chosen = 0
    for k in range(1, sizes.size):
        f = max(floors[chosen], floors[k])
        gain = np.log10(errors[chosen] + f) - np.log10(errors[k] + f)
        if gain > margin * (sizes[k] - sizes[chosen]):
            chosen = k
    return chosen


def select_by_criterion(scores: NDArray) -> int:
    """Index of the minimum AIC/BIC-type score (first on ties)."""
    return int(np.argmin(np.asarray(scores, dtype=float)))


def select_on_front(
    sizes: NDArray,
    val_errors: NDArray,
    aic: NDArray,
    bic: NDArray,
    settings: SelectionSettings,
    floors: NDArray | None = None,
) -> int:
    """Index into the given (all-size) arrays of the selected model.

    The rule is applied on the Pareto front (``elbow_points="front"``) or on every given size
    (``"all"``); ``floors`` (gain rule only): one error floor per given model.
    """
    if settings.elbow_points == "all":
        front = np.argsort(np.asarray(sizes), kind="stable")
    else:
        front = pareto_front(sizes, val_errors)
    if settings.rule == "elbow":
        k = select_elbow(np.asarray(sizes)[front], np.asarray(val_errors)[front], settings.margin)
    elif settings.rule == "gain":
        k = select_gain(
            np.asarray(sizes)[front],
            np.asarray(val_errors)[front],
            settings.margin,
            settings.gain_floor,
            None if floors is None else np.asarray(floors)[front],
        )
    elif settings.rule == "aic":
        k = select_by_criterion(np.asarray(aic)[front])
    elif settings.rule == "bic":
        k = select_by_criterion(np.asarray(bic)[front])
    else:
        raise ValueError(f"unknown selection rule {settings.rule!r}; use elbow, aic, bic or gain")
    return int(front[k])


def is_plateau(prev: float, cur: float, tol: float, log_tol: float) -> bool:
    """Relative validation improvement below ``tol`` (and log10 improvement below ``log_tol``)."""
    rel = (prev - cur) / max(prev, EPS)
    log_gain = np.log10(max(prev, EPS)) - np.log10(max(cur, EPS))
    return bool(rel < tol and log_gain < log_tol)


@dataclass
class StoppingState:
    """Plateau and selection-stability counters of the support-size sweep
    (docs/method/search.md#support-sweep-and-stopping)."""

    best: float = np.inf
    plateau_count: int = 0
    stability_count: int = 0
    previous_selection: int = 1  # the elbow of the sweep so far (c = 1 selects itself)

    def update(self, c: int, err: float, selected_size: int | None, s: SelectionSettings) -> bool:
        """Record size ``c``; return True if the sweep should stop after it."""
        if np.isfinite(self.best):
            plateau = is_plateau(self.best, err, s.plateau_tol, s.plateau_log_tol)
            self.plateau_count = self.plateau_count + 1 if plateau else 0
        if err < self.best:
            self.best = err
        if selected_size is not None:
            stable = selected_size < c
            if s.stability == "paper":
                stable = stable and selected_size == self.previous_selection
            self.stability_count = self.stability_count + 1 if stable else 0
            self.previous_selection = selected_size
        # explain floor (ours): no model explains enough of the target yet, keep searching
        unexplained = s.explain_floor is not None and self.best > s.explain_floor
        return bool(
            s.auto_stop
            and c >= s.min_stop_size
            and not unexplained
            and (self.plateau_count >= s.patience or self.stability_count >= s.patience)
        )


def inactive_terms(
    coef: NDArray, columns: NDArray, contrib_tol: float = 1e-4, abs_tol: float = 1e-10
) -> NDArray[np.bool_]:
    """Mask of terms to prune: ``|xi_j| <= abs_tol`` or ``r_j <= contrib_tol`` (paper Sec. 4.4).

    ``r_j = ||xi_j theta_j|| / ||Theta xi||`` over all rows (``columns`` is ``(K, c)``); when the
    denominator vanishes the sum of the term norms is used instead
    (docs/method/search.md#inactive-term-pruning).
    """
    coef = np.asarray(coef, dtype=float)
    contrib = np.linalg.norm(columns * coef[None, :], axis=0)
    total = float(np.linalg.norm(columns @ coef))
    if total <= EPS:
        total = float(contrib.sum())
    ratio = contrib / (total if total > 0 else 1.0)
    return (np.abs(coef) <= abs_tol) | (ratio <= contrib_tol)
