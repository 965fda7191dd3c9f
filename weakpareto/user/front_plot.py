"""``wp discover ... plot=front.png``: the user's Pareto front drawn like the paper's fig:pareto
(:mod:`weakpareto.reporting.pareto_figure`): validation error of the best model per evaluated
support size (log scale), the selected model circled, and — when the search stopped before
``max_terms`` — the sizes it did not explore shaded.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from weakpareto.reporting.pareto_figure import draw_front, front_from_points
from weakpareto.user.file_arguments import check_plot_path as check_plot_path


def draw_user_front(model: Any, path: str | os.PathLike) -> Path:
    """Draw a fitted :class:`~weakpareto.user.estimator.WeakPareto`'s front to ``path``."""
    fp = front_from_points(
        model.pareto_front_,
        int(model.selected_size_),
        int(model.max_terms),
        f"Pareto front ({model.method}, {len(model.pareto_front_)} support sizes evaluated)",
        rule=str(model.discovery_config().selection.rule),
    )
    return draw_front(fp, path)
