"""The registry of feature sources: what the regression of a fit is built from.

A feature source (:class:`weakpareto.library.gram.FeatureSource`) turns a field into the
temporal targets and spatial feature columns of the weak (or pointwise) equations. Which one a
fit uses follows from the spec and the data (:func:`source_name`); every name of
:data:`FEATURE_SOURCES` builds one from a :class:`FitField` and a :class:`FitSpec`:

* ``periodic_l1``: Gaussian or Fourier tests, the transposed L1 Caputo matrix in time
  (paper Eqs. 9-13; :func:`weakpareto.library.weak.weak_library`);
* ``periodic_exact``: the Caputo derivative moved exactly onto compactly supported polynomial
  bumps in time (ours; :func:`weakpareto.library.weak_exact.exact_time_weak_library`);
* ``bounded``: a window of a larger system, compact tests inside it
  (:func:`weakpareto.library.weak_bounded.bounded_weak_library`);
* ``two_d``: separable t/x/y Gaussian tests (:func:`weakpareto.library.weak_2d.weak_library_2d`);
* ``pointwise``: the strong form on the trimmed grid (the paper's Strong-Pareto comparator;
  :func:`weakpareto.library.strong.pointwise_library`).

Several experiments of one equation (:class:`Experiments`) build the same named source for every
experiment and stack their rows (:class:`weakpareto.library.pooled.PooledSource`); each data type
builds its own source (:meth:`FitField.build`, :meth:`Experiments.build`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import cast

from weakpareto._typing import Array, BoolArray
from weakpareto.errors import UserInputError
from weakpareto.fit.spec import FitSpec
from weakpareto.library.families import with_families
from weakpareto.library.forcing import Forcing, forced_source
from weakpareto.library.gram import FeatureSource
from weakpareto.library.history import history_source
from weakpareto.library.pooled import PooledSource
from weakpareto.library.strong import pointwise_library
from weakpareto.library.weak import PowerMode, WeakLibrary, weak_library
from weakpareto.library.weak_2d import weak_library_2d
from weakpareto.library.weak_bounded import bounded_weak_library
from weakpareto.library.weak_exact import ExactTimeWeakLibrary, exact_time_weak_library
from weakpareto.library.weighted_time import sampled_exact_library
from weakpareto.numerics.operators import SpectralKind


@dataclass(frozen=True)
class FitField:
    """The (already noisy) field of one fit on uniform grids.

    ``period`` is the x period of a periodic domain (``nx * dx`` when the grid excludes the
    repeated endpoint); ``period_given`` says whether the caller stated it (``domain=auto``
    then means periodic)."""

    u: Array
    t: Array
    x: Array
    y: Array | None = None
    period: float | None = None
    period_y: float | None = None
    period_given: bool = True
    #: Known forcing fields on this grid (:mod:`weakpareto.library.forcing`).
    forcing: tuple[Forcing, ...] = ()
    #: Samples not taken (bool ``(nt, nx)``, their values in ``u`` a fill) and whether ``t``
    #: has irregular steps: the sampled quadrature of :mod:`weakpareto.library.weighted_time`.
    missing: BoolArray | None = None
    irregular_t: bool = False

    @property
    def two_d(self) -> bool:
        return self.y is not None

    @property
    def sampled(self) -> bool:
        """Irregular times or missing samples (only the exact periodic target takes them)."""
        return self.irregular_t or self.missing is not None

    @property
    def fields(self) -> tuple[FitField, ...]:
        """The experiments of the data: this field alone."""
        return (self,)

    def build(self, builder: SourceBuilder, spec: FitSpec, power_mode: PowerMode) -> FeatureSource:
        """The feature source of this field."""
        return builder(self, spec, power_mode)


@dataclass(frozen=True)
class Experiments:
    """Several experiments of one equation, each a :class:`FitField` with its own grid, length
    and initial condition, fitted as one equation on their pooled weak rows."""

    fields: tuple[FitField, ...]

    def __post_init__(self) -> None:
        if len(self.fields) < 2:
            raise ValueError(f"Experiments needs >= 2 fields, got {len(self.fields)}")
        if len({f.two_d for f in self.fields}) != 1:
            raise ValueError("experiments must share their number of spatial dimensions")

    @property
    def two_d(self) -> bool:
        return self.fields[0].two_d

    def build(self, builder: SourceBuilder, spec: FitSpec, power_mode: PowerMode) -> FeatureSource:
        """The source of every experiment, rows stacked in experiment order."""
        return PooledSource(tuple(builder(f, spec, power_mode) for f in self.fields))


#: The data of one fit: one field, or several experiments of one equation.
FitData = FitField | Experiments

SourceBuilder = Callable[[FitField, FitSpec, PowerMode], FeatureSource]


def single_field(data: FitData, method: str) -> FitField:
    """The field of one-experiment data (method kinds without a pooled implementation are
    refused earlier, :func:`weakpareto.fit.kinds.check_supported`)."""
    if isinstance(data, Experiments):
        raise ValueError(f"method={method} fits one experiment at a time")
    return data


def _common(field: FitField, spec: FitSpec, power_mode: PowerMode) -> dict[str, object]:
    return dict(
        operator=spec.discovery.operator,
        power_mode=power_mode,
        period=field.period,
        spatial_tests=spec.test_functions,
        test_counts=spec.test_counts,
        budget=spec.test_budget,
    )


def _families(library: WeakLibrary, spec: FitSpec) -> FeatureSource:
    """The library itself, or (``operator=auto``, tempered families) its features in every
    family of the spec, the tempered ones at ``spec.tempering``."""
    if not spec.families:
        return library
    if spec.tempered and spec.tempering is None:
        raise UserInputError(
            "the tempered families need tempering= (lambda > 0 in 1/x units) here; WeakPareto "
            "and wp discover estimate it when it is not given"
        )
    return with_families(library, spec.families, spec.tempering)


def periodic_l1(field: FitField, spec: FitSpec, power_mode: PowerMode) -> FeatureSource:
    library = weak_library(field.u, field.t, field.x, **_common(field, spec, power_mode))  # type: ignore[arg-type]
    return _families(library, spec)


def periodic_exact(field: FitField, spec: FitSpec, power_mode: PowerMode) -> FeatureSource:
    if field.sampled:
        sampled = sampled_exact_library(
            field.u,
            field.t,
            field.x,
            missing=field.missing,
            **_common(field, spec, power_mode),  # type: ignore[arg-type]
            **spec.feature_settings.library_options(),
        )
        return _families(sampled, spec)
    library = exact_time_weak_library(
        field.u,
        field.t,
        field.x,
        **_common(field, spec, power_mode),  # type: ignore[arg-type]
        **spec.feature_settings.library_options(),
    )
    return _families(library, spec)


def bounded(field: FitField, spec: FitSpec, power_mode: PowerMode) -> FeatureSource:
    if spec.test_functions != "gaussian":
        raise UserInputError(
            f"test_functions={spec.test_functions!r} needs a periodic domain; bounded domains "
            "use compactly supported tests (drop test_functions= or use domain=periodic)"
        )
    return bounded_weak_library(
        field.u,
        field.t,
        field.x,
        operator=spec.discovery.operator,
        beta_max=spec.discovery.beta_range[1],
        power_mode=power_mode,
        test_counts=cast("tuple[int, int] | None", spec.test_counts),
    )


def two_d(field: FitField, spec: FitSpec, power_mode: PowerMode) -> FeatureSource:
    assert field.y is not None
    counts = spec.test_counts
    if counts is not None and len(counts) != 3:
        raise UserInputError(f"2-D test_counts must be [K_t, K_x, K_y], got {list(counts)}")
    return weak_library_2d(
        field.u,
        field.t,
        field.x,
        field.y,
        operator=cast(SpectralKind, spec.discovery.operator),  # checked by WeakLibrary2D
        period=field.period,
        period_y=field.period_y,
        test_counts=cast("tuple[int, int, int] | None", counts),
        budget=spec.test_budget,
        width_fraction=spec.width_fraction,
    )


def pointwise(field: FitField, spec: FitSpec, power_mode: PowerMode) -> FeatureSource:
    return pointwise_library(
        field.u,
        field.t,
        field.x,
        operator=spec.discovery.operator,
        power_mode=power_mode,
        trim_t=spec.trim[0],
        trim_x=spec.trim[1],
        period=field.period,
    )


#: Every feature source by name.
FEATURE_SOURCES: Mapping[str, SourceBuilder] = MappingProxyType(
    {
        "periodic_l1": periodic_l1,
        "periodic_exact": periodic_exact,
        "bounded": bounded,
        "two_d": two_d,
        "pointwise": pointwise,
    }
)


def source_name(spec: FitSpec, two_dims: bool, domain: str) -> str:
    """The feature source of a spec on data of the chosen domain (raises ``UserInputError``
    where the combination has no implementation)."""
    if spec.features == "pointwise":  # 1-D periodic only (weakpareto.fit.kinds.check_supported)
        return "pointwise"
    if two_dims:
        return "two_d"
    if domain == "bounded":
        return "bounded"
    return "periodic_exact" if spec.feature_settings.temporal_target == "exact" else "periodic_l1"


def build_source(
    data: FitData, spec: FitSpec, domain: str, power_mode: PowerMode
) -> tuple[str, FeatureSource]:
    """The name and the feature source of a fit (several experiments: the named source of each,
    pooled; known forcing: the source with it, :func:`weakpareto.library.forcing.forced_source`)."""
    name = source_name(spec, data.two_d, domain)
    if name != "periodic_exact" and any(f.sampled for f in data.fields):
        raise UserInputError(sampling_refusal(name, data.fields))
    source = data.build(FEATURE_SOURCES[name], spec, power_mode)
    if spec.history == "unknown" and isinstance(source, ExactTimeWeakLibrary):
        return name, history_source(source)  # supported cases: weakpareto.fit.history
    if isinstance(data, FitField) and data.forcing:  # searched with the forcing terms in
        try:
            return name, forced_source(source, data.forcing)
        except TypeError:
            raise UserInputError(
                f"known forcing (forcing=) has no weak column on the {name} features (uniform, "
                "complete periodic samples only); fit without forcing="
            ) from None
    return name, source


def sampling_refusal(name: str, fields: tuple[FitField, ...]) -> str:
    """The one-line refusal of irregular or incomplete samples by a source without them."""
    what = "irregular t" if any(f.irregular_t for f in fields) else "missing samples (gaps, masks)"
    where = {"bounded": "a bounded domain", "two_d": "2-D data"}.get(name, f"the {name} target")
    return (
        f"{what} need method=weak_pareto_exact on a 1-D periodic domain ({where} has no sampled "
        "quadrature); pass method=weak_pareto_exact domain=periodic, or resample onto a complete "
        "uniform grid"
    )
