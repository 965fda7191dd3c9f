"""A paper-vs-ours comparison table as the paper's grid: one row per table row, one column per
table column, our value in each cell with the paper's beside it where they differ.

The paper-vs-ours files list one cell per line (``| Row | Column | Paper | Ours | Same at paper
precision |``; :mod:`weakpareto.reporting.markdown`). Here they are pivoted back to the grid and
each cell gets a mark (CSS class): ``same``, ``differs``, ``no-paper`` or, in tables without the
"Same" column (timings), ``not-compared``. A differing cell whose reason the repository records
(:mod:`weakpareto.reporting.html.known_differences`) links to it in a numbered list under the
table.
"""

from __future__ import annotations

from dataclasses import dataclass

from weakpareto.reporting.html.known_differences import KnownDifference, reason_for
from weakpareto.reporting.html.md_blocks import Table, inline
from weakpareto.reporting.html.page import Cell, Html, anchor_id, element, table
from weakpareto.reporting.markdown import NOT_IN_PAPER, SAME_COLUMN

#: Marks of a cell (CSS classes).
SAME, DIFFERS, NO_PAPER, NOT_COMPARED = "same", "differs", "no-paper", "not-compared"


def is_comparison(t: Table) -> bool:
    """``| <row> | <column> | Paper | Ours | ...``: a table of one compared cell per line."""
    return len(t.header) >= 4 and t.header[2] == "Paper" and t.header[3] == "Ours"


@dataclass(frozen=True)
class ComparedCell:
    row: str
    column: str
    paper: str
    ours: str
    mark: str
    verdict: str  # the "Same at paper precision" entry ("" without that column)


def _mark(paper: str, same: str | None) -> str:
    if same is None:
        return NOT_COMPARED
    if paper == NOT_IN_PAPER or not same:
        return NO_PAPER
    return SAME if same.startswith("yes") else DIFFERS


def cells_of(t: Table) -> list[ComparedCell]:
    """The compared cells of a comparison table, in file order."""
    has_same = len(t.header) >= 5 and t.header[4] == SAME_COLUMN
    out = []
    for r in t.rows:
        r = r + ("",) * (len(t.header) - len(r))
        same = r[4] if has_same else None
        out.append(ComparedCell(r[0], r[1], r[2], r[3], _mark(r[2], same), same or ""))
    return out


@dataclass
class Reasons:
    """The numbered reasons of one table (each reason once, numbered in order of first use)."""

    label: str
    used: list[KnownDifference]

    def number(self, k: KnownDifference) -> int:
        if k not in self.used:
            self.used.append(k)
        return self.used.index(k) + 1

    def ref_id(self, n: int) -> str:
        return anchor_id("reason", self.label, str(n))

    def html(self) -> Html:
        if not self.used:
            return Html("")
        items = [
            element(
                "li",
                [inline(k.reason), " ", element("span", f"(source: {k.source})", class_="info")],
                id=self.ref_id(i + 1),
            )
            for i, k in enumerate(self.used)
        ]
        return element("ol", items, class_="reasons")


def _cell(c: ComparedCell, label: str, reasons: Reasons) -> Cell:
    parts = [element("span", inline(c.ours), class_="ours")]
    title = "not in the paper" if c.mark == NO_PAPER and c.paper == NOT_IN_PAPER else None
    if c.mark in (DIFFERS, NOT_COMPARED):
        known = reason_for(label, c.row, c.column)
        if known is not None:
            n = reasons.number(known)
            title = known.reason
            if c.mark == DIFFERS:  # side-by-side tables give their reason once, below
                ref = element("a", str(n), href=f"#{reasons.ref_id(n)}", class_="reason-ref")
                parts.append(ref)
    shown = c.mark in (DIFFERS, NOT_COMPARED) or (c.mark == NO_PAPER and c.paper != NOT_IN_PAPER)
    if shown and c.paper:
        parts.append(element("span", ["paper: ", inline(c.paper)], class_="paper"))
    if c.mark == DIFFERS and c.verdict not in ("no", ""):
        extra = c.verdict[2:].strip(" ()") if c.verdict.startswith("no ") else c.verdict
        parts.append(element("span", extra, class_="paper"))
    return Cell(Html("".join(parts)), ("cell", c.mark), title)


def comparison_grid(t: Table, label: str) -> tuple[Html, dict[str, int]]:
    """The grid of one comparison table, its reasons list, and the count of cells per mark."""
    cells = cells_of(t)
    rows: list[str] = []
    columns: list[str] = []
    grid: dict[tuple[str, str], ComparedCell] = {}
    for c in cells:
        if c.row not in rows:
            rows.append(c.row)
        if c.column not in columns:
            columns.append(c.column)
        grid[(c.row, c.column)] = c
    reasons = Reasons(label, [])
    body = []
    for r in rows:
        line: list[object] = [Cell(inline(r), ("row-name",))]
        for col in columns:
            found = grid.get((r, col))
            line.append(Cell("") if found is None else _cell(found, label, reasons))
        body.append(line)
    counts: dict[str, int] = {}
    for c in cells:
        counts[c.mark] = counts.get(c.mark, 0) + 1
    header = [inline(t.header[0]), *(inline(c) for c in columns)]
    return Html(table(header, body, classes="data comparison") + reasons.html()), counts


def count_line(counts: dict[str, int]) -> str:
    """``25 of 28 compared cells the same at the paper's precision, 3 differ``."""
    compared = counts.get(SAME, 0) + counts.get(DIFFERS, 0)
    parts = []
    if compared:
        parts.append(
            f"{counts.get(SAME, 0)} of {compared} compared cells the same at the paper's "
            f"precision, {counts.get(DIFFERS, 0)} differ"
        )
    if counts.get(NO_PAPER):
        parts.append(f"{counts[NO_PAPER]} not in the paper")
    if counts.get(NOT_COMPARED):
        parts.append(f"{counts[NOT_COMPARED]} shown side by side, not compared")
    return "; ".join(parts)
