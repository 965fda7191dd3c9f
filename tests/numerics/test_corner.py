"""Spectral corner rule for test-function widths (numerics/corner.py)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate

from weakpareto.numerics.corner import (
    TEST_SPECTRUM_CUTOFF,
    bump_cutoff,
    corner_frequency,
    corner_radius,
)


@pytest.mark.parametrize("power", [3, 4, 6])
def test_bump_cutoff_is_where_the_bump_spectrum_falls_to_the_cutoff(power):
    def ft(k: float) -> float:
        return integrate.quad(lambda z: (1 - z * z) ** power * np.cos(k * z), -1, 1)[0]

    kappa = bump_cutoff(power)
    assert abs(ft(kappa)) <= TEST_SPECTRUM_CUTOFF * ft(0.0) + 1e-12
    assert abs(ft(kappa - 0.05)) > TEST_SPECTRUM_CUTOFF * ft(0.0)  # the first such point


def test_corner_separates_a_band_limited_signal_from_white_noise():
    n, m = 256, 64
    i = np.arange(n)
    rng = np.random.default_rng(0)
    modes = np.arange(1, 9)  # signal up to 8 cycles per record
    amps = rng.uniform(0.5, 1.0, (m, modes.size))
    signal = np.einsum("mk,kn->nm", amps, np.sin(2 * np.pi * np.outer(modes, i) / n))
    noisy = signal + 0.01 * rng.standard_normal(signal.shape)
    kc = corner_frequency(noisy, 0, 0.01**2)
    # the Hann window spreads the top line over its neighbour bin: 8 or 9 cycles
    assert 2 * np.pi * 8 / n <= kc <= 2 * np.pi * 9 / n
    # more noise hides the weaker top modes; no noise: everything is signal (Nyquist)
    assert corner_frequency(signal + 3.0 * rng.standard_normal(signal.shape), 0, 9.0) < kc
    assert corner_frequency(signal, 0, 0.0) == pytest.approx(np.pi)
    # radius = kappa_p / k_c in the axis' units
    assert corner_radius(noisy, 0.5, 0, 0.01**2, 4) == pytest.approx(bump_cutoff(4) / kc * 0.5)
