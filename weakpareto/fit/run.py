"""``fit(field, spec) -> FitOutcome``: the one path from a field and a spec to a result.

1. the domain (:func:`weakpareto.fit.domain.choose_domain`: the spec's request, or the data's
   periodicity for ``domain=auto``);
2. the method kind, refused with a one-line reason where it cannot fit these data
   (:func:`weakpareto.fit.kinds.check_supported`);
3. the components of the method that apply here (:func:`applicable`: the exact time target and
   noise-aware scoring are 1-D periodic only; a note says where they were not used);
4. ``power_mode=auto`` resolved on the field; the kind runs on its feature source
   (:mod:`weakpareto.fit.sources`).

Several experiments of one equation (:class:`~weakpareto.fit.sources.Experiments`) share one
domain (:func:`weakpareto.fit.domain.choose_common_domain`) and one power mode (resolved on all
of them) and are fitted on their pooled weak rows (:mod:`weakpareto.library.pooled`).

:func:`bootstrap_fit` resamples the weak equations of an outcome with the settings the fit's
selection used. ``wp run`` (:mod:`weakpareto.campaign.compute`) and ``WeakPareto``/``wp
discover`` (:mod:`weakpareto.user.estimator`) both call these two functions.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import cast

import numpy as np

from weakpareto.fit.checks import FitWarning
from weakpareto.fit.domain import DomainChoice, choose_common_domain, choose_domain, method_notes
from weakpareto.fit.forcing import (
    check_forcing_supported,
    finish_forcing,
    forcing_applicable,
    forcing_of,
)
from weakpareto.fit.history import check_history_supported, finish_history, history_applicable
from weakpareto.fit.history_onset import finish_history_onset
from weakpareto.fit.intrinsic import check_intrinsic_supported, finish_intrinsic
from weakpareto.fit.kinds import MethodKind, ProgressFn, check_supported
from weakpareto.fit.sampling import sampling_notes
from weakpareto.fit.sources import Experiments, FitData
from weakpareto.fit.spec import FitSpec, PowerModeRequest
from weakpareto.fit.trajectory import check_trajectory_supported, data_reason, finish_trajectory
from weakpareto.library.forcing import ForcedSource
from weakpareto.library.gram import FeatureSource
from weakpareto.library.history import HistorySource
from weakpareto.library.weak import PowerMode
from weakpareto.method.intervals import EquationBootstrap, bootstrap_equation
from weakpareto.records import DiscoveryResult

#: Tolerance (relative to max |u|) under which a slightly negative minimum still counts as a
#: nonnegative field for ``power_mode="auto"`` (spectral round-off, e.g. -1e-15 on FADE).
NONNEG_RTOL = 1e-8


@dataclass(frozen=True)
class FitOutcome:
    """One fit: its result and everything it was computed with."""

    result: DiscoveryResult
    spec: FitSpec  # as applied (components that do not apply to the data removed)
    domain: DomainChoice
    power_mode: PowerMode
    source: FeatureSource | None  # None when the method kind builds its own features
    source_name: str
    two_d: bool
    resamplable: bool  # weak equations a bootstrap can resample
    notes: tuple[FitWarning, ...] = ()
    n_experiments: int = 1
    refit_asked: str = "weak"  # ``refit=`` as given (``spec.refit``: as applied)


def resolve_power_mode(
    power_mode: PowerModeRequest | str, u: np.ndarray | tuple[np.ndarray, ...]
) -> PowerMode:
    """``auto`` -> ``positive`` for a nonnegative field (every field of several experiments),
    ``raw`` otherwise."""
    if power_mode != "auto":
        return cast(PowerMode, power_mode)
    fields = u if isinstance(u, tuple) else (u,)
    scale = max(float(np.max(np.abs(f))) for f in fields)
    low = min(float(np.min(f)) for f in fields)
    return "positive" if low >= -NONNEG_RTOL * scale else "raw"


def applicable(
    spec: FitSpec, two_d: bool, domain: str, n_experiments: int = 1
) -> tuple[FitSpec, list[FitWarning]]:
    """The spec with the components removed that have no implementation on these data, and the
    notes that say so (the method's spec notes first)."""
    notes = [FitWarning("method_settings", text, "info") for text in spec.notes]
    exact = spec.feature_settings.temporal_target == "exact"
    notes += method_notes(spec.method, exact, two_d, domain)
    noise_aware = spec.discovery.noise_model != "none"
    if noise_aware and n_experiments > 1 and not two_d:
        # the noise covariance is estimated for one field's tests (method/noise_correction.py)
        notes.append(
            FitWarning(
                "method_components",
                f"the noise-aware scoring of method={spec.method} models one field's noise: "
                f"with {n_experiments} experiments the search scores the pooled weak rows "
                "without it (the exact time target is kept)",
                "info",
            )
        )
    # bounded windows: the covariance describes periodic tests; scored with it, integer orders
    # of a window drift off the integers (KdV 5 %: e_beta 0.0145 against 0.0000 without it)
    bounded = domain == "bounded"
    if noise_aware and (two_d or bounded or n_experiments > 1):
        spec = dataclasses.replace(
            spec, discovery=dataclasses.replace(spec.discovery, noise_model="none")
        )
    return spec, notes


def with_fit_ridge(spec: FitSpec, result: DiscoveryResult) -> FitSpec:
    """The spec with the search ridge the fit used (set from the noise level by a noise model,
    :func:`weakpareto.method.noise_correction.noise_ridge`), so every later refit, probe and
    bootstrap of the result uses the same."""
    if result.search_ridge is None or result.search_ridge == spec.discovery.search.ridge:
        return spec
    search = dataclasses.replace(spec.discovery.search, ridge=result.search_ridge)
    return dataclasses.replace(spec, discovery=dataclasses.replace(spec.discovery, search=search))


def start_term_notes(spec: FitSpec, source_name: str, result: DiscoveryResult) -> list[FitWarning]:
    """A warning when a super-unit model was fitted with the L1 time target: its start terms
    (u(0), u'(0)) are those of a polynomial, while a Caputo solution starts like t^alpha, which
    biases alpha (docs/method/extensions.md#caputo-start-terms)."""
    eq = result.final
    if eq.mode != "sup" or spec.features != "weak" or source_name == "periodic_exact":
        return []
    if "trajectory_modes" in result.timings:  # refitted to the samples: no start terms read
        return []
    return [
        FitWarning(
            "superunit_start",
            f"alpha={eq.alpha:.4f} is super-unit and the paper's L1 time target reads the start "
            "of a Caputo solution (t^alpha) as a slope, which biased alpha by 0.06-0.2 on exact "
            "diffusion-wave solutions; refit with method=weak_pareto_exact, whose target fits "
            "the start by the solution's expansion (docs/method/extensions.md#caputo-start-terms)",
        )
    ]


def data_domain(requested: str, data: FitData) -> DomainChoice:
    """The domain of one field, or the common domain of several experiments."""
    if isinstance(data, Experiments):
        fields = [(f.u, f.period_given) for f in data.fields]
        return choose_common_domain(requested, fields, data.two_d)
    return choose_domain(requested, data.u, data.period_given, data.two_d)


@dataclass(frozen=True)
class FitPlan:
    """What a fit of these data will run, decided before any computation (:func:`plan_fit`)."""

    spec: FitSpec  # components that do not apply to the data removed
    domain: DomainChoice
    kind: MethodKind
    notes: tuple[FitWarning, ...]
    n_experiments: int


def plan_fit(data: FitData, spec: FitSpec, rescaled: bool = False) -> FitPlan:
    """Steps 1-3 of the module docstring: the domain, the method kind and the applicable spec of
    a fit of ``data``, or the one-line ``UserInputError`` it is refused with (nothing computed
    from the field but its domain)."""
    n_exp = len(data.fields)
    choice = data_domain(spec.domain, data)
    kind = check_supported(spec, data.two_d, choice.domain, rescaled, n_exp)
    spec, notes = applicable(spec, data.two_d, choice.domain, n_exp)
    if forcing_of(data):
        check_forcing_supported(spec, data, choice.domain)
        spec, forcing_notes = forcing_applicable(spec)
        notes += forcing_notes
    if spec.noise_kind == "intrinsic":
        check_intrinsic_supported(spec, data, choice.domain)
    if spec.history != "none":
        check_history_supported(spec, data, choice.domain)
        spec, history_notes = history_applicable(spec)
        notes += history_notes
    if spec.refit == "trajectory":
        check_trajectory_supported(spec, data, choice.domain)
    elif spec.refit == "auto" and data_reason(spec, data, choice.domain) is not None:
        spec = dataclasses.replace(spec, refit="weak")  # where it is not defined: the weak one
    return FitPlan(spec, choice, kind, tuple(notes), n_exp)


def fit(
    data: FitData, spec: FitSpec, progress: ProgressFn | None = None, rescaled: bool = False
) -> FitOutcome:
    """Fit ``data`` (one field, or several experiments of one equation) with ``spec`` (module
    docstring); ``rescaled``: the data are in grid units (methods tied to fixed evaluation
    points are refused)."""
    plan = plan_fit(data, spec, rescaled)
    asked = spec.refit
    spec, choice, notes = plan.spec, plan.domain, list(plan.notes)
    power_mode = resolve_power_mode(spec.power_mode, tuple(f.u for f in data.fields))
    fitted = plan.kind.run(data, spec, choice.domain, power_mode, progress)
    spec = with_fit_ridge(spec, fitted.result)
    if isinstance(fitted.source, HistorySource):
        if spec.refit == "weak":
            result = finish_history(fitted.result, fitted.source, spec)
        else:
            result, onset_notes = finish_history_onset(
                fitted.result, fitted.source, spec, requested=spec.refit == "trajectory"
            )
            notes += onset_notes
        fitted = dataclasses.replace(fitted, result=result)
    if spec.noise_kind == "intrinsic" and fitted.source is not None:
        result, intrinsic_notes = finish_intrinsic(fitted.result, fitted.source, spec)
        fitted = dataclasses.replace(fitted, result=result)
        notes += intrinsic_notes
    if isinstance(fitted.source, ForcedSource):
        result, source = finish_forcing(
            fitted.result, fitted.source, forcing_of(data), spec.discovery
        )
        fitted = dataclasses.replace(fitted, result=result, source=source)
    # tempered families estimate lambda after the fit: their refit follows it (user/tempering)
    later = spec.history != "none" or spec.tempered
    if spec.refit != "weak" and fitted.source is not None and not later:
        result, refit_notes = finish_trajectory(
            fitted.result, fitted.source, spec, requested=spec.refit == "trajectory"
        )
        fitted = dataclasses.replace(fitted, result=result)
        notes += refit_notes
    return FitOutcome(
        result=fitted.result,
        spec=spec,
        domain=choice,
        power_mode=power_mode,
        source=fitted.source,
        source_name=fitted.source_name,
        two_d=data.two_d,
        resamplable=plan.kind.resamplable and spec.features == "weak" and fitted.source is not None,
        notes=tuple(
            choice.notes()
            + notes
            + start_term_notes(spec, fitted.source_name, fitted.result)
            + sampling_notes(fitted.source)
        ),
        n_experiments=plan.n_experiments,
        refit_asked=asked,
    )


def bootstrap_fit(outcome: FitOutcome, n_boot: int, level: float) -> EquationBootstrap:
    """Block bootstrap of an outcome's selected equation on its weak equations, reselecting
    among the front's models with the fit's own gain floor."""
    if not outcome.resamplable or outcome.source is None:
        raise ValueError(f"method {outcome.spec.method!r} has no weak equations to resample")
    res = outcome.result
    front = [fp.equation for fp in res.front]
    return bootstrap_equation(
        outcome.source,
        res.final,
        front,
        outcome.spec.discovery,
        outcome.two_d,
        n_boot,
        level,
        gain_floor=res.gain_floor,
    )
