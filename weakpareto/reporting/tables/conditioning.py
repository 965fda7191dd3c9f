"""Paper tab:conditioning: conditioning of a fixed dense fractional dictionary versus order spacing.

From ``conditioning.csv`` (``scripts/conditioning.py``, :mod:`weakpareto.diagnostics.conditioning`;
columns spacing, columns, coherence, condition), rows by decreasing spacing (Sec. "Ablation").
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import cast

import pandas as pd

from weakpareto.evaluation.metrics import fmt_fixed, fmt_sci
from weakpareto.reporting.latex import latex_table, table_row
from weakpareto.reporting.markdown import Rendered
from weakpareto.reporting.paper_values import paper_table

CONDITIONING_CSV_COLUMNS = frozenset({"spacing", "columns", "coherence", "condition"})
#: Condition numbers this large are rounding-dominated (sigma_min ~ eps * sigma_max).
CONDITION_FLOOR = 1e15
CONDITIONING_COLUMNS = (
    ("columns", "Columns"),
    ("coherence", "Mutual coherence"),
    ("condition", "Condition number"),
)


def table_conditioning(csv_path: str | os.PathLike) -> Rendered | None:
    """Paper tab:conditioning from the CSV; ``None`` when it is missing, empty or incomplete."""
    paper = paper_table("tab:conditioning")
    path = Path(csv_path)
    if not path.is_file():
        return None
    df = pd.read_csv(path)
    if df.empty or not CONDITIONING_CSV_COLUMNS <= set(df.columns):
        return None
    dec = paper.decimals_of()
    rows, body = [], []
    for r in df.sort_values("spacing", ascending=False).itertuples(index=False):
        sp = fmt_fixed(r.spacing, dec["spacing"])
        cells = {
            "columns": str(int(cast(float, r.columns))),
            "coherence": fmt_fixed(r.coherence, dec["coherence"]),
            "condition": fmt_sci(r.condition, dec["condition_sci"]),
        }
        rows.append((sp, f"spacing {sp}", cells))
        body.append(table_row([sp, *(cells[c] for c, _ in CONDITIONING_COLUMNS)]))
    notes = []
    if (df["condition"].astype(float) >= CONDITION_FLOOR).any():
        notes.append(
            f"{paper.label}: condition numbers >= {CONDITION_FLOOR:.0e} have sigma_min at the "
            "double-precision floor (about sigma_max * 1e-16); their leading digit depends on "
            "the BLAS/LAPACK rounding, only the order of magnitude is reproducible"
        )
    latex = latex_table(paper.layout, body)
    return Rendered(paper.label, paper.layout.stem, latex, rows, list(CONDITIONING_COLUMNS), notes)
