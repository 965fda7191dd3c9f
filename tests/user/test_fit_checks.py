"""The fit's diagnostics at the users' door (user/fit_checks.py): every check on a weak Pareto
fit, and a note (not silence) for a method that builds its own features."""

from __future__ import annotations

import numpy as np

from weakpareto import WeakPareto
from weakpareto.numerics.mittag_leffler import mittag_leffler


def _field() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact per-mode solution of D_t^0.8 u = -u_x + 0.5 D_x^1.7 u from a Gaussian pulse."""
    x = 2 * np.pi * np.arange(64) / 64
    k = np.fft.fftfreq(64, 1.0 / 64)
    t = np.linspace(0.0, 2.0, 70)
    lam = -(1j * k) + 0.5 * (1j * k) ** 1.7
    u0 = np.exp(-((x - 2.0) ** 2) / (2 * 0.5**2))
    spec = mittag_leffler(np.multiply.outer(t**0.8, lam), 0.8, 1.0) * np.fft.fft(u0)
    return np.real(np.fft.ifft(spec, axis=-1)), t, x


def test_a_method_with_its_own_features_gets_a_note_and_no_noise_floor():
    u, t, x = _field()
    model = WeakPareto(method="weak_grid_stridge", operator="directional").fit(u, t, x)
    codes = {w.code: w.level for w in model.warnings_}
    assert codes.get("no_diagnostics") == "info" and "noise_level" in codes
    assert model.grid_["noise_floor"] is None


def test_a_weak_pareto_fit_runs_the_checks_and_states_a_noise_floor():
    u, t, x = _field()
    model = WeakPareto(operator="directional", alpha_range=(0.6, 1.05), beta_range=(0.5, 2.0))
    model.fit(u, t, x)
    assert "no_diagnostics" not in {w.code for w in model.warnings_}
    assert model.grid_["noise_floor"] is not None and model.grid_["noise_floor"] >= 0.0
