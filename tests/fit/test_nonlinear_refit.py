"""refit=auto on a selected nonlinear model (fit/nonlinear_refit.py, through fit/trajectory.py):
the output-error refit by the package's stepper on a field of an independent solver, and when
the stepper is too coarse for the data's noise."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from tests.method.test_nonlinear_trajectory_fit import pycaputo_config
from weakpareto.benchmarks.noise import add_noise
from weakpareto.fit.nonlinear_refit import STEPPER_SHARE, nonlinear_refit
from weakpareto.method.nonlinear_trajectory_fit import NonlinearData
from weakpareto.records import Equation, Term
from weakpareto.user.estimator import WeakPareto

CFG = pycaputo_config(1.4, "riesz", [(0, 1.5, 0.4), (2, 0.0, -0.3)])
SETTINGS = {
    "operator": "riesz",
    "powers": (0, 2),
    "max_terms": 2,
    "alpha_range": (1.05, 1.9),
    "beta_range": (0.0, 3.0),
}


def test_a_nonlinear_superunit_field_is_refitted_to_its_trajectory():
    """D_t^1.4 u = 0.4 R^1.5 u - 0.3 u^3 by pycaputo's PECE, 1 % multiplicative noise (seed 2):
    the weak estimate's order is 0.137 off (R^1.6369), the refit's 0.037, alpha within 0.005
    and both coefficients within 2 %; the note names the stepper, ``grid_`` the estimate."""
    pytest.importorskip("pycaputo")  # the [independent] extra, installed by make test
    from weakpareto.benchmarks.generators import generate

    field = generate(copy.deepcopy(CFG), 0)
    u = add_noise(field.u, "multiplicative", 0.01, 2)
    weak = WeakPareto(refit="weak", **SETTINGS).fit(u, field.t, field.x)
    model = WeakPareto(**SETTINGS).fit(u, field.t, field.x)
    assert weak.powers_.tolist() == model.powers_.tolist() == [0, 2]
    assert abs(weak.orders_[0] - 1.5) > 0.1
    assert abs(model.orders_[0] - 1.5) < 0.05
    assert abs(model.alpha_ - 1.4) < 0.005
    assert np.max(np.abs(model.coef_ / np.array([0.4, -0.3]) - 1.0)) < 0.02
    (note,) = [w for w in model.warnings_ if w.code == "trajectory_refit"]
    assert note.level == "info" and "fractional stepper, 2 steps per frame" in note.message
    record = model.grid_["refit"]
    assert record["estimate"] == "trajectory" and record["rms_misfit"] < record["rms_misfit_weak"]
    assert model.result_.timings["trajectory_substeps"] == 2.0 and record["stepper_substeps"] == 2


def test_a_stepper_too_coarse_for_the_noise_declines():
    """Noise far below the stepper's error at its finest resolution: no refit, and the reason."""
    t = np.linspace(0.0, 2.0, 41)
    x = 2 * np.pi * np.arange(32) / 32
    u = 0.5 + 0.3 * np.outer(np.exp(-t), np.sin(x)) + 0.2 * np.outer(np.cos(t), np.cos(2 * x))
    modes = np.array([0, 1, 2])
    data = NonlinearData(u, t, 2 * np.pi, np.ones_like(u), modes, noise_sd=1e-14)
    eq = Equation(
        "sub", 0.6, (Term(0, 1.6, 0.3, family="riesz"), Term(1, 1.0, -0.2, family="riesz")), "riesz"
    )
    reason = nonlinear_refit(eq, data, 0.0)
    assert isinstance(reason, str) and f"exceeds {STEPPER_SHARE:g} of the noise's sd" in reason
    refit = nonlinear_refit(eq, NonlinearData(u, t, 2 * np.pi, np.ones_like(u), modes, 1e-2), 0.0)
    assert not isinstance(refit, str) and refit.substeps == 2


def test_a_refit_beyond_its_cost_budget_declines(monkeypatch):
    """The work of one batched Jacobian solve (columns x modes x steps^2 / 2) above the budget:
    no refit, and the reason names the size."""
    from weakpareto.fit import nonlinear_refit as nr

    t = np.linspace(0.0, 2.0, 41)
    x = 2 * np.pi * np.arange(32) / 32
    u = 0.5 + 0.3 * np.outer(np.exp(-t), np.sin(x))
    data = NonlinearData(u, t, 2 * np.pi, np.ones_like(u), np.array([0, 1]), noise_sd=1e-2)
    eq = Equation(
        "sub", 0.6, (Term(0, 1.6, 0.3, family="riesz"), Term(1, 1.0, -0.2, family="riesz")), "riesz"
    )
    refit = nr.nonlinear_refit(eq, data, 0.0)
    assert not isinstance(refit, str)
    # 1 + 5 model parameters + 3 initial values; 80 steps; 17 modes
    assert nr.solve_work(refit) == (1 + 5 + 3) * 17 * 80 * 80 / 2
    monkeypatch.setattr(nr, "MAX_SOLVE_WORK", nr.solve_work(refit) - 1.0)
    reason = nr.nonlinear_refit(eq, data, 0.0)
    assert isinstance(reason, str) and "41 frames x 32 points (8 parameters" in reason


def test_a_field_too_large_for_the_stepper_declines_before_any_solve(monkeypatch):
    """Above the budget at the first resolution the refit declines without solving (a large
    field would otherwise spend minutes in the stepper's accuracy check)."""
    from weakpareto.fit import nonlinear_refit as nr

    def no_solve(*args, **kwargs):
        raise AssertionError("the stepper ran")

    monkeypatch.setattr(nr, "stepper_error", no_solve)
    monkeypatch.setattr(nr, "MAX_SOLVE_WORK", 1.0)
    t = np.linspace(0.0, 2.0, 41)
    x = 2 * np.pi * np.arange(32) / 32
    u = 0.5 + 0.3 * np.outer(np.exp(-t), np.sin(x))
    data = NonlinearData(u, t, 2 * np.pi, np.ones_like(u), np.array([0, 1]), noise_sd=1e-2)
    eq = Equation("sub", 0.6, (Term(1, 1.0, -0.2, family="riesz"),), "riesz")
    reason = nr.nonlinear_refit(eq, data, 0.0)
    assert isinstance(reason, str) and "above its budget" in reason
