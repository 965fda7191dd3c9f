"""The ``WeakPareto`` estimator: scikit-learn conventions, fitted state, JSON round trip."""

from __future__ import annotations

import json

import numpy as np
import pytest

from weakpareto.errors import UserInputError
from weakpareto.user.estimator import NotFittedError, WeakPareto


@pytest.fixture(scope="module")
def fitted(noisy_fade):
    u, t, x = noisy_fade  # 10 % multiplicative noise (conftest)
    return WeakPareto(alpha_range=(0.6, 1.05), beta_range=(0.5, 2.0), seed=0).fit(u, t, x)


def test_init_only_stores_params():
    m = WeakPareto(operator="nonsense", alpha_range=(3, 1))  # validated in fit, not here
    assert m.operator == "nonsense" and m.alpha_range == (3, 1)
    assert not hasattr(m, "equation_")


def test_defaults_are_documented_values():
    p = WeakPareto().get_params()
    assert p == {
        "operator": None,  # auto where implemented (user/operator_default.py)
        "alpha_range": (0.5, 1.5),
        "beta_range": (0.5, 2.0),
        "powers": (0, 1, 2),
        "power_mode": "auto",
        "max_terms": 4,
        "test_functions": "gaussian",
        "test_counts": None,
        "seed": 0,
        "method": "weak_pareto_exact",
        "popsize": 7,
        "maxiter": 24,
        "updating": "deferred",
        "ridge": 1e-3,
        "selection": None,
        "margin": 0.15,
        "polish": True,
        "domain": "auto",
        "uncertainty": None,
        "n_boot": 200,
        "level": 0.9,
        "history": "none",
        "tempering": None,
        "noise_kind": "measurement",
        "refit": "auto",
    }


def test_set_params_and_repr():
    m = WeakPareto().set_params(operator="riesz", seed=3)
    assert m.get_params()["operator"] == "riesz" and m.seed == 3
    assert repr(m) == "WeakPareto(operator='riesz', seed=3)"
    with pytest.raises(UserInputError, match="unknown parameter 'alpha'"):
        m.set_params(alpha=0.8)


def test_not_fitted():
    with pytest.raises(NotFittedError, match="not fitted"):
        WeakPareto().print()


def test_fitted_attributes(fitted):
    m = fitted
    assert m.mode_ == "sub" and abs(m.alpha_ - 0.8) < 0.15
    assert m.equation_.size == 2 and list(m.powers_) == [0, 0]
    assert list(m.directions_) == ["x", "x"]  # 1-D: the only spatial axis
    assert all(term.direction is None for term in m.equation_.terms)
    np.testing.assert_allclose(m.orders_, [1.0, 1.7], atol=0.15)
    assert m.coef_[0] < 0 < m.coef_[1]
    assert m.selected_size_ == 2 and 0 < m.fit_error_ < 0.1
    sizes = [row["size"] for row in m.pareto_front_]
    assert sizes[:2] == [1, 2]
    assert set(m.pareto_front_[0]) == {"size", "train_error", "val_error", "on_front", "equation"}
    assert m.grid_["nt"] == 150 and m.grid_["nx"] == 120 and m.grid_["period"] == 30.0
    assert m.grid_["test_counts"] == [44, 60]  # the paper rule on the FADE grid


def test_print(fitted, capsys):
    fitted.print()
    out = capsys.readouterr().out
    assert "Pareto front" in out and fitted.equation_.text() in out
    marked = [line for line in out.splitlines() if line.lstrip().startswith("*")]
    assert len(marked) == 1 and marked[0].split()[1] == "2"  # the selected size is marked


def test_json_round_trip(fitted):
    text = fitted.to_json()
    again = WeakPareto.from_json(text)
    assert again.get_params() == fitted.get_params()
    assert again.equation_ == fitted.equation_
    assert again.result_ == fitted.result_
    np.testing.assert_array_equal(again.coef_, fitted.coef_)
    np.testing.assert_array_equal(again.orders_, fitted.orders_)
    np.testing.assert_array_equal(again.directions_, fitted.directions_)
    assert all("direction" not in term for term in json.loads(text)["terms"])  # 1-D JSON as before
    assert again.pareto_front_ == fitted.pareto_front_
    assert again.to_dict() == json.loads(text)
    assert json.loads(again.to_json()) == json.loads(text)


def test_unfitted_round_trip():
    m = WeakPareto(operator="riesz", powers=(0,), test_counts=(20, 32))
    again = WeakPareto.from_dict(json.loads(m.to_json()))
    assert again.get_params() == m.get_params()
    assert not hasattr(again, "result_")


def test_power_mode_auto():
    u = np.array([[0.0, 1.0], [2.0, -1e-15]])
    assert WeakPareto.resolve_power_mode("auto", u) == "positive"
    assert WeakPareto.resolve_power_mode("auto", u - 0.5) == "raw"
    assert WeakPareto.resolve_power_mode("raw", u) == "raw"


def test_fit_signature_has_2d_arguments():
    import inspect

    params = list(inspect.signature(WeakPareto.fit).parameters)
    assert params[:7] == ["self", "u", "t", "x", "y", "period", "period_y"]
    assert "mask" in params  # missing samples (weakpareto/user/sampled_field.py)


def test_2d_test_counts_and_operator_checked_before_fitting():
    t = 0.1 * np.arange(24)
    x = np.arange(16) * (2 * np.pi / 16)
    u = np.sin(x[None, :, None] + 2 * x[None, None, :]) * np.exp(-t)[:, None, None]
    m = WeakPareto(powers=(0,), test_counts=(20, 32))
    with pytest.raises(UserInputError, match=r"\[K_t,K_x,K_y\]"):
        m.fit(u, t, x, x)
    m.set_params(test_counts=(20, 32, 32), operator="riesz")
    assert m.validate(u, t, x, x).shape == (24, 16, 16)
    with pytest.raises(UserInputError, match="operator='caputo'"):
        m.set_params(operator="caputo").fit(u, t, x, x)


def test_from_json_refuses_what_is_not_an_estimator_state():
    from weakpareto.errors import UserInputError

    for text in ("{}", '{"equation": "u_t = u"}', "[1, 2]"):
        with pytest.raises(UserInputError, match="not a WeakPareto state") as err:
            WeakPareto.from_json(text)
        assert "\n" not in str(err.value)
    assert WeakPareto.from_json('{"params": {"max_terms": 3}}').max_terms == 3  # unfitted state


def test_a_fit_runs_with_one_blas_thread_whatever_the_callers_limit(fade_field, monkeypatch):
    """The fit caps BLAS at one thread for its duration (estimator docstring) and gives the
    caller's limit back afterwards."""
    from threadpoolctl import threadpool_info, threadpool_limits

    import weakpareto.user.estimator as estimator_module

    if not threadpool_info():
        pytest.skip("numpy reports no BLAS thread pool here")
    seen: list[int] = []
    fit_tempered = estimator_module.fit_tempered

    def spy(*args, **kwargs):
        seen.extend(pool["num_threads"] for pool in threadpool_info())
        return fit_tempered(*args, **kwargs)

    monkeypatch.setattr(estimator_module, "fit_tempered", spy)
    u, t, x = fade_field
    quick = dict(popsize=2, maxiter=2, max_terms=1, polish=False, powers=(0,))
    with threadpool_limits(2):
        before = sorted(pool["num_threads"] for pool in threadpool_info())
        if max(before) < 2:
            pytest.skip("the BLAS pool here does not take two threads")
        WeakPareto(operator="directional", alpha_range=(0.6, 1.05), **quick).fit(u, t, x)
        after = sorted(pool["num_threads"] for pool in threadpool_info())
    assert seen and set(seen) == {1}
    assert after == before
