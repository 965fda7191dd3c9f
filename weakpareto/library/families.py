"""Several spatial operator families over one field, as one feature source (ours).

Model: ``T_{m,alpha} u = sum_j xi_j u^{p_j} X^{(f_j)}_{beta_j} u`` on a periodic domain, where
every term carries its own family ``f_j``:

* ``directional``: ``(i kappa)^beta`` (paper Eq. 3), the left Weyl derivative on the period;
* ``riesz``: ``-|kappa|^beta`` (paper Eq. 2), symmetric;
* ``directional_right``: ``(-i kappa)^beta``, its mirror and adjoint on the period.

So advection with fractional dispersion, ``u_t = -v u_x + K R^1.5 u`` (a Lévy flight with drift),
is one model although no single family holds both terms.

Column kinds
------------
:class:`FamilyLibrary` has the temporal target of its field and one column per (power, family)
**kind**, encoded ``kind = power * F + f`` for ``F`` families and family index ``f``. The kind
plays the role the power plays in 1-D and the direction in 2-D
(:mod:`weakpareto.library.weak_2d`): the unchanged Algorithm 1 searches nondecreasing kind
patterns, i.e. (power, family) multisets, and its same-power duplicate penalty becomes a
same-kind one. With one family ``kind == power``: the source is then today's library.

Exactly collinear columns
-------------------------
Write each symbol as ``s_f(kappa) = c_f |kappa|^beta exp(i pi theta_f beta sgn(kappa) / 2)``
with ``(theta, c)`` = ``(1, 1)`` directional, ``(0, -1)`` Riesz, ``(-1, 1)`` right-directional.
Two families are proportional at order ``beta``, ``s_f = r s_g``, exactly when
``beta (theta_f - theta_g) / 2`` is an integer ``k``, with ``r = (c_f / c_g) (-1)^k``; at
``beta = 0`` every family is the identity (``r = 1``, the modelling convention of paper Sec. 2.1).
Hence directional and Riesz coincide at even orders (``(i kappa)^2 = -kappa^2``), directional and
right-directional at every integer order (``(-i kappa)^1 = -(i kappa)``), all three at 0 and 2.
The zero mode (annihilated for ``beta > 0``) and the Nyquist bin (effective real part
``cos(pi beta / 2) |kappa|^beta``) respect the same proportionality, so the columns are collinear
to rounding. Such coincidences are isolated orders: the library keeps every kind on the whole
order range (its columns there are the true operators, and the search's blending of order nodes
stays within a kind). The duplicates are removed from models (:func:`canonical_family`): a term
at a coincidence order is written in the first of the searched families, in the precedence
directional, Riesz, right-directional, with its coefficient times ``r``; an identity term carries
no family; terms of different kinds that are then one operator are merged (coefficients added,
exact since their columns are equal). :func:`weakpareto.method.discovery_families.
discover_families` applies this to every front model and to the final equation, so a reported
model never holds one operator twice.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from weakpareto._typing import Array
from weakpareto.library.gram import FeatureSource
from weakpareto.library.pooled import PooledSource
from weakpareto.library.weak import PowerMode, SpatialTests, WeakLibrary, weak_library
from weakpareto.library.weak_bounded import BoundedWeakLibrary
from weakpareto.numerics import windows as tf
from weakpareto.records import FAMILIES, IDENTITY_TOL, Family, Mode

#: ``(theta, c)`` of every family's symbol ``c |kappa|^beta exp(i pi theta beta sgn(kappa)/2)``.
SYMBOL_SHAPE: dict[Family, tuple[float, float]] = {
    "directional": (1.0, 1.0),
    "riesz": (0.0, -1.0),
    "directional_right": (-1.0, 1.0),
}
#: Two orders closer than this are the same order (a coincidence is an exact identity).
COINCIDENCE_TOL = IDENTITY_TOL


def check_families(families: Sequence[str]) -> tuple[Family, ...]:
    """The families as a tuple, refused when empty, repeated or unknown."""
    out = tuple(families)
    unknown = [f for f in out if f not in FAMILIES]
    if not out or unknown or len(set(out)) != len(out):
        raise ValueError(
            f"families must be distinct names among {', '.join(FAMILIES)}; got {list(out)}"
        )
    return out  # type: ignore[return-value]  # checked against FAMILIES above


def proportionality(f: Family, g: Family, beta: float) -> float | None:
    """``r`` with ``X^{(f)}_beta = r X^{(g)}_beta`` exactly, or None (module docstring)."""
    if abs(beta) <= COINCIDENCE_TOL:
        return 1.0
    theta_f, c_f = SYMBOL_SHAPE[f]
    theta_g, c_g = SYMBOL_SHAPE[g]
    half_turns = 0.5 * beta * (theta_f - theta_g)
    k = round(half_turns)
    if abs(half_turns - k) > COINCIDENCE_TOL:
        return None
    return (c_f / c_g) * (-1.0) ** k


def column_kinds(powers: Sequence[int], n_families: int) -> tuple[int, ...]:
    """The column kinds ``p * F + f`` of every (power, family index), power-major: the "powers"
    the search runs with (with one family, the powers themselves)."""
    return tuple(int(p) * n_families + f for p in powers for f in range(n_families))


def decode_kind(kind: int, n_families: int) -> tuple[int, int]:
    """(power, family index) of a column kind."""
    power, f = divmod(int(kind), n_families)
    return power, f


def canonical_family(
    family: Family, beta: float, searched: Sequence[Family]
) -> tuple[Family, float]:
    """The family a term of ``family`` at ``beta`` is written in, and the factor ``r`` of its
    coefficient: the first searched family, in the precedence of :data:`FAMILIES`, whose
    operator at ``beta`` is ``X^{(family)}_beta / r`` (``family`` itself if no earlier one)."""
    for g in FAMILIES:
        if g not in searched:
            continue
        r = proportionality(family, g, beta)
        if r is not None:
            return g, r
    return family, 1.0


@dataclass(frozen=True)
class FamilyLibrary:
    """One field's weak features in several operator families; a FeatureSource by column kind.

    ``parts[f]`` is the feature source of ``families[f]`` on the same field, test functions and
    temporal target (:func:`family_library` builds them); ``targets`` are ``parts[0]``'s and
    ``columns(kind, betas)`` are ``parts[f].columns(power, betas)`` for
    ``power, f = divmod(kind, F)`` (module docstring).
    """

    families: tuple[Family, ...]
    parts: tuple[FeatureSource, ...]

    def __post_init__(self) -> None:
        check_families(self.families)
        if len(self.parts) != len(self.families):
            raise ValueError(
                f"{len(self.families)} families need as many feature sources, got {len(self.parts)}"
            )
        rows = {int(p.n_rows) for p in self.parts}
        if len(rows) != 1:
            raise ValueError(f"the families' sources must share their rows, got {sorted(rows)}")

    @property
    def n_rows(self) -> int:
        return int(self.parts[0].n_rows)

    @property
    def shape(self) -> tuple[int, ...] | None:
        """Test counts of the weak equations (the families share them); None for sources
        without test functions."""
        shape = getattr(self.parts[0], "shape", None)
        return None if shape is None else tuple(int(k) for k in shape)

    def kind(self, power: int, family: Family) -> int:
        """The column kind of (power, family)."""
        return int(power) * len(self.families) + self.families.index(family)

    def decode(self, kind: int) -> tuple[int, Family]:
        """(power, family) of a column kind."""
        power, f = decode_kind(kind, len(self.families))
        return power, self.families[f]

    def kinds(self, powers: Sequence[int]) -> tuple[int, ...]:
        """Every column kind of the given model powers (:func:`column_kinds`)."""
        return column_kinds(powers, len(self.families))

    def restrict(self, families: Sequence[Family]) -> FamilyLibrary:
        """The same features in a subset of the families (in the given order)."""
        chosen = check_families(families)
        missing = [f for f in chosen if f not in self.families]
        if missing:
            raise ValueError(f"families {missing} are not in this library {list(self.families)}")
        parts = tuple(self.parts[self.families.index(f)] for f in chosen)
        return FamilyLibrary(chosen, parts)

    def targets(self, alphas: Array, mode: Mode) -> Array:
        """Weak targets ``(G, K)`` (paper Eq. 9): the field's, the same for every family."""
        return np.asarray(self.parts[0].targets(alphas, mode))

    def columns(self, kind: int, betas: Array) -> Array:
        """Weak columns ``(G, K)`` of one column kind at each order (paper Eqs. 10-11)."""
        power, f = decode_kind(kind, len(self.families))
        return np.asarray(self.parts[f].columns(power, betas))


def families_of(source: FeatureSource) -> tuple[Family, ...]:
    """The families of a family library, or of the family libraries a pooled source stacks."""
    parts = source.parts if isinstance(source, PooledSource) else (source,)
    libraries = [p for p in parts if isinstance(p, FamilyLibrary)]
    if len(libraries) != len(parts):
        raise ValueError("expected a FamilyLibrary or a PooledSource of FamilyLibraries")
    found = {p.families for p in libraries}
    if len(found) != 1:
        raise ValueError(f"pooled experiments hold different families: {sorted(found)}")
    return found.pop()


def restrict_families(source: FeatureSource, families: Sequence[Family]) -> FeatureSource:
    """``source`` (a family library, or several pooled) in a subset of its families; with one
    family the family's own feature source(s), so the run is exactly a single-family run."""
    families_of(source)  # validates the shape of the source
    if isinstance(source, PooledSource):
        return PooledSource(tuple(restrict_families(p, families) for p in source.parts))
    assert isinstance(source, FamilyLibrary)
    restricted = source.restrict(families)
    return restricted.parts[0] if len(restricted.families) == 1 else restricted


def family_library(
    u: Array,
    t: Array,
    x: Array,
    families: Sequence[Family],
    *,
    power_mode: PowerMode = "raw",
    period: float | None = None,
    spatial_tests: SpatialTests = "gaussian",
    test_counts: tuple[int, int] | None = None,
    budget: tf.Budget = "paper",
    width_scale: float = 1.0,
) -> FamilyLibrary:
    """The weak library of a periodic field in several families (arguments as
    :func:`weakpareto.library.weak.weak_library`): one set of test functions, one
    :class:`WeakLibrary` per family."""
    base = weak_library(
        u,
        t,
        x,
        operator="directional",
        power_mode=power_mode,
        period=period,
        spatial_tests=spatial_tests,
        test_counts=test_counts,
        budget=budget,
        width_scale=width_scale,
    )
    return with_families(base, families)


def with_families(base: WeakLibrary, families: Sequence[Family]) -> FamilyLibrary:
    """A periodic weak library (the L1 one, or the exact-time one of
    :mod:`weakpareto.library.weak_exact`) in several families: copies differing only in their
    operator, so they share the field, the test functions and the target. A bounded-window
    library is refused: its columns are not periodic multipliers."""
    if isinstance(base, BoundedWeakLibrary):
        raise ValueError("operator families need a periodic domain; got a bounded-window library")
    chosen = check_families(families)
    parts = tuple(dataclasses.replace(base, operator=f, _cache={}) for f in chosen)
    return FamilyLibrary(chosen, parts)
