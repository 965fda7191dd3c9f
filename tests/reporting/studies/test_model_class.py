"""tab_model_class rendered from its committed CSV and sidecar."""

from __future__ import annotations

import shutil

import pytest

from weakpareto.reporting.studies import model_class
from weakpareto.reporting.studies.common import read_notes, read_table, write_notes


def test_committed_table_is_rendered_from_its_csv_and_sidecar(results_folder, committed):
    texts = model_class.render(results_folder("model_class"))
    assert set(texts) == {".md", ".tex"}
    committed("model_class", model_class.STEM, texts)


def test_the_parts_of_the_csv(results_folder):
    df = read_table(results_folder("model_class") / f"{model_class.STEM}.csv")
    first, skew, tempered, forced = model_class.parts(df)
    # skew: 2 methods; tempered: 8 exact-solution rows and 2 particle rows
    assert (len(first), len(skew), len(tempered), len(forced)) == (16, 20, 10, 4)
    assert len(first) + len(skew) + len(tempered) + len(forced) == len(df)  # each in one part
    # "terms ok" is boolean in two parts and text in the third: all read as yes/no
    assert set(first["terms ok"]) | set(skew["terms ok"]) == {True, False}
    assert set(tempered["terms ok"]) == {"yes"}


def test_notes_hold_the_ratios_of_the_unrounded_timings():
    cost = {"directional+riesz": (1.744, 262389), "directional": (0.6685, 51712),
            "riesz": (1.29, 112456)}  # fmt: skip
    info = model_class.notes(["u_t = a", "D_t^0.8 u = a"], 0.5, 0.3, 1.0, cost)
    assert info["cost"]["time_vs_directional"] == pytest.approx(1.744 / 0.6685)
    assert info["cost"]["evaluations_vs_directional"] == pytest.approx(262389 / 51712)
    assert info["cost"]["time_vs_riesz"] == pytest.approx(1.744 / 1.29)
    assert list(info["cost"]["searches"]) == list(cost)
    line = model_class._cost_line(info["cost"])
    assert "directional+riesz 1.74 s (262389)" in line and "2.61x the time" in line


def test_the_notes_come_from_the_sidecar(results_folder, tmp_path):
    src = results_folder("model_class")
    for suffix in (".csv", ".json"):
        shutil.copy(src / f"{model_class.STEM}{suffix}", tmp_path)
    info = read_notes(tmp_path, model_class.STEM)
    info["tempering"] = 2.0
    info["skew"]["K"] = 0.4
    write_notes(tmp_path, model_class.STEM, info)
    md = model_class.render(tmp_path)[".md"]
    assert "with λ = 2:" in md and ", K = 0.4, " in md
    assert "## Known forcing beside two families" in md


def test_a_csv_without_the_forced_part_renders_the_other_three(results_folder, tmp_path):
    """A table written before the forced part existed (no ``forcing coef error`` column)."""
    src = results_folder("model_class")
    df = read_table(src / f"{model_class.STEM}.csv")
    df = df[df["forcing coef error"].isna()].drop(columns="forcing coef error")
    df.to_csv(tmp_path / f"{model_class.STEM}.csv", index=False)
    shutil.copy(src / f"{model_class.STEM}.json", tmp_path)
    first, skew, tempered, forced = model_class.parts(
        read_table(tmp_path / f"{model_class.STEM}.csv")
    )
    assert (len(first), len(skew), len(tempered), len(forced)) == (16, 20, 10, 0)
    rendered = model_class.render(tmp_path)
    assert "Known forcing" not in rendered[".md"] and "## Tempered families" in rendered[".md"]
