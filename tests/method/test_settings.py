"""One set of defaults: Python settings, ``wp run`` and ``wp discover`` read the same ``conf/``."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from weakpareto import WeakPareto
from weakpareto.benchmarks.generators import generate
from weakpareto.campaign.compose import compose_config
from weakpareto.campaign.config import discovery_config
from weakpareto.library.weak import weak_library
from weakpareto.method.discovery import discover
from weakpareto.method.settings import (
    DiscoveryConfig,
    RefineSettings,
    SearchSettings,
    SelectionSettings,
    named_settings,
)

CONF = resources.files("weakpareto.conf")


def _yaml(group: str, name: str) -> dict:
    return yaml.safe_load((CONF / group / f"{name}.yaml").read_text())


def _literal_defaults(group: str, name: str) -> dict:
    """The YAML's plain (non-interpolated) values, read without OmegaConf."""
    return {k: v for k, v in _yaml(group, name).items() if not str(v).startswith("${")}


def test_dataclass_defaults_are_the_yaml_values():
    search = _literal_defaults("search", "paper")
    for f in dataclasses.fields(SearchSettings):
        if f.name in search:
            assert getattr(SearchSettings(), f.name) == search[f.name], f.name
    sel = _literal_defaults("selection", "elbow")
    for f in dataclasses.fields(SelectionSettings):
        if f.name in sel:
            assert getattr(SelectionSettings(), f.name) == sel[f.name], f.name
    method = _yaml("method", "weak_pareto")["method"]  # a global package: nested under method
    refine = RefineSettings()
    assert (refine.polish, refine.refit) == (method["polish"], method["refit"])
    assert (refine.maxiter, refine.xatol, refine.fatol, refine.trust_min) == (
        method["polish_maxiter"],
        method["polish_xatol"],
        method["polish_fatol"],
        method["trust_min"],
    )
    # interpolated values fall back to the literal default written in the YAML
    assert SearchSettings().ridge == 1e-3 and SearchSettings().popsize == 7
    assert SelectionSettings().rule == "elbow" and DiscoveryConfig((0.5, 1), (0.5, 2)).c_max == 4


def test_wp_run_default_settings_equal_python_defaults():
    """The composed default config (benchmark fade, no tuning) gives exactly Python's defaults."""
    cfg = compose_config([])
    lib = cfg.benchmark.library
    python = DiscoveryConfig(
        alpha_range=tuple(lib.alpha_range),
        beta_range=tuple(lib.beta_range),
        powers=tuple(lib.powers),
        operator=str(lib.operator),
    )
    assert discovery_config(cfg, 0) == python


def test_estimator_defaults_are_the_settings_defaults():
    """WeakPareto's default method is weak_pareto_exact, read from conf/; method="weak_pareto" is
    exactly the paper's defaults (= Python discover() = wp run)."""
    cfg = WeakPareto().discovery_config()
    search, selection, refine = named_settings("weak_pareto_exact", "gain")
    assert (cfg.search, cfg.selection, cfg.refine) == (search, selection, refine)
    paper = WeakPareto(method="weak_pareto").discovery_config()
    assert paper.search == SearchSettings()
    assert paper.selection == SelectionSettings()
    assert paper.refine == RefineSettings()
    assert cfg.c_max == paper.c_max == DiscoveryConfig((0.5, 1), (0.5, 2)).c_max


def test_python_discover_and_wp_run_give_the_identical_equation(tmp_path):
    wp = str(Path(sys.executable).parent / "wp")  # the installed CLI beside this interpreter
    out = tmp_path / "runs"
    proc = subprocess.run(
        [wp, "run", "seeds=1", f"results_dir={out}", "progress=false"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    (run_file,) = [p for p in out.rglob("*.parquet") if not p.name.endswith(".front.parquet")]
    row = pd.read_parquet(run_file)
    row = row.iloc[0]

    cfg = compose_config([])
    lib = cfg.benchmark.library
    field = generate("fade", 0)
    source = weak_library(
        field.u, field.t, field.x, operator=str(lib.operator), power_mode=str(lib.power_mode)
    )
    result = discover(
        source,
        DiscoveryConfig(
            alpha_range=tuple(lib.alpha_range),
            beta_range=tuple(lib.beta_range),
            powers=tuple(lib.powers),
            operator=str(lib.operator),
        ),
    )
    assert result.final.text() == row["equation"]
    terms = result.final.terms
    np.testing.assert_array_equal([t.coef for t in terms], row["coefs"])
    np.testing.assert_array_equal([t.order for t in terms], row["orders"])
    assert result.final.alpha == row["alpha"]


@pytest.mark.parametrize(
    ("method", "selection"),
    [("weak_pareto", "elbow"), ("weak_pareto", "aic"), ("weak_pareto_robust", "gain")],
)
def test_named_settings_equal_hydra_composition(method, selection):
    """The settings module reads conf/ options (with their defaults lists) as Hydra does."""
    cfg = compose_config([f"method={method}", f"selection={selection}"])
    search, sel, refine = named_settings(method, selection)
    composed = discovery_config(cfg, 0)
    assert composed.search == search
    assert composed.selection == sel
    assert composed.refine == refine


def test_robust_method_changes_only_what_it_names():
    _, sel_paper, ref_paper = named_settings()
    _, sel, ref = named_settings("weak_pareto_robust", "gain")
    assert (sel.rule, sel.explain_floor, sel.refine_front) == ("gain", 0.5, True)
    assert (sel_paper.rule, sel_paper.explain_floor, sel_paper.refine_front) == (
        "elbow",
        None,
        False,
    )
    assert ref.ridge == 0.0 and ref_paper.ridge is None  # None: the search's ridge (Eq. 22)
    assert (ref.twins, ref_paper.twins) == ("merge", "keep")
    assert dataclasses.replace(sel, rule="elbow", explain_floor=None, refine_front=False) == (
        sel_paper
    )
    assert dataclasses.replace(ref, ridge=None, twins="keep") == ref_paper


@pytest.mark.parametrize(
    ("method", "selector"),
    [("weak_pareto", "elbow"), ("weak_pareto_robust", "gain"), ("weak_pareto_exact", "gain")],
)
def test_a_method_is_complete_with_its_selector_at_both_doors(method, selector):
    """``method=<name>`` alone composes the method's own selector in wp run, and the same
    settings in WeakPareto; ``selection=`` given explicitly still wins."""
    from weakpareto.method.settings import method_selector, method_settings

    assert method_selector(method) == selector
    composed = discovery_config(compose_config([f"method={method}"]), 0)
    search, sel, refine = method_settings(method)
    assert (composed.search, composed.selection, composed.refine) == (search, sel, refine)
    python = WeakPareto(method=method).discovery_config()
    assert (python.selection, python.refine) == (sel, refine)
    assert compose_config([f"method={method}", "selection=aic"]).selection.rule == "aic"
    assert (
        WeakPareto(method=method, selection="aic").discovery_config().selection
        == (named_settings(method, "aic")[1])
    )
