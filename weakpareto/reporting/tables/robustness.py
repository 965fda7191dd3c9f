"""Paper tab:robustness (FADE) and our Burgers counterpart: weak versus strong-form library.

Per noise level the same best-subset selector with the weak library (Weak-Pareto) and with the
strong-form pointwise library (Strong-Pareto): support/power recovery, the conditioned mean of
``e_xi^max`` and the mean ``E_fit`` (scientific). The paper tabulates FADE only; Burgers is its
Fig. 2b (``tab_robustness_burgers``).
"""

from __future__ import annotations

import pandas as pd

from weakpareto.campaign.store import select_cell
from weakpareto.evaluation.metrics import EMPTY, fmt_mean, fmt_sci_mean, summarise
from weakpareto.reporting.latex import latex_table, noise_pct, table_row
from weakpareto.reporting.markdown import Rendered
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.common import missing_note

ROBUST_NOISES = (0.0, 0.01, 0.05, 0.10, 0.20)
#: (column prefix, method) of the two halves of the table.
ROBUST_METHODS = (("weak", "weak_pareto"), ("strong", "strong_pareto"))
ROBUST_COLUMNS: tuple[tuple[str, str], ...] = (
    ("weak_support", "Weak support/power"),
    ("weak_e_xi_max", "Weak e_xi^max"),
    ("weak_fit_error", "Weak E_fit"),
    ("strong_support", "Strong support/power"),
    ("strong_e_xi_max", "Strong e_xi^max"),
    ("strong_fit_error", "Strong E_fit"),
)


def robustness_label(benchmark: str) -> str:
    """``tab:robustness`` for FADE, ``tab:robustness-<benchmark>`` otherwise."""
    return "tab:robustness" if benchmark == "fade" else f"tab:robustness-{benchmark}"


def table_robustness(runs: pd.DataFrame, benchmark: str = "fade") -> Rendered | None:
    """Paper tab:robustness for ``benchmark``; ``None`` when neither method has runs."""
    paper = paper_table(robustness_label(benchmark))
    dec = paper_table("tab:robustness").decimals_of()
    rows, body, notes = [], [], []
    for noise in ROBUST_NOISES:
        pct = noise_pct(noise)
        cells: dict[str, str] = {}
        for tag, method in ROBUST_METHODS:
            df = select_cell(runs, benchmark, noise, method=method)
            if df.empty:
                notes.append(missing_note(paper.label, f"{method} at {pct} %"))
                cells.update({f"{tag}_{c}": EMPTY for c in ("support", "e_xi_max", "fit_error")})
                continue
            s = summarise(df)
            cells[f"{tag}_support"] = s.count("support")
            cells[f"{tag}_e_xi_max"] = fmt_mean(s.conditioned["e_xi_max"], dec["e_xi_max"])
            cells[f"{tag}_fit_error"] = fmt_sci_mean(s.fit_error, dec["fit_error_sci"])
        rows.append((pct, f"{pct} %", cells))
        body.append(table_row([pct, *(cells[c] for c, _ in ROBUST_COLUMNS)]))
    if len(notes) == len(ROBUST_METHODS) * len(ROBUST_NOISES):
        return None
    latex = latex_table(paper.layout, body)
    return Rendered(paper.label, paper.layout.stem, latex, rows, list(ROBUST_COLUMNS), notes)
