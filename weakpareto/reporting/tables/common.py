"""What the run-based paper tables share: benchmark names, run-group cells and run selection.

Cells aggregate the runs of one table cell group (one benchmark/noise/method/variant, latest run per
seed: :func:`weakpareto.campaign.store.select_cell`) following docs/method/metrics.md#aggregation
(:func:`weakpareto.evaluation.metrics.summarise`): counts over all runs, errors as mean ± sample SD
over the support-recovered runs, ``E_fit`` over all runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from weakpareto.campaign.store import select_cell
from weakpareto.evaluation.metrics import EMPTY, mean_sd, summarise

#: Row names as typeset in the paper (tab:main, tab:rdnoise, tab:appendix), by benchmark key.
BENCH_TEX = {
    "fade": "FADE",
    "rd_space": r"\shortstack[l]{Frac. RD\\(space)}",
    "rd_timespace": r"\shortstack[l]{Frac. RD\\(time--space)}",
    "burgers": "Burgers",
    "ade": "ADE",
    "riesz2": r"\shortstack[l]{Two-term\\Riesz}",
}
#: Plain benchmark names for the Markdown notes.
BENCH_PLAIN = {
    "fade": "FADE",
    "rd_space": "Frac. RD (space)",
    "rd_timespace": "Frac. RD (time-space)",
    "burgers": "Frac. Burgers",
    "ade": "ADE",
    "riesz2": "Two-term Riesz",
    "superunit": "Superunit",
}
#: Columns of the 10 %-noise comparison tables (tab:ablation, tab:gaussian-noise, tab:appendix).
COMPARISON_COLUMNS: tuple[tuple[str, str], ...] = (
    ("support", "Supp./pow."),
    ("operator", "Oper./struct."),
    ("e_beta_max", "e_beta^max"),
    ("e_xi_max", "e_xi^max"),
    ("fit_error", "E_fit"),
)
#: Columns holding recovery counts ``k/n`` rather than mean ± SD.
COUNT_COLUMNS = frozenset({"support", "operator", "branch"})


def missing_note(label: str, what: str) -> str:
    """``tab:main: no runs for burgers at 10 %``."""
    return f"{label}: no runs for {what}"


def count_cell(df: pd.DataFrame, which: str) -> str:
    """``k/n`` recoveries (``which``: support, operator or branch), ``--`` without runs."""
    return EMPTY if df.empty else summarise(df).count(which)


def math_count_cell(df: pd.DataFrame, which: str) -> str:
    """``$k/n$`` (the 2-D tables' typography), ``--`` without runs."""
    return EMPTY if df.empty else f"${summarise(df).count(which)}$"


def pm_cell(df: pd.DataFrame, column: str, decimals: int) -> str:
    r"""``$m\pm s$`` of ``column`` (conditioned errors; ``fit_error`` over all runs)."""
    return EMPTY if df.empty else summarise(df).pm(column, decimals)


def group_cells(
    df: pd.DataFrame, columns: Sequence[str], decimals: Mapping[str, int]
) -> dict[str, str]:
    """Cells of one run group: counts for :data:`COUNT_COLUMNS`, mean ± SD for the others."""
    return {
        c: count_cell(df, c) if c in COUNT_COLUMNS else pm_cell(df, c, decimals[c]) for c in columns
    }


def at_noise(df: pd.DataFrame, noise: float) -> pd.DataFrame:
    """Rows of ``df`` at one noise level (absolute tolerance 1e-9)."""
    if df.empty:
        return df
    return df[np.isclose(df["noise"].astype(float), noise, rtol=0.0, atol=1e-9)]


def support_recovered(df: pd.DataFrame) -> pd.DataFrame:
    """Rows with support/power (2-D: support/direction) recovery."""
    if df.empty:
        return df
    return df[df["support_ok"].fillna(False).astype(bool)]


def noise_sweep(
    runs: pd.DataFrame,
    benchmark: str,
    noises: Sequence[float],
    method: str = "weak_pareto",
    variant: str = "default",
    noise_law: str = "multiplicative",
) -> pd.DataFrame:
    """Runs of one benchmark over several noise levels; one row per (noise, seed), latest wins."""
    if runs.empty:
        return runs
    cells = [select_cell(runs, benchmark, n, method, variant, noise_law) for n in noises]
    cells = [c for c in cells if not c.empty]
    if not cells:
        return runs.iloc[0:0]
    return pd.concat(cells).sort_values(["noise", "seed"], kind="stable")


def runtime_cell(df: pd.DataFrame) -> str:
    """Mean ± sample SD of the per-seed runtime in seconds (``12.3 ± 0.4``), ``--`` without runs."""
    ms = mean_sd(df["runtime_s"]) if not df.empty else None
    return EMPTY if ms is None else f"{ms[0]:.1f} ± {ms[1]:.1f}"
