"""Benchmark: how long `wp report` takes to read N stored runs (default 10 000), per layout.

Writes N synthetic runs (real schemas, two front rows each; weakpareto.campaign.synthetic) over
4 benchmarks x 5 noise levels in three layouts and times ``load_runs`` + ``load_fronts`` (what
``wp report`` reads) on each, best of ``--repeats``:

* ``dataset, compacted``: the partitioned dataset after ``wp compact`` (one file per partition);
* ``dataset, one file per seed``: as cluster jobs leave it before compaction;
* ``per-seed files (older layout)``: one run file and one front file per seed.

Target: the compacted dataset of 10 000 runs reads in under a second. Writes
results/bench/dataset_read.csv and its sidecar dataset_read.json (runs, cores, target); the .md
is rendered from both (:mod:`weakpareto.reporting.studies.bench`, also by ``wp report``).

    python scripts/bench_dataset_read.py [--runs 10000] [--repeats 3] [--out-dir results/bench]
        [--layouts compacted,per-seed,older]   (a subset keeps the other rows of the CSV)
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from weakpareto.campaign import compact, dataset
from weakpareto.campaign import store as res
from weakpareto.campaign.synthetic import grid_keys, synthetic_seed
from weakpareto.io import write_csv_atomic
from weakpareto.reporting.studies.bench import DATASET_STEM as STEM
from weakpareto.reporting.studies.bench import dataset_notes
from weakpareto.reporting.studies.common import write_notes
from weakpareto.reporting.studies.registry import write_study

TARGET_S = 1.0


def _rows(n: int) -> list[tuple]:
    out = []
    for key in grid_keys(n):
        row, fronts = synthetic_seed(key)
        out.append((key, row, fronts))
    return out


def write_compacted(root: Path, rows: list[tuple]) -> None:
    """One file per partition, as `wp compact` leaves it."""
    runs = pd.DataFrame([r for _, r, _ in rows], columns=res.RUNS_SCHEMA.names)
    fronts = pd.DataFrame([f for _, _, fs in rows for f in fs], columns=res.FRONT_SCHEMA.names)
    for kind, df in ((dataset.RUNS, runs), (dataset.FRONTS, fronts)):
        for (bench, method, noise), part in df.groupby(list(dataset.PARTITIONS)):
            key = res.RunKey(str(bench), str(method), "", "", float(noise), 0, "")
            directory = dataset.partition_dir(root, kind, key)
            dataset.write_table(part, kind, directory / f"{dataset.PART_PREFIX}0.parquet")


def write_per_seed_dataset(root: Path, rows: list[tuple]) -> None:
    for key, row, fronts in rows:
        dataset.write_seed(root, key, row, fronts)


def write_legacy(root: Path, rows: list[tuple]) -> None:
    for key, row, fronts in rows:
        res.write_front_and_run(res.run_path(root, key), row, fronts)


def time_read(root: Path, repeats: int) -> tuple[float, int, int]:
    """Best wall time of load_runs + load_fronts, and the row counts."""
    best, n_runs, n_fronts = float("inf"), 0, 0
    for _ in range(repeats):
        t0 = time.perf_counter()
        runs, fronts = res.load_runs(root), res.load_fronts(root)
        best = min(best, time.perf_counter() - t0)
        n_runs, n_fronts = len(runs), len(fronts)
    return best, n_runs, n_fronts


LAYOUTS: list[tuple[str, Callable[[Path, list[tuple]], None]]] = [
    ("dataset, compacted", write_compacted),
    ("dataset, one file per seed", write_per_seed_dataset),
    ("per-seed files (older layout)", write_legacy),
]
SHORT = {"compacted": LAYOUTS[0][0], "per-seed": LAYOUTS[1][0], "older": LAYOUTS[2][0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out-dir", default="results/bench")
    ap.add_argument("--layouts", default=",".join(SHORT))
    args = ap.parse_args()
    rows = _rows(args.runs)
    wanted = {SHORT[s] for s in args.layouts.split(",")}
    layouts = [(name, write) for name, write in LAYOUTS if name in wanted]
    out = Path(args.out_dir)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, write in layouts:
            root = Path(tmp) / name.replace(" ", "_").replace(",", "")
            write(root, rows)
            files = sum(1 for _ in root.rglob("*.parquet"))
            seconds, n_runs, n_fronts = time_read(root, args.repeats)
            results.append(
                {
                    "layout": name,
                    "runs": n_runs,
                    "front_rows": n_fronts,
                    "files": files,
                    "read_s": round(seconds, 3),
                }
            )
            print(results[-1], flush=True)
            if name == "dataset, one file per seed":  # and what `wp compact` makes of it
                t0 = time.perf_counter()
                compact.compact(root)
                results[-1]["compact_s"] = round(time.perf_counter() - t0, 2)
            results[-1]["load_avg_1min"] = round(os.getloadavg()[0], 1)
            results[-1]["repeats"] = args.repeats
    csv = out / f"{STEM}.csv"
    if csv.is_file() and len(layouts) < len(LAYOUTS):  # keep the rows not measured now
        kept = pd.read_csv(csv)
        kept = kept.loc[~kept["layout"].isin([r["layout"] for r in results])]
        results = results + kept.to_dict("records")
    order = [name for name, _ in LAYOUTS]
    results.sort(key=lambda r: order.index(r["layout"]))
    df = pd.DataFrame(results)
    write_csv_atomic(df, csv)
    write_notes(out, STEM, dataset_notes(args.runs, os.cpu_count(), TARGET_S))
    write_study(STEM, out)
    print((out / f"{STEM}.md").read_text(encoding="utf-8"), end="")


if __name__ == "__main__":
    main()
