"""Paper tab:runtime from ``results/bench/stages.csv`` (written by ``wp bench``).

Rows FADE, Frac. RD (space), Frac. Burgers: weak and strong per-seed wall time (median of the
bench repeats, one BLAS thread, 10 % noise, seed 0), weak rows K and the DE budget. The paper's
times were measured on an Apple M4 Pro with the published implementation; ours on the machine
named in ``results/bench/machine.json``, so the comparison is descriptive.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from weakpareto.io import write_text_atomic

LABEL = "tab:runtime"
STEM = "tab_runtime"
#: (benchmark, LaTeX label): paper row order.
ROWS = (("fade", "FADE"), ("rd_space", "Frac. RD (space)"), ("burgers", "Frac. Burgers"))
#: Paper cells (weak s, strong s, K, DE budget).
PAPER_RUNTIME = {
    "fade": (7.4, 5.0, 2640, r"7\times24"),
    "rd_space": (1.8, 3.2, 1440, r"7\times24"),
    "burgers": (8.6, 5.5, 2640, r"7\times24"),
}


def _time(stages: pd.DataFrame, key: str) -> float | None:
    hit = stages.loc[stages["benchmark"] == key, "total_s"]
    return float(hit.iloc[0]) if len(hit) else None


def runtime_tables(stages: pd.DataFrame, de_budget: str = r"7\times24") -> tuple[str, str]:
    """LaTeX table and paper-vs-ours Markdown for tab:runtime."""
    lines = [
        r"\begin{table}[t]",
        r"\caption{Runtime and search budget (uncached serial single-seed runs, one BLAS thread; "
        r"$K$ weak rows; DE population multiplier $\times$ generations). Wall-clock seconds "
        r"(reproduction).}\label{tab:runtime}",
        r"\begin{tabular*}{\textwidth}{@{\extracolsep\fill}lcccc}",
        r"\toprule",
        r"Benchmark & Weak time (s) & Strong time (s) & Weak rows $K$ & DE budget \\",
        r"\midrule",
    ]
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
        cells = [
            "--" if weak is None else f"{weak:.2f}",
            "--" if strong is None else f"{strong:.2f}",
            "--" if k_val is None else rf"$\sim{k_val}$",
            f"${de_budget}$",
        ]
        lines.append(" & ".join([label, *cells]) + r" \\")
        pw, ps, pk, pde = PAPER_RUNTIME[bench]
        for col, p, o in (
            ("Weak time (s)", pw, cells[0]),
            ("Strong time (s)", ps, cells[1]),
            ("Weak rows K", pk, "--" if k_val is None else str(k_val)),
            ("DE budget", pde.replace("\\times", "x"), de_budget.replace("\\times", "x")),
        ):
            md.append(f"| {label} | {col} | {p} | {o} |")
    lines += [r"\bottomrule", r"\end{tabular*}", r"\end{table}"]
    return "\n".join(lines) + "\n", "\n".join(md) + "\n"


def write_runtime(
    out_dir: str | os.PathLike = "results/tables", bench_dir: str | os.PathLike = "results/bench"
) -> list[Path]:
    """Write ``tab_runtime.tex`` and its paper-vs-ours file; ``[]`` without ``stages.csv``."""
    csv = Path(bench_dir) / "stages.csv"
    if not csv.is_file():
        return []
    latex, md = runtime_tables(pd.read_csv(csv))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    return [
        write_text_atomic(out / f"{STEM}.tex", latex),
        write_text_atomic(out / f"{STEM}_paper_vs_ours.md", md),
    ]
