"""Paper tab:runtime from ``results/bench/stages.csv`` (written by ``wp bench``; Sec. runtime).

Rows FADE, Frac. RD (space), Frac. Burgers: weak and strong per-seed wall time (median of the
bench repeats, one BLAS thread, 10 % noise, seed 0), weak rows K and the DE budget. The paper's
times were measured on an Apple M4 Pro with the published implementation; ours on the machine
named in ``results/bench/machine.json``, so the comparison is descriptive.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from weakpareto.evaluation.metrics import EMPTY
from weakpareto.reporting.latex import latex_table, table_row
from weakpareto.reporting.output import TableOutput, write_table_files
from weakpareto.reporting.paper_values import paper_table

LABEL = "tab:runtime"
CSV_NAME = "stages.csv"
#: (benchmark, LaTeX label): paper row order.
ROWS = (("fade", "FADE"), ("rd_space", "Frac. RD (space)"), ("burgers", "Frac. Burgers"))
#: Our DE budget (population multiplier x generations), as configured for every benchmark.
DE_BUDGET = r"7\times24"
#: (column id, Markdown name) of the comparison.
RUNTIME_COLUMNS = (
    ("weak_time", "Weak time (s)"),
    ("strong_time", "Strong time (s)"),
    ("rows", "Weak rows K"),
    ("de_budget", "DE budget"),
)


def _time(stages: pd.DataFrame, key: str) -> float | None:
    hit = stages.loc[stages["benchmark"] == key, "total_s"]
    return float(hit.iloc[0]) if len(hit) else None


def as_text(cell: str) -> str:
    r"""A runtime cell for the notes: ``$\sim2640$`` -> ``2640``, ``$7\times24$`` -> ``7x24``."""
    return cell.replace("$", "").replace(r"\sim", "").replace(r"\times", "x")


def runtime_tables(stages: pd.DataFrame, de_budget: str = DE_BUDGET) -> TableOutput:
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
    for bench, label in ROWS:
        weak, strong = _time(stages, bench), _time(stages, f"{bench} (strong)")
        k = stages.loc[stages["benchmark"] == bench, "n_rows"]
        k_val = int(k.iloc[0]) if len(k) else None
        cells = {
            "weak_time": EMPTY if weak is None else f"{weak:.{dec}f}",
            "strong_time": EMPTY if strong is None else f"{strong:.{dec}f}",
            "rows": EMPTY if k_val is None else rf"$\sim{k_val}$",
            "de_budget": f"${de_budget}$",
        }
        body.append(table_row([label, *(cells[c] for c, _ in RUNTIME_COLUMNS)]))
        for col, name in RUNTIME_COLUMNS:
            md.append(
                f"| {label} | {name} | {as_text(paper.value(bench, col))} | {as_text(cells[col])} |"
            )
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
