"""``wp report``: every paper table and figure whose inputs exist, from the results directories.

:func:`render_all` reads

* ``<results_dir>`` (Parquet runs and fronts, :mod:`weakpareto.campaign.store`): the run-based
  tables (:func:`build_tables`), fig:robustness, tab:twod, tab:twod-width/-resolution;
* ``<results_dir>/../diagnostics``: ``conditioning.csv`` (tab:conditioning), ``forward.csv``
  (tab:forward), ``burgers_margin.csv`` (tab:burgers, fig:burgers) and
  ``local_identifiability.csv`` (tab:local-identifiability);
* ``<results_dir>/../bench/stages.csv``: tab:runtime;

and writes ``<stem>.tex`` plus ``<stem>_paper_vs_ours.md`` per table and PNG + PDF per figure to
``out_dir``. Tables without inputs are skipped with a note on stderr (not an error).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from weakpareto.campaign.store import load_fronts, load_runs
from weakpareto.reporting.figures import burgers_figure, robustness_figure
from weakpareto.reporting.markdown import Rendered, paper_vs_ours
from weakpareto.reporting.output import TableOutput, write_table_files
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables import burgers_margin, local_identifiability
from weakpareto.reporting.tables.ablation import table_ablation
from weakpareto.reporting.tables.appendix_cases import table_appendix
from weakpareto.reporting.tables.conditioning import table_conditioning
from weakpareto.reporting.tables.elbow_margin import table_elbow_margin
from weakpareto.reporting.tables.equations import table_equations
from weakpareto.reporting.tables.forward import write_forward
from weakpareto.reporting.tables.gaussian_noise import table_gaussian
from weakpareto.reporting.tables.ksens import ConditionFn, ksens_condition, table_ksens
from weakpareto.reporting.tables.main_results import table_main, table_rdnoise
from weakpareto.reporting.tables.progress import table_progress
from weakpareto.reporting.tables.robustness import table_robustness
from weakpareto.reporting.tables.runtime import write_runtime
from weakpareto.reporting.tables.superunit import table_superunit
from weakpareto.reporting.tables.twod import write_twod
from weakpareto.reporting.tables.twod_sensitivity import write_twod_sensitivity

#: Stems (without suffix) of the figures in ``out_dir``.
ROBUSTNESS_FIGURE_STEM = "fig_robustness"
BURGERS_FIGURE_STEM = "fig_burgers"


def build_tables(
    runs: pd.DataFrame,
    fronts: pd.DataFrame,
    conditioning_csv: str | os.PathLike | None = None,
    condition: ConditionFn | None = ksens_condition,
) -> tuple[list[Rendered], list[str]]:
    """Every cell-comparison table with data, plus notes for the skipped ones.

    ``condition`` computes tab:ksens's ``cond_2`` column (``None`` leaves it empty).
    """
    builders: list[tuple[str, Callable[[], Rendered | None]]] = [
        ("tab:main", lambda: table_main(runs)),
        ("tab:rdnoise", lambda: table_rdnoise(runs)),
        ("tab:progress", lambda: table_progress(fronts)),
        ("tab:equations", lambda: table_equations(runs)),
        ("tab:robustness", lambda: table_robustness(runs, "fade")),
        ("tab:robustness-burgers", lambda: table_robustness(runs, "burgers")),
        ("tab:ablation", lambda: table_ablation(runs)),
        ("tab:superunit", lambda: table_superunit(runs)),
        ("tab:gaussian-noise", lambda: table_gaussian(runs)),
        ("tab:appendix", lambda: table_appendix(runs)),
        (
            "tab:conditioning",
            lambda: table_conditioning(conditioning_csv) if conditioning_csv else None,
        ),
        ("tab:ksens", lambda: table_ksens(runs, condition)),
        ("tab:elbow-margin-sensitivity", lambda: table_elbow_margin(runs, fronts)),
    ]
    tables, notes = [], []
    for label, build in builders:
        rt = build()
        if rt is None:
            notes.append(f"{label}: skipped (no matching results)")
        else:
            tables.append(rt)
            notes.extend(rt.notes)
    return tables, notes


def write_rendered(rt: Rendered, out_dir: str | os.PathLike) -> list[Path]:
    """Write a cell-comparison table's ``.tex`` and ``_paper_vs_ours.md``."""
    return write_table_files(out_dir, rt.stem, TableOutput(rt.latex, paper_vs_ours(rt)))


def _read_csv(path: Path, need: frozenset[str]) -> pd.DataFrame | None:
    """A diagnostics CSV with at least the ``need`` columns; ``None`` if missing or unusable."""
    if not path.is_file():
        return None
    try:
        df = pd.read_csv(path)
    except (pd.errors.EmptyDataError, pd.errors.ParserError):
        return None
    if df.empty or not need <= set(df.columns):
        return None
    return df


def write_diagnostics(
    out_dir: str | os.PathLike = "results/tables",
    diagnostics_dir: str | os.PathLike = "results/diagnostics",
) -> list[Path]:
    """tab:burgers + fig:burgers and tab:local-identifiability from the diagnostics CSVs.

    Outputs whose CSV is missing or unusable are skipped (``[]`` when both are).
    """
    diag = Path(diagnostics_dir)
    paths: list[Path] = []
    burgers = _read_csv(diag / burgers_margin.CSV_NAME, burgers_margin.CSV_COLUMNS)
    if burgers is not None:
        stem = paper_table(burgers_margin.LABEL).layout.stem
        paths += write_table_files(out_dir, stem, burgers_margin.burgers_table(burgers))
        paths += burgers_figure(burgers, Path(out_dir) / BURGERS_FIGURE_STEM)
    local = _read_csv(diag / local_identifiability.CSV_NAME, local_identifiability.CSV_COLUMNS)
    if local is not None:
        stem = paper_table(local_identifiability.LABEL).layout.stem
        paths += write_table_files(out_dir, stem, local_identifiability.local_table(local))
    return paths


def _robustness_figure(
    runs: pd.DataFrame, out_dir: str | os.PathLike, notes: list[str]
) -> list[Path]:
    """Paper Fig. 2 (PNG + PDF) when FADE/Burgers robustness runs exist; else a note."""
    try:
        return robustness_figure(runs, Path(out_dir) / ROBUSTNESS_FIGURE_STEM)
    except ValueError as exc:  # no matching runs
        notes.append(f"fig:robustness: skipped ({exc})")
        return []


def render_all(
    results_dir: str | os.PathLike = "results/runs",
    out_dir: str | os.PathLike = "results/tables",
    conditioning_csv: str | os.PathLike | None = None,
) -> list[Path]:
    """Render every table that has results, and the figures; returns the written paths.

    ``conditioning_csv`` defaults to ``<results_dir>/../diagnostics/conditioning.csv``
    (written by ``scripts/conditioning.py``). Skipped tables/figures and missing cells are
    reported on stderr (not errors).
    """
    results = Path(results_dir).resolve().parent
    diagnostics = results / "diagnostics"
    if conditioning_csv is None:
        conditioning_csv = diagnostics / "conditioning.csv"
    runs = load_runs(results_dir)
    tables, notes = build_tables(runs, load_fronts(results_dir), conditioning_csv)
    paths: list[Path] = []
    for rt in tables:
        paths += write_rendered(rt, out_dir)
    paths += _robustness_figure(runs, out_dir, notes)
    paths += write_twod(runs, out_dir)  # [] when there are no 2-D runs
    paths += write_twod_sensitivity(runs, out_dir)  # width / resolution studies
    paths += write_forward(out_dir, diagnostics)  # [] without forward.csv
    paths += write_diagnostics(out_dir, diagnostics)  # tab:burgers, S_beta
    paths += write_runtime(out_dir, results / "bench")  # tab:runtime from `wp bench`
    for n in notes:
        print(f"wp report: {n}", file=sys.stderr)
    return paths
