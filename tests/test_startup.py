"""Start-up guards without timing anything: what each command imports and how often Hydra composes.

A fresh interpreter runs one ``wp`` command and reports ``sys.modules`` (and a count of Hydra
compositions): each command loads what it uses and nothing it does not — no ``scipy.stats`` for a
benchmark that draws no Lévy flight, no matplotlib/pandas/report modules for a ``wp discover``
without ``plot=``/``report=``, no optimiser for ``wp status``/``generate``, no sweep/cluster
modules for a plain ``wp run`` — and ``wp run`` without ``-m`` composes its config once (the
schema's reference config comes from the start-up cache), not again in Hydra.
The timings themselves are in results/bench/startup.md (docs/performance.md#start-up).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from weakpareto.campaign.cache import CACHE_ENV

#: Third-party modules no start-up below needs (scipy.stats: only the Lévy-flight benchmark).
NEVER = ("scipy.stats", "matplotlib", "torch")
#: Modules of the sweep/cluster machinery and the reports, which one plain command never uses.
NOT_FOR_ONE_COMMAND = (
    "weakpareto.campaign.chunks",
    "weakpareto.campaign.launch",
    "weakpareto.reporting.figures",
    "weakpareto.reporting.pareto_figure",
    "weakpareto.user.fit_page",
)
TINY = ["search.popsize=1", "search.maxiter=1", "search.c_max=2", "search.test_budget=smoke"]

PROBE = """
import json, sys
composed = []
code = 0
{count}
{body}
print(json.dumps({{"modules": sorted(sys.modules), "composed": len(composed), "code": code}}))
"""
#: Counts Hydra's compositions (the compose API and ``hydra.main`` both go through it).
COUNT = """
from hydra._internal.hydra import Hydra
_compose = Hydra.compose_config
def counting(self, *a, **k):
    composed.append(1)
    return _compose(self, *a, **k)
Hydra.compose_config = counting
"""


def probe(body: str, cwd: Path, count: bool = False, cache: str = "off") -> dict:
    """``sys.modules`` (and with ``count`` the number of Hydra compositions) after ``body`` ran
    in a fresh interpreter (``body`` may set ``code``); ``cache``: its start-up cache directory
    (:mod:`weakpareto.campaign.cache`; ``off`` by default)."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(body=body, count=COUNT if count else "")],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, CACHE_ENV: cache},
        timeout=300,
        check=True,
    )
    return json.loads(out.stdout.rstrip("\n").split("\n")[-1])


def run_wp(argv: list[str], cwd: Path, cache: str = "off") -> dict:
    body = (
        "from weakpareto.cli import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit as exc:\n"
        "    code = exc.code or 0\n"
    )
    return probe(body, cwd, count=True, cache=cache)


def loaded(report: dict, names: tuple[str, ...]) -> list[str]:
    mods = set(report["modules"])
    return [n for n in names if n in mods]


def test_import_cli_and_help_paths_load_no_third_party_module(tmp_path):
    for argv in (None, ["--help"], ["status", "--help"], ["kelvin", "--help"]):
        body = "import weakpareto.cli as c" + ("" if argv is None else f"\nc.main({argv!r})")
        mods = probe(body, tmp_path)["modules"]
        third = {m.split(".")[0] for m in mods} & {"numpy", "scipy", "pandas", "pyarrow", "hydra"}
        assert not third, (argv, third)


def test_discover_without_plot_or_report_imports_no_report_machinery(tmp_path):
    """The fit needs numpy/scipy; the page, the figure and the campaign store are imported only
    for ``report=`` / ``plot=``."""
    report = probe("import weakpareto.user.discover_command", tmp_path)
    heavy = ("pandas", "pyarrow", "hydra", *NEVER, "scipy.io")
    assert loaded(report, heavy) == []
    assert loaded(report, NOT_FOR_ONE_COMMAND) == []
    assert not [
        m
        for m in report["modules"]
        if m.startswith(("weakpareto.campaign.", "weakpareto.reporting.figures"))
    ]


def test_one_seed_run_composes_its_config_once_without_hydra_main(tmp_path):
    """One composition: the job's config (the schema's reference config, composed from the group
    choices alone, comes from the cache; without it that is a second one), none once the job's
    config is in the cache too, and then Hydra is not even imported. Hydra's run mode would
    compose the job's config twice more."""
    argv = ["run", "benchmark=fade", "noise=0.1", "seeds=1", f"results_dir={tmp_path / 'runs'}"]
    cache = str(tmp_path / "cache")
    one_seed_run = run_wp([*argv, "progress=false", *TINY], tmp_path, cache)  # fills the cache
    assert one_seed_run["code"] == 0 and one_seed_run["composed"] == 2
    again = [*argv, "progress=false", "overwrite=true", *TINY]
    one_seed_run = run_wp(again, tmp_path, cache)
    assert one_seed_run["code"] == 0
    assert one_seed_run["composed"] == 1
    assert loaded(one_seed_run, NEVER) == []
    assert loaded(one_seed_run, (*NOT_FOR_ONE_COMMAND, "weakpareto.campaign.status")) == []
    assert run_wp(again, tmp_path, cache)["composed"] == 0
    body = f"from weakpareto.cli import main\nmain({again!r})"
    warm = probe(body, tmp_path, cache=cache)  # no counting hook: it imports Hydra itself
    assert loaded(warm, ("hydra",)) == []
    cached = run_wp([*argv, "progress=false", *TINY], tmp_path, cache)  # the seed is done
    assert cached["code"] == 0 and loaded(cached, ("pandas", "pyarrow.dataset")) == []


def test_status_and_generate_import_no_optimiser_sweep_or_stats_modules(tmp_path):
    """Neither fits: the optimisers (scipy.optimize, imported where they run) stay unloaded."""
    (tmp_path / "runs").mkdir()
    runs = f"results_dir={tmp_path / 'runs'}"
    status = run_wp(["status", "benchmark=fade", "seeds=2", runs], tmp_path)
    assert status["code"] == 0 and status["composed"] == 2  # no cache: job and reference
    assert loaded(status, NEVER) == [] and loaded(status, NOT_FOR_ONE_COMMAND) == []
    assert loaded(status, ("scipy.optimize",)) == []
    gen = run_wp(["generate", "benchmark=fade", f"out={tmp_path / 'f.npz'}"], tmp_path)
    assert gen["code"] == 0 and gen["composed"] == 2
    assert loaded(gen, NEVER) == [] and loaded(gen, NOT_FOR_ONE_COMMAND) == []
    assert loaded(gen, ("pandas", "pyarrow", "scipy.optimize")) == []  # writes .npz, fits nothing


SAME_CONFIG = """
import json, sys
import hydra
from omegaconf import OmegaConf
from weakpareto.campaign.compose import compose_checked
from weakpareto.campaign.config import config_hash
got = {}
@hydra.main(version_base="1.3", config_path="pkg://weakpareto.conf", config_name="config")
def task(cfg):
    got["cfg"] = cfg
same = []
for overrides in json.loads(sys.argv[1]):
    ours = compose_checked(overrides)
    sys.argv = ["wp", *overrides]
    task()
    theirs = got.pop("cfg")
    a, b = (OmegaConf.to_container(c, resolve=True) for c in (ours, theirs))
    same.append(repr(a) == repr(b) and config_hash(ours) == config_hash(theirs))
print(json.dumps(same))
"""


def test_the_config_run_without_hydra_main_is_the_one_hydra_would_pass(tmp_path):
    """``wp run`` without ``-m`` runs the config it composed and checked; it is the config
    Hydra's run mode would hand the job (same values and types, same config hash)."""
    cases = [
        ["benchmark=fade", "noise=0.1"],
        ["benchmark=burgers", "method=weak_pareto_robust", "selection=gain", "seeds=2"],
        ["benchmark=twod_a", "uncertainty=bootstrap", "n_boot=20"],
        ["benchmark=fade", "domain=bounded", "benchmark.library.alpha_range=[0.6,1.05]"],
        ["+experiment=main", "benchmark=rd_space", "noise=0.05"],
    ]
    out = subprocess.run(
        [sys.executable, "-c", SAME_CONFIG, json.dumps(cases)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        check=True,
    )
    assert json.loads(out.stdout.strip().split("\n")[-1]) == [True] * len(cases)


def test_translating_setting_names_loads_no_library(tmp_path):
    """``wp run``/``wp status`` translate ``wp discover``'s setting names before composing: the
    table of names is plain strings, so the translation loads neither numpy nor the method."""
    report = probe(
        "from weakpareto.campaign.door_names import with_run_keys\n"
        "assert with_run_keys(['max_terms=2']) == ['search.c_max=2']",
        tmp_path,
    )
    assert [m for m in report["modules"] if m.split(".")[0] in ("numpy", "omegaconf")] == []
    assert [m for m in report["modules"] if m.startswith("weakpareto.library")] == []
