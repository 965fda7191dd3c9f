"""The comparison and timing tables of results/bench rendered from their CSVs (and sidecars)."""

from __future__ import annotations

import shutil

import pandas as pd
import pytest

from weakpareto.reporting.studies import bench
from weakpareto.reporting.studies.common import write_notes

TABLES = [
    (bench.ROBUST_STEM, bench.render_robust),
    (bench.TIMING_STEM, bench.render_timing),
    (bench.DATASET_STEM, bench.render_dataset),
    (bench.UPDATING_STEM, bench.render_updating),
    (bench.BOUNDED_STEM, bench.render_bounded),
    (bench.UNCERTAINTY_COST_STEM, bench.render_uncertainty_cost),
]


@pytest.mark.parametrize(("stem", "render"), TABLES, ids=[t[0] for t in TABLES])
def test_committed_table_is_rendered_from_its_files(stem, render, results_folder, committed):
    texts = render(results_folder("bench"))
    assert set(texts) == {".md"}
    committed("bench", stem, texts)


def test_bounded_domain_without_the_periodicity_test(results_folder, tmp_path):
    """A quick run has no periodicity rows: the table ends after the fits."""
    shutil.copy(results_folder("bench") / "bounded_domain.csv", tmp_path)
    write_notes(tmp_path, bench.BOUNDED_STEM, bench.bounded_notes(1, None))
    md = bench.render_bounded(tmp_path)[".md"]
    assert "Periodicity test" not in md and "seeds per noise level 1)" in md


def test_dataset_read_target_verdict(results_folder, tmp_path):
    shutil.copy(results_folder("bench") / "dataset_read.csv", tmp_path)
    write_notes(tmp_path, bench.DATASET_STEM, bench.dataset_notes(10_000, 8, 0.1))
    md = bench.render_dataset(tmp_path)[".md"]
    assert "8 cores" in md and "target < 0.1 s for the compacted dataset: NOT met." in md


def test_uncertainty_cost_verdict_per_row(tmp_path):
    rows = pd.DataFrame(
        {
            "benchmark": ["fade", "burgers"],
            "noise": [0.1, 0.05],
            "n_boot": [100, 100],
            "repeats": [3, 3],
            "fit_s": [0.5, 1.0],
            "bootstrap_s": [0.5, 3.0],
            "ratio": [2.0, 4.0],
            "target": [3.0, 3.0],
        }
    )
    rows.to_csv(tmp_path / "uncertainty_cost.csv", index=False)
    md = bench.render_uncertainty_cost(tmp_path)[".md"]
    assert "| fade | 10 | 100 | 3 | 0.50 | 0.50 | 2.00 | <= 3 (met) |" in md
    assert "| burgers | 5 | 100 | 3 | 1.00 | 3.00 | 4.00 | <= 3 (missed) |" in md
    assert "Target: (fit + bootstrap) / fit <= 3." in md
