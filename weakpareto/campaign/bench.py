"""``wp bench``: per-seed wall time and peak memory per stage, and scaling in K and grid size.

Stages: data (generate + noise), banks (weak library, order banks, Gram tables), search
(support-size sweep), refine (pruning, exact-order polishing, refit). Timings are medians over
``repeats`` runs with one BLAS thread, compared with the published implementation's per-seed
times measured on this machine kind (issue 6, 2026-11-25). Results go to ``results/bench/``.

Expected complexity (paper Sec. 4.6): banks cost O(G (K_t N + K n_x)) — linear in K at fixed
grid — and the Gram tables O(M^2 K); after that one objective evaluation is O(c^2) lookups plus a
c x c solve, independent of K. Growing the grid raises N = n_t n_x linearly (FFTs add a log).
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from weakpareto.campaign.config import UserInputError, discovery_config
from weakpareto.io import atomic_path

PUBLISHED_S = {"fade": 26.5, "burgers": 32.7, "rd_space": 17.2, "rd_timespace": 13.3}
PUBLISHED_STRONG_S = {"fade": 14.2}
RUNTIME_BENCHMARKS = ("fade", "rd_space", "burgers")  # paper tab:runtime rows
K_GRID = [(15, 21), (22, 30), (31, 43), (44, 60), (62, 85)]  # paper tab:ksens
GRID_SIZES = [(150, 120), (300, 240), (600, 480)]  # Burgers output grid (nt, nx)


def _compose(overrides: list[str]):
    from weakpareto.cli import compose_config

    return compose_config(overrides)


def time_one(overrides: list[str], seed: int = 0, memory: bool = False) -> dict[str, Any]:
    """Time the stages of one discovery; optionally record the tracemalloc peak instead."""
    from weakpareto.benchmarks.generators import generate
    from weakpareto.benchmarks.noise import add_noise
    from weakpareto.campaign.runner import build_source
    from weakpareto.evaluation.metrics import score, truth_equation
    from weakpareto.method.discovery import Discovery

    cfg = _compose(overrides)
    if memory:
        tracemalloc.start()
    t0 = time.perf_counter()
    field = generate(cfg.benchmark, seed)
    noise = float(cfg.noise)
    u = add_noise(field.u, str(cfg.noise_law.name), noise, seed) if noise > 0 else field.u
    t1 = time.perf_counter()
    source = build_source(cfg, u, field.t, field.x)
    disc = Discovery(source, discovery_config(cfg, seed))
    t2 = time.perf_counter()
    result = disc.run()
    t3 = time.perf_counter()
    out: dict[str, Any] = {
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


def objective_cost(overrides: list[str], n: int = 2000, seed: int = 0) -> float:
    """Seconds per objective evaluation (batched, c = 2, fractional branch)."""
    from weakpareto.benchmarks.generators import generate
    from weakpareto.benchmarks.noise import add_noise
    from weakpareto.campaign.runner import build_source
    from weakpareto.method.discovery import Discovery

    cfg = _compose(overrides)
    field = generate(cfg.benchmark, seed)
    u = add_noise(field.u, str(cfg.noise_law.name), float(cfg.noise), seed)
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


def machine_info() -> dict[str, Any]:
    import scipy
    from threadpoolctl import threadpool_info

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


def _write_csv(df: pd.DataFrame, path: Path) -> None:
    with atomic_path(path) as tmp:
        df.to_csv(tmp, index=False)


def run_bench(
    out_dir: Path,
    benchmarks: list[str],
    repeats: int,
    scaling: bool,
    extra: list[str],
) -> dict[str, pd.DataFrame]:
    from threadpoolctl import threadpool_limits

    out_dir.mkdir(parents=True, exist_ok=True)
    tables: dict[str, pd.DataFrame] = {}
    with threadpool_limits(1):
        rows = []
        for name in benchmarks:
            ov = [f"benchmark={name}", "noise=0.1", *extra]
            runs = [time_one(ov) for _ in range(repeats)]
            mem = time_one(ov, memory=True)["peak_mb"]
            row: dict[str, Any] = {"benchmark": name, "repeats": repeats}
            for k in ("data_s", "banks_s", "search_s", "refine_s", "total_s"):
                row[k] = statistics.median(r[k] for r in runs)
            row.update(
                peak_mb=mem,
                n_rows=runs[0]["n_rows"],
                n_evals=runs[0]["n_evals"],
                operator_ok=runs[0]["operator_ok"],
                equation=runs[0]["equation"],
            )
            pub = PUBLISHED_S.get(name)
            row["published_s"] = pub
            row["speedup"] = pub / row["total_s"] if pub else None
            rows.append(row)
            print(
                f"{name:<13} total {row['total_s']:.2f} s (data {row['data_s']:.2f}, banks "
                f"{row['banks_s']:.2f}, search {row['search_s']:.2f}, refine "
                f"{row['refine_s']:.2f}); peak {mem:.0f} MB; published {pub} s -> "
                f"{row['speedup']:.1f}x faster"
                if pub
                else ""
            )
        tables["stages"] = pd.DataFrame(rows)
        # Strong-Pareto per seed on the benchmarks of the paper's tab:runtime
        for name in [b for b in RUNTIME_BENCHMARKS if b in benchmarks]:
            strong = [
                time_one([f"benchmark={name}", "noise=0.1", "method=strong_pareto", *extra])
                for _ in range(repeats)
            ]
            st = statistics.median(r["total_s"] for r in strong)
            pub = PUBLISHED_STRONG_S.get(name)
            ratio = f"; published {pub} s -> {pub / st:.1f}x faster" if pub else ""
            print(f"{name + ' strong':<13} total {st:.2f} s{ratio}")
            tables["stages"].loc[len(tables["stages"])] = {
                "benchmark": f"{name} (strong)",
                "repeats": repeats,
                "total_s": st,
                "published_s": pub,
                "speedup": pub / st if pub else None,
                "n_rows": strong[0]["n_rows"],
                "operator_ok": strong[0]["operator_ok"],
                "equation": strong[0]["equation"],
            }
        if scaling:
            krows = []
            for kt, kx in K_GRID:
                ov = [
                    "benchmark=fade",
                    "noise=0.1",
                    f"benchmark.library.test_counts=[{kt},{kx}]",
                    *extra,
                ]
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
                c: fit_exponent(ks, kdf[c].tolist())
                for c in ("banks_s", "search_s", "total_s", "eval_us")
            }
            print("exponents vs K: " + ", ".join(f"{k} {v:.2f}" for k, v in exps.items()))
            kdf.attrs["exponents"] = exps
            tables["scaling_K"] = kdf
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
            tables["scaling_grid"] = gdf
            exps.update({f"grid_{k}": v for k, v in gexps.items()})
            (out_dir / "exponents.json").write_text(json.dumps(exps, indent=2))
    for name, df in tables.items():
        _write_csv(df, out_dir / f"{name}.csv")
    (out_dir / "machine.json").write_text(json.dumps(machine_info(), indent=2))
    return tables


def bench_command(args: list[str]) -> None:
    if "--help" in args or "-h" in args:
        print(
            "wp bench [benchmarks=fade,burgers,rd_space,rd_timespace] [repeats=3] "
            "[scaling=true] [out_dir=results/bench] [overrides='search.maxiter=24;...']"
        )
        return
    opts = dict(a.split("=", 1) for a in args if "=" in a)
    valid = {"benchmarks", "repeats", "scaling", "out_dir", "overrides"}
    bad = set(opts) - valid
    if bad or any("=" not in a for a in args):
        raise UserInputError(f"wp bench takes key=value options {sorted(valid)}; got {args}")
    names = opts.get("benchmarks", "fade,burgers,rd_space,rd_timespace").strip("[]").split(",")
    try:
        repeats = int(opts.get("repeats", "3"))
    except ValueError:
        raise UserInputError("repeats must be an integer, e.g. repeats=3") from None
    if repeats < 1:
        raise UserInputError("repeats must be >= 1")
    scaling = opts.get("scaling", "true").lower() in ("1", "true", "yes")
    extra = [o for o in opts.get("overrides", "").split(";") if o]
    run_bench(Path(opts.get("out_dir", "results/bench")), names, repeats, scaling, extra)
