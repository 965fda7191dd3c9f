"""The one table of setting rules: ranges and enumerations, for both doors.

``wp run`` checks every override of a composed config against it
(:mod:`weakpareto.campaign.schema`), ``wp discover`` and :class:`WeakPareto` every parameter
(:mod:`weakpareto.user.validation`). Keys are ``wp run`` config keys; a ``wp discover`` name
reaches its key through :data:`weakpareto.fit.names.PARAMETERS` (:func:`table_key`), so
``max_terms=9`` and ``search.c_max=9`` are refused by the same rule. Enumerations are read from
the ``Literal`` types of the code that consumes them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import get_args

from weakpareto.fit.names import run_key
from weakpareto.fit.spec import DomainRequest, FeatureKind, MethodKindName
from weakpareto.library.noise_level import NoiseModel
from weakpareto.library.weak import PowerMode, SpatialTests
from weakpareto.library.weak_exact import InitialEstimate, StartSlope
from weakpareto.method.settings import (
    ElbowPoints,
    SelectionRule,
    StabilityRule,
    TwinRule,
    Updating,
)
from weakpareto.numerics.windows import Budget
from weakpareto.records import OperatorKind

#: More parallel seeds than this is a typo (and as many processes).
MAX_WORKERS = max(8, 4 * (os.cpu_count() or 1))


@dataclass(frozen=True)
class Number:
    """A numeric rule: ``integer`` or real, bounds (open or closed), ``null`` allowed or not."""

    integer: bool
    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False
    hi_open: bool = False
    nullable: bool = False
    hint: float | None = None  # a more telling suggestion than the default (noise: 0.1)

    def inside(self, v: float) -> bool:
        if self.lo is not None and (v <= self.lo if self.lo_open else v < self.lo):
            return False
        return not (self.hi is not None and (v >= self.hi if self.hi_open else v > self.hi))

    def bounds(self) -> str:
        parts = []
        if self.lo is not None:
            parts.append(f"{'>' if self.lo_open else '>='} {self.lo:g}")
        if self.hi is not None:
            parts.append(f"{'<' if self.hi_open else '<='} {self.hi:g}")
        return " and ".join(parts)

    def example(self) -> float:
        """A value inside the bounds (for hints when the default does not apply)."""
        if self.lo is None:
            v = 0.0 if self.hi is None or self.inside(0.0) else self.hi - 1
        elif self.hi is not None and self.lo_open:
            v = (self.lo + self.hi) / 2
        else:
            v = self.lo + (1 if self.lo_open else 0)
        return int(v) if self.integer else float(v)


INT, FLOAT = True, False
#: Largest noise level a run or a generated field accepts (a fraction: 10 is 1000 %).
MAX_NOISE = 10.0
POSITIVE_INT = Number(INT, 1)
NON_NEGATIVE = Number(FLOAT, 0.0)
POSITIVE = Number(FLOAT, 0.0, lo_open=True)

#: Ranges of the constants a user is likely to touch (types of all others: their defaults').
RANGES: dict[str, Number] = {
    "seed": Number(INT, 0),
    "seeds": POSITIVE_INT,
    "workers": Number(INT, 1, MAX_WORKERS),
    # a fraction of the signal: above 10 (1000 %) the field is noise, and far above it the noisy
    # field overflows to inf
    "noise": Number(FLOAT, 0.0, MAX_NOISE, hint=0.1),
    "n_boot": Number(INT, 2, 100_000),
    "level": Number(FLOAT, 0.0, 1.0, lo_open=True, hi_open=True, hint=0.9),
    "search.n_alpha_nodes": Number(INT, 2),
    "search.n_beta_nodes": Number(INT, 2),
    "search.eps_alpha": Number(FLOAT, 0.0, 0.5, lo_open=True, hi_open=True),
    "search.ridge": NON_NEGATIVE,
    "search.val_fraction": Number(FLOAT, 0.0, 1.0, lo_open=True, hi_open=True),
    "search.popsize": POSITIVE_INT,
    "search.maxiter": POSITIVE_INT,
    "search.tol": NON_NEGATIVE,
    "search.max_anchors": POSITIVE_INT,
    "search.dup_weight": NON_NEGATIVE,
    "search.dup_gap": POSITIVE,
    "search.c_max": Number(INT, 1, 8),
    "selection.margin": NON_NEGATIVE,
    "selection.min_stop_size": POSITIVE_INT,
    "selection.plateau_tol": NON_NEGATIVE,
    "selection.plateau_log_tol": NON_NEGATIVE,
    "selection.patience": Number(INT, 0),
    "selection.prune_contrib": NON_NEGATIVE,
    "selection.prune_abs": NON_NEGATIVE,
    "selection.explain_floor": Number(FLOAT, 0.0, nullable=True),
    "method.polish_maxiter": POSITIVE_INT,
    "method.polish_xatol": POSITIVE,
    "method.polish_fatol": POSITIVE,
    "method.trust_min": NON_NEGATIVE,
    "method.refit_ridge": Number(FLOAT, 0.0, nullable=True),
    "method.stridge_ridge": NON_NEGATIVE,
    "method.stridge_iterations": POSITIVE_INT,
    "method.max_terms": Number(INT, 1, nullable=True),
    "method.bump_power": Number(INT, 3, 12),
    "method.initial_points": Number(INT, 3),
    "method.min_positive_order": Number(FLOAT, 0.0, nullable=True),
    "benchmark.library.c_max": Number(INT, 1, 8),
    "benchmark.grid.nt": Number(INT, 4),
    "benchmark.grid.nx": Number(INT, 4),
    "benchmark.grid.ny": Number(INT, 4, nullable=True),
    "benchmark.grid.T": POSITIVE,
    "benchmark.grid.L": POSITIVE,
    "benchmark.grid.Ly": POSITIVE,
}

#: Keys with a fixed set of values.
ENUMS: dict[str, tuple[str, ...]] = {
    "search.updating": get_args(Updating),
    "search.test_budget": get_args(Budget),
    "selection.rule": get_args(SelectionRule),
    "selection.stability": get_args(StabilityRule),
    "selection.elbow_points": get_args(ElbowPoints),
    "method.kind": get_args(MethodKindName),
    "method.features": get_args(FeatureKind),
    "domain": get_args(DomainRequest),
    "method.temporal_target": ("l1", "exact"),
    "method.initial": get_args(InitialEstimate),
    "method.test_widths": ("paper", "corner"),
    "method.start_slope": get_args(StartSlope),
    "method.integer_test": ("bound", "always"),
    "method.twins": get_args(TwinRule),
    "method.noise_model": get_args(NoiseModel),
    "benchmark.library.operator": get_args(OperatorKind),
    "benchmark.library.power_mode": get_args(PowerMode),
    "benchmark.library.spatial_tests": get_args(SpatialTests),
}


#: ``wp discover`` names outside :data:`weakpareto.fit.names.PARAMETERS` that have a rule.
DOOR_KEYS = {"seed": "seed", "selection": "selection.rule", "domain": "domain"}


def table_key(name: str) -> str | None:
    """The key of :data:`RANGES`/:data:`ENUMS` that holds the rule of a ``wp discover`` setting
    name (its ``wp run`` key, or :data:`DOOR_KEYS`); ``None``: not a setting."""
    return DOOR_KEYS.get(name) or run_key(name)


def range_of(name: str) -> Number:
    """The numeric rule of a ``wp discover`` setting."""
    key = table_key(name)
    if key is None or key not in RANGES:
        raise KeyError(f"no range rule for {name!r}")
    return RANGES[key]


def choices_of(name: str) -> tuple[str, ...]:
    """The values a ``wp discover`` setting with a fixed set of values accepts."""
    key = table_key(name)
    if key is None or key not in ENUMS:
        raise KeyError(f"no enumeration for {name!r}")
    return ENUMS[key]
