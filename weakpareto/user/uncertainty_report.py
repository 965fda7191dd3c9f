"""Uncertainty of a discovered equation: bootstrap intervals, inclusion, identifiability (ours).

``WeakPareto(uncertainty="bootstrap", n_boot=200, level=0.9)`` and ``wp discover
uncertainty=bootstrap`` run the block bootstrap of :mod:`weakpareto.method.bootstrap` on the
dimensionless weak system after the fit and report, in the data's units,

* a central interval at ``level`` for alpha (fractional branches), every spatial order (not the
  identity term, whose order 0 is a model choice) and every coefficient — each resample refits
  alpha, the orders and the coefficients on the selected support; coefficients are mapped to the
  data's units per resample (their scale factor depends on alpha and the order);
* the inclusion frequency of every selected term (the fraction of resamples whose reselected
  model keeps it) and the strongest alternative terms (terms of other front models picked on
  some resamples);
* the support-conditioned local sensitivity ``S_beta`` of every selected order (paper Eq.
  eq:weak-order-sensitivity, the diagnostic of tab:local-identifiability, here at the discovered
  model rather than the truth): ``||(I - P_Theta) dtheta_j/dbeta_j|| / ||theta_j||``. The paper
  measures 0.50 (FADE) and 1.61 (Burgers) for well-identified directional orders and 0.12 / 0.10
  for the Riesz reaction-diffusion orders, whose noisy estimates are off by 0.2-0.4.

Warnings (:class:`weakpareto.fit.checks.FitWarning`, code ``identifiability``): an alpha or
order interval wider than :data:`TAU_Q` (0.15), an order with ``S_beta <`` :data:`S_MIN` (0.2,
between the Riesz and the directional values of the paper), or an interval pressed against the
search range; code ``unstable_term`` for a selected term kept by fewer than
:data:`MIN_INCLUSION` of the resamples.

How to read the intervals: the raw bootstrap percentiles describe how much the estimate moves
when the weak equations are resampled (sampling variability given the support, the test
functions and the noise); they miss the error every resample shares (discretisation of the weak
forms, noise bias of high-order columns). The reported intervals are therefore the raw ones
widened by :data:`weakpareto.method.intervals.CALIBRATION` (a factor and a floor per quantity,
fitted for 90 % coverage on a calibration set of equations and judged on held-out equations:
results/uncertainty/tab_calibration.md). They are conditional on the selected support and
temporal branch: a wrong structure is not covered — that is what the inclusion frequencies and
the identifiability warnings are for.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from weakpareto._typing import Array
from weakpareto.errors import UserInputError
from weakpareto.fit.checks import FitWarning
from weakpareto.fit.run import FitOutcome, bootstrap_fit
from weakpareto.method.bootstrap import BootstrapResult, central_interval
from weakpareto.method.intervals import BOUND_SHARE as BOUND_SHARE
from weakpareto.method.intervals import CALIBRATION, Calibration, EquationBootstrap, calibrate
from weakpareto.method.intervals import MIN_INCLUSION as MIN_INCLUSION
from weakpareto.method.intervals import S_MIN as S_MIN
from weakpareto.method.intervals import TAU_Q as TAU_Q
from weakpareto.method.intervals import order_sensitivities as order_sensitivities
from weakpareto.records import DiscoveryResult, Equation, Term
from weakpareto.user.scaling import Scales
from weakpareto.user.validation import check_choice, check_int

#: Number of alternative terms reported.
N_ALTERNATIVES = 3
#: Uncertainty methods (None = off).
UNCERTAINTY_METHODS = ("bootstrap",)


def _pair(v: tuple[float, float] | None) -> list[float | None] | None:
    if v is None:
        return None
    return [_finite(v[0]), _finite(v[1])]


def _finite(v: float) -> float | None:
    return float(v) if math.isfinite(v) else None


def _unpair(v: Any) -> tuple[float, float] | None:
    if v is None:
        return None
    return (_num(v[0]), _num(v[1]))


def _num(v: Any) -> float:
    return float("nan") if v is None else float(v)


@dataclass(frozen=True)
class TermUncertainty:
    """Intervals and diagnostics of one selected term (data units)."""

    text: str
    power: int
    order: float
    coef: float
    direction: str | None
    order_interval: tuple[float, float] | None  # None: the identity term (order fixed at 0)
    coef_interval: tuple[float, float]
    inclusion: float
    sensitivity: float | None  # S_beta (None for the identity term)
    at_bound: float  # fraction of resamples with the order on the refit window's edge

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "term": self.text,
            "power": self.power,
            "order": self.order,
            "coef": self.coef,
            "order_interval": _pair(self.order_interval),
            "coef_interval": _pair(self.coef_interval),
            "inclusion": self.inclusion,
            "sensitivity": None if self.sensitivity is None else _finite(self.sensitivity),
            "at_bound": self.at_bound,
        }
        if self.direction is not None:
            out["direction"] = self.direction
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TermUncertainty:
        s = d.get("sensitivity")
        coef = _unpair(d["coef_interval"])
        assert coef is not None
        return cls(
            text=str(d["term"]),
            power=int(d["power"]),
            order=float(d["order"]),
            coef=float(d["coef"]),
            direction=d.get("direction"),
            order_interval=_unpair(d.get("order_interval")),
            coef_interval=coef,
            inclusion=float(d["inclusion"]),
            sensitivity=None if s is None else float(s),
            at_bound=float(d.get("at_bound", 0.0)),
        )


@dataclass(frozen=True)
class Uncertainty:
    """The uncertainty report of one fit (``WeakPareto.uncertainty_``; JSON ``"uncertainty"``)."""

    method: str
    n_boot: int
    level: float
    seed: int
    alpha: float
    alpha_interval: tuple[float, float] | None  # None: integer branch (alpha = 1 exactly)
    alpha_at_bound: float
    terms: tuple[TermUncertainty, ...]
    alternatives: tuple[dict[str, Any], ...]  # {"term", "power", "order", "frequency"}
    size_frequency: dict[int, float]
    block: tuple[int, ...]
    grid: tuple[int, ...]
    n_tiles: int
    seconds: float
    n_experiments: int = 1
    experiments_resampled: bool = False

    def to_dict(self) -> dict[str, Any]:
        out = {
            "method": self.method,
            "n_boot": self.n_boot,
            "level": self.level,
            "seed": self.seed,
            "alpha": self.alpha,
            "alpha_interval": _pair(self.alpha_interval),
            "alpha_at_bound": self.alpha_at_bound,
            "terms": [t.to_dict() for t in self.terms],
            "alternatives": [dict(a) for a in self.alternatives],
            "size_frequency": {str(k): v for k, v in self.size_frequency.items()},
            "block": list(self.block),
            "grid": list(self.grid),
            "n_tiles": self.n_tiles,
            "seconds": self.seconds,
        }
        if self.n_experiments > 1:
            out.update(
                n_experiments=self.n_experiments, experiments_resampled=self.experiments_resampled
            )
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Uncertainty:
        return cls(
            method=str(d["method"]),
            n_boot=int(d["n_boot"]),
            level=float(d["level"]),
            seed=int(d.get("seed", 0)),
            alpha=float(d["alpha"]),
            alpha_interval=_unpair(d.get("alpha_interval")),
            alpha_at_bound=float(d.get("alpha_at_bound", 0.0)),
            terms=tuple(TermUncertainty.from_dict(t) for t in d["terms"]),
            alternatives=tuple(dict(a) for a in d.get("alternatives", [])),
            size_frequency={int(k): float(v) for k, v in d.get("size_frequency", {}).items()},
            block=tuple(int(b) for b in d.get("block", [])),
            grid=tuple(int(k) for k in d.get("grid", [])),
            n_tiles=int(d.get("n_tiles", 0)),
            seconds=float(d.get("seconds", 0.0)),
            n_experiments=int(d.get("n_experiments", 1)),
            experiments_resampled=bool(d.get("experiments_resampled", False)),
        )

    def _resamples(self) -> str:
        """What one resample draws (one experiment, or several)."""
        block = " x ".join(str(b) for b in self.block)
        if self.n_experiments == 1:
            return f"{self.n_boot} resamples of {self.n_tiles} tiles of {block} neighbouring tests"
        what = (
            f"the {self.n_experiments} experiments drawn with replacement, then"
            if self.experiments_resampled
            else f"each of the {self.n_experiments} experiments kept,"
        )
        return (
            f"{self.n_boot} resamples, {what} tiles of neighbouring tests inside each "
            f"({self.n_tiles} tiles in all; experiment 1: {block})"
        )

    # -- estimator views ----------------------------------------------------------------------
    def intervals(self) -> dict[str, Any]:
        """``{"alpha": (lo, hi) | None, "orders": [(lo, hi) | None, ...], "coef": [...]}``."""
        return {
            "alpha": self.alpha_interval,
            "orders": [t.order_interval for t in self.terms],
            "coef": [t.coef_interval for t in self.terms],
        }

    def inclusion(self) -> Array:
        return np.array([t.inclusion for t in self.terms], dtype=float)

    def warnings(self) -> list[FitWarning]:
        """``identifiability`` / ``unstable_term`` warnings (:func:`identifiability_warnings`)."""
        return identifiability_warnings(self)

    def lines(self, sig: int = 4) -> list[str]:
        """Human-readable report (printed by ``model.print()`` and ``wp discover``)."""
        pct = f"{100 * self.level:g} %"
        out = [
            f"uncertainty (block bootstrap: {self._resamples()}; calibrated {pct} intervals, "
            "conditional on the selected terms and branch; inclusion = share of resamples "
            "keeping the term):"
        ]
        if self.alpha_interval is None:
            out.append(f"  alpha   {self.alpha:.4f} (integer branch, exact)")
        else:
            lo, hi = self.alpha_interval
            out.append(f"  alpha   {self.alpha:.4f}  [{lo:.4f}, {hi:.4f}]")
        for t in self.terms:
            if t.order_interval is None:
                order = "order 0 (identity)"
            else:
                order = (
                    f"order {t.order:.4f} [{t.order_interval[0]:.4f}, {t.order_interval[1]:.4f}]"
                )
            s = "" if t.sensitivity is None else f"  S_beta {t.sensitivity:.3g}"
            c_lo, c_hi = t.coef_interval
            out.append(
                f"  {t.text}: coef {t.coef:.{sig}g} [{c_lo:.{sig}g}, {c_hi:.{sig}g}]  {order}  "
                f"included {100 * t.inclusion:.0f} %{s}"
            )
        if self.alternatives:
            alts = ", ".join(
                f"{a['term']} ({100 * a['frequency']:.0f} %)" for a in self.alternatives
            )
            out.append(f"  strongest alternatives: {alts}")
        return out


# -- parameters -----------------------------------------------------------------------------------
#: Upper limit of ``n_boot`` (a resample costs milliseconds; 1e5 is minutes).
MAX_N_BOOT = 100_000


#: The estimator's defaults of ``n_boot`` and ``level`` (what "not given" looks like).
DEFAULT_N_BOOT = 200
DEFAULT_LEVEL = 0.9


def check_uncertainty(p: Mapping[str, Any]) -> dict[str, Any]:
    """``uncertainty`` (None | "bootstrap"; "none"/"null"/"off" mean None), ``n_boot`` >= 2,
    ``level`` in (0, 1); a non-default ``n_boot`` or ``level`` without the bootstrap is refused."""
    method = p.get("uncertainty")
    if isinstance(method, str) and method.strip().lower() in ("none", "null", "off", ""):
        method = None
    if method is not None:
        method = check_choice("uncertainty", method, ("bootstrap",), "or null for none")
    level = p.get("level", 0.9)
    if (
        isinstance(level, bool)
        or not isinstance(level, numbers.Real)
        or not 0.0 < float(level) < 1.0
    ):
        raise UserInputError(f"level={level!r} must be a number in (0, 1), e.g. level=0.9")
    n_boot = check_int("n_boot", p.get("n_boot", DEFAULT_N_BOOT), 2, MAX_N_BOOT)
    if method is None:  # a bootstrap setting without the bootstrap would be silently ignored
        given = [f"n_boot={n_boot}"] if n_boot != DEFAULT_N_BOOT else []
        given += [f"level={float(level):g}"] if float(level) != DEFAULT_LEVEL else []
        if given:
            raise UserInputError(
                f"{' and '.join(given)} {'configure' if len(given) > 1 else 'configures'} the "
                "bootstrap, which is off: add "
                "uncertainty='bootstrap' (wp discover: uncertainty=bootstrap) or drop them"
            )
    return {"uncertainty": method, "n_boot": n_boot, "level": float(level)}


# -- computation ----------------------------------------------------------------------------------
def report_uncertainty(
    eb: EquationBootstrap,
    raw: DiscoveryResult,
    scales: Scales,
    operator: str,
    two_d: bool,
    calibration: Mapping[str, Calibration] = CALIBRATION,
) -> Uncertainty:
    """A bootstrap of the dimensionless result ``raw`` reported in the data's units, its
    intervals widened by ``calibration`` (per quantity; the package's by default)."""
    return _report(eb.boot, raw.final, scales, eb.sensitivities, operator, two_d, calibration)


def uncertainty_of(
    params: Mapping[str, Any], outcome: FitOutcome, scales: Scales
) -> Uncertainty | None:
    """The uncertainty report the estimator parameters ask for (None when ``uncertainty`` is
    off): :func:`weakpareto.fit.run.bootstrap_fit` of the fit, in the data's units."""
    p = check_uncertainty(params)
    if p["uncertainty"] is None:
        return None
    eb = bootstrap_fit(outcome, p["n_boot"], p["level"])
    operator = outcome.spec.discovery.operator
    return report_uncertainty(eb, outcome.result, scales, operator, outcome.two_d)


def _report(
    boot: BootstrapResult,
    eq: Equation,
    scales: Scales,
    sens: list[float | None],
    operator: str,
    two_d: bool,
    calibration: Mapping[str, Calibration] = CALIBRATION,
) -> Uncertainty:
    level = boot.settings.level

    def _calibrated(quantity: str, raw: tuple[float, float], centre: float) -> tuple[float, float]:
        return calibrate(raw, float(centre), calibration[quantity])

    phys, _ = scales.equation(eq)
    terms = []
    for j, (t, tp) in enumerate(zip(eq.terms, phys.terms)):
        coefs = np.array(
            [
                _physical(scales, float(boot.coef[b, j]), t, float(boot.alpha[b]),
                          float(boot.orders[b, j]), eq.mode)
                for b in range(boot.n_boot)
            ]
        )  # fmt: skip
        free = bool(boot.order_free[j])
        terms.append(
            TermUncertainty(
                text=tp.text(operator),  # type: ignore[arg-type]
                power=int(tp.power),
                order=float(tp.order),
                coef=float(tp.coef),
                direction=tp.direction,
                order_interval=(
                    _calibrated("beta", central_interval(boot.orders[:, j], level), tp.order)
                    if free
                    else None
                ),
                coef_interval=_calibrated("xi", central_interval(coefs, level), tp.coef),
                inclusion=float(boot.inclusion[j]),
                sensitivity=sens[j],
                at_bound=float(boot.at_bound[:, 1 + j].mean()),
            )
        )
    alternatives = []
    for p, o, f in boot.alternatives[:N_ALTERNATIVES]:
        term = Term(0, o, 1.0, ("x", "y")[p]) if two_d else Term(p, o, 1.0)
        alternatives.append(
            {"term": term.text(operator), "power": int(term.power), "order": float(o),  # type: ignore[arg-type]
             "frequency": float(f)}
        )  # fmt: skip
    return Uncertainty(
        method="bootstrap",
        n_boot=boot.n_boot,
        level=level,
        seed=boot.settings.seed,
        alpha=float(eq.alpha),
        alpha_interval=(
            _calibrated("alpha", central_interval(boot.alpha, level), eq.alpha)
            if boot.alpha_free
            else None
        ),
        alpha_at_bound=float(boot.at_bound[:, 0].mean()),
        terms=tuple(terms),
        alternatives=tuple(alternatives),
        size_frequency=dict(boot.size_frequency),
        block=boot.block_shape,
        grid=boot.grid_shape,
        n_tiles=boot.n_tiles,
        seconds=boot.seconds,
        n_experiments=boot.n_experiments,
        experiments_resampled=boot.experiments_resampled,
    )


def _physical(
    scales: Scales, coef: float, term: Term, alpha: float, order: float, mode: str
) -> float:
    if not math.isfinite(coef) or coef == 0.0:
        return coef
    a = 1.0 if mode == "int" else alpha
    return coef * math.exp(scales.log_factor(int(term.power), a, order, term.direction))


# -- warnings -------------------------------------------------------------------------------------
#: An alpha interval ending this close to 1 ends at the branch edge next to the integer order.
BRANCH_EDGE_TOL = 0.01


def alpha_edge_warning(alpha: float, interval: tuple[float, float], share: float) -> FitWarning:
    """The resamples pile up at an edge of alpha's window: the edge next to 1 is the end of the
    fractional branch (the Caputo derivative tends to u_t there, so the data are consistent with
    the integer model and no alpha_range widens it); any other edge is a bound of alpha_range."""
    lo, hi = interval
    pct = f"{100 * share:.0f} %"
    if (alpha < 1.0 and hi >= 1.0 - BRANCH_EDGE_TOL) or (
        alpha > 1.0 and lo <= 1.0 + BRANCH_EDGE_TOL
    ):
        branch = "sub-unit" if alpha < 1.0 else "super-unit"
        return FitWarning(
            "identifiability",
            f"alpha reaches the {branch} branch's edge next to 1 in {pct} of the resamples: the "
            "data are consistent with alpha = 1 (u_t, the integer model), which the interval "
            "cannot show because the branch ends there; widening alpha_range does not change "
            "that — method=weak_pareto_exact compares every fractional model with its integer "
            "twin",
        )
    return FitWarning(
        "identifiability",
        f"alpha reaches the edge of its admissible interval in {pct} of the resamples, so its "
        "interval is truncated there; widen alpha_range if the bound is not physical",
    )


#: Diagnostics that say the selected model does not explain the data.
MODEL_ERROR_CODES = ("misfit", "poor_fit")


def model_error_warnings(found: Sequence[FitWarning], unc: Uncertainty) -> list[FitWarning]:
    """``model_error``: the fit leaves a misfit the noise does not explain, so the intervals
    (spread of refits of the same model over resampled weak equations) hold no share of it."""
    if not any(w.code in MODEL_ERROR_CODES for w in found):
        return []
    return [
        FitWarning(
            "model_error",
            f"the {100 * unc.level:g} % intervals resample the weak equations of the selected "
            "model, whose misfit is above what the noise explains: they do not contain that "
            "model error, so read them as lower bounds (a missing term, another operator "
            "family or a wrong range can move the estimates by more)",
        )
    ]


def correlated_noise_warnings(found: Sequence[FitWarning], unc: Uncertainty) -> list[FitWarning]:
    """``interval_noise``: the bootstrap resamples weak equations as if their noise were
    independent between frames; noise correlated in time (``correlated_noise``) biases the
    highest spatial order low by more than its interval allows (independent suite, particle
    densities with noise_kind=measurement: the truth above the interval in 4 of 7 cases)."""
    if not any(w.code == "correlated_noise" for w in found):
        return []
    ordered = [t for t in unc.terms if t.order_interval is not None and t.order > 0.0]
    if not ordered:
        return []
    top = max(ordered, key=lambda t: t.order)
    assert top.order_interval is not None
    lo, hi = top.order_interval
    return [
        FitWarning(
            "interval_noise",
            f"the {100 * unc.level:g} % interval [{lo:.3f}, {hi:.3f}] of the order of {top.text} "
            "treats the noise as independent between frames, but it is correlated in time: "
            "that order tends to come out low and its interval too narrow, so the true order "
            "may lie above it (refit with noise_kind=intrinsic for densities of independent "
            "particles)",
        )
    ]


def interval_warnings(found: Sequence[FitWarning], unc: Uncertainty) -> list[FitWarning]:
    """Every warning about the intervals of a fit whose other diagnostics are ``found``."""
    out = unc.warnings() + model_error_warnings(found, unc)
    return out + correlated_noise_warnings(found, unc)


def identifiability_warnings(unc: Uncertainty) -> list[FitWarning]:
    """``identifiability`` and ``unstable_term`` warnings of an uncertainty report."""
    pct = f"{100 * unc.level:g} %"
    fix = (
        "more data (longer or finer records), less noise, a narrower search range, or fixing "
        "the order (e.g. to an integer or a known value) narrow it"
    )
    out = []
    if unc.alpha_interval is not None:
        lo, hi = unc.alpha_interval
        if hi - lo > TAU_Q:
            out.append(
                FitWarning(
                    "identifiability",
                    f"alpha={unc.alpha:.4f} is weakly identifiable: its {pct} interval "
                    f"[{lo:.3f}, {hi:.3f}] is wider than {TAU_Q:g}, so the temporal order is "
                    f"unreliable; {fix.replace('search range', 'alpha_range')}",
                )
            )
        if unc.alpha_at_bound > BOUND_SHARE:
            out.append(alpha_edge_warning(unc.alpha, (lo, hi), unc.alpha_at_bound))
    for t in unc.terms:
        if t.order_interval is not None:
            lo, hi = t.order_interval
            reasons = []
            if hi - lo > TAU_Q:
                reasons.append(f"its {pct} interval [{lo:.3f}, {hi:.3f}] is wider than {TAU_Q:g}")
            if t.sensitivity is not None and t.sensitivity < S_MIN:
                reasons.append(
                    f"its local sensitivity S_beta={t.sensitivity:.3g} is below {S_MIN:g} (a "
                    "change of the order is largely absorbed by refitting the coefficients)"
                )
            if reasons:
                out.append(
                    FitWarning(
                        "identifiability",
                        f"the order {t.order:.4f} of term {t.text} is weakly identifiable: "
                        f"{' and '.join(reasons)}; treat it as unreliable — {fix}",
                    )
                )
            if t.at_bound > BOUND_SHARE:
                out.append(
                    FitWarning(
                        "identifiability",
                        f"the order of term {t.text} reaches the edge of its refit window or "
                        f"of beta_range in {100 * t.at_bound:.0f} % of the resamples, so its "
                        "interval is truncated there; widen beta_range if the bound is not "
                        "physical",
                    )
                )
        if t.inclusion < MIN_INCLUSION:
            out.append(
                FitWarning(
                    "unstable_term",
                    f"term {t.text} is kept by only {100 * t.inclusion:.0f} % of the "
                    "resamples (reselection among the Pareto front's models): the support is "
                    "uncertain — check the alternatives in the uncertainty report, or fit with "
                    "more data or less noise",
                )
            )
    return out
