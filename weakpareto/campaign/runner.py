"""``wp run``: discovery over seeds for one composed config (one Hydra job).

Per seed: generate the benchmark field (seed-dependent where the paper's is), add the seeded
noise realisation (shared by every method for the same seed, spec §2), build the method's
feature source, run discovery, score against the benchmark truth and write one Parquet row plus
the Pareto front atomically. Finished (config, seed) results are served as cached unless
``overwrite=true``; a failing seed is recorded with its error and the others go on, and is
computed again by the next run (a failed row is never served as cached), as is a result file
that cannot be read back (truncated, corrupt: a warning names it). A claim file per seed
(:mod:`weakpareto.campaign.claims`) lets concurrent runs on one results directory split the
seeds. Parallel seeds run in a bounded pool (:mod:`weakpareto.campaign.pool`); Ctrl-C stops
every worker promptly and raises :class:`RunInterrupted` with what was finished.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal, cast

import hydra
import numpy as np
from omegaconf import DictConfig, OmegaConf
from tqdm import tqdm

from weakpareto._version import __version__
from weakpareto.baselines.grid_stridge import (
    fixed_dictionary_stability,
    grid_stridge,
    scaled_weak_library,
    settings_from_method,
)
from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.campaign import claims
from weakpareto.campaign import store as res
from weakpareto.campaign.config import config_hash, discovery_config, noise_seed, validate_run
from weakpareto.campaign.pool import run_bounded
from weakpareto.campaign.schema import check_seed_range
from weakpareto.campaign.store import RunKey
from weakpareto.evaluation.metrics import score, truth_equation
from weakpareto.library.strong import pointwise_library
from weakpareto.library.weak import PowerMode, SpatialTests, weak_library
from weakpareto.library.weak_2d import weak_library_2d
from weakpareto.method.discovery import discover
from weakpareto.method.discovery_2d import discover_2d
from weakpareto.numerics.operators import SpectralKind
from weakpareto.numerics.windows import Budget
from weakpareto.records import DiscoveryResult, OperatorKind

#: Run-row columns kept per seed for the summary (the parent holds one per seed).
SUMMARY_KEYS = (
    "status",
    "error",
    "equation",
    "n_terms",
    "support_ok",
    "operator_ok",
    "fit_error",
    "runtime_s",
    "e_alpha",
    "e_beta_max",
    "e_xi_max",
    "e_xi_2",
)
SeedState = Literal["computed", "cached", "elsewhere"]


@dataclass(frozen=True)
class SeedOutcome:
    """One seed of a run: its summary row (empty when another process is computing it)."""

    seed: int
    row: dict[str, Any]
    state: SeedState = "computed"
    notes: tuple[str, ...] = ()  # warnings for the user (e.g. an unreadable result file)
    holder: str = ""  # who computes it, when ``state == "elsewhere"``

    @property
    def skipped(self) -> bool:
        """Not computed by this run (cached, or running elsewhere)."""
        return self.state != "computed"


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during ``wp run``; the message says what is saved (exit code 130)."""


def build_source(cfg: DictConfig, u: np.ndarray, t: np.ndarray, x: np.ndarray) -> Any:
    """The method's feature source on the noisy field (weak or pointwise library)."""
    lib, bench = cfg.benchmark.library, cfg.benchmark
    period = float(bench.grid.L)
    counts = cfg.search.test_counts
    counts = (int(counts[0]), int(counts[1])) if counts is not None else None
    if cfg.method.library == "pointwise":
        return pointwise_library(
            u,
            t,
            x,
            operator=cast(OperatorKind, str(lib.operator)),
            power_mode=cast(PowerMode, str(lib.power_mode)),
            trim_t=int(bench.strong.trim_t),
            trim_x=int(bench.strong.trim_x),
            period=period,
        )
    return weak_library(
        u,
        t,
        x,
        operator=cast(OperatorKind, str(lib.operator)),
        power_mode=cast(PowerMode, str(lib.power_mode)),
        period=period,
        spatial_tests=cast(SpatialTests, str(lib.spatial_tests)),
        test_counts=counts,
        budget=cast(Budget, str(cfg.search.test_budget)),
    )


def build_source_2d(cfg: DictConfig, u: np.ndarray, field: Any) -> Any:
    """The 2-D weak library (paper Sec. subsec:twod) of a noisy field ``u (nt, nx, ny)``."""
    if cfg.method.library != "weak":
        raise ValueError(
            f"method {cfg.method.name!r} has no 2-D implementation; 2-D benchmarks run with "
            "method=weak_pareto (or weak_pareto_nopolish)"
        )
    lib, bench = cfg.benchmark.library, cfg.benchmark
    counts = cfg.search.test_counts
    counts = tuple(int(c) for c in counts) if counts is not None else None
    if counts is not None and len(counts) != 3:
        raise ValueError(f"2-D test_counts must be [K_t, K_x, K_y], got {list(counts)}")
    width = lib.get("spatial_width_fraction", None)
    return weak_library_2d(
        u,
        field.t,
        field.x,
        field.y,
        operator=cast(SpectralKind, str(lib.operator)),  # checked by WeakLibrary2D
        period=float(bench.grid.L),
        period_y=float(bench.grid.get("Ly", bench.grid.L)),
        test_counts=counts,
        budget=cast(Budget, str(cfg.search.test_budget)),
        width_fraction=None if width is None else float(width),
    )


def grid_stridge_from_config(
    cfg: DictConfig, u: np.ndarray, t: np.ndarray, x: np.ndarray, seed: int
) -> DiscoveryResult:
    """Weak Grid-STRidge (or, with ``method.stability: true``, its stability variant) for one
    seed of a composed run config; ``u`` is the (already noisy) field shared by every method."""
    dcfg = discovery_config(cfg, seed)
    lib_cfg, bench = cfg.benchmark.library, cfg.benchmark
    counts = cfg.search.test_counts
    counts = (int(counts[0]), int(counts[1])) if counts is not None else None
    kwargs: dict[str, Any] = dict(
        power_mode=str(lib_cfg.power_mode),
        period=float(bench.grid.L),
        spatial_tests=str(lib_cfg.spatial_tests),
        test_counts=counts,
        budget=str(cfg.search.test_budget),
    )
    settings = settings_from_method(cfg.method)
    if bool(cfg.method.get("stability", False)):
        return fixed_dictionary_stability(u, t, x, dcfg, settings=settings, **kwargs).result
    lib = scaled_weak_library(u, t, x, operator=dcfg.operator, width_scale=1.0, **kwargs)
    return grid_stridge(lib, dcfg, settings)


def discover_seed(cfg: DictConfig, seed: int, progress: Any = None) -> DiscoveryResult:
    """Data → noise → library → discovery for one seed (1-D, or 2-D directional).

    ``progress`` (optional) receives a short text per finished search stage.
    """
    field = generate(cfg.benchmark, seed)
    noise = float(cfg.noise)
    law = str(cfg.noise_law.name)
    u = add_noise(field.u, law, noise, noise_seed(cfg, seed)) if noise > 0 else field.u
    dcfg = discovery_config(cfg, seed)
    if field.y is not None:
        return discover_2d(build_source_2d(cfg, u, field), dcfg, progress)
    if cfg.method.library == "grid_stridge":
        return grid_stridge_from_config(cfg, u, field.t, field.x, seed)
    return discover(build_source(cfg, u, field.t, field.x), dcfg, progress)


def run_key(cfg: DictConfig, seed: int) -> RunKey:
    """The stored key of one seed of a composed config."""
    return RunKey(
        benchmark=str(cfg.benchmark.name),
        method=str(cfg.method.name),
        variant=str(cfg.variant),
        noise_law=str(cfg.noise_law.name),
        noise=float(cfg.noise),
        seed=int(seed),
        config_hash=config_hash(cfg),
    )


def _summary(row: dict[str, Any]) -> dict[str, Any]:
    return {k: row.get(k) for k in SUMMARY_KEYS}


def _finished(path: Any, notes: list[str]) -> dict[str, Any] | None:
    """The stored row of a successfully finished seed, else None (missing, failed, unreadable:
    computed again; an unreadable file is reported once in ``notes``)."""
    try:
        row = res.read_run_row(path)
    except res.UnreadableResult as err:
        note = f"unreadable result {path} ({err}); computing the seed again"
        if note not in notes:
            notes.append(note)
        return None
    return row if row is not None and row.get("status") == "ok" else None


def compute_seed(cfg: DictConfig, key: RunKey, progress: Any = None) -> tuple[dict, list[dict]]:
    """The run row and front rows of one seed; a failure becomes a ``failed`` row."""
    truth = truth_equation(cfg.benchmark)
    extra: dict[str, Any] = {
        "label": str(cfg.benchmark.get("label", cfg.benchmark.name)),
        "experiment": str(cfg.experiment),
        "config_json": json.dumps(OmegaConf.to_container(cfg, resolve=True), default=str),
        "weakpareto_version": __version__,
    }
    t0 = time.perf_counter()
    try:
        result = discover_seed(cfg, key.seed, progress)
        runtime = time.perf_counter() - t0
        metrics = score(result.final, truth)
        row = res.run_record(result, metrics, key, truth=truth, runtime=runtime, **extra)
        return row, res.front_records(result, key)
    except Exception as err:  # record the failure, keep going with other seeds
        runtime = time.perf_counter() - t0
        msg = f"{type(err).__name__}: {err}"
        tb = traceback.format_exc(limit=3)
        row = res.run_record(
            None, None, key, truth=truth, runtime=runtime, error=f"{msg}\n{tb}", **extra
        )
        return row, []


def run_seed(
    cfg_container: dict, seed: int, overwrite: bool, results_dir: str, progress: Any = None
) -> SeedOutcome:
    """Run (or resume) one seed and write its Parquet files; never raises for a failing seed.

    A successfully finished seed is served as cached (unless ``overwrite``); a seed another
    process holds the claim of is left to it (``state="elsewhere"``).
    """
    cfg = OmegaConf.create(cfg_container)
    key = run_key(cfg, seed)
    path = res.run_path(results_dir, key)
    notes: list[str] = []
    done = None if overwrite else _finished(path, notes)
    if done is not None:
        return SeedOutcome(seed, _summary(done), "cached", tuple(notes))
    with claims.claimed(path) as claim:
        if isinstance(claim, claims.Holder):
            return SeedOutcome(seed, {}, "elsewhere", tuple(notes), claim.describe())
        # another process may have finished it between the check and the claim
        done = None if overwrite else _finished(path, notes)
        if done is not None:
            return SeedOutcome(seed, _summary(done), "cached", tuple(notes))
        row, fronts = compute_seed(cfg, key, progress)
        with claims.deferred_signals():  # both files or none: Ctrl-C waits for the write
            res.write_front_and_run(path, row, fronts)
    return SeedOutcome(seed, _summary(row), "computed", tuple(notes))


@dataclass(frozen=True)
class SeedJob:
    """What every seed of one run shares; sent once to each worker process."""

    cfg_container: dict
    overwrite: bool
    results_dir: str


_JOB: SeedJob | None = None


def _set_job(job: SeedJob) -> None:
    global _JOB
    _JOB = job


def _seed_task(seed: int) -> SeedOutcome:
    assert _JOB is not None, "worker initialised without a job"
    return run_seed(_JOB.cfg_container, seed, _JOB.overwrite, _JOB.results_dir)


def _raise_interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


@contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """SIGTERM (``kill``, ``timeout``) stops the run like Ctrl-C (main thread only)."""
    try:
        previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def interrupted_message(outcomes: list[SeedOutcome], total: int, results_dir: str) -> str:
    done = [o for o in outcomes if o.state != "elsewhere"]
    cached = sum(o.state == "cached" for o in done)
    return (
        f"interrupted: {len(done)} of {total} seeds finished ({cached} of them cached) and "
        f"saved in {results_dir}; rerun the same command to resume"
    )


def run_config(cfg: DictConfig) -> list[SeedOutcome]:
    """All seeds of one config, serially or in a bounded process pool (one BLAS thread each).

    Ctrl-C or SIGTERM stops every worker within seconds and raises :class:`RunInterrupted`
    (nothing half-written stays behind; finished seeds are kept for the rerun).
    """
    validate_run(cfg)
    check_seed_range(cfg)
    container = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(container, dict)  # cfg is a DictConfig
    first, count = int(cfg.seed), int(cfg.seeds)
    seeds = range(first, first + count)
    results_dir = str(cfg.results_dir)
    overwrite = bool(cfg.overwrite)
    workers = min(int(cfg.workers), count)
    desc = f"{cfg.benchmark.name} {cfg.method.name} {100 * float(cfg.noise):g}%"
    bar = tqdm(total=count, desc=desc, unit="seed", disable=not cfg.progress, leave=False)
    outcomes: list[SeedOutcome] = []

    def collect(outcome: SeedOutcome) -> None:
        outcomes.append(outcome)
        for note in outcome.notes:
            bar.write(f"wp: warning: {note}", file=sys.stderr)
        bar.update()

    try:
        with _sigterm_interrupts():
            if workers <= 1:
                for s in seeds:
                    # serial runs also show the search stage (support size, power pattern)
                    def stage(text: str, s: int = s) -> None:
                        bar.set_postfix_str(f"seed {s}: {text}", refresh=True)

                    collect(run_seed(container, s, overwrite, results_dir, stage))
            else:
                job = SeedJob(container, overwrite, results_dir)
                run_bounded(_seed_task, seeds, workers, collect, _set_job, (job,))
    except KeyboardInterrupt:
        bar.close()
        raise RunInterrupted(interrupted_message(outcomes, count, results_dir)) from None
    bar.close()
    outcomes.sort(key=lambda o: o.seed)
    print_summary(cfg, outcomes)
    return outcomes


def _fmt(values: list[float]) -> str:
    v = np.array([x for x in values if x is not None and np.isfinite(x)], dtype=float)
    if v.size == 0:
        return "--"
    sd = float(np.std(v, ddof=1)) if v.size > 1 else 0.0
    return f"{float(np.mean(v)):.4f} ± {sd:.4f}"


def print_summary(cfg: DictConfig, outcomes: list[SeedOutcome]) -> None:
    """Each seed's equation beside the truth, then counts and mean ± SD errors."""
    truth = truth_equation(cfg.benchmark)
    print(
        f"\n{cfg.benchmark.get('label', cfg.benchmark.name)} | method {cfg.method.name} | "
        f"{100 * float(cfg.noise):g} % {cfg.noise_law.name} noise"
    )
    print(f"  truth   : {truth.text()}")
    elsewhere = [o for o in outcomes if o.state == "elsewhere"]
    outcomes = [o for o in outcomes if o.state != "elsewhere"]
    for o in outcomes:
        r = o.row
        tag = " (cached)" if o.state == "cached" else ""
        if r.get("status") != "ok":
            err = str(r.get("error", "")).splitlines()[0]
            print(f"  seed {o.seed:<3}: FAILED {err}{tag}")
            continue
        flags = (
            f"support {'ok' if r['support_ok'] else 'NO'}, operator "
            f"{'ok' if r['operator_ok'] else 'NO'}"
        )
        eq = str(r["equation"])
        if int(r.get("n_terms") or 0) > 6:  # dense fixed-dictionary fits: keep the line readable
            eq = f"{eq[:90]} ... ({int(r['n_terms'])} terms)"
        print(
            f"  seed {o.seed:<3}: {eq}  [{flags}; E_fit {r['fit_error']:.4f}; "
            f"{r['runtime_s']:.1f} s]{tag}"
        )
    ok = [o.row for o in outcomes if o.row.get("status") == "ok"]
    sup = [r for r in ok if r["support_ok"]]
    n = len(outcomes)
    for o in elsewhere:
        print(f"  seed {o.seed:<3}: running in another process ({o.holder}); rerun to include it")
    print(
        f"  support/power {len(sup)}/{n}, operator {sum(bool(r['operator_ok']) for r in ok)}/{n}"
        f", failed {n - len(ok)}" + (f", running elsewhere {len(elsewhere)}" if elsewhere else "")
    )
    for k in ("e_alpha", "e_beta_max", "e_xi_max", "e_xi_2"):
        print(f"  {k:<10} {_fmt([r[k] for r in sup])}  (over support-recovered runs)")
    print(f"  E_fit      {_fmt([r['fit_error'] for r in ok])}  (over all runs)")


@hydra.main(version_base="1.3", config_path="pkg://weakpareto.conf", config_name="config")
def _hydra_task(cfg: DictConfig) -> None:
    try:
        run_config(cfg)
    except BrokenPipeError:  # `wp run ... | head`: the reader left, the results are saved
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
        raise SystemExit(141) from None  # 128 + SIGPIPE, as for any program in a pipe


def hydra_run_entry() -> None:
    """Entry point used by ``wp run`` after validation (sys.argv holds the overrides)."""
    _hydra_task()
