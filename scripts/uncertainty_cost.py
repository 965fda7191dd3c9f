"""Cost of ``uncertainty=bootstrap``: one fit and its bootstrap (B = 200) on FADE at 10 % noise.

Writes ``<out-dir>/uncertainty_cost.{csv,md}`` (:mod:`weakpareto.campaign.bench_uncertainty`;
one BLAS thread, medians over ``--repeats``). Cost target: (fit + bootstrap) / fit <= 3.

    python scripts/uncertainty_cost.py [--out-dir results/bench] [--repeats 5] [--n-boot 200]
"""

from __future__ import annotations

import argparse

from weakpareto.campaign.bench_uncertainty import uncertainty_cost, write_uncertainty_cost
from weakpareto.reporting.studies.bench import uncertainty_cost_markdown


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out-dir", default="results/bench")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--n-boot", type=int, default=200)
    args = ap.parse_args()
    df = uncertainty_cost("fade", 0.1, n_boot=args.n_boot, repeats=args.repeats)
    write_uncertainty_cost(args.out_dir, df)
    print(uncertainty_cost_markdown(df), end="")


if __name__ == "__main__":
    main()
