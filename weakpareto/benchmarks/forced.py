"""Exact solutions of a forced linear fractional equation, mode by mode (ours).

Model on the period ``[0, 2 pi)``: ``D_t^alpha u = -v u_x + K R^beta u + c g(t) h(x)``,
``0 < alpha <= 1``, Riesz ``R^beta`` with multiplier ``-|kappa|^beta`` (``v = 0``: one operator
family; ``v != 0``: an advection beside the Riesz dispersion, a forced Levy flight with drift).
Each Fourier mode ``kappa`` is the scalar equation ``D_t^alpha y = -lam y + c h_hat g(t)`` with
``lam = i v kappa + K |kappa|^beta`` (complex for ``v != 0``; every formula below holds for
complex ``lam``), solved in closed form (no time stepping, so the data owe nothing to the
method's discretisation):

* ``alpha = 1``, ``g = sin(omega t)``:
  ``y = y0 e^{-lam t} + c h_hat (lam sin(omega t) - omega cos(omega t) + omega e^{-lam t})
  / (lam^2 + omega^2)``;
* ``0 < alpha < 1``, ``g = 1 + t``: with ``z = -lam t^alpha`` and the two-parameter
  Mittag-Leffler function, the forced part is the convolution
  ``int_0^t s^(alpha-1) E_{alpha,alpha}(-lam s^alpha) g(t - s) ds``, which for ``g = t^m`` is
  ``m! t^(alpha+m) E_{alpha,alpha+m+1}(z)``:
  ``y = y0 E_alpha(z) + c h_hat (t^alpha E_{alpha,alpha+1}(z) + t^(alpha+1) E_{alpha,alpha+2}(z))``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from weakpareto._typing import Array
from weakpareto.numerics.mittag_leffler import mittag_leffler


@dataclass(frozen=True)
class ForcedField:
    """A forced solution on its grid, with the forcing field ``f = g(t) h(x)``."""

    u: Array
    t: Array
    x: Array
    f: Array


def _initial(x: Array) -> Array:
    return np.sin(x) + 0.5 * np.cos(2 * x) + 0.3 * np.sin(3 * x) + 0.2 * np.cos(5 * x)


def _shape(x: Array) -> Array:
    return np.cos(2 * x) + 0.6 * np.sin(4 * x)


def forced_riesz_field(
    alpha: float = 1.0,
    K: float = 0.3,
    beta: float = 1.5,
    c: float = 0.5,
    omega: float = 3.0,
    nt: int = 101,
    nx: int = 64,
    t_end: float = 2.0,
    drift: float = 0.0,
) -> ForcedField:
    """The exact solution of the module's model (``g = sin(omega t)`` for ``alpha = 1``,
    ``g = 1 + t`` below 1; ``drift`` is ``v``) from ``u0 = sin x + 0.5 cos 2x + 0.3 sin 3x + 0.2
    cos 5x`` with ``h = cos 2x + 0.6 sin 4x``; ``x`` excludes the periodic endpoint."""
    if not 0.0 < alpha <= 1.0:
        raise ValueError(f"alpha must be in (0, 1], got {alpha}")
    t = np.linspace(0.0, t_end, nt)
    x = 2.0 * np.pi * np.arange(nx) / nx
    kappa = np.fft.rfftfreq(nx, d=1.0 / nx)
    lam = 1j * drift * kappa + K * np.abs(kappa) ** beta
    u0_hat, h_hat = np.fft.rfft(_initial(x)), np.fft.rfft(_shape(x))
    tt = t[:, None]
    if alpha == 1.0:
        g = np.sin(omega * t)
        free = np.exp(-lam * tt)
        forced = (lam * np.sin(omega * tt) - omega * np.cos(omega * tt) + omega * free) / (
            lam**2 + omega**2
        )
    else:
        g = 1.0 + t
        z = -lam[None, :] * tt**alpha
        free = mittag_leffler(z, alpha, 1.0)
        forced = tt**alpha * mittag_leffler(z, alpha, alpha + 1.0) + tt ** (
            alpha + 1.0
        ) * mittag_leffler(z, alpha, alpha + 2.0)
    spectrum = u0_hat[None, :] * free + c * h_hat[None, :] * forced
    u = np.fft.irfft(spectrum, n=nx, axis=1)
    return ForcedField(u, t, x, g[:, None] * _shape(x)[None, :])
