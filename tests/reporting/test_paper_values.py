"""The transcribed paper data: loader, and every cell checked against the paper's LaTeX source.

A table cell must equal the field of its column in the stated line of ``weak_pareto.tex`` (so the
number of decimals is checked too), inside the float of its table label. A text cell's verbatim
quote must occur in the stated line and every number of the compared value must occur in the quote.
The paper source is ``../shared/paper/weak_pareto.tex`` beside the repository (override with
``WEAKPARETO_PAPER_TEX``), or where it is absent the committed excerpt of the lines the data
refer to (``tests/reporting/paper_source.py``).
"""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from weakpareto.reporting import paper_source
from weakpareto.reporting.paper_values import (
    PaperTable,
    all_paper_tables,
    data_file_names,
    paper_table,
    parse_paper_table,
)

#: The only values not printed in the paper: representative seeds of the reference archive.
ARCHIVE_ALLOWED = {("tab:equations", "seed")}
NUMBER = re.compile(r"\d+(?:\.\d+)?(?:/\d+)?")
#: Every table rendered by `wp report`.
LABELS = {
    "tab:ablation", "tab:appendix", "tab:burgers", "tab:conditioning",
    "tab:elbow-margin-sensitivity", "tab:equations", "tab:forward", "tab:gaussian-noise",
    "tab:ksens", "tab:local-identifiability", "tab:main", "tab:progress", "tab:rdnoise",
    "tab:robustness", "tab:robustness-burgers", "tab:runtime", "tab:superunit", "tab:twod",
    "tab:twod-resolution", "tab:twod-width",
    # tab:frozen-soil (rendered from user records by
    # scripts/frozen_soil.py) and two claims of the running text (cells in `claims`)
    "tab:frozen-soil", "tab:tau-rescoring", "tab:temporal-profile",
    "tab:yu",
}  # fmt: skip


@pytest.fixture(scope="module")
def paper_lines() -> list[str]:
    return paper_source.paper_lines()


def test_the_committed_excerpt_is_the_paper_source():
    """The excerpt holds exactly the referenced lines of the full source (where it is here)."""
    full = paper_source.full_lines()
    if full is None:
        pytest.skip(f"paper source {paper_source.PAPER_TEX} not here; the excerpt stands in")
    stored = json.loads(paper_source.EXCERPT.read_text(encoding="utf-8"))
    assert stored == paper_source.build_excerpt(full)


def row_fields(line: str) -> list[str] | None:
    r"""The ``&``-separated fields of a tabular row ``a & b \\`` (None for other lines)."""
    s = line.strip()
    if not s.endswith(r"\\"):
        return None
    return [f.strip() for f in s[:-2].split("&")]


def _occurs(needle: str, text: str) -> bool:
    """``needle`` in ``text``, not as part of a longer number (``0.12`` is not in ``0.125``)."""
    return re.search(r"(?<![\d.])" + re.escape(needle) + r"(?!\d)", text) is not None


def check_table(table: PaperTable, lines: list[str]) -> list[str]:
    """Every disagreement between one data file and the paper source (empty: all cells agree)."""
    label = table.label
    if table.paper_lines is None:
        return [f"{label}: cells without a paper table"] if table.cells else []
    begin, end = table.paper_lines
    env = lines[begin - 1 : end]
    problems = []
    if not (env and env[0].startswith(r"\begin{table}") and env[-1].startswith(r"\end{table}")):
        problems.append(f"{label}: lines {begin}-{end} are not a table float")
    if not any(rf"\label{{{label}}}" in s for s in env):
        problems.append(f"{label}: label not in lines {begin}-{end}")
    for c in table.cells:
        where = f"{label} {c.row}/{c.column} (line {c.line})"
        if c.source == "archive":
            if (label, c.column) not in ARCHIVE_ALLOWED:
                problems.append(f"{where}: unprinted value")
            continue
        assert c.line is not None
        text = lines[c.line - 1] if 0 < c.line <= len(lines) else ""
        if c.source == "text":
            quote = c.quote or ""
            if not _occurs(quote, text):
                problems.append(f"{where}: quote {quote!r} not in the line")
            if not set(NUMBER.findall(c.value)) <= set(NUMBER.findall(quote)):
                problems.append(f"{where}: value {c.value!r} has numbers not in the quote")
            continue
        fields = row_fields(text)
        if not begin < c.line < end or fields is None:
            problems.append(f"{where}: not a row of the table")
        elif c.column not in table.paper_columns or len(fields) != len(table.paper_columns):
            problems.append(f"{where}: column not in paper_columns {table.paper_columns}")
        elif fields[table.paper_columns.index(c.column)] != c.value:
            got = fields[table.paper_columns.index(c.column)]
            problems.append(f"{where}: paper has {got!r}, data file {c.value!r}")
    return problems


def test_every_transcribed_cell_is_in_the_paper(paper_lines):
    tables = all_paper_tables()
    assert {t.label for t in tables} == LABELS
    problems = [p for t in tables for p in check_table(t, paper_lines)]
    assert problems == []
    n_checked = sum(c.source != "archive" for t in tables for c in t.cells)
    assert n_checked > 300


def test_equation_truth_lines_are_verbatim(paper_lines):
    table = paper_table("tab:equations")
    for b, spec in table.extras["truth_lines"].items():
        line = rf"\multicolumn{{3}}{{l}}{{{spec['name']} --- true: {spec['equation']}}} \\"
        assert paper_lines[spec["line"] - 1].strip() == line, b
        nxt = paper_lines[spec["line"]]  # first case row of the group
        assert nxt.startswith(rf"\multirow{{2}}{{*}}{{{spec['row_label']}}} &"), b


def _replace_cell(table: PaperTable, row: str, column: str, changes: dict) -> PaperTable:
    cells = tuple(
        dataclasses.replace(c, **changes) if (c.row, c.column) == (row, column) else c
        for c in table.cells
    )
    return dataclasses.replace(table, cells=cells)


@pytest.mark.parametrize(
    ("label", "row", "column", "changes", "expected"),
    [
        ("tab:main", "fade", "e_alpha", {"value": r"$0.0020\pm0.002$"}, "paper has"),  # decimals
        ("tab:main", "fade", "e_alpha", {"value": r"$0.003\pm0.002$"}, "paper has"),  # digit
        ("tab:main", "fade", "e_alpha", {"line": 684}, "paper has"),  # another row
        ("tab:main", "fade", "e_alpha", {"line": 700}, "not a row of the table"),
        ("tab:main", "fade", "e_alpha", {"column": "e_xi_2"}, "paper has"),  # another column
        ("tab:twod", "twod_a", "e_alpha", {"value": r"0.0008\pm0.00054"}, "not in the quote"),
        (
            "tab:twod",
            "twod_a",
            "e_alpha",
            {"quote": r"$(0.00081\pm0.00054,0.00217\pm0.00140)$"},
            "not in the line",
        ),
        ("tab:equations", "fade@0", "seed", {"column": "e_alpha"}, "unprinted value"),
    ],
)
def test_check_rejects_a_wrong_transcription(paper_lines, label, row, column, changes, expected):
    wrong = _replace_cell(paper_table(label), row, column, changes)
    problems = check_table(wrong, paper_lines)
    assert len(problems) == 1 and expected in problems[0]


def test_values_merge_table_text_and_archive_cells():
    elbow = paper_table("tab:elbow-margin-sensitivity").values()
    assert list(elbow) == ["fade", "burgers", "rd_space", "rd_timespace"]
    assert elbow["rd_space"]["m0.2"] == "$1/5$"
    assert elbow["rd_space"]["full_operator"] == "$0/5$, $0/5$, $0/5$"
    eqs = paper_table("tab:equations")
    assert eqs.value("burgers@10", "seed") == "4"
    assert paper_table("tab:main").decimals_of("rd_space")["e_alpha"] == 2
    assert paper_table("tab:robustness-burgers").values() == {}


def test_data_files_are_package_data_with_unique_stems():
    names = data_file_names()
    assert len(names) == len(LABELS)
    stems = [paper_table(label).layout.stem for label in LABELS]
    assert len(set(stems)) == len(stems) and all(s.startswith("tab_") for s in stems)


def _raw(**over):
    raw = {
        "label": "tab:demo",
        "paper_lines": [1, 9],
        "layout": {"stem": "tab_demo", "caption": "c", "colspec": "lc", "header": ["A \\\\"]},
        "paper_columns": ["name", "x"],
        "rows": {"a": {"line": 3, "cells": {"x": "1"}}},
    }
    raw.update(over)
    return raw


def test_parse_rejects_malformed_files():
    assert parse_paper_table("tab_demo.yaml", _raw()).values() == {"a": {"x": "1"}}
    with pytest.raises(ValueError, match="does not match the file name"):
        parse_paper_table("tab_other.yaml", _raw())
    with pytest.raises(ValueError, match="quoted strings"):  # e.g. an unquoted 0.50 in YAML
        parse_paper_table("tab_demo.yaml", _raw(rows={"a": {"line": 3, "cells": {"x": 0.5}}}))
    with pytest.raises(ValueError, match="line must be"):
        parse_paper_table("tab_demo.yaml", _raw(rows={"a": {"cells": {"x": "1"}}}))
    with pytest.raises(ValueError, match="quote and value"):
        bad = {"a": {"line": 3, "cells": {"x": {"value": "1"}}}}
        parse_paper_table("tab_demo.yaml", _raw(text_cells=bad))
