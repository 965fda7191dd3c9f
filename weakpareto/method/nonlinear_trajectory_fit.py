"""Trajectory refit of a nonlinear periodic model: output error through a fractional stepper (ours;
docs/method/trajectory-refit.md#nonlinear-models).

For ``D_t^alpha u = sum_j xi_j u^{p_j} X_j^{beta_j} u`` (paper Eq. 4) with some ``p_j >= 1`` the
Fourier modes no longer evolve alone, so the model is solved as a whole
(:mod:`weakpareto.numerics.caputo_stepper`, time measured from the record's first sample) and

    theta, a, b  minimise  sum_{i, x} w(t_i, x)^2 (u_theta,a,b(t_i, x) - u(t_i, x))^2

over ``theta = (alpha, beta, xi)`` and the initial data: ``a = u(0)`` and, for ``alpha > 1``,
``b = u'(0)``, each on the Fourier modes that carry signal (the others start at zero: below the
noise they carry no information). ``w = 1 / sd`` of the estimated noise law (multiplicative
noise: the maximum-likelihood weights). The weak estimate is the start of ``theta``, the data's
first frame on those modes the start of ``a`` (``b`` starts at zero). The Jacobian is taken by
forward differences, every column in one batched solve.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from weakpareto._typing import Array, IntArray
from weakpareto.method.trajectory_fit import (
    TOLERANCES,
    RefitFamily,
    TrajectoryFit,
    TrajectoryModel,
    term_multiplier,
)
from weakpareto.numerics.caputo_stepper import SpectralBatch, solve

#: Relative forward-difference step of the Jacobian (the stepper is smooth in every parameter).
DIFFERENCE_STEP = 1e-7
#: Most least-squares iterations (each one solve and one batched Jacobian).
MAX_ITERATIONS = 60
#: Residual of a parameter point whose solution is not finite.
OVERFLOW_RESIDUAL = 1e6


@dataclass(frozen=True)
class NonlinearData:
    """One field ``u (nt, nx)`` on uniform ``times`` (from its first sample) and a periodic grid
    of ``period``; ``weights (nt, nx)`` the inverse noise sd (relative); ``modes`` the rfft bins
    whose initial data are parameters; ``noise_sd`` the noise's rms sd (data units)."""

    u: Array
    times: Array
    period: float
    weights: Array
    modes: IntArray
    noise_sd: float = 0.0

    @property
    def kappa(self) -> Array:
        nx = self.u.shape[1]
        return 2.0 * np.pi * np.fft.rfftfreq(nx, d=self.period / nx)

    @property
    def n_initial(self) -> int:
        """Real parameters of one initial profile (the mean and Nyquist bins are real)."""
        nx = self.u.shape[1]
        real_only = (self.modes == 0) | ((nx % 2 == 0) & (self.modes == nx // 2))
        return int(2 * self.modes.size - np.sum(real_only))

    def pack_profile(self, spectrum: NDArray[Any]) -> Array:
        nx = self.u.shape[1]
        z = spectrum[self.modes] / nx
        imag = (self.modes != 0) & ~((nx % 2 == 0) & (self.modes == nx // 2))
        return np.concatenate([z.real, z.imag[imag]])

    def unpack_profiles(self, p: NDArray[Any]) -> NDArray[Any]:
        """Spectra ``(P, nk)`` of the profiles packed in the rows of ``p``."""
        nx = self.u.shape[1]
        imag = (self.modes != 0) & ~((nx % 2 == 0) & (self.modes == nx // 2))
        m = self.modes.size
        out = np.zeros((p.shape[0], nx // 2 + 1), dtype=complex)
        z = p[:, :m].astype(complex)
        z[:, imag] += 1j * p[:, m:]
        out[:, self.modes] = z * nx
        return out


@dataclass(frozen=True)
class NonlinearModel:
    """The linear refit's packing of ``(alpha, orders, coef)`` (:class:`TrajectoryModel`) and each
    term's power."""

    terms: TrajectoryModel
    powers: tuple[int, ...]

    def batch(
        self, p: NDArray[Any], alpha: float, kappa: Array, nx: int
    ) -> tuple[SpectralBatch, Array]:
        """The stepper's batch and each member's alpha for the model rows of ``p``."""
        nk = kappa.size
        rows = p.shape[0]
        alphas = np.empty(rows)
        linear = np.zeros((rows, nk), dtype=complex)
        nl = [j for j, q in enumerate(self.powers) if q > 0]
        symbols = np.zeros((rows, len(nl), nk), dtype=complex)
        coef = np.zeros((rows, len(nl)))
        lam = self.terms.tempering
        for r in range(rows):
            a, orders, xi = self.terms.unpack(p[r], alpha)
            alphas[r] = a
            for j, fam in enumerate(self.terms.families):
                m = term_multiplier(fam, kappa, float(orders[j]), lam)
                if self.powers[j] == 0:
                    linear[r] += xi[j] * m
                else:
                    q = nl.index(j)
                    symbols[r, q] = m
                    coef[r, q] = xi[j]
        powers = tuple(self.powers[j] for j in nl)
        return SpectralBatch(nx, linear, powers, symbols, coef), alphas


def _trajectories(
    model: NonlinearModel,
    data: NonlinearData,
    p: NDArray[Any],
    alpha: float,
    substeps: int,
) -> NDArray[Any]:
    """Solutions ``(P, nt, nx)`` at the data's times for the packed rows of ``p``."""
    from scipy import fft

    nt, nx = data.u.shape
    n_model = model.terms.n_parameters
    k = data.n_initial
    batch, alphas = model.batch(p[:, :n_model], alpha, data.kappa, nx)
    u0 = data.unpack_profiles(p[:, n_model : n_model + k])
    u1 = data.unpack_profiles(p[:, n_model + k :]) if model.terms.mode == "sup" else None
    dt = float(data.times[1] - data.times[0]) / substeps
    with np.errstate(over="ignore", invalid="ignore"):
        spectra = solve(batch, alphas, u0, u1, dt, (nt - 1) * substeps, every=substeps)
    return np.asarray(fft.irfft(spectra, n=nx, axis=-1))


@dataclass(frozen=True)
class NonlinearRefit:
    """The parts of one refit: model, data, stepper substeps and the residual's scale."""

    model: NonlinearModel
    data: NonlinearData
    alpha: float
    substeps: int

    @property
    def scale(self) -> float:
        s = float(np.sqrt(np.sum((self.data.weights * self.data.u) ** 2)))
        return s if s > 0.0 else 1.0

    def residuals(self, p: NDArray[Any]) -> NDArray[Any]:
        """``(P, nt * nx)`` weighted residuals of the rows of ``p`` relative to the data's
        weighted energy; rows whose solution is not finite get :data:`OVERFLOW_RESIDUAL`."""
        sol = _trajectories(self.model, self.data, p, self.alpha, self.substeps)
        r = ((sol - self.data.u[None]) * self.data.weights[None]).reshape(p.shape[0], -1)
        r = r / self.scale
        bad = ~np.all(np.isfinite(r), axis=1)
        r[bad] = OVERFLOW_RESIDUAL
        return r

    def start(self, orders: Array, coef: Array) -> Array:
        """Packed start: the weak estimate, the first frame's signal modes, ``u'(0) = 0``."""
        head = self.model.terms.pack(self.alpha, orders, coef)
        a = self.data.pack_profile(np.fft.rfft(self.data.u[0]))
        b = np.zeros(a.size) if self.model.terms.mode == "sup" else np.zeros(0)
        return np.concatenate([head, a, b])


def refit_nonlinear(
    refit: NonlinearRefit,
    orders: Array,
    coef: Array,
    lower: Array,
    upper: Array,
) -> TrajectoryFit:
    """Minimise the weighted output error (module docstring) from the weak estimate within
    ``[lower, upper]`` (the model's packed bounds; initial data unbounded) by SciPy's
    trust-region reflective least squares with the batched Jacobian."""
    from scipy.optimize import least_squares  # imported when used (start-up)

    t0 = time.perf_counter()
    x0 = refit.start(orders, coef)
    extra = x0.size - lower.size
    lo = np.concatenate([lower, np.full(extra, -np.inf)])
    hi = np.concatenate([upper, np.full(extra, np.inf)])
    x0 = np.clip(x0, lo, hi)
    cache: dict[bytes, NDArray[Any]] = {}
    evaluations = [0]

    def jac_rows(x: Array) -> NDArray[Any]:
        step = DIFFERENCE_STEP * np.maximum(np.abs(x), 1.0)
        step = np.where(x + step > hi, -step, step)  # stay inside the bounds
        rows = np.vstack([x, x + np.diag(step)])
        r = refit.residuals(rows)
        evaluations[0] += rows.shape[0]
        cache.clear()
        cache[x.tobytes()] = r[0]
        return np.asarray((r[1:] - r[0]) / step[:, None]).T

    def fun(x: Array) -> NDArray[Any]:
        hit = cache.get(x.tobytes())
        if hit is not None:
            return hit
        evaluations[0] += 1
        return refit.residuals(x[None])[0]

    r0 = fun(x0)
    res = least_squares(
        fun, x0, jac=jac_rows, bounds=(lo, hi), x_scale="jac", method="trf",
        max_nfev=MAX_ITERATIONS, **TOLERANCES,
    )  # fmt: skip
    x = np.asarray(res.x, dtype=float)
    r1 = fun(x)
    n_model = refit.model.terms.n_parameters
    a, b, xi = refit.model.terms.unpack(x[:n_model], refit.alpha)
    return TrajectoryFit(
        alpha=a,
        orders=b,
        coef=xi,
        start_residual=float(r0 @ r0),
        residual=float(r1 @ r1),
        n_modes=int(refit.data.modes.size),
        n_frames=int(refit.data.u.shape[0]),
        n_evaluations=evaluations[0],
        seconds=time.perf_counter() - t0,
        tempering=refit.model.terms.tempering,
        parameters=x[:n_model],
    )


def stepper_error(refit: NonlinearRefit, x: Array) -> float:
    """RMS difference (data units) between the solutions with ``substeps`` and twice as many
    at the packed point ``x``: the stepper's error at this resolution, to within its order."""
    model, data, alpha = refit.model, refit.data, refit.alpha
    a = _trajectories(model, data, x[None], alpha, refit.substeps)
    b = _trajectories(model, data, x[None], alpha, 2 * refit.substeps)
    return float(np.sqrt(np.mean((a - b) ** 2)))


__all__ = [
    "NonlinearData",
    "NonlinearModel",
    "NonlinearRefit",
    "RefitFamily",
    "refit_nonlinear",
    "stepper_error",
]
