"""tab_experiments, tab_history and tab_irregular rendered from their CSVs and sidecars."""

from __future__ import annotations

import shutil

import pytest

from weakpareto.reporting.studies import measurement
from weakpareto.reporting.studies.common import write_notes

TABLES = [
    (measurement.EXPERIMENTS_STEM, measurement.render_experiments),
    (measurement.HISTORY_STEM, measurement.render_history),
    (measurement.IRREGULAR_STEM, measurement.render_irregular),
]


@pytest.mark.parametrize(("stem", "render"), TABLES, ids=[t[0] for t in TABLES])
def test_committed_table_is_rendered_from_its_csv_and_sidecar(
    stem, render, results_folder, committed
):
    texts = render(results_folder("measurement"))
    assert set(texts) == {".md"}
    committed("measurement", stem, texts)


def test_the_tolerances_come_from_the_sidecar(results_folder, tmp_path):
    shutil.copy(results_folder("measurement") / "tab_history.csv", tmp_path)
    write_notes(tmp_path, measurement.HISTORY_STEM, measurement.tolerance_notes(0.05, 0.1))
    md = measurement.render_history(tmp_path)[".md"]
    assert "|dalpha| and every |dbeta| <= 0.05, coefficients within 10%" in md
