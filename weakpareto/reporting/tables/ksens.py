"""Paper tab:ksens: sensitivity to the number of weak rows K on FADE at 10 % noise (App. ksens).

One run variant per test grid (``conf/experiment/ksens.yaml``: ``K15x21`` ... ``K62x85``). Unlike
tab:main every error is over all seeds (docs/method/metrics.md#table-specific-conventions):
``e_alpha``/``e_beta^max`` as mean ± SD, ``e_xi^max`` and ``E_fit`` as scientific means; ``cond_2``
is the condition number of the column-normalised exact true-structure library on the seed-0 field
(docs/method/experiments.md#k-sensitivity).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import pandas as pd

from weakpareto._typing import FloatArray
from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.campaign.store import select_cell
from weakpareto.evaluation.metrics import EMPTY, finite, fmt_fixed, fmt_pm, fmt_sci_mean
from weakpareto.library.weak import weak_library
from weakpareto.reporting.latex import latex_table, table_row
from weakpareto.reporting.markdown import Rendered
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.common import count_cell, missing_note

KSENS_NOISE = 0.10
#: (K_t, K_x) of the K sweep: round(s * (44, 60)) for s = 0.35 ... 1.41
#: (docs/method/experiments.md#k-sensitivity).
KSENS_COUNTS: tuple[tuple[int, int], ...] = ((15, 21), (22, 30), (31, 43), (44, 60), (62, 85))
KSENS_COLUMNS: tuple[tuple[str, str], ...] = (
    ("K", "K"),
    ("support", "Supp./pow."),
    ("operator", "Oper./struct."),
    ("e_alpha", "e_alpha"),
    ("e_beta_max", "e_beta^max"),
    ("e_xi_max", "e_xi^max"),
    ("fit_error", "E_fit"),
    ("condition", "cond_2"),
)
#: Spatial orders of FADE's true structure (power 0, alpha = 0.8) for the condition number.
KSENS_TRUE_ORDERS = (1.0, 1.7)
#: A condition-number callback: (K_t, K_x) -> cond_2.
ConditionFn = Callable[[int, int], float]


def ksens_variant(kt: int, kx: int) -> str:
    """Run variant of one K-sweep point (``conf/experiment/ksens.yaml``), e.g. ``K44x60``."""
    return f"K{kt}x{kx}"


@functools.lru_cache(maxsize=1)
def _ksens_field() -> tuple[FloatArray, FloatArray, FloatArray]:
    """The seed-0 10 %-noise FADE field (multiplicative law) and its grid."""
    f = generate("fade")
    u = add_noise(f.u, "multiplicative", KSENS_NOISE, 0)
    return np.asarray(u, dtype=float), np.asarray(f.t, dtype=float), np.asarray(f.x, dtype=float)


def ksens_condition(kt: int, kx: int) -> float:
    """``cond_2`` (sigma_max/sigma_min) of the column-normalised exact true-structure library.

    docs/method/experiments.md#k-sensitivity: FADE's columns at beta = 1 and 1.7 (power 0; the
    alpha = 0.8 target is not a column) on the seed-0 10 %-noise field with ``(kt, kx)`` Gaussian
    tests.
    """
    u, t, x = _ksens_field()
    lib = weak_library(u, t, x, operator="directional", power_mode="positive", test_counts=(kt, kx))
    a = np.column_stack([lib.columns(0, np.array([b]))[0] for b in KSENS_TRUE_ORDERS])
    a = a / np.linalg.norm(a, axis=0)
    return float(np.linalg.cond(a))


def _k_cell(df: pd.DataFrame, kt: int, kx: int, label: str, notes: list[str]) -> str:
    """K from the runs' ``n_rows`` (the design value ``kt * kx`` when there are none)."""
    design = kt * kx
    if df.empty or "n_rows" not in df:
        return str(design)
    ks = sorted({int(v) for v in finite(df["n_rows"])})
    if not ks:
        return str(design)
    if ks != [design]:
        notes.append(f"{label}: runs of {ksens_variant(kt, kx)} have K = {ks}, expected {design}")
    return "/".join(str(k) for k in ks)


def _condition_cell(
    condition: ConditionFn | None, kt: int, kx: int, decimals: int, label: str, notes: list[str]
) -> str:
    """``$1.59$``; ``--`` without a callback or when it fails (with a note)."""
    if condition is None:
        return EMPTY
    try:
        kappa = fmt_fixed(condition(kt, kx), decimals)
    except (OSError, ValueError, RuntimeError, KeyError, np.linalg.LinAlgError) as exc:
        notes.append(f"{label}: condition number for {kt}x{kx} unavailable ({exc})")
        return EMPTY
    return EMPTY if kappa == EMPTY else f"${kappa}$"


def table_ksens(
    runs: pd.DataFrame, condition: ConditionFn | None = ksens_condition
) -> Rendered | None:
    """Paper tab:ksens; ``None`` when no K-sweep variant has runs.

    ``condition(kt, kx)`` gives the ``cond_2`` column (default :func:`ksens_condition`; ``None``
    leaves it empty).
    """
    paper = paper_table("tab:ksens")
    dec = paper.decimals_of()
    groups = [
        (kt, kx, select_cell(runs, "fade", KSENS_NOISE, variant=ksens_variant(kt, kx)))
        for kt, kx in KSENS_COUNTS
    ]
    if all(df.empty for _, _, df in groups):
        return None
    rows, body, notes = [], [], []
    for kt, kx, df in groups:
        vid = ksens_variant(kt, kx)
        if df.empty:
            notes.append(
                missing_note(paper.label, f"fade at 10 % with test counts {kt}x{kx} ({vid})")
            )
            cells = {c: EMPTY for c, _ in KSENS_COLUMNS}
        else:
            cells = {
                "support": count_cell(df, "support"),
                "operator": count_cell(df, "operator"),
                "e_alpha": fmt_pm(df["e_alpha"], dec["e_alpha"]),
                "e_beta_max": fmt_pm(df["e_beta_max"], dec["e_beta_max"]),
                "e_xi_max": fmt_sci_mean(df["e_xi_max"], dec["e_xi_max_sci"]),
                "fit_error": fmt_sci_mean(df["fit_error"], dec["fit_error_sci"]),
            }
        cells["K"] = _k_cell(df, kt, kx, paper.label, notes)
        cells["condition"] = _condition_cell(
            condition, kt, kx, dec["condition"], paper.label, notes
        )
        rows.append((vid, f"{kt}x{kx}", cells))
        body.append(table_row([rf"${kt}{{\times}}{kx}$", *(cells[c] for c, _ in KSENS_COLUMNS)]))
    latex = latex_table(paper.layout, body)
    return Rendered(paper.label, paper.layout.stem, latex, rows, list(KSENS_COLUMNS), notes)
