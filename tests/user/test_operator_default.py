"""A fit without ``operator``: ``auto`` where it is implemented, else directional with a note."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from weakpareto.benchmarks.forced import forced_riesz_field
from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.particles import levy_drift_case
from weakpareto.cli import main
from weakpareto.errors import UserInputError
from weakpareto.records import Equation, Term
from weakpareto.user.estimator import WeakPareto
from weakpareto.user.limits import max_seed
from weakpareto.user.operator_default import one_family
from weakpareto.user.validation import check_params

CHEAP = {"popsize": 3, "maxiter": 3, "max_terms": 2, "polish": False, "powers": (0,)}
RANGES = {"alpha_range": (0.6, 1.1), "beta_range": (0.5, 2.2)}


@functools.cache
def drift_field():
    """Exact solution of u_t = -0.5 u_x + 0.3 R^1.5 u: it needs both families."""
    return generate(levy_drift_case(1.0), 0)


@functools.cache
def drift_free_riesz():
    """The same initial condition under u_t = 0.3 R^1.5 u alone: one family (Riesz)."""
    cfg = levy_drift_case(1.0)
    cfg["truth"]["terms"] = [t for t in cfg["truth"]["terms"] if t.get("family") == "riesz"]
    return generate(cfg, 0)


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


def test_no_operator_on_a_bounded_window_falls_back_to_directional_and_says_why():
    u, t, x = _travelling_wave()
    model = WeakPareto(**CHEAP, domain="bounded").fit(u, t, x)
    notes = {w.code: w for w in model.warnings_}
    assert notes["operator_default"].level == "info"
    assert "bounded window" in notes["operator_default"].message
    assert model.grid_["operator"] == "directional"
    one = WeakPareto(operator="directional", **CHEAP, domain="bounded").fit(u, t, x)
    assert _result(model) == _result(one)  # the fallback is the one-family fit itself


def test_a_one_family_option_takes_the_family_a_plain_auto_fit_chooses():
    """uncertainty= resamples one family: the plain auto fit picks it, then the bootstrap fit
    is exactly the one with that family given."""
    f = drift_free_riesz()
    settings = {**CHEAP, "alpha_range": (0.6, 1.1), "beta_range": (0.5, 2.2)}
    model = WeakPareto(**settings, uncertainty="bootstrap", n_boot=5).fit(f.u, f.t, f.x)
    notes = {w.code: w.message for w in model.warnings_}
    assert "uncertainty=bootstrap fits one operator family" in notes["operator_default"]
    assert model.grid_["operator"] == "riesz"
    given = WeakPareto(operator="riesz", **settings, uncertainty="bootstrap", n_boot=5)
    assert _result(model) == _result(given.fit(f.u, f.t, f.x))
    assert model.uncertainty_ is not None


def test_a_one_family_option_on_data_that_need_two_families_is_refused_in_one_line():
    f = drift_field()
    with pytest.raises(UserInputError, match="needs directional, riesz terms") as err:
        WeakPareto(noise_kind="intrinsic", powers=(0,), **RANGES).fit(f.u, f.t, f.x)
    assert "\n" not in str(err.value) and "give operator=directional or operator=riesz" in str(
        err.value
    )


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


def test_known_forcing_without_operator_is_searched_per_term():
    """D_t u = 0.3 R^1.5 u + 0.5 f (closed form): known forcing does not narrow the family, the
    fit without operator is operator=auto with the forcing, and recovers K and the forcing's
    coefficient as with operator=riesz given."""
    d = forced_riesz_field(alpha=1.0)
    model = WeakPareto(alpha_range=(0.5, 1.5), beta_range=(0.5, 2.0))
    model.fit(d.u, d.t, d.x, forcing={"source": d.f})
    assert model.grid_["operator"].startswith("auto")
    assert not [w for w in model.warnings_ if w.code == "operator_default"]
    terms = {t.forcing or f"{t.family_in(model.equation_.operator)} {t.order:.2f}": t.coef
             for t in model.equation_.terms}  # fmt: skip
    assert terms.keys() == {"riesz 1.50", "source"}
    np.testing.assert_allclose([terms["riesz 1.50"], terms["source"]], [0.3, 0.5], rtol=0.01)


def test_one_family_reads_order_two_and_the_identity_as_either_family():
    def eq(*terms: Term) -> Equation:
        return Equation("int", 1.0, terms, "directional")

    riesz = "riesz"
    assert one_family(eq(Term(0, 1.0, -0.5), Term(0, 1.5, 0.3, family=riesz))) is None
    assert one_family(eq(Term(0, 1.0, -0.5), Term(0, 1.99, 0.3, family=riesz))) == "directional"
    assert one_family(eq(Term(0, 0.0, 0.1), Term(0, 1.5, 0.3, family=riesz))) == "riesz"
    assert one_family(eq(Term(0, 0.0, 0.1))) == "directional"
