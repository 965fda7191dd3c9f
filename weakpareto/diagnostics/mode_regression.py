"""The precision a Markovian linear density allows: one-step regression per Fourier mode
(docs/independent-suite.md#how-much-a-particle-density-can-tell).

For ``u_t = -K |kappa|^beta u`` on a period (the Riesz family, alpha = 1) the density of N
independent particles obeys, per Fourier mode and output step ``dt``,

    U_m(t + dt) = r_m U_m(t) + e_m(t),     r_m = exp(-K |kappa_m|^beta dt),

with innovations ``e_m`` uncorrelated with the past (a martingale difference: the particles'
next jumps are independent of where they are). So the least-squares ratio
``r_m = Re <U_m(t), U_m(t+dt)> / <U_m(t), U_m(t)>`` is consistent whatever the counting noise's
time correlation, its variance ``s_m^2 / sum |U_m(t)|^2`` (``s_m^2`` the innovations' variance per
real component) is the conditional-likelihood precision, and a weighted fit of the ratios over
the modes gives beta with its standard deviation. Modes the initial condition does not excite
count too: their fluctuations relax with the same propagator (the counting noise obeys the
equation), so they carry the rates as well. This is not a
discovery method (one known family, alpha = 1, linear); it states how well any method could fix
beta from the same field, which is what a pass criterion on particle data must be set against.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import least_squares

from weakpareto._typing import FloatArray


@dataclass(frozen=True)
class ModeRates:
    """Per-mode decay rates ``-log(r_m) / dt`` and their standard deviations."""

    modes: tuple[int, ...]
    kappa: FloatArray
    rate: FloatArray
    sd: FloatArray


@dataclass(frozen=True)
class OrderEstimate:
    """``r_m = exp(-K |kappa_m|^beta dt)`` fitted to :class:`ModeRates` (:func:`fit_order`)."""

    beta: float
    K: float  # noqa: N815  (the equation's coefficient)
    sd_beta: float
    modes: tuple[int, ...]


def mode_rates(u: FloatArray, t: FloatArray, period: float, modes: tuple[int, ...]) -> ModeRates:
    """One-step least-squares decay rate of each Fourier mode ``m`` (``kappa = 2 pi m / period``)
    of the field ``u`` (``nt x nx``, uniform ``t``), with its conditional-likelihood sd."""
    dt = np.diff(t)
    if not np.allclose(dt, dt[0], rtol=1e-9, atol=0.0):
        raise ValueError("mode_rates needs uniform sample times")
    spectrum = np.fft.fft(np.asarray(u, dtype=float), axis=1)[:, list(modes)]
    before, after = spectrum[:-1], spectrum[1:]
    power = np.sum(np.abs(before) ** 2, axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):  # a silent mode: nan, dropped by the fit
        ratio = np.real(np.sum(np.conj(before) * after, axis=0)) / power
        innovation = np.mean(np.abs(after - ratio * before) ** 2, axis=0) / 2.0  # per real part
        sd_ratio = np.sqrt(innovation / power)
        rate = -np.log(ratio) / dt[0]
        sd = sd_ratio / (ratio * dt[0])  # delta method: d(-log r / dt) = -dr / (r dt)
    kappa = 2.0 * np.pi * np.asarray(modes, dtype=float) / period
    return ModeRates(modes=tuple(modes), kappa=kappa, rate=rate, sd=np.abs(sd))


def fit_order(rates: ModeRates, dt: float) -> OrderEstimate:
    """Weighted nonlinear least squares of the one-step ratios,
    ``r_m = exp(-K kappa_m^beta dt)``, each weighted by its sd (modes whose rate is lost in the
    noise weigh little instead of being cut by a threshold, which would select on the noise);
    the standard deviations from the Gauss-Newton covariance at the optimum."""
    ratio = np.exp(-rates.rate * dt)
    sd_ratio = rates.sd * ratio * dt
    use = np.isfinite(ratio) & np.isfinite(sd_ratio) & (sd_ratio > 0)
    if use.sum() < 3:
        raise ValueError(f"only {int(use.sum())} usable mode(s); the field cannot fix an order")
    kappa, r, s = rates.kappa[use], ratio[use], sd_ratio[use]

    def residual(p: FloatArray) -> FloatArray:
        return (r - np.exp(-np.exp(p[0]) * kappa ** p[1] * dt)) / s

    good = (r > 0) & (r < 1)
    if good.sum() < 2:
        raise ValueError("fewer than two modes decay; the field cannot fix an order")
    start = np.polyfit(np.log(kappa[good]), np.log(-np.log(r[good]) / dt), 1)[::-1]
    fit = least_squares(residual, start, method="lm")
    cov = np.linalg.inv(fit.jac.T @ fit.jac)
    modes = tuple(m for m, kept in zip(rates.modes, use, strict=True) if kept)
    return OrderEstimate(
        beta=float(fit.x[1]), K=float(np.exp(fit.x[0])), sd_beta=float(np.sqrt(cov[1, 1])),
        modes=modes,
    )  # fmt: skip
