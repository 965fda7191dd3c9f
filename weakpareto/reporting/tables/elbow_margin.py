"""Paper tab:elbow-margin-sensitivity: the two-point elbow decision versus its margin m2 (App. E.1).

``Delta_12 = log10(E_1*/E_2*)`` comes from the c = 1, 2 fronts of the default-margin (``m0.15``)
reruns at 10 % noise (another margin's fronts when those are missing, with a note); the margin
columns count seeds with ``Delta_12 > m2``. An extra column lists the support/power recovery of the
full-selector reruns at m2 = 0.10, 0.15, 0.20 (the paper quotes these in the text, RD space only;
docs/method/experiments.md#elbow-margin-audit).
"""

from __future__ import annotations

from typing import cast

import numpy as np
import pandas as pd

from weakpareto.campaign.store import select_cell
from weakpareto.evaluation.metrics import EMPTY, finite, fmt_fixed
from weakpareto.reporting.latex import latex_table, table_row
from weakpareto.reporting.markdown import Rendered
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.common import BENCH_PLAIN, count_cell, missing_note

ELBOW_NOISE = 0.10
#: Paper row order and row names.
ELBOW_BENCHMARKS = ("fade", "burgers", "rd_space", "rd_timespace")
ELBOW_TEX = {
    "fade": "FADE",
    "burgers": r"Frac.\ Burgers",
    "rd_space": r"Frac.\ RD (space)",
    "rd_timespace": r"Frac.\ RD (time--space)",
}
#: Two-point margins m2 of the audit; the default's fronts give Delta_12.
ELBOW_MARGINS = (0.10, 0.15, 0.20)
ELBOW_DEFAULT_MARGIN = 0.15
#: Agreement expected between the c = 1, 2 fronts of the margin variants (the search up to c = 2
#: does not depend on the margin).
ELBOW_DELTA_TOL = 1e-9


def margin_variant(margin: float) -> str:
    """Run variant of a margin rerun (``conf/experiment/margin.yaml``), e.g. ``m0.15``."""
    return f"m{margin:g}"


ELBOW_COLUMNS: tuple[tuple[str, str], ...] = (
    ("range", "Range of Delta_12"),
    *((margin_variant(m), f"m2 = {m:.2f}") for m in ELBOW_MARGINS),
    ("full_support", "Full-selector supp./pow. (m2 = 0.10, 0.15, 0.20)"),
    ("full_operator", "Full-selector oper./struct. (m2 = 0.10, 0.15, 0.20; text, not tabulated)"),
)
#: Columns printed in the LaTeX table (full_operator is in the notes only).
ELBOW_LATEX_COLUMNS = ("range", *(margin_variant(m) for m in ELBOW_MARGINS), "full_support")


def two_point_deltas(
    fronts: pd.DataFrame,
    benchmark: str,
    variant: str,
    noise: float = ELBOW_NOISE,
    method: str = "weak_pareto",
    noise_law: str = "multiplicative",
) -> pd.Series:
    """``Delta_12 = log10(E_1*/E_2*)`` (validation errors) per seed, from each seed's latest front.

    NaN for a seed whose front lacks a finite positive ``E`` at ``c = 1`` or ``c = 2``; an empty
    Series when there are no fronts.
    """
    if fronts.empty:
        return pd.Series(dtype=float)
    m = (
        (fronts["benchmark"] == benchmark)
        & (fronts["method"] == method)
        & (fronts["variant"] == variant)
        & (fronts["noise_law"] == noise_law)
        & np.isclose(fronts["noise"].astype(float), noise, rtol=0.0, atol=1e-9)
    )
    out: dict[int, float] = {}
    for seed, g in fronts.loc[m].groupby("seed", sort=True):
        g = g.sort_values("created_utc", kind="stable", na_position="first")
        g = g[g["config_hash"] == g.iloc[-1]["config_hash"]]
        err = {int(s): float(e) for s, e in zip(g["size"], g["val_error"])}
        e1, e2 = err.get(1, np.nan), err.get(2, np.nan)
        ok = np.isfinite(e1) and np.isfinite(e2) and e1 > 0 and e2 > 0
        out[int(cast(int, seed))] = float(np.log10(e1 / e2)) if ok else np.nan
    return pd.Series(out, dtype=float)


def counts_over(deltas: pd.Series, margin: float) -> str:
    """``$k/n$``: seeds whose Delta_12 clears ``margin`` (strictly, as the selector), of all."""
    if deltas.empty:
        return EMPTY
    k = int((deltas.to_numpy(dtype=float) > margin).sum())  # NaN never clears
    return f"${k}/{deltas.size}$"


def delta_range(deltas: pd.Series, decimals: int) -> str:
    """``$lo$--$hi$`` over the finite Delta_12 values, ``--`` without any."""
    v = finite(deltas)
    if v.size == 0:
        return EMPTY
    return f"${fmt_fixed(v.min(), decimals)}$--${fmt_fixed(v.max(), decimals)}$"


def _delta_notes(
    label: str, benchmark: str, per_margin: dict[float, pd.Series], source: float
) -> list[str]:
    """Notes on the Delta_12 source: fallback fronts, non-finite seeds, disagreeing margins."""
    deltas = per_margin[source]
    notes = []
    if source != ELBOW_DEFAULT_MARGIN:
        notes.append(
            f"{label}: {benchmark}: Delta_12 from the {margin_variant(source)} fronts "
            f"({margin_variant(ELBOW_DEFAULT_MARGIN)} fronts missing)"
        )
    bad = sorted(int(s) for s in deltas.index[~np.isfinite(deltas.to_numpy(float))])
    if bad:
        notes.append(
            f"{label}: {benchmark}: no finite c = 1, 2 validation errors for seeds {bad} "
            "(counted as not clearing any margin)"
        )
    for m, other in per_margin.items():
        common = deltas.index.intersection(other.index)
        if m == source or common.empty:
            continue
        diff = np.nanmax(np.abs(deltas[common].to_numpy() - other[common].to_numpy()))
        if np.isfinite(diff) and diff > ELBOW_DELTA_TOL:
            notes.append(
                f"{label}: {benchmark}: Delta_12 of the {margin_variant(m)} fronts differs from "
                f"the {margin_variant(source)} fronts by up to {diff:.3g}"
            )
    return notes


def _full_selector_cells(full: dict[float, pd.DataFrame]) -> dict[str, str]:
    """``$5/5$, $3/5$, $1/5$`` per recovery kind over the margin reruns (``--`` for none)."""
    cells = {}
    for which in ("support", "operator"):
        counts = [EMPTY if df.empty else f"${count_cell(df, which)}$" for df in full.values()]
        cells[f"full_{which}"] = EMPTY if all(c == EMPTY for c in counts) else ", ".join(counts)
    return cells


def table_elbow_margin(runs: pd.DataFrame, fronts: pd.DataFrame) -> Rendered | None:
    """Paper tab:elbow-margin-sensitivity; ``None`` without any fronts or margin reruns."""
    paper = paper_table("tab:elbow-margin-sensitivity")
    label, dec = paper.label, paper.decimals_of()
    order = (ELBOW_DEFAULT_MARGIN, *(m for m in ELBOW_MARGINS if m != ELBOW_DEFAULT_MARGIN))
    rows, body, notes = [], [], []
    have_any = False
    for b in ELBOW_BENCHMARKS:
        per_margin = {m: two_point_deltas(fronts, b, margin_variant(m)) for m in ELBOW_MARGINS}
        source = next((m for m in order if not per_margin[m].empty), None)
        if source is None:
            deltas = pd.Series(dtype=float)
            notes.append(missing_note(label, f"c = 1, 2 fronts of {b} at 10 %"))
        else:
            deltas = per_margin[source]
            notes += _delta_notes(label, b, per_margin, source)
        full = {
            m: select_cell(runs, b, ELBOW_NOISE, variant=margin_variant(m)) for m in ELBOW_MARGINS
        }
        for m, df in full.items():
            if df.empty:
                notes.append(missing_note(label, f"{b} full-selector rerun {margin_variant(m)}"))
        have_any = have_any or source is not None or any(not df.empty for df in full.values())
        cells = {
            "range": delta_range(deltas, dec["delta"]),
            **{margin_variant(m): counts_over(deltas, m) for m in ELBOW_MARGINS},
            **_full_selector_cells(full),
        }
        rows.append((b, BENCH_PLAIN[b], cells))
        body.append(table_row([ELBOW_TEX[b], *(cells[c] for c in ELBOW_LATEX_COLUMNS)]))
    if not have_any:
        return None
    latex = latex_table(paper.layout, body)
    return Rendered(label, paper.layout.stem, latex, rows, list(ELBOW_COLUMNS), notes)
