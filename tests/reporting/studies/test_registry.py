"""The study tables written from their inputs alone, by the scripts' writer and by ``wp report``."""

from __future__ import annotations

import shutil
from pathlib import Path

from weakpareto.reporting.render import render_all
from weakpareto.reporting.studies.registry import (
    STUDY_BY_STEM,
    STUDY_TABLES,
    write_study,
    write_study_tables,
)

RESULTS = Path(__file__).resolve().parents[3] / "results"


def _copy_inputs(root: Path, stems: list[str]) -> None:
    for stem in stems:
        table = STUDY_BY_STEM[stem]
        (root / table.folder).mkdir(parents=True, exist_ok=True)
        for path in table.inputs(RESULTS / table.folder):
            shutil.copy(path, root / table.folder / path.name)


def _same_as_committed(path: Path, root: Path) -> bool:
    return path.read_bytes() == (RESULTS / path.relative_to(root)).read_bytes()


def test_every_study_table_is_written_from_its_inputs_alone(tmp_path):
    """Only the CSVs and sidecars in a fresh results root: every committed .md/.tex comes back."""
    stems = [t.stem for t in STUDY_TABLES]
    missing = [p for t in STUDY_TABLES for p in t.inputs(RESULTS / t.folder) if not p.is_file()]
    assert missing == []  # every table's inputs are committed
    _copy_inputs(tmp_path, stems)
    notes: list[str] = []
    paths = write_study_tables(tmp_path, notes)
    assert notes == []
    written = sorted(str(p.relative_to(tmp_path)) for p in paths)
    expected = sorted(
        f"{t.folder}/{t.stem}{suffix}"
        for t in STUDY_TABLES
        for suffix in (".md", ".tex")
        if (RESULTS / t.folder / f"{t.stem}{suffix}").is_file()
    )
    assert written == expected
    assert [p for p in paths if not _same_as_committed(p, tmp_path)] == []


def test_a_table_without_its_sidecar_is_skipped_with_a_note(tmp_path):
    (tmp_path / "model_class").mkdir()
    shutil.copy(RESULTS / "model_class" / "tab_model_class.csv", tmp_path / "model_class")
    notes: list[str] = []
    assert write_study_tables(tmp_path, notes) == []
    assert len(notes) == 1
    assert notes[0].startswith("tab_model_class: skipped (no tab_model_class.json in ")
    assert write_study_tables(tmp_path / "empty", notes) == [] and len(notes) == 1  # no CSVs


def test_write_study_writes_beside_the_inputs(tmp_path):
    _copy_inputs(tmp_path, ["tab_experiments"])
    paths = write_study("tab_experiments", tmp_path / "measurement")
    assert paths == [tmp_path / "measurement" / "tab_experiments.md"]
    assert _same_as_committed(paths[0], tmp_path)


def test_wp_report_writes_the_study_tables(tmp_path):
    """render_all (``wp report``) re-renders the study tables under ``<results_dir>/..``."""
    root = tmp_path / "results"
    (root / "runs").mkdir(parents=True)
    _copy_inputs(root, ["tab_independent", "tab_history"])
    paths = render_all(root / "runs", root / "tables", studies=False)
    assert not (root / "independent" / "tab_independent.md").exists()
    paths = render_all(root / "runs", root / "tables")
    studies = [p for p in paths if p.parent.name != "tables"]
    assert sorted(str(p.relative_to(root)) for p in studies) == [
        "independent/tab_independent.md",
        "independent/tab_independent.tex",
        "measurement/tab_history.md",
    ]
    assert all(_same_as_committed(p, root) for p in studies)
