"""Several spatial operator families over one field, as one feature source (ours).

Model: ``T_{m,alpha} u = sum_j xi_j u^{p_j} X^{(f_j)}_{beta_j} u`` on a periodic domain, where
every term carries its own family ``f_j``:

* ``directional``: ``(i kappa)^beta`` (paper Eq. 3), the left Weyl derivative on the period;
* ``riesz``: ``-|kappa|^beta`` (paper Eq. 2), symmetric;
* ``directional_right``: ``(-i kappa)^beta``, its mirror and adjoint on the period;
* ``tempered`` and ``tempered_riesz``: the tempered (truncated power-law) families at the run's
  ``lambda`` (:mod:`weakpareto.numerics.tempered`, docs/method/tempered.md), built by
  :func:`tempered_copy` as :class:`TemperedWeakLibrary` parts; they coincide with the others only
  at ``beta = 2`` (all ``-kappa^2``) and, for ``tempered``, at ``beta = 1`` (``i kappa``)
  (:func:`tempered_proportionality`).

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
from typing import cast

import numpy as np

from weakpareto._typing import Array
from weakpareto.library.forcing import ForcedSource
from weakpareto.library.gram import FeatureSource
from weakpareto.library.pooled import PooledSource
from weakpareto.library.weak import PowerMode, SpatialTests, WeakLibrary, weak_library
from weakpareto.library.weak_bounded import BoundedWeakLibrary
from weakpareto.library.weak_exact import ExactTimeWeakLibrary
from weakpareto.library.weighted_time import SampledExactLibrary
from weakpareto.numerics import operators as ops
from weakpareto.numerics import windows as tf
from weakpareto.numerics.tempered import TEMPERED_KINDS, tempered_spectral_multiplier
from weakpareto.records import ALL_FAMILIES, IDENTITY_TOL, Family, Mode

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
    unknown = [f for f in out if f not in ALL_FAMILIES]
    if not out or unknown or len(set(out)) != len(out):
        raise ValueError(
            f"families must be distinct names among {', '.join(ALL_FAMILIES)}; got {list(out)}"
        )
    return out  # type: ignore[return-value]  # checked against ALL_FAMILIES above


def proportionality(f: Family, g: Family, beta: float) -> float | None:
    """``r`` with ``X^{(f)}_beta = r X^{(g)}_beta`` exactly, or None (module docstring; the
    tempered families: :func:`tempered_proportionality`)."""
    if abs(beta) <= COINCIDENCE_TOL:
        return 1.0
    if f in TEMPERED_KINDS or g in TEMPERED_KINDS:
        return tempered_proportionality(f, g, beta)
    theta_f, c_f = SYMBOL_SHAPE[f]
    theta_g, c_g = SYMBOL_SHAPE[g]
    half_turns = 0.5 * beta * (theta_f - theta_g)
    k = round(half_turns)
    if abs(half_turns - k) > COINCIDENCE_TOL:
        return None
    return (c_f / c_g) * (-1.0) ** k


def _tempered_equivalent(f: Family, beta: float) -> Family | None:
    """The untempered family a tempered one equals at ``beta`` for every tempering, if any:
    both are ``-kappa^2`` (``riesz``) at ``beta = 2``; the left one is ``i kappa``
    (``directional``) at ``beta = 1``, its left limit (docs/method/tempered.md)."""
    if f not in TEMPERED_KINDS:
        return f
    if abs(beta - 2.0) <= COINCIDENCE_TOL:
        return "riesz"
    if f == "tempered" and 1.0 - COINCIDENCE_TOL <= beta <= 1.0:
        return "directional"
    return None


def tempered_proportionality(f: Family, g: Family, beta: float) -> float | None:
    """:func:`proportionality` when ``f`` or ``g`` is tempered (``beta != 0``): 1 for the same
    family; otherwise via the untempered family each equals at ``beta`` (at ``beta = 2``
    every family is ``-kappa^2``, at ``beta = 1`` the left tempered one is ``i kappa``), None
    where a tempered symbol depends on lambda."""
    if f == g:
        return 1.0
    f0, g0 = _tempered_equivalent(f, beta), _tempered_equivalent(g, beta)
    if f0 is None or g0 is None:
        return None
    return proportionality(f0, g0, beta)


def column_kinds(powers: Sequence[int], n_families: int) -> tuple[int, ...]:
    """The column kinds ``p * F + f`` of every (power, family index), power-major: the "powers"
    the search runs with (with one family, the powers themselves)."""
    return tuple(encode_kind(p, f, n_families) for p in powers for f in range(n_families))


def encode_kind(power: int, family_index: int, n_families: int) -> int:
    """The column kind ``p * F + f`` of (power, family index); :func:`decode_kind` inverts it."""
    return int(power) * n_families + int(family_index)


def decode_kind(kind: int, n_families: int) -> tuple[int, int]:
    """(power, family index) of a column kind."""
    power, f = divmod(int(kind), n_families)
    return power, f


def canonical_family(
    family: Family, beta: float, searched: Sequence[Family]
) -> tuple[Family, float]:
    """The family a term of ``family`` at ``beta`` is written in, and the factor ``r`` of its
    coefficient: the first searched family, in the precedence of :data:`ALL_FAMILIES`, whose
    operator at ``beta`` is ``X^{(family)}_beta / r`` (``family`` itself if no earlier one)."""
    for g in ALL_FAMILIES:
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
        return encode_kind(power, self.families.index(family), len(self.families))

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

    def columns_of_powers(self, kinds: tuple[int, ...], betas: Array) -> list[Array]:
        """``[columns(k, betas) for k in kinds]``, each family's columns by its part's
        ``columns_of_powers`` where it has one (one ``X_beta u`` for all its powers)."""
        out: dict[int, Array] = {}
        for f, part in enumerate(self.parts):
            mine = [k for k in kinds if decode_kind(k, len(self.families))[1] == f]
            powers = tuple(decode_kind(k, len(self.families))[0] for k in mine)
            shared = getattr(part, "columns_of_powers", None)
            if shared is not None and mine:
                blocks = shared(powers, betas)
            else:
                blocks = [part.columns(p, betas) for p in powers]
            out.update(zip(mine, (np.asarray(b) for b in blocks), strict=True))
        return [out[k] for k in kinds]

    def profile_rows(self, mode: Mode, alpha: float, vectors: Array) -> Array:
        """``vectors`` profiled as ``parts[0]`` profiles its own (the families share the field,
        the tests and the target)."""
        profile = getattr(self.parts[0], "profile_rows", None)
        return vectors if profile is None else np.asarray(profile(mode, alpha, vectors))

    @property
    def field_source(self) -> FeatureSource:
        """The feature source of the shared field and test functions (the first family's):
        what a known forcing field is projected on
        (:func:`weakpareto.library.forcing.weak_forcing_column`)."""
        return self.parts[0]


def term_kind(source: FeatureSource, power: int, family: str) -> int:
    """The column index of a term of ``power`` in ``family`` on ``source``: its (power, family)
    column kind on a family library (:func:`families_of`), the power on any other source."""
    try:
        families = families_of(source)
    except ValueError:
        return int(power)
    return encode_kind(power, families.index(family), len(families))


def families_of(source: FeatureSource) -> tuple[Family, ...]:
    """The families of a family library, of the family libraries a pooled source stacks, or of
    the library under known forcing."""
    if isinstance(source, ForcedSource):
        return families_of(source.base)
    parts = source.parts if isinstance(source, PooledSource) else (source,)
    libraries = [p for p in parts if isinstance(p, FamilyLibrary)]
    if len(libraries) != len(parts):
        raise ValueError("expected a FamilyLibrary or a PooledSource of FamilyLibraries")
    found = {p.families for p in libraries}
    if len(found) != 1:
        raise ValueError(f"pooled experiments hold different families: {sorted(found)}")
    return found.pop()


def restrict_families(source: FeatureSource, families: Sequence[Family]) -> FeatureSource:
    """``source`` (a family library, several pooled, or one under known forcing) in a subset of
    its families; with one family the family's own feature source(s), so the run is exactly a
    single-family run."""
    families_of(source)  # validates the shape of the source
    if isinstance(source, ForcedSource):  # the forcing's columns are the shared tests'
        return dataclasses.replace(source, base=restrict_families(source.base, families))
    if isinstance(source, PooledSource):
        return PooledSource(tuple(restrict_families(p, families) for p in source.parts))
    assert isinstance(source, FamilyLibrary)
    restricted = source.restrict(families)
    return restricted.parts[0] if len(restricted.families) == 1 else restricted


@dataclass
class TemperedWeakLibrary(WeakLibrary):
    """:class:`WeakLibrary` of a tempered family (``operator`` in
    :data:`weakpareto.numerics.tempered.TEMPERED_KINDS`) at the tempering ``lambda`` (in the
    units of x): the same rows, with the tempered multiplier ``s(kappa)`` on the field and its
    conjugate on the spatial tests (paper Eqs. 10-12: ``theta_k = <u, X_beta^* phi_k>_h``)."""

    tempering: float = 1.0

    def multiplier(self, betas: Array) -> Array:
        """``s_beta(kappa)`` of the family at every order, ``(G, nx)``."""
        betas = np.atleast_1d(np.asarray(betas, dtype=float))
        kind = str(self.operator)
        return np.asarray(tempered_spectral_multiplier(kind, self._kappa(), betas, self.tempering))

    def spatial_apply(self, f: Array, betas: Array) -> Array:
        """``X_beta f = Re IFFT(s_beta FFT f)`` along the last axis: ``(G,) + f.shape``."""
        mult = self.multiplier(betas)
        return ops.apply_multiplier(
            f[None], mult.reshape((-1,) + (1,) * (f.ndim - 1) + (f.shape[-1],))
        )

    def spatial_adjoint_tests(self, betas: Array) -> Array:
        """``X_beta^* psi_l = Re IFFT(conj(s_beta) FFT psi_l)``: ``(G, K_x, nx)``."""
        mult = self.multiplier(betas)
        return ops.apply_multiplier_adjoint(self.spatial_tests[None], mult[:, None, :])

    def field_apply(self, betas: Array) -> Array:
        """``X_beta u`` of the field for every order, ``(G, nt, nx)`` (its spectrum cached)."""
        spectrum = self._cache.get("u_spectrum")
        if spectrum is None:
            spectrum = self._cache["u_spectrum"] = ops.forward_spectrum(self.u[None])
        mult = self.multiplier(betas)
        return ops.inverse_spectrum(mult[:, None, :] * spectrum)


@dataclass
class TemperedExactLibrary(TemperedWeakLibrary, ExactTimeWeakLibrary):
    """The exact-time library (:mod:`weakpareto.library.weak_exact`) of a tempered family."""


@dataclass
class TemperedSampledLibrary(TemperedWeakLibrary, SampledExactLibrary):
    """The sampled exact-time library (:mod:`weakpareto.library.weighted_time`) of a tempered
    family."""


#: The tempered library of each periodic base library type (exact types: a subclass with
#: overrides of its own is refused rather than silently losing them).
_TEMPERED_TYPES: dict[type, type[TemperedWeakLibrary]] = {
    WeakLibrary: TemperedWeakLibrary,
    ExactTimeWeakLibrary: TemperedExactLibrary,
    SampledExactLibrary: TemperedSampledLibrary,
    TemperedWeakLibrary: TemperedWeakLibrary,
    TemperedExactLibrary: TemperedExactLibrary,
    TemperedSampledLibrary: TemperedSampledLibrary,
}


def tempered_copy(base: WeakLibrary, family: Family, tempering: float) -> TemperedWeakLibrary:
    """``base`` (the same field, tests and target) in a tempered family at ``tempering``."""
    if family not in TEMPERED_KINDS:
        raise ValueError(f"{family!r} is not a tempered family ({', '.join(TEMPERED_KINDS)})")
    if not (np.isfinite(tempering) and tempering > 0.0):
        raise ValueError(f"the tempering lambda must be a finite number > 0, got {tempering}")
    cls = _TEMPERED_TYPES.get(type(base))
    if cls is None:
        raise ValueError(f"tempered families need a periodic weak library, got {type(base)}")
    values = {f.name: getattr(base, f.name) for f in dataclasses.fields(base) if f.init}
    values.update(operator=family, tempering=float(tempering), _cache={})
    return cls(**values)


def family_library(
    u: Array,
    t: Array,
    x: Array,
    families: Sequence[Family],
    *,
    tempering: float | None = None,
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
    return with_families(base, families, tempering)


def with_families(
    base: WeakLibrary, families: Sequence[Family], tempering: float | None = None
) -> FamilyLibrary:
    """A periodic weak library (the L1 one, or the exact-time one of
    :mod:`weakpareto.library.weak_exact`) in several families: copies differing only in their
    operator, so they share the field, the test functions and the target. A bounded-window
    library is refused: its columns are not periodic multipliers. The tempered families need
    ``tempering`` (lambda > 0, in the units of x; :func:`tempered_copy`)."""
    if isinstance(base, BoundedWeakLibrary):
        raise ValueError("operator families need a periodic domain; got a bounded-window library")
    chosen = check_families(families)
    if tempering is None and any(f in TEMPERED_KINDS for f in chosen):
        raise ValueError(f"the tempered families of {list(chosen)} need a tempering lambda > 0")
    return FamilyLibrary(chosen, tuple(_family_part(base, f, tempering) for f in chosen))


def _family_part(base: WeakLibrary, family: Family, tempering: float | None) -> WeakLibrary:
    """``base`` in one family: a copy with its operator (a tempered family at ``tempering``)."""
    if family in TEMPERED_KINDS:
        assert tempering is not None  # checked by with_families
        return tempered_copy(base, family, tempering)
    return dataclasses.replace(base, operator=cast(ops.SpectralKind, family), _cache={})


def retempered(source: FeatureSource, tempering: float) -> FeatureSource:
    """``source`` (a family library, or several pooled) with every tempered part at
    ``tempering``; the other parts are kept as they are (their caches too)."""
    if isinstance(source, PooledSource):
        return PooledSource(tuple(retempered(p, tempering) for p in source.parts))
    if not isinstance(source, FamilyLibrary):
        raise ValueError("expected a FamilyLibrary or a PooledSource of FamilyLibraries")
    parts = tuple(
        tempered_copy(p, f, tempering) if isinstance(p, TemperedWeakLibrary) else p
        for f, p in zip(source.families, source.parts)
    )
    return FamilyLibrary(source.families, parts)
