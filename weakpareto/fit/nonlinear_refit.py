"""The trajectory refit of a selected nonlinear model (ours;
docs/method/trajectory-refit.md#nonlinear-models).

Where the selected model has a term ``u^p X_beta u`` with ``p >= 1``, ``refit=auto`` refits its
alpha, orders and coefficients, with the initial data, by output error through the package's
fractional stepper (:mod:`weakpareto.method.nonlinear_trajectory_fit`). The stepper's own error
must be small against the data's noise: its resolution is doubled from
:data:`SUBSTEPS` until the step-doubling difference is at most :data:`STEPPER_SHARE` of the
noise's sd, and the refit is not applied when :data:`MAX_SUBSTEPS` do not reach it (clean data,
whose weak estimate is already exact to the stepper's accuracy or better).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from weakpareto.fit.context import FitWarning
from weakpareto.library.families import FamilyLibrary
from weakpareto.library.noise_level import estimate_noise
from weakpareto.library.pooled import PooledSource
from weakpareto.method.nonlinear_trajectory_fit import (
    NonlinearData,
    NonlinearModel,
    NonlinearRefit,
    stepper_error,
)
from weakpareto.method.trajectory_fit import SIGNAL_TO_NOISE, TrajectoryModel
from weakpareto.records import Equation

#: Stepper substeps per data interval tried first, and the most tried (doubling).
SUBSTEPS = 2
MAX_SUBSTEPS = 8
#: The stepper's step-doubling error must be at most this share of the noise's rms sd.
STEPPER_SHARE = 0.1
#: Most Fourier modes of initial data (each one or two parameters per profile).
MAX_INITIAL_MODES = 24
#: Largest work of one batched Jacobian solve (complex multiply-adds of the memory sums,
#: ``columns x modes x steps^2 / 2``; ~1e9 per second here): the refit is a refinement, not a
#: wait of minutes.
MAX_SOLVE_WORK = 5e8
#: Uniform sampling: largest relative spread of the time steps.
UNIFORM_TOLERANCE = 1e-9


def is_nonlinear(eq: Equation) -> bool:
    """Whether ``eq`` has a term ``u^p X u`` with ``p >= 1`` (and no forcing term)."""
    return any(t.power > 0 for t in eq.terms) and not any(t.forcing for t in eq.terms)


def nonlinear_data(source: Any) -> NonlinearData | str:
    """One experiment's field with its noise weights and the Fourier modes of its initial data,
    or why it admits no nonlinear refit."""
    if isinstance(source, PooledSource):
        return "several experiments"
    lib: Any = source.parts[0] if isinstance(source, FamilyLibrary) else source
    weights = getattr(lib, "sample_weights", None)
    if weights is not None and np.any(np.asarray(weights) <= 0.0):
        return "missing samples"
    u = np.asarray(lib.u, dtype=float)
    nt, nx = u.shape
    t = getattr(lib, "t", None)
    times = float(lib.dt) * np.arange(nt) if t is None else np.asarray(t, dtype=float)
    times = times - times[0]
    steps = np.diff(times)
    if nt < 3 or np.ptp(steps) > UNIFORM_TOLERANCE * np.mean(steps):
        return "irregular sampling times"
    estimate = estimate_noise(u, "auto")
    variance = np.zeros(u.shape) if estimate is None else np.asarray(estimate.variance)
    mean_variance = float(np.mean(variance))
    if mean_variance <= 0.0:
        return "no measurement noise to weigh the samples"
    sd = np.sqrt(np.maximum(variance, 1e-6 * mean_variance))
    power = np.abs(np.fft.rfft(u[0])) ** 2
    modes = np.flatnonzero(power > SIGNAL_TO_NOISE * nx * mean_variance)
    if modes.size > MAX_INITIAL_MODES:
        return f"more than {MAX_INITIAL_MODES} Fourier modes of initial data"
    inverse = 1.0 / sd
    weights = inverse / np.mean(inverse)
    return NonlinearData(u, times, float(lib.period), weights, modes, np.sqrt(mean_variance))


def nonlinear_refit(eq: Equation, data: NonlinearData, tempering: float) -> NonlinearRefit | str:
    """The refit problem of ``eq`` on ``data`` at a stepper resolution whose error is within
    :data:`STEPPER_SHARE` of the noise, or why there is none."""
    families = tuple(t.family or eq.operator for t in eq.terms)
    orders = np.array([t.order for t in eq.terms], dtype=float)
    coef = np.array([t.coef for t in eq.terms], dtype=float)
    terms = TrajectoryModel.of_terms(eq.mode, families, orders, tempering=tempering)  # type: ignore[arg-type]
    model = NonlinearModel(terms, tuple(int(t.power) for t in eq.terms))
    substeps = SUBSTEPS
    while True:
        refit = NonlinearRefit(model, data, float(eq.alpha), substeps)
        if solve_work(refit) > MAX_SOLVE_WORK:  # before any solve: the work grows with substeps
            return _too_costly(refit)
        error = stepper_error(refit, refit.start(orders, coef))
        if not np.isfinite(error):
            return "the weak estimate's solution is not finite"
        if error <= STEPPER_SHARE * data.noise_sd:
            return refit
        if 2 * substeps > MAX_SUBSTEPS:
            return (
                f"the stepper's error ({error:.2g}) at {substeps} steps per frame exceeds "
                f"{STEPPER_SHARE:g} of the noise's sd"
            )
        substeps *= 2


def solve_work(refit: NonlinearRefit) -> float:
    """Complex multiply-adds of the memory sums of one batched Jacobian solve."""
    columns = 1 + _n_parameters(refit)
    steps = (refit.data.u.shape[0] - 1) * refit.substeps
    return float(columns * refit.data.kappa.size * steps * steps / 2)


def _n_parameters(refit: NonlinearRefit) -> int:
    profiles = 2 if refit.model.terms.mode == "sup" else 1
    return refit.model.terms.n_parameters + profiles * refit.data.n_initial


def _too_costly(refit: NonlinearRefit) -> str:
    nt, nx = refit.data.u.shape
    return (
        f"the stepper's refit of {nt} frames x {nx} points ({_n_parameters(refit)} parameters, "
        f"{refit.substeps} steps per frame) would cost {solve_work(refit):.2g} operations per "
        f"iteration, above its budget of {MAX_SOLVE_WORK:.2g}"
    )


def nonlinear_note(code: str, substeps: int, fit: Any, moved: str) -> FitWarning:
    """The info note of a nonlinear refit."""
    return FitWarning(
        code,
        f"trajectory refit (nonlinear model solved by the package's fractional stepper, "
        f"{substeps} steps per frame; initial data on {fit.n_modes} Fourier modes x "
        f"{fit.n_frames} frames, {fit.n_evaluations} solves): "
        + moved
        + f"; rms misfit of the samples {100 * np.sqrt(fit.start_residual):.3g} % -> "
        f"{100 * np.sqrt(fit.residual):.3g} % of their signal",
        "info",
    )
