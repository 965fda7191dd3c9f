"""The trajectory refit of a Markovian model on data whose noise moves with the dynamics (ours;
docs/method/trajectory-refit.md#noise-that-moves-with-the-dynamics).

On the integer branch (alpha = 1) a linear model's modes are Markovian, and where the data's
noise is correlated in time (:func:`weakpareto.fit.noise_structure.time_to_space_ratio`: e.g.
the counting noise of particle densities, carried by the particles) the output-error refit of
deterministic trajectories is biased (the fluctuations do not decay; the highest order comes out
low). There the refit fits one-step propagators instead
(:mod:`weakpareto.method.markov_fit`), which is consistent for state noise and for white
measurement noise alike.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from weakpareto.fit.context import FitWarning
from weakpareto.fit.noise_structure import TIME_TO_SPACE, time_to_space_ratio
from weakpareto.library.families import FamilyLibrary
from weakpareto.method.markov_fit import MarkovFit, PropagatorData, refit_markov
from weakpareto.method.trajectory_fit import RefitFamily, TrajectoryModel
from weakpareto.records import Equation

CODE = "trajectory_refit"
#: Tail probability of the likelihood-ratio rule between candidate models.
SIGNIFICANCE = 1e-3


def noise_moves_with_dynamics(experiments: Sequence[Any]) -> bool:
    """The noise of every experiment's field reads as correlated in time."""
    ratios = [time_to_space_ratio(_library(part).u) for part in experiments]
    return bool(ratios) and all(r is not None and r < TIME_TO_SPACE for r in ratios)


def _library(source: Any) -> Any:
    return source.parts[0] if isinstance(source, FamilyLibrary) else source


def propagator_data(source: Any) -> PropagatorData | str:
    """The instrumented propagators of one experiment's field, or why it has none."""
    lib = _library(source)
    u = np.asarray(lib.u, dtype=float)
    t = getattr(lib, "t", None)
    if t is not None and np.size(t) == u.shape[0]:
        times = np.asarray(t, dtype=np.float64)
    else:
        times = float(lib.dt) * np.arange(u.shape[0], dtype=np.float64)
    weights = getattr(lib, "sample_weights", None)
    if weights is not None and np.any(np.asarray(weights) <= 0.0):
        return "missing samples"
    return PropagatorData.of_field(u, times, float(lib.period))


@dataclass(frozen=True)
class MarkovCandidate:
    """One candidate model and its one-step refit."""

    weak: Equation
    fit: MarkovFit

    @property
    def equation(self) -> Equation:
        terms = tuple(
            dataclasses.replace(t, order=float(b), coef=float(c))
            for t, b, c in zip(self.weak.terms, self.fit.orders, self.fit.coef, strict=True)
        )
        return dataclasses.replace(self.weak, terms=terms)


def finish_markov(
    candidates: Sequence[Equation],
    experiments: Sequence[Any],
    bounds_of: Callable[[Equation, TrajectoryModel], tuple[np.ndarray, np.ndarray]],
    tempering: float = 0.0,
    tempering_free: bool = False,
) -> MarkovCandidate | None:
    """The integer-branch linear ``candidates`` (the selection first, then the front's) refitted
    to one-step propagators, and the one the likelihood-ratio rule keeps (:func:`select_markov`);
    None where the data have too few usable modes (the output-error refit applies). Tempered
    families at ``tempering`` (lambda), or from it with lambda a parameter
    (``tempering_free``)."""
    data = [propagator_data(part) for part in experiments]
    usable = [d for d in data if isinstance(d, PropagatorData)]
    if len(usable) < len(data) or not candidates:
        return None
    done: list[MarkovCandidate] = []
    seen: set[tuple[object, ...]] = set()
    for eq in candidates:
        key = tuple((t.family or eq.operator, round(float(t.order), 6)) for t in eq.terms)
        if key in seen:
            continue
        seen.add(key)
        families = cast("tuple[RefitFamily, ...]", tuple(t.family or eq.operator for t in eq.terms))
        orders = np.array([t.order for t in eq.terms], dtype=float)
        coef = np.array([t.coef for t in eq.terms], dtype=float)
        model = TrajectoryModel.of_terms(
            "int", families, orders, tempering=tempering, tempering_free=tempering_free
        )
        fit = refit_markov(usable, model, orders, coef, *bounds_of(eq, model))
        done.append(MarkovCandidate(eq, fit))
    return select_markov(done)


def select_markov(refits: Sequence[MarkovCandidate]) -> MarkovCandidate:
    """The smallest model whose chi-square exceeds the best's by less than the likelihood-ratio
    rule's quantile (tail :data:`SIGNIFICANCE`) for the parameters it lacks, the chi-squares
    scaled by the best model's per degree of freedom (the propagators' variances are estimates)."""
    from scipy.special import chdtri  # chi-square quantile; imported when used (start-up)

    best = min(refits, key=lambda r: r.fit.chi2)
    n_best = best.fit.parameters.size
    scale = max(best.fit.chi2 / max(best.fit.dof, 1), 1e-300)
    kept = [
        r
        for r in refits
        if (r.fit.chi2 - best.fit.chi2) / scale
        <= chdtri(max(n_best - r.fit.parameters.size, 1), SIGNIFICANCE)
    ]
    return min(kept, key=lambda r: (r.fit.parameters.size, r.fit.chi2))


def markov_note(fit: MarkovFit, moved: str) -> FitWarning:
    """The info note of a one-step refit; ``moved``: what it moved."""
    per_dof = 1.0 / max(fit.dof, 1)
    return FitWarning(
        CODE,
        f"one-step refit ({fit.n_modes} Fourier modes x {fit.n_frames} frames, "
        f"{fit.n_evaluations} evaluations): the noise is correlated in time, as fluctuations "
        "carried by the dynamics are, so the model's propagators were fitted frame to frame "
        f"instead of its trajectories; {moved}; chi-square per degree of freedom "
        f"{fit.start_chi2 * per_dof:.3g} -> {fit.chi2 * per_dof:.3g}",
        "info",
    )


def markov_timings(
    timings: dict[str, float], fit: MarkovFit, tempering_free: bool
) -> dict[str, float]:
    """The result's timings with the one-step refit's record (and its lambda when fitted)."""
    if tempering_free:
        timings = dict(timings, trajectory_tempering=fit.tempering)
    return dict(
        timings,
        trajectory_markov_modes=float(fit.n_modes),
        trajectory_markov_frames=float(fit.n_frames),
        trajectory_markov_chi2=fit.chi2 / max(fit.dof, 1),
        trajectory_seconds=fit.seconds,
    )
