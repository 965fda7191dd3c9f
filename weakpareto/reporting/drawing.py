"""Drawing a figure: matplotlib on the Agg backend, saved atomically (standard library only here).

The one place that imports matplotlib (inside :func:`use_agg`, when a figure is drawn), so
modules that draw — the paper's figures, ``wp discover ... plot=`` and ``report=`` — share it
without importing each other's data dependencies (runs, benchmarks, pandas).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from weakpareto.io import atomic_path

FORMATS = ("png", "pdf")
DPI = 200
#: Suffixes ``wp discover ... plot=`` draws (matplotlib picks the format by suffix).
PLOT_SUFFIXES = (".png", ".pdf", ".svg")


def use_agg() -> Any:
    """``matplotlib.pyplot`` on the Agg backend (matplotlib is imported only to draw)."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig: Any, path: Path) -> None:
    """Save ``fig`` atomically in the format of ``path``'s suffix (byte-stable PDF metadata)."""
    fmt = path.suffix[1:]
    meta = {"CreationDate": None} if fmt == "pdf" else None
    with atomic_path(path, make_parents=True) as tmp:
        fig.savefig(tmp, format=fmt, dpi=DPI, bbox_inches="tight", metadata=meta)
