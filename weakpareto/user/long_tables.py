"""Long tables (one row per grid point; columns t, x [, y], u) pivoted onto the grid.

Used by ``wp discover`` for ``.csv`` / ``.parquet`` input and by users who hold their data as a
table; the grid checks are those of :mod:`weakpareto.user.validation`. A table with a column
``experiment`` holds several experiments of one equation, each on its own grid
(:func:`long_table_to_experiments`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from weakpareto._typing import Array
from weakpareto.errors import UserInputError


def _pivot(table: Any, coords: tuple[str, ...], source: str) -> tuple[Array, list[Array]]:
    """Pivot a long table with coordinate columns ``coords`` and value column ``u``."""
    cols = [str(c) for c in table.columns]
    need = (*coords, "u")
    missing = [c for c in need if c not in cols]
    tup = f"({', '.join(coords)})"
    if missing:
        raise UserInputError(
            f"{source} lacks column(s) {', '.join(missing)} (found: {', '.join(cols) or 'none'});"
            f" a long table needs columns {', '.join(need)} with one row per grid point"
        )
    if len(table) == 0:
        raise UserInputError(f"{source} has no rows; it needs one row per {tup} grid point")
    arrays = {}
    for c in need:
        series = table[c]
        try:
            arrays[c] = np.asarray(series, dtype=float)
        except (TypeError, ValueError):
            raise UserInputError(
                f"column {c} of {source} is not numeric (dtype {series.dtype}); "
                "remove text values or header lines inside the data"
            ) from None
    for name in coords:
        bad = ~np.isfinite(arrays[name])
        if bad.any():
            raise UserInputError(
                f"column {name} of {source} has {int(bad.sum())} empty/NaN value(s), first in "
                f"data row {int(np.argmax(bad))}; every row needs finite {', '.join(coords)}"
            )
    values, inverse = [], []
    for name in coords:
        v, inv = np.unique(arrays[name], return_inverse=True)
        values.append(v)
        inverse.append(inv.ravel())
    shape = tuple(v.size for v in values)
    flat = np.ravel_multi_index(tuple(inverse), shape)
    size = int(np.prod(shape))
    counts = np.bincount(flat, minlength=size)
    kind = "pairs" if len(coords) == 2 else "triples"

    def where(k: int) -> str:
        idx = np.unravel_index(k, shape)
        return ", ".join(f"{values[a][int(i)]:g}" for a, i in enumerate(idx))

    if np.any(counts > 1):
        raise UserInputError(
            f"{source} has {int(np.sum(counts[counts > 1] - 1))} duplicate {tup} row(s), first "
            f"{tup} = ({where(int(np.argmax(counts > 1)))}); keep one row per grid point"
        )
    if np.any(counts == 0):
        rest = coords[1] if len(coords) == 2 else f"({', '.join(coords[1:])})"
        raise UserInputError(
            f"{source} misses {int(np.sum(counts == 0))} of {counts.size} {tup} {kind} of the "
            f"{' x '.join(str(n) for n in shape)} grid, first {tup} = "
            f"({where(int(np.argmax(counts == 0)))}); every t needs a row for every {rest}"
        )
    u = np.empty(size)
    u[flat] = arrays["u"]
    return u.reshape(shape), values


def long_table_to_grid(table: Any, source: str = "table") -> tuple[Array, Array, Array]:
    """Pivot a long-form table (columns ``t``, ``x``, ``u``; one row per grid point).

    Raises on missing or non-numeric columns, non-finite coordinates, duplicate ``(t, x)``
    pairs and missing ``(t, x)`` pairs. NaN values of ``u`` are kept (reported by
    :func:`weakpareto.user.validation.check_field` with their position). A table with a ``y``
    column is 2-D: use :func:`long_table_to_grid_2d`.
    """
    if "y" in [str(c) for c in table.columns]:
        raise UserInputError(
            f"{source} has a y column (two spatial dimensions); pivot it with "
            "long_table_to_grid_2d, which returns (u, t, x, y)"
        )
    u, (t, x) = _pivot(table, ("t", "x"), source)
    return u, t, x


def long_table_to_grid_2d(table: Any, source: str = "table") -> tuple[Array, Array, Array, Array]:
    """Pivot a 2-D long-form table (columns ``t``, ``x``, ``y``, ``u``) to ``u (nt, nx, ny)``.

    The checks of :func:`long_table_to_grid` apply to ``(t, x, y)`` triples: duplicate and
    missing triples are named with the first offending ``(t, x, y)``.
    """
    u, (t, x, y) = _pivot(table, ("t", "x", "y"), source)
    return u, t, x, y


#: The column that labels the experiment of every row of a long table.
EXPERIMENT_COLUMN = "experiment"


def long_table_to_experiments(
    table: Any, source: str = "table"
) -> tuple[list[Any], list[Array], list[Array], list[Array] | None]:
    """Pivot a long table with an ``experiment`` column: one grid per experiment, in the order
    of the sorted experiment labels. Returns ``(us, ts, xs, ys)`` for
    ``WeakPareto.fit(us, ts, xs[, ys])`` (``ys`` None for 1-D tables); every experiment is
    checked as :func:`long_table_to_grid` (2-D: :func:`long_table_to_grid_2d`) checks a table."""
    if EXPERIMENT_COLUMN not in [str(c) for c in table.columns]:
        raise UserInputError(
            f"{source} has no {EXPERIMENT_COLUMN} column; a table of several experiments labels "
            f"every row with its experiment"
        )
    labels = table[EXPERIMENT_COLUMN]
    if labels.isna().any():
        raise UserInputError(
            f"column {EXPERIMENT_COLUMN} of {source} has {int(labels.isna().sum())} empty "
            f"value(s), first in data row {int(labels.isna().to_numpy().argmax())}; label "
            "every row with its experiment"
        )
    two_d = "y" in [str(c) for c in table.columns]
    us, ts, xs, ys = [], [], [], []
    for label in sorted(labels.unique()):
        part = table[labels == label].drop(columns=[EXPERIMENT_COLUMN])
        where = f"{source} ({EXPERIMENT_COLUMN} {label})"
        if two_d:
            u, t, x, y = long_table_to_grid_2d(part, where)
            ys.append(y)
        else:
            u, t, x = long_table_to_grid(part, where)
        us.append(u)
        ts.append(t)
        xs.append(x)
    return us, ts, xs, (ys if two_d else None)
