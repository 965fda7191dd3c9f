"""``history="unknown"``: a Caputo field recorded after its onset (weakpareto.fit.history)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from weakpareto import WeakPareto
from weakpareto.errors import UserInputError
from weakpareto.fit.history import merged_twin
from weakpareto.records import Term
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


def fit(u, t, x, history: str, refit: str = "weak") -> WeakPareto:
    """The weak estimate by default: these tests check the history model of the weak form (the
    onset refit, ``refit="auto"``, is tested in tests/fit/test_history_onset.py)."""
    return WeakPareto(method="weak_pareto_exact", history=history, refit=refit, **SETTINGS).fit(
        u, t, x
    )


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


def test_terms_that_meet_in_the_history_refit_are_merged():
    """D_t^0.5 u = 0.3 R^2 u from t0 = 30 %: the search's two Riesz terms meet at one order in
    the history refit with cancelling coefficients (+6203.7 R^1.4846 u - 6203.8 R^1.4846 u at
    alpha = 1, the branch edge); merged and refitted they are one term near the truth (measured
    alpha 0.5042, beta 1.9345, coefficient 0.2796)."""
    u, t, x = recorded_late(0.5, 2.0, 0.3)
    model = fit(u, t, x, "unknown")
    assert model.coef_.size == 1 and model.powers_[0] == 0
    assert abs(model.alpha_ - 0.5) <= 0.01
    assert abs(model.orders_[0] - 2.0) <= 0.1 and abs(model.coef_[0] / 0.3 - 1.0) <= 0.1


def test_merged_twin_takes_the_smaller_of_the_closest_same_power_pair():
    terms = [Term(0, 1.0, 1.0), Term(0, 1.05, 1.0), Term(1, 1.0, 1.0), Term(0, 2.0, 1.0)]
    orders = np.array([1.40, 1.45, 1.42, 1.52])
    assert merged_twin(terms, orders, np.array([2.0, 1.0, 5.0, 3.0]), 0.15) == 1  # same sign
    assert merged_twin(terms, orders, np.array([2.0, -1.9, 5.0, -9.0]), 0.15) == 1  # cancel
    # opposite signs that do not cancel, or farther apart than the distance: two operators
    assert merged_twin(terms[:2], orders[:2], np.array([2.0, -1.0]), 0.15) is None
    assert merged_twin(terms[:2], orders[:2], np.array([2.0, 1.0]), 0.04) is None
    # the identity (order 0) is never a twin
    zero = np.array([0.0, 0.0, 1.0, 2.0])
    assert merged_twin(terms, zero, np.array([1.0, 1.0, 1.0, 1.0]), 0.15) is None


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
