"""2-D directional discovery (paper Sec. "Extension to two spatial dimensions").

The 2-D weak library (:class:`weakpareto.library.weak_2d.WeakLibrary2D`) exposes the direction of
each term as its "power" index, so the unchanged 1-D Algorithm 1
(:class:`weakpareto.method.discovery.Discovery`) searches direction multisets; this module runs it
and relabels the result as power-0 terms with a direction ``x`` or ``y``.
"""

from __future__ import annotations

import dataclasses

from weakpareto.library.gram import FeatureSource
from weakpareto.library.weak_2d import ADMITTED_POWERS, DIRECTIONS
from weakpareto.method.discovery import Discovery, ProgressFn
from weakpareto.method.settings import DiscoveryConfig
from weakpareto.records import DiscoveryResult, Equation, FrontPoint, Term


def directional_equation(eq: Equation) -> Equation:
    """Relabel a search-encoded equation (power = direction index) as power-0 directional terms."""
    terms = []
    for term in eq.terms:
        d = int(term.power)
        if not 0 <= d < len(DIRECTIONS):
            raise ValueError(f"direction index {d} is not 0 (x) or 1 (y)")
        terms.append(Term(0, float(term.order), float(term.coef), DIRECTIONS[d]))
    return Equation(eq.mode, eq.alpha, tuple(terms), eq.operator).canonical()


def discover_2d(
    source: FeatureSource,
    cfg: DiscoveryConfig,
    progress: ProgressFn | None = None,
) -> DiscoveryResult:
    """Weak-Pareto on a 2-D field (a 2-D weak library, or several pooled): Algorithm 1 with
    direction patterns instead of powers.

    ``cfg.powers`` are the *model* powers and must be ``(0,)`` (the paper's 2-D example is
    linear); internally the search runs with ``powers=(0, 1)`` = direction indices, so every
    support size tries every direction multiset in every admitted temporal branch. All other
    settings (anchors, DE budget, plateau stop, elbow, pruning, polishing, refit) are used
    exactly as in 1-D — the paper's method, not the reference 2-D script's shortcuts (module
    docstring). The elbow and stability-stop rules come from ``cfg.selection``; the 2-D
    benchmarks set the paper's wording (``stability="paper"``, ``elbow_points="all"``) because
    benchmark B's validation curve is convex up to the true size (E ~ 0.18, 0.05, 5e-4 for
    c = 1..3) and the reference rules would stop at c = 3 with a one-term elbow.
    Returned equations carry ``power = 0`` and ``direction in {"x", "y"}``.
    """
    if tuple(int(p) for p in cfg.powers) != ADMITTED_POWERS:
        raise ValueError(
            f"2-D discovery admits linear terms only (powers [0]); got powers {list(cfg.powers)}"
        )
    search_cfg = dataclasses.replace(cfg, powers=tuple(range(len(DIRECTIONS))))
    res = Discovery(source, search_cfg).run(progress)
    front = tuple(
        FrontPoint(
            fp.size,
            fp.train_error,
            fp.val_error,
            fp.objective,
            fp.aic,
            fp.bic,
            directional_equation(fp.equation),
        )
        for fp in res.front
    )
    return DiscoveryResult(
        front=front,
        pareto=res.pareto,
        selected_size=res.selected_size,
        selected=directional_equation(res.selected),
        final=directional_equation(res.final),
        fit_error=res.fit_error,
        timings=dict(res.timings),
        gain_floor=res.gain_floor,
        search_ridge=res.search_ridge,
    )
