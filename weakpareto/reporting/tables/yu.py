"""Paper tab:yu (App. app:yu): Weak-Pareto versus the Yu et al. adaptation on FADE.

Rows: ``weak_pareto`` with the table's DE budget 6 x 20
(docs/method/experiments.md#yu-comparison-budget), ``yu_neural`` (full neural framework) and
``yu_spline`` (optimiser-only variant), each at 0/1/5 % noise, the runs of ``+experiment=yu``
(variant ``yu``). Cells: operator recovery over all seeds; ``e_alpha``, ``e_beta^max`` and
``e_xi^max`` as mean ± sample SD over the support-recovered runs; runtime as mean ± sample SD of the
per-seed wall time over all seeds, measured on this machine.
"""

from __future__ import annotations

import pandas as pd

from weakpareto.campaign.store import select_cell
from weakpareto.evaluation.metrics import EMPTY, fmt_pm, summarise
from weakpareto.reporting.latex import latex_table, multirow, noise_pct, table_row
from weakpareto.reporting.markdown import Rendered
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.common import missing_note

LABEL = "tab:yu"
YU_VARIANT = "yu"
YU_NOISES = (0.0, 0.01, 0.05)
#: (method, LaTeX row-group name) in the paper's order.
YU_METHODS: tuple[tuple[str, str], ...] = (
    ("weak_pareto", "Weak-Pareto"),
    ("yu_neural", "Yu framework"),
    ("yu_spline", "Yu optimiser-only"),
)
YU_COLUMNS: tuple[tuple[str, str], ...] = (
    ("operator", "Op. rec."),
    ("e_alpha", "e_alpha"),
    ("e_beta_max", "e_beta^max"),
    ("e_xi_max", "e_xi^max"),
    ("runtime", "Runtime (s)"),
)
NOTES = (
    "Weak-Pareto rows use the DE budget 6 x 20 of this table "
    "(docs/method/experiments.md#yu-comparison-budget), not the 7 x 24 of tab:robustness; runs "
    "of `+experiment=yu` (variant `yu`).",
    "Yu rows are our implementation from the published description (Yu et al.'s code has no "
    "licence and was not used); the constant library column is reported as a term that never "
    "matches the truth, so a model keeping it has the wrong support.",
    "Runtime is the wall time per seed measured here (one thread per run); the paper's are from "
    "its own CPU, so only their ratios are comparable.",
)


def yu_cells(df: pd.DataFrame, decimals: dict[str, int]) -> dict[str, str]:
    """The cells of one (method, noise) group."""
    if df.empty:
        return {c: EMPTY for c, _ in YU_COLUMNS}
    s = summarise(df)
    cells = {"operator": s.count("operator")}
    for c in ("e_alpha", "e_beta_max", "e_xi_max"):
        cells[c] = s.pm(c, decimals[c])
    cells["runtime"] = fmt_pm(df["runtime_s"], decimals["runtime"])
    return cells


def table_yu(runs: pd.DataFrame) -> Rendered | None:
    """Paper tab:yu; ``None`` when no row has runs."""
    paper = paper_table(LABEL)
    rows, body, notes = [], [], []
    found = 0
    for g, (method, name) in enumerate(YU_METHODS):
        if g:
            body.append(r"\midrule")
        dec = dict(paper.decimals_of(method))
        for i, noise in enumerate(YU_NOISES):
            pct = noise_pct(noise)
            df = select_cell(runs, "fade", noise, method=method, variant=YU_VARIANT)
            if df.empty:
                notes.append(missing_note(paper.label, f"{method} on fade at {pct} %"))
            else:
                found += 1
            cells = yu_cells(df, dec)
            rows.append((f"{method}@{pct}", f"{name} {pct} %", cells))
            label = multirow(len(YU_NOISES), name) if i == 0 else ""
            body.append(table_row([label, pct, *(cells[c] for c, _ in YU_COLUMNS)]))
    if not found:
        return None
    latex = latex_table(paper.layout, body)
    return Rendered(paper.label, paper.layout.stem, latex, rows, list(YU_COLUMNS), [*NOTES, *notes])
