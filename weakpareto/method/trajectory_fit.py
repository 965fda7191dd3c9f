"""Trajectory refit of a linear periodic model: output error with variable projection (ours;
docs/method/trajectory-refit.md).

For ``D_t^alpha u = sum_j xi_j X_j^{beta_j} u`` on a periodic 1-D grid, with every ``X_j`` a
Fourier multiplier ``m_j(kappa)`` (paper Eqs. 2-3; the identity is ``m = 1``), each Fourier
mode of ``u`` evolves on its own. With ``lambda_k = sum_j xi_j m_j(kappa_k)`` the Caputo
solution of the mode, time measured from the record's first sample, is

    U_k(t) = E_alpha(lambda_k t^alpha) a_k + t E_{alpha,2}(lambda_k t^alpha) b_k,

``b_k = U_k'(0)`` only for ``alpha > 1`` (``E_1(z) = exp(z)`` on the integer branch). For fixed
``theta = (alpha, beta, xi)`` the initial data ``(a_k, b_k)`` enter linearly, so they are
projected out mode by mode (variable projection, Golub and Pereyra 1973) and ``theta`` minimises
the squared distance between the data's spectrum and the projected solutions,

    sum_k w_k sum_i | U_k(t_i) - P_k(theta) U_k(t_i) |^2,

``w_k = 1`` for the mean and the Nyquist mode and 2 for the others (the energy of a real field
in its half spectrum). This is least squares on the samples themselves (Parseval): the
maximum-likelihood estimate for white measurement noise, whatever the noise's size; the weak
form's estimate is its start. Only the modes that carry signal are used (mean power over time
above :data:`SIGNAL_TO_NOISE` times the noise's power per mode, and above
:data:`RELATIVE_FLOOR` of the strongest), since a mode of noise alone adds no information about
``theta``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from weakpareto._typing import Array, BoolArray, ComplexArray, IntArray
from weakpareto.numerics.mittag_leffler import MittagLefflerOverflowError, mittag_leffler
from weakpareto.numerics.operators import SPECTRAL_KINDS, SpectralKind, spectral_multiplier
from weakpareto.numerics.tempered import TemperedKind, tempered_spectral_multiplier
from weakpareto.records import Mode

#: A term's family in the refit: a plain multiplier, or a tempered one at the model's lambda.
RefitFamily = SpectralKind | TemperedKind

#: A mode is used when its mean power over time exceeds this many times the noise's.
SIGNAL_TO_NOISE = 4.0
#: ... and this share of the strongest mode's (rounding-level modes of clean data).
RELATIVE_FLOOR = 1e-12
#: Stopping tolerances of the least squares (SciPy's 1e-8 stop a few steps early on clean data).
TOLERANCES = {"ftol": 1e-10, "xtol": 1e-10, "gtol": 1e-10}
#: Residual of a parameter point whose solution is not representable (a growing mode).
OVERFLOW_RESIDUAL = 1e6


@dataclass(frozen=True)
class ModeData:
    """The data's spectrum on the modes used: ``spectrum (nt, n_modes)`` of the complete frames
    at ``times`` (from the record's first sample), wavenumbers ``kappa``, energy weights."""

    spectrum: ComplexArray
    times: Array
    kappa: Array
    weights: Array

    @classmethod
    def of_field(cls, u: Array, times: Array, period: float, noise_variance: float) -> ModeData:
        """The signal modes of a field ``(nt, nx)`` on a periodic grid of ``period``."""
        u = np.asarray(u, dtype=float)
        nx = u.shape[1]
        spectrum = np.fft.rfft(u, axis=1)
        kappa = 2.0 * np.pi * np.fft.rfftfreq(nx, d=period / nx)
        power = np.mean(np.abs(spectrum) ** 2, axis=0)
        # white noise of variance s has power nx * s in every bin of the unnormalised transform
        keep = (power > SIGNAL_TO_NOISE * nx * noise_variance) & (
            power > RELATIVE_FLOOR * power.max()
        )
        weights = np.full(kappa.size, 2.0)
        weights[0] = 1.0
        if nx % 2 == 0:
            weights[-1] = 1.0
        times = np.asarray(times, dtype=float)
        return cls(spectrum[:, keep], times - times[0], kappa[keep], weights[keep])

    @property
    def n_modes(self) -> int:
        return int(self.kappa.size)

    @property
    def n_frames(self) -> int:
        return int(self.times.size)

    @property
    def energy(self) -> float:
        """The data's energy on the modes used (the residual's scale)."""
        return float(np.sum(self.weights * np.sum(np.abs(self.spectrum) ** 2, axis=0)))

    @property
    def n_residuals(self) -> int:
        return 2 * int(self.spectrum.size)

    def residual(self, basis: NDArray[Any]) -> Array:
        return projected_residual(self, basis)


@dataclass(frozen=True)
class MaskedModeData:
    """The samples taken of a field with missing ones, for the same fit in physical space: the
    solution's modes ``kappa`` at the observed points ``(frame, x_j)``, one joint least squares
    for every mode's initial data (missing samples couple the modes)."""

    values: Array  # (n_obs,) observed samples
    frame: IntArray  # (n_obs,) their frame index
    cos: Array  # (n_obs, n_modes) cos(kappa x_j), sin alike
    sin: Array
    times: Array
    kappa: Array

    @classmethod
    def of_field(
        cls, u: Array, times: Array, x: Array, kappa: Array, missing: BoolArray
    ) -> MaskedModeData:
        frame, column = np.nonzero(~np.asarray(missing, dtype=bool))
        xs = np.asarray(x, dtype=float)[column]
        phase = np.multiply.outer(xs - float(np.asarray(x)[0]), kappa)
        times = np.asarray(times, dtype=float)
        return cls(
            np.asarray(u, dtype=float)[frame, column],
            frame.astype(np.int64),
            np.cos(phase),
            np.sin(phase),
            times - times[0],
            np.asarray(kappa, dtype=float),
        )

    @property
    def n_modes(self) -> int:
        return int(self.kappa.size)

    @property
    def n_frames(self) -> int:
        return int(np.unique(self.frame).size)

    @property
    def energy(self) -> float:
        return float(self.values @ self.values)

    @property
    def n_residuals(self) -> int:
        return int(self.values.size)

    def residual(self, basis: NDArray[Any]) -> Array:
        """Samples minus their least-squares fit by the solutions of ``basis`` (per mode and
        basis function, a complex initial value: the real field's
        ``Re[g(t) c e^{i kappa x}] = (g_r c_r - g_i c_i) cos - (g_r c_i + g_i c_r) sin``)."""
        g = np.asarray(basis)[self.frame]  # (n_obs, n_modes, m)
        gr, gi = np.real(g), np.imag(g)
        cos, sin = self.cos[:, :, None], self.sin[:, :, None]
        design = np.concatenate(
            [(gr * cos - gi * sin).reshape(g.shape[0], -1),
             (-gi * cos - gr * sin).reshape(g.shape[0], -1)],
            axis=1,
        )  # fmt: skip
        keep = np.any(design != 0.0, axis=0)  # e.g. the imaginary part of a real mean mode
        coef = np.linalg.lstsq(design[:, keep], self.values, rcond=None)[0]
        return np.asarray(self.values - design[:, keep] @ coef, dtype=float)


def mode_basis(times: Array, mode: Mode, alpha: float, rates: NDArray[Any]) -> NDArray[Any]:
    """``(nt, n_modes, m)``: the Caputo solution's basis per mode (module docstring), ``m = 2``
    on the super-unit branch, else 1; real for real rates (Riesz and identity terms)."""
    if mode == "int":
        return np.exp(np.multiply.outer(times, rates))[..., None]
    z = np.multiply.outer(times**alpha, rates)
    first = mittag_leffler(z, alpha, 1.0)
    if mode != "sup":
        return np.asarray(first)[..., None]
    second = times[:, None] * mittag_leffler(z, alpha, 2.0)
    return np.stack([first, second], axis=-1)


def projected_residual(data: ModeData, basis: NDArray[Any]) -> Array:
    """Real residual vector of the data's spectrum after the per-mode least-squares projection on
    ``basis`` (module docstring), scaled by the energy weights."""
    g = np.transpose(basis, (1, 0, 2))  # (n_modes, nt, m)
    gh = np.conj(np.transpose(g, (0, 2, 1)))
    solution = np.linalg.solve(gh @ g, gh @ data.spectrum.T[:, :, None])
    r = (data.spectrum - (g @ solution)[:, :, 0].T) * np.sqrt(data.weights)[None]
    return np.concatenate([r.real.ravel(), r.imag.ravel()])


@dataclass(frozen=True)
class TrajectoryModel:
    """The linear model refitted: branch, term families, which orders are free, and which terms
    share an order (pairs of families tied at one order stay tied)."""

    mode: Mode
    families: tuple[RefitFamily, ...]
    order_groups: tuple[int, ...]  # term -> index of its order parameter (-1: fixed)
    fixed_orders: Array  # the orders of the fixed terms (identity)
    #: The onset lies an unknown delay before the first sample (fractional branches only: on the
    #: integer one a shift of time is absorbed by the initial data).
    onset: bool = False
    #: lambda of the tempered families, and whether it is a parameter (fitted as log lambda).
    tempering: float = 0.0
    tempering_free: bool = False

    @classmethod
    def of_terms(
        cls,
        mode: Mode,
        families: Sequence[RefitFamily],
        orders: Sequence[float] | Array,
        onset: bool = False,
        tempering: float = 0.0,
        tempering_free: bool = False,
    ) -> TrajectoryModel:
        groups: list[int] = []
        seen: dict[float, int] = {}
        for b in orders:
            if b == 0.0:
                groups.append(-1)
                continue
            groups.append(seen.setdefault(float(b), len(seen)))
        tempered = any(f not in SPECTRAL_KINDS for f in families)
        return cls(
            mode,
            tuple(families),
            tuple(groups),
            np.asarray(orders, dtype=float),
            onset and mode != "int",
            float(tempering),
            tempering_free and tempered,
        )

    @property
    def n_orders(self) -> int:
        return max(self.order_groups, default=-1) + 1

    @property
    def alpha_free(self) -> bool:
        return self.mode != "int"

    @property
    def n_head(self) -> int:
        """Parameters before the orders: alpha, the onset delay, log lambda."""
        return int(self.alpha_free) + int(self.onset) + int(self.tempering_free)

    @property
    def n_parameters(self) -> int:
        return self.n_head + self.n_orders + len(self.families)

    def pack(
        self,
        alpha: float,
        orders: Array,
        coef: Array,
        delay: float = 0.0,
        tempering: float | None = None,
    ) -> Array:
        shared = np.zeros(self.n_orders)
        for j, g in enumerate(self.order_groups):
            if g >= 0:
                shared[g] = orders[j]
        lam = self.tempering if tempering is None else tempering
        head = ([alpha] if self.alpha_free else []) + ([delay] if self.onset else [])
        head += [float(np.log(lam))] if self.tempering_free else []
        return np.concatenate([head, shared, np.asarray(coef, dtype=float)])

    def delay(self, p: Array) -> float:
        """The onset's delay before the first sample (0 without an onset parameter)."""
        return float(p[int(self.alpha_free)]) if self.onset else 0.0

    def tempering_of(self, p: Array) -> float:
        """lambda of the tempered families at ``p`` (the model's own when it is given)."""
        if not self.tempering_free:
            return self.tempering
        return float(np.exp(p[int(self.alpha_free) + int(self.onset)]))

    def unpack(self, p: Array, alpha: float) -> tuple[float, Array, Array]:
        i = self.n_head
        if self.alpha_free:
            alpha = float(p[0])
        shared = p[i : i + self.n_orders]
        orders = np.array(
            [shared[g] if g >= 0 else self.fixed_orders[j] for j, g in enumerate(self.order_groups)]
        )
        return alpha, orders, np.asarray(p[i + self.n_orders :], dtype=float)

    def rates(
        self, kappa: Array, orders: Array, coef: Array, tempering: float | None = None
    ) -> NDArray[Any]:
        """``lambda_k = sum_j xi_j m_j(kappa_k)`` (real when every multiplier is); tempered
        families at ``tempering`` (default: the model's lambda)."""
        lam = self.tempering if tempering is None else tempering
        parts = [c * np.asarray(term_multiplier(fam, kappa, float(b), lam))
                 for fam, b, c in zip(self.families, orders, coef)]  # fmt: skip
        return np.sum(parts, axis=0) if parts else np.zeros(kappa.size)


def term_multiplier(family: RefitFamily, kappa: Array, beta: float, lam: float) -> NDArray[Any]:
    if family in SPECTRAL_KINDS:
        return np.asarray(spectral_multiplier(family, kappa, beta))
    return np.asarray(tempered_spectral_multiplier(family, kappa, beta, lam))


@dataclass(frozen=True)
class TrajectoryFit:
    """A refit: the parameters, the residual energy before and after (relative to the data's
    energy on the modes used), the modes and frames used, evaluations and seconds."""

    alpha: float
    orders: Array
    coef: Array
    start_residual: float
    residual: float
    n_modes: int
    n_frames: int
    n_evaluations: int
    seconds: float
    delay: float = 0.0  # the onset's delay before the first sample (an onset model only)
    tempering: float = 0.0  # lambda of the tempered families (fitted when free)
    parameters: Array | None = None  # packed as :meth:`TrajectoryModel.pack`


def refit_trajectory(
    data: ModeData | MaskedModeData | Sequence[ModeData | MaskedModeData],
    model: TrajectoryModel,
    alpha: float,
    orders: Array,
    coef: Array,
    lower: Array,
    upper: Array,
    delay: float = 0.0,
    tempering: float | None = None,
) -> TrajectoryFit:
    """Minimise the projected residual from the weak estimate ``(alpha, orders, coef)`` within
    ``[lower, upper]`` (packed as :meth:`TrajectoryModel.pack`; coefficients unbounded) by
    SciPy's trust-region reflective least squares. Several experiments of one equation
    (a sequence of data): their residuals together, each with its own initial data. An onset
    model (:attr:`TrajectoryModel.onset`) evaluates the solutions at ``delay + t``, the time since
    an onset ``delay`` before the first sample, with the initial data those at the onset."""
    from scipy.optimize import least_squares  # imported when used (start-up)

    t0 = time.perf_counter()
    parts = tuple(data) if isinstance(data, Sequence) else (data,)
    scale = float(np.sqrt(sum(d.energy for d in parts)))
    scale = scale if scale > 0.0 else 1.0
    size = sum(d.n_residuals for d in parts)

    def residual(p: Array) -> Array:
        a, b, xi = model.unpack(p, alpha)
        shift, lam = model.delay(p), model.tempering_of(p)
        try:
            with np.errstate(over="ignore", invalid="ignore"):
                r = np.concatenate(
                    [
                        d.residual(
                            mode_basis(
                                d.times + shift, model.mode, a, model.rates(d.kappa, b, xi, lam)
                            )
                        )
                        for d in parts
                    ]
                )
                r = r / scale
        except (MittagLefflerOverflowError, np.linalg.LinAlgError):
            return np.full(size, OVERFLOW_RESIDUAL)
        return r if np.all(np.isfinite(r)) else np.full(r.size, OVERFLOW_RESIDUAL)

    start = np.clip(model.pack(alpha, orders, coef, delay, tempering), lower, upper)
    r0 = residual(start)
    res = least_squares(
        residual, start, bounds=(lower, upper), x_scale="jac", method="trf", **TOLERANCES
    )
    a, b, xi = model.unpack(np.asarray(res.x, dtype=float), alpha)
    r1 = np.asarray(res.fun, dtype=float)  # the residual at res.x, as evaluated there
    onset_delay = model.delay(np.asarray(res.x, dtype=float))
    fitted_tempering = model.tempering_of(np.asarray(res.x, dtype=float))
    return TrajectoryFit(
        alpha=a,
        orders=b,
        coef=xi,
        start_residual=float(r0 @ r0),
        residual=float(r1 @ r1),
        n_modes=max(d.n_modes for d in parts),
        n_frames=sum(d.n_frames for d in parts),
        n_evaluations=int(res.nfev),
        seconds=time.perf_counter() - t0,
        delay=onset_delay,
        tempering=fitted_tempering,
        parameters=np.asarray(res.x, dtype=float),
    )
