"""``refit=trajectory``: the selected linear model refitted to the data's trajectory (ours;
docs/method/trajectory-refit.md).

The weak form selects the terms; for a linear model on a periodic 1-D field its alpha, orders
and coefficients are then refitted by output error on the samples
(:mod:`weakpareto.method.trajectory_fit`), the maximum-likelihood estimate for white measurement
noise. ``refit=auto`` (the users' default) applies it where it is defined and says in an info
note what it moved; elsewhere the weak estimate stays without a note (``grid_["refit"]`` says
which estimate the equation is); ``refit=weak`` keeps the weak estimate (the paper's and ``wp
run``'s behaviour); ``refit=trajectory`` asks for it, refuses data it cannot handle in one line
and warns when the selected model is outside the class.
"""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import numpy as np

from weakpareto.errors import UserInputError, check_choice
from weakpareto.fit.context import FitWarning
from weakpareto.fit.markov_refit import (
    finish_markov,
    markov_note,
    markov_timings,
    noise_moves_with_dynamics,
)
from weakpareto.fit.nonlinear_refit import (
    is_nonlinear,
    nonlinear_data,
    nonlinear_note,
    nonlinear_refit,
)
from weakpareto.fit.sources import FitData
from weakpareto.fit.spec import REFIT_KINDS, FitSpec, RefitKind
from weakpareto.library.families import FamilyLibrary
from weakpareto.library.gram import FeatureSource
from weakpareto.library.noise_level import estimate_noise
from weakpareto.library.pooled import PooledSource
from weakpareto.method.nonlinear_trajectory_fit import refit_nonlinear
from weakpareto.method.trajectory_fit import (
    MaskedModeData,
    ModeData,
    RefitFamily,
    TrajectoryFit,
    TrajectoryModel,
    refit_trajectory,
)
from weakpareto.numerics.operators import SPECTRAL_KINDS
from weakpareto.numerics.tempered import TEMPERED_KINDS
from weakpareto.records import DiscoveryResult, Equation

#: Orders and alpha move at most this far from the weak estimate (a local refinement: the
#: weak estimate is within a few hundredths on every measured case).
TRUST = 0.3
#: Fewest modes with signal besides the mean.
MIN_MODES = 1
#: Fewest frames with samples.
MIN_FRAMES = 8
CODE = "trajectory_refit"


def check_refit(value: Any) -> RefitKind:
    """The validated ``refit=`` value."""
    hint = "auto: the selected linear model refitted to the data's trajectory where defined"
    return cast(RefitKind, check_choice("refit", value, REFIT_KINDS, hint))


def data_reason(spec: FitSpec, data: FitData, domain: str) -> str | None:
    """Why these data (and options) admit no trajectory refit, or None."""
    if data.two_d:
        return "a 2-D field"
    if domain != "periodic":
        return f"a {domain} domain (the modes of a periodic one are needed)"
    if spec.kind != "pareto" or spec.features != "weak":
        return f"method={spec.method} has no weak estimate to start from"
    if spec.noise_kind != "measurement":
        return "noise_kind=intrinsic (its own correction applies)"
    if any(f.forcing for f in data.fields):
        return "forcing="
    return None


def check_trajectory_supported(spec: FitSpec, data: FitData, domain: str) -> None:
    """One-line refusal of ``refit=trajectory`` where it has no implementation."""
    reason = data_reason(spec, data, domain)
    if reason is not None:
        raise UserInputError(
            f"refit=trajectory is not implemented for {reason}; use refit=auto or refit=weak"
        )


def model_reason(eq: Equation, nonlinear: bool = False) -> str | None:
    """Why the selected model admits no trajectory refit (``nonlinear``: by the stepper), or
    None."""
    if not eq.terms:
        return "the model has no term"
    if any(t.forcing for t in eq.terms):
        return "the model has a forcing term"
    if not nonlinear and any(t.power != 0 for t in eq.terms):
        return "the model is nonlinear (the modes of a linear one evolve alone)"
    families = {t.family or eq.operator for t in eq.terms}
    if not families <= set(SPECTRAL_KINDS) | set(TEMPERED_KINDS):
        return f"operator {sorted(families)} is not a Fourier multiplier of this refit"
    return None


def _not_applied(reason: str, requested: bool) -> list[FitWarning]:
    """A warning when ``refit=trajectory`` was asked for; ``auto`` keeps the weak estimate of a
    model outside the refit's class without a note (the JSON's timings say which was used)."""
    if not requested:
        return []
    return [FitWarning(CODE, f"trajectory refit not applied: {reason}")]


def refit_bounds(
    model: TrajectoryModel,
    alpha: float,
    orders: np.ndarray,
    spec: FitSpec,
    trust: float = TRUST,
    max_delay: float = 0.0,
    tempering_range: tuple[float, float] = (0.0, 0.0),
) -> tuple[np.ndarray, np.ndarray]:
    """Bounds of the packed parameters: alpha on the model's branch within ``alpha_range`` and
    ``trust`` of the start, the onset delay in ``[0, max_delay]``, log lambda within the logs
    of ``tempering_range``, each shared order within ``beta_range`` and ``trust`` of the start;
    coefficients free."""
    cfg = spec.discovery
    lo_a, hi_a = cfg.alpha_range
    if model.mode == "sub":
        a_box = (max(lo_a, alpha - trust), min(hi_a, 1.0 - cfg.eps_alpha, alpha + trust))
    else:
        a_box = (max(lo_a, 1.0 + cfg.eps_alpha, alpha - trust), min(hi_a, 2.0, alpha + trust))
    shared = model.pack(alpha, orders, np.zeros(orders.size))
    first = model.n_head
    b = shared[first : first + model.n_orders]
    b_lo = np.maximum(b - trust, max(cfg.beta_range[0], 1e-3))
    b_hi = np.minimum(b + trust, cfg.beta_range[1])
    inf = np.full(orders.size, np.inf)
    a_lo, a_hi = ([a_box[0]], [a_box[1]]) if model.alpha_free else ([], [])
    d_lo, d_hi = ([0.0], [max_delay]) if model.onset else ([], [])
    free = model.tempering_free
    l_lo, l_hi = ([np.log(tempering_range[0])], [np.log(tempering_range[1])]) if free else ([], [])
    lower = np.concatenate([a_lo, d_lo, l_lo, b_lo, -inf])
    upper = np.concatenate([a_hi, d_hi, l_hi, b_hi, inf])
    return lower, upper


def _times(source: Any, nt: int) -> np.ndarray:
    t = getattr(source, "t", None)
    if t is not None and np.size(t) == nt:
        return np.asarray(t, dtype=float)
    return float(source.dt) * np.arange(nt)


def finish_trajectory(
    result: DiscoveryResult,
    source: FeatureSource,
    spec: FitSpec,
    requested: bool,
    tempering_range: tuple[float, float] | None = None,
) -> tuple[DiscoveryResult, list[FitWarning]]:
    """The result with its final equation refitted to the trajectory, and a note; unchanged with
    a note (a warning when ``refit=trajectory`` was asked for) where the model admits none.
    Tempered families are refitted at the spec's lambda, or with lambda a parameter within
    ``tempering_range`` (lambda estimated: :mod:`weakpareto.user.tempering`); the fitted lambda
    is the result's ``timings["trajectory_tempering"]``."""
    eq = result.final
    if is_nonlinear(eq):
        return finish_nonlinear(result, source, spec, requested)
    reason = model_reason(eq)
    if reason is not None:
        return result, _not_applied(reason, requested)
    experiments = source.parts if isinstance(source, PooledSource) else (source,)
    data = [mode_data(part) for part in experiments]
    if any(isinstance(d, str) for d in data):
        return result, _not_applied(next(d for d in data if isinstance(d, str)), requested)
    families = cast("tuple[RefitFamily, ...]", tuple(t.family or eq.operator for t in eq.terms))
    orders = np.array([t.order for t in eq.terms], dtype=float)
    coef = np.array([t.coef for t in eq.terms], dtype=float)
    lam = float(spec.tempering or 0.0)
    model = TrajectoryModel.of_terms(
        eq.mode, families, orders, tempering=lam, tempering_free=tempering_range is not None
    )
    lam_range = tempering_range or (lam, lam)
    lower, upper = refit_bounds(model, float(eq.alpha), orders, spec, tempering_range=lam_range)
    if eq.mode == "int" and noise_moves_with_dynamics(experiments):
        pool = [eq, *(fp.equation for fp in result.front)]
        candidates = [e for e in pool if e.mode == "int" and model_reason(e) is None]

        def bounds_of(e: Equation, m: TrajectoryModel) -> tuple[np.ndarray, np.ndarray]:
            b = np.array([t.order for t in e.terms], dtype=float)
            return refit_bounds(m, 1.0, b, spec, trust=np.inf, tempering_range=lam_range)

        free = model.tempering_free
        chosen = finish_markov(candidates, experiments, bounds_of, lam, free)
        if chosen is not None:
            final = chosen.equation
            timings = markov_timings(result.timings, chosen.fit, free)
            out = dataclasses.replace(result, final=final, timings=timings)
            scaled = f"; tempering lambda x {chosen.fit.tempering / lam:.4g}" if free else ""
            return out, [markov_note(chosen.fit, moves(eq, final) + scaled)]
    parts = cast("list[ModeData | MaskedModeData]", data)
    fit = refit_trajectory(parts, model, float(eq.alpha), orders, coef, lower, upper)
    wide = refit_bounds(
        model, float(eq.alpha), orders, spec, trust=np.inf, tempering_range=lam_range
    )
    edge = trust_edge(model, fit, (lower, upper), wide)
    if edge is not None:  # on the trust box: no optimum there; go on within the search ranges
        wider = refit_trajectory(parts, model, fit.alpha, fit.orders, fit.coef, *wide,
                                 tempering=fit.tempering)  # fmt: skip
        if wider.residual < fit.residual:
            evaluations = fit.n_evaluations + wider.n_evaluations
            fit = dataclasses.replace(
                wider, start_residual=fit.start_residual, n_evaluations=evaluations
            )
    final = refitted_equation(eq, fit)
    timings = refit_timings(result.timings, fit)
    scaled = ""
    if model.tempering_free:
        timings["trajectory_tempering"] = fit.tempering
        scaled = f"; tempering lambda x {fit.tempering / lam:.4g}"
    note = FitWarning(
        CODE,
        f"trajectory refit ({fit.n_modes} Fourier modes x {fit.n_frames} frames, "
        f"{fit.n_evaluations} evaluations): "
        + moves(eq, final)
        + scaled
        + f"; rms misfit of the samples {100 * np.sqrt(fit.start_residual):.3g} % -> "
        f"{100 * np.sqrt(fit.residual):.3g} % of their signal",
        "info",
    )
    # E_fit stays the weak form's (the selection's measure, noise-corrected where the method is)
    out = dataclasses.replace(result, final=final, timings=timings)
    if edge is None:
        return out, [note]
    return out, [note, _edge_warning(fit, edge)]


def finish_nonlinear(
    result: DiscoveryResult, source: FeatureSource, spec: FitSpec, requested: bool
) -> tuple[DiscoveryResult, list[FitWarning]]:
    """:func:`finish_trajectory` for a nonlinear model: the output-error refit through the
    package's fractional stepper (:mod:`weakpareto.fit.nonlinear_refit`), first within the trust
    box and, where it ends on the box, within the search ranges."""
    eq = result.final
    reason = model_reason(eq, nonlinear=True)
    data = nonlinear_data(source) if reason is None else reason
    if isinstance(data, str):
        return result, _not_applied(data, requested)
    problem = nonlinear_refit(eq, data, float(spec.tempering or 0.0))
    if isinstance(problem, str):
        return result, _not_applied(problem, requested)
    model = problem.model.terms
    orders = np.array([t.order for t in eq.terms], dtype=float)
    coef = np.array([t.coef for t in eq.terms], dtype=float)
    box = refit_bounds(model, float(eq.alpha), orders, spec)
    wide = refit_bounds(model, float(eq.alpha), orders, spec, trust=np.inf)
    fit = refit_nonlinear(problem, orders, coef, *box)
    edge = trust_edge(model, fit, box, wide)
    if edge is not None:  # on the trust box: go on within the search ranges
        wider = refit_nonlinear(problem, orders, coef, *wide)
        if wider.residual < fit.residual:
            evaluations = fit.n_evaluations + wider.n_evaluations
            fit = dataclasses.replace(
                wider, start_residual=fit.start_residual, n_evaluations=evaluations
            )
        edge = trust_edge(model, fit, box, wide)
    final = refitted_equation(eq, fit)
    timings = dict(refit_timings(result.timings, fit), trajectory_substeps=problem.substeps)
    notes = [nonlinear_note(CODE, problem.substeps, fit, moves(eq, final))]
    if edge is not None:
        notes.append(_edge_warning(fit, edge))
    return dataclasses.replace(result, final=final, timings=timings), notes


def _edge_warning(fit: TrajectoryFit, edge: tuple[str, int]) -> FitWarning:
    name, j = edge
    assert fit.parameters is not None
    return FitWarning(
        CODE,
        f"the trajectory refit moved {name} more than {TRUST:g} from the weak estimate (to "
        f"{fit.parameters[j]:.4f}): the samples and the weak form disagree by more than a "
        "refinement, so the model, its family or the noise model may not describe the data "
        "(refit=weak gives the weak estimate)",
    )


def trust_edge(
    model: TrajectoryModel,
    fit: TrajectoryFit,
    box: tuple[np.ndarray, np.ndarray],
    wide: tuple[np.ndarray, np.ndarray],
) -> tuple[str, int] | None:
    """The first of alpha and the orders that ended on an edge of the trust box ``box`` that is
    not an edge of the search ranges ``wide``, and its index among the packed parameters
    (None: none did)."""
    if fit.parameters is None:
        return None
    names = (["alpha"] if model.alpha_free else []) + (["onset"] if model.onset else [])
    names += (["lambda"] if model.tempering_free else []) + [
        f"order {j + 1}" for j in range(model.n_orders)
    ]
    p, (lo, hi), (wlo, whi) = fit.parameters, box, wide
    tol = 1e-6
    for j, name in enumerate(names):
        if name in ("onset", "lambda"):
            continue
        low = abs(p[j] - lo[j]) <= tol and lo[j] > wlo[j] + tol
        high = abs(p[j] - hi[j]) <= tol and hi[j] < whi[j] - tol
        if low or high:
            return name, j
    return None


def refitted_equation(eq: Equation, fit: TrajectoryFit) -> Equation:
    """``eq`` with the refit's alpha (fractional branches), orders and coefficients."""
    terms = tuple(
        dataclasses.replace(t, order=float(b), coef=float(c))
        for t, b, c in zip(eq.terms, fit.orders, fit.coef, strict=True)
    )
    alpha = fit.alpha if eq.mode != "int" else eq.alpha
    return dataclasses.replace(eq, alpha=alpha, terms=terms)


def refit_timings(timings: dict[str, float], fit: TrajectoryFit) -> dict[str, float]:
    """The result's timings with the refit's record (read by ``grid_["refit"]``)."""
    return dict(
        timings,
        trajectory_modes=float(fit.n_modes),
        trajectory_frames=float(fit.n_frames),
        trajectory_residual_start=fit.start_residual,
        trajectory_residual=fit.residual,
        trajectory_seconds=fit.seconds,
    )


def moves(weak: Equation, final: Equation) -> str:
    """What the refit moved that has no units: alpha and the orders (the fit runs on
    dimensionless data, whose coefficients convert to the data's units through alpha and the
    orders; the front shows the weak coefficients in the data's units)."""
    parts = []
    if final.mode != "int":
        parts.append(f"alpha {weak.alpha:.4f} -> {final.alpha:.4f}")
    free = [(a.order, b.order) for a, b in zip(weak.terms, final.terms) if a.order != 0.0]
    if free:
        before = ", ".join(f"{a:.4f}" for a, _ in free)
        after = ", ".join(f"{b:.4f}" for _, b in free)
        parts.append(f"orders {before} -> {after}")
    return "; ".join(parts) if parts else "coefficients only"


def mode_data(source: Any) -> ModeData | MaskedModeData | str:
    """The signal modes of one experiment's field, or why it has none to fit."""
    # a library of several families is one field and one set of tests
    lib: Any = source.parts[0] if isinstance(source, FamilyLibrary) else source
    u = np.asarray(lib.u, dtype=float)
    weights = getattr(lib, "sample_weights", None)
    missing = None if weights is None else np.asarray(weights) <= 0.0
    nt, nx = u.shape
    if missing is not None and nt - int(np.sum(np.all(missing, axis=1))) < MIN_FRAMES:
        return f"fewer than {MIN_FRAMES} frames with samples"
    own = getattr(lib, "noise_estimate", None)  # a source of missing samples reads its own
    estimate = own("auto") if own is not None else estimate_noise(u, "auto")
    noise = float(np.mean(estimate.variance)) if estimate is not None else 0.0
    times = _times(lib, nt)
    if missing is None or not missing.any():
        data: ModeData | MaskedModeData = ModeData.of_field(u, times, lib.period, noise)
    else:  # the signal modes from frames filled with their mean; the fit on the samples taken
        count = np.maximum(np.sum(~missing, axis=1, keepdims=True), 1)
        mean = np.sum(np.where(missing, 0.0, u), axis=1, keepdims=True) / count
        filled = np.where(missing, mean, u)
        kappa = ModeData.of_field(filled, times, lib.period, noise).kappa
        x = float(lib.period) / nx * np.arange(nx)
        data = MaskedModeData.of_field(u, times, x, kappa, missing)
    if data.n_modes - int(np.any(data.kappa == 0.0)) < MIN_MODES:
        return "no Fourier mode carries signal above the noise"
    return data
