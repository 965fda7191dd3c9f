"""The paper's tables on the report page, from the paper-vs-ours files ``wp report`` writes.

For each ``<stem>_paper_vs_ours.md`` of the tables folder: the label and caption (the
transcribed layout, :mod:`weakpareto.reporting.paper_values`), the runs behind the table (with
failed and stale counts, when ``wp report`` recorded them), the comparison grid
(:mod:`weakpareto.reporting.html.comparison`) and the file's other sections and notes. Tables are
in the order they appear in the paper; those that are not paper floats follow.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from weakpareto.reporting.failures import Failures
from weakpareto.reporting.html import md_blocks
from weakpareto.reporting.html.comparison import comparison_grid, count_line, is_comparison
from weakpareto.reporting.html.page import Html, anchor_id, element, figure, file_source
from weakpareto.reporting.html.provenance import short, stale_count
from weakpareto.reporting.paper_values import data_file_name, data_file_names, paper_table

SUFFIX = "_paper_vs_ours.md"
_TITLE = re.compile(r"^(\S+): paper vs ours$")

#: Figures ``wp report`` draws, by stem: the table they belong to and their caption.
FIGURES: Mapping[str, tuple[str, str]] = {
    "fig_robustness": ("tab:robustness", "fig:robustness: Weak-Pareto versus the strong form"),
    "fig_pareto": ("tab:progress", "fig:pareto: validation error per support size"),
    "fig_burgers": ("tab:burgers", "fig:burgers: residual margins of the Burgers structures"),
}


@dataclass
class PaperTableSection:
    """One paper table on the page."""

    label: str
    stem: str
    html: Html
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def anchor(self) -> str:
        return anchor_id(self.label)


def caption_text(latex: str) -> str:
    """A LaTeX caption as readable text (common commands dropped, no markup)."""
    s = latex.replace("\\%", "%").replace("\\,", " ").replace("~", " ").replace("\\ ", " ")
    s = re.sub(r"\\eqref\{([^}]*)\}", r"(\1)", s)
    s = s.replace("\\_", "_")
    s = re.sub(r"\\(?:mathrm|mathcal|text|textit|texttt|emph|mathbf)\{([^}]*)\}", r"\1", s)
    s = re.sub(r"\\(?:mathcal|left|right)\s*", "", s)
    s = s.replace("\\pm", "±").replace("\\times", "×").replace("\\beta", "β")
    s = s.replace("\\alpha", "α").replace("\\xi", "ξ").replace("\\star", "*")
    s = s.replace("\\Delta", "Δ").replace("\\tau", "τ").replace("$", "").replace("``", '"')
    s = s.replace("''", '"')
    return re.sub(r"\s+", " ", s).strip()


def _paper_order(label: str) -> tuple[int, str]:
    if data_file_name(label) not in data_file_names():
        return (10**9, label)
    lines = paper_table(label).paper_lines
    return (lines[0] if lines else 10**8, label)


def _runs_line(failures: Failures | None, current: str) -> Html:
    if failures is None:
        return element("p", "Not computed from stored runs (diagnostics or timing files).",
                       class_="info")  # fmt: skip
    hashes = ", ".join(f"{short(h)} ({n})" for h, n in sorted(failures.code_hashes.items()))
    stale = stale_count(failures.code_hashes, current)
    parts: list[object] = [
        f"{failures.total} stored runs behind this table, {failures.count} failed; code {hashes}."
    ]
    if stale:
        parts.append(element("span", f" {stale} stale (not the current code).", class_="warning"))
    return element("p", parts, class_="info")


def table_section(
    path: Path,
    page_dir: Path,
    failures: Mapping[str, Failures | None] | None,
    current: str,
) -> PaperTableSection:
    """One paper-vs-ours file as a page section."""
    blocks = md_blocks.parse(path.read_text(encoding="utf-8"))
    stem = path.name[: -len(SUFFIX)]
    label = stem
    if blocks and isinstance(blocks[0], md_blocks.Heading):
        m = _TITLE.match(blocks[0].text)
        if m:
            label, blocks = m.group(1), blocks[1:]
    parts: list[Html] = []
    if data_file_name(label) in data_file_names():
        caption = caption_text(paper_table(label).layout.caption)
        parts.append(element("p", caption, class_="caption"))
    if failures is not None:
        parts.append(_runs_line(failures.get(label), current))
    counts: dict[str, int] = {}
    body: list[Html] = []
    for b in blocks:
        if isinstance(b, md_blocks.Table) and is_comparison(b):
            grid, c = comparison_grid(b, label)
            for k, v in c.items():
                counts[k] = counts.get(k, 0) + v
            body.append(grid)
        else:
            body.append(md_blocks.render([b], heading_offset=2))
    if counts:
        parts.append(element("p", count_line(counts), class_="summary"))
    parts += body
    for fig_stem, (fig_label, caption) in FIGURES.items():
        png = path.parent / f"{fig_stem}.png"
        if fig_label == label and png.is_file():
            parts.append(figure(file_source(png, page_dir), fig_stem, caption))
    parts.append(
        element("p", element("a", path.name, href=file_source(path, page_dir)), class_="info")
    )
    heading = element("h3", label, id=anchor_id(label))
    return PaperTableSection(label, stem, Html(heading + "".join(parts)), counts)


def paper_sections(
    tables_dir: Path,
    page_dir: Path,
    failures: Mapping[str, Failures | None] | None,
    current: str,
) -> list[PaperTableSection]:
    """Every paper-vs-ours file of ``tables_dir`` as a section, in paper order."""
    files = sorted(tables_dir.glob(f"*{SUFFIX}")) if tables_dir.is_dir() else []
    sections = [table_section(p, page_dir, failures, current) for p in files]
    return sorted(sections, key=lambda s: _paper_order(s.label))
