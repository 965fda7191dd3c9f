"""Cells, pipe tables, tabulars and the inputs shared by the study tables."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from weakpareto.reporting.studies.common import (
    DASH,
    cell,
    pipe_table,
    read_notes,
    read_table,
    tabular,
    tex_text,
    write_notes,
)


def test_cells():
    assert cell(0.000321529) == "0.000322" and cell(25.0) == "25" and cell(7.7e-05) == "7.7e-05"
    assert cell(float("nan")) == DASH and cell(None) == DASH and cell(float("inf")) == DASH
    assert cell(True) == "True" and cell(False, yes_no=True) == "no"
    assert cell(3) == "3" and cell("x_y") == "x_y"


def test_pipe_table():
    assert pipe_table(["a", "b"], [["1", "2"]]) == ["| a | b |", "|---|---|", "| 1 | 2 |"]


def test_tabular_booktabs_and_hline():
    assert tabular("lr", "a & b", [["1", "2"]]) == [
        r"\begin{tabular}{lr}",
        r"\toprule",
        r"a & b \\",
        r"\midrule",
        r"1 & 2 \\",
        r"\bottomrule",
        r"\end{tabular}",
    ]
    assert tabular("l", "a", [["1"]], rules=None) == [
        r"\begin{tabular}{l}",
        r"\hline",
        r"a \\ \hline",
        r"1 \\",
        r"\hline",
        r"\end{tabular}",
    ]
    assert tex_text("weak_pareto") == r"weak\_pareto"


def test_read_table_keeps_empty_text_empty(tmp_path):
    """An empty text cell reads back as "" (pandas would say NaN), other columns as written."""
    path = tmp_path / "t.csv"
    pd.DataFrame({"warnings": ["", "misfit"], "e": [float("nan"), 0.5]}).to_csv(path, index=False)
    df = read_table(path, text=("warnings",))
    assert list(df["warnings"]) == ["", "misfit"]
    assert df["e"].isna().tolist() == [True, False]


def test_notes_round_trip(tmp_path):
    write_notes(tmp_path / "new", "tab_x", {"truth": "u_t = u", "tolerances": {"order": 0.03}})
    assert read_notes(tmp_path / "new", "tab_x") == {
        "truth": "u_t = u",
        "tolerances": {"order": 0.03},
    }
    (tmp_path / "tab_y.json").write_text(json.dumps([1, 2]))
    with pytest.raises(ValueError, match="JSON object"):
        read_notes(tmp_path, "tab_y")
