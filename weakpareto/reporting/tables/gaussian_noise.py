"""Paper tab:gaussian-noise: additive-Gaussian robustness at 10 % of the clean-field SD.

Weak-Pareto and Strong-Pareto on FADE and fractional Burgers under the ``additive_gaussian``
noise law (App. "Alternative noise law"); cells as tab:ablation.
"""

from __future__ import annotations

import pandas as pd

from weakpareto.campaign.store import select_cell
from weakpareto.reporting.latex import latex_table, multirow, table_row
from weakpareto.reporting.markdown import Rendered
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.common import (
    BENCH_PLAIN,
    COMPARISON_COLUMNS,
    group_cells,
    missing_note,
)

GAUSSIAN_NOISE = 0.10
GAUSSIAN_LAW = "additive_gaussian"
#: (benchmark, LaTeX name, method, LaTeX method) in the paper's row order.
GAUSSIAN_CASES: tuple[tuple[str, str, str, str], ...] = (
    ("fade", "FADE", "weak_pareto", "Weak"),
    ("fade", "FADE", "strong_pareto", "Strong"),
    ("burgers", "Frac. Burgers", "weak_pareto", "Weak"),
    ("burgers", "Frac. Burgers", "strong_pareto", "Strong"),
)
GAUSSIAN_COLUMNS = (("support", "Supp."), ("operator", "Op."), *COMPARISON_COLUMNS[2:])


def table_gaussian(runs: pd.DataFrame) -> Rendered | None:
    """Paper tab:gaussian-noise; ``None`` when no case has runs."""
    paper = paper_table("tab:gaussian-noise")
    rows, body, notes = [], [], []
    shown: set[str] = set()
    for b, name, method, mname in GAUSSIAN_CASES:
        df = select_cell(runs, b, GAUSSIAN_NOISE, method=method, noise_law=GAUSSIAN_LAW)
        if df.empty:
            notes.append(missing_note(paper.label, f"{method} on {b}"))
        cells = group_cells(df, [c for c, _ in COMPARISON_COLUMNS], paper.decimals_of())
        rows.append((f"{b}/{method}", f"{BENCH_PLAIN[b]}, {mname}", cells))
        lead = "" if b in shown else multirow(2, name)
        shown.add(b)
        body.append(table_row([lead, mname, *(cells[c] for c, _ in COMPARISON_COLUMNS)]))
    if len(notes) == len(GAUSSIAN_CASES):
        return None
    latex = latex_table(paper.layout, body)
    return Rendered(paper.label, paper.layout.stem, latex, rows, list(GAUSSIAN_COLUMNS), notes)
