"""tab_independent: every method on fields its discretisations did not make.

Rendered from ``tab_independent.csv`` (``scripts/independent_suite.py``, one row per case and
method): the Markdown lists the judged cases passed per method, then every row; the LaTeX
tabular has the errors and the verdict per case and method.
"""

from __future__ import annotations

import os

import pandas as pd

from weakpareto.reporting.studies.common import cell, csv_path, pipe_table, read_table, tabular
from weakpareto.reporting.studies.common import tex_text as tex

STEM = "tab_independent"
COLUMNS = ["case", "method", "equation", "e_alpha", "e_beta_max", "e_xi_max", "passed",
           "seconds", "warnings"]  # fmt: skip
LATEX_HEADER = r"case & method & $|\Delta\alpha|$ & $\max|\Delta\beta|$ & $\max e_\xi$ & pass"


def markdown(df: pd.DataFrame) -> str:
    """Passes per method over the judged cases (``passed`` not empty), then the table."""
    lines = ["# tab_independent: methods on data their discretisations did not make", ""]
    judged = df[df["passed"].notna()]
    for method, g in judged.groupby("method", sort=False):
        lines.append(f"- {method}: {int(g['passed'].sum())}/{len(g)} judged cases pass")
    rows = ([cell(r[c]) for c in COLUMNS] for _, r in df.iterrows())
    lines += ["", *pipe_table(COLUMNS, rows)]
    return "\n".join(lines) + "\n"


def latex(df: pd.DataFrame) -> str:
    """Case, method, the three errors and the verdict per row."""
    rows = (
        [tex(str(r["case"])), tex(str(r["method"]))]
        + [cell(r[c]) for c in ("e_alpha", "e_beta_max", "e_xi_max", "passed")]
        for _, r in df.iterrows()
    )
    return "\n".join(tabular("llrrrl", LATEX_HEADER, rows)) + "\n"


def render(directory: str | os.PathLike) -> dict[str, str]:
    """``{".md": ..., ".tex": ...}`` from ``<directory>/tab_independent.csv``."""
    df = read_table(csv_path(directory, STEM), text=("warnings",))
    return {".md": markdown(df), ".tex": latex(df)}
