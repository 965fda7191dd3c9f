"""Paper-vs-ours Markdown notes: every table cell's paper value beside ours.

:class:`Rendered` is a table whose notes are exactly the cell-by-cell comparison
(:func:`paper_vs_ours`); tables with extra sections (tab:twod, tab:forward, ...) build their
Markdown from :func:`comparison_lines` and their own lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from weakpareto.evaluation.metrics import EMPTY
from weakpareto.reporting.failures import Failures, with_failures
from weakpareto.reporting.latex import plain
from weakpareto.reporting.paper_values import paper_table

#: Column of the comparison tables saying whether our cell equals the paper's.
SAME_COLUMN = "Same at paper precision"
COMPARISON_HEADER = (
    f"| Row | Column | Paper | Ours | {SAME_COLUMN} |",
    "|---|---|---|---|---|",
)
#: Paper column of a cell the paper does not report (default of :func:`comparison_lines`).
NOT_IN_PAPER = "(not in paper)"

#: One table row: (row id, row name shown in the notes, {column id: LaTeX cell}).
Row = tuple[str, str, dict[str, str]]
#: One column: (column id, column name shown in the notes).
Column = tuple[str, str]


@dataclass
class Rendered:
    """One rendered table: its LaTeX and, per row, our cells for the comparison notes."""

    label: str
    stem: str
    latex: str
    rows: list[Row]
    columns: list[Column]
    notes: list[str] = field(default_factory=list)
    raw_cells: bool = False  # show cells verbatim (equations) in the Markdown
    failures: Failures | None = None  # failed runs behind the table (wp report fills it in)


def title_lines(label: str) -> list[str]:
    """``# tab:main: paper vs ours`` and a blank line."""
    return [f"# {label}: paper vs ours", ""]


def md_cell(cell: str | None, *, raw: bool = False, not_in_paper: str = NOT_IN_PAPER) -> str:
    """A cell for the notes: readable text (or verbatim in backticks), ``|`` escaped."""
    if cell is None:
        return not_in_paper
    if cell == "":
        return ""
    text = f"`{cell}`" if raw else plain(cell)
    return text.replace("|", r"\|")


def comparison_lines(
    rows: Sequence[Row],
    columns: Sequence[Column],
    paper: Mapping[str, Mapping[str, str]],
    *,
    raw: bool = False,
    not_in_paper: str = NOT_IN_PAPER,
) -> list[str]:
    """The comparison table: our rows, then the paper rows we have no row for.

    "Same at paper precision" compares the LaTeX cells (ours are formatted at the paper's
    decimals); it is empty where the paper has no value.
    """
    lines = list(COMPARISON_HEADER)
    for rid, name, cells in rows:
        for cid, cname in columns:
            p = paper.get(rid, {}).get(cid)
            o = cells.get(cid, EMPTY)
            same = "" if p is None else ("yes" if p == o else "no")
            p_md = md_cell(p, raw=raw, not_in_paper=not_in_paper)
            lines.append(f"| {name} | {cname} | {p_md} | {md_cell(o, raw=raw)} | {same} |")
    ours = {rid for rid, _, _ in rows}
    for rid, pcells in paper.items():
        if rid in ours:
            continue
        for cid, cname in columns:
            if cid in pcells:
                lines.append(
                    f"| {rid} | {cname} | {md_cell(pcells[cid], raw=raw)} | (no row) | no |"
                )
    return lines


def note_lines(notes: Sequence[str]) -> list[str]:
    """``Notes:`` and one bullet per note (nothing without notes)."""
    return ["", "Notes:", *(f"- {n}" for n in notes)] if notes else []


def paper_vs_ours(rt: Rendered) -> str:
    """Markdown of a :class:`Rendered` table: every cell's paper value beside ours, then notes."""
    paper = paper_table(rt.label).values()
    lines = title_lines(rt.label)
    if not paper:
        lines += ["The paper reports no cell values for this table.", ""]
    lines += comparison_lines(rt.rows, rt.columns, paper, raw=rt.raw_cells)
    lines += note_lines(rt.notes)
    return with_failures("\n".join(lines) + "\n", rt.failures)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def same_cells(markdown: str) -> tuple[int, int]:
    """``(same, compared)``: cells of every table in a paper-vs-ours file with a
    :data:`SAME_COLUMN` column whose entry starts with "yes", and cells with any entry there
    (an empty entry — the paper has no value — is not a compared cell)."""
    same = compared = 0
    column: int | None = None
    for line in markdown.splitlines():
        if not line.startswith("|"):
            column = None
            continue
        cells = _cells(line)
        if SAME_COLUMN in cells:
            column = cells.index(SAME_COLUMN)
            continue
        if column is None or column >= len(cells) or set(cells[column]) <= set("-:"):
            continue
        entry = cells[column]
        compared += 1
        same += entry.startswith("yes")
    return same, compared
