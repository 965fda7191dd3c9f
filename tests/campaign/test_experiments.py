"""Paper-exact reproduction by default: every paper-table experiment runs the paper's optimiser
semantics and seeds; the fast deferred mode is the conf default and experiment=main_deferred."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from omegaconf import OmegaConf

from weakpareto.campaign.compose import compose_checked, sweep_jobs
from weakpareto.campaign.config import available_options, config_dir

REPO = Path(__file__).resolve().parents[2]
FAST_MODE = "main_deferred"
#: ours, beyond the paper: the new method in the fast mode, not a reproduction
#: (make reproduce-beyond)
BEYOND = [e for e in available_options("experiment") if e.startswith("beyond")]
#: ours, beyond the paper: the interval calibration study (make reproduce-uncertainty)
UNCERTAINTY = "uncertainty"
PAPER_TABLES = [
    e
    for e in available_options("experiment")
    if e != FAST_MODE and e not in BEYOND and e != UNCERTAINTY
]


def _first_job(name: str):
    return compose_checked(sweep_jobs([f"+experiment={name}"], multirun=True)[0])


@pytest.mark.parametrize("name", PAPER_TABLES)
def test_paper_tables_use_immediate_updating_and_seeds_0_to_4(name):
    raw = OmegaConf.create((config_dir() / "experiment" / f"{name}.yaml").read_text())
    assert raw.search.updating == "immediate" and raw.search.vectorized is False  # explicit
    cfg = _first_job(name)
    assert cfg.search.updating == "immediate" and cfg.search.vectorized is False
    assert (cfg.seed, cfg.seeds) == (0, 5)
    assert cfg.variant != "deferred"


def test_fast_mode_is_the_default_and_main_deferred_compares_it():
    default = compose_checked([])
    assert default.search.updating == "deferred" and default.search.vectorized is True
    fast, paper = _first_job(FAST_MODE), _first_job("main")
    assert fast.search.updating == "deferred" and fast.search.vectorized is True
    assert fast.variant == "deferred" and paper.variant == "default"  # rows never mix

    def cells(name: str) -> list[list[str]]:
        return [[o for o in job if "experiment" not in o] for job in sweep_jobs([name], True)]

    assert cells(f"+experiment={FAST_MODE}") == cells("+experiment=main")  # tab:main's cells
    for key in ("seed", "seeds", "search.popsize", "search.maxiter"):
        assert OmegaConf.select(fast, key) == OmegaConf.select(paper, key)


def test_makefile_reproduces_every_experiment():
    text = (REPO / "Makefile").read_text()
    listed = re.search(r"^EXPERIMENTS = (.*?)(?<!\\)\n", text, re.M | re.S)
    assert listed is not None
    names = set(listed.group(1).replace("\\\n", " ").split())
    appendix = set(re.findall(r"\+experiment=(appendix\w*)", text))
    loop = re.search(r"for e in (beyond[\w \\\n\t]*); do", text)
    assert loop is not None
    beyond = set(loop.group(1).replace("\\", " ").split())
    own = set(re.findall(r"\+experiment=(uncertainty)\b", text))
    assert names | appendix | beyond | own == set(available_options("experiment"))
    assert FAST_MODE in names and "main_immediate" not in names


@pytest.mark.parametrize("name", BEYOND)
def test_beyond_runs_the_new_method_on_the_paper_seeds(name):
    cfg = _first_job(name)
    assert (cfg.seed, cfg.seeds) == (0, 5) and cfg.experiment.startswith("beyond")
    if name == "beyond_own_paper":  # the paper's method with its own selector
        assert (cfg.method.name, cfg.selection.rule) == ("weak_pareto", "elbow")
    elif name in ("beyond_independent", "beyond_independent_superunit"):
        # the paper's method on independently made twins, with the paper tables' optimiser
        assert (cfg.method.name, cfg.selection.rule) == ("weak_pareto", "elbow")
        assert (cfg.search.updating, cfg.search.vectorized) == ("immediate", False)
    else:
        assert (cfg.method.name, cfg.selection.rule) == ("weak_pareto_exact", "gain")


def test_uncertainty_study_runs_the_paper_method_fast_with_intervals():
    cfg = _first_job(UNCERTAINTY)
    assert (cfg.seed, cfg.seeds) == (0, 20) and cfg.experiment == UNCERTAINTY
    assert (cfg.method.name, cfg.search.updating) == ("weak_pareto", "deferred")
    assert (cfg.uncertainty, cfg.level) == ("bootstrap", 0.9) and cfg.n_boot >= 100
    jobs = sweep_jobs([f"+experiment={UNCERTAINTY}"], multirun=True)
    assert len(jobs) == 9  # FADE, Burgers, RD space x 1/5/10 % noise
