"""``tempering=`` of ``WeakPareto`` / ``wp discover``: lambda of the tempered families, given or
estimated (ours; docs/method/tempered.md).

Given (``tempering=lam``, in 1/x units): the tempered families are fixed-symbol families at
``lam`` (times the x scale on the dimensionless grid, :mod:`weakpareto.user.scaling`: the symbol
``(lambda + i kappa)^beta`` scales like ``kappa^beta``, so coefficients map back as for every
family).

Estimated (``tempering=None`` with a tempered family): the search runs at the geometric middle
``lambda_0`` of the identifiable range ``[0.1 kappa_1, kappa_N]`` (``kappa_1 = 2 pi / L`` the
lowest wavenumber, ``kappa_N = pi / dx`` the Nyquist one: far below ``kappa_1`` every tempered
symbol is its untempered family, far above ``kappa_N`` a power of ``kappa^2``). The selected
model's structure, and that of every smaller model of its front, is then kept and lambda found
per structure by a 1-D search on ``log lambda`` of its misfit ``E_fit(lambda)`` (the gain rule
then chooses among them: at a wrong lambda an extra term can pay for the wrong symbol): at
each lambda the orders (alpha and the betas) are re-polished by
Nelder-Mead from the selected model's and the coefficients refitted exactly
(:func:`refit_structure`); a scan of :data:`SCAN_POINTS` log-spaced values brackets the minimum
and a bounded Brent search (``scipy.optimize.minimize_scalar``) refines it. Everything is
deterministic (fixed starts, no random draws).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from weakpareto._typing import Array
from weakpareto.fit.checks import FitWarning
from weakpareto.fit.restrictions import check_tempering_supported
from weakpareto.fit.run import FitOutcome, data_domain, fit
from weakpareto.fit.sources import FitData
from weakpareto.fit.spec import FitSpec
from weakpareto.fit.trajectory import finish_trajectory
from weakpareto.library.families import encode_kind, families_of, retempered
from weakpareto.library.gram import FeatureSource
from weakpareto.method.exact_fit import exact_system, fit_rows, relative_residual
from weakpareto.method.selection import select_gain
from weakpareto.method.settings import DiscoveryConfig
from weakpareto.numerics.orders import beta_nodes, first_positive, temporal_branches
from weakpareto.records import Equation
from weakpareto.user.scaling import Scales

#: Lower end of the searched lambda as a fraction of the lowest wavenumber ``2 pi / L``.
LOW_FRACTION = 0.1
#: Log-spaced lambdas scanned before the bounded Brent search.
SCAN_POINTS = 9
#: Brent tolerance on ``log lambda`` (0.1 %).
LOG_XATOL = 1e-3
#: Most searches of one estimated fit, and the change of ``log lambda`` that ends them.
MAX_PASSES = 4
PASS_LOG_TOL = 0.02


def tempering_bounds(data: FitData) -> tuple[float, float]:
    """``[0.1 * 2 pi / L, pi / dx]`` in the units of the fitted x (module docstring)."""
    lows, highs = [], []
    for f in data.fields:
        dx = float(f.x[1] - f.x[0])
        period = f.period if f.period is not None else dx * f.x.size
        lows.append(LOW_FRACTION * 2.0 * math.pi / period)
        highs.append(math.pi / dx)
    return min(lows), max(highs)


def prepare_tempering(spec: FitSpec, data: FitData, scales: Scales) -> FitSpec:
    """The spec to fit the dimensionless ``data`` with: a given lambda times the x scale, or
    (to be estimated) the search's ``lambda_0``; refused where tempering has no
    implementation (:func:`weakpareto.fit.restrictions.check_tempering_supported`)."""
    if not spec.tempered:
        return spec
    check_tempering_supported(spec, data, data_domain(spec.domain, data).domain)
    if spec.tempering is not None:
        return dataclasses.replace(spec, tempering=spec.tempering * scales.x)
    lo, hi = tempering_bounds(data)
    return dataclasses.replace(spec, tempering=math.sqrt(lo * hi))


def _kinds(eq: Equation, source: FeatureSource) -> tuple[int, ...]:
    """The column kind of every term (an identity term: the first family's, all are 1)."""
    families = families_of(source)
    out = []
    for term in eq.terms:
        family = term.family_in(eq.operator)
        f = families.index(family) if family in families and not term.is_identity else 0
        out.append(encode_kind(term.power, f, len(families)))
    return tuple(out)


def refit_structure(
    source: FeatureSource, eq: Equation, cfg: DiscoveryConfig
) -> tuple[Equation, float]:
    """``eq``'s terms on ``source``: orders re-polished from ``eq``'s (Nelder-Mead on the exact
    all-row residual with the search's ridge, within the temporal branch and ``beta_range``;
    identity terms stay identity) and coefficients refitted with the refit ridge (paper Eq. 22).
    Returns the equation and its ``E_fit``."""
    from scipy.optimize import minimize  # imported when used (start-up)

    kinds = _kinds(eq, source)
    alpha0 = 1.0 if eq.mode == "int" else float(eq.alpha)
    betas0 = np.array([float(t.order) for t in eq.terms])
    free = ~np.array([t.is_identity for t in eq.terms], dtype=bool)
    branch = next(
        b
        for b in temporal_branches(cfg.alpha_range, cfg.n_alpha_nodes, cfg.eps_alpha)
        if b.mode == eq.mode
    )
    fractional = not branch.is_integer
    b_lo = first_positive(beta_nodes(cfg.beta_range, cfg.n_beta_nodes, cfg.min_positive_order))
    lo = np.array(([branch.lo] if fractional else []) + [b_lo] * int(free.sum()))
    hi = np.array(([branch.hi] if fractional else []) + [cfg.beta_range[1]] * int(free.sum()))

    def unpack(v: Array) -> tuple[float, Array]:
        v = np.clip(v, lo, hi)
        betas = betas0.copy()
        betas[free] = v[1:] if fractional else v
        return (float(v[0]) if fractional else alpha0), betas

    def residual(v: Array) -> float:
        alpha, betas = unpack(v)
        y, x = exact_system(source, eq.mode, alpha, kinds, betas)
        return relative_residual(y, x, fit_rows(y, x, cfg.search.ridge))

    v0 = np.concatenate([[alpha0] if fractional else [], betas0[free]])
    alpha, betas = alpha0, betas0
    if cfg.refine.polish and v0.size:
        options = {"maxiter": cfg.refine.maxiter, "xatol": cfg.refine.xatol}
        options["fatol"] = cfg.refine.fatol
        alpha, betas = unpack(minimize(residual, v0, method="Nelder-Mead", options=options).x)
    y, x = exact_system(source, eq.mode, alpha, kinds, betas)
    ridge = cfg.search.ridge if cfg.refine.ridge is None else cfg.refine.ridge
    coef = fit_rows(y, x, ridge)
    terms = tuple(
        dataclasses.replace(t, order=float(b) if not t.is_identity else 0.0, coef=float(c))
        for t, b, c in zip(eq.terms, betas, coef)
    )
    final = Equation(eq.mode, alpha, terms, eq.operator).canonical()
    return final, relative_residual(y, x, coef)


def minimise_log(
    misfit: Callable[[float], float], lo: float, hi: float
) -> tuple[float, list[tuple[float, float]]]:
    """The ``lambda`` in ``[lo, hi]`` of least ``misfit``: a log-spaced scan, then a bounded
    Brent search between the best scan point's neighbours. Returns it and every (lambda,
    misfit) evaluated."""
    from scipy.optimize import minimize_scalar

    seen: list[tuple[float, float]] = []

    def on_log(s: float) -> float:
        value = misfit(math.exp(s))
        seen.append((math.exp(s), value))
        return value

    grid = np.linspace(math.log(lo), math.log(hi), SCAN_POINTS)
    errors = [on_log(float(s)) for s in grid]
    i = int(np.argmin(errors))
    a, b = grid[max(i - 1, 0)], grid[min(i + 1, SCAN_POINTS - 1)]
    minimize_scalar(on_log, bounds=(a, b), method="bounded", options={"xatol": LOG_XATOL})
    best = min(seen, key=lambda p: p[1])
    return best[0], seen


def fit_tempered(
    data: FitData, spec: FitSpec, scales: Scales
) -> tuple[FitOutcome, float | None, list[FitWarning]]:
    """:func:`weakpareto.fit.run.fit` of the dimensionless ``data`` with the tempering of
    ``spec`` (module docstring): given, one fit at it; estimated, search and estimate in turn
    (the search at ``lambda_0``, lambda estimated on its selected model, the search again at
    the estimate, ...) until the estimate moves by less than :data:`PASS_LOG_TOL` in log or
    after :data:`MAX_PASSES` searches. Returns the outcome, lambda in the data's units (None
    without tempered families) and the notes."""
    current = prepare_tempering(spec, data, scales)
    outcome = fit(data, current, rescaled=True)
    out = finish_tempering(outcome, data, spec.tempering, scales.x)
    if not current.tempered:
        return out
    if spec.tempering is not None:
        return refit_tempered(out, None, scales.x)
    start = current.tempering
    assert start is not None
    for _ in range(MAX_PASSES - 1):
        lam = out[0].spec.tempering
        assert lam is not None
        if abs(math.log(lam / start)) < PASS_LOG_TOL:
            break
        start = lam
        outcome = fit(data, dataclasses.replace(current, tempering=lam), rescaled=True)
        out = finish_tempering(outcome, data, None, scales.x)
    return refit_tempered(out, tempering_bounds(data), scales.x)


def refit_tempered(
    out: tuple[FitOutcome, float | None, list[FitWarning]],
    tempering_range: tuple[float, float] | None,
    x_scale: float,
) -> tuple[FitOutcome, float | None, list[FitWarning]]:
    """The trajectory refit of a tempered fit (:func:`weakpareto.fit.trajectory.
    finish_trajectory`) at its lambda, or with lambda refitted within ``tempering_range``
    (estimated); unchanged with ``refit=weak``."""
    outcome, lam, notes = out
    spec, source = outcome.spec, outcome.source
    if spec.refit == "weak" or source is None:
        return out
    result, refit_notes = finish_trajectory(
        outcome.result, source, spec, spec.refit == "trajectory", tempering_range
    )
    outcome = dataclasses.replace(outcome, result=result)
    fitted = result.timings.get("trajectory_tempering")
    if fitted is not None:  # lambda refitted with the model: the source and spec at it
        outcome = dataclasses.replace(
            outcome,
            source=retempered(source, fitted),
            spec=dataclasses.replace(spec, tempering=fitted),
        )
        lam = fitted / x_scale
    return outcome, lam, [*notes, *refit_notes]


def finish_tempering(
    outcome: FitOutcome, data: FitData, given: float | None, x_scale: float = 1.0
) -> tuple[FitOutcome, float | None, list[FitWarning]]:
    """The outcome with lambda estimated when it was not ``given`` (module docstring): the
    final equation refitted at the estimate, the source at it. Returns the outcome, lambda in
    the data's units (the fitted x is the data's over ``x_scale``; None without tempered
    families) and a note."""
    spec = outcome.spec
    if not spec.tempered or outcome.source is None:
        return outcome, None, []
    assert spec.tempering is not None  # prepare_tempering set it
    if given is not None:
        return outcome, spec.tempering / x_scale, []
    lo, hi = tempering_bounds(data)
    base = outcome.source
    fits = [_at_estimated_lambda(base, c, spec.discovery, lo, hi) for c in _structures(outcome)]
    # the search ran at a guessed lambda, where a wrong symbol can buy an extra term: every
    # smaller front model gets its own lambda too, and the gain rule chooses among them
    sel = spec.discovery.selection
    sizes = np.array([len(f[1].terms) for f in fits], dtype=float)
    errors = np.array([f[2] ** 2 for f in fits])
    lam, final, fit_error, seen = fits[select_gain(sizes, errors, sel.margin, sel.gain_floor)]
    source = retempered(base, lam)
    result = dataclasses.replace(outcome.result, final=final, fit_error=fit_error)
    note = FitWarning(
        "tempering",
        f"tempering lambda {lam / x_scale:.4g} estimated on the selected model's structure "
        f"({len(seen)} refits in [{lo / x_scale:.3g}, {hi / x_scale:.3g}], 1/x units); the "
        f"search and its front used lambda {spec.tempering / x_scale:.4g}",
        "info",
    )
    out = dataclasses.replace(
        outcome, result=result, source=source, spec=dataclasses.replace(spec, tempering=lam)
    )
    return out, lam / x_scale, [note]


def _structures(outcome: FitOutcome) -> list[Equation]:
    """The selected model and the smaller models of its front, by size."""
    eq = outcome.result.final
    smaller = {fp.size: fp.equation for fp in outcome.result.front if fp.size < len(eq.terms)}
    return [smaller[k] for k in sorted(smaller)] + [eq]


def _at_estimated_lambda(
    source: FeatureSource, eq: Equation, cfg: DiscoveryConfig, lo: float, hi: float
) -> tuple[float, Equation, float, list[tuple[float, float]]]:
    """``eq``'s structure with lambda estimated (:func:`minimise_log`): lambda, the refitted
    equation, its ``E_fit`` and every (lambda, misfit) evaluated."""

    def misfit(lam: float) -> float:
        return refit_structure(retempered(source, lam), eq, cfg)[1]

    lam, seen = minimise_log(misfit, lo, hi)
    final, fit_error = refit_structure(retempered(source, lam), eq, cfg)
    return lam, final, fit_error, seen


def tempering_record(lam: float | None, given: float | None) -> dict[str, Any]:
    """The grid entries of a fit's tempering: ``tempering`` (lambda, 1/x units) and
    ``tempering_given``; none without tempered families."""
    return {} if lam is None else {"tempering": lam, "tempering_given": given is not None}
