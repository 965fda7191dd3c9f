"""The one fit path: domains and method kinds at both doors, refusals in one line, and the
bootstrap reselecting with the floor the fit selected with."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto import WeakPareto
from weakpareto.campaign.compose import compose_config
from weakpareto.campaign.compute import discover_seed, fit_outcome, fit_spec
from weakpareto.errors import UserInputError
from weakpareto.evaluation.metrics import score, truth_equation
from weakpareto.fit import run as fit_run
from weakpareto.fit.kinds import METHOD_KINDS
from weakpareto.fit.sources import FEATURE_SOURCES

FAST = ["search.popsize=4", "search.maxiter=6", "search.test_budget=smoke"]


def test_registries_name_every_method_config():
    from weakpareto.method.settings import conf_defaults, method_names

    for name in method_names():
        method = conf_defaults(method=name)["method"]
        assert method["kind"] in METHOD_KINDS, name
        assert method.get("features", "weak") in ("weak", "pointwise"), name
    assert set(FEATURE_SOURCES) == {"periodic_l1", "periodic_exact", "bounded", "two_d",
                                    "pointwise"}  # fmt: skip


def test_wp_run_fits_a_bounded_window():
    """Integer Burgers u_t = -u u_x + 0.3 u_xx cut to x in [6, 24]: exact recovery on the bounded
    domain (its default), and by domain=auto; periodic operators on the window fail."""
    over = ["benchmark=burgers_window", "noise=0.01", "search.popsize=5", "search.maxiter=10"]
    for domain in ("bounded", "auto"):
        cfg = compose_config([*over, f"domain={domain}"])
        out = fit_outcome(cfg, 0)
        assert out.domain.domain == "bounded" and out.source_name == "bounded"
        m = score(out.result.final, truth_equation(cfg.benchmark))
        assert m.support_ok and m.operator_ok, out.result.final.text()
        coefs = sorted(abs(t.coef) for t in out.result.final.terms)
        np.testing.assert_allclose(coefs, [0.3, 1.0], rtol=0.02)
    wrapped = discover_seed(compose_config([*over, "domain=periodic"]), 0)
    assert not score(wrapped.final, truth_equation(compose_config(over).benchmark)).support_ok


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (["benchmark=twod_a", "method=weak_grid_stridge"], "has no 2-D implementation"),
        (["benchmark=burgers_window", "method=weak_grid_stridge"], "is periodic only"),
        (["benchmark=burgers_window", "method=strong_pareto"], "1-D periodic only"),
        (["method=weak_grid_stridge", "uncertainty=bootstrap"], "resamples the weak equations"),
    ],
)
def test_what_a_method_cannot_fit_is_refused_in_one_line(overrides, message):
    from weakpareto.campaign.config import validate_run

    with pytest.raises(UserInputError, match=message) as err:
        validate_run(compose_config(overrides))
    assert "\n" not in str(err.value)


def test_the_user_door_runs_grid_stridge_and_refuses_fixed_grid_methods():
    from weakpareto.benchmarks.generators import generate

    f = generate("fade", 0)
    model = WeakPareto(method="weak_grid_stridge", alpha_range=(0.6, 1.05)).fit(f.u, f.t, f.x)
    ref = discover_seed(compose_config(["benchmark=fade", "method=weak_grid_stridge"]), 0)
    assert model.alpha_ == pytest.approx(ref.final.alpha, abs=1e-12)  # alpha is unit-free
    assert [w.code for w in model.warnings_][-2:] == ["no_diagnostics", "noise_level"]
    with pytest.raises(UserInputError, match="fixed points of the FADE benchmark"):
        WeakPareto(method="yu_spline").fit_spec()


def test_exact_method_on_2d_data_uses_the_l1_target_and_says_so():
    """The exact time target and noise-aware scoring are 1-D periodic: a 2-D fit with
    weak_pareto_exact runs the paper's L1 target without the noise model, with a note (before:
    an AttributeError traceback in wp run)."""
    cfg = compose_config(["benchmark=twod_a", "method=weak_pareto_exact", "noise=0.05", *FAST])
    out = fit_outcome(cfg, 0)
    assert out.source_name == "two_d" and out.spec.discovery.noise_model == "none"
    assert [n.code for n in out.notes] == ["method_components"]
    assert out.result.final.terms


def test_the_bootstrap_reselects_with_the_fits_raised_gain_floor(monkeypatch):
    """Under a noise model the selection's floor is raised to the noise share; the bootstrap's
    reselection must use the same floor, not the configured one."""
    sub_only = "benchmark.library.alpha_range=[0.6,0.99]"  # the floor of the sub-unit group
    cfg = compose_config(
        ["benchmark=fade", "method=weak_pareto_exact", "noise=0.1", sub_only, *FAST]
    )
    out = fit_outcome(cfg, 0)
    configured = fit_spec(cfg, 0).discovery.selection.gain_floor
    assert out.result.gain_floor is not None and out.result.gain_floor > configured
    seen = {}

    def capture(*args, **kwargs):
        seen.update(kwargs)
        raise ArithmeticError("stop")

    monkeypatch.setattr(fit_run, "bootstrap_equation", capture)
    with pytest.raises(ArithmeticError):
        fit_run.bootstrap_fit(out, 4, 0.9)
    assert seen["gain_floor"] == out.result.gain_floor
    paper = fit_outcome(compose_config(["benchmark=fade", "noise=0.1", sub_only, *FAST]), 0)
    assert paper.result.gain_floor is None  # no noise model: the configured floor


def test_the_fits_noise_level_ridge_reaches_its_refits_and_bootstrap(monkeypatch):
    """A noise model sets the search ridge from the noise share (method/noise_correction.py:
    noise_ridge); the outcome's spec carries that ridge, so the forcing, intrinsic and domain
    refits, the warnings' probes and the bootstrap use the ridge the fit used."""
    cfg = compose_config(["benchmark=fade", "method=weak_pareto_exact", "noise=0.01", *FAST])
    out = fit_outcome(cfg, 0)
    configured = fit_spec(cfg, 0).discovery.search.ridge
    ridge = out.result.search_ridge
    assert ridge is not None and ridge < configured
    assert out.spec.discovery.search.ridge == ridge
    seen = {}

    def capture(source, eq, front, cfg, *args, **kwargs):
        seen["ridge"] = cfg.search.ridge
        raise ArithmeticError("stop")

    monkeypatch.setattr(fit_run, "bootstrap_equation", capture)
    with pytest.raises(ArithmeticError):
        fit_run.bootstrap_fit(out, 4, 0.9)
    assert seen["ridge"] == ridge
    paper = fit_outcome(compose_config(["benchmark=fade", "noise=0.01", *FAST]), 0)
    assert paper.result.search_ridge is None  # no noise model: the configured ridge
    assert paper.spec.discovery.search.ridge == configured


def test_a_superunit_model_on_the_l1_target_warns_about_its_start_terms():
    """An exact diffusion-wave solution (D_t^1.35 u = 0.5 R^1.5 u): the L1 target
    (weak_pareto_robust) lands on the super-unit branch with a biased alpha and says why; the
    exact target's fit (the default) does not warn."""
    from weakpareto.benchmarks.generators import generate

    cfg = {
        "name": "wave",
        "generator": {"kind": "mittag_leffler",
                      "ic": {"harmonics": [{"fn": "sin", "m": 1, "amp": 1.0, "phase": 0.3},
                                           {"fn": "cos", "m": 2, "amp": 0.6}]}},
        "grid": {"nt": 151, "nx": 96, "T": 3.0, "L": 4 * np.pi, "t_endpoint": True},
        "truth": {"mode": "sup", "alpha": 1.35, "operator": "riesz",
                  "terms": [{"power": 0, "order": 1.5, "coef": 0.5}]},
    }  # fmt: skip
    f = generate(cfg, 0)
    kw = dict(operator="riesz", alpha_range=(0.2, 1.9), beta_range=(0.3, 3.0), powers=(0,))
    l1 = WeakPareto(method="weak_pareto_robust", refit="weak", **kw).fit(f.u, f.t, f.x)
    assert l1.mode_ == "sup" and abs(l1.alpha_ - 1.35) > 0.05
    (note,) = [w for w in l1.warnings_ if w.code == "superunit_start"]
    assert note.level == "warning" and "method=weak_pareto_exact" in note.message
    # refitted to the trajectory (the default), the L1 start terms no longer shape alpha
    refitted = WeakPareto(method="weak_pareto_robust", **kw).fit(f.u, f.t, f.x)
    assert abs(refitted.alpha_ - 1.35) < 1e-6
    assert not [w for w in refitted.warnings_ if w.code == "superunit_start"]
    exact = WeakPareto(**kw).fit(f.u, f.t, f.x)
    assert abs(exact.alpha_ - 1.35) <= 0.01
    assert not [w for w in exact.warnings_ if w.code == "superunit_start"]


def test_a_superunit_branch_in_range_does_not_lower_the_noise_floor():
    """The super-unit targets' noise share leaves out the samples behind u'(0): the floor comes
    from the unit group, so widening alpha_range past 1 keeps it (it fell to the 1e-8 default)."""
    over = ["benchmark=fade", "method=weak_pareto_exact", "noise=0.1", *FAST]
    sub = fit_outcome(compose_config([*over, "benchmark.library.alpha_range=[0.6,0.99]"]), 0)
    wide = fit_outcome(compose_config([*over, "benchmark.library.alpha_range=[0.6,1.05]"]), 0)
    assert sub.result.gain_floor is not None and wide.result.gain_floor is not None
    assert wide.result.gain_floor > 100 * 1e-8
    assert 0.5 < wide.result.gain_floor / sub.result.gain_floor < 2.0
