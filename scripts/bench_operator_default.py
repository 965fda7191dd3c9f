"""Benchmark: the users' door without ``operator`` (each term's family chosen by the data) against
the one-family fit of the data's own family, on the same fields and seeds.

Per case and seed, one ``WeakPareto`` fit with ``operator=<the truth's family>`` and one without
``operator`` (default method, the benchmark's ranges and powers, seed = noise seed), interleaved
in one process with one BLAS thread. Reports the recovery counts (support and operator as
``wp run`` scores them, plus "every term in the truth's family") and the time ratio
default / one family (sums over the seeds). Writes results/bench/operator_default.{csv,md}.

    python scripts/bench_operator_default.py [--seeds 5] [--out-dir results/bench] [--render LOAD]
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pandas as pd
from threadpoolctl import threadpool_limits

from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.benchmarks.particles import levy_drift_case
from weakpareto.campaign.compose import compose_config
from weakpareto.campaign.compute import noisy_field
from weakpareto.evaluation.metrics import score, truth_equation
from weakpareto.io import write_csv_atomic
from weakpareto.records import Equation
from weakpareto.user.estimator import WeakPareto

#: (benchmark, noise) of the paper's tables the users' door is checked on
BENCHMARKS = (("fade", 0.05), ("burgers", 0.1), ("rd_timespace", 0.02), ("rd_space", 0.02))
DRIFT_RANGES = {"alpha_range": (0.6, 1.1), "beta_range": (0.5, 2.2), "powers": (0,)}


def fields(seeds: int) -> list[dict[str, Any]]:
    """Every (case, seed): the noisy field, its truth, the one family and the settings."""
    out = []
    for bench, noise in BENCHMARKS:
        cfg = compose_config([f"benchmark={bench}", f"noise={noise}"])
        lib = cfg.benchmark.library
        truth = truth_equation(cfg.benchmark)
        settings = {
            "alpha_range": tuple(lib.alpha_range),
            "beta_range": tuple(lib.beta_range),
            "powers": tuple(lib.powers),
        }
        for seed in range(seeds):
            field, u = noisy_field(cfg, seed)
            out.append(
                dict(case=bench, noise=noise, seed=seed, u=u, t=field.t, x=field.x, truth=truth,
                     family=str(lib.operator), settings=settings)
            )  # fmt: skip
    drift_cfg = levy_drift_case(1.0)
    drift = generate(drift_cfg, 0)
    truth = with_families(truth_equation(drift_cfg), drift_cfg["truth"]["terms"])
    for noise in (0.0, 0.01):
        for seed in range(seeds if noise else 1):
            u = add_noise(drift.u, "additive_gaussian", noise, seed) if noise else drift.u
            out.append(
                dict(case="levy_drift", noise=noise, seed=seed, u=u, t=drift.t, x=drift.x,
                     truth=truth, family="directional", settings=DRIFT_RANGES)
            )  # fmt: skip
    return out


def with_families(eq: Equation, terms: list[dict[str, Any]]) -> Equation:
    """``eq`` with each term's ``family`` from the config (``truth_equation`` keeps none)."""
    fam = [d.get("family") for d in terms]
    return dataclasses.replace(
        eq,
        terms=tuple(dataclasses.replace(t, family=f) for t, f in zip(eq.terms, fam, strict=True)),
    )


def families_ok(estimate: Equation, truth: Equation) -> bool:
    """The estimate's terms are the truth's (power, family) multiset (the identity has none)."""

    def kinds(eq: Equation) -> list[tuple[int, str]]:
        family = ("" if t.is_identity else t.family_in(eq.operator) for t in eq.terms)
        return sorted(zip((t.power for t in eq.terms), family, strict=True))

    return kinds(estimate) == kinds(truth)


def run(seeds: int) -> pd.DataFrame:
    rows = []
    with threadpool_limits(1):
        for case in fields(seeds):
            for label, operator in (("one family", case["family"]), ("default", None)):
                model = WeakPareto(operator=operator, seed=case["seed"], **case["settings"])
                t0 = time.perf_counter()
                model.fit(case["u"], case["t"], case["x"])
                seconds = time.perf_counter() - t0
                sc = score(model.equation_, case["truth"])
                rows.append(
                    {
                        "case": case["case"],
                        "noise": case["noise"],
                        "seed": case["seed"],
                        "fit": label,
                        "operator": model.grid_["operator"],
                        "equation": model.equation_.text(sig_digits=4),
                        "support_ok": bool(sc.support_ok),
                        "operator_ok": bool(sc.support_ok and sc.operator_ok),
                        "families_ok": families_ok(model.equation_, case["truth"]),
                        "seconds": round(seconds, 3),
                    }
                )
                print(rows[-1], flush=True)
    return pd.DataFrame(rows)


def summary(df: pd.DataFrame, load: float) -> str:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    lines = [
        "# The users' door without `operator`: cost and recovery",
        "",
        "`scripts/bench_operator_default.py`: per case and seed one `WeakPareto` fit with the "
        "truth's own family (`operator=directional` or `riesz`; for the Lévy flight with drift, "
        "which needs both, the directional family) and one without `operator` "
        "(each term's family chosen by the data, `operator=auto`), default method, the "
        "benchmark's ranges and powers, seed = noise seed, interleaved in one process, one BLAS "
        f"thread. Commit {commit}, {datetime.date.today()}, 1-minute load average {load:.2f} "
        "at the start (2 cores).",
        "",
        "| case | noise | seeds | fit | support | operator | families | time s | default / one |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for (case, noise), g in df.groupby(["case", "noise"], sort=False):
        times = g.groupby("fit")["seconds"].sum()
        ratio = times["default"] / times["one family"]
        for fit, h in g.groupby("fit", sort=False):
            n = len(h)
            lines.append(
                f"| {case} | {noise:g} | {n} | {fit} | {int(h.support_ok.sum())}/{n} | "
                f"{int(h.operator_ok.sum())}/{n} | {int(h.families_ok.sum())}/{n} | "
                f"{h.seconds.sum():.1f} | {ratio:.2f} |"
            )
    total = df.groupby("fit")["seconds"].sum()
    lines += [
        "",
        f"All cases: default / one family = {total['default'] / total['one family']:.2f} "
        f"({total['default']:.1f} s against {total['one family']:.1f} s).",
        "",
        "support and operator: `wp run`'s scores (`weakpareto.evaluation.metrics.score`); "
        "families: the estimate's terms are the truth's (power, family) pairs.",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--out-dir", type=Path, default=Path("results/bench"))
    ap.add_argument(
        "--render",
        type=float,
        default=None,
        metavar="LOAD",
        help="only re-render the .md from the CSV (the load recorded at its run)",
    )
    args = ap.parse_args()
    if args.render is not None:
        df = pd.read_csv(args.out_dir / "operator_default.csv")
        (args.out_dir / "operator_default.md").write_text(summary(df, args.render))
        return
    load = os.getloadavg()[0]
    df = run(args.seeds)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    write_csv_atomic(df, args.out_dir / "operator_default.csv")
    (args.out_dir / "operator_default.md").write_text(summary(df, load))
    print(summary(df, load))


if __name__ == "__main__":
    main()
