"""The committed result files a performance claim is computed from, read as tables of rows.

A source is a path relative to the repository root, or a glob pattern whose files are read in
sorted order and stacked. The reader follows the suffix:

* ``.csv`` — :func:`pandas.read_csv`;
* ``.parquet`` — :func:`pandas.read_parquet` (the stored runs, one file per seed);
* ``.json`` — one row, nested keys joined by dots (``{"a": {"b": 1}}`` -> column ``a.b``);
* ``.md`` — every pipe table of the file stacked (cells as stripped strings; columns are the
  union of the tables' headers, a cell a table lacks is missing).

Rows are then narrowed by a *filter*: a mapping from column name to a condition, all of which
must hold. A condition is a scalar (equality), a list (equal to any of them) or a one-key mapping
``{op: operand}`` with ``op`` one of :data:`OPERATORS`. Equality compares numbers numerically,
booleans by their spelling (a CSV column with missing cells stores ``True`` as text) and anything
else as text.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

#: Relative tolerance of numeric equality in a filter (a CSV round-trips 0.1 as 0.1).
REL_TOL = 1e-9

#: Comparison operators a filter condition may use besides plain equality.
OPERATORS = (">=", "<=", ">", "<", "!=", "regex")


class ClaimSourceError(ValueError):
    """A source file is missing or unreadable, or a filter cannot be applied."""


def source_paths(root: Path, pattern: str) -> list[Path]:
    """The files ``pattern`` names under ``root``, sorted; an error when there are none."""
    paths = sorted(p for p in root.glob(pattern) if p.is_file())
    if not paths:
        raise ClaimSourceError(f"source {pattern} matches no file")
    return paths


def _pipe_cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _is_rule(cells: list[str]) -> bool:
    """The ``|---|:--:|`` line under a markdown table's header."""
    return all(c and set(c) <= set("-: ") for c in cells)


def markdown_tables(text: str) -> pd.DataFrame:
    """Every pipe table of a markdown text, stacked, cells as strings."""
    frames: list[pd.DataFrame] = []
    header: list[str] | None = None
    rows: list[list[str]] = []

    def close() -> None:
        if header is not None and rows:
            width = len(header)
            frames.append(pd.DataFrame([(r + [""] * width)[:width] for r in rows], columns=header))

    for line in text.splitlines():
        if not line.lstrip().startswith("|"):
            close()
            header, rows = None, []
            continue
        cells = _pipe_cells(line)
        if header is None:
            header = cells
        elif _is_rule(cells) and not rows:
            continue
        else:
            rows.append(cells)
    close()
    if not frames:
        return pd.DataFrame()
    return pd.concat(frames, ignore_index=True)


def _read_json(path: Path) -> pd.DataFrame:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ClaimSourceError(f"{path}: a JSON source must hold one object")
    return pd.json_normalize(data)


READERS: dict[str, Callable[[Path], pd.DataFrame]] = {
    ".csv": pd.read_csv,
    ".parquet": pd.read_parquet,
    ".json": _read_json,
    ".md": lambda p: markdown_tables(p.read_text(encoding="utf-8")),
}


def read_source(root: Path, pattern: str) -> pd.DataFrame:
    """The rows of every file ``pattern`` names, stacked in file order."""
    frames = []
    for path in source_paths(root, pattern):
        reader = READERS.get(path.suffix)
        if reader is None:
            raise ClaimSourceError(f"{path}: no reader for {path.suffix!r}; use {sorted(READERS)}")
        frames.append(reader(path))
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]


def _equal(column: pd.Series, wanted: Any) -> pd.Series:
    """Cells equal to ``wanted``: numerically, by boolean spelling, or as text."""
    if isinstance(wanted, bool):
        return column.astype(str).str.lower() == str(wanted).lower()
    if isinstance(wanted, int | float):
        numbers = pd.to_numeric(column, errors="coerce")
        return numbers.map(
            lambda x: bool(pd.notna(x) and math.isclose(x, wanted, rel_tol=REL_TOL, abs_tol=0.0))
        )
    return column.astype(str) == str(wanted)


def _compare(column: pd.Series, op: str, operand: Any) -> pd.Series:
    if op == "!=":
        return ~_equal(column, operand)
    if op == "regex":
        text = column.where(column.notna(), "").astype(str)
        return text.map(lambda s: re.search(str(operand), s) is not None)
    numbers = pd.to_numeric(column, errors="coerce")
    ops: dict[str, Callable[[pd.Series], pd.Series]] = {
        ">=": lambda s: s >= operand,
        "<=": lambda s: s <= operand,
        ">": lambda s: s > operand,
        "<": lambda s: s < operand,
    }
    return ops[op](numbers).fillna(False).astype(bool)


def condition_mask(column: pd.Series, condition: Any) -> pd.Series:
    """Rows of ``column`` that meet one filter condition."""
    if isinstance(condition, list):
        mask = pd.Series(False, index=column.index)
        for wanted in condition:
            mask |= _equal(column, wanted)
        return mask
    if isinstance(condition, Mapping):
        if len(condition) != 1 or next(iter(condition)) not in OPERATORS:
            raise ClaimSourceError(f"condition {dict(condition)} must be one of {OPERATORS}")
        op, operand = next(iter(condition.items()))
        return _compare(column, op, operand)
    return _equal(column, condition)


def select(frame: pd.DataFrame, where: Mapping[str, Any] | None) -> pd.DataFrame:
    """The rows of ``frame`` meeting every condition of ``where``."""
    mask = pd.Series(True, index=frame.index)
    for name, condition in (where or {}).items():
        if name not in frame.columns:
            raise ClaimSourceError(f"no column {name!r} (columns: {list(frame.columns)})")
        mask &= condition_mask(frame[name], condition)
    return frame[mask]
