"""``wp report``'s results page: ``<html_dir>/index.html``, one static file.

Sections: a summary (cells the same as the paper's, differing cells, stale runs), every paper
table beside the paper's values with the differing cells marked
(:mod:`weakpareto.reporting.html.paper_tables`), the tables beyond the paper from their committed
files (:mod:`weakpareto.reporting.html.beyond`) and the provenance
(:mod:`weakpareto.reporting.html.provenance`). Figures are referenced by relative paths (the
page and ``results/`` move together); the CSS is inline and there is no script, so the page
opens from disk, without a server or a network.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from weakpareto.campaign.provenance import CodeIdentity, current
from weakpareto.io import write_text_atomic
from weakpareto.reporting.failures import Failures
from weakpareto.reporting.html.beyond import BEYOND_TABLES, beyond_table_html
from weakpareto.reporting.html.comparison import DIFFERS, NO_PAPER, SAME
from weakpareto.reporting.html.page import Html, Page, anchor_id, element, missing
from weakpareto.reporting.html.paper_tables import PaperTableSection, paper_sections
from weakpareto.reporting.html.provenance import (
    bench_machine_html,
    generated_html,
    runs_html,
    short,
)

INDEX = "index.html"


def _legend() -> Html:
    marks = [
        ("same", "same as the paper at its precision"),
        ("differs", "differs (paper value below; a number links to the recorded reason)"),
        ("no-paper", "not in the paper"),
        ("stale", "run computed by other code than the current"),
    ]
    return element("p", [element("span", text, class_=cls) for cls, text in marks], class_="legend")


def _summary(
    sections: list[PaperTableSection], runs: pd.DataFrame | None, code: CodeIdentity
) -> Html:
    same = sum(s.counts.get(SAME, 0) for s in sections)
    differs = sum(s.counts.get(DIFFERS, 0) for s in sections)
    no_paper = sum(s.counts.get(NO_PAPER, 0) for s in sections)
    items = [
        element(
            "li",
            f"{len(sections)} paper tables; {same} of {same + differs} compared cells the same "
            f"as the paper's at its precision, {differs} differ; {no_paper} cells not in the "
            "paper.",
        )
    ]
    differing = [s for s in sections if s.counts.get(DIFFERS)]
    if differing:
        links: list[object] = ["Tables with differing cells: "]
        for i, s in enumerate(differing):
            links += [", " if i else "", element("a", s.label, href=f"#{s.anchor}")]
            links.append(f" ({s.counts[DIFFERS]})")
        items.append(element("li", links))
    if runs is not None and len(runs):
        hashes = runs["code_hash"].astype(object) if "code_hash" in runs else None
        n_stale = len(runs) if hashes is None else int((hashes != code.code_hash).sum())
        items.append(
            element(
                "li",
                [
                    f"{len(runs)} stored runs, {n_stale} stale (code other than the current "
                    f"{short(code.code_hash)}; ",
                    element("a", "provenance", href="#provenance"),
                    ").",
                ],
            )
        )
    return Html(element("ul", items, class_="summary-list") + _legend())


def build_page(
    tables_dir: Path,
    page_dir: Path,
    results_root: Path,
    runs: pd.DataFrame | None = None,
    failures: Mapping[str, Failures | None] | None = None,
    code: CodeIdentity | None = None,
) -> Page:
    """The page object (sections in order) for ``write_site``."""
    code = code or current()
    sections = paper_sections(tables_dir, page_dir, failures, code.code_hash)
    page = Page(
        "weakpareto: results",
        element(
            "p",
            f"Made by wp report from the committed results, code {short(code.code_hash)} "
            f"(weakpareto {code.version}).",
            class_="subtitle",
        ),
    )
    page.add("summary", "Summary", _summary(sections, runs, code))
    if sections:
        links = [element("a", s.label, href=f"#{s.anchor}") for s in sections]
        toc = element("p", Html(" · ".join(links)), class_="table-links")
        page.add("paper-tables", "Paper tables", [toc, *(s.html for s in sections)])
    else:
        page.add("paper-tables", "Paper tables", missing(f"no *_paper_vs_ours.md in {tables_dir}"))
    beyond = []
    for spec in BEYOND_TABLES:
        beyond.append(element("h3", spec.title, id=anchor_id(spec.stem)))
        beyond.append(beyond_table_html(spec, results_root, page_dir))
    page.add("beyond", "Beyond the paper", beyond)
    prov = [
        generated_html(code),
        element("h3", "Stored runs"),
        runs_html(runs, code.code_hash)
        if runs is not None
        else element("p", "The stored runs were not read for this page.", class_="missing"),
        element("h3", "Machine of the timings (wp bench)"),
        bench_machine_html(results_root / "bench" / "machine.json"),
    ]
    page.add("provenance", "Provenance", prov)
    return page


def write_site(
    html_dir: str | os.PathLike,
    tables_dir: str | os.PathLike = "results/tables",
    results_root: str | os.PathLike = "results",
    runs: pd.DataFrame | None = None,
    failures: Mapping[str, Failures | None] | None = None,
) -> list[Path]:
    """Write ``<html_dir>/index.html`` from the files in ``tables_dir`` and ``results_root``
    (and the stored ``runs`` and per-table ``failures`` when given); returns ``[index]``."""
    page_dir = Path(html_dir)
    page_dir.mkdir(parents=True, exist_ok=True)
    page = build_page(Path(tables_dir), page_dir, Path(results_root), runs, failures)
    return [write_text_atomic(page_dir / INDEX, page.document())]
