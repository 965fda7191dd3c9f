"""Paper tab:main (four main benchmarks at 10 % noise) and tab:rdnoise (Riesz RD versus noise).

Both aggregate Weak-Pareto runs (default variant, multiplicative noise) per benchmark and noise
level: recovery counts over all seeds, errors as mean ± sample SD over the support-recovered seeds,
``E_fit`` over all seeds, at the paper's decimals (docs/method/metrics.md#aggregation;
Sec. "Main results").
"""

from __future__ import annotations

import pandas as pd

from weakpareto.campaign.store import select_cell
from weakpareto.reporting.latex import latex_table, multirow, noise_pct, table_row
from weakpareto.reporting.markdown import Rendered
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.common import BENCH_PLAIN, BENCH_TEX, group_cells, missing_note

MAIN_BENCHMARKS = ("fade", "rd_space", "rd_timespace", "burgers")
MAIN_NOISE = 0.10
MAIN_COLUMNS: tuple[tuple[str, str], ...] = (
    ("support", "Support/power"),
    ("operator", "Operator structure"),
    ("e_alpha", "e_alpha"),
    ("e_beta_max", "e_beta^max"),
    ("e_xi_max", "e_xi^max"),
    ("e_xi_2", "e_xi,2"),
    ("fit_error", "E_fit"),
)

RD_BENCHMARKS = ("rd_space", "rd_timespace")
RD_NOISES = (0.0, 0.02, 0.05, 0.10)
RDNOISE_COLUMNS: tuple[tuple[str, str], ...] = tuple(c for c in MAIN_COLUMNS if c[0] != "e_xi_2")


def table_main(runs: pd.DataFrame) -> Rendered | None:
    """Paper tab:main; ``None`` when no main benchmark has runs at 10 %."""
    paper = paper_table("tab:main")
    rows, body, notes = [], [], []
    for b in MAIN_BENCHMARKS:
        df = select_cell(runs, b, MAIN_NOISE)
        if df.empty:
            notes.append(missing_note(paper.label, f"{b} at {noise_pct(MAIN_NOISE)} %"))
        cells = group_cells(df, [c for c, _ in MAIN_COLUMNS], paper.decimals_of(b))
        rows.append((b, BENCH_PLAIN[b], cells))
        body.append(table_row([BENCH_TEX[b], *(cells[c] for c, _ in MAIN_COLUMNS)]))
    if len(notes) == len(MAIN_BENCHMARKS):
        return None
    latex = latex_table(paper.layout, body)
    return Rendered(paper.label, paper.layout.stem, latex, rows, list(MAIN_COLUMNS), notes)


def table_rdnoise(runs: pd.DataFrame) -> Rendered | None:
    """Paper tab:rdnoise (4 decimals in the clean rows, 2 in the noisy rows, as printed)."""
    paper = paper_table("tab:rdnoise")
    rows, body, notes = [], [], []
    for bi, b in enumerate(RD_BENCHMARKS):
        if bi:
            body.append(r"\midrule")
        for i, noise in enumerate(RD_NOISES):
            pct = noise_pct(noise)
            df = select_cell(runs, b, noise)
            if df.empty:
                notes.append(missing_note(paper.label, f"{b} at {pct} %"))
            dec = paper.decimals_of("clean" if noise == 0 else "noisy")
            cells = group_cells(df, [c for c, _ in RDNOISE_COLUMNS], dec)
            rows.append((f"{b}@{pct}", f"{BENCH_PLAIN[b]}, {pct} %", cells))
            name = multirow(len(RD_NOISES), BENCH_TEX[b]) if i == 0 else ""
            body.append(table_row([name, pct, *(cells[c] for c, _ in RDNOISE_COLUMNS)]))
    if len(notes) == len(RD_BENCHMARKS) * len(RD_NOISES):
        return None
    latex = latex_table(paper.layout, body)
    return Rendered(paper.label, paper.layout.stem, latex, rows, list(RDNOISE_COLUMNS), notes)
