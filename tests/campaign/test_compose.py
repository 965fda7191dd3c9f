"""Hydra composition for `wp` (campaign.compose), and the campaign package's import layering."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import weakpareto.campaign
from weakpareto.campaign.compose import (
    compose_config,
    expand_sweep,
    sweep_jobs,
    user_overrides,
    validate_run_overrides,
)
from weakpareto.errors import UserInputError

CAMPAIGN = Path(weakpareto.campaign.__file__).parent
#: Layers above campaign (and the CLI) that no campaign module may import.
UPPER = ("weakpareto.diagnostics", "weakpareto.reporting", "weakpareto.user", "weakpareto.cli")


def test_compose_applies_overrides_and_resolves():
    cfg = compose_config(["benchmark=burgers", "noise=0.05", "search.maxiter=30"])
    assert cfg.benchmark.name == "burgers" and cfg.noise == 0.05 and cfg.search.maxiter == 30
    assert cfg.method.name == "weak_pareto" and cfg.seeds == 5  # defaults of config.yaml
    assert isinstance(cfg.search.c_max, int)  # interpolation resolved at compose time


@pytest.mark.parametrize(
    "overrides, needles",
    [
        (["benchmark=nope"], ["nope", "valid benchmark options", "fade", "burgers"]),
        (["method=magic"], ["valid method options", "weak_pareto_nopolish"]),
        (["nosuchkey=1"], ["unknown key nosuchkey", "valid top-level keys: benchmark"]),
        (["search.nosuch=1"], ["unknown key search.nosuch", "valid search keys: anchors"]),
        (["benchmark=burgers", "benchmark.grid.nz=1"], ["valid benchmark.grid keys: L, T"]),
        (["search.maxiter=${nope}"], ["nope"]),
    ],
)
def test_compose_errors_are_one_line_user_errors(overrides, needles):
    with pytest.raises(UserInputError) as exc:
        compose_config(overrides)
    msg = str(exc.value)
    assert "\n" not in msg
    for needle in needles:
        assert needle in msg


def test_expand_sweep_is_the_cartesian_product():
    combos = expand_sweep(["benchmark=fade,burgers", "noise=0,0.1", "seeds=1"])
    assert combos == [
        ["benchmark=fade", "noise=0", "seeds=1"],
        ["benchmark=fade", "noise=0.1", "seeds=1"],
        ["benchmark=burgers", "noise=0", "seeds=1"],
        ["benchmark=burgers", "noise=0.1", "seeds=1"],
    ]
    assert expand_sweep([]) == [[]]


def test_expand_sweep_parse_error_is_a_user_error():
    with pytest.raises(UserInputError, match="cannot parse .noise=\\[0,."):
        expand_sweep(["noise=[0,"])


def test_user_overrides_drop_hydra_settings():
    ovs = ["hydra/launcher=joblib", "hydra.launcher.n_jobs=2", "+experiment=main", "noise=0"]
    assert user_overrides(ovs) == ["+experiment=main", "noise=0"]


def test_validate_run_overrides_checks_every_sweep_point(tmp_path):
    res = f"results_dir={tmp_path / 'r'}"
    assert validate_run_overrides(["benchmark=fade,burgers", "noise=0,0.1", res], True) == 4
    assert validate_run_overrides(["benchmark=fade", "hydra/launcher=basic", res], False) == 1
    assert (tmp_path / "r").is_dir() and list((tmp_path / "r").iterdir()) == []  # probed
    with pytest.raises(UserInputError, match="noise"):
        validate_run_overrides(["noise=0,0.1,-1", res], True)
    with pytest.raises(UserInputError, match="2001 jobs"):
        validate_run_overrides(["seed=range(0,2001)", res], True)


def test_an_experiment_sweep_is_expanded_with_its_table_and_checked(tmp_path):
    """`-m +experiment=margin` runs the table's 4 benchmarks x 3 margins; a command-line value
    replaces the table's axis, and a bad one is caught before Hydra starts."""
    jobs = sweep_jobs(["+experiment=margin"], True)
    assert len(jobs) == 12
    assert jobs[0][:3] == ["benchmark=fade", "noise=0.1", "selection.margin=0.1"]
    jobs = sweep_jobs(["+experiment=margin", "selection.margin=0.3"], True)
    assert len(jobs) == 4 and all("selection.margin=0.3" in j for j in jobs)
    assert sweep_jobs(["+experiment=margin"], False) == [["+experiment=margin"]]
    with pytest.raises(UserInputError, match="selection.margin"):
        validate_run_overrides(
            ["+experiment=margin", "selection.margin=-1", f"results_dir={tmp_path}"], True
        )


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):  # module-level and function-level imports alike
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def test_campaign_imports_no_upper_layer():
    offenders = {
        p.name: sorted(m for m in _imported_modules(p) if m.startswith(UPPER))
        for p in sorted(CAMPAIGN.glob("*.py"))
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_bench_has_no_function_level_imports():
    tree = ast.parse((CAMPAIGN / "bench.py").read_text(encoding="utf-8"))
    nested = [
        node.lineno
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(fn)
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]
    assert nested == []
