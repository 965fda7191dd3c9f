"""Paper-vs-ours comparison notes."""

from __future__ import annotations

from weakpareto.reporting.markdown import (
    COMPARISON_HEADER,
    Rendered,
    comparison_lines,
    md_cell,
    note_lines,
    paper_vs_ours,
)

PAPER = {"a": {"x": r"$0.10\pm0.01$", "y": "5/5"}, "b": {"x": "1/5"}}


def test_comparison_lines_ours_then_missing_paper_rows():
    rows = [("a", "Row A", {"x": r"$0.10\pm0.01$", "y": "4/5", "z": "7"})]
    cols = [("x", "X"), ("y", "Y"), ("z", "Z")]
    lines = comparison_lines(rows, cols, PAPER)
    assert lines[:2] == list(COMPARISON_HEADER)
    assert lines[2:] == [
        "| Row A | X | 0.10 ± 0.01 | 0.10 ± 0.01 | yes |",
        "| Row A | Y | 5/5 | 4/5 | no |",
        "| Row A | Z | (not in paper) | 7 |  |",
        "| b | X | 1/5 | (no row) | no |",
    ]
    blank = comparison_lines(rows, cols, PAPER, not_in_paper="")
    assert "| Row A | Z |  | 7 |  |" in blank


def test_md_cell_raw_and_escaping():
    assert md_cell("$a|b$", raw=True) == r"`$a\|b$`"
    assert md_cell("") == "" and md_cell(None) == "(not in paper)"
    assert md_cell("--") == "--"


def test_paper_vs_ours_of_a_table_without_paper_values():
    rt = Rendered("tab:robustness-burgers", "tab_robustness_burgers", "", [], [("x", "X")],
                  notes=["n1"])  # fmt: skip
    md = paper_vs_ours(rt)
    assert md.startswith("# tab:robustness-burgers: paper vs ours\n\nThe paper reports no cell")
    assert md.endswith("\nNotes:\n- n1\n")
    assert note_lines([]) == []
