"""``wp bench``: per-seed wall time and peak memory per stage, and scaling in K and grid size.

Stages: data (generate + noise), banks (weak library, order banks, Gram tables), search
(support-size sweep), refine (pruning, exact-order polishing, refit). Timings are medians over
``repeats`` runs (seed 0) with one BLAS thread. The speed-up compares like with like: the
published implementation's time per extra seed (seeds 1 .. n-1 of a quiet-machine measurement
of this machine kind, ``weakpareto/data/reference_timings.csv``; provenance in
``reference_timings.md`` beside it) against our mean time per seed over the same seeds. There is
no such measurement of the published Strong-Pareto, so its rows carry no ratio.
Results go to ``results/bench/``.

Expected complexity (paper Sec. 4.6): banks cost O(G (K_t N + K n_x)) — linear in K at fixed
grid — and the Gram tables O(M^2 K); after that one objective evaluation is O(c^2) lookups plus a
c x c solve, independent of K. Growing the grid raises N = n_t n_x linearly (FFTs add a log).
"""

from __future__ import annotations

import csv
import os
import platform
import resource
import statistics
import time
import tracemalloc
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy
from scipy.optimize import differential_evolution
from threadpoolctl import threadpool_info, threadpool_limits

from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.campaign.bench_large import large_field_rows, parse_sizes, write_large_fields
from weakpareto.campaign.bench_startup import startup_times, write_startup
from weakpareto.campaign.bench_uncertainty import uncertainty_cost, write_uncertainty_cost
from weakpareto.campaign.compose import compose_checked, compose_config
from weakpareto.campaign.compute import build_source, discovery_config, noise_seed
from weakpareto.campaign.paths import writable_dir
from weakpareto.errors import UserInputError
from weakpareto.evaluation.metrics import score, truth_equation
from weakpareto.io import write_csv_atomic, write_json_atomic
from weakpareto.method.discovery import Discovery

#: Published implementation's timings (package data, copied verbatim from the shared spec).
REFERENCE_TIMINGS = ("data", "reference_timings.csv")
RUNTIME_BENCHMARKS = ("fade", "rd_space", "burgers")  # paper tab:runtime rows
K_GRID = [(15, 21), (22, 30), (31, 43), (44, 60), (62, 85)]  # paper tab:ksens
GRID_SIZES = [(150, 120), (300, 240), (600, 480)]  # Burgers output grid (nt, nx)
#: ``wp bench`` options and their defaults (the help text lives in weakpareto.cli).
OPTIONS = {
    "benchmarks": "fade,burgers,rd_space,rd_timespace",
    "repeats": "3",
    "scaling": "true",
    "uncertainty": "true",
    "startup": "true",
    "large": "",
    "large_method": "weak_pareto_exact",
    "out_dir": "results/bench",
    "overrides": "",
}
#: Methods ``large_method=`` accepts (the users' default and the paper's).
LARGE_METHODS = ("weak_pareto_exact", "weak_pareto_robust", "weak_pareto")
NO_PUBLISHED = "no published timing"
#: Timed optimiser modes: (row suffix, overrides). "paper-exact" is SciPy's immediate updating,
#: the paper's optimiser trajectories (every paper-table experiment); "fast" is the conf default
#: (deferred updating, vectorised), for exploration and users' data. Both run in lock-step
#: (weakpareto.method.lockstep_de), bit-identical to SciPy run problem by problem.
MODES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("", ()),
    (" (paper-exact)", ("search.updating=immediate", "search.vectorized=false")),
)


@dataclass(frozen=True)
class PublishedTiming:
    """The published implementation's wall time per extra seed over seeds ``1 .. seeds - 1``."""

    per_extra_seed_s: float
    seeds: int  # seeds in the multi-seed measurement (0 .. seeds - 1)

    @property
    def extra_seeds(self) -> range:
        return range(1, self.seeds)


def published_per_seed() -> dict[str, PublishedTiming]:
    """Published implementation's time per extra seed by benchmark, from the packaged CSV.

    Per extra seed = (T(n seeds) - T(1 seed)) / (n - 1), whole process, quiet machine: the
    marginal cost of seeds 1 .. n-1 without interpreter start-up and seed 0.
    """
    path = resources.files("weakpareto").joinpath(*REFERENCE_TIMINGS)
    rows = list(csv.DictReader(path.read_text(encoding="utf-8").splitlines()))
    return {
        r["benchmark"]: PublishedTiming(float(r["published_per_extra_seed_s"]), int(r["seeds"]))
        for r in rows
        if r.get("published_per_extra_seed_s", "").strip()
    }


def versus_published(
    overrides: list[str], published: PublishedTiming | None
) -> tuple[float | None, float | None, str]:
    """Our mean time per seed over the published measurement's extra seeds, the speed-up, text.

    Seed 0 is not representative (RD space: 0.4 s against ~1 s for seeds 1 and 2, in both
    implementations), so we time exactly the seeds the published figure covers.
    """
    if published is None:
        return None, None, NO_PUBLISHED
    seeds = published.extra_seeds
    ours = statistics.fmean(time_one(overrides, seed=s)["total_s"] for s in seeds)
    ratio = published.per_extra_seed_s / ours
    return (
        ours,
        ratio,
        (
            f"seeds {seeds[0]}-{seeds[-1]}: {ours:.2f} s/seed vs published "
            f"{published.per_extra_seed_s:.1f} s per extra seed -> {ratio:.1f}x"
        ),
    )


def time_one(overrides: list[str], seed: int = 0, memory: bool = False) -> dict[str, Any]:
    """Time the stages of one discovery; optionally record the tracemalloc peak instead."""
    cfg = compose_config(overrides)
    if memory:
        tracemalloc.start()
    t0 = time.perf_counter()
    field = generate(cfg.benchmark, seed)
    noise = float(cfg.noise)
    law = str(cfg.noise_law.name)
    u = add_noise(field.u, law, noise, noise_seed(cfg, seed)) if noise > 0 else field.u
    t1 = time.perf_counter()
    source = build_source(cfg, u, field.t, field.x)
    disc = Discovery(source, discovery_config(cfg, seed))
    t2 = time.perf_counter()
    result = disc.run()
    t3 = time.perf_counter()
    out: dict[str, Any] = {
        **de_settings(cfg),
        "data_s": t1 - t0,
        "banks_s": t2 - t1,
        "search_s": result.timings["search"],
        "refine_s": result.timings["refine"],
        "total_s": t3 - t0,
        "n_rows": int(disc.banks.n_rows),
        "n_evals": int(disc.n_evals),
        "equation": result.final.text(),
        "operator_ok": bool(score(result.final, truth_equation(cfg.benchmark)).operator_ok),
    }
    if memory:
        out["peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return out


def de_settings(cfg: Any) -> dict[str, Any]:
    """The differential-evolution budget and mode of a composed config (tab:runtime reads the
    budget from these columns of ``stages.csv``)."""
    s = cfg.search
    return {
        "de_popsize": int(s.popsize),
        "de_maxiter": int(s.maxiter),
        "de_updating": str(s.updating),
        "de_vectorized": bool(s.vectorized),
    }


def objective_cost(overrides: list[str], n: int = 2000, seed: int = 0) -> float:
    """Seconds per objective evaluation (batched, c = 2, fractional branch)."""
    cfg = compose_config(overrides)
    field = generate(cfg.benchmark, seed)
    u = add_noise(field.u, str(cfg.noise_law.name), float(cfg.noise), noise_seed(cfg, seed))
    disc = Discovery(build_source(cfg, u, field.t, field.x), discovery_config(cfg, seed))
    br = disc.branches[0]
    obj = disc.objective(br.mode, (0, 0))
    rng = np.random.default_rng(0)
    lo, hi = disc.cfg.beta_range
    x = np.column_stack([rng.uniform(br.lo, br.hi, n), rng.uniform(lo, hi, (n, 2))])
    if br.is_integer:
        x = x[:, 1:]
    obj(x[:10])
    t0 = time.perf_counter()
    for _ in range(5):
        obj(x)
    return (time.perf_counter() - t0) / (5 * n)


def busy_seconds() -> float:
    """User-mode CPU seconds of the whole machine since boot (all cores; ``/proc/stat``'s user
    and nice), NaN where the system does not say. Kernel time is left out: on a virtual machine
    its accounting grows with the measured process's own work."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [int(v) for v in f.readline().split()[1:3]]
    except (OSError, ValueError):
        return float("nan")
    return sum(fields) / float(os.sysconf("SC_CLK_TCK"))


def own_seconds() -> float:
    """User-mode CPU seconds of this process and its finished children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + kids.ru_utime


@dataclass(frozen=True)
class OtherLoad:
    """What the rest of the machine did while a measurement ran: started with :meth:`start`,
    read with :meth:`share` (the share of the cores' time other processes computed in user mode,
    0 = a quiet machine, 1 = every core busy with something else; to ~0.05 at 10 ms ticks)."""

    wall: float
    busy: float
    own: float

    @classmethod
    def start(cls) -> OtherLoad:
        return cls(time.perf_counter(), busy_seconds(), own_seconds())

    def share(self) -> float:
        wall = time.perf_counter() - self.wall
        others = (busy_seconds() - self.busy) - (own_seconds() - self.own)
        return max(0.0, others) / (wall * (os.cpu_count() or 1)) if wall > 0 else float("nan")


def load_average() -> float:
    """The 1-minute load average (runnable processes; NaN where the system has none): a
    figure measured above ~1 on this 2-core machine shared its cores with something else."""
    try:
        return float(os.getloadavg()[0])
    except OSError:
        return float("nan")


def reference_seconds(repeats: int = 3) -> float:
    """Median seconds of a fixed workload of the published implementation's kind: SciPy's DE,
    immediate updating, 150 generations of 60 trials (no early stop) on a 4-parameter ridge
    misfit (a small solve per trial). Timed in the same run as the bench, it says how fast the
    machine was: two benches' times compare after dividing each by its own reference."""
    rng = np.random.default_rng(0)
    design = rng.standard_normal((200, 4))
    target = design @ np.array([1.0, -0.5, 0.25, 2.0]) + 0.1 * rng.standard_normal(200)

    def misfit(p: np.ndarray) -> float:
        coef = np.linalg.solve(design.T @ design + np.diag(p * p), design.T @ target)
        return float(np.linalg.norm(design @ coef - target))

    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        differential_evolution(
            misfit, [(-1.0, 1.0)] * 4, seed=0, maxiter=150, tol=0.0, polish=False
        )
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def machine_info() -> dict[str, Any]:
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "blas": [
            {k: d.get(k) for k in ("internal_api", "version", "num_threads")}
            for d in threadpool_info()
        ],
        "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def fit_exponent(x: list[float], y: list[float]) -> float:
    """Slope of log y against log x (least squares)."""
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def _stage_row(
    name: str, suffix: str, extra: list[str], repeats: int, pub: PublishedTiming | None
) -> dict[str, Any]:
    """Median stage times of one benchmark in one optimiser mode, and the published ratio."""
    ov = [f"benchmark={name}", "noise=0.1", *extra]
    others = OtherLoad.start()
    runs = [time_one(ov) for _ in range(repeats)]
    mem = time_one(ov, memory=True)["peak_mb"]
    row: dict[str, Any] = {"benchmark": name + suffix, "repeats": repeats}
    row.update({k: v for k, v in runs[0].items() if k.startswith("de_")})
    for k in ("data_s", "banks_s", "search_s", "refine_s", "total_s"):
        row[k] = statistics.median(r[k] for r in runs)
    ours, speedup, versus = versus_published(ov, pub)
    eval_s = objective_cost(ov)
    floor_s = runs[0]["n_evals"] * eval_s  # the search's evaluations at the batched cost
    row.update(
        peak_mb=mem,
        n_rows=runs[0]["n_rows"],
        n_evals=runs[0]["n_evals"],
        eval_us=1e6 * eval_s,
        floor_s=floor_s,
        search_over_floor=row["search_s"] / floor_s,
        other_cpu=others.share(),
        reference_s=reference_seconds(repeats=1),
        operator_ok=runs[0]["operator_ok"],
        equation=runs[0]["equation"],
        ours_per_extra_seed_s=ours,
        published_per_extra_seed_s=pub.per_extra_seed_s if pub else None,
        speedup=speedup,
    )
    print(
        f"{name + suffix:<26} total {row['total_s']:.2f} s (data {row['data_s']:.2f}, banks "
        f"{row['banks_s']:.2f}, search {row['search_s']:.2f}, refine "
        f"{row['refine_s']:.2f}); peak {mem:.0f} MB; search {row['search_over_floor']:.1f}x its "
        f"floor ({row['n_evals']} evaluations at {row['eval_us']:.2f} us); other processes "
        f"{100 * row['other_cpu']:.0f} % of the cores, reference {row['reference_s']:.3f} s; "
        f"{versus}"
    )
    return row


def stage_rows(benchmarks: list[str], repeats: int, extra: list[str]) -> pd.DataFrame:
    """Per-stage medians per benchmark, then Strong-Pareto totals for the tab:runtime rows."""
    published = published_per_seed()
    rows: list[dict[str, Any]] = []
    for name in benchmarks:
        for suffix, mode in MODES:
            rows.append(_stage_row(name, suffix, [*mode, *extra], repeats, published.get(name)))
    # Strong-Pareto per seed on the benchmarks of the paper's tab:runtime. The published
    # Strong-Pareto was never timed on a quiet machine, so these rows have no ratio.
    for name in [b for b in RUNTIME_BENCHMARKS if b in benchmarks]:
        ov = [f"benchmark={name}", "noise=0.1", "method=strong_pareto", *extra]
        strong = [time_one(ov) for _ in range(repeats)]
        st = statistics.median(r["total_s"] for r in strong)
        print(f"{name + ' strong':<17} total {st:.2f} s; {NO_PUBLISHED}")
        rows.append(
            {
                "benchmark": f"{name} (strong)",
                "repeats": repeats,
                **{k: v for k, v in strong[0].items() if k.startswith("de_")},
                "total_s": st,
                "n_rows": strong[0]["n_rows"],
                "operator_ok": strong[0]["operator_ok"],
                "equation": strong[0]["equation"],
                "ours_per_extra_seed_s": None,
                "published_per_extra_seed_s": None,
                "speedup": None,
            }
        )
    return pd.DataFrame(rows)


def scaling_in_k(repeats: int, extra: list[str]) -> pd.DataFrame:
    """FADE over the paper's K-sensitivity grid; fitted exponents in ``attrs["exponents"]``."""
    krows = []
    for kt, kx in K_GRID:
        ov = ["benchmark=fade", "noise=0.1", f"benchmark.library.test_counts=[{kt},{kx}]", *extra]
        reps = [time_one(ov) for _ in range(max(1, repeats - 1))]
        krows.append(
            {
                "K_t": kt,
                "K_x": kx,
                "K": kt * kx,
                "banks_s": statistics.median(x["banks_s"] for x in reps),
                "search_s": statistics.median(x["search_s"] for x in reps),
                "total_s": statistics.median(x["total_s"] for x in reps),
                "eval_us": 1e6 * objective_cost(ov),
            }
        )
        print(
            f"K={kt * kx:<5} total {krows[-1]['total_s']:.2f} s, banks "
            f"{krows[-1]['banks_s']:.3f} s, objective {krows[-1]['eval_us']:.2f} us"
        )
    kdf = pd.DataFrame(krows)
    ks = kdf["K"].tolist()
    exps = {
        c: fit_exponent(ks, kdf[c].tolist()) for c in ("banks_s", "search_s", "total_s", "eval_us")
    }
    print("exponents vs K: " + ", ".join(f"{k} {v:.2f}" for k, v in exps.items()))
    kdf.attrs["exponents"] = exps
    return kdf


def scaling_in_grid(extra: list[str]) -> pd.DataFrame:
    """Burgers on growing output grids; fitted exponents in ``attrs["exponents"]``."""
    grows = []
    for nt, nx in GRID_SIZES:
        ov = [
            "benchmark=burgers",
            "noise=0.1",
            f"benchmark.grid.nt={nt}",
            f"benchmark.grid.nx={nx}",
            *extra,
        ]
        r = time_one(ov)
        grows.append(
            {
                "nt": nt,
                "nx": nx,
                "N": nt * nx,
                "K": r["n_rows"],
                "data_s": r["data_s"],
                "banks_s": r["banks_s"],
                "search_s": r["search_s"],
                "total_s": r["total_s"],
            }
        )
        print(
            f"grid {nt}x{nx}: total {r['total_s']:.2f} s (banks {r['banks_s']:.3f}, "
            f"K={r['n_rows']})"
        )
    gdf = pd.DataFrame(grows)
    ns = gdf["N"].tolist()
    gexps = {c: fit_exponent(ns, gdf[c].tolist()) for c in ("banks_s", "total_s")}
    print("exponents vs N = nt*nx: " + ", ".join(f"{k} {v:.2f}" for k, v in gexps.items()))
    gdf.attrs["exponents"] = gexps
    return gdf


def run_bench(
    out_dir: Path,
    benchmarks: list[str],
    repeats: int,
    scaling: bool,
    extra: list[str],
    uncertainty: bool = False,
    startup: bool = False,
    large: tuple[tuple[int, int], ...] = (),
    large_method: str = "weak_pareto_exact",
) -> dict[str, pd.DataFrame]:
    """Run the bench with one BLAS thread and write ``out_dir/*.csv`` and ``*.json``; with
    ``uncertainty`` also the cost of ``uncertainty=bootstrap`` (B = 200, FADE 10 %) against one
    fit (``uncertainty_cost.csv``, :mod:`weakpareto.campaign.bench_uncertainty`); with
    ``startup`` the whole-process start-up of ``wp`` commands (``startup.csv``,
    :mod:`weakpareto.campaign.bench_startup`); with ``large`` sizes the time and peak memory of
    one fit of a large field per size (``large_fields.csv``,
    :mod:`weakpareto.campaign.bench_large`)."""
    tables: dict[str, pd.DataFrame] = {}
    with threadpool_limits(1):
        tables["stages"] = stage_rows(benchmarks, repeats, extra)
        if scaling:
            tables["scaling_K"] = scaling_in_k(repeats, extra)
            tables["scaling_grid"] = scaling_in_grid(extra)
            exps = dict(tables["scaling_K"].attrs["exponents"])
            exps.update(
                {f"grid_{k}": v for k, v in tables["scaling_grid"].attrs["exponents"].items()}
            )
            write_json_atomic(out_dir / "exponents.json", exps, make_parents=True)
    for name, df in tables.items():
        write_csv_atomic(df, out_dir / f"{name}.csv")
    if uncertainty:
        cost = uncertainty_cost("fade", 0.1, n_boot=200, repeats=repeats, overrides=extra)
        write_uncertainty_cost(out_dir, cost)
        row = cost.iloc[0]
        print(
            f"uncertainty=bootstrap B={int(row['n_boot'])} (fade 10 %): fit {row['fit_s']:.2f} s, "
            f"bootstrap {row['bootstrap_s']:.2f} s = {row['bootstrap_s'] / row['fit_s']:.2f}x the "
            f"fit -> (fit+boot)/fit {row['ratio']:.2f} (target <= 3)"
        )
        tables["uncertainty_cost"] = cost
    if startup:
        tables["startup"] = startup_times(repeats)
        write_startup(out_dir, tables["startup"])
    if large:
        tables["large_fields"] = large_field_rows(list(large), large_method, repeats)
        write_large_fields(out_dir, tables["large_fields"])
    others = OtherLoad.start()
    with threadpool_limits(1):
        speed = {"reference_s": reference_seconds(), "load_1m": load_average()}
    speed["other_cpu"] = others.share()
    print(
        f"machine: reference workload {speed['reference_s']:.3f} s (SciPy DE, immediate), "
        f"other processes {100 * speed['other_cpu']:.0f} % of the cores, load average "
        f"{speed['load_1m']:.2f}"
    )
    write_json_atomic(out_dir / "machine.json", {**machine_info(), **speed}, make_parents=True)
    return tables


def bench_command(args: list[str]) -> tuple[Path, dict[str, pd.DataFrame]]:
    """Entry point of ``wp bench`` (``key=value`` options, see :data:`OPTIONS`): the output
    directory and the tables written there."""
    bad_tokens = [a for a in args if "=" not in a]
    opts = dict(a.split("=", 1) for a in args if "=" in a)
    bad = sorted(set(opts) - set(OPTIONS))
    if bad or bad_tokens:
        raise UserInputError(
            f"wp bench takes key=value options {sorted(OPTIONS)}; got {bad + bad_tokens}"
        )
    opts = {**OPTIONS, **opts}
    names = [n.strip() for n in opts["benchmarks"].strip("[]").split(",") if n.strip()]
    if not names:
        raise UserInputError("benchmarks= is empty; e.g. benchmarks=fade,burgers")
    try:
        repeats = int(opts["repeats"])
    except ValueError:
        raise UserInputError(
            f"repeats={opts['repeats']} is not an integer; e.g. repeats=3"
        ) from None
    if repeats < 1:
        raise UserInputError(f"repeats={repeats} must be >= 1; e.g. repeats=3")
    flags = {}
    for key in ("scaling", "uncertainty", "startup"):
        flag = opts[key].lower()
        if flag not in ("1", "true", "yes", "0", "false", "no"):
            raise UserInputError(f"{key}={opts[key]} must be true or false; e.g. {key}=true")
        flags[key] = flag in ("1", "true", "yes")
    large = tuple(parse_sizes(opts["large"]))
    if opts["large_method"] not in LARGE_METHODS:
        raise UserInputError(
            f"large_method={opts['large_method']} is not one of {list(LARGE_METHODS)}"
        )
    extra = [o for o in opts["overrides"].split(";") if o]
    for name in names:  # unknown benchmark names or overrides fail before any timing
        compose_checked([f"benchmark={name}", *extra])
    out_dir = writable_dir(opts["out_dir"], "out_dir")  # last: bad input leaves no directory
    tables = run_bench(
        out_dir, names, repeats, flags["scaling"], extra, flags["uncertainty"], flags["startup"],
        large, opts["large_method"],
    )  # fmt: skip
    return out_dir, tables
