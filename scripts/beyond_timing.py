"""Per-seed time of weak_pareto_exact against the paper's method and weak_pareto_robust.

The same cells, seeds and noise realisations, run one after the other in one process on this
machine, all with the fast deferred DE (the mode the new method runs in), so the ratios compare
like with like. Writes ``results/bench/beyond_timing.csv`` atomically; the ``.md`` (mean seconds
per cell) is rendered from it (:mod:`weakpareto.reporting.studies.bench`, also by ``wp report``).

    python scripts/beyond_timing.py [--seeds 2]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from weakpareto.campaign.compose import compose_config
from weakpareto.campaign.compute import discover_seed
from weakpareto.io import write_csv_atomic
from weakpareto.reporting.studies.bench import TIMING_STEM as STEM
from weakpareto.reporting.studies.registry import write_study

CELLS = (("fade", 0.1), ("burgers", 0.1), ("rd_space", 0.02), ("rd_timespace", 0.02),
         ("superunit", 0.01), ("tf_riesz", 0.0))  # fmt: skip
METHODS = {
    "weak_pareto": ["method=weak_pareto"],
    "weak_pareto_robust": ["method=weak_pareto_robust", "selection=gain"],
    "weak_pareto_exact": ["method=weak_pareto_exact", "selection=gain"],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--out-dir", default="results/bench")
    args = ap.parse_args()
    rows = []
    for bench, noise in CELLS:
        for seed in range(args.seeds):
            for name, extra in METHODS.items():
                cfg = compose_config([f"benchmark={bench}", f"noise={noise}", *extra])
                t0 = time.perf_counter()
                discover_seed(cfg, seed)
                rows.append(dict(benchmark=bench, noise=noise, seed=seed, method=name,
                                 seconds=time.perf_counter() - t0))  # fmt: skip
    df = pd.DataFrame(rows)
    out = Path(args.out_dir)
    write_csv_atomic(df, out / f"{STEM}.csv")
    write_study(STEM, out)
    print(out / f"{STEM}.md")


if __name__ == "__main__":
    main()
