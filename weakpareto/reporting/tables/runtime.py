"""Paper tab:runtime from ``results/bench/stages.csv`` (written by ``wp bench``; Sec. runtime).

Rows FADE, Frac. RD (space), Frac. Burgers: weak and strong per-seed wall time (median of the
bench repeats, one BLAS thread, 10 % noise, seed 0; the weak time in the paper's optimiser mode,
immediate updating, when ``wp bench`` wrote that row), weak rows K and the DE budget. The paper's
times were measured on an Apple M4 Pro with the published implementation; ours on the machine
named in ``results/bench/machine.json``, so the comparison is descriptive.

The DE budget is the one the timed runs used: ``wp bench`` stores each row's ``de_popsize`` and
``de_maxiter`` (and the updating mode) from its composed config. A ``stages.csv`` written before
those columns existed gets the budget of the benchmark's composed config (``conf/``), as
``wp bench`` without overrides would have used.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from weakpareto.campaign.compose import compose_config
from weakpareto.evaluation.metrics import EMPTY
from weakpareto.reporting.latex import latex_table, table_row
from weakpareto.reporting.output import TableOutput, write_table_files
from weakpareto.reporting.paper_values import paper_table

LABEL = "tab:runtime"
CSV_NAME = "stages.csv"
#: (benchmark, LaTeX label): paper row order.
ROWS = (("fade", "FADE"), ("rd_space", "Frac. RD (space)"), ("burgers", "Frac. Burgers"))
#: (column id, Markdown name) of the comparison.
RUNTIME_COLUMNS = (
    ("weak_time", "Weak time (s)"),
    ("strong_time", "Strong time (s)"),
    ("rows", "Weak rows K"),
    ("de_budget", "DE budget"),
)


#: ``wp bench`` row of the paper's optimiser semantics (immediate updating), like for like with
#: the published timings; older ``stages.csv`` files only have the plain (default-mode) row.
PAPER_EXACT = " (paper-exact)"


def weak_key(stages: pd.DataFrame, benchmark: str) -> str:
    """The weak row shown for a benchmark: the paper-exact row when the bench wrote one."""
    exact = benchmark + PAPER_EXACT
    return exact if (stages["benchmark"] == exact).any() else benchmark


def _time(stages: pd.DataFrame, key: str) -> float | None:
    hit = stages.loc[stages["benchmark"] == key, "total_s"]
    return float(hit.iloc[0]) if len(hit) else None


def as_text(cell: str) -> str:
    r"""A runtime cell for the notes: ``$\sim2640$`` -> ``2640``, ``$7\times24$`` -> ``7x24``."""
    return cell.replace("$", "").replace(r"\sim", "").replace(r"\times", "x")


def _configured(benchmark: str) -> tuple[int, int, str]:
    """(popsize, maxiter, updating) of the benchmark's composed config (older stages.csv)."""
    s = compose_config([f"benchmark={benchmark}", "noise=0.1"]).search
    return int(s.popsize), int(s.maxiter), str(s.updating)


def de_budget(stages: pd.DataFrame, benchmark: str) -> tuple[str, str]:
    r"""The DE budget of a benchmark's timed row (``$7	imes24$``) and its updating mode (``""``
    when the CSV does not say: written before ``wp bench`` stored it)."""
    row = stages.loc[stages["benchmark"] == benchmark]
    cols = ("de_popsize", "de_maxiter")
    if len(row) and all(c in row.columns and pd.notna(row[c].iloc[0]) for c in cols):
        popsize, maxiter = int(row["de_popsize"].iloc[0]), int(row["de_maxiter"].iloc[0])
        mode = row["de_updating"].iloc[0] if "de_updating" in row.columns else None
        updating = str(mode) if mode is not None and pd.notna(mode) else ""
    else:
        popsize, maxiter, _ = _configured(benchmark.removesuffix(PAPER_EXACT))
        updating = ""
    return rf"${popsize}\times{maxiter}$", updating


def runtime_tables(stages: pd.DataFrame) -> TableOutput:
    """LaTeX table and paper-vs-ours Markdown for tab:runtime."""
    paper = paper_table(LABEL)
    dec = paper.decimals_of()["time"]
    body = []
    md = [
        "# tab:runtime: paper vs ours",
        "",
        "Paper: published implementation on an Apple M4 Pro; ours: `wp bench` on this machine "
        "(results/bench/machine.json). Descriptive timings, not a like-for-like comparison.",
        "",
        "| Row | Column | Paper | Ours |",
        "|---|---|---|---|",
    ]
    modes: dict[str, str] = {}
    for bench, label in ROWS:
        key = weak_key(stages, bench)
        budget, modes[label] = de_budget(stages, key)
        weak, strong = _time(stages, key), _time(stages, f"{bench} (strong)")
        k = stages.loc[stages["benchmark"] == key, "n_rows"]
        k_val = int(k.iloc[0]) if len(k) else None
        cells = {
            "weak_time": EMPTY if weak is None else f"{weak:.{dec}f}",
            "strong_time": EMPTY if strong is None else f"{strong:.{dec}f}",
            "rows": EMPTY if k_val is None else rf"$\sim{k_val}$",
            "de_budget": budget,
        }
        body.append(table_row([label, *(cells[c] for c, _ in RUNTIME_COLUMNS)]))
        for col, name in RUNTIME_COLUMNS:
            md.append(
                f"| {label} | {name} | {as_text(paper.value(bench, col))} | {as_text(cells[col])} |"
            )
    if any(modes.values()):
        md += [
            "",
            "Our DE updating per row (from the timed config): "
            + ", ".join(f"{label} {mode or 'not recorded'}" for label, mode in modes.items())
            + ".",
        ]
    return TableOutput(latex_table(paper.layout, body), "\n".join(md) + "\n")


def write_runtime(
    out_dir: str | os.PathLike = "results/tables", bench_dir: str | os.PathLike = "results/bench"
) -> list[Path]:
    """Write ``tab_runtime.tex`` and its paper-vs-ours file; ``[]`` without ``stages.csv``."""
    csv = Path(bench_dir) / CSV_NAME
    if not csv.is_file():
        return []
    stem = paper_table(LABEL).layout.stem
    return write_table_files(out_dir, stem, runtime_tables(pd.read_csv(csv)))
