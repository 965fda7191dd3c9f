"""The weak residual map of a fit: rebuilt from what the estimator exposes, it reproduces E_fit."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.fit.checks import FitWarning
from weakpareto.user.estimator import WeakPareto
from weakpareto.user.weak_residual import weak_residual_map


@pytest.fixture(scope="module")
def fitted(noisy_fade):
    u, t, x = noisy_fade
    # the L1 method: its E_fit is the raw residual (noise-aware scoring corrects it)
    model = WeakPareto(
        alpha_range=(0.6, 1.05),
        beta_range=(0.5, 2.0),
        maxiter=8,
        popsize=5,
        method="weak_pareto_robust",
        refit="weak",  # the map is the weak residual of the reported (here the weak) estimate
    )
    field = model.validate(u, t, x)
    return model.fit(u, t, x), field


def test_map_reproduces_the_fit_error(fitted):
    model, field = fitted
    rmap = weak_residual_map(model, field)
    assert not isinstance(rmap, str)
    assert rmap.relative == pytest.approx(model.fit_error_, rel=1e-9)
    assert rmap.shape == tuple(model.grid_["test_counts"]) == rmap.values.shape
    assert rmap.note == "" and not rmap.noise_corrected
    # in units of the RMS target: the RMS of the map is E_fit
    assert float(np.sqrt(np.mean(rmap.values**2))) == pytest.approx(model.fit_error_, rel=1e-9)


def test_same_map_whatever_the_units(fitted, noisy_fade):
    model, field = fitted
    u, t, x = noisy_fade
    scaled = WeakPareto(**model.get_params())
    field2 = scaled.validate(1e3 * u, 60.0 * t, 1e-2 * x)
    scaled.fit(1e3 * u, 60.0 * t, 1e-2 * x)
    a, b = weak_residual_map(model, field), weak_residual_map(scaled, field2)
    assert not isinstance(a, str) and not isinstance(b, str)
    np.testing.assert_allclose(a.values, b.values, atol=1e-6 * np.abs(a.values).max())


def test_no_map_without_weak_equations(fitted, monkeypatch):
    model, field = fitted
    note = FitWarning("no_diagnostics", "its own features", "info")
    monkeypatch.setattr(model, "warnings_", [note])
    assert "has no weak equations" in weak_residual_map(model, field)
