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
    a spatial order within 1 % of the range width of a bound of ``beta_range`` — or the
    out-of-range probe: one term of an order outside ``beta_range``, added to the selected
    model or replacing one of its terms, cuts E_fit by a factor >= :data:`PROBE_GAIN` (e.g.
    KdV's ``u_xxx`` with the default range [0.5, 2]).
``poor_fit``
    ``E_fit > POOR_FIT`` (0.3): the selected model leaves more than 9 % of the weak target's
    energy (E_fit^2) unexplained. Correct models of the paper's benchmarks have E_fit <= 0.12
    at up to 10 % noise except the cases whose weak target is noise-dominated (fractional
    reaction-diffusion at 5-10 %, the superunit case at 1 %: 0.2-0.7, where recovery is
    marginal anyway); 0.3 flags a model that misses a large part of the dynamics while
    staying quiet on every well-posed benchmark at moderate noise.
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
``noise_level`` (info; a warning above :data:`HIGH_NOISE`)
    the apparent noise of u, :func:`estimate_noise`.

Noise estimate (:func:`estimate_noise`)
---------------------------------------
White measurement noise of variance s^2 gives the k-th finite difference along any axis the
variance ``C(2k, k) s^2``, while a field resolved on the grid has tiny high-order differences.
For every axis (t, x [, y]) and order k = 2..6 we take ``mean((Delta^k u)^2) / C(2k, k)`` and
report the smallest value: the axis and order where the signal leaks least. Using the mean
square (not a median) counts heteroscedastic (e.g. multiplicative) noise at its rms. The level
is ``s / std(u)`` — the convention of the ``additive_gaussian`` noise law. For the benchmarks'
multiplicative law ``u (1 + e zeta)``, ``zeta ~ U[-1, 1]``, it is ``e rms(u) / (sqrt(3) std(u))``
(tests/user/test_warnings.py checks 0/1/5/10 % on several fields: within 3 % of the truth on
smooth fields). Non-white noise or fields that are rough on the grid in every direction
(shocks, chaos under-resolved) read as noise: the estimate is an upper bound, "apparent" noise.

``noise_floor``: a surrogate white-noise field at the estimated level is projected through the
selected model's weak target and linear columns (the same tests); the relative norm of the
resulting residual, ``||b(n) - sum_{p_j = 0} xi_j theta_j(n)|| / ||b(u)||``, is the E_fit the
noise alone would cause.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any, Literal, TypeVar

import numpy as np

from weakpareto._typing import Array
from weakpareto.library.gram import FeatureSource
from weakpareto.method.discovery import exact_system
from weakpareto.records import DiscoveryResult, Equation, Term

Level = Literal["warning", "info"]
T = TypeVar("T")

#: Fraction of the range width within which an order counts as "on the bound".
BOUND_FRACTION = 0.01
#: E_fit above which the selected model "explains little" (see the module docstring).
POOR_FIT = 0.3
#: ``misfit``: E_fit above this and above MISFIT_RATIO x the noise residual.
MISFIT_MIN = 0.05
MISFIT_RATIO = 4.0
#: ``front_not_flat``: validation-error ratio of the last two sizes tried.
FRONT_GAIN = 2.0
#: ``beta_range`` probe: factor by which one out-of-range term must cut E_fit, and the smallest
#: E_fit worth probing (below it the residual is discretisation error and noise).
PROBE_GAIN = 3.0
PROBE_MIN_FIT = 0.02
#: Orders probed beyond the upper bound of beta_range (added to it) and below the lower one
#: (fractions of it; plus the identity term beta = 0).
PROBE_ABOVE = (0.25, 0.5, 1.0, 1.5, 2.0, 2.5)
PROBE_BELOW = (0.5, 0.0)
#: Apparent noise (relative to std(u)) above which the noise note becomes a warning.
HIGH_NOISE = 0.2
#: Finite-difference orders of the noise estimate.
NOISE_ORDERS = (2, 3, 4, 5, 6)


@dataclass(frozen=True)
class FitWarning:
    """One diagnostic: a code, ``warning`` or ``info``, and a one-line message with the fix."""

    code: str
    message: str
    level: Level = "warning"

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "level": self.level, "message": self.message}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FitWarning:
        level: Level = "info" if d.get("level") == "info" else "warning"
        return cls(str(d["code"]), str(d["message"]), level)

    def line(self) -> str:
        return f"{self.level}: [{self.code}] {self.message}"


# -- noise --------------------------------------------------------------------------------------
def estimate_noise(u: Array) -> float:
    """Apparent white-noise level of ``u`` relative to ``std(u)`` (module docstring)."""
    u = np.asarray(u, dtype=float)
    spread = float(np.std(u))
    if not spread > 0.0:
        return 0.0
    v = u / spread
    best = np.inf
    for axis in range(v.ndim):
        for k in NOISE_ORDERS:
            if v.shape[axis] <= k + 1:
                continue
            d = np.diff(v, n=k, axis=axis)
            best = min(best, float(np.mean(d * d)) / comb(2 * k, k))
    return float(np.sqrt(best)) if np.isfinite(best) else 0.0


# -- helpers ------------------------------------------------------------------------------------
def _num(v: float) -> str:
    return f"{v:.3g}"


def _range(lo: float, hi: float) -> str:
    return f"[{lo:g},{hi:g}]"


def _search_index(term: Term, two_d: bool) -> int:
    """The "power" index the feature source uses: the power, or the direction in 2-D."""
    if two_d:
        return 1 if term.direction == "y" else 0
    return int(term.power)


def _term_name(term: Term, operator: str) -> str:
    return term.text(operator)  # type: ignore[arg-type]


@dataclass(frozen=True)
class FitContext:
    """What the diagnostics need: the dimensionless source and result plus the settings."""

    source: FeatureSource
    result: DiscoveryResult  # dimensionless (as discovered)
    alpha_range: tuple[float, float]
    beta_range: tuple[float, float]
    powers: tuple[int, ...]
    max_terms: int
    ridge: float
    operator: str
    two_d: bool
    u: Array  # the dimensionless field
    seed: int = 0


def _system(ctx: FitContext, eq: Equation, terms: Sequence[Term]) -> tuple[Array, Array]:
    idx = tuple(_search_index(t, ctx.two_d) for t in terms)
    betas = np.array([t.order for t in terms], dtype=float)
    return exact_system(ctx.source, eq.mode, eq.alpha, idx, betas)


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
    for term in eq.terms:
        if term.is_identity:
            continue  # beta = 0 is the identity term, a model choice rather than a bound
        b = float(term.order)
        if b >= bhi - btol:
            out.append(
                FitWarning(
                    "beta_range",
                    f"order {b:.4f} of term {_term_name(term, ctx.operator)} is on the upper "
                    f"bound of beta_range={_range(blo, bhi)}; widen it, e.g. "
                    f"beta_range={_range(blo, bhi + 1.0)}",
                )
            )
        elif blo > 0.0 and b <= blo + btol:
            out.append(
                FitWarning(
                    "beta_range",
                    f"order {b:.4f} of term {_term_name(term, ctx.operator)} is on the lower "
                    f"bound of beta_range={_range(blo, bhi)}; widen it, e.g. "
                    f"beta_range={_range(max(0.0, blo - 0.5), bhi)} (0 admits the term u)",
                )
            )
    return out


def _columns(ctx: FitContext, index: int, orders: Sequence[float]) -> Array:
    """Exact weak columns ``(K, n)`` of one power (2-D: direction index) at several orders."""
    return np.asarray(ctx.source.columns(index, np.asarray(orders, dtype=float))).T


def _best_subsets(gram: Array, rhs: Array, yy: float, subsets: np.ndarray, ridge: float) -> float:
    """Smallest relative residual over column subsets ``(N, s)`` (column-normalised ridge)."""
    if subsets.size == 0:
        return np.inf
    g = gram[subsets[:, :, None], subsets[:, None, :]]
    b = rhs[subsets]
    s = subsets.shape[1]
    a = np.linalg.solve(g + ridge * np.eye(s), b[..., None])[..., 0]
    rss = yy - 2.0 * np.einsum("ni,ni->n", a, b) + np.einsum("ni,nij,nj->n", a, g, a)
    return float(np.sqrt(max(float(np.min(rss)), 0.0) / yy)) if yy > 0 else np.inf


def _subsets(pool: Sequence[int], size: int, must: int | None = None) -> np.ndarray:
    if must is None:
        combos = list(itertools.combinations(pool, size))
    else:
        combos = [(*c, must) for c in itertools.combinations(pool, size - 1)]
    return np.array(combos, dtype=np.intp).reshape(len(combos), size)


def probe_beta_outside(
    eq: Equation, ctx: FitContext, fit_error: float, floor: float = 0.0
) -> list[FitWarning]:
    """Would one term of an order outside beta_range explain much more of the target?

    A small dictionary — the selected terms, a coarse grid of in-range orders (7 per power;
    2-D: per direction) and the out-of-range candidates (:data:`PROBE_ABOVE` beyond the upper
    bound, :data:`PROBE_BELOW` of the lower one) — is searched exhaustively for the best
    subset of up to ``c + 1`` terms (c = selected size) with and without one out-of-range
    term. The warning fires when the out-of-range term cuts the residual by PROBE_GAIN against
    both E_fit and the best in-range subset, so the gain is due to the order, not to the size.
    """
    if fit_error < PROBE_MIN_FIT or fit_error <= 1.5 * floor or not eq.terms:
        return []
    blo, bhi = ctx.beta_range
    outside = [bhi + d for d in PROBE_ABOVE]
    if blo > 0.0:
        outside += [blo * f for f in PROBE_BELOW]
    inside = list(np.linspace(blo, bhi, 7))
    indices = (0, 1) if ctx.two_d else tuple(ctx.powers)
    y = np.asarray(ctx.source.targets(np.array([eq.alpha]), eq.mode)[0])
    blocks, labels, is_out = [], [], []
    by_index: dict[int, list[float]] = {i: [] for i in indices}
    for term in eq.terms:
        by_index.setdefault(_search_index(term, ctx.two_d), []).append(float(term.order))
    for i, orders in by_index.items():
        grid = orders + [b for b in inside if all(abs(b - o) > 1e-9 for o in orders)]
        for group, flag in ((grid, False), (outside, True)):
            blocks.append(_columns(ctx, i, group))
            labels += [(i, b) for b in group]
            is_out += [flag] * len(group)
    x = np.hstack(blocks)
    keep = np.all(np.isfinite(x), axis=0) & (np.linalg.norm(x, axis=0) > 0)
    x, labels = x[:, keep], [lab for lab, k in zip(labels, keep, strict=True) if k]
    flags = np.array(is_out)[keep]
    norms = np.linalg.norm(x, axis=0)
    xn = x / norms
    gram, rhs, yy = xn.T @ xn, xn.T @ y, float(y @ y)
    size = min(len(eq.terms) + 1, 4)
    pool_in = [int(j) for j in np.flatnonzero(~flags)]
    base = fit_error
    for s in range(1, size + 1):
        base = min(base, _best_subsets(gram, rhs, yy, _subsets(pool_in, s), ctx.ridge))
    best: tuple[float, int] | None = None
    for col in (int(j) for j in np.flatnonzero(flags)):
        err = min(
            _best_subsets(gram, rhs, yy, _subsets(pool_in, s, col), ctx.ridge)
            for s in range(1, size + 1)
        )
        if best is None or err < best[0]:
            best = (err, col)
    if best is None or not best[0] * PROBE_GAIN <= base:
        return []
    err, col = best
    index, b = labels[col]
    cand = Term(0, b, 1.0, ("x", "y")[index]) if ctx.two_d else Term(index, b, 1.0)
    new = _range(blo, b + 0.5) if b > bhi else _range(max(0.0, min(b, blo) - 0.1 * blo), bhi)
    what = "the identity u" if cand.is_identity else f"order {b:g}"
    name = cand.text(ctx.operator)  # type: ignore[arg-type]
    return [
        FitWarning(
            "beta_range",
            f"a term {name} ({what}, outside beta_range={_range(blo, bhi)}) would cut the "
            f"relative residual from {_num(base)} (best with in-range orders) to {_num(err)}; "
            f"widen it, e.g. beta_range={new}",
        )
    ]


def noise_residual(eq: Equation, ctx: FitContext, level: float) -> float:
    """Relative weak residual a white-noise field at ``level * std(u)`` alone would leave."""
    if level <= 0.0:
        return 0.0
    rng = np.random.default_rng(ctx.seed)
    noise = level * float(np.std(ctx.u)) * rng.standard_normal(ctx.u.shape)
    if not dataclasses.is_dataclass(ctx.source) or isinstance(ctx.source, type):
        return 0.0
    fields = {f.name for f in dataclasses.fields(ctx.source)}
    changes: dict[str, Any] = {"u": noise}
    if "_cache" in fields:
        changes["_cache"] = {}
    surrogate = dataclasses.replace(ctx.source, **changes)  # same tests, noise field
    y = ctx.source.targets(np.array([eq.alpha]), eq.mode)[0]
    r = surrogate.targets(np.array([eq.alpha]), eq.mode)[0].copy()
    for term in eq.terms:
        if ctx.two_d or term.power == 0:
            col = surrogate.columns(_search_index(term, ctx.two_d), np.array([term.order]))[0]
            r -= term.coef * col
    return float(np.linalg.norm(r) / (np.linalg.norm(y) + 1e-300))


def check_fit(fit_error: float, floor: float) -> list[FitWarning]:
    """poor_fit (absolute) and misfit (relative to the noise floor)."""
    fix = (
        "try a larger max_terms, wider alpha_range/beta_range, more powers or the other "
        "operator (directional/riesz)"
    )
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
    res = ctx.result
    eq = res.final
    level = estimate_noise(ctx.u)
    fit_error = float(res.fit_error)
    floor = _guarded(lambda: noise_residual(eq, ctx, level), 0.0)
    if not np.isfinite(floor):
        floor = 0.0
    out = check_bounds(eq, ctx)
    if not any(w.code == "beta_range" for w in out):
        out += _guarded(lambda: probe_beta_outside(eq, ctx, fit_error, floor), [])
    out += check_fit(fit_error, floor)
    out += check_front(res, ctx.max_terms)
    out += _guarded(lambda: check_small_terms(eq, ctx, max(fit_error, floor)), [])
    out.append(noise_note(level))
    return out, level, floor
