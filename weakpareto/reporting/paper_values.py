"""The paper's transcribed cells, table layouts and decimals: loader of ``reporting/paper/*.yaml``.

One YAML file per table, named after its label (``tab:main`` -> ``paper/tab_main.yaml``)::

    label: tab:main
    paper_lines: [675, 689]          # the table float in weak_pareto.tex (null: not a paper table)
    layout: {stem, caption, colspec, header: [...], size, tabcolsep, centering}
    decimals: {<row group or '*'>: {<column>: <decimals>}}
    paper_columns: [benchmark, support, ...]   # the fields of a paper row, in order
    rows:                            # cells printed in the table
      fade: {line: 683, cells: {support: '5/5', e_alpha: '$0.002\\pm0.002$', ...}}
    text_cells:                      # numbers quoted in the running text
      rd_space: {line: 1119, cells: {full_support: {quote: '...', value: '...'}}}
    archive_cells:                   # not printed in the paper (reference archive only)
      fade@0: {seed: '4'}

Cells are verbatim LaTeX strings, so a reproduced cell can be compared with the paper's character
by character; ``tests/reporting/test_paper_values.py`` checks every one against the paper source.
Other top-level keys are table-specific extras (:attr:`PaperTable.extras`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import yaml

from weakpareto.reporting.latex import TableLayout

#: Package holding the ``paper/`` data directory.
DATA_PACKAGE = "weakpareto.reporting"
DATA_DIR = "paper"
#: Top-level keys with a meaning for every table; the others are extras.
COMMON_KEYS = frozenset(
    {"label", "paper_lines", "layout", "decimals", "paper_columns", "rows", "text_cells",
     "archive_cells"}
)  # fmt: skip
SOURCES = ("table", "text", "archive")


@dataclass(frozen=True)
class PaperCell:
    """One transcribed value and where it comes from."""

    row: str  # row id, e.g. "fade" or "rd_space@5"
    column: str  # column id, e.g. "e_alpha"
    value: str  # verbatim LaTeX (table cells) or the compared value (text cells)
    source: str  # "table" (a row of the table), "text" (running text), "archive" (not printed)
    line: int | None  # 1-based line of weak_pareto.tex (None for archive cells)
    quote: str | None = None  # text cells: the verbatim passage of the paper line


@dataclass(frozen=True)
class PaperTable:
    """Everything transcribed for one table: layout, decimals and cells with their places."""

    label: str
    paper_lines: tuple[int, int] | None
    layout: TableLayout
    decimals: Mapping[str, Mapping[str, int]]
    paper_columns: tuple[str, ...]
    cells: tuple[PaperCell, ...]
    extras: Mapping[str, Any] = field(default_factory=dict)

    def values(self) -> dict[str, dict[str, str]]:
        """``{row id: {column id: value}}`` over all sources, rows in order of first appearance."""
        out: dict[str, dict[str, str]] = {}
        for c in self.cells:
            out.setdefault(c.row, {})[c.column] = c.value
        return out

    def value(self, row: str, column: str) -> str:
        """One transcribed value (``KeyError`` when the paper has none)."""
        return self.values()[row][column]

    def decimals_of(self, group: str = "*") -> Mapping[str, int]:
        """Decimal places per column of a row group (``"*"``: the whole table)."""
        return self.decimals[group]


def data_file_name(label: str) -> str:
    """``tab:elbow-margin-sensitivity`` -> ``tab_elbow_margin_sensitivity.yaml``."""
    return label.replace(":", "_").replace("-", "_") + ".yaml"


def _fail(name: str, problem: str) -> ValueError:
    return ValueError(f"weakpareto/reporting/{DATA_DIR}/{name}: {problem}")


def _str_map(name: str, where: str, raw: Any) -> dict[str, str]:
    if not isinstance(raw, Mapping):
        raise _fail(name, f"{where} must be a mapping")
    for k, v in raw.items():
        if not isinstance(k, str) or not isinstance(v, str):
            raise _fail(name, f"{where}: {k!r}: keys and cells must be quoted strings")
    return dict(raw)


def _line(name: str, where: str, raw: Any) -> int:
    if not isinstance(raw, int) or raw < 1:
        raise _fail(name, f"{where}: line must be a positive integer")
    return raw


def _table_cells(name: str, raw: Mapping[str, Any]) -> list[PaperCell]:
    cells = []
    for row, spec in raw.items():
        line = _line(name, f"rows.{row}", spec.get("line"))
        for col, value in _str_map(name, f"rows.{row}.cells", spec.get("cells", {})).items():
            cells.append(PaperCell(str(row), col, value, "table", line))
    return cells


def _text_cells(name: str, raw: Mapping[str, Any]) -> list[PaperCell]:
    cells = []
    for row, spec in raw.items():
        line = _line(name, f"text_cells.{row}", spec.get("line"))
        for col, cell in spec.get("cells", {}).items():
            pair = _str_map(name, f"text_cells.{row}.cells.{col}", cell)
            if set(pair) != {"quote", "value"}:
                raise _fail(name, f"text_cells.{row}.cells.{col} needs exactly quote and value")
            cells.append(PaperCell(str(row), col, pair["value"], "text", line, pair["quote"]))
    return cells


def _archive_cells(name: str, raw: Mapping[str, Any]) -> list[PaperCell]:
    return [
        PaperCell(str(row), col, value, "archive", None)
        for row, spec in raw.items()
        for col, value in _str_map(name, f"archive_cells.{row}", spec).items()
    ]


def _layout(name: str, label: str, raw: Mapping[str, Any]) -> TableLayout:
    header = raw.get("header")
    if not isinstance(header, list) or not all(isinstance(h, str) for h in header):
        raise _fail(name, "layout.header must be a list of strings")
    return TableLayout(
        label=label,
        stem=str(raw["stem"]),
        caption=str(raw["caption"]),
        colspec=str(raw["colspec"]),
        header=tuple(header),
        size=raw.get("size"),
        tabcolsep=raw.get("tabcolsep"),
        centering=raw.get("centering", "before-caption"),
    )


def parse_paper_table(name: str, raw: Mapping[str, Any]) -> PaperTable:
    """Validate one data file's content (``name`` is used in error messages)."""
    label = raw.get("label")
    if not isinstance(label, str) or data_file_name(label) != name:
        raise _fail(name, f"label {label!r} does not match the file name")
    lines = raw.get("paper_lines")
    decimals = {
        str(g): {str(c): int(d) for c, d in cols.items()}
        for g, cols in (raw.get("decimals") or {}).items()
    }
    return PaperTable(
        label=label,
        paper_lines=None if lines is None else (int(lines[0]), int(lines[1])),
        layout=_layout(name, label, raw["layout"]),
        decimals=decimals,
        paper_columns=tuple(str(c) for c in raw.get("paper_columns") or ()),
        cells=tuple(
            _table_cells(name, raw.get("rows") or {})
            + _text_cells(name, raw.get("text_cells") or {})
            + _archive_cells(name, raw.get("archive_cells") or {})
        ),
        extras={k: v for k, v in raw.items() if k not in COMMON_KEYS},
    )


def data_file_names() -> list[str]:
    """Names of all data files shipped in ``weakpareto/reporting/paper``."""
    root = resources.files(DATA_PACKAGE) / DATA_DIR
    return sorted(p.name for p in root.iterdir() if p.name.endswith(".yaml"))


@functools.cache
def _load(name: str) -> PaperTable:
    text = (resources.files(DATA_PACKAGE) / DATA_DIR / name).read_text(encoding="utf-8")
    return parse_paper_table(name, yaml.safe_load(text))


def paper_table(label: str) -> PaperTable:
    """The transcribed data of one table, e.g. ``paper_table("tab:main")``."""
    return _load(data_file_name(label))


def all_paper_tables() -> list[PaperTable]:
    """Every table with a data file, in file-name order."""
    return [_load(name) for name in data_file_names()]


def table_layout(label: str) -> TableLayout:
    """The LaTeX layout of one table."""
    return paper_table(label).layout
