"""Chunked sweeps for cluster launchers: many (config, seed) pairs per scheduler job.

``wp run -m <sweep> hydra/launcher=slurm`` (or ``submitit_slurm``, ``local``, ``submitit_local``)
does not give the scheduler one job per sweep point. The submitting process composes and checks
every point (as ``wp run`` always does), drops the seeds already done (:mod:`weakpareto.
campaign.status`: a rerun submits only failed and missing seeds), splits the remaining
(config, seed) pairs into chunks of ``chunk_size`` and writes this :class:`Plan` as JSON under
``<results_dir>/.plans/``. Hydra then launches one job per chunk (``+wp_chunk=0,...,n-1``)
through the chosen launcher, so every SLURM setting comes from the launcher config; each job
reads the plan (the fully resolved configs: nothing is composed on the compute node) and runs
its pairs one after the other with ``cpus_per_task`` BLAS threads, writing each seed to the
partitioned dataset (:mod:`weakpareto.campaign.dataset`) as it finishes. A seed's result does not
depend on the chunking or the launcher: the same config and seed give the same row.

Only plain data crosses to the jobs (the plan path and the chunk index); results directories are
made absolute first, since a job's working directory need not be where ``wp run`` was started.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf
from threadpoolctl import threadpool_limits

from weakpareto.campaign import dataset
from weakpareto.campaign.launch_options import CHUNKED_LAUNCHERS as CHUNKED_LAUNCHERS
from weakpareto.campaign.launch_options import DEFAULT_CHUNK_SIZE as DEFAULT_CHUNK_SIZE
from weakpareto.campaign.launch_options import LOCAL_LAUNCHERS as LOCAL_LAUNCHERS
from weakpareto.campaign.launch_options import is_chunked as is_chunked
from weakpareto.campaign.launch_options import launcher_choice as launcher_choice
from weakpareto.campaign.launch_options import split_chunk_size as split_chunk_size
from weakpareto.campaign.paths import writable_dir
from weakpareto.campaign.provenance import current
from weakpareto.campaign.runner import SeedOutcome, run_seed
from weakpareto.campaign.status import StoredIndex, composed_points, point_status
from weakpareto.io import write_json_atomic

PLANS_DIR = ".plans"
PLAN_VERSION = 1


@dataclass(frozen=True)
class Plan:
    """The pending (config, seed) pairs of a sweep, in chunks: what the jobs run."""

    configs: tuple[dict, ...]  # resolved configs of the sweep points with pending seeds
    pairs: tuple[tuple[int, int], ...]  # (index into configs, seed), in sweep order
    chunk_size: int
    code_hash: str = ""
    created_utc: str = ""

    @property
    def n_chunks(self) -> int:
        return math.ceil(len(self.pairs) / self.chunk_size) if self.pairs else 0

    def chunk(self, index: int) -> tuple[tuple[int, int], ...]:
        """The pairs of chunk ``index`` (consecutive pairs of the sweep)."""
        return self.pairs[index * self.chunk_size : (index + 1) * self.chunk_size]

    def as_json(self) -> dict[str, Any]:
        return {
            "version": PLAN_VERSION,
            "configs": list(self.configs),
            "pairs": [list(p) for p in self.pairs],
            "chunk_size": self.chunk_size,
            "code_hash": self.code_hash,
            "created_utc": self.created_utc,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Plan:
        return cls(
            tuple(d["configs"]),
            tuple((int(i), int(s)) for i, s in d["pairs"]),
            int(d["chunk_size"]),
            str(d.get("code_hash", "")),
            str(d.get("created_utc", "")),
        )


def _container(cfg: DictConfig) -> dict:
    data = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(data, dict)
    data.pop("hydra", None)
    data["results_dir"] = str(Path(str(data["results_dir"])).expanduser().resolve())
    data["progress"] = False
    return data


def plan_sweep(
    overrides: Sequence[str], chunk_size: int, max_chunks: int | None = None
) -> tuple[Plan, int]:
    """The plan of ``wp run -m overrides`` (every point composed and checked) and the number of
    seeds already done. ``max_chunks`` caps the chunk count (larger chunks instead)."""
    code = current()
    configs: list[dict] = []
    pairs: list[tuple[int, int]] = []
    indexes: dict[str, StoredIndex] = {}
    done = 0
    for label, cfg in composed_points(overrides, multirun=True):
        container = _container(cfg)
        rd = container["results_dir"]
        writable_dir(rd, "results_dir")
        if rd not in indexes:
            indexes[rd] = StoredIndex.load(rd)
        state = point_status(label, cfg, indexes[rd], code)
        seeds = state.pending if not cfg.overwrite else state.pending + state.done
        done += len(state.done) if not cfg.overwrite else 0
        if seeds:
            configs.append(container)
            pairs += [(len(configs) - 1, s) for s in sorted(seeds)]
    if max_chunks is not None and pairs:
        chunk_size = max(chunk_size, math.ceil(len(pairs) / max_chunks))
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    return Plan(tuple(configs), tuple(pairs), chunk_size, code.code_hash, stamp), done


def write_plan(plan: Plan, results_dir: str | os.PathLike) -> Path:
    """Write the plan as JSON under ``<results_dir>/.plans/`` (atomically); its path."""
    name = f"{plan.created_utc.replace(':', '-')}-{dataset.new_token()[:8]}.json"
    path = Path(results_dir).resolve() / PLANS_DIR / name
    return write_json_atomic(path, plan.as_json(), make_parents=True)


def read_plan(path: str | os.PathLike) -> Plan:
    with open(path, encoding="utf-8") as fh:
        return Plan.from_json(json.load(fh))


def blas_threads(launcher: Any = None) -> int:
    """BLAS threads of a chunk job: SLURM cpus-per-task, else the launcher config's, else 1."""
    env = os.environ.get("SLURM_CPUS_PER_TASK", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    cpus = getattr(launcher, "get", lambda *_: None)("cpus_per_task")
    return int(cpus) if isinstance(cpus, int) and cpus > 0 else 1


def run_chunk(plan_path: str | os.PathLike, index: int, threads: int = 1) -> list[SeedOutcome]:
    """Run the pairs of chunk ``index`` of a plan, seed after seed, into the dataset.

    A seed finished meanwhile (by another job, or before a rerun) is served as cached; a seed
    another process holds is left to it. A programming error raises
    :class:`~weakpareto.campaign.runner.SeedCrashed` (the job fails; its traceback is in the job
    log and in ``wp run``'s output).
    """
    plan = read_plan(plan_path)
    code = current()
    if plan.code_hash and plan.code_hash != code.code_hash:
        print(
            f"wp: warning: the code changed since the sweep was planned (plan {plan.code_hash[:8]}"
            f", now {code.short()}); the rows record the code that computed them",
            file=sys.stderr,
        )
    outcomes = []
    pairs = plan.chunk(index)
    print(f"chunk {index}: {len(pairs)} seed(s), {threads} BLAS thread(s)", flush=True)
    with threadpool_limits(threads):
        for i, seed in pairs:
            container = plan.configs[i]
            outcome = run_seed(
                container,
                seed,
                bool(container["overwrite"]),
                str(container["results_dir"]),
                code=code,
                layout="dataset",
            )
            outcomes.append(outcome)
            state = outcome.row.get("status", outcome.state) if outcome.row else outcome.state
            print(
                f"chunk {index}: {_describe(container)} seed {seed}: {outcome.state} ({state})",
                flush=True,
            )
    return outcomes


def _describe(container: dict) -> str:
    bench = container.get("benchmark", {}).get("name", "?")
    method = container.get("method", {}).get("name", "?")
    return f"{bench} {method} {container.get('variant')} noise {container.get('noise')}"


def hydra_argv(plan_path: Path, plan: Plan, overrides: Sequence[str]) -> list[str]:
    """The Hydra multirun arguments that launch the plan's chunks: the launcher overrides of
    the user (``hydra/launcher=``, ``hydra.launcher.*``) and one job per chunk."""
    hydra = [o for o in overrides if o.lstrip("+~").startswith("hydra")]
    results_dir = Path(str(plan.configs[0]["results_dir"]))
    return [
        "-m",
        *hydra,
        f"results_dir={results_dir}",
        "progress=false",
        f"+wp_plan='{plan_path}'",
        "+wp_chunk=" + ",".join(str(i) for i in range(plan.n_chunks)),
    ]
