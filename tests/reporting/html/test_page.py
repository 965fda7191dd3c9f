"""The page builder: escaping, attributes, images by relative path or embedded."""

from __future__ import annotations

from weakpareto.reporting.html.page import Cell, Html, Page, element, file_source, table, text


def test_text_is_escaped_and_markup_is_kept():
    assert text('<a href="x">') == "&lt;a href=&quot;x&quot;&gt;"
    assert text(Html("<b>")) == "<b>"
    assert element("p", ["<", element("b", "x")]) == "<p>&lt;<b>x</b></p>"


def test_attributes():
    html = element("td", "v", class_="a b", data_x='1"', hidden=True, title=None, id=False)
    assert html == '<td class="a b" data-x="1&quot;" hidden>v</td>'
    assert element("img", src="f.png", alt="") == '<img src="f.png" alt="">'


def test_table_cells_carry_classes(parse_page):
    dom = parse_page(table(["h"], [[Cell("x", ("cell", "differs"), "why")], ["y"]]))
    tds = list(dom.iter("td"))
    assert tds[0].classes == {"cell", "differs"} and tds[0].attrs["title"] == "why"
    assert tds[1].text() == "y"


def test_file_source_relative_or_embedded(tmp_path):
    fig = tmp_path / "tables" / "fig.png"
    fig.parent.mkdir()
    fig.write_bytes(b"\x89PNG\r\n\x1a\n")
    page_dir = tmp_path / "report"
    page_dir.mkdir()
    assert file_source(fig, page_dir) == "../tables/fig.png"
    assert file_source(fig, page_dir, embed=True) == "data:image/png;base64,iVBORw0KGgo="


def test_document_has_inline_css_and_no_script(parse_page):
    page = Page("T <1>")
    page.add("a", "A", element("p", "x"))
    page.add("b", "B", "y")
    dom = parse_page(page.document())
    assert dom.find("title").text() == "T <1>"
    assert dom.find("style") is not None and dom.find("script") is None
    assert [a.attrs["href"] for a in dom.find("nav").iter("a")] == ["#a", "#b"]
