"""One spec for both doors: wp run's composed config and WeakPareto's parameters translate to the
same FitSpec, a method is complete with its selector, and the divergences of two translators are
gone."""

from __future__ import annotations

import dataclasses

import pytest

from weakpareto import WeakPareto
from weakpareto.campaign.compose import compose_config
from weakpareto.campaign.compute import fit_spec
from weakpareto.campaign.config import config_hash
from weakpareto.fit.spec import PARAMETERS, groups_of_params, spec_from_groups

SEARCH = {"popsize": 5, "maxiter": 9, "updating": "immediate", "ridge": 2e-3, "margin": 0.2}


def _wp_run_overrides(method: str, bench: str = "fade") -> list[str]:
    return [
        f"benchmark={bench}",
        f"method={method}",
        "search.popsize=5",
        "search.maxiter=9",
        "search.updating=immediate",
        "search.vectorized=false",
        "search.ridge=0.002",
        "selection.margin=0.2",
    ]


@pytest.mark.parametrize("method", ["weak_pareto", "weak_pareto_robust", "weak_pareto_exact"])
def test_both_doors_build_the_same_spec(method):
    cfg = compose_config(_wp_run_overrides(method))
    lib = cfg.benchmark.library
    model = WeakPareto(
        method=method,
        operator=str(lib.operator),
        alpha_range=tuple(lib.alpha_range),
        beta_range=tuple(lib.beta_range),
        powers=tuple(lib.powers),
        power_mode=str(lib.power_mode),
        seed=3,
        domain="periodic",
        **SEARCH,
    )
    run, user = fit_spec(cfg, 3), model.fit_spec()
    assert run.discovery == user.discovery
    assert run.feature_settings == user.feature_settings
    assert (run.method, run.kind, run.features) == (user.method, user.kind, user.features)
    assert dict(run.options) == dict(user.options)


def test_every_parameter_names_a_key_of_the_composed_config():
    cfg = compose_config([])
    groups = {"library": cfg.benchmark.library, "search": cfg.search}
    groups |= {"selection": cfg.selection, "method": cfg.method}
    for name, key in PARAMETERS.items():
        group, leaf = key.split(".")
        assert leaf in groups[group], (name, key)


def test_a_method_alone_is_the_experiment_that_reports_it():
    """tab_beyond's rd_space rows: `method=weak_pareto_exact` composes the experiment's config."""
    alone = compose_config(["method=weak_pareto_exact", "benchmark=rd_space", "noise=0.02"])
    table = compose_config(["+experiment=beyond_rd", "benchmark=rd_space", "noise=0.02"])
    assert alone.selection == table.selection and alone.method == table.method
    plain = dataclasses.replace(fit_spec(table, 0), options={})
    assert dataclasses.replace(fit_spec(alone, 0), options={}) == plain
    assert config_hash(alone) == config_hash(table)  # the same stored runs


def test_an_order_floor_the_range_cannot_hold_is_dropped_with_a_note_at_both_doors():
    """min_positive_order 0.5 of weak_pareto_exact above beta_range=[0, 0.4]: the paper's uniform
    grid, said in a note (before: silent in WeakPareto, a bare ValueError in wp run)."""
    cfg = compose_config(
        ["benchmark=rd_space", "method=weak_pareto_exact", "benchmark.library.beta_range=[0,0.4]"]
    )
    run = fit_spec(cfg, 0)
    user = WeakPareto(method="weak_pareto_exact", beta_range=(0.0, 0.4)).fit_spec()
    for spec in (run, user):
        assert spec.discovery.min_positive_order is None
        (note,) = spec.notes
        assert "min_positive_order 0.5" in note and "uniform order grid" in note
    wide = WeakPareto(method="weak_pareto_exact", beta_range=(0.0, 2.0)).fit_spec()
    assert wide.discovery.min_positive_order == 0.5 and wide.notes == ()
    above = WeakPareto(method="weak_pareto_exact", beta_range=(0.3, 2.0)).fit_spec()
    assert above.discovery.min_positive_order is None and above.notes == ()  # no identity


def test_user_parameters_are_written_into_the_methods_conf_groups():
    groups = groups_of_params(
        {"method": "weak_pareto", "selection": "aic", "max_terms": 3, "updating": "immediate"}
    )
    assert groups["selection"]["rule"] == "aic" and groups["search"]["c_max"] == 3
    assert groups["search"]["vectorized"] is False
    groups["library"] = {"alpha_range": [0.5, 1], "beta_range": [0.5, 2], "powers": [0],
                         "operator": "riesz"}  # fmt: skip
    spec = spec_from_groups(groups, 7)
    assert spec.seed == 7 and spec.discovery.c_max == 3 and spec.kind == "pareto"
