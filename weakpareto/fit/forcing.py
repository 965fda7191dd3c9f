"""Known forcing in a fit: what supports it, and the forcing terms of the result (ours).

Model: ``T_{m,alpha} u = sum_j xi_j u^{p_j} X_{beta_j} u + sum_f c_f f`` with known fields ``f``
(:mod:`weakpareto.library.forcing`). The search runs on the :class:`~weakpareto.library.forcing.
ForcedSource`: a forcing with a given coefficient sits on the target side, one with an estimated
coefficient is in every model (projected out of target and columns), so the support sweep,
selection, pruning, polish and refit choose the operator terms as without forcing.
:func:`finish_forcing` then

1. refits the selected operator terms together with the estimated forcing columns on all rows
   at their exact orders (the method's refit ridge) — the coefficients and ``E_fit`` of the
   whole equation, ``||b - sum_j xi_j theta_j - sum_f c_f F_f|| / ||b||``;
2. decides per estimated forcing term with the gain rule's criterion: backward elimination
   drops the term whose removal raises ``log10(E_fit^2 + gain_floor)`` least while that rise
   stays within the selection ``margin`` (an unrelated field explains nothing and is dropped;
   a forcing the data need leaves a large misfit without it and is kept);
3. names every kept forcing term in the equations (final, selected and front models: their
   estimated forcing coefficients by least squares on their residual).

Refused with a one-line reason (:func:`check_forcing_supported`): 2-D data, several experiments,
bounded windows, uncertainty, and methods other than the weak Pareto search. With several operator
families (``operator=auto``) each operator term is in its family, the forcing in every model.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from weakpareto._typing import Array
from weakpareto.errors import UserInputError
from weakpareto.fit.context import FitContext, FitWarning
from weakpareto.fit.restrictions import require_one_periodic_1d_field, without_noise_scoring
from weakpareto.fit.sources import FitData, FitField
from weakpareto.fit.spec import FitSpec
from weakpareto.library.families import term_kind
from weakpareto.library.forcing import ForcedSource, Forcing
from weakpareto.library.gram import EPS_REL
from weakpareto.method.exact_fit import fit_rows
from weakpareto.method.settings import DiscoveryConfig
from weakpareto.records import DiscoveryResult, Equation, Term


def forcing_of(data: FitData) -> tuple[Forcing, ...]:
    """The known forcing fields of the data (none for several experiments)."""
    return data.forcing if isinstance(data, FitField) else ()


def check_forcing_supported(spec: FitSpec, data: FitData, domain: str) -> None:
    """A one-line ``UserInputError`` where known forcing has no implementation."""
    what = "known forcing (forcing=)"
    require_one_periodic_1d_field(
        what, data, domain, "fit without forcing", " (the window's tests are its own)"
    )
    if spec.kind != "pareto" or spec.features != "weak":
        raise UserInputError(
            f"{what} enters the weak Pareto search; method={spec.method} has no forcing term: "
            "use method=weak_pareto_robust, weak_pareto_exact or weak_pareto"
        )
    if spec.uncertainty is not None:
        raise UserInputError(
            f"uncertainty=bootstrap does not resample {what}; fit without uncertainty="
        )


def forcing_applicable(spec: FitSpec) -> tuple[FitSpec, list[FitWarning]]:
    """The spec without noise-aware scoring (its covariance describes the unforced weak rows)
    and the note that says so."""
    return without_noise_scoring(spec, "the unforced weak rows; with known forcing")


# -- the forcing terms of a result -----------------------------------------------------------------
def _operator_columns(source: ForcedSource, eq: Equation) -> Array:
    """Unprojected weak columns ``(K, c)`` of an equation's operator terms (each in its family
    on a library of several)."""
    base = source.base
    cols = [
        base.columns(term_kind(base, t.power, t.family_in(eq.operator)), np.array([t.order]))[0]
        for t in eq.terms
        if t.forcing is None
    ]
    return np.array(cols).reshape(len(cols), base.n_rows).T


def _lhs(source: ForcedSource, eq: Equation) -> tuple[Array, Array]:
    """The weak target ``b`` and the known (fixed-coefficient) forcing at the equation's order."""
    alpha = np.array([eq.alpha])
    y = np.asarray(source.base.targets(alpha, eq.mode))[0]
    known = source.shift_at(alpha, eq.mode)[0]
    return y, known


def _fixed_terms(forcing: Sequence[Forcing], eq: Equation) -> list[Term]:
    """The given-coefficient terms in the fit's units (``coef * time_unit**alpha``)."""
    alpha = 1.0 if eq.mode == "int" else float(eq.alpha)
    return [
        Term(0, 0.0, float(f.coef) * float(f.time_unit) ** alpha, forcing=f.name, fixed=True)
        for f in forcing
        if f.coef is not None
    ]


def _residual(y: Array, design: Array, coef: Array) -> float:
    return float(np.linalg.norm(y - design @ coef))


def eliminate_forcing(
    y: Array, x: Array, forcing_cols: Array, scale: float, cfg: DiscoveryConfig, ridge: float
) -> tuple[list[int], Array, float]:
    """Backward elimination of estimated forcing columns ``(K, m)`` next to the operator
    columns ``x (K, c)`` (module docstring, step 2): the kept forcing indices, the coefficients
    ``[xi, c_kept]`` and the relative residual (``scale`` is ``||b||``)."""

    def fit(kept: list[int]) -> tuple[Array, float]:
        design = np.hstack([x, forcing_cols[:, kept]])
        if design.shape[1] == 0:
            return np.zeros(0), float(np.linalg.norm(y) / (scale + EPS_REL))
        coef = fit_rows(y, design, ridge)
        return coef, _residual(y, design, coef) / (scale + EPS_REL)

    def score(err: float) -> float:
        return float(np.log10(err**2 + cfg.selection.gain_floor))

    kept = list(range(forcing_cols.shape[1]))
    coef, err = fit(kept)
    while kept:
        options = [(score(fit([k for k in kept if k != j])[1]), j) for j in kept]
        rise, j = min(options)
        if rise - score(err) > cfg.selection.margin:
            break
        kept = [k for k in kept if k != j]
        coef, err = fit(kept)
    return kept, coef, err


def _with_forcing(eq: Equation, coef: Array, names: Sequence[str], fixed: list[Term]) -> Equation:
    """Operator terms with coefficients ``coef[:c]``, then the estimated forcing terms
    ``coef[c:]`` named ``names``, then the given ones."""
    ops = [t for t in eq.terms if t.forcing is None]
    terms = [dataclasses.replace(t, coef=float(c)) for t, c in zip(ops, coef)]
    terms += [Term(0, 0.0, float(c), forcing=n) for n, c in zip(names, coef[len(ops) :])]
    return Equation(eq.mode, eq.alpha, tuple(terms + fixed), eq.operator).canonical()


def _front_model(source: ForcedSource, forcing: Sequence[Forcing], eq: Equation) -> Equation:
    """A front model with its forcing terms: the estimated coefficients by least squares on its
    residual (its operator coefficients are those of the search)."""
    y, known = _lhs(source, eq)
    x = _operator_columns(source, eq)
    xi = np.array([t.coef for t in eq.terms if t.forcing is None])
    cols = source.estimated.T
    c = np.linalg.lstsq(cols, y - known - x @ xi, rcond=None)[0] if cols.shape[1] else xi[:0]
    names = [f.name for f in forcing if f.estimated]
    return _with_forcing(eq, np.concatenate([xi, c]), names, _fixed_terms(forcing, eq))


def finish_forcing(
    result: DiscoveryResult, source: ForcedSource, forcing: Sequence[Forcing], cfg: DiscoveryConfig
) -> tuple[DiscoveryResult, ForcedSource]:
    """The result with its forcing terms (module docstring) and the source of its diagnostics:
    the base library with every kept forcing term on the target side at its coefficient."""
    eq = result.final
    y, known = _lhs(source, eq)
    x = _operator_columns(source, eq)
    ridge = cfg.search.ridge if cfg.refine.ridge is None else cfg.refine.ridge
    est = [f for f in forcing if f.estimated]
    kept, coef, err = eliminate_forcing(
        y - known, x, source.estimated.T, float(np.linalg.norm(y)), cfg, ridge
    )
    fixed = _fixed_terms(forcing, eq)
    final = _with_forcing(eq, coef, [est[k].name for k in kept], fixed)
    front = tuple(
        dataclasses.replace(fp, equation=_front_model(source, forcing, fp.equation))
        for fp in result.front
    )
    timings = dict(result.timings, forcing_dropped=float(len(est) - len(kept)))
    out = dataclasses.replace(
        result,
        final=final,
        fit_error=err,
        front=front,
        selected=_front_model(source, forcing, result.selected),
        timings=timings,
    )
    return out, diagnostic_source(source, final)


def diagnostic_source(source: ForcedSource, final: Equation) -> ForcedSource:
    """The base library with the final equation's forcing terms on the target side at their
    coefficients (in the fit's units: no time-unit factor)."""
    coef = {t.forcing: t.coef for t in final.terms if t.forcing is not None}
    rows = [k for k, name in enumerate(source.names) if name in coef]
    return ForcedSource(
        base=source.base,
        names=tuple(source.names[k] for k in rows),
        forcing_columns=source.forcing_columns[rows],
        coef=np.array([coef[source.names[k]] for k in rows], dtype=float),
        unit=np.ones(len(rows)),
    )


def without_forcing(ctx: FitContext) -> FitContext:
    """The diagnostics' context: the equations' operator terms only (the source carries the
    forcing on its target side, :func:`diagnostic_source`)."""
    res = ctx.result
    if not any(t.forcing is not None for t in res.final.terms):
        return ctx
    final = dataclasses.replace(
        res.final, terms=tuple(t for t in res.final.terms if t.forcing is None)
    )
    return dataclasses.replace(ctx, result=dataclasses.replace(res, final=final))
