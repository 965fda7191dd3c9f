"""Simpler twins of a refined model that the refinement compares it with (ours, beyond the
paper; docs/method/search.md#exact-order-polishing).

A polished order that ends on the edge of its admissible set may be standing in for the model
class's exact member just beyond it: a fractional ``alpha`` on the branch bound next to 1 for the
integer branch, and a spatial order on the smallest positive order (``min_positive_order``, where
``R^beta ~ -I`` on band-limited data) for the identity term ``u^p u``. Each function returns that
twin as a search candidate, or None; :meth:`weakpareto.method.discovery.Discovery.refine`
polishes and refits it and keeps the twin unless the original lowers ``log10 E_fit`` by more than
the selection margin. Two terms of one kind at nearly one order are twins of one term
(:func:`close_pairs`, :func:`twin_to_drop`: the search's twin merge and the history refit's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from weakpareto._typing import Array
from weakpareto.method.search import Candidate
from weakpareto.numerics.orders import first_positive

if TYPE_CHECKING:
    from weakpareto.method.discovery import Discovery

#: An order this close to the smallest positive order sits on it (the polish clips onto it).
ON_EDGE = 1e-9

#: Opposite-sign terms of one kind whose coefficients cancel to within this fraction of the
#: larger are a near-cancelling pair (``Discovery.cancelling_pairs``).
CANCELLING = 0.25


def cancels(coef: Array, j: int, k: int) -> bool:
    """Opposite signs that cancel to within :data:`CANCELLING` of the larger coefficient."""
    big = max(abs(coef[j]), abs(coef[k]))
    return bool(coef[j] * coef[k] < 0 and abs(coef[j] + coef[k]) <= CANCELLING * big)


def close_pairs(
    powers: Sequence[int], orders: Array, distance: float
) -> list[tuple[float, int, int]]:
    """``(|b_j - b_k|, j, k)`` of the pairs of terms of one kind whose orders lie within
    ``distance`` (the candidates of a twin merge, ``Discovery.merge_twin``)."""
    b = np.asarray(orders, dtype=float)
    return [
        (abs(b[j] - b[k]), j, k)
        for j in range(len(b))
        for k in range(j + 1, len(b))
        if powers[j] == powers[k] and abs(b[j] - b[k]) <= distance
    ]


def twin_to_drop(pairs: Sequence[tuple[float, int, int]], coef: Array) -> int | None:
    """Of the :func:`close_pairs` whose coefficients share a sign or :func:`cancels`, the
    smaller term of the closest one (None: no such pair)."""
    twins = [(d, j, k) for d, j, k in pairs if coef[j] * coef[k] > 0 or cancels(coef, j, k)]
    if not twins:
        return None
    _, j, k = min(twins)
    return j if abs(coef[j]) < abs(coef[k]) else k


def integer_alternative(
    disc: Discovery, cand: Candidate, alpha: float, betas: Array
) -> Candidate | None:
    """The same support in the exact integer branch when a polished fractional ``alpha`` ends on
    the branch bound next to 1 (``refine.integer_test = "always"``: every fractional model)."""
    eps = disc.cfg.eps_alpha
    if cand.mode == "int":
        return None
    near_bound = abs(alpha - 1.0) <= eps * (1.0 + 1e-6)
    if not near_bound and disc.cfg.refine.integer_test != "always":
        return None
    if not any(b.is_integer for b in disc.branches):
        return None
    return disc.objective("int", cand.powers).candidate(np.array(betas, dtype=float))


def identity_alternative(
    disc: Discovery, cand: Candidate, alpha: float, betas: Array
) -> Candidate | None:
    """The model with every term on the smallest positive order written as the identity of its
    power (only with ``min_positive_order`` and a range that admits the identity; a power that
    already has an identity term keeps its fractional one)."""
    nodes = disc.beta_nodes
    if disc.cfg.min_positive_order is None or nodes[0] != 0.0:
        return None
    b = np.asarray(betas, dtype=float)
    on_edge = np.abs(b - first_positive(nodes)) <= ON_EDGE
    has_identity = {p for p, o in zip(cand.powers, b) if o == 0.0}
    swap = np.array([e and p not in has_identity for e, p in zip(on_edge, cand.powers)])
    if not swap.any() or len({p for p, s in zip(cand.powers, swap) if s}) < int(swap.sum()):
        return None  # nothing on the edge, or two edge terms of one power (one identity each)
    obj = disc.objective(cand.mode, cand.powers)
    orders = np.where(swap, 0.0, b)
    return obj.candidate(np.array(([alpha] if obj.fractional else []) + list(orders)))
