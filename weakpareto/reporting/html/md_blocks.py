"""The Markdown the package writes (paper-vs-ours files, the beyond-paper tables), read back as
blocks and rendered as HTML.

Only the subset those files use: ``#``/``##`` headings, paragraphs, ``- `` bullet lists and pipe
tables (``\\|`` is a literal bar); inline ```code```, ``**bold**`` and ``[text](url)`` links.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from weakpareto.reporting.html.page import Html, element, table, text


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Bullets:
    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


Block = Heading | Paragraph | Bullets | Table

_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]+)\)")


def split_row(line: str) -> tuple[str, ...]:
    """Cells of one pipe-table line (``\\|`` kept as a bar inside a cell)."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    cells = re.split(r"(?<!\\)\|", body)
    return tuple(c.strip().replace("\\|", "|") for c in cells)


def _is_rule(cells: tuple[str, ...]) -> bool:
    return all(c and set(c) <= set("-: ") for c in cells)


def parse(markdown: str) -> list[Block]:
    """The blocks of a Markdown text, in order."""
    blocks: list[Block] = []
    para: list[str] = []
    bullets: list[str] = []
    rows: list[tuple[str, ...]] = []

    def flush() -> None:
        if para:
            blocks.append(Paragraph(" ".join(para)))
            para.clear()
        if bullets:
            blocks.append(Bullets(tuple(bullets)))
            bullets.clear()
        if rows:
            body = tuple(r for r in rows[1:] if not _is_rule(r))
            blocks.append(Table(rows[0], body))
            rows.clear()

    for raw in markdown.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if stripped.startswith("|"):
            if not rows:
                flush()
            rows.append(split_row(stripped))
            continue
        if rows:
            flush()
        if not stripped:
            flush()
        elif m := re.match(r"^(#{1,6})\s+(.*)$", stripped):
            flush()
            blocks.append(Heading(len(m.group(1)), m.group(2)))
        elif stripped.startswith("- "):
            if para:
                flush()
            bullets.append(stripped[2:])
        elif bullets and raw.startswith("  "):
            bullets[-1] += " " + stripped  # continuation of a bullet
        else:
            if bullets:
                flush()
            para.append(stripped)
    flush()
    return blocks


def inline(value: str) -> Html:
    """Escaped text with ``code``, ``**bold**`` and links as markup."""
    out: list[Html] = []
    pos = 0
    for m in _INLINE.finditer(value):
        out.append(text(value[pos : m.start()]))
        code, bold, label, url = m.groups()
        if code is not None:
            out.append(element("code", code))
        elif bold is not None:
            out.append(element("strong", inline(bold)))
        else:
            out.append(element("a", inline(label), href=url))
        pos = m.end()
    out.append(text(value[pos:]))
    return Html("".join(out))


def render_table(t: Table) -> Html:
    """A parsed table as an HTML table (inline markup in the cells)."""
    return table([inline(h) for h in t.header], [[inline(c) for c in r] for r in t.rows])


def render(blocks: Iterable[Block], heading_offset: int = 2) -> Html:
    """Blocks as HTML; Markdown heading level ``n`` becomes ``h(n + heading_offset)``."""
    out: list[Html] = []
    for b in blocks:
        if isinstance(b, Heading):
            level = min(6, b.level + heading_offset)
            out.append(element(f"h{level}", inline(b.text)))
        elif isinstance(b, Paragraph):
            out.append(element("p", inline(b.text)))
        elif isinstance(b, Bullets):
            out.append(element("ul", [element("li", inline(i)) for i in b.items], class_="notes"))
        else:
            out.append(render_table(b))
    return Html("".join(out))
