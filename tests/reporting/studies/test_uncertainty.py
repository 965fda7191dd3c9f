"""tab_uncertainty and tab_calibration rendered from their CSVs and sidecars."""

from __future__ import annotations

from weakpareto.method.intervals import Calibration
from weakpareto.reporting.studies import uncertainty


def test_committed_coverage_table_is_rendered_from_its_csv_and_sidecar(results_folder, committed):
    texts = uncertainty.render_uncertainty(results_folder("uncertainty"))
    assert set(texts) == {".md", ".tex"}
    committed("uncertainty", uncertainty.UNCERTAINTY_STEM, texts)


def test_committed_calibration_table_is_rendered_from_its_files(results_folder, committed):
    texts = uncertainty.render_calibration(results_folder("uncertainty"))
    assert set(texts) == {".md"}
    committed("uncertainty", uncertainty.CALIBRATION_STEM, texts)


def test_calibration_notes_of_a_split():
    split = {
        "level": 0.9,
        "n_boot": 200,
        "noise_law": "multiplicative",
        "noise": [0.01, 0.05],
        "calibration": {"seeds": [0, 1, 2], "benchmarks": ["fade"], "exact": ["sub35"]},
        "held_out": {"seeds": [100], "benchmarks": [], "exact": ["sub50"]},
        "outside_scope": {"seeds": [200], "exact": ["sup150"]},
    }
    cal = {q: Calibration(1.1, 0.01, q == "xi") for q in ("alpha", "beta", "xi")}
    info = uncertainty.calibration_notes(split, {"previous": cal, "fitted": cal})
    assert info["split"]["seeds"] == 3 and info["split"]["noise"] == [0.01, 0.05]
    assert info["split"]["sets"] == {
        "calibration": ["fade", "sub35"],
        "held_out": ["sub50"],
        "outside_scope": ["sup150"],
    }
    assert info["calibrations"]["fitted"]["xi"] == {"factor": 1.1, "floor": 0.01, "relative": True}
    assert "file" not in info["split"] and "held_out_seeds" not in info["split"]  # the default
    fresh = uncertainty.calibration_notes(
        split, {"previous": cal, "fitted": cal}, split_file="scripts/calibration_split_fresh.yaml"
    )
    assert fresh["split"]["file"] == "scripts/calibration_split_fresh.yaml"
    assert fresh["split"]["held_out_seeds"] == [100]


def test_the_fresh_seed_table_names_its_split_and_seeds(results_folder):
    md = uncertainty.render_calibration(results_folder("uncertainty") / "fresh_seeds")[".md"]
    assert "--split scripts/calibration_split_fresh.yaml`" in md
    assert "held-out noise seeds 300, 301, 302, 303, 304, 305, 306, 307." in md
    committed_md = results_folder("uncertainty") / "fresh_seeds" / "tab_calibration.md"
    assert md == committed_md.read_text()
