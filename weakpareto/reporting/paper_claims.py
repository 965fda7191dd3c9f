"""Paper claims outside its tables that ``wp report`` regenerates:

* fig:pareto (:mod:`weakpareto.reporting.pareto_figure`) from the stored fronts:
  ``fig_pareto.png`` / ``.pdf``;
* the tau_q rescoring of the 60 matched noisy runs
  (:mod:`weakpareto.reporting.tables.tau_rescoring`)
  from the runs: ``tab_tau_rescoring.tex`` + paper-vs-ours;
* the five-arm oracle temporal profile (:mod:`weakpareto.reporting.tables.temporal_profile`) from
  ``<results>/diagnostics/temporal_profile.csv`` (``scripts/temporal_profile.py``):
  ``tab_temporal_profile.tex`` + paper-vs-ours.

Each is skipped (with a note for the figure) when its inputs are missing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from weakpareto.reporting.output import TableOutput, write_table_files
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.pareto_figure import PARETO_FIGURE_STEM, pareto_figure
from weakpareto.reporting.tables import tau_rescoring, temporal_profile


def pareto_figure_files(
    runs: pd.DataFrame, fronts: pd.DataFrame, out_dir: str | os.PathLike, notes: list[str]
) -> list[Path]:
    """fig:pareto (PNG + PDF) when the FADE 5 % seed-0 front exists; else a note."""
    try:
        return pareto_figure(fronts, runs, Path(out_dir) / PARETO_FIGURE_STEM)
    except ValueError as exc:
        notes.append(f"fig:pareto: skipped ({exc})")
        return []


def claim_tables(runs: pd.DataFrame) -> list[tuple[str, Callable[[], TableOutput]]]:
    """(label, builder) of the run-based claim tables with runs (the tau_q rescoring)."""
    if not tau_rescoring.counts(runs):
        return []

    def build() -> TableOutput:
        table = tau_rescoring.table_tau_rescoring(runs)
        assert table is not None  # counts() found matched runs
        return table

    return [(tau_rescoring.LABEL, build)]


def write_claim_diagnostics(
    out_dir: str | os.PathLike, diagnostics_dir: str | os.PathLike
) -> list[Path]:
    """tab:temporal-profile from ``temporal_profile.csv``; ``[]`` when it is missing/unusable."""
    path = Path(diagnostics_dir) / temporal_profile.CSV_NAME
    if not path.is_file():
        return []
    try:
        df = pd.read_csv(path)
    except (pd.errors.EmptyDataError, pd.errors.ParserError):
        return []
    if df.empty or not temporal_profile.CSV_COLUMNS <= set(df.columns):
        return []
    table = temporal_profile.temporal_profile_table(df)
    if table is None:
        return []
    stem = paper_table(temporal_profile.LABEL).layout.stem
    return write_table_files(out_dir, stem, table)
