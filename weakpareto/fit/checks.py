"""Diagnostics attached to every fit: warnings that name the likely fix, and information.

:class:`weakpareto.user.estimator.WeakPareto` stores them as ``warnings_`` (a list of
:class:`FitWarning`), ``wp discover`` and ``model.print()`` print them (each line starts with
``warning:`` or ``info:``), and the JSON result carries ``"warnings": [{"code", "level",
"message"}, ...]``. ``level`` is ``"warning"`` (the result is probably incomplete or wrong, and
the message says what to change) or ``"info"`` (a measurement, e.g. the noise estimate).

Codes
-----
``alpha_range``
    alpha within 1 % of the range width of a bound of ``alpha_range`` (the search could not go
    further).
``beta_range``
    a spatial order within 1 % of the range width of a bound of ``beta_range`` (the advice is
    measured: "widen it" only when moving that order beyond the bound cuts E_fit by 10 % and
    E_fit is above discretisation level, otherwise the warning says widening would not help and
    gives E_fit without the term) — or the out-of-range probe: one term of an order outside
    ``beta_range``, added to the selected model or replacing one of its terms, cuts E_fit by a
    factor >= :data:`PROBE_GAIN` (e.g. KdV's ``u_xxx`` with the default range [0.5, 2]).
``operator_family``
    a one-family fit (directional or Riesz) whose best model of its size mixing in one term of
    the other family cuts the residual by :data:`PROBE_GAIN` (:func:`probe_other_family`):
    the model class limits the fit, and ``operator=auto`` searches both families.
``poor_fit``
    ``E_fit > POOR_FIT`` (0.3): the selected model leaves more than 9 % of the weak target's
    energy (E_fit^2) unexplained. Correct models of the paper's benchmarks have E_fit <= 0.12
    at up to 10 % noise except the cases whose weak target is noise-dominated (fractional
    reaction-diffusion at 5-10 %, the superunit case at 1 %: 0.2-0.7, where recovery is
    marginal anyway); 0.3 flags a model that misses a large part of the dynamics while
    staying quiet on every well-posed benchmark at moderate noise.
``noise_dominated``
    ``E_fit > POOR_FIT`` but the estimated noise alone leaves at least :data:`NOISE_SHARE` of it
    (``noise_floor`` below): the weak target is dominated by noise, not by a missing term, so
    more terms or wider ranges would not help (replaces ``poor_fit``).
``misfit``
    ``E_fit > MISFIT_MIN`` (0.05) and more than :data:`MISFIT_RATIO` (4) times the residual
    the estimated noise alone would leave (``noise_floor`` below): the data are cleaner than
    the fit, so a term is missing.
``front_not_flat``
    the largest support size tried still cut the validation error by a factor >=
    :data:`FRONT_GAIN` (2, i.e. a log10 gain of 0.3, twice the elbow margin 0.15 above which
    the paper counts a term as worth adding) over the size before it, and by at least half
    (in log10) the largest gain between consecutive sizes (on clean data the front keeps
    falling slowly after the elbow — two-term Riesz: 290x, then 2.2x — which is flat).
``small_term``
    a term whose contribution ``||xi_j theta_j|| / ||b||`` to the weak target is below the
    noise floor (the larger of E_fit and the estimated noise residual): it is not resolved.
    Not read after the onset refit of ``history=unknown`` (:mod:`weakpareto.fit.history_onset`):
    the weak rows without the history directions are noise there, the samples are not.
``units``
    a selection-stage (Pareto-front) coefficient is outside float64's range in the data's
    units and was clipped (the selected equation itself must be representable).
``identifiability`` (only with ``uncertainty="bootstrap"``,
    :mod:`weakpareto.user.uncertainty_report`) alpha or an order whose bootstrap interval is
    wider than 0.15, an order whose local sensitivity ``S_beta`` (paper Eq.
    eq:weak-order-sensitivity) is below 0.2, or an interval truncated at the search range: the
    estimate is unreliable; more data, less noise, a narrower range or fixing the order help.
``unstable_term`` (only with ``uncertainty="bootstrap"``)
    a selected term kept by fewer than 60 % of the resamples (reselection among the front).
``correlated_noise``
    the noise is smoother along time than along space (particle densities, filtered sensors):
    the weak form reads it as dynamics and the highest order comes out low
    (:mod:`weakpareto.fit.noise_structure`).
``noise_level`` (info; a warning above :data:`HIGH_NOISE`)
    the apparent noise of u (below).

Noise estimate
--------------
The apparent white-noise level ``s / std(u)`` of
:func:`weakpareto.library.noise_level.relative_noise_level` (the convention of the
``additive_gaussian`` noise law). For the benchmarks' multiplicative law ``u (1 + e zeta)``,
``zeta ~ U[-1, 1]``, it is ``e rms(u) / (sqrt(3) std(u))`` (tests/user/test_warnings.py checks
0/1/5/10 % on several fields: within 3 % of the truth on smooth fields).

``noise_floor``: a surrogate white-noise field at the estimated level is projected through the
selected model's weak target and linear columns (the same tests); the relative norm of the
resulting residual, ``||b(n) - sum_{p_j = 0} xi_j theta_j(n)|| / ||b(u)||``, is the E_fit the
noise alone would cause.

Several experiments pooled into one fit: the noise level is the root mean square of every
experiment's level weighted by its number of samples
(:func:`weakpareto.library.noise_level.pooled_noise_level`), and the noise floor
projects one surrogate per experiment through that experiment's tests (at its own level).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

from weakpareto._typing import Array
from weakpareto.fit.context import FitContext, FitWarning, Level
from weakpareto.fit.context import num as _num
from weakpareto.fit.context import range_text as _range
from weakpareto.fit.context import search_index as _search_index
from weakpareto.fit.context import system as _system
from weakpareto.fit.context import term_name as _term_name
from weakpareto.fit.forcing import without_forcing
from weakpareto.fit.noise_structure import check_time_correlated_noise
from weakpareto.fit.probes import (
    PROBE_GAIN,
    PROBE_MIN_FIT,
    probe_beta_outside,
    probe_other_family,
)
from weakpareto.fit.probes import bound_advice as _bound_advice
from weakpareto.library.families import FamilyLibrary
from weakpareto.library.forcing import ForcedSource
from weakpareto.library.gram import FeatureSource
from weakpareto.library.history import HistorySource
from weakpareto.library.noise_level import pooled_noise_level
from weakpareto.library.pooled import parts_of
from weakpareto.method.exact_fit import profiled
from weakpareto.records import DiscoveryResult, Equation

__all__ = [
    "PROBE_GAIN",
    "PROBE_MIN_FIT",
    "FitContext",
    "FitWarning",
    "Level",
    "diagnose",
    "probe_beta_outside",
    "probe_other_family",
]

T = TypeVar("T")

#: Fraction of the range width within which an order counts as "on the bound".
BOUND_FRACTION = 0.01
#: E_fit above which the selected model "explains little" (see the module docstring).
POOR_FIT = 0.3
#: ``misfit``: E_fit above this and above MISFIT_RATIO x the noise residual.
MISFIT_MIN = 0.05
MISFIT_RATIO = 4.0
#: ``noise_dominated``: the noise residual is at least this share of E_fit (half its energy).
NOISE_SHARE = 0.7
#: ``front_not_flat``: validation-error ratio of the last two sizes tried.
FRONT_GAIN = 2.0
#: Apparent noise (relative to std(u)) above which the noise note becomes a warning.
HIGH_NOISE = 0.2


# -- individual checks --------------------------------------------------------------------------
def check_bounds(eq: Equation, ctx: FitContext) -> list[FitWarning]:
    """alpha or a spatial order on (within 1 % of the width of) a search bound."""
    out = []
    lo, hi = ctx.alpha_range
    tol = BOUND_FRACTION * (hi - lo)
    alpha = float(eq.alpha)
    if alpha <= lo + tol or alpha >= hi - tol:
        upper = alpha >= hi - tol
        if upper and hi >= 1.95:
            fix = "alpha is at the top of the model class (alpha < 2): the data may not fit it"
        elif upper:
            fix = f"widen it, e.g. alpha_range={_range(lo, min(1.95, hi + 0.3))}"
        else:
            fix = f"widen it, e.g. alpha_range={_range(max(0.05, lo - 0.3), hi)}"
        side = "upper" if upper else "lower"
        out.append(
            FitWarning(
                "alpha_range",
                f"alpha={alpha:.4f} is on the {side} bound of alpha_range={_range(lo, hi)}; "
                f"the best alpha may lie outside: {fix}",
            )
        )
    blo, bhi = ctx.beta_range
    btol = BOUND_FRACTION * (bhi - blo)
    for k, term in enumerate(eq.terms):
        if term.is_identity:
            continue  # beta = 0 is the identity term, a model choice rather than a bound
        b = float(term.order)
        if b >= bhi - btol:
            advice = _bound_advice(eq, ctx, k, True, _range(blo, bhi + 1.0))
            out.append(
                FitWarning(
                    "beta_range",
                    f"order {b:.4f} of term {_term_name(term, ctx.operator)} is on the upper "
                    f"bound of beta_range={_range(blo, bhi)}; {advice}",
                )
            )
        elif blo > 0.0 and b <= blo + btol:
            widened = f"{_range(max(0.0, blo - 0.5), bhi)} (0 admits the term u)"
            advice = _bound_advice(eq, ctx, k, False, widened)
            out.append(
                FitWarning(
                    "beta_range",
                    f"order {b:.4f} of term {_term_name(term, ctx.operator)} is on the lower "
                    f"bound of beta_range={_range(blo, bhi)}; {advice}",
                )
            )
    return out


def _surrogate(source: FeatureSource, noise: Array) -> FeatureSource | None:
    """``source`` with its field replaced by ``noise`` (same tests; a family library's every
    family); None when the source is not a dataclass holding its field ``u``."""
    if isinstance(source, ForcedSource):  # the known forcing carries no noise
        source = source.base
    if isinstance(source, HistorySource):  # the same history directions projected out
        base = _surrogate(source.base, noise)
        return None if base is None else HistorySource(cast(Any, base), source.basis)
    if isinstance(source, FamilyLibrary):
        parts = [_surrogate(part, noise) for part in source.parts]
        if any(part is None for part in parts):
            return None
        return FamilyLibrary(source.families, tuple(cast(FeatureSource, p) for p in parts))
    if not dataclasses.is_dataclass(source) or isinstance(source, type):
        return None
    fields = {f.name for f in dataclasses.fields(source)}
    if "u" not in fields:
        return None
    changes: dict[str, Any] = {"u": noise}
    if "_cache" in fields:
        changes["_cache"] = {}
    return cast(FeatureSource, dataclasses.replace(source, **changes))


def noise_residual(eq: Equation, ctx: FitContext, level: float) -> float:
    """Relative weak residual a white-noise field at ``level * std(u)`` alone would leave (every
    experiment its own surrogate at its own ``std(u)``, rows stacked)."""
    if level <= 0.0:
        return 0.0
    rng = np.random.default_rng(ctx.seed)
    ys, rs = [], []
    for part, u in zip(parts_of(ctx.source), ctx.experiments, strict=True):
        noise = level * float(np.std(u)) * rng.standard_normal(u.shape)
        surrogate = _surrogate(part, noise)
        if surrogate is None:
            return 0.0
        ys.append(part.targets(np.array([eq.alpha]), eq.mode)[0])
        r = surrogate.targets(np.array([eq.alpha]), eq.mode)[0].copy()
        for term in eq.terms:
            if ctx.two_d or term.power == 0:
                col = surrogate.columns(_search_index(term, ctx), np.array([term.order]))[0]
                r -= term.coef * col
        rs.append(r)
        # the rows as E_fit scored them (the super-unit u'(0) profiled out, when it is)
        ys[-1], rs[-1] = profiled(part, eq.mode, float(eq.alpha), np.vstack([ys[-1], r]))
    y, r = np.concatenate(ys), np.concatenate(rs)
    return float(np.linalg.norm(r) / (np.linalg.norm(y) + 1e-300))


def check_fit(fit_error: float, floor: float) -> list[FitWarning]:
    """poor_fit (absolute), noise_dominated (a poor fit the noise accounts for) and misfit
    (relative to the noise floor)."""
    fix = (
        "try a larger max_terms, wider alpha_range/beta_range, more powers or the other "
        "operator (directional/riesz)"
    )
    if fit_error > POOR_FIT and floor >= NOISE_SHARE * fit_error:
        return [
            FitWarning(
                "noise_dominated",
                f"the weak target is dominated by noise: E_fit {_num(fit_error)}, of which the "
                f"estimated noise alone accounts for ~{_num(floor)}; orders and coefficients are "
                "poorly determined — less noise, more samples or a longer record help, more "
                "terms or wider ranges do not",
            )
        ]
    if fit_error > POOR_FIT:
        return [
            FitWarning(
                "poor_fit",
                f"the selected model explains little of the data (E_fit {_num(fit_error)} > "
                f"{POOR_FIT:g}, {100 * fit_error**2:.0f} % of the weak target unexplained); "
                f"{fix}",
            )
        ]
    if fit_error > MISFIT_MIN and fit_error > MISFIT_RATIO * floor:
        return [
            FitWarning(
                "misfit",
                f"E_fit {_num(fit_error)} is far above the ~{_num(floor)} the estimated noise "
                f"accounts for, so the model misses part of the dynamics; {fix}",
            )
        ]
    return []


def check_front(res: DiscoveryResult, max_terms: int) -> list[FitWarning]:
    """The largest support size tried still improved a lot on the one before."""
    front = sorted(res.front, key=lambda fp: fp.size)
    if len(front) < 2:
        return []
    searched = int(res.timings.get("sizes_searched", 0))
    if searched > front[-1].size:
        return []  # larger supports were searched and refined back to fewer terms: flat
    errs = np.array([max(float(fp.val_error), 1e-300) for fp in front])
    if not np.all(np.isfinite(errs)):
        return []
    gains = np.log10(errs[:-1] / errs[1:])  # log10 improvement of each size on the one before
    last_gain = float(gains[-1])
    # Not flat: the last size still halved the error AND improved about as much as the best
    # step of the front (a clean field's tail, 300x then 2x, has flattened).
    if last_gain < np.log10(FRONT_GAIN) or last_gain < 0.5 * float(np.max(gains)):
        return []
    prev, last = front[-2], front[-1]
    gain = 10.0**last_gain
    more = f"max_terms={min(8, max(max_terms, last.size) + 2)}"
    if res.selected_size < last.size:
        fix = (
            f"yet size {res.selected_size} was selected: try selection=bic (or aic), "
            f"and {more} to see whether the front falls further"
        )
    elif last.size >= max_terms:
        fix = f"raise max_terms (now {max_terms}), e.g. {more}"
    else:
        fix = f"the sweep stopped there; try {more} with selection=bic"
    return [
        FitWarning(
            "front_not_flat",
            f"the Pareto front had not flattened: size {last.size} cut the validation error "
            f"{gain:.1f}x below size {prev.size}; {fix}",
        )
    ]


def check_small_terms(eq: Equation, ctx: FitContext, floor: float) -> list[FitWarning]:
    """Terms whose contribution to the weak target is below the noise floor."""
    if len(eq.terms) < 2:
        return []
    y, x = _system(ctx, eq, eq.terms)
    coef = np.array([t.coef for t in eq.terms])
    contrib = np.linalg.norm(x * coef[None, :], axis=0) / (np.linalg.norm(y) + 1e-300)
    out = []
    for term, r in zip(eq.terms, contrib, strict=True):
        if r < floor:
            out.append(
                FitWarning(
                    "small_term",
                    f"term {_term_name(term, ctx.operator)} contributes {_num(r)} of the "
                    f"target, below the noise floor {_num(floor)}: it is not resolved; check "
                    f"a fit without it (e.g. max_terms={len(eq.terms) - 1})",
                )
            )
    return out


def units_warning(u: float, t: float, x: float) -> FitWarning:
    """Selection-stage coefficients beyond float64 in the data's units (clipped)."""
    return FitWarning(
        "units",
        f"some Pareto-front coefficients are outside float64's range in these units (u scale "
        f"{u:.3g}, dt {t:.3g}, dx {x:.3g}) and were clipped; rescale u, t or x (e.g. to SI "
        "units) to see them",
    )


def noise_note(level: float) -> FitWarning:
    pct = 100.0 * level
    if level > HIGH_NOISE:
        return FitWarning(
            "noise_level",
            f"apparent noise {pct:.2g} % of std(u) is high; expect biased orders and "
            "coefficients — more samples or repeated measurements help",
        )
    return FitWarning(
        "noise_level",
        f"apparent noise {pct:.2g} % of std(u) (finite-difference estimate)",
        "info",
    )


def _guarded(check: Callable[[], T], fallback: T) -> T:
    """A diagnostic never fails a fit: numerical trouble (a singular system, non-finite
    features of a degenerate field) skips the check."""
    try:
        with np.errstate(all="ignore"):
            return check()
    except (ValueError, ArithmeticError, np.linalg.LinAlgError):
        return fallback


def diagnose(ctx: FitContext) -> tuple[list[FitWarning], float, float]:
    """Every diagnostic of a fit: ``(warnings, noise level, noise floor)``.

    Run on the dimensionless result (coefficients as discovered); the checks depend only on
    relative quantities, so they are the same in any units.
    """
    ctx = without_forcing(ctx)  # the source holds the forcing terms on its target side
    res = ctx.result
    eq = res.final
    level = pooled_noise_level(ctx.experiments)
    fit_error = float(res.fit_error)
    floor = _guarded(lambda: noise_residual(eq, ctx, level), 0.0)
    if not np.isfinite(floor):
        floor = 0.0
    out = check_bounds(eq, ctx)
    if not any(w.code == "beta_range" for w in out):
        out += _guarded(lambda: probe_beta_outside(eq, ctx, fit_error, floor), [])
    out += _guarded(lambda: probe_other_family(eq, ctx, fit_error, floor), [])
    out += check_fit(fit_error, floor)
    out += check_front(res, ctx.max_terms)
    if "trajectory_onset_delay" not in res.timings:  # else its rows are noise (history_onset)
        out += _guarded(lambda: check_small_terms(eq, ctx, max(fit_error, floor)), [])
    intrinsic = ctx.noise_kind == "intrinsic"
    one_step = "trajectory_markov_modes" in res.timings
    out += _guarded(lambda: check_time_correlated_noise(ctx.experiments, intrinsic, one_step), [])
    out.append(noise_note(level))
    return out, level, floor
