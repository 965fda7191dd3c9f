"""The paper's figures: Fig. 2 (fig:robustness) from the runs and Fig. 4 (fig:burgers).

:func:`robustness_figure` draws two panels, (a) FADE and (b) fractional Burgers: relative
coefficient error ``e_xi^max`` (log scale) against multiplicative noise (%).

* Weak-Pareto: solid line with markers at the conditioned mean of ``e_xi^max`` over the
  support-recovered seeds, with a shaded min/max band over the same seeds
  (docs/method/metrics.md#table-specific-conventions).
* Strong-form (Strong-Pareto under the same selector): a marker and a dotted horizontal line at
  its conditioned mean for every noise level where it recovered the support in at least one
  seed (the paper's caption: 0 % in both panels and the additional 5 % FADE case).

The cell groups are those of tab:robustness (:func:`weakpareto.campaign.store.select_cell`:
default variant, multiplicative law, latest run per seed).

:func:`burgers_figure` draws (a) the fractional Burgers field and (b) the weak residual of the true
structure and of the closest competitor versus noise, from ``burgers_margin.csv``.

Files are written atomically (:func:`weakpareto.io.atomic_path`); matplotlib (imported when a
figure is drawn) runs on the Agg backend and needs no LaTeX. PDFs carry no creation date, so
re-rendering is byte-stable.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from weakpareto._typing import FloatArray
from weakpareto.benchmarks.generators import generate
from weakpareto.campaign.store import select_cell
from weakpareto.evaluation.metrics import summarise
from weakpareto.reporting.drawing import DPI as DPI
from weakpareto.reporting.drawing import FORMATS as FORMATS
from weakpareto.reporting.drawing import save_figure as save_figure
from weakpareto.reporting.drawing import use_agg as _use_agg

#: Panels of Fig. 2: (benchmark key, panel title).
PANELS = (("fade", "(a) FADE"), ("burgers", "(b) Fractional Burgers"))
#: Noise levels of the robustness study (fractions), as in tab:robustness.
NOISES = (0.0, 0.01, 0.05, 0.10, 0.20)
WEAK_METHOD, STRONG_METHOD = "weak_pareto", "strong_pareto"
STRONG_STYLE: dict[str, Any] = {"color": "C3", "marker": "s", "ms": 6, "mfc": "none", "mew": 1.5}


@dataclass(frozen=True)
class Point:
    """Conditioned ``e_xi^max`` statistics of one (benchmark, method, noise) cell."""

    noise_pct: float
    n: int  # seeds with runs
    n_support: int  # seeds with support/power recovery
    mean: float  # conditioned mean (NaN when no seed recovered the support)
    lo: float  # min over the recovered seeds
    hi: float  # max over the recovered seeds


def _save_all(fig: Any, out_stem: str | os.PathLike, formats: Sequence[str]) -> list[Path]:
    stem = Path(out_stem)
    paths = [stem.with_name(f"{stem.name}.{fmt}") for fmt in formats]
    for path in paths:
        save_figure(fig, path)
    return paths


# =================================================================================================
# Fig. 2: fig:robustness
# =================================================================================================
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
    runs: pd.DataFrame, benchmark: str, method: str, noises: Sequence[float] = NOISES
) -> list[Point]:
    """Per noise level with runs, the conditioned ``e_xi^max`` statistics
    (docs/method/metrics.md#aggregation).

    Levels without any run of the cell group are omitted; levels where no seed recovered the
    support keep ``mean = lo = hi = NaN``.
    """
    out = []
    for noise in noises:
        df = select_cell(runs, benchmark, noise, method=method)
        if not df.empty:
            out.append(_point(df, noise))
    return out


def robustness_data(runs: pd.DataFrame) -> dict[str, dict[str, list[Point]]]:
    """``{benchmark: {"weak": [...], "strong": [...]}}``: exactly what the figure plots."""
    return {
        b: {
            "weak": robustness_series(runs, b, WEAK_METHOD),
            "strong": robustness_series(runs, b, STRONG_METHOD),
        }
        for b, _ in PANELS
    }


def _positive(v: ArrayLike) -> FloatArray:
    """Log-axis safe values: non-positive or missing -> NaN (not drawn)."""
    a = np.asarray(v, dtype=float)
    return np.where(np.isfinite(a) & (a > 0.0), a, np.nan)


def _draw_weak(ax: Any, weak: list[Point]) -> list[float]:
    if not weak:
        return []
    x = np.array([p.noise_pct for p in weak])
    m = _positive([p.mean for p in weak])
    lo = _positive([p.lo for p in weak])
    hi = _positive([p.hi for p in weak])
    ok = np.isfinite(m)
    ax.fill_between(x[ok], lo[ok], hi[ok], color="C0", alpha=0.2, linewidth=0, zorder=1)
    ax.plot(x[ok], m[ok], "-o", color="C0", lw=1.8, ms=5, zorder=3)
    return [float(v) for v in np.concatenate([m, lo, hi]) if np.isfinite(v)]


def _draw_strong(ax: Any, strong: list[Point]) -> list[float]:
    values = []
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
    return values


def _draw_panel(ax: Any, title: str, weak: list[Point], strong: list[Point]) -> None:
    ax.set_title(title, loc="left", fontsize=10)
    ticks = [100 * n for n in NOISES]
    values = _draw_weak(ax, weak) + _draw_strong(ax, strong)
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


def _legend_handles() -> list[Any]:
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


def robustness_figure(
    runs_df: pd.DataFrame, out_stem: str | os.PathLike, formats: Sequence[str] = FORMATS
) -> list[Path]:
    """Draw Fig. 2 and write ``<out_stem>.png`` and ``<out_stem>.pdf``; returns the paths.

    Raises ``ValueError`` when neither benchmark has weak or strong robustness runs.
    """
    data = robustness_data(runs_df)
    if not any(s["weak"] or s["strong"] for s in data.values()):
        raise ValueError("no FADE or Burgers weak/strong runs at the robustness noise levels")
    plt = _use_agg()
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
            return _save_all(fig, out_stem, formats)
        finally:
            plt.close(fig)


# =================================================================================================
# Fig. 4: fig:burgers
# =================================================================================================
def structure_mathtext(label: str) -> str:
    """``{u u_x, D^1.7 u}`` -> ``$u\\,u_x,\\ D_x^{1.7}u$`` (matplotlib mathtext legend)."""
    out = []
    for term in (t.strip() for t in label.strip("{}").split(",")):
        if not term:
            continue
        term = re.sub(r"D\^([0-9.]+) u", r"D_x^{\1}u", term)
        term = term.replace("u_xx", "u_{xx}")
        term = re.sub(r"^u\^([0-9]+) ", r"u^{\1}", term)
        term = re.sub(r"^u ", r"u\\,", term)
        out.append(term)
    return "$" + r",\ ".join(out) + "$"


def burgers_field() -> tuple[FloatArray, FloatArray, FloatArray] | None:
    """The clean seed-0 Burgers field ``(u, t, x)``; ``None`` when it cannot be generated."""
    try:
        f = generate("burgers", 0)
    except Exception:  # the figure falls back to the residual panel only
        return None
    return np.asarray(f.u), np.asarray(f.t), np.asarray(f.x)


def _draw_field(fig: Any, ax: Any, field: tuple[FloatArray, FloatArray, FloatArray]) -> None:
    u, t, x = field
    mesh = ax.pcolormesh(x, t, u, shading="auto", cmap="RdBu_r", rasterized=True)
    fig.colorbar(mesh, ax=ax, label="$u(t,x)$")
    ax.set_xlabel("$x$")
    ax.set_ylabel("$t$")
    ax.set_title("(a) Fractional Burgers field", fontsize=9)


def _draw_residuals(ax: Any, d: pd.DataFrame, titled_b: bool) -> None:
    pct = 100.0 * d["noise"].to_numpy(float)
    comp = d["competitor"].astype(str)
    comp_label = "closest competitor"
    if comp.nunique() == 1:
        comp_label += ": " + structure_mathtext(comp.iloc[0])
    true_label = "true structure"
    if "true_structure" in d.columns:
        true_label += ": " + structure_mathtext(str(d["true_structure"].iloc[0]))
    ax.semilogy(pct, d["true_residual"], "o-", color="C0", label=true_label)
    ax.semilogy(pct, d["competitor_residual"], "s--", color="C3", label=comp_label)
    ax.set_xticks(pct)
    ax.set_xlabel("Multiplicative noise (%)")
    ax.set_ylabel("Relative weak residual")
    ax.set_title("(b) Weak residual" if titled_b else "Weak residual", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(frameon=False, fontsize=8, loc="lower right")


def burgers_figure(
    df: pd.DataFrame, out_stem: str | os.PathLike, formats: Sequence[str] = FORMATS
) -> list[Path]:
    """Paper Fig. 4: (a) the Burgers field, (b) true vs closest-competitor residual (log scale)."""
    d = df.sort_values("noise")
    field = burgers_field()
    plt = _use_agg()
    with plt.rc_context({"font.size": 9, "pdf.fonttype": 42}):
        n_panels = 2 if field is not None else 1
        fig, axes = plt.subplots(
            1, n_panels, figsize=(4.5 * n_panels, 3.5), constrained_layout=True
        )
        axes = np.atleast_1d(axes)
        try:
            if field is not None:
                _draw_field(fig, axes[0], field)
            _draw_residuals(axes[-1], d, titled_b=field is not None)
            return _save_all(fig, out_stem, formats)
        finally:
            plt.close(fig)
