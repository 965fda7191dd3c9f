"""``history="unknown"``: a Caputo field recorded after its onset (weakpareto.fit.history)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from weakpareto import WeakPareto
from weakpareto.errors import UserInputError
from weakpareto.user.discover_command import discover_command

SETTINGS = dict(operator="riesz", alpha_range=(0.2, 1.9), beta_range=(0.0, 3.2))


def recorded_late(alpha: float, beta: float, coef: float, cut: float = 0.3):
    """An exact Mittag-Leffler field (the independent suite's initial condition) from its onset,
    with the first ``cut`` of the duration dropped: 151 samples over 3 time units remain."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[2] / "scripts" / "measurement_history.py"
    spec = importlib.util.spec_from_file_location("measurement_history", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.cut_record(alpha, beta, coef, cut)


def fit(u, t, x, history: str) -> WeakPareto:
    return WeakPareto(method="weak_pareto_exact", history=history, **SETTINGS).fit(u, t, x)


@pytest.mark.parametrize(
    ("alpha", "beta", "coef"),
    [(0.8, 0.8, 0.4), (1.5, 2.0, 0.5)],
)
def test_unknown_history_recovers_the_equation(alpha, beta, coef):
    """Recorded from t0 = 30 % of the time since onset: alpha and beta within 0.03, the
    coefficient within 5 %, and the grid record names the history model."""
    u, t, x = recorded_late(alpha, beta, coef)
    model = fit(u, t, x, "unknown")
    assert model.coef_.size == 1 and model.powers_[0] == 0
    assert abs(model.alpha_ - alpha) <= 0.03
    assert abs(model.orders_[0] - beta) <= 0.03
    assert abs(model.coef_[0] / coef - 1.0) <= 0.05
    record = model.grid_["history"]
    assert record["model"] == "unknown" and record["nuisance"] > 0
    assert json.loads(model.to_json())["grid"]["history"] == record


@pytest.mark.slow
def test_default_is_biased_by_the_unobserved_history():
    """The default takes the record's start for the onset and biases alpha (measured
    |dalpha| 0.077 at t0 = 30 % for D_t^0.8 u = 0.4 R^0.8 u, against 0.003 with
    history=unknown; results/measurement/tab_history.md)."""
    u, t, x = recorded_late(0.8, 0.8, 0.4)
    default = abs(fit(u, t, x, "none").alpha_ - 0.8)
    unknown = abs(fit(u, t, x, "unknown").alpha_ - 0.8)
    assert default > 0.05 > 0.03 >= unknown


def test_default_leaves_no_history_record():
    u, t, x = recorded_late(1.5, 2.0, 0.5)
    model = WeakPareto(method="weak_pareto_exact", max_terms=1, maxiter=2, **SETTINGS)
    assert model.fit_spec().history == "none"
    assert "history" not in model.fit(u[::3], t[::3], x).grid_


@pytest.mark.parametrize(
    ("params", "text"),
    [
        (dict(method="weak_pareto"), "use method=weak_pareto_exact"),
        (dict(method="weak_pareto_exact", domain="bounded"), "periodic only"),
        (dict(method="weak_pareto_exact", operator="auto"), "one operator family"),
        (dict(method="weak_pareto_exact", uncertainty="bootstrap"), "without uncertainty"),
    ],
)
def test_unsupported_combinations_are_refused(params, text):
    u, t, x = recorded_late(1.5, 2.0, 0.5)
    settings = {**SETTINGS, **params}
    with pytest.raises(UserInputError, match=text):
        WeakPareto(history="unknown", **settings).fit(u, t, x)


def test_unknown_history_value_is_refused():
    with pytest.raises(UserInputError, match="history='past' is not one of none, unknown"):
        WeakPareto(history="past").fit_spec()


def test_two_experiments_are_refused():
    u, t, x = recorded_late(1.5, 2.0, 0.5)
    model = WeakPareto(method="weak_pareto_exact", history="unknown", **SETTINGS)
    with pytest.raises(UserInputError, match="one experiment"):
        model.fit([u, u[:100]], [t, t[:100]], x)


def test_wp_discover_takes_history(tmp_path, capsys):
    u, t, x = recorded_late(1.5, 2.0, 0.5)
    data, out = tmp_path / "late.npz", tmp_path / "r.json"
    np.savez(data, u=u, t=t, x=x)
    discover_command([f"data={data}", f"out={out}", "method=weak_pareto_exact",
                      "history=unknown", "operator=riesz", "alpha_range=[0.2,1.9]",
                      "beta_range=[0,3.2]"])  # fmt: skip
    payload = json.loads(out.read_text())
    assert payload["params"]["history"] == "unknown"
    assert payload["grid"]["history"]["model"] == "unknown"
    assert abs(payload["alpha"] - 1.5) <= 0.03
