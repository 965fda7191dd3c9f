r"""Paper tab:local-identifiability: local spatial-order sensitivity and fixed-support error.

From ``local_identifiability.csv`` (``scripts/local_identifiability.py``,
:mod:`weakpareto.diagnostics.identifiability`): per main benchmark ``S_beta`` on the clean seed-0
field and the fixed-support absolute order error ``e_beta,fix`` at 0 % and 10 % noise as mean ±
sample SD over seeds, ``(m \pm s) x 10^e`` for tiny means (Sec. "Main results"). The notes add
every noise level, the per-seed estimates and the ordering claim of the paper's text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

import numpy as np
import pandas as pd

from weakpareto.evaluation.metrics import EMPTY, mean_sd
from weakpareto.reporting.latex import latex_table, noise_pct, plain, table_row
from weakpareto.reporting.markdown import comparison_lines, note_lines, title_lines
from weakpareto.reporting.output import TableOutput
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.common import at_noise

LABEL = "tab:local-identifiability"
CSV_NAME = "local_identifiability.csv"
CSV_COLUMNS = frozenset(
    {"benchmark", "noise", "seed", "s_beta", "e_beta_fix", "beta_hat", "beta_true"}
)
#: (benchmark, LaTeX name, plain name, operator) in the paper's row order.
LOCAL_ROWS: tuple[tuple[str, str, str, str], ...] = (
    ("fade", "FADE", "FADE", "directional"),
    ("rd_space", r"Frac.\ RD (space)", "Frac. RD (space)", "Riesz"),
    ("rd_timespace", r"Frac.\ RD (time--space)", "Frac. RD (time-space)", "Riesz"),
    ("burgers", r"Frac.\ Burgers", "Frac. Burgers", "directional"),
)
#: Error columns of the table: (column id, noise).
ERROR_COLUMNS = (("e0", 0.0), ("e10", 0.10))
LOCAL_COLUMNS = (
    ("operator", "Operator"),
    ("s_beta", "S_beta"),
    ("e0", "e_beta,fix (0%)"),
    ("e10", "e_beta,fix (10%)"),
)
#: Means below this are printed as ``(m \pm s) x 10^e`` (the paper's Burgers 0 % cell).
SCI_BELOW = 1e-4
PROTOCOL_NOTE = (
    "Protocol (paper App. 'Local spatial-order diagnostic'; "
    "docs/method/diagnostics.md#local-spatial-order-sensitivity): S_beta on the "
    "clean field, true support/branch/orders, exact weak features, centred difference step "
    "1e-4, projector onto the true-support design by least squares; the table shows the "
    "seed-0 field (the RD initial conditions depend on the seed). Profile: principal "
    "non-integer linear order only; 61 equally spaced orders over the positive search "
    "interval (FADE/Burgers [0.5, 2.0]; RD from the first positive bank node, "
    "[0.0362, 2.1] and [0.0328, 1.9]) plus the true order; coefficients refit on the "
    "training rows of the seeded 75/25 split with ridge 1e-3; score E_val; bounded Brent "
    "refinement (xatol 1e-5) between the neighbours of the best trial order, kept when it "
    "lowers E_val. Multiplicative noise with noise seed = run seed."
)


def _error_decimals() -> int:
    return paper_table(LABEL).decimals_of()["e_beta_fix"]


def fmt_error_pm(
    values: Sequence[float], decimals: int | None = None, sci_below: float = SCI_BELOW
) -> str:
    r"""``$m\pm s$`` at ``decimals`` (the paper's 4 by default) or ``$(m\pm s){\times}10^{e}$``
    for tiny means."""
    ms = mean_sd(values)
    if ms is None:
        return EMPTY
    m, s = ms
    if 0.0 < abs(m) < sci_below:
        e = math.floor(math.log10(abs(m)))
        return rf"$({m / 10**e:.1f}\pm{s / 10**e:.1f}){{\times}}10^{{{e}}}$"
    d = _error_decimals() if decimals is None else decimals
    return rf"${m:.{d}f}\pm{s:.{d}f}$"


def _s_beta(d: pd.DataFrame) -> float | None:
    """``S_beta`` of the clean field of the smallest seed (RD fields depend on the seed)."""
    if d.empty:
        return None
    return float(d.sort_values("seed")["s_beta"].iloc[0])


def local_cells(df: pd.DataFrame, benchmark: str, operator: str) -> dict[str, str]:
    """Table cells of one benchmark."""
    d = df[df["benchmark"] == benchmark]
    s = _s_beta(d)
    dec = paper_table(LABEL).decimals_of()["s_beta"]
    cells = {"operator": operator, "s_beta": EMPTY if s is None else f"${s:.{dec}f}$"}
    for key, noise in ERROR_COLUMNS:
        cells[key] = fmt_error_pm(at_noise(d, noise)["e_beta_fix"].tolist())
    return cells


def _all_noise_lines(df: pd.DataFrame, noises: Sequence[float]) -> list[str]:
    lines = [
        "",
        "## Fixed-support error at every noise level (ours, mean ± sample SD over seeds)",
        "",
        "| Benchmark | S_beta (per seed) | "
        + " | ".join(f"{noise_pct(n)} %" for n in noises)
        + " |",
        "|---|---|" + "---|" * len(noises),
    ]
    for b, _, name, _ in LOCAL_ROWS:
        d = df[df["benchmark"] == b]
        if d.empty:
            continue
        s_all = d.drop_duplicates("seed").sort_values("seed")["s_beta"].to_numpy(float)
        s_txt = (
            f"{s_all.min():.3f}" if np.ptp(s_all) < 5e-4 else f"{s_all.min():.3f}–{s_all.max():.3f}"
        )
        errs = [plain(fmt_error_pm(at_noise(d, n)["e_beta_fix"].tolist())) for n in noises]
        lines.append(f"| {name} | {s_txt} | " + " | ".join(errs) + " |")
    return lines


def _per_seed_lines(df: pd.DataFrame, noises: Sequence[float]) -> list[str]:
    seeds = sorted(df["seed"].unique())
    lines = [
        "",
        "## Per-seed estimates (ours): beta_hat (e_beta,fix)",
        "",
        "| Benchmark | Noise % | beta* | " + " | ".join(f"seed {s}" for s in seeds) + " |",
        "|---|---|---|" + "---|" * df["seed"].nunique(),
    ]
    for b, _, name, _ in LOCAL_ROWS:
        d = df[df["benchmark"] == b]
        for n in noises:
            dn = at_noise(d, n).sort_values("seed")
            if dn.empty:
                continue
            seed_cells = [f"{r.beta_hat:.5f} ({r.e_beta_fix:.1e})" for r in dn.itertuples()]
            lines.append(
                f"| {name} | {noise_pct(n)} | {dn['beta_true'].iloc[0]:g} | "
                + " | ".join(seed_cells)
                + " |"
            )
    return lines


def _ordering_claim_lines(df: pd.DataFrame) -> list[str]:
    """Sec. subsec:mainresults: the S_beta ordering reverses the 10 % error ordering."""
    s_vals = {b: _s_beta(df[df["benchmark"] == b]) for b, *_ in LOCAL_ROWS}
    e10 = {
        b: mean_sd(at_noise(df[df["benchmark"] == b], 0.10)["e_beta_fix"]) for b, *_ in LOCAL_ROWS
    }
    have = [b for b, *_ in LOCAL_ROWS if s_vals[b] is not None and e10[b] is not None]
    if len(have) < 2:
        return []
    # `have` holds only benchmarks whose s_vals and e10 are not None
    by_s = sorted(have, key=lambda b: -cast(float, s_vals[b]))
    by_e = sorted(have, key=lambda b: cast(tuple[float, float], e10[b])[0])
    return [
        "",
        "## Claim of Sec. subsec:mainresults",
        "",
        "| Claim | Holds | Ours |",
        "|---|---|---|",
        "| S_beta ordering is the reverse of the 10 % fixed-support error ordering | "
        f"{'yes' if by_s == by_e else 'no'} | S_beta: {' > '.join(by_s)}; "
        f"e_fix(10 %): {' < '.join(by_e)} |",
    ]


def local_table(df: pd.DataFrame) -> TableOutput:
    """``(latex, markdown)`` of tab:local-identifiability from ``local_identifiability.csv``."""
    paper = paper_table(LABEL)
    body, rows, notes = [], [], []
    for b, tex, name, op in LOCAL_ROWS:
        if not (df["benchmark"] == b).any():
            notes.append(f"no rows for {b}")
        cells = local_cells(df, b, op)
        rows.append((b, name, cells))
        body.append(table_row([tex, *(cells[c] for c, _ in LOCAL_COLUMNS)]))
    noises = sorted({round(float(n), 9) for n in df["noise"]})
    md = title_lines(LABEL)
    md += comparison_lines(rows, LOCAL_COLUMNS, paper.values(), not_in_paper="")
    md += _all_noise_lines(df, noises) + _per_seed_lines(df, noises) + _ordering_claim_lines(df)
    if "e_beta_fix_raw" in df.columns:
        notes += raw_grid_notes(df, noises)
    md += note_lines([PROTOCOL_NOTE, *notes])
    return TableOutput(latex_table(paper.layout, body), "\n".join(md) + "\n")


def raw_grid_notes(df: pd.DataFrame, noises: Sequence[float]) -> list[str]:
    """Explain cells that change when the true order is kept beside a rounding-error twin node."""
    paper = paper_table(LABEL).values()
    changed, matches, default_only = [], [], []
    for b, _, name, _ in LOCAL_ROWS:
        d = df[df["benchmark"] == b]
        for n in noises:
            dn = at_noise(d, n).sort_values("seed")
            if dn.empty or np.allclose(dn["e_beta_fix"], dn["e_beta_fix_raw"], atol=1e-12):
                continue
            cell = fmt_error_pm(dn["e_beta_fix_raw"].tolist())
            seeds = ", ".join(f"{v:.1e}" for v in dn["e_beta_fix_raw"])
            changed.append(f"{name} {noise_pct(n)} %: {plain(cell)} (per seed {seeds})")
            key = {0.0: "e0", 0.10: "e10"}.get(round(float(n), 9))
            p = paper.get(b, {}).get(key or "")
            if p is not None and p == cell:
                matches.append(f"{name} {noise_pct(n)} %")
            elif p is not None and p == fmt_error_pm(dn["e_beta_fix"].tolist()):
                default_only.append(f"{name} {noise_pct(n)} %")
    if not changed:
        return []
    text = (
        "Refinement bracket at the true order: linspace(0.5, 2.0, 61) has a node at "
        "1.7000000000000002, a rounding error away from the true FADE/Burgers order 1.7. Our "
        "profile merges that node into the true order, so the refinement bracket is the two "
        "neighbouring trial orders (spacing 0.025). If both twins are kept (plain np.unique of "
        "the augmented grid), rounding decides which twin is best, and its bracket ends at the "
        "other twin; in some seeds the refinement then cannot move away from the true order. "
        "That variant (column e_beta_fix_raw of the CSV) gives: " + "; ".join(changed) + "."
    )
    if matches:
        text += " It matches the paper's cell exactly for: " + ", ".join(matches) + "."
    if default_only:
        text += (
            " The paper's cell matches our merged-grid profile, not that variant, for: "
            + ", ".join(default_only)
            + "."
        )
    fade0 = at_noise(df[df["benchmark"] == "fade"], 0.0)
    if not fade0.empty:
        lo, hi = fade0["beta_hat"].min(), fade0["beta_hat"].max()
        text += (
            f" Without the artefact the clean FADE profile has its E_val minimum at "
            f"beta = {lo:.4f}-{hi:.4f} in every seed, so the paper's FADE 0 % cell, in which "
            "one seed is off by about 0.012 and four sit at the true order, looks like the same "
            "artefact."
        )
    return [text]
