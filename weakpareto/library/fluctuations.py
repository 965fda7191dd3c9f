"""Noise covariance of weak features when the noise is intrinsic: fluctuations that obey the
dynamics (ours, beyond the paper; docs/method/intrinsic-noise.md).

A density histogrammed from ``N`` independent moving particles is ``u = rho + delta``: the mean
density ``rho`` solves the equation, and the counting fluctuation ``delta`` is carried by the
same particles from one frame to the next. For linear Markovian dynamics ``u_t = L u`` the two-time
covariance of independent particles is ``Cov(delta(t, x), delta(s, x')) = (1/N) [G_{t-s}(x, x')
rho(s, x') - rho(t, x) rho(s, x')]`` for ``t >= s``, ``G`` the propagator of ``L``. With the
density replaced by its mean (the rows of the weak form tile the domain, so the weights average
it) and the zero mode dropped (the particle number is fixed), per Fourier mode ``k``

    Cov(delta_hat_k(t), delta_hat_k(s)) = n v h_k(t - s),
    h_k(tau) = exp(lambda_k tau) (tau >= 0),   h_k(tau) = exp(conj(lambda_k) |tau|) (tau < 0),

``lambda_k`` the symbol of ``L`` and ``v`` the variance at one grid point (white in space at
every time). White measurement noise is the limit ``lambda_k -> -inf``.

Such noise is not removed by the weak form's averaging: its time correlation survives the
temporal test, and since stationary fluctuations are time-reversible their weak target is
uncorrelated with their weak features (``int int phi'(t) phi(s) C(t - s) = 0`` for even ``C``),
so to a least-squares fit they are modes *without* dynamics: they inflate the feature energy and
bias the coefficients toward zero and the orders low. With the linear weak features
``f = q sum_ai A[a, i] sum_j B[l, j] u_ij`` (:mod:`weakpareto.library.noise_covariance`) summed
over all rows,

    C(f, g) = q^2 (v / n) Re sum_k R_fg[k] p_fg[k],
    R_fg[k] = sum_l conj(B_f_hat[l, k]) B_g_hat[l, k],   p_fg[k] = sum_a A_f[a] E_k A_g[a]^T,

``E_k[i, i'] = h_k(t_i - t_i')``; ``A`` is the target's temporal weights (order 1) or the temporal
tests, ``B`` the spatial tests or their adjoint images. The temporal forms ``p`` depend on the
model (its ``lambda_k``), the spatial ones on the trial orders.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from weakpareto._typing import Array
from weakpareto.library.noise_covariance import SeparableSource

#: Largest ``modes x nt^2`` of one block of propagator matrices (memory of one chunk).
CHUNK_VALUES = 1 << 22
#: Largest ``modes x K_t x nt^2`` of a whole evaluation: beyond it the fit is refused.
MAX_WORK = 5e10


def propagator_matrices(rates: Array, t: Array) -> Array:
    """``E_k[i, i'] = h_k(t_i - t_i')`` for every rate: ``(M, nt, nt)`` complex."""
    tau = np.asarray(t, dtype=float)[:, None] - np.asarray(t, dtype=float)[None, :]
    lam = np.asarray(rates, dtype=complex)[:, None, None]
    ahead = tau[None] >= 0.0
    return np.where(ahead, np.exp(lam * np.abs(tau)), np.exp(np.conj(lam) * np.abs(tau)))


def temporal_forms(a: Array, b: Array, rates: Array, t: Array) -> Array:
    """``p[k] = sum_a A[a] E_k B[a]^T`` for temporal weights ``A, B`` ``(K_t, nt)``: ``(M,)``."""
    nt = np.asarray(t).size
    chunk = max(1, CHUNK_VALUES // (nt * nt))
    out = []
    for start in range(0, rates.size, chunk):
        e = propagator_matrices(rates[start : start + chunk], t)  # (m, nt, nt)
        ae = np.matmul(a[None].astype(complex), e)  # (m, K_t, nt)
        out.append(np.einsum("mai,ai->m", ae, b))
    return np.concatenate(out) if out else np.zeros(0, dtype=complex)


@dataclass(frozen=True)
class IntrinsicCovariance:
    """Covariance of ``[y, x_1..x_c]`` (order-1 target, linear columns) under intrinsic
    fluctuations of variance ``variance`` per grid point and the model's ``rates`` ``lambda_k``
    (numpy FFT order along x), all weak rows summed (module docstring)."""

    source: SeparableSource
    times: Array  # the sample times of the target's temporal weights
    variance: float
    rates: Array  # (nx,) complex
    forms: tuple[Array, Array, Array]  # p_WW, p_WT, p_TT per mode

    @classmethod
    def build(
        cls, source: SeparableSource, times: Array, variance: float, rates: Array
    ) -> IntrinsicCovariance:
        """The temporal forms of the model ``rates`` (the expensive, order-independent part)."""
        w = np.asarray(source.target_weights(np.array([1.0]), "int"))[0]
        tt = np.asarray(source.temporal_tests)
        rates = np.asarray(rates, dtype=complex)
        work = rates.size * w.shape[0] * float(np.asarray(times).size) ** 2
        if work > MAX_WORK:
            raise ValueError(
                f"the intrinsic-noise covariance needs ~{work:.1e} operations on this grid "
                f"(limit {MAX_WORK:.0e}); subsample the field in time or space"
            )
        forms = (
            temporal_forms(w, w, rates, times),
            temporal_forms(w, tt, rates, times),
            temporal_forms(tt, tt, rates, times),
        )
        return cls(source, np.asarray(times, dtype=float), float(variance), rates, forms)

    def system(self, betas: Array) -> Array:
        """``(c + 1, c + 1)`` covariance of the target and the linear columns at ``betas``."""
        q = float(self.source.dt * self.source.dx)
        psi = np.fft.fft(np.asarray(self.source.spatial_tests), axis=1)  # (K_x, n)
        betas = np.asarray(betas, dtype=float)
        adj = (
            np.fft.fft(self.source.spatial_adjoint_tests(betas), axis=2)
            if betas.size
            else np.zeros((0,) + psi.shape, dtype=complex)
        )
        spatial = np.concatenate([psi[None], adj], axis=0)  # (c + 1, K_x, n)
        r = np.einsum("flk,glk->fgk", np.conj(spatial), spatial)  # (c+1, c+1, n)
        p_ww, p_wt, p_tt = self.forms
        c = betas.size + 1
        p = np.empty((c, c, p_ww.size), dtype=complex)
        p[0, 0] = p_ww
        p[0, 1:] = p_wt
        p[1:, 0] = np.conj(p_wt)  # E_k is Hermitian: B E_k A^T = conj(A E_k B^T) for real A, B
        p[1:, 1:] = p_tt
        n = psi.shape[1]
        cov = q * q * self.variance / n * np.real(np.sum(r * p, axis=2))
        return 0.5 * (cov + cov.T)
