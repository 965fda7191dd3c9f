"""The tables beyond the paper, read from the committed files: ``weak_pareto_exact`` against the
paper, the independent suite, the bootstrap coverage and its held-out calibration, operator
families per term and several experiments in one fit.

Each table is shown from its Markdown file (``<stem>.md``: the formatted table with its notes),
or from its CSV when only that exists; its figures (``*.png`` in the same folder) follow. A
missing file gives a note on the page naming it and the ``make`` target that writes it, never an
error.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

from weakpareto.reporting.html import md_blocks
from weakpareto.reporting.html.page import Html, element, figure, file_source, missing, table


@dataclass(frozen=True)
class BeyondTable:
    """One committed table: ``<results>/<folder>/<stem>.{md,csv}`` and the target that writes it."""

    folder: str
    stem: str
    title: str
    target: str


BEYOND_TABLES = (
    BeyondTable(
        "beyond",
        "tab_beyond",
        "weak_pareto_exact beside the paper and its method",
        "make reproduce-beyond",
    ),
    BeyondTable(
        "independent",
        "tab_independent",
        "Independent suite: data the discretisations did not make",
        "make reproduce-independent",
    ),
    BeyondTable(
        "uncertainty",
        "tab_uncertainty",
        "Coverage of the bootstrap intervals",
        "make reproduce-uncertainty",
    ),
    BeyondTable(
        "uncertainty",
        "tab_calibration",
        "Interval calibration: fitted on some equations, judged on held-out ones",
        "make reproduce-calibration",
    ),
    BeyondTable(
        "model_class",
        "tab_model_class",
        "Operator families per term (operator=auto) on advection with fractional dispersion",
        "make reproduce-model-class",
    ),
    BeyondTable(
        "measurement",
        "tab_experiments",
        "Several short experiments of one equation, alone and pooled",
        "make reproduce-measurement",
    ),
)


def _number(value: str) -> str:
    try:
        x = float(value)
    except ValueError:
        return value
    if not math.isfinite(x) or x == int(x) and abs(x) < 1e15:
        return value
    return f"{x:.4g}"


def csv_table(path: Path) -> Html:
    """A CSV file as an HTML table, numbers at 4 significant digits."""
    with path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows:
        return missing(f"{path} is empty")
    return table(rows[0], [[_number(c) for c in r] for r in rows[1:]])


def _links(paths: list[Path], page_dir: Path) -> Html:
    found = [p for p in paths if p.is_file()]
    if not found:
        return Html("")
    links = [element("a", p.name, href=file_source(p, page_dir)) for p in found]
    parts: list[object] = ["Files: "]
    for i, link in enumerate(links):
        parts += [", " if i else "", link]
    return element("p", parts, class_="info")


def beyond_table_html(spec: BeyondTable, results_root: Path, page_dir: Path) -> Html:
    """One table beyond the paper, with its figures and links to its files."""
    folder = results_root / spec.folder
    md, csv_path = folder / f"{spec.stem}.md", folder / f"{spec.stem}.csv"
    parts: list[Html] = []
    if md.is_file():
        blocks = md_blocks.parse(md.read_text(encoding="utf-8"))
        parts.append(md_blocks.render(blocks, heading_offset=3))  # below the section's h3
    elif csv_path.is_file():
        parts.append(element("p", f"{md.name} is missing; the table from {csv_path.name}:"))
        parts.append(csv_table(csv_path))
    else:
        parts.append(missing(f"{folder / spec.stem}.md or .csv ({spec.target} writes it)"))
    for png in sorted(folder.glob("*.png")) if folder.is_dir() else []:
        src = file_source(png, page_dir)
        parts.append(figure(src, png.stem, f"{spec.folder}/{png.name}"))
    tex = folder / f"{spec.stem}.tex"
    parts.append(_links([md, csv_path, tex], page_dir))
    return Html("".join(parts))
