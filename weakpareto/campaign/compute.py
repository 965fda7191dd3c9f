"""What turns a composed run config and a seed into a :class:`DiscoveryResult`, and nothing else.

The ``wp run`` adapter of the fit layer: a composed config and a seed become a field (data →
noise) and a :class:`~weakpareto.fit.spec.FitSpec` (:func:`fit_spec`), and
:func:`weakpareto.fit.run.fit` computes the result (:func:`discover_seed`); the check that the
result is a usable number (:func:`check_result`). This module is part of the code hash that ties
stored runs to the code that made them (:mod:`weakpareto.campaign.provenance`): anything that
changes what a run computes belongs here or below (numerics … fit), never in the runner, the
store or the reporting, so that editing messages or tables does not invalidate cached runs.

Numerical failures the method can meet on some data (:data:`NUMERICAL_FAILURES`) become failed
rows with a reason (:func:`failure_reason`); anything else is a programming error and stops the
run (:mod:`weakpareto.campaign.runner`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from omegaconf import DictConfig

from weakpareto.benchmarks.catalogue import Field
from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.fit.run import FitOutcome, bootstrap_fit, fit
from weakpareto.fit.sources import FitField
from weakpareto.fit.sources import build_source as build_fit_source
from weakpareto.fit.spec import Bootstrap, FitSpec, groups_of_config, spec_from_groups
from weakpareto.library.gram import FeatureSource
from weakpareto.method.intervals import EquationBootstrap
from weakpareto.method.settings import DiscoveryConfig, FeatureSettings
from weakpareto.numerics.mittag_leffler import MittagLefflerOverflowError
from weakpareto.records import DiscoveryResult


# -- the run config as a fit spec ----------------------------------------------------------------
def fit_spec(cfg: DictConfig, seed: int) -> FitSpec:
    """The :class:`FitSpec` of a composed run config for one seed (the benchmark's search ranges,
    the method, search and selection groups; ``domain``; the bootstrap when it is on)."""
    bench = cfg.benchmark
    width = bench.library.get("spatial_width_fraction", None)
    strong = bench.get("strong", None) or {}
    uncertainty = None
    if cfg.get("uncertainty", None) is not None:
        uncertainty = Bootstrap(int(cfg.n_boot), float(cfg.level))
    return spec_from_groups(
        groups_of_config(cfg),
        seed,
        domain=str(cfg.get("domain", "periodic")),  # type: ignore[arg-type]  # schema-checked
        uncertainty=uncertainty,
        width_fraction=None if width is None else float(width),
        trim=(int(strong.get("trim_t", 0)), int(strong.get("trim_x", 0))),
    )


def discovery_config(cfg: DictConfig, seed: int) -> DiscoveryConfig:
    """Typed :class:`DiscoveryConfig` of a composed run config for one seed."""
    return fit_spec(cfg, seed).discovery


def method_features(cfg: DictConfig) -> FeatureSettings:
    """The feature settings of a run config's method (absent keys: the paper's)."""
    return fit_spec(cfg, 0).feature_settings


def noise_seed(cfg: DictConfig, seed: int) -> int:
    """Seed of the noise RNG: the run seed plus ``benchmark.tuning.noise_seed_offset`` if set
    (the 2-D benchmarks draw their noise from ``default_rng(700 + seed)``,
    docs/method/benchmarks.md)."""
    tuning = cfg.benchmark.get("tuning", None) or {}
    offset = tuning.get("noise_seed_offset", None)
    return int(seed) + (int(offset) if offset is not None else 0)


# -- one seed ------------------------------------------------------------------------------------
def fit_field(cfg: DictConfig, field: Field, u: np.ndarray) -> FitField:
    """The noisy field ``u`` on the benchmark's grids; the benchmark's period is stated only for
    ``domain=periodic`` (with ``auto`` the data's edges decide)."""
    grid = cfg.benchmark.grid
    period_y = None if field.y is None else float(grid.get("Ly", grid.L))
    stated = str(cfg.get("domain", "periodic")) == "periodic"
    return FitField(u, field.t, field.x, field.y, float(grid.L), period_y, period_given=stated)


def noisy_field(cfg: DictConfig, seed: int) -> tuple[Field, np.ndarray]:
    """The benchmark's field of ``seed`` and its noisy values (the noise law of the config)."""
    field = generate(cfg.benchmark, seed)
    noise = float(cfg.noise)
    law = str(cfg.noise_law.name)
    u = add_noise(field.u, law, noise, noise_seed(cfg, seed)) if noise > 0 else field.u
    return field, u


def build_source(cfg: DictConfig, u: np.ndarray, t: np.ndarray, x: np.ndarray) -> FeatureSource:
    """The feature source of a 1-D periodic run config on the noisy field ``u`` (the same
    source :func:`fit_seed` fits on)."""
    spec = fit_spec(cfg, 0)
    field = FitField(u, t, x, period=float(cfg.benchmark.grid.L))
    from weakpareto.fit.run import resolve_power_mode

    return build_fit_source(field, spec, "periodic", resolve_power_mode(spec.power_mode, u))[1]


def fit_outcome(cfg: DictConfig, seed: int, progress: Any = None) -> FitOutcome:
    """Data -> noise -> :func:`weakpareto.fit.run.fit` for one seed."""
    field, u = noisy_field(cfg, seed)
    return fit(fit_field(cfg, field, u), fit_spec(cfg, seed), progress)


def discover_seed(cfg: DictConfig, seed: int, progress: Any = None) -> DiscoveryResult:
    """Data -> noise -> features -> discovery for one seed (1-D, or 2-D directional).

    ``progress`` (optional) receives a short text per finished search stage.
    """
    return fit_outcome(cfg, seed, progress).result


def bootstrap_seed(cfg: DictConfig, outcome: FitOutcome) -> EquationBootstrap:
    """Block bootstrap (``n_boot``, ``level`` of the config) of one seed's selected equation on
    its weak equations (:func:`weakpareto.fit.run.bootstrap_fit`)."""
    return bootstrap_fit(outcome, int(cfg.n_boot), float(cfg.level))


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
