"""The images of the fit page, drawn with matplotlib into PNG data URIs (the page embeds them, so
it is one self-contained file): the field, the Pareto front and the weak residual map."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import numpy as np

from weakpareto.reporting.drawing import use_agg as _use_agg
from weakpareto.reporting.html.page import data_uri
from weakpareto.reporting.pareto_figure import draw_on, front_from_points
from weakpareto.user.validation import CheckedField, CheckedField2D
from weakpareto.user.weak_residual import ResidualMap

#: Resolution of the embedded images.
DPI = 110


def png_uri(draw: Callable[[Any], None], size: tuple[float, float]) -> str:
    """Draw on a new figure (``draw(fig)``) and return it as a PNG data URI."""
    plt = _use_agg()
    with plt.rc_context({"font.size": 9}):
        fig = plt.figure(figsize=size, constrained_layout=True)
        try:
            draw(fig)
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=DPI)
        finally:
            plt.close(fig)
    return data_uri(buf.getvalue(), "image/png")


def field_uri(field: CheckedField | CheckedField2D) -> str:
    """u(t, x) as an image; 2-D data: u(x, y) at the first and the last time."""

    def draw(fig: Any) -> None:
        if isinstance(field, CheckedField2D):
            axes = fig.subplots(1, 2)
            extent = (field.y[0], field.y[-1], field.x[0], field.x[-1])
            for ax, k in zip(axes, (0, field.u.shape[0] - 1)):
                im = ax.imshow(field.u[k], origin="lower", aspect="auto", extent=extent)
                ax.set_title(f"u(x, y) at t = {field.t[k]:.4g}", fontsize=9)
                ax.set_xlabel("y")
                ax.set_ylabel("x")
                fig.colorbar(im, ax=ax)
            return
        ax = fig.subplots()
        extent = (field.x[0], field.x[-1], field.t[0], field.t[-1])
        im = ax.imshow(field.u, origin="lower", aspect="auto", extent=extent, cmap="viridis")
        ax.set_xlabel("x")
        ax.set_ylabel("t")
        ax.set_title("u(t, x)", fontsize=9)
        fig.colorbar(im, ax=ax)

    return png_uri(draw, (7.0, 3.2) if isinstance(field, CheckedField2D) else (5.0, 3.4))


def front_uri(model: Any) -> str:
    """The Pareto front as ``wp discover ... plot=`` draws it."""
    fp = front_from_points(
        model.pareto_front_,
        int(model.selected_size_),
        int(model.max_terms),
        f"Pareto front ({model.method}, {len(model.pareto_front_)} support sizes evaluated)",
        rule=str(model.discovery_config().selection.rule),
    )
    return png_uri(lambda fig: draw_on(fig.subplots(), fp), (5.0, 3.4))


def residual_uri(rmap: ResidualMap) -> str:
    """The residual per test function (diverging colours, symmetric limits)."""

    def draw(fig: Any) -> None:
        ax = fig.subplots()
        v = rmap.values
        lim = float(np.max(np.abs(v))) or 1.0
        im = ax.imshow(v, origin="lower", aspect="auto", cmap="RdBu_r", vmin=-lim, vmax=lim,
                       interpolation="nearest")  # fmt: skip
        if v.shape[0] > 1:
            ax.set_xlabel("spatial test function k_x")
            ax.set_ylabel("temporal test function k_t")
        else:
            ax.set_xlabel("weak equation (row)")
            ax.set_yticks([])
        ax.set_title("weak residual r = b - Theta xi per test function / RMS(b)", fontsize=9)
        fig.colorbar(im, ax=ax)

    return png_uri(draw, (5.6, 3.6))
