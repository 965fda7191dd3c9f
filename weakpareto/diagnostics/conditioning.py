"""Diagnostics of fixed dense dictionaries (paper Sec. 5.8, tab:conditioning;
docs/method/diagnostics.md#dictionary-conditioning).

A fixed order dictionary trades order resolution against conditioning: the finer the order
grid, the more nearly collinear neighbouring fractional columns become. For a spacing
``Delta beta`` the dictionary holds the exact ``p = 0`` weak features at the orders
``round(arange(0.1, 3.0 + 1e-9, Delta beta), 10)`` (6, 12, 30, 59 columns for 0.5, 0.25, 0.1,
0.05); after normalising every column to unit 2-norm, the mutual coherence is the largest
absolute off-diagonal entry of the Gram matrix and the condition number is the 2-norm one
(``sigma_max / sigma_min``).
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from weakpareto._typing import Array
from weakpareto.io import atomic_path
from weakpareto.library.gram import FeatureSource

PAPER_SPACINGS = (0.5, 0.25, 0.1, 0.05)
ORDER_MIN, ORDER_MAX = 0.1, 3.0
CONDITIONING_FIELDS = ("spacing", "columns", "coherence", "condition")


def dictionary_orders(spacing: float, lo: float = ORDER_MIN, hi: float = ORDER_MAX) -> Array:
    """Orders ``round(arange(lo, hi + 1e-9, spacing), 10)`` of a dense fixed dictionary."""
    return np.round(np.arange(lo, hi + 1e-9, spacing), 10)


def normalised_columns(x: Array) -> Array:
    """Columns of ``x (K, M)`` scaled to unit 2-norm (zero columns left unchanged)."""
    norms = np.linalg.norm(x, axis=0)
    return x / np.where(norms > 0.0, norms, 1.0)


def mutual_coherence(x: Array) -> float:
    """Largest ``|<x_i, x_j>|`` (i != j) of the column-normalised design."""
    xn = normalised_columns(x)
    gram = np.abs(xn.T @ xn)
    np.fill_diagonal(gram, 0.0)
    return float(gram.max()) if gram.size > 1 else 0.0


def condition_number(x: Array) -> float:
    """2-norm condition number ``sigma_max / sigma_min`` of the column-normalised design."""
    s = np.linalg.svd(normalised_columns(x), compute_uv=False)
    return float(s[0] / s[-1]) if s[-1] > 0.0 else float("inf")


def dictionary_conditioning(
    lib: FeatureSource, spacings: Sequence[float] = PAPER_SPACINGS, power: int = 0
) -> list[dict[str, Any]]:
    """Coherence and conditioning of dense ``p = 0`` dictionaries (paper tab:conditioning).

    One row per spacing: ``{"spacing", "columns", "coherence", "condition"}``. The columns are
    the library's exact features at :func:`dictionary_orders` (no interpolation).
    """
    rows = []
    for d in spacings:
        orders = dictionary_orders(float(d))
        x = lib.columns(power, orders).T  # (K, M)
        rows.append(
            {
                "spacing": float(d),
                "columns": int(orders.size),
                "coherence": mutual_coherence(x),
                "condition": condition_number(x),
            }
        )
    return rows


def write_conditioning_csv(rows: Iterable[dict[str, Any]], path: str | os.PathLike) -> Path:
    """Write the conditioning table as CSV (spacing, columns, coherence, condition) atomically.

    The rows go to a temporary file in the target directory, which then replaces ``path``
    (``os.replace``), so readers never see a partial file.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp, open(tmp, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=CONDITIONING_FIELDS, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow(
                {
                    "spacing": repr(float(row["spacing"])),
                    "columns": int(row["columns"]),
                    "coherence": repr(float(row["coherence"])),
                    "condition": repr(float(row["condition"])),
                }
            )
    return path
