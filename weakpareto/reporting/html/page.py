"""A small HTML page builder: escaped elements, tables, images and one self-contained document.

Every text that reaches the page goes through :func:`html.escape` (:func:`text`); markup is
built only by :func:`element`, so a value can never inject markup. :class:`Html` marks a string
that is already markup. The document has its CSS inline (:mod:`weakpareto.reporting.html.style`)
and no script: it opens from disk without a server or a network connection.
"""

from __future__ import annotations

import base64
import html
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from weakpareto.reporting.html.style import CSS

#: Image types a page may reference or embed, by suffix.
IMAGE_TYPES = {".png": "image/png", ".svg": "image/svg+xml", ".jpg": "image/jpeg"}


class Html(str):
    """A string that is markup already (not escaped again)."""


def text(value: object) -> Html:
    """``value`` as escaped text (``Html`` passes through unchanged)."""
    if isinstance(value, Html):
        return value
    return Html(html.escape("" if value is None else str(value), quote=True))


def join(parts: Iterable[object]) -> Html:
    """Concatenate parts, escaping the ones that are not markup."""
    return Html("".join(text(p) for p in parts))


def _content(content: object) -> Html:
    if content is None:
        return Html("")
    if isinstance(content, str):
        return text(content)
    if isinstance(content, Iterable):
        return join(content)
    return text(content)


def element(tag: str, content: object = None, /, **attrs: object) -> Html:
    """``<tag attrs>content</tag>``; ``class_`` sets ``class``, ``data_x`` sets ``data-x``,
    ``None``/``False`` attributes are left out, ``True`` ones written bare."""
    parts = [tag]
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        parts.append(name if value is True else f'{name}="{text(value)}"')
    opening = "<" + " ".join(parts) + ">"
    if tag in ("img", "meta", "br", "hr", "link"):
        return Html(opening)
    return Html(f"{opening}{_content(content)}</{tag}>")


def anchor_id(*parts: str) -> str:
    """A fragment id from free text: ``tab:main`` -> ``tab-main``."""
    raw = "-".join(parts).lower()
    return re.sub(r"[^a-z0-9]+", "-", raw).strip("-") or "section"


@dataclass(frozen=True)
class Cell:
    """One table cell: its content and, optionally, CSS classes and a tooltip."""

    content: object
    classes: tuple[str, ...] = ()
    title: str | None = None


def table(
    header: Sequence[object],
    rows: Sequence[Sequence[object]],
    *,
    classes: str = "data",
    row_classes: Sequence[str | None] | None = None,
    caption: object = None,
    table_id: str | None = None,
) -> Html:
    """A ``<table>`` with one header row; a row entry may be a :class:`Cell`."""
    head = element("tr", [element("th", h, scope="col") for h in header])
    body = []
    for i, row in enumerate(rows):
        cells = []
        for c in row:
            if isinstance(c, Cell):
                cls = " ".join(c.classes) or None
                cells.append(element("td", c.content, class_=cls, title=c.title))
            else:
                cells.append(element("td", c))
        cls = row_classes[i] if row_classes is not None else None
        body.append(element("tr", cells, class_=cls))
    parts = [
        element("caption", caption) if caption is not None else Html(""),
        element("thead", head),
        element("tbody", body),
    ]
    return element("div", element("table", parts, class_=classes, id=table_id), class_="scroll")


def data_uri(data: bytes, mime: str) -> str:
    """``data:<mime>;base64,...`` of some bytes."""
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def file_source(path: Path, page_dir: Path, *, embed: bool = False) -> str:
    """How a page in ``page_dir`` refers to the file ``path``: a relative URL, or the bytes as
    a data URI (``embed``, or when no relative path exists, e.g. another drive)."""
    mime = IMAGE_TYPES.get(path.suffix.lower(), "application/octet-stream")
    if not embed:
        try:
            rel = os.path.relpath(path.resolve(), page_dir.resolve())
        except ValueError:
            rel = None
        if rel is not None:
            return Path(rel).as_posix()
    return data_uri(path.read_bytes(), mime)


def figure(src: str, alt: str, caption: object = None) -> Html:
    """A ``<figure>`` with one image (``src`` relative URL or data URI) and its caption."""
    parts = [element("img", src=src, alt=alt, loading="eager")]
    if caption is not None:
        parts.append(element("figcaption", caption))
    return element("figure", parts)


def side_by_side(*parts: object) -> Html:
    """Blocks next to each other (wrapping on a narrow window)."""
    return element("div", [element("div", p) for p in parts], class_="row")


def missing(what: str) -> Html:
    """The note shown instead of content whose input file does not exist."""
    return element("p", f"Not available: {what}.", class_="missing")


@dataclass
class Page:
    """A document built section by section, with a table of contents of its sections."""

    title: str
    subtitle: object = None
    sections: list[tuple[str, str, Html]] = field(default_factory=list)

    def add(self, section_id: str, heading: str, body: object) -> None:
        """Append a ``<section>`` (listed in the contents)."""
        self.sections.append((section_id, heading, _content(body)))

    def document(self) -> str:
        """The whole page: inline CSS, header, contents, sections; no script."""
        toc = element(
            "nav",
            element(
                "ol",
                [element("li", element("a", h, href=f"#{sid}")) for sid, h, _ in self.sections],
            ),
            class_="toc",
            aria_label="contents",
        )
        body = [
            element(
                "header",
                [element("h1", self.title), _content(self.subtitle)],
            ),
            toc if len(self.sections) > 1 else Html(""),
            *(element("section", [element("h2", h), b], id=sid) for sid, h, b in self.sections),
        ]
        head = [
            element("meta", charset="utf-8"),
            element("meta", name="viewport", content="width=device-width, initial-scale=1"),
            element("title", self.title),
            element("style", Html(CSS)),
        ]
        return (
            "<!DOCTYPE html>\n"
            + element("html", [element("head", head), element("body", body)], lang="en")
            + "\n"
        )
