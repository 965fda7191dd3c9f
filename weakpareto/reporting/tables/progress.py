"""Paper tab:progress: training and validation error of the best model per support size.

From the stored Pareto fronts (:func:`weakpareto.campaign.store.load_fronts`) of one run: FADE at
5 % multiplicative noise, seed 0, Weak-Pareto default variant, latest run (Sec. "Model selection
via Pareto-based subset selection").
"""

from __future__ import annotations

from typing import cast

import numpy as np
import pandas as pd

from weakpareto.evaluation.metrics import fmt_sci
from weakpareto.reporting.latex import latex_table, table_row
from weakpareto.reporting.markdown import Rendered
from weakpareto.reporting.paper_values import paper_table

PROGRESS_COLUMNS: tuple[tuple[str, str], ...] = (
    ("train_error", "Training error"),
    ("val_error", "Validation error"),
    ("selected", "Selected"),
)
CHECKMARK = r"$\checkmark$"


def latest_front(
    fronts: pd.DataFrame, benchmark: str, noise: float, seed: int, method: str = "weak_pareto"
) -> pd.DataFrame:
    """Front points (sorted by size) of the latest default-variant run of one seed."""
    if fronts.empty:
        return fronts
    m = (
        (fronts["benchmark"] == benchmark)
        & (fronts["method"] == method)
        & (fronts["variant"] == "default")
        & (fronts["noise_law"] == "multiplicative")
        & (fronts["seed"] == seed)
        & np.isclose(fronts["noise"].astype(float), noise, rtol=0.0, atol=1e-9)
    )
    df = fronts.loc[m]
    if df.empty:
        return df
    latest = df.sort_values("created_utc", kind="stable").iloc[-1]["config_hash"]
    return df[df["config_hash"] == latest].sort_values("size")


def table_progress(
    fronts: pd.DataFrame, benchmark: str = "fade", noise: float = 0.05, seed: int = 0
) -> Rendered | None:
    """Paper tab:progress; ``None`` without a matching front."""
    paper = paper_table("tab:progress")
    df = latest_front(fronts, benchmark, noise, seed)
    if df.empty:
        return None
    dec = paper.decimals_of()
    rows, body = [], []
    for r in df.itertuples(index=False):
        size = str(int(cast(float, r.size)))
        cells = {
            "train_error": fmt_sci(r.train_error, dec["train_error_sci"]),
            "val_error": fmt_sci(r.val_error, dec["val_error_sci"]),
            "selected": CHECKMARK if bool(r.selected) else "",
        }
        rows.append((size, f"c = {size}", cells))
        body.append(table_row([size, *(cells[c] for c, _ in PROGRESS_COLUMNS)]))
    latex = latex_table(paper.layout, body)
    return Rendered(paper.label, paper.layout.stem, latex, rows, list(PROGRESS_COLUMNS))
