"""Every study table: its folder under ``results/``, its renderer and inputs, and the writers.

:func:`write_study` renders one table from its folder's files and writes its ``.md`` (and
``.tex``) beside them; the study scripts call it right after writing the CSV (and sidecar).
:func:`write_study_tables` does it for every table whose CSV exists under a results root
(``wp report``); a table whose other inputs are missing is skipped with a note.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from weakpareto.io import write_text_atomic
from weakpareto.reporting.studies import (
    bench,
    beyond,
    independent,
    measurement,
    model_class,
    uncertainty,
)
from weakpareto.reporting.studies.common import csv_path, notes_path


@dataclass(frozen=True)
class StudyTable:
    """One study table: ``<results>/<folder>/<stem>.csv`` rendered by ``render``."""

    folder: str
    stem: str
    render: Callable[[str | os.PathLike], dict[str, str]]  # directory -> {suffix: text}
    script: str  # the script that computes it
    notes: bool = False  # also reads the sidecar <stem>.json
    extra: tuple[str, ...] = ()  # stems of further CSVs it reads

    def inputs(self, directory: str | os.PathLike) -> list[Path]:
        """Every file the table is rendered from."""
        paths = [csv_path(directory, self.stem)]
        paths += [notes_path(directory, self.stem)] if self.notes else []
        return paths + [csv_path(directory, s) for s in self.extra]


STUDY_TABLES = (
    StudyTable("independent", independent.STEM, independent.render, "independent_suite.py"),
    StudyTable("model_class", model_class.STEM, model_class.render, "model_class.py", notes=True),
    StudyTable(
        "measurement",
        measurement.EXPERIMENTS_STEM,
        measurement.render_experiments,
        "measurement_experiments.py",
        notes=True,
    ),
    StudyTable(
        "measurement",
        measurement.HISTORY_STEM,
        measurement.render_history,
        "measurement_history.py",
        notes=True,
    ),
    StudyTable(
        "measurement",
        measurement.IRREGULAR_STEM,
        measurement.render_irregular,
        "measurement_irregular.py",
        notes=True,
    ),
    StudyTable("beyond", beyond.STEM, beyond.render, "beyond_table.py"),
    StudyTable(
        "uncertainty",
        uncertainty.UNCERTAINTY_STEM,
        uncertainty.render_uncertainty,
        "uncertainty_table.py",
        notes=True,
    ),
    StudyTable(
        "uncertainty",
        uncertainty.CALIBRATION_STEM,
        uncertainty.render_calibration,
        "calibrate_intervals.py",
        notes=True,
        extra=(uncertainty.CALIBRATION_RUNS, uncertainty.CALIBRATION_RECORDS),
    ),
    StudyTable("bench", bench.ROBUST_STEM, bench.render_robust, "compare_robust.py"),
    StudyTable("bench", bench.TIMING_STEM, bench.render_timing, "beyond_timing.py"),
    StudyTable(
        "bench", bench.DATASET_STEM, bench.render_dataset, "bench_dataset_read.py", notes=True
    ),
    StudyTable("bench", bench.UPDATING_STEM, bench.render_updating, "compare_updating.py"),
    StudyTable("bench", bench.BOUNDED_STEM, bench.render_bounded, "bounded_domain.py", notes=True),
    StudyTable(
        "bench",
        bench.UNCERTAINTY_COST_STEM,
        bench.render_uncertainty_cost,
        "wp bench uncertainty=true",
    ),
)
STUDY_BY_STEM = {t.stem: t for t in STUDY_TABLES}


def write_study(stem: str, directory: str | os.PathLike) -> list[Path]:
    """Render the study table ``stem`` from the files in ``directory`` and write its outputs
    there atomically; returns their paths."""
    texts = STUDY_BY_STEM[stem].render(directory)
    return [
        write_text_atomic(Path(directory) / f"{stem}{suffix}", text)
        for suffix, text in texts.items()
    ]


def write_study_tables(results_root: str | os.PathLike, notes: list[str]) -> list[Path]:
    """Every study table whose CSV exists under ``results_root``, written in place; a table
    with a missing input gets a line in ``notes`` instead."""
    paths: list[Path] = []
    for table in STUDY_TABLES:
        directory = Path(results_root) / table.folder
        if not csv_path(directory, table.stem).is_file():
            continue
        missing = [p.name for p in table.inputs(directory) if not p.is_file()]
        if missing:
            notes.append(f"{table.stem}: skipped (no {', '.join(missing)} in {directory})")
            continue
        paths += write_study(table.stem, directory)
    return paths
