"""A rendered table's two output files, ``<stem>.tex`` and ``<stem>_paper_vs_ours.md``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from weakpareto.io import write_text_atomic


class TableOutput(NamedTuple):
    """LaTeX table and paper-vs-ours Markdown of one paper table (unpacks as a pair)."""

    latex: str
    markdown: str


def write_table_files(out_dir: str | os.PathLike, stem: str, table: TableOutput) -> list[Path]:
    """Write both files atomically (creating ``out_dir``); returns ``[tex, md]``."""
    out = Path(out_dir)
    return [
        write_text_atomic(out / f"{stem}.tex", table.latex, make_parents=True),
        write_text_atomic(out / f"{stem}_paper_vs_ours.md", table.markdown, make_parents=True),
    ]
