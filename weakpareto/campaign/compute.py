"""What turns a composed run config and a seed into a :class:`DiscoveryResult`, and nothing else.

Data → noise → feature source → discovery for one seed (:func:`discover_seed`), the typed
settings it reads (:func:`discovery_config`, :func:`noise_seed`) and the check that the result is
a usable number (:func:`check_result`). This module is part of the code hash that ties stored runs
to the code that made them (:mod:`weakpareto.campaign.provenance`): anything that changes what a
run computes belongs here or below (numerics … evaluation), never in the runner, the store or the
reporting, so that editing messages or tables does not invalidate cached runs.

Numerical failures the method can meet on some data (:data:`NUMERICAL_FAILURES`) become failed
rows with a reason (:func:`failure_reason`); anything else is a programming error and stops the
run (:mod:`weakpareto.campaign.runner`).
"""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np
from omegaconf import DictConfig, OmegaConf

from weakpareto.baselines.grid_stridge import (
    fixed_dictionary_stability,
    grid_stridge,
    scaled_weak_library,
    settings_from_method,
)
from weakpareto.baselines.yu_core import settings_from_method as yu_settings_from_method
from weakpareto.baselines.yu_neural import neural_settings_from_method, yu_neural
from weakpareto.baselines.yu_spline import yu_spline
from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.library.strong import pointwise_library
from weakpareto.library.weak import PowerMode, SpatialTests, weak_library
from weakpareto.library.weak_2d import weak_library_2d
from weakpareto.library.weak_exact import exact_time_weak_library
from weakpareto.method.discovery import discover
from weakpareto.method.discovery_2d import discover_2d
from weakpareto.method.intervals import EquationBootstrap, bootstrap_equation
from weakpareto.method.settings import (
    DiscoveryConfig,
    ElbowPoints,
    FeatureSettings,
    IntegerTest,
    RefineSettings,
    SearchSettings,
    SelectionRule,
    SelectionSettings,
    StabilityRule,
    Updating,
)
from weakpareto.numerics.mittag_leffler import MittagLefflerOverflowError
from weakpareto.numerics.operators import SpectralKind
from weakpareto.numerics.windows import Budget
from weakpareto.records import DiscoveryResult, OperatorKind


# -- typed settings ------------------------------------------------------------------------------
def _optional_float(v: Any) -> float | None:
    return None if v is None else float(v)


def discovery_config(cfg: DictConfig, seed: int) -> DiscoveryConfig:
    """Typed :class:`DiscoveryConfig` of a composed run config for one seed."""
    lib, s, sel, m = cfg.benchmark.library, cfg.search, cfg.selection, cfg.method
    features = method_features(cfg)
    return DiscoveryConfig(
        alpha_range=(float(lib.alpha_range[0]), float(lib.alpha_range[1])),
        beta_range=(float(lib.beta_range[0]), float(lib.beta_range[1])),
        powers=tuple(int(p) for p in lib.powers),
        c_max=int(s.c_max),
        operator=cast(OperatorKind, str(lib.operator)),  # checked in validate_library
        n_alpha_nodes=int(s.n_alpha_nodes),
        n_beta_nodes=int(s.n_beta_nodes),
        eps_alpha=float(s.eps_alpha),
        min_positive_order=features.min_positive_order,
        noise_model=features.noise_model,  # checked in schema
        seed=int(seed),
        search=SearchSettings(
            popsize=int(s.popsize),
            maxiter=int(s.maxiter),
            tol=float(s.tol),
            updating=cast(Updating, str(s.updating)),  # checked in validate_run
            vectorized=bool(s.vectorized),
            ridge=float(s.ridge),
            val_fraction=float(s.val_fraction),
            anchors=bool(s.anchors),
            max_anchors=int(s.max_anchors),
            dup_weight=float(s.dup_weight),
            dup_gap=float(s.dup_gap),
        ),
        selection=SelectionSettings(
            rule=cast(SelectionRule, str(sel.rule)),  # checked in validate_run
            margin=float(sel.margin),
            auto_stop=bool(sel.auto_stop),
            min_stop_size=int(sel.min_stop_size),
            plateau_tol=float(sel.plateau_tol),
            plateau_log_tol=float(sel.plateau_log_tol),
            patience=int(sel.patience),
            prune_contrib=float(sel.prune_contrib),
            prune_abs=float(sel.prune_abs),
            stability=cast(StabilityRule, str(sel.stability)),  # checked in validate_run
            elbow_points=cast(ElbowPoints, str(sel.elbow_points)),  # checked in validate_run
            explain_floor=_optional_float(sel.get("explain_floor", None)),
            refine_front=bool(sel.get("refine_front", False)),
            gain_floor=float(sel.get("gain_floor", 1e-8)),
        ),
        refine=RefineSettings(
            polish=bool(m.polish),
            refit=bool(m.refit),
            maxiter=int(m.polish_maxiter),
            xatol=float(m.polish_xatol),
            fatol=float(m.polish_fatol),
            trust_min=float(m.trust_min),
            ridge=_optional_float(m.get("refit_ridge", None)),
            integer_test=cast(IntegerTest, str(m.get("integer_test", "bound"))),
        ),
    )


def method_features(cfg: DictConfig) -> FeatureSettings:
    """The feature settings of a run config's method (absent keys: the paper's)."""
    method = OmegaConf.to_container(cfg.method, resolve=True)
    assert isinstance(method, dict)
    return FeatureSettings.of({str(k): v for k, v in method.items()})


def noise_seed(cfg: DictConfig, seed: int) -> int:
    """Seed of the noise RNG: the run seed plus ``benchmark.tuning.noise_seed_offset`` if set.

    The 2-D benchmarks draw their noise from ``default_rng(700 + seed)`` (spec §2).
    """
    tuning = cfg.benchmark.get("tuning", None) or {}
    offset = tuning.get("noise_seed_offset", None)
    return int(seed) + (int(offset) if offset is not None else 0)


# -- one seed ------------------------------------------------------------------------------------
def build_source(cfg: DictConfig, u: np.ndarray, t: np.ndarray, x: np.ndarray) -> Any:
    """The method's feature source on the noisy field (weak or pointwise library)."""
    lib, bench = cfg.benchmark.library, cfg.benchmark
    period = float(bench.grid.L)
    counts = cfg.search.test_counts
    counts = (int(counts[0]), int(counts[1])) if counts is not None else None
    if cfg.method.library == "pointwise":
        return pointwise_library(
            u,
            t,
            x,
            operator=cast(OperatorKind, str(lib.operator)),
            power_mode=cast(PowerMode, str(lib.power_mode)),
            trim_t=int(bench.strong.trim_t),
            trim_x=int(bench.strong.trim_x),
            period=period,
        )
    common: dict[str, Any] = dict(
        operator=cast(OperatorKind, str(lib.operator)),
        power_mode=cast(PowerMode, str(lib.power_mode)),
        period=period,
        spatial_tests=cast(SpatialTests, str(lib.spatial_tests)),
        test_counts=counts,
        budget=cast(Budget, str(cfg.search.test_budget)),
    )
    features = method_features(cfg)
    if features.temporal_target == "exact":
        return exact_time_weak_library(u, t, x, **common, **features.library_options())
    return weak_library(u, t, x, **common)


def build_source_2d(cfg: DictConfig, u: np.ndarray, field: Any) -> Any:
    """The 2-D weak library (paper Sec. subsec:twod) of a noisy field ``u (nt, nx, ny)``."""
    if cfg.method.library != "weak":
        raise ValueError(
            f"method {cfg.method.name!r} has no 2-D implementation; 2-D benchmarks run with "
            "method=weak_pareto (or weak_pareto_nopolish)"
        )
    lib, bench = cfg.benchmark.library, cfg.benchmark
    counts = cfg.search.test_counts
    counts = tuple(int(c) for c in counts) if counts is not None else None
    if counts is not None and len(counts) != 3:
        raise ValueError(f"2-D test_counts must be [K_t, K_x, K_y], got {list(counts)}")
    width = lib.get("spatial_width_fraction", None)
    return weak_library_2d(
        u,
        field.t,
        field.x,
        field.y,
        operator=cast(SpectralKind, str(lib.operator)),  # checked by WeakLibrary2D
        period=float(bench.grid.L),
        period_y=float(bench.grid.get("Ly", bench.grid.L)),
        test_counts=counts,
        budget=cast(Budget, str(cfg.search.test_budget)),
        width_fraction=None if width is None else float(width),
    )


def grid_stridge_from_config(
    cfg: DictConfig, u: np.ndarray, t: np.ndarray, x: np.ndarray, seed: int
) -> DiscoveryResult:
    """Weak Grid-STRidge (or, with ``method.stability: true``, its stability variant) for one
    seed of a composed run config; ``u`` is the (already noisy) field shared by every method."""
    dcfg = discovery_config(cfg, seed)
    lib_cfg, bench = cfg.benchmark.library, cfg.benchmark
    counts = cfg.search.test_counts
    counts = (int(counts[0]), int(counts[1])) if counts is not None else None
    kwargs: dict[str, Any] = dict(
        power_mode=str(lib_cfg.power_mode),
        period=float(bench.grid.L),
        spatial_tests=str(lib_cfg.spatial_tests),
        test_counts=counts,
        budget=str(cfg.search.test_budget),
    )
    settings = settings_from_method(cfg.method)
    if bool(cfg.method.get("stability", False)):
        return fixed_dictionary_stability(u, t, x, dcfg, settings=settings, **kwargs).result
    lib = scaled_weak_library(u, t, x, operator=dcfg.operator, width_scale=1.0, **kwargs)
    return grid_stridge(lib, dcfg, settings)


def yu_from_config(
    cfg: DictConfig, u: np.ndarray, t: np.ndarray, x: np.ndarray, seed: int, progress: Any = None
) -> DiscoveryResult:
    """Yu et al. (spec §8.4) for one seed: ``method=yu_spline`` (quintic spline) or
    ``method=yu_neural`` (coordinate network; needs the ``[neural]`` extra)."""
    settings = yu_settings_from_method(cfg.method)
    if cfg.method.library == "yu_neural":
        neural = neural_settings_from_method(cfg.method)
        return yu_neural(u, t, x, seed, settings, neural, progress)
    return yu_spline(u, t, x, seed, settings, progress)


def discover_seed(cfg: DictConfig, seed: int, progress: Any = None) -> DiscoveryResult:
    """Data → noise → library → discovery for one seed (1-D, or 2-D directional).

    ``progress`` (optional) receives a short text per finished search stage.
    """
    return fit_seed(cfg, seed, progress)[0]


def fit_seed(cfg: DictConfig, seed: int, progress: Any = None) -> tuple[DiscoveryResult, Any, bool]:
    """:func:`discover_seed` plus the weak method's feature source (None for the baselines and
    the pointwise library) and whether the field is 2-D: what the bootstrap refits on."""
    field = generate(cfg.benchmark, seed)
    noise = float(cfg.noise)
    law = str(cfg.noise_law.name)
    u = add_noise(field.u, law, noise, noise_seed(cfg, seed)) if noise > 0 else field.u
    dcfg = discovery_config(cfg, seed)
    if field.y is not None:
        source = build_source_2d(cfg, u, field)
        return discover_2d(source, dcfg, progress), source, True
    if cfg.method.library == "grid_stridge":
        return grid_stridge_from_config(cfg, u, field.t, field.x, seed), None, False
    if cfg.method.library in ("yu_spline", "yu_neural"):
        return yu_from_config(cfg, u, field.t, field.x, seed, progress), None, False
    source = build_source(cfg, u, field.t, field.x)
    weak = cfg.method.library == "weak"
    return discover(source, dcfg, progress), source if weak else None, False


def bootstrap_seed(
    cfg: DictConfig, seed: int, result: DiscoveryResult, source: Any, two_d: bool
) -> EquationBootstrap:
    """Block bootstrap (``n_boot``, ``level`` of the config) of one seed's selected equation on
    its weak feature source (:func:`weakpareto.method.intervals.bootstrap_equation`)."""
    if source is None:
        raise ValueError(f"method {cfg.method.name!r} has no weak equations to resample")
    front = [fp.equation for fp in result.front]
    dcfg = discovery_config(cfg, seed)
    n_boot, level = int(cfg.n_boot), float(cfg.level)
    return bootstrap_equation(source, result.final, front, dcfg, two_d, n_boot, level)


# -- numerical failures --------------------------------------------------------------------------
class NumericalFailure(ArithmeticError):
    """The method met data it cannot fit: the seed is stored as a failed row with this reason."""


#: Exceptions that are a property of the data, not a bug: a failed row (reason), the run goes on.
#: ``LinAlgError``: a singular or non-convergent least-squares / ridge solve (``np.linalg.solve``
#: on a singular Gram block, an SVD that does not converge on non-finite features);
#: ``ArithmeticError`` (``FloatingPointError``, ``OverflowError``, ``ZeroDivisionError``,
#: :class:`NumericalFailure`); ``MittagLefflerOverflowError``: the semi-analytic generator leaves
#: the Mittag-Leffler function's range. Every other exception (``TypeError``, ``KeyError``,
#: ``AttributeError``, ``AssertionError``, a plain ``ValueError`` ...) is a programming or
#: configuration error and stops the run with its traceback.
NUMERICAL_FAILURES: tuple[type[BaseException], ...] = (
    np.linalg.LinAlgError,
    ArithmeticError,
    MittagLefflerOverflowError,
)


def failure_reason(err: BaseException) -> str:
    """A short reason for a numerical failure (the first words of the stored ``error``)."""
    if isinstance(err, NumericalFailure):
        return str(err).split(":", 1)[0]
    if isinstance(err, np.linalg.LinAlgError):
        return "singular fit"
    if isinstance(err, MittagLefflerOverflowError):
        return "Mittag-Leffler overflow"
    if isinstance(err, ZeroDivisionError):
        return "division by zero"
    if isinstance(err, OverflowError):
        return "overflow"
    return "floating-point failure"


def _finite(*values: float) -> bool:
    return all(math.isfinite(float(v)) for v in values)


def check_result(result: DiscoveryResult) -> None:
    """Raise :class:`NumericalFailure` unless the result is a usable model.

    * no feasible candidate: the sweep produced no support size with a finite validation error
      (every candidate's objective was NaN or infinite);
    * non-finite objective: the selected model's alpha, an order, a coefficient or E_fit is NaN
      or infinite.
    """
    if not any(_finite(fp.val_error) for fp in result.front):
        raise NumericalFailure(
            "no feasible candidate: no support size reached a finite validation error"
        )
    eq = result.final
    values = [eq.alpha, result.fit_error]
    values += [v for t in eq.terms for v in (t.order, t.coef)]
    if not _finite(*values):
        raise NumericalFailure(
            f"non-finite objective: the selected model has alpha {eq.alpha}, E_fit "
            f"{result.fit_error}, orders {[t.order for t in eq.terms]}, coefficients "
            f"{[t.coef for t in eq.terms]}"
        )
