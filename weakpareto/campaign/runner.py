"""``wp run``: discovery over seeds for one composed config (one Hydra job).

Per seed: generate the benchmark field (seed-dependent where the paper's is), add the seeded
noise realisation (shared by every method for the same seed, spec §2), build the method's
feature source, run discovery, score against the benchmark truth and write one Parquet row plus
the Pareto front atomically. Existing (config, seed) results are skipped unless
``overwrite=true``; a failing seed is recorded with its error and the others go on.
"""

from __future__ import annotations

import json
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, cast

import hydra
import numpy as np
import pandas as pd
from omegaconf import DictConfig, OmegaConf
from threadpoolctl import threadpool_limits
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
from weakpareto.campaign import store as res
from weakpareto.campaign.config import config_hash, discovery_config, noise_seed, validate_run
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


@dataclass(frozen=True)
class SeedOutcome:
    seed: int
    row: dict[str, Any]
    skipped: bool


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


def run_seed(
    cfg_container: dict, seed: int, overwrite: bool, results_dir: str, progress: Any = None
) -> SeedOutcome:
    """Run (or resume) one seed and write its Parquet files; never raises for a failing seed."""
    cfg = OmegaConf.create(cfg_container)
    key = run_key(cfg, seed)
    path = res.run_path(results_dir, key)
    if path.exists() and not overwrite:
        df = pd.read_parquet(path)
        return SeedOutcome(seed, cast(dict[str, Any], df.iloc[0].to_dict()), skipped=True)
    truth = truth_equation(cfg.benchmark)
    extra: dict[str, Any] = {
        "label": str(cfg.benchmark.get("label", cfg.benchmark.name)),
        "experiment": str(cfg.experiment),
        "config_json": json.dumps(OmegaConf.to_container(cfg, resolve=True), default=str),
        "weakpareto_version": __version__,
    }
    t0 = time.perf_counter()
    try:
        result = discover_seed(cfg, seed, progress)
        runtime = time.perf_counter() - t0
        metrics = score(result.final, truth)
        row = res.run_record(result, metrics, key, truth=truth, runtime=runtime, **extra)
        fronts = res.front_records(result, key)
    except Exception as err:  # record the failure, keep going with other seeds
        runtime = time.perf_counter() - t0
        msg = f"{type(err).__name__}: {err}"
        tb = traceback.format_exc(limit=3)
        row = res.run_record(
            None, None, key, truth=truth, runtime=runtime, error=f"{msg}\n{tb}", **extra
        )
        fronts = []
    res.write_front_and_run(path, row, fronts)
    return SeedOutcome(seed, row, skipped=False)


def _limit_threads() -> None:
    threadpool_limits(1)


def run_config(cfg: DictConfig) -> list[SeedOutcome]:
    """All seeds of one config, serially or in a process pool (one BLAS thread per worker)."""
    validate_run(cfg)
    container = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(container, dict)  # cfg is a DictConfig
    seeds = list(range(int(cfg.seed), int(cfg.seed) + int(cfg.seeds)))
    results_dir = str(cfg.results_dir)
    overwrite = bool(cfg.overwrite)
    workers = min(int(cfg.workers), len(seeds))
    desc = f"{cfg.benchmark.name} {cfg.method.name} {100 * float(cfg.noise):g}%"
    bar = tqdm(total=len(seeds), desc=desc, unit="seed", disable=not cfg.progress, leave=False)
    outcomes: list[SeedOutcome] = []
    if workers <= 1:
        for s in seeds:
            # serial runs also show the search stage (support size, power pattern)
            def stage(text: str, s: int = s) -> None:
                bar.set_postfix_str(f"seed {s}: {text}", refresh=True)

            outcomes.append(run_seed(container, s, overwrite, results_dir, stage))
            bar.update()
    else:
        with ProcessPoolExecutor(max_workers=workers, initializer=_limit_threads) as pool:
            futs = [pool.submit(run_seed, container, s, overwrite, results_dir) for s in seeds]
            for f in as_completed(futs):
                outcomes.append(f.result())
                bar.update()
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
    for o in outcomes:
        r = o.row
        tag = " (cached)" if o.skipped else ""
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
    print(
        f"  support/power {len(sup)}/{n}, operator {sum(bool(r['operator_ok']) for r in ok)}/{n}"
        f", failed {n - len(ok)}"
    )
    for k in ("e_alpha", "e_beta_max", "e_xi_max", "e_xi_2"):
        print(f"  {k:<10} {_fmt([r[k] for r in sup])}  (over support-recovered runs)")
    print(f"  E_fit      {_fmt([r['fit_error'] for r in ok])}  (over all runs)")


@hydra.main(version_base="1.3", config_path="pkg://weakpareto.conf", config_name="config")
def _hydra_task(cfg: DictConfig) -> None:
    run_config(cfg)


def hydra_run_entry() -> None:
    """Entry point used by ``wp run`` after validation (sys.argv holds the overrides)."""
    _hydra_task()
