"""tempering= at the WeakPareto and wp discover doors (user/tempering.py)."""

from __future__ import annotations

import json
from importlib.resources import files

import numpy as np
import pytest

from weakpareto.benchmarks.generators import generate
from weakpareto.cli import main
from weakpareto.errors import UserInputError
from weakpareto.user.estimator import WeakPareto

LAM, COEF, ORDER = 1.0, 0.3, 1.5
RANGES = {"alpha_range": (0.5, 1.5), "beta_range": (0.5, 2.0)}


def tempered_field(x_unit: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """u_t = 0.3 TR^{1.5, lambda=1} u on 120 t x 96 x of a 2 pi period, exact per mode (the
    field of package data ``tempered_case.json``)."""
    text = files("weakpareto.data").joinpath("tempered_case.json").read_text(encoding="utf-8")
    cfg = json.loads(text)
    assert cfg["generator"]["tempering"] == LAM
    cfg["name"] = "tempered_riesz"
    cfg["truth"] = {
        "mode": "int",
        "alpha": 1.0,
        "operator": "tempered_riesz",
        "terms": [{"power": 0, "order": ORDER, "coef": COEF}],
    }
    f = generate(cfg)
    return f.u, f.t, f.x * x_unit


def _check_recovered(model: WeakPareto, coef: float = COEF) -> None:
    eq = model.equation_
    assert eq.mode == "int" and len(eq.terms) == 1
    term = eq.terms[0]
    assert term.family == "tempered_riesz" and term.power == 0
    assert abs(term.order - ORDER) < 0.02
    assert abs(term.coef - coef) < 0.03 * coef


def test_given_lambda_recovers_the_equation() -> None:
    model = WeakPareto(operator="tempered_riesz", tempering=LAM, **RANGES)
    model.fit(*tempered_field())
    _check_recovered(model)
    assert model.tempering_ == LAM and model.grid_["tempering_given"] is True
    again = WeakPareto.from_json(model.to_json())
    assert again.tempering_ == LAM and again.equation_ == model.equation_
    assert "TR^1.5" in model.equation_.text()


def test_lambda_is_in_the_units_of_x() -> None:
    """x in units 10 times smaller: lambda / 10, coefficient times 10^-1.5, same orders."""
    model = WeakPareto(operator="tempered_riesz", tempering=LAM / 10.0, **RANGES)
    model.fit(*tempered_field(x_unit=10.0))
    _check_recovered(model, coef=COEF * 10.0**ORDER)


def test_estimated_lambda_recovers_lambda_and_the_equation() -> None:
    """With the default method the search at the guessed lambda selects two terms (TR^0.5 +
    TR^1.53); lambda estimated per front structure and the gain rule keep the one-term model."""
    model = WeakPareto(operator="tempered_riesz", **RANGES).fit(*tempered_field())
    _check_recovered(model)
    assert abs(model.tempering_ / LAM - 1.0) < 0.1
    assert model.grid_["tempering_given"] is False
    assert any(w.code == "tempering" for w in model.warnings_)


def test_refusals() -> None:
    u, t, x = tempered_field()
    with pytest.raises(UserInputError, match="1-D only"):
        WeakPareto(operator="tempered_riesz", tempering=1.0, powers=(0,), **RANGES).fit(
            u[:, :, None] * (1.0 + 0.1 * np.sin(np.arange(16.0) * np.pi / 8))[None, None, :],
            t,
            x,
            np.arange(16.0),
        )
    with pytest.raises(UserInputError, match="periodic only"):
        WeakPareto(operator="tempered_riesz", tempering=1.0, domain="bounded", **RANGES).fit(
            u, t, x
        )
    with pytest.raises(UserInputError, match="uncertainty=bootstrap"):
        WeakPareto(operator="tempered_riesz", tempering=1.0, uncertainty="bootstrap", **RANGES).fit(
            u, t, x
        )
    with pytest.raises(UserInputError, match="tempering="):
        WeakPareto(operator="riesz", tempering=1.0).fit_spec()
    with pytest.raises(UserInputError, match="tempering="):
        WeakPareto(operator="tempered_riesz", tempering="one").fit_spec()


def test_wp_discover_takes_tempering(tmp_path, capsys) -> None:
    u, t, x = tempered_field()
    np.savez(tmp_path / "f.npz", u=u, t=t, x=x)
    out = tmp_path / "r.json"
    main(
        [
            "discover",
            f"data={tmp_path / 'f.npz'}",
            "operator=tempered_riesz",
            "tempering=1.0",
            "alpha_range=[0.5,1.5]",
            "beta_range=[0.5,2.0]",
            f"out={out}",
        ]
    )
    assert "tempered_riesz (tempering lambda 1)" in capsys.readouterr().out
    payload = json.loads(out.read_text())
    assert payload["grid"]["tempering"] == 1.0 and payload["params"]["tempering"] == 1.0
    (term,) = payload["terms"]
    assert term["family"] == "tempered_riesz" and abs(term["coef"] - COEF) < 0.03 * COEF


def test_the_trajectory_refit_refits_lambda_with_the_model() -> None:
    """1 % multiplicative noise (the tab_model_class row), lambda estimated: the refit moves
    lambda with the order and the coefficient (measured lambda 1.092 -> 1.054 for the truth 1,
    order 1.4688 -> 1.4794, coefficient error 7.8 -> 4.9 %; the order's standard error there is
    0.012, docs/method/tempered.md); the grid record and tempering_ agree, and with refit=weak
    lambda is the weak estimate."""
    from weakpareto.benchmarks.noise import add_noise

    u, t, x = tempered_field()
    u = add_noise(u, "multiplicative", 0.01, 0)
    auto = WeakPareto(operator="tempered_riesz", **RANGES).fit(u, t, x)
    weak = WeakPareto(operator="tempered_riesz", refit="weak", **RANGES).fit(u, t, x)
    assert auto.grid_["refit"]["estimate"] == "trajectory"
    assert weak.grid_["refit"]["estimate"] == "weak"
    assert auto.tempering_ == auto.grid_["tempering"] != weak.tempering_
    assert abs(auto.tempering_ - LAM) < abs(weak.tempering_ - LAM)
    for model, order_error, coef_error in ((auto, 0.025, 0.06), (weak, 0.035, 0.09)):
        (term,) = model.equation_.terms
        assert abs(term.order - ORDER) < order_error and abs(term.coef / COEF - 1) < coef_error
    (a,), (w,) = auto.equation_.terms, weak.equation_.terms
    assert abs(a.order - ORDER) < abs(w.order - ORDER) and abs(a.coef - COEF) < abs(w.coef - COEF)
    (note,) = [w for w in auto.warnings_ if w.code == "trajectory_refit"]
    assert "tempering lambda x" in note.message
