"""What every fit diagnostic works with: the warning record, the fit's context (dimensionless
source, result and settings) and the mapping between equation terms and the columns of the
feature source (a power; a direction in 2-D; a (power, family) kind with ``operator=auto``).

:mod:`weakpareto.fit.checks` runs the diagnostics, :mod:`weakpareto.fit.probes` the ones that
refit candidate models.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from weakpareto._typing import Array
from weakpareto.fit.spec import NoiseKind
from weakpareto.library.families import decode_kind, families_of, term_kind
from weakpareto.library.gram import FeatureSource
from weakpareto.method.exact_fit import exact_system
from weakpareto.records import DiscoveryResult, Equation, Family, Term

Level = Literal["warning", "info"]


@dataclass(frozen=True)
class FitWarning:
    """One diagnostic: a code, ``warning`` or ``info``, and a one-line message with the fix."""

    code: str
    message: str
    level: Level = "warning"

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "level": self.level, "message": self.message}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FitWarning:
        level: Level = "info" if d.get("level") == "info" else "warning"
        return cls(str(d["code"]), str(d["message"]), level)

    def line(self) -> str:
        return f"{self.level}: [{self.code}] {self.message}"


def num(v: float) -> str:
    return f"{v:.3g}"


def range_text(lo: float, hi: float) -> str:
    return f"[{lo:g},{hi:g}]"


def source_families(source: FeatureSource | None) -> tuple[Family, ...]:
    """The operator families of a family library (``operator=auto``); empty for any other."""
    try:
        return families_of(source) if source is not None else ()
    except ValueError:
        return ()


def search_index(term: Term, ctx: FitContext) -> int:
    """The "power" index the feature source uses: the power, the direction in 2-D, or the
    (power, family) column kind of a family library."""
    if ctx.two_d:
        return 1 if term.direction == "y" else 0
    return term_kind(ctx.source, int(term.power), term.family_in(ctx.operator))


def index_term(index: int, order: float, ctx: FitContext) -> Term:
    """A unit-coefficient term of a search index (inverse of :func:`search_index`)."""
    if ctx.two_d:
        return Term(0, order, 1.0, ("x", "y")[index])
    families = source_families(ctx.source)
    if families:
        power, f = decode_kind(index, len(families))
        family = families[f] if families[f] != ctx.operator else None
        return Term(power, order, 1.0, family=family)
    return Term(index, order, 1.0)


def term_name(term: Term, operator: str) -> str:
    return term.text(operator)  # type: ignore[arg-type]


@dataclass(frozen=True)
class FitContext:
    """What the diagnostics need: the dimensionless source and result plus the settings."""

    source: FeatureSource
    result: DiscoveryResult  # dimensionless (as discovered)
    alpha_range: tuple[float, float]
    beta_range: tuple[float, float]
    powers: tuple[int, ...]
    max_terms: int
    ridge: float
    operator: str
    two_d: bool
    u: Array  # the dimensionless field (several experiments: the first)
    seed: int = 0
    #: The dimensionless field of every experiment, in the source's order (empty: ``u`` alone).
    fields: tuple[Array, ...] = ()
    #: The fit's noise law (``measurement`` or ``intrinsic``: corrected for fluctuations that
    #: obey the dynamics), so that advice does not ask for what was done.
    noise_kind: NoiseKind = "measurement"

    @property
    def experiments(self) -> tuple[Array, ...]:
        return self.fields or (self.u,)


def system(ctx: FitContext, eq: Equation, terms: Sequence[Term]) -> tuple[Array, Array]:
    idx = tuple(search_index(t, ctx) for t in terms)
    betas = np.array([t.order for t in terms], dtype=float)
    return exact_system(ctx.source, eq.mode, eq.alpha, idx, betas)
