"""The Pareto front of a fitted ``WeakPareto`` as text lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def front_lines(rows: Sequence[dict[str, Any]], selected: int, refined: bool) -> list[str]:
    """One line per support size (``*`` marks the selected size); ``refined``: the front's
    models were pruned, polished and refitted at exact orders."""
    stage = "pruned, polished and refitted at exact orders" if refined else "selection stage"
    lines = [
        f"Pareto front (best model per support size, {stage}; * = selected):",
        f"  {'size':>6}  {'train_error':>11}  {'val_error':>11}  {'front':>5}  equation",
    ]
    for row in rows:
        mark = "*" if row["size"] == selected else " "
        lines.append(
            f"  {mark}{row['size']:>5}  {row['train_error']:>11.4e}  {row['val_error']:>11.4e}"
            f"  {'yes' if row['on_front'] else 'no':>5}  {row['equation']}"
        )
    return lines
