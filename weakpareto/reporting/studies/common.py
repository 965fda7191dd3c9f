r"""What the study tables share: number cells, pipe tables, LaTeX tabulars and their inputs.

Pipe tables are ``| a | b |`` rows under a ``|---|---|`` rule; LaTeX rows are
:func:`weakpareto.reporting.latex.table_row` (the row writer of the paper tables), inside a plain
``tabular`` with booktabs rules or ``\hline`` (:func:`tabular`). Inputs are ``<stem>.csv`` and
the optional sidecar ``<stem>.json`` of a study's folder (:func:`read_table`,
:func:`read_notes`, :func:`write_notes`).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from weakpareto.io import write_json_atomic
from weakpareto.reporting.latex import table_row

#: A missing value in a table (an empty cell, NaN, an error that was not computed).
DASH = "—"
#: Rules of :func:`tabular`: (top, below the header, bottom).
BOOKTABS = (r"\toprule", r"\midrule", r"\bottomrule")


def is_missing(value: Any) -> bool:
    """``None`` or a non-finite float."""
    return value is None or (isinstance(value, float) and not math.isfinite(value))


def cell(value: Any, *, yes_no: bool = False) -> str:
    """A table cell: floats at three significant digits, missing values as :data:`DASH`,
    booleans as ``yes``/``no`` with ``yes_no`` (else ``True``/``False``), anything else as text."""
    if isinstance(value, bool):
        return ("yes" if value else "no") if yes_no else str(value)
    if is_missing(value):
        return DASH
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def pipe_row(cells: Iterable[str]) -> str:
    """``| a | b |``."""
    return "| " + " | ".join(cells) + " |"


def pipe_rule(n_columns: int) -> str:
    """``|---|---|`` under a header of ``n_columns``."""
    return "|" + "---|" * n_columns


def pipe_table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """A pipe table's lines: header, rule and one line per row (cells as given)."""
    return [pipe_row(header), pipe_rule(len(header)), *(pipe_row(r) for r in rows)]


def tex_text(text: str) -> str:
    r"""Plain text in a LaTeX cell: ``_`` escaped (``weak\_pareto``)."""
    return text.replace("_", r"\_")


def tabular(
    colspec: str,
    header: str,
    rows: Iterable[Sequence[str]],
    rules: tuple[str, str, str] | None = BOOKTABS,
) -> list[str]:
    r"""A ``tabular``'s lines: ``header`` is the header row's text without its ``\\``.

    ``rules`` are booktabs' (the default) or, with ``None``, ``\hline`` above, on the header's
    line and below.
    """
    if rules is None:
        head = [r"\hline", header + r" \\ \hline"]
        bottom = r"\hline"
    else:
        head = [rules[0], header + r" \\", rules[1]]
        bottom = rules[2]
    body = [table_row(r) for r in rows]
    return [rf"\begin{{tabular}}{{{colspec}}}", *head, *body, bottom, r"\end{tabular}"]


def csv_path(directory: str | os.PathLike, stem: str) -> Path:
    """``<directory>/<stem>.csv``."""
    return Path(directory) / f"{stem}.csv"


def notes_path(directory: str | os.PathLike, stem: str) -> Path:
    """``<directory>/<stem>.json``: the sidecar of values the table's text needs."""
    return Path(directory) / f"{stem}.json"


def read_table(path: str | os.PathLike, text: Sequence[str] = ()) -> pd.DataFrame:
    """A study CSV; the ``text`` columns get ``""`` for empty cells (pandas reads them as NaN,
    while the script wrote an empty string)."""
    frame = pd.read_csv(path)
    for column in text:
        if column in frame.columns:
            frame[column] = frame[column].astype(object).where(frame[column].notna(), "")
    return frame


def read_notes(directory: str | os.PathLike, stem: str) -> dict[str, Any]:
    """The sidecar ``<stem>.json`` of a study table."""
    payload = json.loads(notes_path(directory, stem).read_text(encoding="utf-8"))
    if not isinstance(payload, dict):
        raise ValueError(f"{notes_path(directory, stem)}: expected a JSON object")
    return payload


def write_notes(directory: str | os.PathLike, stem: str, notes: Mapping[str, Any]) -> Path:
    """Write the sidecar ``<stem>.json`` atomically (creating ``directory``)."""
    return write_json_atomic(notes_path(directory, stem), dict(notes), make_parents=True)
