"""A paper-vs-ours table as a grid: marks per cell, paper values beside differing cells, reasons."""

from __future__ import annotations

from weakpareto.reporting.html import md_blocks
from weakpareto.reporting.html.comparison import cells_of, comparison_grid, count_line

TABLE = """| Row | Column | Paper | Ours | Same at paper precision |
|---|---|---|---|---|
| spacing 0.10 | Condition number | 8.4×10^15 | 7.5×10^15 | no |
| spacing 0.10 | Columns | 30 | 30 | yes |
| spacing 0.05 | Columns | (not in paper) | 59 |  |
| spacing 0.05 | Ratio | 1.0 | 0.98 | no (ours/paper = 0.98) |
"""


def _table() -> md_blocks.Table:
    (t,) = md_blocks.parse(TABLE)
    assert isinstance(t, md_blocks.Table)
    return t


def test_marks_of_the_cells():
    marks = [(c.row, c.column, c.mark) for c in cells_of(_table())]
    assert marks == [
        ("spacing 0.10", "Condition number", "differs"),
        ("spacing 0.10", "Columns", "same"),
        ("spacing 0.05", "Columns", "no-paper"),
        ("spacing 0.05", "Ratio", "differs"),
    ]


def test_grid_pivots_and_links_the_recorded_reason(parse_page):
    html, counts = comparison_grid(_table(), "tab:conditioning")
    assert counts == {"differs": 2, "same": 1, "no-paper": 1}
    dom = parse_page(html)
    header = [th.text() for th in dom.iter("th")]
    assert header == ["Row", "Condition number", "Columns", "Ratio"]
    rows = [[td for td in tr.iter("td")] for tr in dom.find("tbody").iter("tr")]
    cond = rows[0][1]
    assert "differs" in cond.classes and "paper: 8.4×10^15" in cond.text()
    (ref,) = cond.iter("a")
    reason = dom.find("li", id=ref.attrs["href"][1:])
    assert reason is not None and "order of magnitude" in reason.text()
    assert rows[1][3].text().endswith("ours/paper = 0.98")  # the verdict's detail is shown
    assert rows[1][3].find("a") is None  # no recorded reason for that column
    assert rows[0][3].text() == "" and rows[1][2].classes == {"cell", "no-paper"}


def test_count_line():
    assert count_line({"same": 25, "differs": 3, "no-paper": 2}) == (
        "25 of 28 compared cells the same at the paper's precision, 3 differ; 2 not in the paper"
    )
