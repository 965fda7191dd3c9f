"""``wp status [-m] <the overrides of a wp run>``: done / failed / missing seeds per sweep point.

Every sweep point is composed exactly as ``wp run`` composes it (same overrides, same checks),
and each of its seeds is looked up by its full key — config hash and code hash included — in the
stored results (both layouts, :func:`weakpareto.campaign.store.load_runs`, the latest row per
key): ``done`` (status ok), ``failed`` (a failed row: a numerical failure, recomputed by the next
run) or ``missing`` (no row of this config and code: never run, killed, or made by other code).
Failures are read from the rows, never from scheduler job states (SLURM reports a Python job that
raised as COMPLETED). Rerunning the same ``wp run`` computes exactly the failed and missing seeds.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pandas as pd
from omegaconf import DictConfig

from weakpareto.campaign.columns import RUN_KEY, RunKey
from weakpareto.campaign.compose import compose_checked, sweep_jobs
from weakpareto.campaign.config import validate_run
from weakpareto.campaign.paths import readable_dir
from weakpareto.campaign.provenance import CodeIdentity, current
from weakpareto.campaign.runner import run_key
from weakpareto.campaign.schema import check_seed_range
from weakpareto.campaign.store import load_runs

State = Literal["done", "failed", "missing"]
KeyTuple = tuple


def key_tuple(key: RunKey) -> KeyTuple:
    """``key`` as the tuple of its :data:`RUN_KEY` columns (as stored)."""
    d = key.as_dict()
    return tuple(d[k] for k in RUN_KEY)


@dataclass
class StoredIndex:
    """The status of every stored key of one results directory (read once)."""

    states: dict[KeyTuple, State] = field(default_factory=dict)

    @classmethod
    def load(cls, results_dir: str | os.PathLike) -> StoredIndex:
        runs = load_runs(results_dir) if Path(results_dir).is_dir() else pd.DataFrame()
        if runs.empty:
            return cls()
        cols = [runs[k].astype(object).where(runs[k].notna(), None) for k in RUN_KEY]
        states: dict[KeyTuple, State] = {
            tuple(values[:-1]): ("done" if values[-1] == "ok" else "failed")
            for values in zip(*cols, runs["status"])
        }
        return cls(states)

    def state(self, key: RunKey) -> State:
        return self.states.get(key_tuple(key), "missing")


@dataclass(frozen=True)
class PointStatus:
    """The seeds of one sweep point by state."""

    label: str
    results_dir: str
    done: tuple[int, ...] = ()
    failed: tuple[int, ...] = ()
    missing: tuple[int, ...] = ()

    @property
    def pending(self) -> tuple[int, ...]:
        """The seeds a rerun computes (failed and missing), sorted."""
        return tuple(sorted(self.failed + self.missing))

    def line(self, width: int) -> str:
        text = (
            f"  {self.label:<{width}}  done {len(self.done):>4}  failed {len(self.failed):>4}  "
            f"missing {len(self.missing):>4}"
        )
        extra = [f"{name} seeds {_seeds(s)}" for name, s in self._lists() if s]
        return text + (f"   ({'; '.join(extra)})" if extra else "")

    def _lists(self) -> list[tuple[str, tuple[int, ...]]]:
        return [("failed", self.failed), ("missing", self.missing)]


def _seeds(seeds: Sequence[int]) -> str:
    """``0-3,7`` (runs of consecutive seeds joined)."""
    parts: list[str] = []
    start = prev = None
    for s in sorted(seeds):
        if prev is not None and s == prev + 1:
            prev = s
            continue
        if start is not None:
            parts.append(f"{start}" if start == prev else f"{start}-{prev}")
        start = prev = s
    if start is not None:
        parts.append(f"{start}" if start == prev else f"{start}-{prev}")
    return ",".join(parts)


def point_label(combo: Sequence[str], common: Iterable[str]) -> str:
    """The overrides that tell this point from the others of its sweep."""
    shared = set(common)
    own = [o for o in combo if o not in shared]
    return " ".join(own) if own else "(single point)"


def composed_points(overrides: Sequence[str], multirun: bool) -> list[tuple[str, DictConfig]]:
    """(label, composed and checked config) of every sweep point, as ``wp run`` composes them."""
    combos = sweep_jobs(overrides, multirun)
    common = set(combos[0]).intersection(*map(set, combos[1:])) if combos else set()
    points = []
    for combo in combos:
        cfg = compose_checked(combo)
        validate_run(cfg)
        check_seed_range(cfg)
        points.append((point_label(combo, common), cfg))
    return points


def point_status(
    label: str, cfg: DictConfig, index: StoredIndex, code: CodeIdentity | None = None
) -> PointStatus:
    """The state of every seed of one composed sweep point."""
    code = code or current()
    first, count = int(cfg.seed), int(cfg.seeds)
    by: dict[State, list[int]] = {"done": [], "failed": [], "missing": []}
    for seed in range(first, first + count):
        by[index.state(run_key(cfg, seed, code))].append(seed)
    return PointStatus(
        label,
        str(cfg.results_dir),
        tuple(by["done"]),
        tuple(by["failed"]),
        tuple(by["missing"]),
    )


def sweep_status(overrides: Sequence[str], multirun: bool) -> list[PointStatus]:
    """:class:`PointStatus` of every point of ``wp run [-m] overrides``; a ``results_dir`` that
    is not an existing directory is refused (UserInputError), not reported as all missing."""
    indexes: dict[str, StoredIndex] = {}
    out = []
    points = composed_points(overrides, multirun)
    for rd in dict.fromkeys(str(cfg.results_dir) for _, cfg in points):
        readable_dir(rd, "results_dir")
    for label, cfg in points:
        rd = str(cfg.results_dir)
        if rd not in indexes:
            indexes[rd] = StoredIndex.load(rd)
        out.append(point_status(label, cfg, indexes[rd]))
    return out


def report(points: Sequence[PointStatus], code: CodeIdentity | None = None) -> str:
    """The text ``wp status`` prints."""
    code = code or current()
    width = max((len(p.label) for p in points), default=0)
    dirs = sorted({p.results_dir for p in points})
    n = sum(len(p.done) + len(p.pending) for p in points)
    done = sum(len(p.done) for p in points)
    failed = sum(len(p.failed) for p in points)
    lines = [
        f"wp status: {len(points)} sweep point(s), {n} seeds in {', '.join(dirs)} ({code.short()})",
        *(p.line(width) for p in points),
        f"total: done {done}, failed {failed}, missing {n - done - failed} of {n}"
        + ("" if done == n else "; rerun the same wp run to compute the failed and missing seeds"),
    ]
    return "\n".join(lines)


def status_command(overrides: Sequence[str], multirun: bool) -> list[PointStatus]:
    """``wp status``: print :func:`report` for the sweep; returns the points."""
    points = sweep_status(overrides, multirun)
    print(report(points))
    return points
