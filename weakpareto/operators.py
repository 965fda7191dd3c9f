"""Discrete fractional operators and their discrete adjoints (paper Eqs. 1-3, 15; spec §4).

Array conventions
-----------------
* Fields are sampled on uniform grids; time is axis 0 and space the last axis.
* Periodic spatial operators act along the last axis through Fourier multipliers
  ``s(kappa)`` with ``kappa = 2*pi*fftfreq(n, d=L/n)`` (numpy ordering; for even ``n`` the
  Nyquist bin is the negative value ``-pi/dx``).
* The discrete inner product is ``<f, g>_h = dt*dx*sum(f*g)`` (uniform quadrature), so the
  discrete adjoint (paper Eq. 15) of a matrix operator is its transpose and the adjoint of a
  Fourier multiplier is its complex conjugate followed by the real part.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]
ComplexArray = NDArray[np.complex128]


def wavenumbers(n: int, length: float) -> FloatArray:
    """Angular wavenumbers ``2*pi*fftfreq(n, d=length/n)`` of an endpoint-excluded periodic grid."""
    return 2.0 * np.pi * np.fft.fftfreq(n, d=length / n)


def riesz_multiplier(kappa: ArrayLike, beta: float | ArrayLike) -> FloatArray:
    """Riesz multiplier ``-|kappa|**beta`` (paper Eq. 3); ``beta == 0`` is the identity (ones).

    ``beta`` may be an array of orders; the result then has shape ``beta.shape + kappa.shape``.
    The identity at ``beta = 0`` is a modelling convention (paper Sec. 2.1), not the limit.
    """
    kappa = np.asarray(kappa, dtype=float)
    beta_arr = np.asarray(beta, dtype=float)
    b = beta_arr[..., None] if beta_arr.ndim else beta_arr
    with np.errstate(divide="ignore"):
        out = -np.abs(kappa) ** b
    out = np.where(b == 0.0, 1.0, out)
    return np.asarray(out, dtype=float)


def directional_multiplier(kappa: ArrayLike, beta: float | ArrayLike) -> ComplexArray:
    """Directional multiplier ``(i*kappa)**beta`` on the principal branch (paper Eq. 4).

    ``|kappa|**beta * exp(i*pi*beta*sgn(kappa)/2)``; the zero mode is annihilated for
    ``beta > 0``; ``beta == 0`` is the identity. The Nyquist bin gets no special case (spec §4.4):
    after the real part its effective action is ``cos(pi*beta/2)*|kappa|**beta``.
    """
    kappa = np.asarray(kappa, dtype=float)
    beta_arr = np.asarray(beta, dtype=float)
    b = beta_arr[..., None] if beta_arr.ndim else beta_arr
    mag = np.abs(kappa) ** b
    phase = np.exp(1j * 0.5 * np.pi * b * np.sign(kappa))
    out = mag * phase
    out = np.where(kappa == 0.0, 0.0 + 0.0j, out)
    out = np.where(b == 0.0, 1.0 + 0.0j, out)
    return np.asarray(out, dtype=complex)
