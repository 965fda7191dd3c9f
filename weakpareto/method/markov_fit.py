"""One-step refit of a linear Markovian model: instrumental-variable propagators per Fourier mode
(ours; docs/method/trajectory-refit.md#noise-that-moves-with-the-dynamics).

For ``u_t = sum_j xi_j X_j^{beta_j} u`` (alpha = 1) on a periodic 1-D grid sampled every ``dt``,
each Fourier mode obeys ``U_k(t + dt) = P_k U_k(t)`` with ``P_k = exp(dt lambda_k)``,
``lambda_k = sum_j xi_j m_j(kappa_k)``. Densities of independent moving particles add counting
noise that the particles carry along: per mode it is a state noise, ``U_k(t + dt) = P_k U_k(t) +
e_k(t + dt)`` with the innovation ``e`` independent of the past (the particles' next moves do not
depend on where they are). Such noise does not decay, so an output-error fit of deterministic
trajectories reads its stationary fluctuations as slowly decaying modes and the highest order
comes out low. Measurement noise ``w`` white in time adds ``w(t + dt) - P_k w(t)`` instead, which
biases a plain one-step regression towards zero (errors in variables). Both are removed by
using the frame before as instrument:

    P_k^IV = sum_t conj(U_k(t - dt)) U_k(t + dt) / sum_t conj(U_k(t - dt)) U_k(t),

consistent under state noise, white measurement noise and their sum: the error of a step,
``e_k(t + dt) + w_k(t + dt) - P_k w_k(t)``, is uncorrelated with the frame before. Its
variance is the heteroscedasticity-robust (sandwich) one,
``var P_k = sum_t |U_k(t - dt)|^2 |r_k(t)|^2 / |sum_t conj(U_k(t - dt)) U_k(t)|^2`` with the
one-step residuals ``r_k``. The model's parameters ``theta`` (orders and coefficients) minimise

    sum_k |P_k^IV - exp(dt lambda_k(theta))|^2 / (var P_k / 2)

(real and imaginary parts each a unit-variance residual, so the minimum is a chi-square with
``2K - n_theta`` degrees of freedom for a right model). Modes whose instrument is weak (the
lag-one covariance within :data:`INSTRUMENT_Z` standard deviations of zero: decayed within a
step, or not excited) carry no usable rate and are left out.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from weakpareto._typing import Array, ComplexArray
from weakpareto.method.trajectory_fit import TrajectoryModel

#: A mode is used when its lag-one covariance with the instrument is this many standard
#: deviations from zero (a weak instrument makes the ratio heavy-tailed).
INSTRUMENT_Z = 4.0
#: Fewest frames: three make one instrumented step; the variance needs a few more.
MIN_FRAMES = 8
#: Fewest usable modes (an order and a coefficient per term need at least two rates).
MIN_MODES = 3
#: Uniform sampling: time steps equal to this relative tolerance.
UNIFORM_RTOL = 1e-9
#: Stopping tolerances of the least squares.
TOLERANCES = {"ftol": 1e-12, "xtol": 1e-12, "gtol": 1e-12}


@dataclass(frozen=True)
class PropagatorData:
    """Per-mode instrumental-variable propagators of one field over one sampling step."""

    kappa: Array
    propagator: ComplexArray
    variance: Array  # of the complex estimate (both parts together)
    dt: float
    n_frames: int

    @classmethod
    def of_field(cls, u: Array, times: Array, period: float) -> PropagatorData | str:
        """The usable modes of ``u`` (``nt x nx``, uniform ``times``), or why there are none."""
        u = np.asarray(u, dtype=float)
        nt, nx = u.shape
        steps = np.diff(np.asarray(times, dtype=float))
        if nt < MIN_FRAMES:
            return f"fewer than {MIN_FRAMES} frames"
        if not np.allclose(steps, steps[0], rtol=UNIFORM_RTOL, atol=0.0):
            return "sample times that are not uniform"
        spectrum = np.fft.rfft(u, axis=1)[:, 1 : (nx - 1) // 2 + 1]  # no mean, no Nyquist
        before, now, after = spectrum[:-2], spectrum[1:-1], spectrum[2:]
        cross = np.sum(np.conj(before) * now, axis=0)
        # lag-one covariance's sd if the mode were uncorrelated over a step
        cross_sd = np.sqrt(np.sum(np.abs(before) ** 2 * np.abs(now) ** 2, axis=0))
        strong = np.abs(cross) > INSTRUMENT_Z * cross_sd
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.sum(np.conj(before) * after, axis=0) / cross
            resid = after - ratio * now
            variance = np.sum(np.abs(before) ** 2 * np.abs(resid) ** 2, axis=0) / np.abs(cross) ** 2
        use = strong & np.isfinite(ratio) & (variance > 0.0)
        if int(np.sum(use)) < MIN_MODES:
            return f"fewer than {MIN_MODES} Fourier modes keep a measurable correlation over a step"
        m = np.arange(1, spectrum.shape[1] + 1, dtype=float)[use]
        return cls(
            kappa=2.0 * np.pi * m / float(period),
            propagator=ratio[use],
            variance=variance[use],
            dt=float(steps[0]),
            n_frames=nt,
        )

    def residual(self, rates: ComplexArray) -> Array:
        """Standardised misfit of the model's propagators ``exp(dt rates)``: real parts, then
        imaginary parts."""
        d = (self.propagator - np.exp(self.dt * rates)) / np.sqrt(self.variance / 2.0)
        return np.concatenate([d.real, d.imag])


@dataclass(frozen=True)
class MarkovFit:
    """A one-step refit: orders, coefficients, the chi-square before (at the start) and after,
    its degrees of freedom, modes and frames used, evaluations and seconds."""

    orders: Array
    coef: Array
    start_chi2: float
    chi2: float
    dof: int
    n_modes: int
    n_frames: int
    n_evaluations: int
    seconds: float
    parameters: Array
    tempering: float = 0.0  # lambda of the tempered families (fitted when free)

    @property
    def alpha(self) -> float:
        return 1.0


def refit_markov(
    data: PropagatorData | Sequence[PropagatorData],
    model: TrajectoryModel,
    orders: Array,
    coef: Array,
    lower: Array,
    upper: Array,
) -> MarkovFit:
    """Weighted least squares of the propagators (module docstring) from ``(orders, coef)``
    within ``[lower, upper]`` (packed as :meth:`TrajectoryModel.pack` on the integer branch,
    with log lambda when the model's tempering is free, starting at the model's lambda);
    several experiments of one equation: their residuals together."""
    from scipy.optimize import least_squares  # imported when used (start-up)

    if model.mode != "int":
        raise ValueError("the one-step refit needs the integer branch (alpha = 1)")
    t0 = time.perf_counter()
    parts = tuple(data) if isinstance(data, Sequence) else (data,)

    def residual(p: Array) -> Array:
        _, b, xi = model.unpack(p, 1.0)
        lam = model.tempering_of(p)
        with np.errstate(over="ignore", invalid="ignore"):
            r = np.concatenate(
                [
                    d.residual(np.asarray(model.rates(d.kappa, b, xi, lam), dtype=complex))
                    for d in parts
                ]
            )
        return r if np.all(np.isfinite(r)) else np.full(r.size, 1e12)

    start = np.clip(model.pack(1.0, orders, coef), lower, upper)
    r0 = residual(start)
    res = least_squares(
        residual, start, bounds=(lower, upper), x_scale="jac", method="trf", **TOLERANCES
    )
    p = np.asarray(res.x, dtype=float)
    _, b, xi = model.unpack(p, 1.0)
    r1 = np.asarray(res.fun, dtype=float)  # the residual at res.x, as evaluated there
    n_res = int(r1.size)
    return MarkovFit(
        orders=b,
        coef=xi,
        tempering=model.tempering_of(p),
        start_chi2=float(r0 @ r0),
        chi2=float(r1 @ r1),
        dof=n_res - p.size,
        n_modes=sum(d.kappa.size for d in parts),
        n_frames=sum(d.n_frames for d in parts),
        n_evaluations=int(res.nfev),
        seconds=time.perf_counter() - t0,
        parameters=p,
    )
