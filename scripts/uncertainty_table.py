"""tab_uncertainty (ours, beyond the paper): coverage of the block-bootstrap intervals, raw and
calibrated (docs/method/extensions.md#bootstrap-intervals).

Reads the runs of ``conf/experiment/uncertainty.yaml`` (``make reproduce-uncertainty``: FADE,
Burgers, RD space at 1/5/10 % noise, 20 seeds, ``uncertainty=bootstrap``) and writes
``<out-dir>/tab_uncertainty.csv``, its sidecar ``tab_uncertainty.json`` and
``<out-dir>/coverage.png`` atomically; the ``.md`` and ``.tex`` are rendered from the CSV and the
sidecar (:mod:`weakpareto.reporting.studies.uncertainty`, also by ``wp report``). The
calibrated columns use the package's constants (:data:`weakpareto.method.intervals.CALIBRATION`,
fitted by scripts/calibrate_intervals.py on other equations); the pair these runs would give on
the ``--fit`` benchmarks (default FADE + Burgers) is printed and named in the table's note, for
comparison.

    python scripts/uncertainty_table.py [--runs results/uncertainty/runs]
        [--out-dir results/uncertainty] [--fit fade,burgers]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from weakpareto.campaign.store import load_runs
from weakpareto.io import write_csv_atomic
from weakpareto.method.intervals import CALIBRATION
from weakpareto.reporting.studies.common import write_notes
from weakpareto.reporting.studies.registry import write_study
from weakpareto.reporting.studies.uncertainty import uncertainty_notes
from weakpareto.reporting.uncertainty_table import (
    STEM,
    coverage_records,
    coverage_table,
    describe,
    draw_coverage,
    fit_calibration,
    latest_runs,
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", default="results/uncertainty/runs")
    ap.add_argument("--out-dir", default="results/uncertainty")
    ap.add_argument("--fit", default="fade,burgers", help="benchmarks the factors are fitted on")
    args = ap.parse_args()
    runs = latest_runs(load_runs(args.runs))
    if runs.empty:
        raise SystemExit(f"no runs with uncertainty=bootstrap under {args.runs}")
    levels = sorted(set(runs["level"].astype(float)))
    if len(levels) != 1:
        raise SystemExit(f"runs of several interval levels {levels}: pass one study's runs")
    level = levels[0]
    fit = [b.strip() for b in args.fit.split(",") if b.strip()]
    refit = fit_calibration(coverage_records(runs), fit, level)
    table = coverage_table(runs, CALIBRATION, level)
    out = Path(args.out_dir)
    write_csv_atomic(table, out / f"{STEM}.csv")
    write_notes(out, STEM, uncertainty_notes(CALIBRATION, fit, refit))
    write_study(STEM, out)
    draw_coverage(table, out / "coverage.png", level)
    print(f"refitted on {'+'.join(fit)}: {describe(refit)}")
    print(f"package CALIBRATION: {describe(CALIBRATION)}")
    print(out / f"{STEM}.md")


if __name__ == "__main__":
    main()
