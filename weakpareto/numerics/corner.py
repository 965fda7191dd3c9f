"""Data-driven test-function widths: the spectral corner rule (ours, after WSINDy's idea).

The paper sets test widths from the grid and the test count (docs/method/test-functions.md#widths).
The corner rule reads them from the data instead: along an axis, the mean power spectrum of the
field falls from the signal band to the flat floor of the noise; the *corner* ``k_c`` is the highest
frequency whose power still exceeds the floor by :data:`SIGNAL_TO_FLOOR`. A test function should
pass the signal band and reject what lies beyond it, so its half-width ``r`` is chosen such that its
own spectrum has fallen to :data:`TEST_SPECTRUM_CUTOFF` of its peak at ``k_c``:
``r = kappa_p / k_c``, with ``kappa_p`` that point of the unit bump ``(1 - z^2)^p`` (computed once,
numerically).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numpy.typing import ArrayLike

from weakpareto._typing import FloatArray

#: Power ratio (signal over noise floor) that still counts as signal.
SIGNAL_TO_FLOOR = 10.0
#: Test-function spectrum (relative to its peak) at the corner frequency.
TEST_SPECTRUM_CUTOFF = 0.01


@cache
def bump_cutoff(power: int) -> float:
    """``kappa_p``: the smallest ``k r`` with ``|FT[(1 - z^2)^p](k r)| <= cutoff * FT(0)``.

    The transform of the even bump is ``int_{-1}^{1} (1 - z^2)^p cos(k z) dz``, evaluated by
    64-point Gauss–Legendre quadrature (the integrand is entire; exact to rounding for k <= 60).
    """
    z, w = np.polynomial.legendre.leggauss(64)
    f = w * (1.0 - z * z) ** power
    kr = np.linspace(0.0, 60.0, 6001)
    ft = np.abs(np.cos(np.outer(kr, z)) @ f)
    below = np.nonzero(ft <= TEST_SPECTRUM_CUTOFF * ft[0])[0]
    return float(kr[below[0]])


def mean_power_spectrum(u: ArrayLike, axis: int) -> tuple[FloatArray, FloatArray, float]:
    """Angular frequencies ``k >= 0`` (per unit sample), the mean power along ``axis`` and the
    power a unit-variance white noise has in every bin.

    The linear trend between the end samples is removed and a Hann window applied, so a
    non-periodic axis (time) leaks neither a jump nor a kink into the high frequencies.
    """
    u = np.moveaxis(np.asarray(u, dtype=float), axis, -1)
    n = u.shape[-1]
    ramp = np.linspace(0.0, 1.0, n)
    detrended = u - (u[..., :1] + (u[..., -1:] - u[..., :1]) * ramp)
    window = np.hanning(n)
    power = np.abs(np.fft.rfft(detrended * window, axis=-1)) ** 2
    mean = np.asarray(power.reshape(-1, power.shape[-1]).mean(axis=0), dtype=np.float64)
    freqs = np.asarray(2.0 * np.pi * np.fft.rfftfreq(n), dtype=np.float64)
    return freqs, mean, float(np.sum(window * window))


def corner_frequency(u: ArrayLike, axis: int, noise_variance: float) -> float:
    """Corner ``k_c`` (radians per sample): the highest frequency with power above
    ``SIGNAL_TO_FLOOR`` times the white-noise floor; the Nyquist frequency when the noise is
    zero."""
    k, power, gain = mean_power_spectrum(u, axis)
    floor = gain * float(noise_variance)
    if floor <= 0.0:
        return float(k[-1])
    above = np.nonzero(power[1:] > SIGNAL_TO_FLOOR * floor)[0]
    return float(k[1 + above[-1]]) if above.size else float(k[1])


def corner_radius(u: ArrayLike, h: float, axis: int, noise_variance: float, power: int) -> float:
    """Bump half-width (in the axis' units, step ``h``) by the corner rule."""
    kc = corner_frequency(u, axis, noise_variance)
    return bump_cutoff(power) / kc * h
