"""The registry of method kinds: what a fit computes on its field (``method.kind``).

Each :class:`MethodKind` says which data it can fit (2-D, bounded windows, several experiments
of one equation) and runs on a :class:`~weakpareto.fit.sources.FitField` (or, if ``pooled``,
on :class:`~weakpareto.fit.sources.Experiments`); a kind that cannot fit the data is refused up
front with a one-line reason (:func:`check_supported`), at both doors alike.

* ``pareto``: the paper's method (Algorithm 1) on the spec's feature source
  (:func:`weakpareto.method.discovery.discover`, 2-D :func:`~weakpareto.method.discovery_2d.
  discover_2d`); on a bounded window orders next to an integer are snapped to it when the
  exact integer model fits as well (:func:`weakpareto.fit.domain.snap_integer_orders`);
* ``grid_stridge`` and ``fixed_stability``: the paper's Weak Grid-STRidge ablation and its
  stability variant (:mod:`weakpareto.baselines.grid_stridge`);
* ``yu_spline`` and ``yu_neural``: Yu et al.'s pipeline on a spline or neural reconstruction
  (:mod:`weakpareto.baselines.yu_spline`, :mod:`weakpareto.baselines.yu_neural`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from weakpareto.baselines.grid_stridge import (
    fixed_dictionary_stability,
    grid_stridge,
    scaled_weak_library,
    settings_from_method,
)
from weakpareto.baselines.yu_core import settings_from_method as yu_settings_from_method
from weakpareto.errors import UserInputError
from weakpareto.fit.domain import snap_integer_orders
from weakpareto.fit.sources import FitData, FitField, build_source, single_field
from weakpareto.fit.spec import FitSpec
from weakpareto.library.gram import FeatureSource
from weakpareto.library.weak import PowerMode
from weakpareto.method.discovery import discover
from weakpareto.method.discovery_2d import discover_2d
from weakpareto.method.discovery_families import discover_families
from weakpareto.records import DiscoveryResult

ProgressFn = Callable[[str], None]


@dataclass(frozen=True)
class Fitted:
    """A method kind's output: the result, its feature source (None when the kind builds its
    own) and the source's name."""

    result: DiscoveryResult
    source: FeatureSource | None = None
    source_name: str = ""


Runner = Callable[[FitData, FitSpec, str, PowerMode, "ProgressFn | None"], Fitted]


@dataclass(frozen=True)
class MethodKind:
    """One kind of method: how it runs and which data it supports."""

    name: str
    run: Runner
    two_d: bool = False
    bounded: bool = False
    #: Its equations are weak equations a block bootstrap can resample.
    resamplable: bool = False
    #: Its result does not depend on the units of t and x (a door that rescales the data, as
    #: ``WeakPareto`` does, can use it); False for methods tied to fixed evaluation points.
    unit_free: bool = True
    #: It fits one equation to several experiments at once (their pooled weak rows).
    pooled: bool = False


def _pareto(
    data: FitData, spec: FitSpec, domain: str, power_mode: PowerMode, progress: ProgressFn | None
) -> Fitted:
    name, source = build_source(data, spec, domain, power_mode)
    if data.two_d:
        return Fitted(discover_2d(source, spec.discovery, progress), source, name)
    if spec.families:
        return Fitted(discover_families(source, spec.discovery, None, progress), source, name)
    result = discover(source, spec.discovery, progress)
    if name == "bounded":
        result = snap_integer_orders(source, result, spec.discovery)
    return Fitted(result, source, name)


def _stridge_kwargs(field: FitField, spec: FitSpec, power_mode: PowerMode) -> dict[str, Any]:
    return dict(
        power_mode=power_mode,
        period=field.period,
        spatial_tests=spec.test_functions,
        test_counts=spec.test_counts,
        budget=spec.test_budget,
    )


def _grid_stridge(
    data: FitData, spec: FitSpec, domain: str, power_mode: PowerMode, progress: ProgressFn | None
) -> Fitted:
    field = single_field(data, spec.method)
    lib = scaled_weak_library(
        field.u,
        field.t,
        field.x,
        operator=spec.discovery.operator,
        width_scale=1.0,
        **_stridge_kwargs(field, spec, power_mode),
    )
    return Fitted(grid_stridge(lib, spec.discovery, settings_from_method(spec.options)))


def _fixed_stability(
    data: FitData, spec: FitSpec, domain: str, power_mode: PowerMode, progress: ProgressFn | None
) -> Fitted:
    field = single_field(data, spec.method)
    fit = fixed_dictionary_stability(
        field.u,
        field.t,
        field.x,
        spec.discovery,
        settings=settings_from_method(spec.options),
        **_stridge_kwargs(field, spec, power_mode),
    )
    return Fitted(fit.result)


def _yu_spline(
    data: FitData, spec: FitSpec, domain: str, power_mode: PowerMode, progress: ProgressFn | None
) -> Fitted:
    field = single_field(data, spec.method)
    from weakpareto.baselines.yu_spline import yu_spline

    settings = yu_settings_from_method(spec.options)
    return Fitted(yu_spline(field.u, field.t, field.x, spec.seed, settings, progress))


def _yu_neural(
    data: FitData, spec: FitSpec, domain: str, power_mode: PowerMode, progress: ProgressFn | None
) -> Fitted:
    field = single_field(data, spec.method)
    from weakpareto.baselines.yu_neural import neural_settings_from_method, yu_neural

    settings = yu_settings_from_method(spec.options)
    neural = neural_settings_from_method(spec.options)
    return Fitted(yu_neural(field.u, field.t, field.x, spec.seed, settings, neural, progress))


#: Every method kind by name (``method.kind`` of ``conf/method/*.yaml``).
METHOD_KINDS: Mapping[str, MethodKind] = MappingProxyType(
    {
        "pareto": MethodKind(
            "pareto", _pareto, two_d=True, bounded=True, resamplable=True, pooled=True
        ),
        "grid_stridge": MethodKind("grid_stridge", _grid_stridge),
        "fixed_stability": MethodKind("fixed_stability", _fixed_stability),
        "yu_spline": MethodKind("yu_spline", _yu_spline, unit_free=False),
        "yu_neural": MethodKind("yu_neural", _yu_neural, unit_free=False),
    }
)


def check_supported(
    spec: FitSpec, two_dims: bool, domain: str, rescaled: bool = False, n_experiments: int = 1
) -> MethodKind:
    """The spec's kind, or a one-line ``UserInputError`` naming what it cannot fit
    (``rescaled``: the door fits the data in grid units; ``n_experiments``: how many
    experiments are fitted as one equation)."""
    kind = METHOD_KINDS[spec.kind]
    if n_experiments > 1 and not (kind.pooled and spec.features == "weak"):
        raise UserInputError(
            f"method={spec.method} fits one experiment at a time; fit {n_experiments} "
            "experiments together with a weak Pareto method (e.g. method=weak_pareto_robust)"
        )
    if rescaled and not kind.unit_free:
        raise UserInputError(
            f"method={spec.method} evaluates at fixed points of the FADE benchmark's grid "
            f"(t and x in its units), not on data of your own: run it with wp run "
            f"benchmark=fade method={spec.method}, or use a weak method here"
        )
    if spec.features == "pointwise" and (two_dims or domain != "periodic"):
        raise UserInputError(
            f"method={spec.method} (pointwise features) is 1-D periodic only; use a weak "
            "method (e.g. method=weak_pareto) for 2-D data or a bounded window"
        )
    if two_dims and not kind.two_d:
        raise UserInputError(
            f"method={spec.method} has no 2-D implementation; fit 2-D data with a Pareto "
            "method, e.g. method=weak_pareto"
        )
    if domain == "bounded" and not kind.bounded:
        raise UserInputError(
            f"method={spec.method} is periodic only; fit a bounded window with a Pareto method "
            "(e.g. method=weak_pareto_robust) or pass domain=periodic"
        )
    if spec.families and (spec.kind != "pareto" or spec.features != "weak"):
        raise UserInputError(
            f"operator=auto chooses each term's family in the weak Pareto search; method="
            f"{spec.method} fits one family: give operator=directional or operator=riesz"
        )
    if spec.families and (two_dims or domain != "periodic"):
        where = "2-D data" if two_dims else "a bounded window"
        raise UserInputError(
            f"operator=auto is 1-D periodic only; for {where} give operator=directional or "
            "operator=riesz"
        )
    if spec.families and spec.uncertainty is not None:
        raise UserInputError(
            "uncertainty=bootstrap resamples one operator family; fit with operator=auto "
            "first, then with uncertainty and the operator it found (directional or riesz)"
        )
    if spec.uncertainty is not None and not (kind.resamplable and spec.features == "weak"):
        raise UserInputError(
            f"uncertainty=bootstrap resamples the weak equations; method={spec.method} has "
            "none: use a weak method (e.g. method=weak_pareto) or uncertainty=null"
        )
    return kind
