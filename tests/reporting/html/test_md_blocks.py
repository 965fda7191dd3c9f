"""The package's Markdown read back as blocks and rendered as escaped HTML."""

from __future__ import annotations

from weakpareto.reporting.html import md_blocks
from weakpareto.reporting.html.md_blocks import Bullets, Heading, Paragraph, Table

TEXT = """# tab:x: paper vs ours

| Row | Column | Paper | Ours |
|---|---|---|---|
| a \\| b | e | 1 | 2 |

Notes:
- first note
  continued
- `code` and **bold** and [a link](docs/x.md#y)

## Section
Two lines
of one paragraph.
"""


def test_blocks_in_order():
    blocks = md_blocks.parse(TEXT)
    assert blocks == [
        Heading(1, "tab:x: paper vs ours"),
        Table(("Row", "Column", "Paper", "Ours"), (("a | b", "e", "1", "2"),)),
        Paragraph("Notes:"),
        Bullets(("first note continued", "`code` and **bold** and [a link](docs/x.md#y)")),
        Heading(2, "Section"),
        Paragraph("Two lines of one paragraph."),
    ]


def test_inline_markup_and_escaping():
    html = md_blocks.inline("`a<b>` **x & y** [t](u.md) <script>")
    assert html == (
        '<code>a&lt;b&gt;</code> <strong>x &amp; y</strong> <a href="u.md">t</a> &lt;script&gt;'
    )


def test_render_shifts_heading_levels():
    html = md_blocks.render(md_blocks.parse("# A\n\n## B\n"), heading_offset=2)
    assert html == "<h3>A</h3><h4>B</h4>"
