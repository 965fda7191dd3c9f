"""Paper Fig. 3 (fig:pareto): validation error versus support size of one Weak-Pareto search,
with the selected (elbow) model marked and the automatic stop shown; and the same plot for a
user's fit (``wp discover ... plot=front.png``).

The paper's figure is FADE at 5 % multiplicative noise, seed 0 (the run behind tab:progress):
``E_val`` of the best model of every evaluated support size ``c`` (log scale), points on the
Pareto front filled, others hollow; the selected size is circled and labelled; when the search
stopped before ``c_max`` (selection stability), the unexplored sizes ``c_last + 1 .. c_max`` are
shaded and a dashed line at ``c_last`` says where the search halted.

:func:`front_from_runs` reads the stored fronts (:func:`weakpareto.campaign.store.load_fronts`)
and ``c_max`` from the run's stored config; :func:`front_from_points` takes the rows of a fitted
:class:`weakpareto.user.estimator.WeakPareto` (``pareto_front_``). :func:`draw_front` writes the
figure (PNG/PDF/SVG by suffix, atomically; PDFs byte-stable).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd

from weakpareto.reporting.drawing import FORMATS, save_figure
from weakpareto.reporting.drawing import PLOT_SUFFIXES as PLOT_SUFFIXES
from weakpareto.reporting.drawing import use_agg as _use_agg
from weakpareto.reporting.tables.progress import latest_front

PARETO_FIGURE_STEM = "fig_pareto"


@dataclass(frozen=True)
class FrontPlot:
    """What the figure shows."""

    sizes: tuple[int, ...]  # evaluated support sizes, increasing
    val_errors: tuple[float, ...]
    on_front: tuple[bool, ...]
    selected: int  # selected support size
    c_max: int | None  # largest size the search was allowed (None: unknown)
    title: str
    rule: str = "elbow"  # selection rule named in the legend

    @property
    def stopped_early(self) -> bool:
        return self.c_max is not None and max(self.sizes) < self.c_max


def front_from_points(
    points: Sequence[Mapping[str, Any]],
    selected: int,
    c_max: int | None,
    title: str,
    rule: str = "elbow",
) -> FrontPlot:
    """From rows with ``size``, ``val_error`` and (optional) ``on_front``."""
    rows = sorted(points, key=lambda p: int(p["size"]))
    if not rows:
        raise ValueError("the front has no points")
    return FrontPlot(
        sizes=tuple(int(p["size"]) for p in rows),
        val_errors=tuple(float(p["val_error"]) for p in rows),
        on_front=tuple(bool(p.get("on_front", True)) for p in rows),
        selected=int(selected),
        c_max=None if c_max is None else int(c_max),
        title=title,
        rule=rule,
    )


def _c_max(runs: pd.DataFrame, front: pd.DataFrame) -> int | None:
    if runs.empty:
        return None
    first = front.iloc[0]
    m = np.ones(len(runs), dtype=bool)
    for col in ("benchmark", "method", "variant", "noise_law", "seed", "config_hash"):
        m &= (runs[col] == first[col]).to_numpy()
    m &= np.isclose(runs["noise"].astype(float), float(first["noise"]), rtol=0.0, atol=1e-9)
    for cfg in runs.loc[m, "config_json"]:
        try:
            return int(json.loads(cfg)["search"]["c_max"])
        except (TypeError, KeyError, ValueError):
            continue
    return None


def front_from_runs(
    fronts: pd.DataFrame,
    runs: pd.DataFrame,
    benchmark: str = "fade",
    noise: float = 0.05,
    seed: int = 0,
) -> FrontPlot | None:
    """The stored front of the paper's figure (latest default run); ``None`` without it."""
    df = latest_front(fronts, benchmark, noise, seed)
    if df.empty:
        return None
    sel = df.loc[df["selected"].astype(bool), "size"]
    if sel.empty:
        return None
    name = "FADE" if benchmark == "fade" else benchmark
    title = f"{name}, {100 * noise:g} % noise, seed {seed}"
    return front_from_points(
        cast(list[dict[str, Any]], df[["size", "val_error", "on_front"]].to_dict("records")),
        int(sel.iloc[0]),
        _c_max(runs, df),
        title,
    )


def draw_on(ax: Any, fp: FrontPlot) -> None:
    """Draw ``fp`` on a matplotlib axis (log-scale E_val, selection, search stop)."""
    x = np.array(fp.sizes)
    y = np.array(fp.val_errors)
    front = np.array(fp.on_front)
    ax.semilogy(x, y, "-", color="C0", lw=1.5, zorder=2)
    ax.semilogy(x[front], y[front], "o", color="C0", ms=7, zorder=3, label="Pareto front")
    if (~front).any():
        ax.semilogy(
            x[~front], y[~front], "o", mfc="white", color="C0", ms=7, zorder=3, label="dominated"
        )
    k = fp.sizes.index(fp.selected)
    ax.semilogy(
        [fp.selected], [y[k]], "o", ms=16, mfc="none", mec="C3", mew=2.0, zorder=4,
        label=f"selected ({fp.rule}), c = {fp.selected}",
    )  # fmt: skip
    last = max(fp.sizes)
    hi = last
    if fp.c_max is not None and fp.stopped_early:
        hi = fp.c_max
        ax.axvspan(last + 0.5, fp.c_max + 0.5, color="0.85", zorder=0)
        ax.axvline(
            last + 0.5, color="0.35", ls="--", lw=1.2, zorder=1,
            label=f"search stopped after c = {last}",
        )  # fmt: skip
        ax.text(
            (last + 0.5 + fp.c_max + 0.5) / 2,
            0.5,
            f"not explored\n(c_max = {fp.c_max})",
            transform=ax.get_xaxis_transform(),
            ha="center",
            va="center",
            fontsize=8,
            color="0.25",
        )
    ax.set_xlim(0.5, hi + 0.5)
    ax.set_xticks(range(1, hi + 1))
    lo_y, hi_y = float(np.min(y)), float(np.max(y))
    ax.set_ylim(lo_y / 3.0, hi_y * 3.0)
    ax.set_xlabel("Support size $c$")
    ax.set_ylabel(r"Validation error $\mathcal{E}_{\mathrm{val}}$")
    ax.set_title(fp.title, fontsize=9, loc="left")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(frameon=False, fontsize=8, loc="upper center")


def draw_front(fp: FrontPlot, path: str | os.PathLike) -> Path:
    """Write the figure to ``path`` (format from its suffix: .png, .pdf or .svg)."""
    out = Path(path)
    if out.suffix.lower() not in PLOT_SUFFIXES:
        raise ValueError(f"plot file {out} must end in one of {', '.join(PLOT_SUFFIXES)}")
    plt = _use_agg()
    with plt.rc_context({"font.size": 9, "pdf.fonttype": 42, "svg.hashsalt": "weakpareto"}):
        fig, ax = plt.subplots(figsize=(5.0, 3.4), constrained_layout=True)
        try:
            draw_on(ax, fp)
            save_figure(fig, out)
        finally:
            plt.close(fig)
    return out


def pareto_figure(
    fronts: pd.DataFrame,
    runs: pd.DataFrame,
    out_stem: str | os.PathLike,
    formats: Sequence[str] = FORMATS,
) -> list[Path]:
    """Paper Fig. 3 as ``<out_stem>.png`` and ``.pdf``; ``ValueError`` without the run."""
    fp = front_from_runs(fronts, runs)
    if fp is None:
        raise ValueError("no FADE 5 % seed-0 Weak-Pareto front")
    stem = Path(out_stem)
    return [draw_front(fp, stem.with_name(f"{stem.name}.{fmt}")) for fmt in formats]
