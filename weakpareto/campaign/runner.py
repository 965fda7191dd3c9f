"""``wp run``: discovery over seeds for one composed config (one Hydra job).

Per seed: generate the benchmark field (seed-dependent where the paper's is), add the seeded noise
realisation (shared by every method for the same seed, docs/method/benchmarks.md#noise-laws), fit
it (:mod:`weakpareto.fit`), score against the benchmark truth and write one Parquet row plus the
Pareto front atomically (:mod:`weakpareto.campaign.compute` computes, this module orchestrates).
Finished results of the same config *and code* (:mod:`weakpareto.campaign.provenance`) are served
as cached unless ``overwrite=true``; results of other code are computed again, and the run says so
in one line. A seed that meets a numerical failure (singular fit, no feasible candidate, non-finite
objective) is recorded as a failed row with the reason and the others go on; it is computed again
by the next run (a failed row is never served as cached), as is a result file that cannot be read
back (truncated, corrupt: a warning names it). A programming error (``TypeError``, ``KeyError``,
``AssertionError`` ...) stops the run: queued seeds are cancelled, the traceback is printed and
``wp run`` exits 1. A claim file per seed (:mod:`weakpareto.campaign.seed_claims`) lets
concurrent runs on one results directory split the seeds. Parallel seeds run in a bounded pool
(:mod:`weakpareto.campaign.pool`); Ctrl-C stops every worker promptly and raises
:class:`RunInterrupted` with what was finished."""

from __future__ import annotations

import json
import logging.config
import os
import signal
import sys
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from omegaconf import DictConfig, OmegaConf
from threadpoolctl import threadpool_limits
from tqdm import tqdm

from weakpareto.campaign import dataset, seed_claims
from weakpareto.campaign import store as res
from weakpareto.campaign.compute import (
    NUMERICAL_FAILURES,
    bootstrap_seed,
    check_result,
    failure_reason,
    fit_outcome,
)

# Re-exported (``runner.discover_seed`` is what compute_seed calls: tests replace it); their home
# is weakpareto.campaign.compute, with everything else a run computes.
from weakpareto.campaign.compute import discover_seed as discover_seed
from weakpareto.campaign.compute import noise_seed as noise_seed
from weakpareto.campaign.config import (
    config_hash,
    uncertainty_settings,
    validate_run,
    without_uncertainty_off,
)
from weakpareto.campaign.interval_columns import calibrated_lines, uncertainty_columns
from weakpareto.campaign.pool import WINDOW_PER_WORKER, run_bounded
from weakpareto.campaign.provenance import CodeIdentity, current
from weakpareto.campaign.schema import check_seed_range
from weakpareto.campaign.store import RunKey
from weakpareto.evaluation.metrics import score, truth_equation
from weakpareto.method.intervals import EquationBootstrap

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
    # the calibrated intervals printed under the seed's equation (uncertainty=bootstrap)
    "uncertainty",
    "level",
    "operator",
    "powers",
    "orders",
    "directions",
    "alpha_cal_lo",
    "alpha_cal_hi",
    "order_cal_lo",
    "order_cal_hi",
    "coef_cal_lo",
    "coef_cal_hi",
)
SeedState = Literal["computed", "cached", "elsewhere"]
#: Where a seed writes: per-seed files (``store``) or the partitioned dataset (``dataset``).
Layout = Literal["files", "dataset"]


@dataclass(frozen=True)
class SeedOutcome:
    """One seed of a run: its summary row (empty when another process is computing it)."""

    seed: int
    row: dict[str, Any]
    state: SeedState = "computed"
    notes: tuple[str, ...] = ()  # warnings for the user (e.g. an unreadable result file)
    holder: str = ""  # who computes it, when ``state == "elsewhere"``
    replaced: str = ""  # computed because the stored result came from other code: which

    @property
    def skipped(self) -> bool:
        """Not computed by this run (cached, or running elsewhere)."""
        return self.state != "computed"


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during ``wp run``; the message says what is saved (exit code 130)."""


class SeedCrashed(Exception):
    """A programming error (not a numerical failure) in one seed: the run stops.

    Carries the formatted traceback as text, so that it crosses the process boundary of the
    worker pool intact; ``saved`` is filled in by :func:`run_config` (what the run kept).
    """

    def __init__(self, seed: int, where: str, trace: str) -> None:
        super().__init__(seed, where, trace)
        self.seed, self.where, self.trace = seed, where, trace
        self.saved = ""

    def __str__(self) -> str:
        last = self.trace.strip().splitlines()[-1] if self.trace.strip() else "unknown error"
        return f"seed {self.seed} of {self.where} stopped the run: {last}"

    def report(self) -> str:
        """Traceback, then one line naming the seed, the error and what is saved (stderr)."""
        saved = f"; {self.saved}" if self.saved else ""
        return (
            f"{self.trace.rstrip()}\n"
            f"wp: error: {self} (a programming error, not a numerical failure: nothing was "
            f"stored for this seed){saved}"
        )


def run_key(cfg: DictConfig, seed: int, code: CodeIdentity | None = None) -> RunKey:
    """The stored key of one seed of a composed config, made by ``code`` (default: this code)."""
    return RunKey(
        benchmark=str(cfg.benchmark.name),
        method=str(cfg.method.name),
        variant=str(cfg.variant),
        noise_law=str(cfg.noise_law.name),
        noise=float(cfg.noise),
        seed=int(seed),
        config_hash=config_hash(cfg),
        code_hash=(code or current()).code_hash,
    )


def _summary(row: dict[str, Any]) -> dict[str, Any]:
    return {k: row.get(k) for k in SUMMARY_KEYS}


def _stored_rows(results_dir: str, key: RunKey, notes: list[str]) -> list[dict[str, Any]]:
    """Rows of ``key`` in both layouts (an unreadable per-seed file is noted once and
    ignored: the seed is computed again)."""
    path = res.run_path(results_dir, key)
    rows = list(dataset.seed_rows(results_dir, key))
    try:
        row = res.read_run_row(path)
    except res.UnreadableResult as err:
        note = f"unreadable result {path} ({err}); computing the seed again"
        if note not in notes:
            notes.append(note)
        row = None
    return rows + ([row] if row is not None else [])


def _finished(results_dir: str, key: RunKey, notes: list[str]) -> dict[str, Any] | None:
    """The stored row of a successfully finished seed, else None (missing, failed, unreadable:
    computed again). Of several rows (both layouts, or a compacted and a new file) the latest
    counts, as for every reader."""
    rows = _stored_rows(results_dir, key, notes)
    if not rows:
        return None
    last = max(rows, key=lambda r: str(r.get("created_utc") or ""))
    return last if last.get("status") == "ok" else None


def _where(cfg: DictConfig) -> str:
    return f"{cfg.benchmark.name} {cfg.method.name} {cfg.variant} {100 * float(cfg.noise):g} %"


def compute_seed(
    cfg: DictConfig, key: RunKey, progress: Any = None, code: CodeIdentity | None = None
) -> tuple[dict, list[dict]]:
    """The run row and front rows of one seed.

    A numerical failure (:data:`weakpareto.campaign.compute.NUMERICAL_FAILURES`, or a result
    that :func:`~weakpareto.campaign.compute.check_result` rejects) becomes a ``failed`` row whose
    ``error`` starts with the reason (``singular fit: LinAlgError: ...``); any other exception is
    a programming error and raises :class:`SeedCrashed` (nothing is stored for the seed).
    """
    code = code or current()
    truth = truth_equation(cfg.benchmark)
    extra: dict[str, Any] = {
        "label": str(cfg.benchmark.get("label", cfg.benchmark.name)),
        "experiment": str(cfg.experiment),
        "config_json": json.dumps(_plain_config(cfg), default=str),
        "weakpareto_version": code.version,
        "git_commit": code.git_commit,
    }
    t0 = time.perf_counter()
    boot: EquationBootstrap | None = None
    boot_error = ""
    try:
        if uncertainty_settings(cfg) is None:
            result = discover_seed(cfg, key.seed, progress)
            check_result(result)
        else:  # the bootstrap's time is its own column (uncertainty_s), not runtime_s
            outcome = fit_outcome(cfg, key.seed, progress)
            result = outcome.result
            check_result(result)
            t_fit = time.perf_counter()
            try:
                boot = bootstrap_seed(cfg, outcome)
            except NUMERICAL_FAILURES as err:  # the fit stands; the row says why no intervals
                boot_error = f"bootstrap_failed: {failure_reason(err)}: {type(err).__name__}: {err}"
            t0 += time.perf_counter() - t_fit
    except NUMERICAL_FAILURES as err:  # a property of this seed's data: record, go on
        runtime = time.perf_counter() - t0
        msg = f"{failure_reason(err)}: {type(err).__name__}: {err}"
        tb = traceback.format_exc(limit=3)
        row = res.run_record(
            None, None, key, truth=truth, runtime=runtime, error=f"{msg}\n{tb}", **extra
        )
        return row, []
    except Exception:  # a bug: stop the run, with the traceback
        raise SeedCrashed(key.seed, _where(cfg), traceback.format_exc()) from None
    runtime = time.perf_counter() - t0
    metrics = score(result.final, truth)
    row = res.run_record(result, metrics, key, truth=truth, runtime=runtime, **extra)
    if boot is not None:
        row.update(uncertainty_columns(boot, result.final, truth, metrics))
    elif boot_error:
        row.update(uncertainty="bootstrap", uncertainty_flags=[boot_error])
    return row, res.front_records(result, key)


def _plain_config(cfg: DictConfig) -> dict[str, Any]:
    """The composed config stored with a row (uncertainty keys only when it is on)."""
    data = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(data, dict)
    return without_uncertainty_off(data)


def _other_code(results_dir: str, key: RunKey) -> str:
    """The code of the latest finished result of the same config and seed made by other code
    (``""`` when there is none): that result is stale, the seed is computed again."""
    rows = [
        r
        for r in dataset.seed_rows(results_dir, key, any_code=True)
        if r.get("status") == "ok" and (r.get("code_hash") or "") != key.code_hash
    ]
    for path in res.other_code_paths(results_dir, key):
        try:
            row = res.read_run_row(path)
        except res.UnreadableResult:
            continue
        if row is not None and row.get("status") == "ok":
            rows.append(row)
    if not rows:
        return ""
    last = max(rows, key=lambda r: str(r.get("created_utc") or ""))
    code = str(last.get("code_hash") or "")[:8] or "unknown (stored before code hashes)"
    return f"code {code}, weakpareto {last.get('weakpareto_version') or 'unknown'}"


def seed_run_file(results_dir: str, key: RunKey, layout: Layout = "files") -> Path:
    """The run file of a seed, beside which its claim lives (either layout)."""
    if layout == "dataset":
        return dataset.partition_dir(results_dir, dataset.RUNS, key) / f"{key.stem()}.parquet"
    return res.run_path(results_dir, key)


def break_dead_claims(
    cfg_container: dict,
    seeds: range,
    finished: set[int],
    workers: int,
    results_dir: str,
    code: CodeIdentity,
) -> None:
    """Remove the claims that stopped workers left: a worker killed before its cleanup ran (the
    SIGKILL after the grace period, on a loaded machine) cannot release its seed's claim. Only
    the seeds that may have been in flight are looked at (up to the pool's window past the last
    finished one), and only claims whose holder is dead are removed."""
    cfg = OmegaConf.create(cfg_container)
    last = max(finished, default=seeds.start - 1)
    stop = min(seeds.stop, last + 1 + WINDOW_PER_WORKER * max(workers, 1))
    for seed in range(seeds.start, stop):
        if seed not in finished:
            seed_claims.break_if_stale(seed_run_file(results_dir, run_key(cfg, seed, code)))


def run_seed(
    cfg_container: dict,
    seed: int,
    overwrite: bool,
    results_dir: str,
    progress: Any = None,
    code: CodeIdentity | None = None,
    layout: Layout = "files",
) -> SeedOutcome:
    """Run (or resume) one seed and write its Parquet files; a numerical failure is a failed row,
    a programming error raises :class:`SeedCrashed`.

    ``layout``: ``"files"`` writes the per-seed files of :mod:`weakpareto.campaign.store`,
    ``"dataset"`` the partitioned dataset (:mod:`weakpareto.campaign.dataset`); a finished seed
    is found in either.

    A successfully finished seed of the same config *and code* is served as cached (unless
    ``overwrite``); a result of other code is not (``replaced`` names it); a seed another process
    holds the claim of is left to it (``state="elsewhere"``).
    """
    code = code or current()
    cfg = OmegaConf.create(cfg_container)
    key = run_key(cfg, seed, code)
    path = seed_run_file(results_dir, key, layout)
    notes: list[str] = []
    done = None if overwrite else _finished(results_dir, key, notes)
    if done is not None:
        seed_claims.break_if_stale(path)  # a holder killed after writing the files left it
        return SeedOutcome(seed, _summary(done), "cached", tuple(notes))
    with seed_claims.claimed(path) as claim:
        if isinstance(claim, seed_claims.Holder):
            return SeedOutcome(seed, {}, "elsewhere", tuple(notes), claim.describe())
        # another process may have finished it between the check and the claim
        done = None if overwrite else _finished(results_dir, key, notes)
        if done is not None:
            return SeedOutcome(seed, _summary(done), "cached", tuple(notes))
        replaced = "" if overwrite else _other_code(results_dir, key)
        row, fronts = compute_seed(cfg, key, progress, code)
        with seed_claims.deferred_signals():  # both files or none: Ctrl-C waits for the write
            if layout == "dataset":
                dataset.write_seed(results_dir, key, row, fronts)
            else:
                res.write_front_and_run(path, row, fronts)
    return SeedOutcome(seed, _summary(row), "computed", tuple(notes), replaced=replaced)


@dataclass(frozen=True)
class SeedJob:
    """What every seed of one run shares; sent once to each worker process."""

    cfg_container: dict
    overwrite: bool
    results_dir: str
    code: CodeIdentity


_JOB: SeedJob | None = None


def _set_job(job: SeedJob) -> None:
    global _JOB
    _JOB = job


def _seed_task(seed: int) -> SeedOutcome:
    assert _JOB is not None, "worker initialised without a job"
    job = _JOB
    return run_seed(job.cfg_container, seed, job.overwrite, job.results_dir, code=job.code)


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


def saved_message(outcomes: list[SeedOutcome], total: int, results_dir: str) -> str:
    """``3 of 5 seeds finished (1 of them cached) and saved in results/runs``."""
    done = [o for o in outcomes if o.state != "elsewhere"]
    cached = sum(o.state == "cached" for o in done)
    return (
        f"{len(done)} of {total} seeds finished ({cached} of them cached) and saved in "
        f"{results_dir}"
    )


def interrupted_message(outcomes: list[SeedOutcome], total: int, results_dir: str) -> str:
    return (
        f"interrupted: {saved_message(outcomes, total, results_dir)}; rerun the same command "
        "to resume"
    )


def replaced_message(outcomes: list[SeedOutcome], code: CodeIdentity) -> str:
    """One line when seeds were computed again because their stored results came from other
    code (``""`` when none were)."""
    replaced = [o for o in outcomes if o.replaced]
    if not replaced:
        return ""
    olds = sorted({o.replaced for o in replaced})
    return (
        f"wp: {len(replaced)} seed(s) computed again: the stored results were made by other "
        f"code ({'; '.join(olds)}), now {code.short()}"
    )


def run_config(cfg: DictConfig) -> list[SeedOutcome]:
    """All seeds of one config, serially or in a bounded process pool (one BLAS thread each).

    Ctrl-C or SIGTERM stops every worker within seconds and raises :class:`RunInterrupted`
    (nothing half-written stays behind; finished seeds are kept for the rerun). A programming
    error in a seed cancels the queued seeds, stops the workers the same way and raises
    :class:`SeedCrashed` (its ``saved`` says what was kept).
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
    code = current()
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
                # one BLAS thread, as in every pool worker: the 2-D fits' last bits depend on the
                # thread count, and a seed must give the same row whatever workers= says
                with threadpool_limits(1):
                    for s in seeds:
                        # serial runs also show the search stage (support size, power pattern)
                        def stage(text: str, s: int = s) -> None:
                            bar.set_postfix_str(f"seed {s}: {text}", refresh=True)

                        collect(run_seed(container, s, overwrite, results_dir, stage, code))
            else:
                job = SeedJob(container, overwrite, results_dir, code)
                try:
                    run_bounded(_seed_task, seeds, workers, collect, _set_job, (job,))
                except BaseException:  # the pool is stopped; its workers are reaped
                    finished = {o.seed for o in outcomes}
                    break_dead_claims(container, seeds, finished, workers, results_dir, code)
                    raise
    except KeyboardInterrupt:
        bar.close()
        raise RunInterrupted(interrupted_message(outcomes, count, results_dir)) from None
    except SeedCrashed as crash:
        bar.close()
        crash.saved = saved_message(outcomes, count, results_dir)
        raise
    bar.close()
    outcomes.sort(key=lambda o: o.seed)
    print_summary(cfg, outcomes)
    note = replaced_message(outcomes, code)
    if note:
        print(note, file=sys.stderr)
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
        for line in calibrated_lines(r):
            print(f"            {line}")
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


def run_job(cfg: DictConfig) -> None:
    """One ``wp run`` job: :func:`run_config`, a crashed seed as exit code 1 with its report."""
    try:
        run_config(cfg)
    except SeedCrashed as crash:
        # SystemExit, not an Exception: Hydra would record an Exception and go on with the
        # remaining jobs of a -m sweep; a bug must stop the sweep here, exit code 1.
        print(crash.report(), file=sys.stderr)
        raise SystemExit(1) from None
    except BrokenPipeError:  # `wp run ... | head`: the reader left, the results are saved
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
        raise SystemExit(141) from None  # 128 + SIGPIPE, as for any program in a pipe


def hydra_run_entry() -> None:
    """Entry point of ``wp run`` when Hydra runs the jobs (``-m`` sweeps, ``hydra`` overrides),
    after validation (sys.argv holds the overrides)."""
    import hydra  # this path only: a single run composes (or reads) its config without Hydra

    @hydra.main(version_base="1.3", config_path="pkg://weakpareto.conf", config_name="config")
    def _hydra_task(cfg: DictConfig) -> None:
        run_job(cfg)

    _hydra_task()


#: The logging of a Hydra job under ``conf/config.yaml`` (``hydra/job_logging: disabled`` and
#: ``hydra/hydra_logging: disabled``): root level ERROR, the loggers that exist switched off.
JOB_LOGGING = {"version": 1, "root": {"level": "ERROR"}, "disable_existing_loggers": True}


def run_composed(cfg: DictConfig) -> None:
    """``wp run`` without ``-m``: the one job, on the config the CLI composed and checked.

    What Hydra's run mode would do with it under ``conf/config.yaml`` (no output directory, no
    chdir, logging as :data:`JOB_LOGGING`), without composing the same config twice more."""
    logging.config.dictConfig(JOB_LOGGING)
    run_job(cfg)
