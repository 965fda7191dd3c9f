"""The recorded reasons for differing cells name real tables and still cover committed cells."""

from __future__ import annotations

import re
from pathlib import Path

from weakpareto.reporting.html import md_blocks
from weakpareto.reporting.html.comparison import DIFFERS, NOT_COMPARED, cells_of, is_comparison
from weakpareto.reporting.html.known_differences import KNOWN_DIFFERENCES, reason_for
from weakpareto.reporting.paper_values import paper_table

REPO = Path(__file__).parents[3]


def _cells() -> list[tuple[str, str, str, str]]:
    out = []
    for md in sorted((REPO / "results" / "tables").glob("*_paper_vs_ours.md")):
        blocks = md_blocks.parse(md.read_text(encoding="utf-8"))
        label = blocks[0].text.split(": paper vs ours")[0]
        for b in blocks:
            if isinstance(b, md_blocks.Table) and is_comparison(b):
                out += [(label, c.row, c.column, c.mark) for c in cells_of(b)]
    return out


def test_every_reason_names_a_table_and_a_source_file():
    for k in KNOWN_DIFFERENCES:
        assert paper_table(k.label).label == k.label
        for pattern in (k.rows, k.columns):
            if pattern is not None:
                re.compile(pattern)
        path = k.source.split("#")[0].split(" (")[0]
        assert (REPO / path).is_file(), k.source


def test_every_reason_covers_a_committed_differing_cell():
    """A reason that no longer matches any cell is stale: remove or update it."""
    cells = _cells()
    for k in KNOWN_DIFFERENCES:
        assert any(
            k.covers(label, row, col) and mark in (DIFFERS, NOT_COMPARED)
            for label, row, col, mark in cells
        ), k


def test_first_matching_reason_wins():
    k = reason_for("tab:yu", "Yu framework 0 %", "Runtime (s)")
    assert k is not None and "wall time" in k.reason
    assert reason_for("tab:main", "FADE", "e_alpha") is None
