"""tab:main recovery with immediate (the paper's DE updating; experiment=main) vs deferred,
vectorised (the fast mode; experiment=main_deferred) DE updating.

Reads results/runs (`make reproduce-main reproduce-main_deferred`: variant "default" = immediate,
variant "deferred" = deferred; each row's stored config is checked to say so) and writes the runs
of both modes to results/bench/updating_comparison.csv; updating_comparison.md is rendered from it
(weakpareto.reporting.studies.bench, also by `wp report`). Per seed the latest run of a cell wins
(weakpareto.campaign.store.select_cell), so rows of older configs or code do not mix in.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd

from weakpareto.campaign.store import load_runs, select_cell
from weakpareto.io import write_csv_atomic
from weakpareto.reporting.studies.bench import UPDATING_COLUMNS
from weakpareto.reporting.studies.bench import UPDATING_STEM as STEM
from weakpareto.reporting.studies.registry import write_study

BENCHES = ["fade", "rd_space", "rd_timespace", "burgers"]
#: (updating mode, variant of its rows)
MODES = (("immediate", "default"), ("deferred", "deferred"))


def _updating(config_json: str) -> str:
    return str(json.loads(config_json)["search"]["updating"])


def main(results_dir: str = "results/runs", out_dir: str = "results/bench") -> None:
    runs = load_runs(results_dir)
    frames = []
    for b in BENCHES:
        for mode, variant in MODES:
            df = select_cell(runs, b, 0.1, variant=variant)
            wrong = sorted({_updating(c) for c in df["config_json"]} - {mode}) if len(df) else []
            if wrong:
                raise SystemExit(f"{b}: the {mode} rows ran with updating={wrong}")
            frames.append(df.assign(updating=mode).loc[:, UPDATING_COLUMNS])
    write_csv_atomic(pd.concat(frames, ignore_index=True), Path(out_dir) / f"{STEM}.csv")
    write_study(STEM, out_dir)
    print((Path(out_dir) / f"{STEM}.md").read_text(encoding="utf-8"), end="")


if __name__ == "__main__":
    main(*sys.argv[1:])
