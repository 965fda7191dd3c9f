"""``wp run -m ... hydra/launcher=slurm|local``: plan the chunks, let Hydra launch them, report.

The submitting side (:func:`run_chunked`) plans the sweep (:func:`weakpareto.campaign.chunks.
plan_sweep`), hands Hydra one job per chunk through the chosen launcher and, when the launcher
returns (it blocks until every job has ended), compacts the dataset (:mod:`weakpareto.campaign.
compact`) and prints the sweep's status. The jobs go on if ``wp run`` itself is stopped;
``wp status`` tells what landed. The job side is :func:`_chunk_task`, the Hydra task every
chunk job runs.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from typing import Any

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig

from weakpareto.campaign.chunks import (
    LOCAL_LAUNCHERS,
    blas_threads,
    hydra_argv,
    launcher_choice,
    plan_sweep,
    run_chunk,
    split_chunk_size,
    write_plan,
)
from weakpareto.campaign.compact import compact
from weakpareto.campaign.status import report, sweep_status
from weakpareto.errors import UserInputError

PLUGIN = "hydra_plugins.hydra_submitit_launcher"


def require_plugin(choice: str | None) -> None:
    """A one-line error (before anything is planned) when the cluster extra is missing."""
    try:
        found = importlib.util.find_spec(PLUGIN) is not None
    except ModuleNotFoundError:
        found = False
    if not found:
        raise UserInputError(
            f"hydra/launcher={choice} needs the cluster extra; install it with "
            "pip install 'weakpareto[cluster]' (or pip install -e '.[cluster]')"
        )


@hydra.main(version_base="1.3", config_path="pkg://weakpareto.conf", config_name="config")
def _chunk_task(cfg: DictConfig) -> dict[str, Any]:
    """One chunk job: the pairs of chunk ``wp_chunk`` of the plan ``wp_plan``."""
    launcher = HydraConfig.get().launcher if HydraConfig.initialized() else None
    outcomes = run_chunk(str(cfg.wp_plan), int(cfg.wp_chunk), blas_threads(launcher))
    states = [o.state if o.state != "computed" else o.row.get("status", "") for o in outcomes]
    return {s: states.count(s) for s in sorted(set(states))}


def run_chunked(overrides: Sequence[str]) -> None:
    """``wp run -m <overrides>`` with a chunked launcher (module docstring)."""
    size, rest = split_chunk_size(overrides)
    require_plugin(launcher_choice(rest))
    local = launcher_choice(rest) in LOCAL_LAUNCHERS
    plan, done = plan_sweep(rest, size, max_chunks=(os.cpu_count() or 1) if local else None)
    if not plan.pairs:
        print(f"wp run: nothing to compute: all {done} seeds of the sweep are done")
        return
    path = write_plan(plan, str(plan.configs[0]["results_dir"]))
    print(
        f"wp run: {len(plan.pairs)} seeds in {plan.n_chunks} job(s) of <= {plan.chunk_size} "
        f"({done} already done); plan {path}",
        flush=True,
    )
    # submitit 1.5 imports pkg_resources, which warns on every import: not the user's concern
    warnings.filterwarnings("ignore", message="pkg_resources is deprecated", category=UserWarning)
    argv0 = sys.argv[0]
    sys.argv = [argv0, *hydra_argv(path, plan, rest)]
    _chunk_task()
    for results_dir in sorted({str(c["results_dir"]) for c in plan.configs}):
        # one file per partition: reading 10 000 runs then takes < 1 s instead of minutes
        print(f"wp compact: {compact(results_dir).describe()} in {results_dir}", flush=True)
    print(report(sweep_status(rest, multirun=True)))
