"""The results page of ``wp report`` (``index.html``), checked on its parsed DOM: every table of
the committed files is there, differing cells carry the mark, every image and link resolves."""

from __future__ import annotations

import base64
from pathlib import Path

import pandas as pd
import pytest

from weakpareto.campaign.store import load_runs
from weakpareto.reporting.html import md_blocks
from weakpareto.reporting.html.beyond import BEYOND_TABLES
from weakpareto.reporting.html.page import anchor_id
from weakpareto.reporting.html.site import write_site
from weakpareto.reporting.markdown import same_cells
from weakpareto.reporting.render import render_all

REPO = Path(__file__).parents[3]
RESULTS = REPO / "results"
TABLES = RESULTS / "tables"


@pytest.fixture(scope="module")
def site(tmp_path_factory, parse_page):
    """The page built from the committed tables and runs, and its DOM."""
    out = tmp_path_factory.mktemp("report")
    (index,) = write_site(out, TABLES, RESULTS, runs=load_runs(RESULTS / "runs"))
    return index, parse_page(index.read_text(encoding="utf-8"))


def _tables_in(md: Path) -> list[md_blocks.Table]:
    return [
        b for b in md_blocks.parse(md.read_text(encoding="utf-8")) if isinstance(b, md_blocks.Table)
    ]


def _section_tables(dom, anchor: str) -> list:
    """The tables between the heading ``anchor`` and the next table heading."""
    out, inside = [], False
    for section in ("paper-tables", "beyond"):
        for node in dom.find("section", id=section).iter():
            if node.tag == "h3":
                inside = node.attrs.get("id") == anchor
            elif inside and node.tag == "table":
                out.append(node)
    return out


def test_every_paper_table_is_on_the_page_with_all_its_tables(site):
    _, dom = site
    files = sorted(TABLES.glob("*_paper_vs_ours.md"))
    assert len(files) >= 20
    for md in files:
        label = md_blocks.parse(md.read_text(encoding="utf-8"))[0].text.split(": paper vs ours")[0]
        anchor = anchor_id(label)
        assert dom.find("h3", id=anchor) is not None, label
        assert len(_section_tables(dom, anchor)) == len(_tables_in(md)), label


def test_every_beyond_paper_table_is_on_the_page(site):
    _, dom = site
    for spec in BEYOND_TABLES:
        md = RESULTS / spec.folder / f"{spec.stem}.md"
        assert md.is_file()  # committed
        tables = _section_tables(dom, anchor_id(spec.stem))
        assert len(tables) == len(_tables_in(md)) >= 1, spec.stem


def _cell(dom, label: str, row: str, column: str):
    """The grid cell of one paper table (first comparison table of its section)."""
    table = next(t for t in _section_tables(dom, anchor_id(label)) if "comparison" in t.classes)
    header = [th.text() for th in table.find("thead").iter("th")]
    for tr in table.find("tbody").iter("tr"):
        cells = list(tr.iter("td"))
        if cells[0].text() == row:
            return cells[header.index(column)]
    raise AssertionError(f"{label}: no row {row!r}")


def test_a_known_differing_cell_is_marked_and_links_to_its_reason(site):
    _, dom = site
    cell = _cell(dom, "tab:conditioning", "spacing 0.10", "Condition number")
    assert {"cell", "differs"} <= cell.classes
    assert "paper: 8.4×10^15" in cell.text()
    ref = cell.find("a")
    assert ref is not None and "reason-ref" in ref.classes
    target = dom.find("li", id=ref.attrs["href"][1:])
    assert target is not None and "double-precision floor" in target.text()


def test_differing_cell_without_a_recorded_reason_has_no_link(site):
    _, dom = site
    cell = _cell(dom, "tab:main", "Frac. RD (time-space)", "e_beta^max")
    assert "differs" in cell.classes and "paper: 0.54 ± 0.38" in cell.text()
    assert cell.find("a") is None
    same = _cell(dom, "tab:main", "FADE", "Support/power")
    assert "same" in same.classes and same.text() == "5/5"


def test_marks_add_up_to_the_counts_of_wp_report(site):
    """As many differing and same cells as `wp report` counts in the paper-vs-ours files."""
    _, dom = site
    same = compared = 0
    for md in TABLES.glob("*_paper_vs_ours.md"):
        s, c = same_cells(md.read_text(encoding="utf-8"))
        same, compared = same + s, compared + c
    cells = list(dom.find("section", id="paper-tables").iter("td"))
    assert sum("differs" in td.classes for td in cells) == compared - same > 0
    assert sum("same" in td.classes for td in cells) == same


def _local(index: Path, url: str) -> Path:
    return (index.parent / url.split("#")[0]).resolve()


def test_every_image_exists_and_every_local_link_resolves(site):
    index, dom = site
    images = list(dom.iter("img"))
    assert len(images) >= 4  # fig_robustness, fig_pareto, fig_burgers, coverage
    for img in images:
        src = img.attrs["src"]
        if src.startswith("data:"):
            assert base64.b64decode(src.split(",", 1)[1])[:4] == b"\x89PNG"
        else:
            assert not src.startswith(("http:", "https:", "//")), src
            assert _local(index, src).is_file(), src
    ids = {n.attrs["id"] for n in dom.iter() if "id" in n.attrs}
    for a in dom.iter("a"):
        href = a.attrs["href"]
        if href.startswith("#"):
            assert href[1:] in ids, href
        elif not href.startswith(("http:", "https:")):
            assert _local(index, href).is_file(), href


def test_the_page_is_static(site):
    index, dom = site
    assert dom.find("script") is None and dom.find("link") is None
    assert dom.find("style") is not None  # inline CSS
    assert "http://" not in index.read_text() and "https://" not in index.read_text()


def test_provenance_names_the_code_and_the_stale_runs(site, parse_page, tmp_path):
    _, dom = site
    prov = dom.find("section", id="provenance")
    assert prov is not None and "code hash" in prov.text() and "machine" in prov.text()
    assert prov.find("table", id="runs-provenance") is not None
    # a results tree whose runs were computed by two codes: the other one is stale
    runs = pd.DataFrame(
        {
            "benchmark": ["fade", "fade"],
            "method": ["weak_pareto"] * 2,
            "variant": ["default"] * 2,
            "noise": [0.1, 0.1],
            "seed": [0, 1],
            "experiment": ["main"] * 2,
            "status": ["ok", "ok"],
            "code_hash": ["0123456789abcdef", "fedcba9876543210"],
            "created_utc": ["2026-01-01T00:00:00+00:00"] * 2,
            "git_commit": ["", ""],
        }
    )
    from weakpareto.campaign.provenance import CodeIdentity
    from weakpareto.reporting.html.site import build_page

    code = CodeIdentity("0.1.0", "0123456789abcdef")
    page = build_page(tmp_path / "tables", tmp_path, tmp_path, runs=runs, code=code)
    dom2 = parse_page(page.document())
    stale = [tr for tr in dom2.find("table", id="stale-runs").iter("tr") if "stale" in tr.classes]
    assert len(stale) == 1 and "fedcba98" in stale[0].text()
    assert "1 stale" in dom2.find("section", id="summary").text()


def test_missing_inputs_are_named_not_fatal(tmp_path, parse_page):
    """An empty results tree: the page says what is missing, for every section."""
    (index,) = write_site(tmp_path / "report", tmp_path / "tables", tmp_path)
    dom = parse_page(index.read_text())
    notes = [p.text() for p in dom.iter("p") if "missing" in p.classes]
    assert any("_paper_vs_ours.md" in n for n in notes)
    for spec in BEYOND_TABLES:
        assert any(f"{spec.stem}.md or .csv" in n and spec.target in n for n in notes), spec
    assert any("machine.json" in n for n in notes)


def test_beyond_table_falls_back_to_the_csv(tmp_path, parse_page):
    folder = tmp_path / "independent"
    folder.mkdir()
    (folder / "tab_independent.csv").write_text("case,e_alpha\nsub35,0.000569770276\n")
    (index,) = write_site(tmp_path / "report", tmp_path / "tables", tmp_path)
    dom = parse_page(index.read_text())
    (table,) = _section_tables(dom, anchor_id("tab_independent"))
    assert [td.text() for td in table.iter("td")] == ["sub35", "0.0005698"]


def test_wp_report_writes_the_page_with_runs_per_table(results_dir, tmp_path, parse_page):
    out, html_dir = tmp_path / "tables", tmp_path / "report"
    paths = render_all(results_dir, out, conditioning_csv=tmp_path / "none.csv", html_dir=html_dir)
    assert html_dir / "index.html" in paths
    dom = parse_page((html_dir / "index.html").read_text())
    assert dom.find("h3", id="tab-main") is not None
    assert (
        "stored runs behind this table, 0 failed" in dom.find("section", id="paper-tables").text()
    )
