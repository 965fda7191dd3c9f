"""Paper tab:superunit: fixed-support superunit diagnostic (Sec. "Superunit temporal-order
diagnostic"): temporal-branch and operator recovery of Weak-Pareto and Strong-Pareto on the
``superunit`` benchmark at 0, 0.5 and 1 % multiplicative noise.
"""

from __future__ import annotations

import pandas as pd

from weakpareto.campaign.store import select_cell
from weakpareto.reporting.latex import latex_table, multirow, table_row
from weakpareto.reporting.markdown import Rendered
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.common import count_cell, missing_note

#: (noise, label as printed) in the paper's row order.
SUPERUNIT_NOISES: tuple[tuple[float, str], ...] = ((0.0, "0"), (0.005, "0.5"), (0.01, "1.0"))
SUPERUNIT_METHODS = (("weak_pareto", "Weak-Pareto"), ("strong_pareto", "Strong-Pareto"))
SUPERUNIT_COLUMNS = (("branch", "Branch recovery"), ("operator", "Operator recovery"))


def table_superunit(runs: pd.DataFrame) -> Rendered | None:
    """Paper tab:superunit; ``None`` when no cell has runs."""
    paper = paper_table("tab:superunit")
    rows, body, notes = [], [], []
    for mi, (method, name) in enumerate(SUPERUNIT_METHODS):
        if mi:
            body.append(r"\midrule")
        for i, (noise, shown) in enumerate(SUPERUNIT_NOISES):
            df = select_cell(runs, "superunit", noise, method=method)
            if df.empty:
                notes.append(missing_note(paper.label, f"{method} at {shown} %"))
            cells = {c: count_cell(df, c) for c, _ in SUPERUNIT_COLUMNS}
            rows.append((f"{method}@{shown}", f"{name}, {shown} %", cells))
            lead = multirow(len(SUPERUNIT_NOISES), name) if i == 0 else ""
            body.append(table_row([lead, shown, cells["branch"], cells["operator"]]))
    if len(notes) == len(SUPERUNIT_METHODS) * len(SUPERUNIT_NOISES):
        return None
    latex = latex_table(paper.layout, body)
    return Rendered(paper.label, paper.layout.stem, latex, rows, list(SUPERUNIT_COLUMNS), notes)
