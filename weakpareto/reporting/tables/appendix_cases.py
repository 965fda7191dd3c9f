"""Paper tab:appendix: challenging cases (ADE, two-term Riesz) under defaults versus adjustments.

Each case is a run variant at 10 % noise (``p0``: power set {0}; ``p0_aic``: plus the AIC-type
selector); cells as tab:ablation.
"""

from __future__ import annotations

import pandas as pd

from weakpareto.campaign.store import select_cell
from weakpareto.reporting.latex import latex_table, multirow, table_row
from weakpareto.reporting.markdown import Rendered
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.common import (
    BENCH_PLAIN,
    BENCH_TEX,
    COMPARISON_COLUMNS,
    group_cells,
    missing_note,
)

APPENDIX_NOISE = 0.10
#: (benchmark, variant, LaTeX setting) in the paper's row order.
APPENDIX_CASES: tuple[tuple[str, str, str], ...] = (
    ("ade", "default", "default"),
    ("ade", "p0", r"$p\in\{0\}$"),
    ("riesz2", "default", "default"),
    ("riesz2", "p0_aic", r"$p\in\{0\}$, AIC-type"),
)
APPENDIX_COLUMNS = (
    ("support", "Support/power"),
    ("operator", "Operator structure"),
    *COMPARISON_COLUMNS[2:],
)


def table_appendix(runs: pd.DataFrame) -> Rendered | None:
    """Paper tab:appendix; ``None`` when no case has runs."""
    paper = paper_table("tab:appendix")
    rows, body, notes = [], [], []
    shown: set[str] = set()
    for b, variant, setting in APPENDIX_CASES:
        df = select_cell(runs, b, APPENDIX_NOISE, variant=variant)
        if df.empty:
            notes.append(missing_note(paper.label, f"{b} variant {variant}"))
        cells = group_cells(df, [c for c, _ in COMPARISON_COLUMNS], paper.decimals_of())
        rows.append((f"{b}/{variant}", f"{BENCH_PLAIN[b]}, {variant}", cells))
        lead = "" if b in shown else multirow(2, BENCH_TEX[b])
        shown.add(b)
        body.append(table_row([lead, setting, *(cells[c] for c, _ in COMPARISON_COLUMNS)]))
    if len(notes) == len(APPENDIX_CASES):
        return None
    latex = latex_table(paper.layout, body)
    return Rendered(paper.label, paper.layout.stem, latex, rows, list(APPENDIX_COLUMNS), notes)
