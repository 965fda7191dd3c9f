"""One-step mode regression (diagnostics/mode_regression.py): exact on noise-free exponential
modes, unbiased with a predicted sd that matches Monte Carlo scatter on AR(1) mode series."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.diagnostics.mode_regression import fit_order, mode_rates

NX, PERIOD, DT, NT = 32, 2.0 * np.pi, 0.02, 101
K, BETA = 0.4, 1.5
MODES = (1, 2, 3, 4)


def _field(spectrum: np.ndarray) -> np.ndarray:
    """Real field ``(nt, NX)`` whose FFT has ``spectrum[:, j]`` at mode ``MODES[j]``."""
    full = np.zeros((spectrum.shape[0], NX), dtype=complex)
    for j, m in enumerate(MODES):
        full[:, m] = spectrum[:, j]
        full[:, NX - m] = np.conj(spectrum[:, j])
    return np.real(np.fft.ifft(full, axis=1))


def _ratios() -> np.ndarray:
    return np.exp(-K * np.asarray(MODES, float) ** BETA * DT)


def test_noise_free_exponential_modes_give_the_exact_order() -> None:
    t = DT * np.arange(NT)
    amplitude = np.array([5.0, 3.0 + 1.0j, 2.0, 1.0j]) * NX
    spectrum = _ratios()[None, :] ** np.arange(NT)[:, None] * amplitude
    innovation = 1e-9 * np.cos(np.arange(NT)[:, None] * np.arange(1, 5))  # keep sd finite
    estimate = fit_order(mode_rates(_field(spectrum + innovation), t, PERIOD, MODES), DT)
    assert estimate.beta == pytest.approx(BETA, abs=1e-6)
    assert estimate.K == pytest.approx(K, rel=1e-6)
    assert estimate.modes == MODES


def test_ar1_modes_unbiased_with_the_predicted_spread() -> None:
    """300 replicates of U(n+1) = r U(n) + e (complex Gaussian e): the mean order is within
    three standard errors of the truth and the predicted sd within 15 % of the scatter."""
    rng = np.random.default_rng(7)
    t = DT * np.arange(NT)
    r = _ratios()
    betas, sds = [], []
    for _ in range(300):
        e = (rng.standard_normal((NT, 4)) + 1j * rng.standard_normal((NT, 4))) * 0.02 * NX
        spectrum = np.empty((NT, 4), dtype=complex)
        spectrum[0] = np.array([1.0, 0.6, 0.4, 0.3]) * NX
        for n in range(1, NT):
            spectrum[n] = r * spectrum[n - 1] + e[n]
        fit = fit_order(mode_rates(_field(spectrum), t, PERIOD, MODES), DT)
        betas.append(fit.beta)
        sds.append(fit.sd_beta)
    scatter = float(np.std(betas, ddof=1))
    assert abs(np.mean(betas) - BETA) < 3 * scatter / np.sqrt(len(betas))
    assert np.mean(sds) == pytest.approx(scatter, rel=0.15)


def test_refusals() -> None:
    t = DT * np.arange(NT)
    with pytest.raises(ValueError, match="uniform sample times"):
        mode_rates(np.zeros((NT, NX)), t**1.1, PERIOD, MODES)
    quiet = mode_rates(np.ones((NT, NX)), t, PERIOD, MODES)  # no mode moves: nothing to fit
    with pytest.raises(ValueError, match="cannot fix an order"):
        fit_order(quiet, DT)
