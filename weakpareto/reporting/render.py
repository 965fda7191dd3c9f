"""``wp report``: every paper table and figure whose inputs exist, from the results directories.

:func:`render_all` reads

* ``<results_dir>`` (Parquet runs and fronts, :mod:`weakpareto.campaign.store`): the run-based
  tables (:func:`build_tables`), fig:robustness, tab:twod, tab:twod-width/-resolution, and
  fig:pareto and the tau_q rescoring (:mod:`weakpareto.reporting.paper_claims`);
* ``<results_dir>/../diagnostics``: ``conditioning.csv`` (tab:conditioning), ``forward.csv``
  (tab:forward), ``burgers_margin.csv`` (tab:burgers, fig:burgers),
  ``local_identifiability.csv`` (tab:local-identifiability) and ``temporal_profile.csv``
  (the five-arm temporal profile, tab:temporal-profile);
* ``<results_dir>/../bench/stages.csv``: tab:runtime;

and writes ``<stem>.tex`` plus ``<stem>_paper_vs_ours.md`` per table and PNG + PDF per figure to
``out_dir``. It also renders the study tables beyond the paper in place, from the CSV (and
sidecar) their scripts wrote under ``<results_dir>/..`` (``independent/``, ``model_class/``,
``measurement/``, ``beyond/``, ``uncertainty/``, ``bench/``;
:mod:`weakpareto.reporting.studies`). Tables without inputs are skipped with a note on stderr
(not an error). With ``html_dir`` it also writes the results page ``<html_dir>/index.html``
(:mod:`weakpareto.reporting.html.site`): every table beside the paper's values, the figures, the
tables beyond the paper and the provenance of the runs.

On stderr it also says how many of the runs behind each table failed (numerical failures stored
as ``failed`` rows count as not recovered; a table with failed runs lists them in a "Failed runs"
section of its paper-vs-ours file, :mod:`weakpareto.reporting.failures`) and how many compared
cells are the same as the paper's at the paper's precision.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from weakpareto.campaign.store import load_fronts, load_runs, recording_cells
from weakpareto.reporting.failures import Failures, failures_of, run_count, with_failures
from weakpareto.reporting.figures import burgers_figure, robustness_figure
from weakpareto.reporting.html.site import write_site
from weakpareto.reporting.markdown import Rendered, paper_vs_ours, same_cells
from weakpareto.reporting.output import TableOutput, write_table_files
from weakpareto.reporting.paper_claims import (
    claim_tables,
    pareto_figure_files,
    write_claim_diagnostics,
)
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.studies.registry import write_study_tables
from weakpareto.reporting.tables import (
    burgers_margin,
    local_identifiability,
    twod,
    twod_sensitivity,
)
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
from weakpareto.reporting.tables.yu import table_yu

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
        ("tab:yu", lambda: table_yu(runs)),
    ]
    tables, notes = [], []
    for label, build in builders:
        with recording_cells() as cells:
            rt = build()
        if rt is None:
            notes.append(f"{label}: skipped (no matching results)")
        else:
            rt.failures = failures_of(cells) if cells else None
            tables.append(rt)
            notes.extend(rt.notes)
    return tables, notes


def twod_tables(runs: pd.DataFrame) -> list[tuple[str, Callable[[], TableOutput]]]:
    """(label, builder) of the 2-D tables whose experiments have runs (tab:twod, -width,
    -resolution)."""
    out: list[tuple[str, Callable[[], TableOutput]]] = []
    if twod.has_twod_runs(runs):
        out.append((twod.LABEL, lambda: twod.table_twod(runs)))
    if twod_sensitivity.has_width_runs(runs):
        out.append((twod_sensitivity.WIDTH_LABEL, lambda: twod_sensitivity.table_twod_width(runs)))
    if twod_sensitivity.has_resolution_runs(runs):
        out.append(
            (twod_sensitivity.RES_LABEL, lambda: twod_sensitivity.table_twod_resolution(runs))
        )
    return out


def write_recorded(
    label: str, build: Callable[[], TableOutput], out_dir: str | os.PathLike
) -> tuple[list[Path], Failures | None]:
    """Build a run-based table while recording its runs; write it with its failed runs listed."""
    with recording_cells() as cells:
        table = build()
    failures = failures_of(cells) if cells else None
    markdown = with_failures(table.markdown, failures)
    stem = paper_table(label).layout.stem
    return write_table_files(out_dir, stem, TableOutput(table.latex, markdown)), failures


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
    html_dir: str | os.PathLike | None = None,
    studies: bool = True,
) -> list[Path]:
    """Render every table that has results, the figures and the study tables whose CSV exists
    under ``<results_dir>/..``; returns the written paths.

    ``conditioning_csv`` defaults to ``<results_dir>/../diagnostics/conditioning.csv``
    (written by ``scripts/conditioning.py``). Skipped tables/figures and missing cells are
    reported on stderr (not errors). ``html_dir``: also write the results page there (its
    beyond-paper tables are read from ``<results_dir>/..``). ``studies=False`` leaves the study
    tables under ``<results_dir>/..`` as they are.
    """
    results = Path(results_dir).resolve().parent
    diagnostics = results / "diagnostics"
    if conditioning_csv is None:
        conditioning_csv = diagnostics / "conditioning.csv"
    runs = load_runs(results_dir)
    with recording_cells() as every_cell:  # all runs behind the tables, for the summary
        fronts = load_fronts(results_dir)
        tables, notes = build_tables(runs, fronts, conditioning_csv)
        failures = {rt.label: rt.failures for rt in tables}
        paths: list[Path] = []
        for rt in tables:
            paths += write_rendered(rt, out_dir)
        paths += _robustness_figure(runs, out_dir, notes)
        paths += pareto_figure_files(runs, fronts, out_dir, notes)  # fig:pareto
        # 2-D tables (none without 2-D runs) and the tau_q rescoring (claims.py)
        for label, build in [*twod_tables(runs), *claim_tables(runs)]:
            written, failures[label] = write_recorded(label, build, out_dir)
            paths += written
    paths += write_forward(out_dir, diagnostics)  # [] without forward.csv
    paths += write_diagnostics(out_dir, diagnostics)  # tab:burgers, S_beta
    paths += write_claim_diagnostics(out_dir, diagnostics)  # five-arm temporal profile
    paths += write_runtime(out_dir, results / "bench")  # tab:runtime from `wp bench`
    if studies:  # before the page, which shows the study tables from their files
        paths += write_study_tables(results, notes)
    if html_dir is not None:
        paths += write_site(html_dir, out_dir, results, runs, failures)
    for n in notes:
        print(f"wp report: {n}", file=sys.stderr)
    for line in summary_lines(failures, run_count(every_cell), paths):
        print(f"wp report: {line}", file=sys.stderr)
    return paths


def summary_lines(
    failures: dict[str, Failures | None], total_runs: int, paths: list[Path]
) -> list[str]:
    """Failed runs per table (only tables with failures are named) and the cells that are the
    same as the paper's at its precision, over every paper-vs-ours file written."""
    failed = {label: f for label, f in failures.items() if f is not None and f.count}
    lines = [f.summary(label) for label, f in failed.items()]
    if failed:
        lines.append(
            f"failed runs in {len(failed)} of {len(failures)} run-based tables; each table's "
            "paper-vs-ours file lists them (they count as not recovered)"
        )
    elif total_runs:
        lines.append(f"failed runs: none among the {total_runs} runs behind the tables")
    same = compared = 0
    for p in paths:
        if p.name.endswith("_paper_vs_ours.md"):
            s, c = same_cells(p.read_text(encoding="utf-8"))
            same, compared = same + s, compared + c
    if compared:
        lines.append(f"same at paper precision: {same} of {compared} compared cells")
    return lines
