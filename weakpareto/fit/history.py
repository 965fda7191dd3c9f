"""Unobserved history in a fit: what supports it, and the refit of the result (ours).

``history="unknown"``: the record starts after the process's onset, so the Caputo derivative
from the onset is the one from the record's start plus a memory term ``H`` of the unobserved
past (:mod:`weakpareto.library.history`). The search runs on the
:class:`~weakpareto.library.history.HistorySource` (order-free history directions projected out
of target and columns), so support sweep, selection, pruning, polish and refit choose the terms
as without history; :func:`finish_history` then re-estimates the final model's order, spatial
orders and coefficients with the kernels of its own order
(:func:`weakpareto.library.history.history_refit`).

Only the exact weak time target computes the Caputo derivative from the record's start with
``u(t_0)`` taken from the data; refused with a one-line reason (:func:`check_history_supported`):
other methods, 2-D data, several experiments, bounded windows, irregular or masked samples, known
forcing, ``operator=auto`` and uncertainty.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from weakpareto._typing import Array
from weakpareto.errors import UserInputError
from weakpareto.fit.context import FitWarning
from weakpareto.fit.restrictions import require_one_periodic_1d_field, without_noise_scoring
from weakpareto.fit.sources import FitData, FitField
from weakpareto.fit.spec import FitSpec
from weakpareto.library.history import HistorySource, history_refit
from weakpareto.method.alternatives import close_pairs, twin_to_drop
from weakpareto.records import DiscoveryResult, Equation, Term

WHAT = "history=unknown"


def check_history_supported(spec: FitSpec, data: FitData, domain: str) -> None:
    """A one-line ``UserInputError`` where the unknown-history model has no implementation."""
    if spec.kind != "pareto" or spec.feature_settings.temporal_target != "exact":
        raise UserInputError(
            f"{WHAT} models the memory on the exact weak time target; method={spec.method} "
            "does not have it: use method=weak_pareto_exact"
        )
    require_one_periodic_1d_field(WHAT, data, domain, "fit with history=none")
    field = data if isinstance(data, FitField) else data.fields[0]
    if field.sampled:
        raise UserInputError(
            f"{WHAT} needs complete uniform samples; resample onto a uniform grid or fit with "
            "history=none"
        )
    if field.forcing:
        raise UserInputError(f"{WHAT} is not combined with known forcing; fit without forcing=")
    if spec.families:
        raise UserInputError(
            f"{WHAT} needs one operator family; give operator=directional or riesz"
        )
    if spec.uncertainty is not None:
        raise UserInputError(
            "uncertainty=bootstrap does not resample the history model; fit without uncertainty="
        )


def history_applicable(spec: FitSpec) -> tuple[FitSpec, list[FitWarning]]:
    """The spec without noise-aware scoring (its covariance describes the unprojected weak
    rows) and the note that says so."""
    return without_noise_scoring(spec, f"the weak rows without the history directions; with {WHAT}")


def branch_bounds(eq: Equation, alpha_range: tuple[float, float]) -> tuple[float, float]:
    """The part of ``alpha_range`` on the equation's branch (sub: below 1, sup: above 1)."""
    lo, hi = alpha_range
    return (lo, min(hi, 1.0 - 1e-6)) if eq.mode == "sub" else (max(lo, 1.0 + 1e-6), hi)


def merged_twin(terms: Sequence[Term], orders: Array, coef: Array, distance: float) -> int | None:
    """The term to drop of the closest pair of one power whose refitted orders lie within
    ``distance`` and whose coefficients share a sign or cancel (None: no such pair); the
    identity (order 0, not refitted) is never a twin.

    The refit moves every order at once, so two searched terms can meet at one order: then
    they are one operator split in two (same sign), or a difference of two powers that no
    equation of the model class means (``c R^b1 - c' R^b2``, ``c ~ c'``); the rule of the
    search's twin merge (:meth:`weakpareto.method.discovery.Discovery.merge_twin`)."""
    pairs = close_pairs([t.power for t in terms], orders, distance)
    return twin_to_drop(
        [(d, j, k) for d, j, k in pairs if orders[j] > 0.0 and orders[k] > 0.0], coef
    )


def finish_history(
    result: DiscoveryResult, source: HistorySource, spec: FitSpec
) -> DiscoveryResult:
    """The result with its final equation refitted with the history kernels of its own order
    (integer branch: no memory, kept as searched)."""
    eq = result.final
    if eq.mode == "int" or not eq.terms:
        return result
    cfg = spec.discovery
    kept = list(eq.terms)
    while True:
        refit = history_refit(
            source.base,
            eq.mode,
            float(eq.alpha),
            [(t.power, float(t.order)) for t in kept],
            branch_bounds(eq, cfg.alpha_range),
            cfg.beta_range,
        )
        drop = merged_twin(kept, refit.orders, refit.coef, cfg.refine.trust_min)
        if drop is None:
            break
        del kept[drop]
    terms = tuple(
        dataclasses.replace(t, order=float(b), coef=float(c))
        for t, b, c in zip(kept, refit.orders, refit.coef, strict=True)
    )
    final = dataclasses.replace(eq, alpha=refit.alpha, terms=terms)
    timings = dict(result.timings, history_refit_alpha_shift=float(np.abs(refit.alpha - eq.alpha)))
    return dataclasses.replace(result, final=final, fit_error=refit.fit_error, timings=timings)
