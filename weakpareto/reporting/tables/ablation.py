"""Paper tab:ablation: component ablation on FADE at 10 % noise (Sec. "Ablation").

Rows toggle the weak library, continuous-order search and exact-order polishing; cells as
tab:main (counts over all seeds, conditioned errors, ``E_fit`` over all seeds).
"""

from __future__ import annotations

import pandas as pd

from weakpareto.campaign.store import select_cell
from weakpareto.reporting.latex import latex_table, table_row
from weakpareto.reporting.markdown import Rendered
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.common import COMPARISON_COLUMNS, group_cells, missing_note

ABLATION_NOISE = 0.10
#: (method, LaTeX name, weak, continuous, polish) in the paper's row order.
ABLATION_METHODS: tuple[tuple[str, str, str, str, str], ...] = (
    ("strong_pareto", r"\shortstack[l]{Strong-\\Pareto}", "no", "yes", "no"),
    ("weak_grid_stridge", r"\shortstack[l]{Weak Grid-\\STRidge}", "yes", "no", "no"),
    ("weak_pareto_nopolish", r"\shortstack[l]{Weak-Pareto\\(no polish)}", "yes", "yes", "no"),
    ("weak_pareto", r"\shortstack[l]{Full\\Weak-Pareto}", "yes", "yes", "yes"),
)


def table_ablation(runs: pd.DataFrame) -> Rendered | None:
    """Paper tab:ablation; ``None`` when no method has runs."""
    paper = paper_table("tab:ablation")
    rows, body, notes = [], [], []
    for method, name, weak, cont, polish in ABLATION_METHODS:
        df = select_cell(runs, "fade", ABLATION_NOISE, method=method)
        if df.empty:
            notes.append(missing_note(paper.label, f"{method} on fade at 10 %"))
        cells = group_cells(df, [c for c, _ in COMPARISON_COLUMNS], paper.decimals_of())
        rows.append((method, method, cells))
        body.append(
            table_row([name, weak, cont, polish, *(cells[c] for c, _ in COMPARISON_COLUMNS)])
        )
    if len(notes) == len(ABLATION_METHODS):
        return None
    latex = latex_table(paper.layout, body)
    return Rendered(paper.label, paper.layout.stem, latex, rows, list(COMPARISON_COLUMNS), notes)
