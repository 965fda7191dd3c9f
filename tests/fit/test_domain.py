"""``domain=periodic|bounded|auto`` (ours, docs/method/extensions.md#bounded-domain): the
periodicity test, the choice and its messages, the unchanged periodic path, and recovery on
non-periodic windows."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from weakpareto.benchmarks.bounded_fields import (
    burgers_window,
    cut_window,
    fractional_ade_dirichlet,
    kdv_window,
)
from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.cli import main
from weakpareto.errors import UserInputError
from weakpareto.fit.domain import PERIODIC_TOL, choose_domain, periodicity
from weakpareto.library.weak import weak_library
from weakpareto.method.discovery import discover
from weakpareto.user.estimator import WeakPareto
from weakpareto.user.scaling import Scales
from weakpareto.user.validation import check_field

FAST = dict(popsize=4, maxiter=6, max_terms=2)


@pytest.fixture(scope="module")
def fade() -> Any:
    return generate("fade")


@pytest.fixture(scope="module")
def burgers() -> Any:
    return burgers_window()


def test_periodicity_of_periodic_data_and_of_windows(fade: Any, burgers: Any) -> None:
    for noise in (0.0, 0.05, 0.1):
        u = add_noise(fade.u, "multiplicative", noise, 0) if noise else fade.u
        p = periodicity(u)
        assert p.periodic and p.score < 2.0, (noise, p)
    window = periodicity(burgers[0].u)
    assert not window.periodic and window.score > 3 * PERIODIC_TOL
    cut = periodicity(cut_window(fade, (5.0, 20.0)).u)
    assert not cut.periodic


def test_choice_and_reasons(fade: Any, burgers: Any) -> None:
    assert choose_domain("auto", fade.u, False, False).domain == "periodic"
    auto = choose_domain("auto", burgers[0].u, False, False)
    assert auto.domain == "bounded" and "edges not periodic" in auto.reason
    assert choose_domain("auto", burgers[0].u, True, False).domain == "periodic"
    forced = choose_domain("periodic", burgers[0].u, False, False)
    assert [w.code for w in forced.notes()] == ["non_periodic"]
    assert auto.notes() == [] and auto.line().startswith("domain bounded (auto, edges not")
    u2 = np.repeat(np.asarray(burgers[0].u)[:, :, None], 20, axis=2)
    with pytest.raises(UserInputError, match="domain=bounded supports 1-D data only") as err:
        choose_domain("bounded", u2, False, True)
    assert "\n" not in str(err.value)
    with pytest.raises(UserInputError, match="period= applies to periodic domains"):
        choose_domain("bounded", burgers[0].u, True, False)
    # zero Dirichlet ends pass the test, and the reason names the confined-process case
    confined = fractional_ade_dirichlet(nx_fine=200, dt_fine=0.0125, nt=41)[0]
    rest = choose_domain("auto", confined.u, False, False)
    assert rest.domain == "periodic" and "pass domain=bounded" in rest.reason
    assert "pass domain=bounded" not in choose_domain("auto", fade.u, False, False).reason


def test_bad_domain_value() -> None:
    with pytest.raises(UserInputError, match="domain="):
        WeakPareto(domain="window").discovery_config()


def test_periodic_path_is_bit_identical(fade: Any) -> None:
    """domain=auto on periodic data runs exactly the library and discovery of before."""
    u = add_noise(fade.u, "multiplicative", 0.01, 0)
    kw: dict[str, Any] = dict(alpha_range=(0.6, 1.05), beta_range=(0.5, 2.0), **FAST)
    model = WeakPareto(**kw, method="weak_pareto_robust", refit="weak").fit(u, fade.t, fade.x)
    assert model.grid_["domain"] == "periodic"
    cfg = model.discovery_config()
    field = check_field(u, fade.t, fade.x)
    scales = Scales.of(field)
    unit = scales.dimensionless(field)
    source = weak_library(
        unit.u, unit.t, unit.x, operator=cfg.operator, power_mode="positive", period=unit.period
    )
    ref, _ = scales.result(discover(source, cfg))
    assert model.result_.final == ref.final
    assert model.fit_error_ == ref.fit_error
    assert "non_periodic" not in [w.code for w in model.warnings_]


def test_periodic_operators_on_a_window_warn(burgers: Any, capsys: Any) -> None:
    field, _ = burgers
    model = WeakPareto(domain="periodic", powers=(0, 1), **FAST).fit(field.u, field.t, field.x)
    codes = [w.code for w in model.warnings_]
    assert "non_periodic" in codes
    assert any("domain=bounded" in w.message for w in model.warnings_)
    model.print()
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "domain periodic (domain=periodic given)"
    assert "warning: [non_periodic] periodic operators on data whose x edges" in out
    again = WeakPareto.from_json(model.to_json())
    assert again.grid_["domain"] == "periodic" and again.get_params()["domain"] == "periodic"


def _check(model: WeakPareto, truth: dict[str, Any], coef_tol: float, order_tol: float) -> None:
    found = sorted(zip(model.powers_.tolist(), model.orders_.tolist(), model.coef_.tolist()))
    want = sorted(truth["terms"])
    assert len(found) == len(want), model.equation_.text()
    for (p, b, c), (pw, bw, cw) in zip(found, want):
        assert p == pw and abs(b - bw) <= order_tol, model.equation_.text()
        assert abs(c - cw) <= coef_tol * abs(cw), model.equation_.text()
    assert model.alpha_ == pytest.approx(truth["alpha"], abs=order_tol)


def test_burgers_window_recovered_with_auto(burgers: Any) -> None:
    field, truth = burgers
    u = add_noise(field.u, "multiplicative", 0.01, 0)
    # a cheaper setting than the plain one (slow tests and scripts/bounded_domain.py run that)
    model = WeakPareto(
        alpha_range=(0.85, 1.15), beta_range=(0.5, 2.5), powers=(0, 1), max_terms=2, maxiter=12
    )
    model.fit(u, field.t, field.x)
    assert model.grid_["domain"] == "bounded"
    _check(model, truth, 0.02, 1e-12)  # integer orders exactly


@pytest.mark.slow
@pytest.mark.parametrize("noise", [0.0, 0.01, 0.05])
@pytest.mark.parametrize("case", ["burgers", "kdv"])
def test_windows_recovered_at_noise(case: str, noise: float) -> None:
    if case == "burgers":
        (field, truth), kw = burgers_window(), dict(alpha_range=(0.85, 1.15), beta_range=(0.5, 2.5))
    else:
        (field, truth), kw = (
            kdv_window(),
            dict(alpha_range=(0.9, 1.1), beta_range=(0.5, 4.5), powers=(0, 1)),
        )
    u = add_noise(field.u, "multiplicative", noise, 1) if noise else field.u
    model = WeakPareto(**kw).fit(u, field.t, field.x)
    assert model.grid_["domain"] == "bounded"
    _check(model, truth, 0.02, 1e-12)


@pytest.mark.slow
def test_fractional_dirichlet_ade_recovered() -> None:
    field, truth = fractional_ade_dirichlet()
    u = add_noise(field.u, "multiplicative", 0.01, 0)
    model = WeakPareto(
        domain="bounded", alpha_range=(0.8, 1.2), beta_range=(0.5, 2.0), powers=(0, 1)
    ).fit(u, field.t, field.x)
    _check(model, truth, 0.10, 0.05)


def test_wp_discover_domain_option(burgers: Any, tmp_path: Any, capsys: Any) -> None:
    field, _ = burgers
    data = tmp_path / "w.npz"
    np.savez(data, u=field.u, t=field.t, x=field.x)
    out = tmp_path / "r.json"
    args = ["powers=[0,1]", "popsize=4", "maxiter=6", "max_terms=2", "alpha_range=[0.85,1.15]"]
    main(["discover", f"data={data}", *args, f"out={out}"])
    printed = capsys.readouterr().out
    assert "domain bounded (auto, edges not periodic: wrap-around jump" in printed
    result = json.loads(out.read_text())
    assert result["grid"]["domain"] == "bounded"
    assert result["params"]["domain"] == "auto"
    with pytest.raises(SystemExit) as err:
        main(["discover", f"data={data}", "domain=torus", f"out={out}"])
    assert err.value.code == 2
    err_text = capsys.readouterr().err
    assert "domain='torus' is unknown; use one of auto, periodic, bounded" in err_text
