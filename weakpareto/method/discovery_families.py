"""Discovery over several spatial operator families at once (ours).

Model: ``T_{m,alpha} u = sum_j xi_j u^{p_j} X^{(f_j)}_{beta_j} u``, each term in its own family
``f_j`` (:mod:`weakpareto.library.families`). The family library exposes every (power, family)
pair as a column kind, so the unchanged Algorithm 1 (:class:`weakpareto.method.discovery.
Discovery`) searches (power, family) multisets exactly as the 2-D search searches direction
multisets (:mod:`weakpareto.method.discovery_2d`); this module runs it on the kinds and writes
the result back as terms of a power and a family.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from weakpareto.library.families import (
    canonical_family,
    check_families,
    column_kinds,
    decode_kind,
    families_of,
    restrict_families,
)
from weakpareto.library.gram import FeatureSource
from weakpareto.method.discovery import Discovery, ProgressFn
from weakpareto.method.settings import DiscoveryConfig
from weakpareto.method.skew import tie_skewed
from weakpareto.records import (
    ALL_FAMILIES,
    DiscoveryResult,
    Equation,
    Family,
    OperatorKind,
    Term,
)


def equation_operator(families: Sequence[Family]) -> OperatorKind:
    """The operator an equation over ``families`` is written in: the first of them, in the
    precedence of :data:`weakpareto.records.FAMILIES`, that is an equation operator
    (directional, Riesz); terms of any other family name theirs."""
    if "directional" in families:
        return "directional"
    return "riesz" if "riesz" in families else "directional"


def family_equation(eq: Equation, families: Sequence[Family]) -> Equation:
    """Relabel a search-encoded equation (power = column kind ``p * F + f``) as terms of power
    ``p`` in family ``families[f]``, deduplicated (:mod:`weakpareto.library.families`): a term at
    an order where its family coincides with an earlier searched one is written in that one (its
    coefficient times the proportionality factor), and terms of different kinds that are then
    one operator are merged by adding their coefficients."""
    entries: list[tuple[tuple[int, Family, float], set[int], Term]] = []
    for term in eq.terms:
        power, f = decode_kind(term.power, len(families))
        family, factor = canonical_family(families[f], float(term.order), families)
        coef = float(term.coef) * factor
        key = (power, family, float(term.order))
        for i, (k, kinds, t) in enumerate(entries):
            if k == key and int(term.power) not in kinds:  # one operator from two kinds
                entries[i] = (
                    k,
                    kinds | {int(term.power)},
                    dataclasses.replace(t, coef=t.coef + coef),
                )
                break
        else:
            new = Term(power, float(term.order), coef, term.direction, family)
            entries.append((key, {int(term.power)}, new))
    terms = [t for _, _, t in entries]
    return Equation(eq.mode, eq.alpha, tuple(terms), equation_operator(families)).canonical()


def discover_families(
    source: FeatureSource,
    cfg: DiscoveryConfig,
    families: Sequence[Family] | None = None,
    progress: ProgressFn | None = None,
) -> DiscoveryResult:
    """Weak-Pareto over several operator families: Algorithm 1 on (power, family) column kinds.

    ``source`` is a :class:`weakpareto.library.families.FamilyLibrary` (or a pooled source of
    them, one per experiment); ``families`` the subset to search (None: all of the source's), in
    any order. ``cfg.powers`` are the model powers; the search runs with the kinds of every
    (power, family) as its powers, so every support size tries every (power, family) multiset
    in every admitted temporal branch; everything else (anchors, DE budget, stopping, selection,
    pruning, polishing, refit) is ``cfg``'s, unchanged. ``cfg.operator`` is not used: the
    equation's operator is :func:`equation_operator` of the families searched.

    Every front model, the selected and the final equation are relabelled by
    :func:`family_equation`; a front point keeps its searched size and errors. When both
    one-sided families (directional, directional_right) are searched, the final model goes
    through the same-order tie rule of :mod:`weakpareto.method.skew` (a skewed operator as a
    pair at one order; its ``fit_error`` is then the tied model's); the front and the selected
    model are the search's.

    With one family the run is today's single-family run on that family's own feature source,
    bit-identical to :func:`weakpareto.method.discovery.discover` with ``operator`` set to it.
    Noise-aware scoring (``cfg.noise_model``) corrects the linear column of every family
    (:class:`weakpareto.library.noise_covariance.FeatureCovariance`, ``family_parts``).
    """
    chosen = check_families(families_of(source) if families is None else families)
    ordered = tuple(f for f in ALL_FAMILIES if f in chosen)  # labels: independent of the order
    search_source = restrict_families(source, ordered)
    operator = equation_operator(ordered)
    kinds = column_kinds(cfg.powers, len(ordered))
    search_cfg = dataclasses.replace(cfg, powers=kinds, operator=operator)
    disc = Discovery(search_source, search_cfg)
    res = disc.run(progress)
    if len(ordered) == 1 and ordered[0] == operator:
        return res  # exactly today's result: the terms carry the equation's operator
    tied = tie_skewed(disc, res.final, ordered)  # None unless two pairable families searched
    if tied is not None:
        res = dataclasses.replace(res, final=tied[0], fit_error=tied[1])
    front = tuple(
        dataclasses.replace(fp, equation=family_equation(fp.equation, ordered)) for fp in res.front
    )
    return dataclasses.replace(
        res,
        front=front,
        selected=family_equation(res.selected, ordered),
        final=family_equation(res.final, ordered),
    )
