"""Weak-Pareto (paper) vs weak_pareto_robust (ours) on the same fields, noise and seeds.

For every (benchmark, noise, seed) cell both methods run on the identical noisy field and weak
library: the paper's configuration (``wp run`` defaults) and the same configuration with
``method=weak_pareto_robust selection=gain``. Writes ``results/bench/robust_vs_paper.csv`` (one
row per run) atomically; ``robust_vs_paper.md`` (recovery counts and mean errors per cell) is
rendered from it (:mod:`weakpareto.reporting.studies.bench`, also by ``wp report``).

    python scripts/compare_robust.py [--out-dir results/bench] [--quick]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.campaign.compose import compose_config
from weakpareto.campaign.compute import build_source
from weakpareto.campaign.config import discovery_config, noise_seed
from weakpareto.evaluation.metrics import score, truth_equation
from weakpareto.io import write_csv_atomic
from weakpareto.method.discovery import discover
from weakpareto.reporting.studies.bench import ROBUST_STEM as STEM
from weakpareto.reporting.studies.registry import write_study

#: (benchmarks, noise levels, seeds): integer-order fields the paper does not have, the paper's
#: main table cells, and low-noise cells where the ridge bias shows.
CELLS = (
    (("ks", "kdv"), (0.0, 0.01, 0.05), 3),
    (("fade", "burgers", "rd_space", "rd_timespace"), (0.1,), 5),
    (("fade", "burgers", "rd_space", "rd_timespace", "riesz2", "superunit"), (0.0, 0.01), 2),
)
METHODS = {"paper": [], "robust": ["method=weak_pareto_robust", "selection=gain"]}


def run_cell(bench: str, noise: float, seed: int) -> list[dict]:
    rows = []
    base = compose_config([f"benchmark={bench}", f"noise={noise}"])
    field = generate(base.benchmark, seed)
    law = str(base.noise_law.name)
    u = add_noise(field.u, law, noise, noise_seed(base, seed)) if noise > 0 else field.u
    source = build_source(base, u, field.t, field.x)
    truth = truth_equation(base.benchmark)
    for name, extra in METHODS.items():
        cfg = compose_config([f"benchmark={bench}", f"noise={noise}", *extra])
        t0 = time.perf_counter()
        result = discover(source, discovery_config(cfg, seed))
        m = score(result.final, truth)
        rows.append(
            dict(
                benchmark=bench, noise=noise, seed=seed, method=name,
                runtime_s=time.perf_counter() - t0, equation=result.final.text(sig_digits=4),
                fit_error=result.fit_error, **m.as_row(),
            )
        )  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out-dir", type=Path, default=Path("results/bench"))
    ap.add_argument("--quick", action="store_true", help="one seed per cell")
    args = ap.parse_args(argv)
    rows = []
    for benches, noises, seeds in CELLS:
        for bench in benches:
            for noise in noises:
                for seed in range(1 if args.quick else seeds):
                    rows += run_cell(bench, noise, seed)
                    print(rows[-2]["benchmark"], noise, seed, "done", flush=True)
    df = pd.DataFrame(rows)
    write_csv_atomic(df, args.out_dir / f"{STEM}.csv")
    write_study(STEM, args.out_dir)
    print((args.out_dir / f"{STEM}.md").read_text(encoding="utf-8"), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
