"""The paper's robustness figure (Fig. 2, fig:robustness) from the Parquet results.

``robustness_figure(runs_df, out_stem)`` draws two panels, (a) FADE and (b) fractional Burgers:
relative coefficient error ``e_xi^max`` (log scale) against multiplicative noise (%).

* Weak-Pareto: solid line with markers at the conditioned mean of ``e_xi^max`` over the
  support-recovered seeds, with a shaded min/max band over the same seeds (spec §9).
* Strong-form (Strong-Pareto under the same selector): a marker and a dotted horizontal line at
  its conditioned mean for every noise level where it recovered the support in at least one
  seed (the paper's caption: 0 % in both panels and the additional 5 % FADE case).

The cell groups are chosen exactly as in ``tab:robustness``
(:func:`weakpareto.reporting.report.select`: default variant, multiplicative law, latest run per
seed). Files are written atomically (temporary file in the target directory, then
``os.replace``); matplotlib runs on the Agg backend and needs no LaTeX.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from weakpareto.evaluation.metrics import summarise
from weakpareto.io import atomic_path

#: Panels of Fig. 2: (benchmark key, panel title).
PANELS = (("fade", "(a) FADE"), ("burgers", "(b) Fractional Burgers"))
#: Noise levels of the robustness study (fractions).
NOISES = (0.0, 0.01, 0.05, 0.10, 0.20)
FORMATS = ("png", "pdf")
WEAK_METHOD, STRONG_METHOD = "weak_pareto", "strong_pareto"


@dataclass(frozen=True)
class Point:
    """Conditioned ``e_xi^max`` statistics of one (benchmark, method, noise) cell."""

    noise_pct: float
    n: int  # seeds with runs
    n_support: int  # seeds with support/power recovery
    mean: float  # conditioned mean (NaN when no seed recovered the support)
    lo: float  # min over the recovered seeds
    hi: float  # max over the recovered seeds


def _point(df: pd.DataFrame, noise: float) -> Point:
    s = summarise(df)
    vals = np.asarray(s.conditioned["e_xi_max"], dtype=float)
    if vals.size == 0:
        nan = float("nan")
        return Point(100 * noise, s.n, s.n_support, nan, nan, nan)
    return Point(
        100 * noise, s.n, s.n_support, float(vals.mean()), float(vals.min()), float(vals.max())
    )


def robustness_series(
    runs: pd.DataFrame,
    benchmark: str,
    method: str,
    noises: Sequence[float] = NOISES,
) -> list[Point]:
    """Per noise level with runs, the conditioned ``e_xi^max`` statistics (spec §9).

    Levels without any run of the cell group are omitted; levels where no seed recovered the
    support keep ``mean = lo = hi = NaN``.
    """
    from weakpareto.reporting.report import select  # lazy: report imports this module lazily too

    out = []
    for noise in noises:
        df = select(runs, benchmark, noise, method=method)
        if not df.empty:
            out.append(_point(df, noise))
    return out


def robustness_data(runs: pd.DataFrame) -> dict[str, dict[str, list[Point]]]:
    """``{benchmark: {"weak": [...], "strong": [...]}}`` — exactly what the figure plots."""
    return {
        b: {
            "weak": robustness_series(runs, b, WEAK_METHOD),
            "strong": robustness_series(runs, b, STRONG_METHOD),
        }
        for b, _ in PANELS
    }


def _positive(v: ArrayLike) -> np.ndarray:
    """Log-axis safe values: non-positive or missing -> NaN (not drawn)."""
    v = np.asarray(v, dtype=float)
    return np.where(np.isfinite(v) & (v > 0.0), v, np.nan)


STRONG_STYLE: dict[str, Any] = {"color": "C3", "marker": "s", "ms": 6, "mfc": "none", "mew": 1.5}


def _draw_panel(ax, title: str, weak: list[Point], strong: list[Point]) -> None:
    ax.set_title(title, loc="left", fontsize=10)
    ticks = [100 * n for n in NOISES]
    values: list[float] = []
    if weak:
        x = np.array([p.noise_pct for p in weak])
        m = _positive([p.mean for p in weak])
        lo = _positive([p.lo for p in weak])
        hi = _positive([p.hi for p in weak])
        ok = np.isfinite(m)
        ax.fill_between(x[ok], lo[ok], hi[ok], color="C0", alpha=0.2, linewidth=0, zorder=1)
        ax.plot(x[ok], m[ok], "-o", color="C0", lw=1.8, ms=5, zorder=3)
        values += [v for v in np.concatenate([m, lo, hi]) if np.isfinite(v)]
    rec = [p for p in strong if p.n_support > 0 and np.isfinite(_positive([p.mean])[0])]
    for p in rec:
        ax.axhline(p.mean, color="C3", ls=":", lw=1.4, zorder=2)
        ax.plot([p.noise_pct], [p.mean], ls="none", zorder=4, **STRONG_STYLE)
        ax.text(  # label at the right end of the dotted line, clear of the weak curve
            0.98,
            p.mean * 1.08,
            f"strong-form at {p.noise_pct:g} %: support {p.n_support}/{p.n}",
            transform=ax.get_yaxis_transform(),
            ha="right",
            va="bottom",
            fontsize=7.5,
            color="C3",
        )
        values.append(p.mean)
    failed = [p for p in strong if p.n_support == 0]
    if failed:
        ax.text(
            0.98,
            0.03,
            "strong-form: no support recovered at "
            + ", ".join(f"{p.noise_pct:g}" for p in failed)
            + " %",
            transform=ax.transAxes,
            ha="right",
            va="bottom",
            fontsize=7.5,
            color="C3",
        )
    if not values:
        ax.text(0.5, 0.5, "no recovered runs", transform=ax.transAxes, ha="center", va="center")
    ax.set_yscale("log")
    if values:  # headroom above for labels, room below for the failure note
        ax.set_ylim(min(values) / 2.5, max(values) * 2.5)
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"{t:g}" for t in ticks])
    ax.set_xlim(-1.0, 21.0)
    ax.set_xlabel("Noise (%)")
    ax.grid(True, which="major", alpha=0.3)


def _legend_handles() -> list:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    return [
        Line2D(
            [], [], color="C0", marker="o", lw=1.8, ms=5, label="Weak-Pareto (conditioned mean)"
        ),
        Patch(color="C0", alpha=0.2, lw=0, label="Weak-Pareto min/max over recovered seeds"),
        Line2D(
            [], [], ls=":", lw=1.4, label="Strong-form, where support was recovered", **STRONG_STYLE
        ),
    ]


def _save_atomic(fig, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp:
        fmt = path.suffix[1:]
        meta = {"CreationDate": None} if fmt == "pdf" else None  # byte-stable re-renders
        fig.savefig(tmp, format=fmt, dpi=200, bbox_inches="tight", metadata=meta)


def robustness_figure(
    runs_df: pd.DataFrame,
    out_stem: str | os.PathLike,
    formats: Sequence[str] = FORMATS,
) -> list[Path]:
    """Draw Fig. 2 and write ``<out_stem>.png`` and ``<out_stem>.pdf``; returns the paths.

    Raises ``ValueError`` when neither benchmark has weak or strong robustness runs.
    """
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    data = robustness_data(runs_df)
    if not any(s["weak"] or s["strong"] for s in data.values()):
        raise ValueError("no FADE or Burgers weak/strong runs at the robustness noise levels")
    stem = Path(out_stem)
    with plt.rc_context({"font.size": 9, "pdf.fonttype": 42}):
        fig, axes = plt.subplots(1, len(PANELS), figsize=(9.0, 3.6), constrained_layout=True)
        try:
            for ax, (b, title) in zip(np.atleast_1d(axes), PANELS):
                _draw_panel(ax, title, data[b]["weak"], data[b]["strong"])
            np.atleast_1d(axes)[0].set_ylabel(r"$e_\xi^{\max}$")
            fig.legend(
                handles=_legend_handles(),
                loc="outside lower center",
                ncol=3,
                frameon=False,
                fontsize=8.5,
            )
            paths = []
            for fmt in formats:
                path = stem.with_name(f"{stem.name}.{fmt}")
                _save_atomic(fig, path)
                paths.append(path)
        finally:
            plt.close(fig)
    return paths
