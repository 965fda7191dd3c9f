"""The paper's LaTeX lines the transcription tests compare against.

The paper source lives beside the repository (``../shared/paper/weak_pareto.tex``, or
``$WEAKPARETO_PAPER_TEX``); a clean clone does not have it, so ``weakpareto/data/
paper_excerpt.json`` holds the lines the transcribed data
(:mod:`weakpareto.reporting.paper_values`) refer to — every table float of a transcribed table,
every cited line and the line after it — with the SHA-256 of the whole source. The transcription
checks read the full source when it is there and the excerpt otherwise, and check that the
excerpt is exactly what the full source gives.

    python -m weakpareto.reporting.paper_source      # rewrite the excerpt from the full source
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from weakpareto.reporting.paper_values import all_paper_tables

REPO = Path(__file__).resolve().parents[2]
PAPER_TEX = Path(
    os.environ.get("WEAKPARETO_PAPER_TEX", REPO.parent / "shared" / "paper" / "weak_pareto.tex")
)
EXCERPT = Path(__file__).resolve().parents[1] / "data" / "paper_excerpt.json"


def _cited(value: Any) -> Iterator[int]:
    """Every ``line`` number in a table's extras (claims, truth lines), at any depth."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "line" and isinstance(v, int):
                yield v
            else:
                yield from _cited(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _cited(v)


def referenced_lines() -> set[int]:
    """1-based numbers of the source lines the transcribed tables refer to."""
    out: set[int] = set()
    for table in all_paper_tables():
        if table.paper_lines is not None:
            begin, end = table.paper_lines
            out.update(range(begin, end + 1))
        for cell in table.cells:
            if cell.line is not None:
                out.add(int(cell.line))
        for n in _cited(dict(table.extras)):
            out.update((n, n + 1))
    return out


def build_excerpt(lines: list[str]) -> dict[str, Any]:
    """The excerpt of the full source ``lines``."""
    text = "\n".join(lines)
    keep = sorted(n for n in referenced_lines() if 0 < n <= len(lines))
    return {
        "source": "weak_pareto.tex",
        "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        "n_lines": len(lines),
        "lines": {str(n): lines[n - 1] for n in keep},
    }


def full_lines() -> list[str] | None:
    """The full source's lines, or None where it is not available."""
    return PAPER_TEX.read_text(encoding="utf-8").splitlines() if PAPER_TEX.is_file() else None


def paper_lines() -> list[str]:
    """The source's lines: the full file, or the excerpt with every other line empty."""
    full = full_lines()
    if full is not None:
        return full
    excerpt = json.loads(EXCERPT.read_text(encoding="utf-8"))
    lines = [""] * int(excerpt["n_lines"])
    for n, text in excerpt["lines"].items():
        lines[int(n) - 1] = text
    return lines


if __name__ == "__main__":
    source = full_lines()
    if source is None:
        raise SystemExit(f"paper source {PAPER_TEX} not found")
    EXCERPT.write_text(json.dumps(build_excerpt(source), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {EXCERPT}")
