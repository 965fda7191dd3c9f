"""A fit without ``operator``: ``auto`` where it is implemented, else directional with a note."""

from __future__ import annotations

import json

import numpy as np
import pytest

from weakpareto.cli import main
from weakpareto.errors import UserInputError
from weakpareto.user.estimator import WeakPareto
from weakpareto.user.limits import max_seed
from weakpareto.user.validation import check_params

CHEAP = {"popsize": 3, "maxiter": 3, "max_terms": 2, "polish": False, "powers": (0,)}


def _travelling_wave(nt: int = 40, nx: int = 32):
    """Two advected, decaying modes: a field whose fit is quick (the family is not at stake)."""
    t = 0.05 * np.arange(nt)
    x = np.arange(nx) * (2 * np.pi / nx)
    u = np.sin(x - t[:, None]) * np.exp(-0.2 * t)[:, None] + 0.3 * np.cos(2 * x + t[:, None])
    return u, t, x


def _result(model: WeakPareto) -> tuple[str, float, list[float]]:
    eq = model.equation_
    return eq.text(), model.fit_error_, [term.coef for term in eq.terms]


def test_no_operator_is_auto_bit_for_bit():
    u, t, x = _travelling_wave()
    default = WeakPareto(**CHEAP).fit(u, t, x)
    auto = WeakPareto(operator="auto", **CHEAP).fit(u, t, x)
    assert _result(default) == _result(auto)
    assert default.grid_["operator"] == "auto (directional or riesz per term)"
    assert not any(w.code == "operator_default" for w in default.warnings_)
    assert json.loads(default.to_json())["params"]["operator"] is None


@pytest.mark.parametrize(
    "kwargs, fit_args, needle",
    [
        ({"domain": "bounded"}, {}, "bounded window"),
        ({"uncertainty": "bootstrap", "n_boot": 5}, {}, "resamples one operator family"),
    ],
)
def test_no_operator_falls_back_to_directional_and_says_why(kwargs, fit_args, needle):
    u, t, x = _travelling_wave()
    model = WeakPareto(**CHEAP, **kwargs).fit(u, t, x, **fit_args)
    notes = {w.code: w for w in model.warnings_}
    assert notes["operator_default"].level == "info"
    assert needle in notes["operator_default"].message
    assert model.grid_["operator"] == "directional"
    one = WeakPareto(operator="directional", **CHEAP, **kwargs).fit(u, t, x, **fit_args)
    assert _result(model) == _result(one)  # the fallback is the one-family fit itself


def test_no_operator_on_2d_data_fits_the_directional_family():
    t = 0.05 * np.arange(24)
    x = np.arange(16) * (2 * np.pi / 16)
    y = np.arange(16) * (2 * np.pi / 16)
    u = np.exp(-0.3 * t)[:, None, None] * (
        np.sin(x)[None, :, None] + 0.5 * np.cos(y)[None, None, :]
    )
    model = WeakPareto(**CHEAP).fit(u, t, x, y)
    notes = {w.code: w.message for w in model.warnings_}
    assert "2-D data" in notes["operator_default"] and model.grid_["operator"] == "directional"


def test_explicit_auto_is_still_refused_where_it_cannot_apply():
    u, t, x = _travelling_wave()
    with pytest.raises(UserInputError, match="bounded window"):
        WeakPareto(operator="auto", domain="bounded", **CHEAP).fit(u, t, x)


def test_seed_limit_counts_the_families_the_default_may_search():
    one = max_seed(check_params(WeakPareto(operator="directional").get_params()))
    default = max_seed(check_params(WeakPareto().get_params()))
    auto = max_seed(check_params(WeakPareto(operator="auto").get_params()))
    assert default == auto < one  # twice the column kinds: more power patterns per size


def test_discover_prints_and_stores_the_searched_operator(tmp_path, capsys):
    u, t, x = _travelling_wave()
    np.savez(tmp_path / "d.npz", u=u, t=t, x=x)
    out = tmp_path / "r.json"
    cheap = ["popsize=3", "maxiter=3", "max_terms=2", "polish=false", "powers=[0]"]
    main(["discover", f"data={tmp_path / 'd.npz'}", *cheap, f"out={out}"])
    printed = capsys.readouterr().out
    assert "operator auto (directional or riesz per term), alpha_range" in printed
    assert json.loads(out.read_text())["grid"]["operator"].startswith("auto")
