"""Bootstrap of a discovered equation and its identifiability criteria (ours).

What every front end of the block bootstrap (:mod:`weakpareto.method.bootstrap`) shares:
``wp discover``/``WeakPareto`` (:mod:`weakpareto.user.uncertainty_report`, data units) and
``wp run`` (:mod:`weakpareto.campaign.interval_columns`, benchmark units).

* :func:`bootstrap_equation` runs the bootstrap of a :class:`DiscoveryResult` on its feature
  source: the selected model and the Pareto front's models (reselection), the refit window of
  the run's search ranges, the search's and the final refit's ridges, the gain rule's margin,
  the residual of the point estimate (block length); it returns the replicates and
  :func:`order_sensitivities` (``S_beta`` of every selected order, paper Eq.
  eq:weak-order-sensitivity at the discovered model).
* :func:`identifiability_flags`: the criteria of the ``identifiability`` / ``unstable_term``
  warnings — an interval wider than :data:`TAU_Q`, ``S_beta <`` :data:`S_MIN`, a share of
  resamples on a refit bound above :data:`BOUND_SHARE`, an inclusion frequency below
  :data:`MIN_INCLUSION` — as short codes; the user layer words them.
* :data:`CALIBRATION` and :func:`calibrate`: the widening of the raw percentile intervals that
  makes them cover at their level, read from the package data file :data:`CALIBRATION_FILE`
  (constants and provenance); warnings read the calibrated intervals.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

import numpy as np

from weakpareto._typing import Array
from weakpareto.library.gram import FeatureSource
from weakpareto.method.bootstrap import (
    BootstrapResult,
    BootstrapSettings,
    Bounds,
    Model,
    bootstrap,
)
from weakpareto.method.exact_fit import exact_system, fit_rows
from weakpareto.method.settings import DiscoveryConfig
from weakpareto.numerics.orders import beta_nodes, first_positive, temporal_branches
from weakpareto.records import TAU_Q, Equation, Term

#: Local sensitivity below which an order is weakly identifiable (paper tab:local-identifiability:
#: Riesz 0.12 / 0.10 with order errors 0.2-0.4 at 10 % noise; FADE 0.50, Burgers 1.61).
S_MIN = 0.2
#: Inclusion frequency below which a selected term is flagged as unstable.
MIN_INCLUSION = 0.6
#: Fraction of resamples on a refit bound above which an interval is reported as truncated.
BOUND_SHARE = 0.1
#: Centred finite-difference step of ``d theta_j / d beta_j`` (paper App. "Local spatial-order
#: diagnostic").
FD_STEP = 1e-4
#: Minimum number of support-recovered seeds of a (benchmark, noise) cell for it to constrain the
#: calibration fit (:mod:`weakpareto.reporting.uncertainty_table`).
MIN_CELL = 5


@dataclass(frozen=True)
class Calibration:
    """Widening of a raw bootstrap interval about the point estimate ``c``: each side's distance
    ``s`` becomes ``factor * s + floor`` (``floor * |c|`` when ``relative``)."""

    factor: float = 1.0
    floor: float = 0.0
    relative: bool = False

    def pad(self, centre: float) -> float:
        """The floor in the quantity's units at the point estimate ``centre``."""
        return self.floor * abs(centre) if self.relative else self.floor


#: The package data file of :data:`CALIBRATION`: ``quantities`` (per quantity ``factor``,
#: ``floor``, ``relative``), the ``level`` they were fitted for and their ``provenance`` (script,
#: split, date, coverage table).
CALIBRATION_FILE = "interval_calibration.json"
QUANTITIES = ("alpha", "beta", "xi")


def parse_calibration(payload: Mapping[str, Any]) -> dict[str, Calibration]:
    """The per-quantity :class:`Calibration` of a calibration file's content; ``ValueError``
    for a missing quantity, a factor below 1 or a negative or non-finite floor."""
    quantities = payload.get("quantities", {})
    out = {}
    for q in QUANTITIES:
        if q not in quantities:
            raise ValueError(f"calibration has no constants for {q!r}")
        c = quantities[q]
        factor, floor = float(c["factor"]), float(c["floor"])
        if not (factor >= 1.0 and math.isfinite(factor) and floor >= 0.0 and math.isfinite(floor)):
            raise ValueError(f"calibration of {q!r}: factor {factor} < 1 or floor {floor} < 0")
        out[q] = Calibration(factor, floor, bool(c.get("relative", False)))
    return out


def read_calibration_file() -> dict[str, Any]:
    """The content of the package's :data:`CALIBRATION_FILE`."""
    text = (resources.files("weakpareto") / "data" / CALIBRATION_FILE).read_text(encoding="utf-8")
    payload = json.loads(text)
    assert isinstance(payload, dict)
    return payload


#: The calibration of the reported intervals per quantity: ``alpha``, the orders ``beta``, the
#: coefficients ``xi`` (relative floor), read from :data:`CALIBRATION_FILE`. The raw percentile
#: intervals measure the sampling variability of the weak equations only: they miss the error
#: every resample shares (the discretisation of the weak forms and the noise bias of high-order
#: columns), which dominates at low noise, and they are somewhat narrow at high noise. The
#: constants are fitted by scripts/calibrate_intervals.py on a calibration set of equations and
#: judged on a held-out set of other equations (scripts/calibration_split.yaml,
#: results/uncertainty/tab_calibration.md).
CALIBRATION: Mapping[str, Calibration] = MappingProxyType(
    parse_calibration(read_calibration_file())
)
#: No widening (the raw bootstrap percentiles).
RAW = Calibration()


# -- sensitivities --------------------------------------------------------------------------------
def orthogonal_residual(design: Array, v: Array) -> Array:
    """``(I - P_Theta) v`` with ``P_Theta = Theta Theta^+`` the projector onto ``col(Theta)``,
    by least squares (SVD based: rank-deficient designs are handled, no normal equations)."""
    design = np.asarray(design, dtype=float)
    v = np.asarray(v, dtype=float)
    if design.ndim == 1:
        design = design[:, None]
    coef = np.linalg.lstsq(design, v, rcond=None)[0]
    return v - design @ coef


def column_derivative(lib: FeatureSource, power: int, beta: float, step: float = FD_STEP) -> Array:
    """Centred difference ``(theta(beta + h) - theta(beta - h)) / 2h`` of one exact column."""
    if step <= 0.0:
        raise ValueError(f"finite-difference step must be positive, got {step}")
    plus, minus = lib.columns(int(power), np.array([beta + step, beta - step]))
    return (plus - minus) / (2.0 * step)


def term_index(term: Term, two_d: bool) -> int:
    """The feature source's index of a term: its power (2-D: its direction, x 0 / y 1)."""
    if two_d:
        return 1 if term.direction == "y" else 0
    return int(term.power)


def model_of(eq: Equation, two_d: bool) -> Model:
    """The bootstrap's :class:`Model` of an equation (alpha 1 on the integer branch)."""
    return Model(
        eq.mode,
        1.0 if eq.mode == "int" else float(eq.alpha),
        tuple(term_index(t, two_d) for t in eq.terms),
        tuple(float(t.order) for t in eq.terms),
    )


def order_sensitivities(source: FeatureSource, eq: Equation, two_d: bool) -> list[float | None]:
    """``S_beta = ||(I - P_Theta) dtheta_j/dbeta_j|| / ||theta_j||`` of every term of ``eq``
    (None for the identity term) on the selected support at the discovered orders."""
    idx = tuple(term_index(t, two_d) for t in eq.terms)
    betas = np.array([t.order for t in eq.terms], dtype=float)
    _, x = exact_system(source, eq.mode, eq.alpha, idx, betas)
    out: list[float | None] = []
    for j, t in enumerate(eq.terms):
        norm = float(np.linalg.norm(x[:, j]))
        if t.is_identity or not norm > 0.0:
            out.append(None)
            continue
        d = column_derivative(source, idx[j], float(t.order))
        out.append(float(np.linalg.norm(orthogonal_residual(x, d))) / norm)
    return out


# -- the bootstrap of a result --------------------------------------------------------------------
def refit_bounds(cfg: DiscoveryConfig, eq: Equation) -> Bounds:
    """The refit window: the selected branch's alpha interval, the positive order interval."""
    branches = temporal_branches(cfg.alpha_range, cfg.n_alpha_nodes, cfg.eps_alpha)
    alpha = (1.0, 1.0)
    for br in branches:
        if br.mode == eq.mode:
            alpha = (float(br.lo), float(br.hi))
    nodes = beta_nodes(cfg.beta_range, cfg.n_beta_nodes)
    lo = first_positive(nodes) if nodes[0] == 0.0 else float(cfg.beta_range[0])
    return Bounds(alpha, (float(lo), float(cfg.beta_range[1])))


@dataclass(frozen=True)
class EquationBootstrap:
    """Replicates of one result's bootstrap and the ``S_beta`` of its selected orders."""

    boot: BootstrapResult
    sensitivities: list[float | None]


def bootstrap_equation(
    source: FeatureSource,
    eq: Equation,
    front: Sequence[Equation],
    cfg: DiscoveryConfig,
    two_d: bool,
    n_boot: int,
    level: float,
    gain_floor: float | None = None,
) -> EquationBootstrap:
    """Block bootstrap of the selected equation ``eq`` (in the source's units) with the front's
    equations ``front`` as the reselection candidates; seeded by ``cfg.seed``. ``gain_floor``:
    the floor the fit's selection used (:attr:`DiscoveryResult.gain_floor`), None for the
    configured one."""
    model = model_of(eq, two_d)
    alts = [model_of(e, two_d) for e in front if e.terms]
    ridge = cfg.search.ridge
    refit_ridge = ridge if cfg.refine.ridge is None else cfg.refine.ridge
    y, x = exact_system(source, eq.mode, eq.alpha, model.index, np.array(model.orders))
    resid = y - x @ fit_rows(y, x, refit_ridge)
    settings = BootstrapSettings(n_boot=n_boot, level=level, seed=cfg.seed)
    boot = bootstrap(
        source,
        model,
        refit_bounds(cfg, eq),
        settings,
        ridge=ridge,
        refit_ridge=refit_ridge,
        margin=cfg.selection.margin,
        gain_floor=cfg.selection.gain_floor if gain_floor is None else gain_floor,
        alternatives=alts,
        resid=resid,
        edge_twin=eq.mode != "int" and integer_branch_admitted(cfg),
    )
    return EquationBootstrap(boot, order_sensitivities(source, eq, two_d))


def integer_branch_admitted(cfg: DiscoveryConfig) -> bool:
    """Whether the search admits the exact integer branch (alpha = 1 inside its range)."""
    branches = temporal_branches(cfg.alpha_range, cfg.n_alpha_nodes, cfg.eps_alpha)
    return any(br.mode == "int" for br in branches)


# -- calibration ----------------------------------------------------------------------------------
def calibrate(
    interval: tuple[float, float], centre: float, cal: Calibration
) -> tuple[float, float]:
    """``[c - (k (c - lo) + f), c + (k (hi - c) + f)]`` for :class:`Calibration` ``cal`` (factor
    ``k``, floor ``f`` at ``c``): keeps the interval's asymmetry; :data:`RAW` returns it as is."""
    lo, hi = interval
    if cal == RAW or not (math.isfinite(lo) and math.isfinite(hi) and math.isfinite(centre)):
        return float(lo), float(hi)
    pad = cal.pad(centre)
    return (
        float(centre - cal.factor * max(centre - lo, 0.0) - pad),
        float(centre + cal.factor * max(hi - centre, 0.0) + pad),
    )


# -- identifiability criteria ---------------------------------------------------------------------
@dataclass(frozen=True)
class TermFlags:
    """What :func:`identifiability_flags` reads of one selected term."""

    order_interval: tuple[float, float] | None  # None: identity term
    sensitivity: float | None
    at_bound: float
    inclusion: float


def _wide(interval: tuple[float, float] | None) -> bool:
    return interval is not None and interval[1] - interval[0] > TAU_Q


def identifiability_flags(
    alpha_interval: tuple[float, float] | None,
    alpha_at_bound: float,
    terms: Sequence[TermFlags],
) -> list[str]:
    """Short codes of the warnings: ``alpha_wide``, ``alpha_at_bound``, and per term ``j``
    (0-based, the selected model's order) ``order_wide:j``, ``s_beta_low:j``,
    ``order_at_bound:j``, ``unstable:j``."""
    out = []
    if alpha_interval is not None:
        if _wide(alpha_interval):
            out.append("alpha_wide")
        if alpha_at_bound > BOUND_SHARE:
            out.append("alpha_at_bound")
    for j, t in enumerate(terms):
        if t.order_interval is not None:
            if _wide(t.order_interval):
                out.append(f"order_wide:{j}")
            if t.sensitivity is not None and t.sensitivity < S_MIN:
                out.append(f"s_beta_low:{j}")
            if t.at_bound > BOUND_SHARE:
                out.append(f"order_at_bound:{j}")
        if t.inclusion < MIN_INCLUSION:
            out.append(f"unstable:{j}")
    return out
