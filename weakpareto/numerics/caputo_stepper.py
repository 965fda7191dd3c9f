"""An implicit-explicit product-trapezoidal stepper for batches of periodic fractional PDEs
(ours; docs/method/trajectory-refit.md#nonlinear-models).

For ``D_t^alpha u = L u + N(u)`` (Caputo, ``0 < alpha < 2``; paper Eq. 4 with ``L`` the sum of
the power-0 terms, a Fourier multiplier ``l(kappa)``, and ``N`` the terms ``xi u^p X_beta u``
with ``p >= 1``) the Volterra form is

    u(t) = u(0) + t u'(0) [alpha > 1] + 1/Gamma(alpha) int_0^t (t - s)^(alpha - 1) f(s) ds,

``f = L u + N(u)``. On the grid ``t_n = n dt`` the integral is replaced by the product
trapezoidal rule (f piecewise linear; Diethelm, Ford and Freed 2002):

    u_n = u(0) + t_n u'(0) + h (a_{0,n} f_0 + sum_{j=1}^{n-1} c_{n-j} f_j + f_n),
    h = dt^alpha / Gamma(alpha + 2),
    a_{0,n} = (n - 1)^(alpha + 1) - (n - 1 - alpha) n^alpha,
    c_k = (k + 1)^(alpha + 1) - 2 k^(alpha + 1) + (k - 1)^(alpha + 1),

the trapezoidal rule at ``alpha = 1``. The linear part of ``f_n`` is taken implicitly (one
division per Fourier mode: ``1 - h l(kappa)``, so stiff high orders need no small step), the
nonlinear part by two corrections from a linear extrapolation of its last two values. Every
member of a batch carries its own ``alpha``, multipliers and initial data (the finite-difference
Jacobian of a refit is one batched solve). Measured order in ``dt`` on exact Mittag-Leffler
modes: ``1 + alpha`` below ``alpha = 1``, ``2`` from it (tests/numerics/test_caputo_stepper.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.special import gamma

from weakpareto._typing import Array

#: Corrections of the nonlinear part per step (each one evaluation of ``N``).
CORRECTIONS = 2


@dataclass(frozen=True)
class SpectralBatch:
    """``P`` periodic problems on one grid of ``nx`` points: the linear symbols ``linear (P,
    nk)``, and per nonlinear term ``q`` its power, symbols ``symbols[:, q] (P, nk)`` and
    coefficients ``coef[:, q] (P,)``; ``nk = nx // 2 + 1`` (real transforms)."""

    nx: int
    linear: NDArray[Any]
    powers: tuple[int, ...]
    symbols: NDArray[Any]
    coef: Array

    def nonlinear(self, u_hat: NDArray[Any]) -> NDArray[Any]:
        """``N(u)`` in Fourier space for ``u_hat (P, nk)``."""
        from scipy import fft

        out = np.zeros(u_hat.shape, dtype=complex)
        if not self.powers:
            return out
        u = fft.irfft(u_hat, n=self.nx, axis=-1)
        total = np.zeros_like(u)
        for q, p in enumerate(self.powers):
            xu = fft.irfft(self.symbols[:, q] * u_hat, n=self.nx, axis=-1)
            total += self.coef[:, q, None] * u**p * xu
        return np.asarray(fft.rfft(total, axis=-1))


def trapezoid_weights(alpha: Array, n_steps: int) -> tuple[Array, Array]:
    """``(a0 (P, n_steps + 1), c (P, n_steps + 1))``: the start weights ``a_{0,n}`` and the
    lag weights ``c_k`` (module docstring) for every member's ``alpha``; index 0 unused."""
    a = np.asarray(alpha, dtype=float)[:, None]
    n = np.arange(n_steps + 1, dtype=float)[None, :]
    nm1 = np.maximum(n - 1.0, 0.0)
    a0 = nm1 ** (a + 1.0) - (n - 1.0 - a) * n**a
    c = (n + 1.0) ** (a + 1.0) - 2.0 * n ** (a + 1.0) + nm1 ** (a + 1.0)
    a0[:, 0] = 0.0
    c[:, 0] = 0.0
    return a0, c


def solve(
    batch: SpectralBatch,
    alpha: Array,
    u0_hat: NDArray[Any],
    u1_hat: NDArray[Any] | None,
    dt: float,
    n_steps: int,
    every: int = 1,
) -> NDArray[Any]:
    """Spectra ``(P, n_steps // every + 1, nk)`` of the solutions at ``t = 0, every dt, ...``
    from the initial spectra ``u0_hat`` and (``alpha > 1``) ``u1_hat`` (zero when None)."""
    alpha = np.asarray(alpha, dtype=float)
    p_count, nk = u0_hat.shape
    a0, c = trapezoid_weights(alpha, n_steps)
    h = (dt**alpha / gamma(alpha + 2.0))[:, None]
    lin = batch.linear
    denom = 1.0 - h * lin
    u1 = np.zeros_like(u0_hat) if u1_hat is None else u1_hat
    f_hist = np.empty((p_count, n_steps + 1, nk), dtype=complex)
    out = np.empty((p_count, n_steps // every + 1, nk), dtype=complex)
    u = np.asarray(u0_hat, dtype=complex)
    n_prev = batch.nonlinear(u)
    n_prev2 = n_prev
    f_hist[:, 0] = lin * u + n_prev
    out[:, 0] = u
    for n in range(1, n_steps + 1):
        # the lag weights of f_1 ... f_{n-1}, newest last
        memory = a0[:, n, None] * f_hist[:, 0]
        if n > 1:
            w = c[:, n - 1 : 0 : -1]
            memory = memory + np.matmul(w[:, None, :], f_hist[:, 1:n])[:, 0]
        known = u0_hat + (n * dt) * u1 + h * memory
        guess = 2.0 * n_prev - n_prev2 if n > 1 else n_prev
        for _ in range(CORRECTIONS):
            u = (known + h * guess) / denom
            guess = batch.nonlinear(u)
        f_hist[:, n] = lin * u + guess
        n_prev2, n_prev = n_prev, guess
        if n % every == 0:
            out[:, n // every] = u
    return out
