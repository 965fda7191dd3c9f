"""``wp discover ... report=fit.html``: one self-contained HTML page for one fit.

Sections: the selected equation (branch, E_fit), the data (shape, grids, domain and why, noise
level, an image of the field), the Pareto front (figure and table), the weak residual per test
function as an image (:mod:`weakpareto.user.weak_residual`), the bootstrap intervals when
``uncertainty=bootstrap`` was on, the diagnostics (warnings and notes) and the settings. Images
are embedded as data URIs and the CSS is inline, so the one file opens anywhere, offline
(:mod:`weakpareto.reporting.html.page`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from weakpareto.campaign.provenance import current
from weakpareto.io import write_text_atomic
from weakpareto.reporting.html.page import (
    Cell,
    Html,
    Page,
    element,
    figure,
    side_by_side,
    table,
)
from weakpareto.reporting.html.provenance import facts
from weakpareto.user.file_arguments import check_report_path as check_report_path
from weakpareto.user.fit_figures import field_uri, front_uri, residual_uri
from weakpareto.user.validation import CheckedField, CheckedField2D
from weakpareto.user.weak_residual import weak_residual_map

#: Significant digits of the numbers on the page.
SIG = 4
#: One validated field (1-D or 2-D).
Field = CheckedField | CheckedField2D


def _g(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return "—" if not math.isfinite(v) else f"{v:.{SIG}g}"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_g(i) for i in v) + "]"
    return str(v)


def _interval(pair: Sequence[float] | None, order: bool = False) -> str:
    if pair is None:
        return "—"
    lo, hi = float(pair[0]), float(pair[1])
    return f"[{lo:.4f}, {hi:.4f}]" if order else f"[{_g(lo)}, {_g(hi)}]"


def _setting(v: Any) -> str:
    """A setting as it is written on the command line."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list | tuple):
        return "[" + ",".join(_setting(i) for i in v) + "]"
    return str(v)


def _grid_facts(field: Field) -> list[tuple[str, object]]:
    """Shape and axes of one validated field."""
    rows: list[tuple[str, object]] = []
    if isinstance(field, CheckedField2D):
        rows.append(("shape", "u {} x {} x {} (t x x x y)".format(*field.u.shape)))
    else:
        rows.append(("shape", "u {} x {} (t x x)".format(*field.u.shape)))
    rows.append(("t", f"[{_g(float(field.t[0]))}, {_g(float(field.t[-1]))}], dt {_g(field.dt)}"))
    rows.append(("x", f"[{_g(float(field.x[0]))}, {_g(float(field.x[-1]))}], dx {_g(field.dx)}, "
                      f"period {_g(field.period)}"))  # fmt: skip
    if isinstance(field, CheckedField2D):
        rows.append(("y", f"[{_g(float(field.y[0]))}, {_g(float(field.y[-1]))}], dy "
                          f"{_g(field.dy)}, period {_g(field.period_y)}"))  # fmt: skip
    rows.append(("u", f"[{_g(float(field.u.min()))}, {_g(float(field.u.max()))}]"))
    return rows


def _data_section(model: Any, fields: Sequence[Field], data: Sequence[str]) -> Html:
    g = model.grid_
    noise = model.noise_level_
    common: list[tuple[str, object]] = [
        ("domain", f"{g.get('domain', '—')} ({g.get('domain_reason', '')})"),
        ("power mode", _g(g.get("power_mode"))),
        ("apparent noise", f"{100 * noise:.2g} % of std(u)" if math.isfinite(noise) else "—"),
    ]
    if len(fields) == 1:
        counts = " x ".join(str(k) for k in g.get("test_counts", [])) or "none"
        rows = [("data", element("code", data[0])), *_grid_facts(fields[0])]
        rows += [("test functions", counts), *common]
        return side_by_side(facts(rows), figure(field_uri(fields[0]), "the field u", "The data."))
    parts = [element("p", f"{len(fields)} experiments of one equation, fitted together."),
             facts(common)]  # fmt: skip
    for k, f in enumerate(fields):
        name = data[k] if k < len(data) else data[-1]
        parts.append(element("h3", f"Experiment {k + 1}"))
        parts.append(facts([("data", element("code", name)), *_grid_facts(f)]))
    first = "The first experiment as read."
    parts.append(figure(field_uri(fields[0]), "the field u of experiment 1", first))
    return Html("".join(parts))


def _front_section(model: Any) -> Html:
    rows, classes = [], []
    for r in model.pareto_front_:
        sel = r["size"] == model.selected_size_
        rows.append(
            [
                "*" if sel else "",
                r["size"],
                _g(r["train_error"]),
                _g(r["val_error"]),
                "yes" if r["on_front"] else "no",
                element("code", r["equation"]),
            ]
        )
        classes.append("selected" if sel else None)
    header = ["", "size", "train_error", "val_error", "front", "equation"]
    return Html(
        figure(front_uri(model), "Pareto front", "Validation error of the best model per size.")
        + table(header, rows, row_classes=classes, table_id="front")
    )


def _residual_section(model: Any, fields: Sequence[Field]) -> Html:
    rmap = (
        weak_residual_map(model, fields[0])
        if len(fields) == 1
        else ("several experiments were fitted together; the map covers one field")
    )
    if isinstance(rmap, str):
        return element("p", f"No residual map: {rmap}.", class_="missing")
    reduced = f" ({rmap.note})" if rmap.note else ""
    caption = (
        f"Residual of each weak equation (test counts {' x '.join(map(str, rmap.shape))}"
        f"{reduced}) over the RMS of the weak target; ||r|| / ||b|| = {_g(rmap.relative)} "
        f"(the fit's E_fit {_g(model.fit_error_)}"
        + (
            ", computed with the expected noise energy removed (noise-aware scoring); the map "
            "is the raw residual)."
            if rmap.noise_corrected
            else ")."
        )
    )
    how = element(
        "p",
        "Recomputed from what the fitted estimator exposes: its settings, domain, power mode and "
        "scales, with the feature source of the fit built again on the same data (the estimator "
        "does not keep it); the coefficients are the selected equation's.",
        class_="info",
    )
    return Html(figure(residual_uri(rmap), "weak residual map", caption) + how)


def _uncertainty_section(model: Any) -> Html:
    unc = getattr(model, "uncertainty_", None)
    if unc is None:
        return element("p", "Off (uncertainty=bootstrap computes intervals).", class_="info")
    d = unc.to_dict()
    alpha = (
        f"{d['alpha']:.4f} (integer branch, exact)"
        if d["alpha_interval"] is None
        else f"{d['alpha']:.4f} {_interval(d['alpha_interval'], order=True)}"
    )
    head = element(
        "p",
        f"Block bootstrap, {d['n_boot']} resamples of {d['n_tiles']} tiles; calibrated "
        f"{100 * d['level']:g} % intervals, conditional on the selected terms and branch. "
        f"alpha {alpha}.",
    )
    rows = [
        [
            element("code", t["term"]),
            _g(t["coef"]),
            _interval(t["coef_interval"]),
            f"{t['order']:.4f}",
            _interval(t["order_interval"], order=True),
            f"{100 * t['inclusion']:.0f} %",
            _g(t["sensitivity"]),
        ]
        for t in d["terms"]
    ]
    header = ["term", "coef", "coef interval", "order", "order interval", "included", "S_beta"]
    parts = [head, table(header, rows, table_id="intervals")]
    if d["alternatives"]:
        alts = ", ".join(f"{a['term']} ({100 * a['frequency']:.0f} %)" for a in d["alternatives"])
        parts.append(element("p", f"Strongest alternatives: {alts}."))
    return Html("".join(parts))


def _warnings_section(model: Any) -> Html:
    if not model.warnings_:
        return element("p", "None.", class_="info")
    rows = [
        [Cell(w.level, (w.level,)), element("code", w.code), w.message] for w in model.warnings_
    ]
    return table(["level", "code", "message"], rows, table_id="warnings")


def _names(data: str | os.PathLike | Sequence[str | os.PathLike]) -> list[str]:
    if isinstance(data, str | os.PathLike):
        return [str(data)]
    return [str(d) for d in data]


def _fields(fields: Field | Sequence[Field]) -> list[Field]:
    if isinstance(fields, CheckedField | CheckedField2D):
        return [fields]
    return list(fields)


def fit_page(
    model: Any,
    fields: Field | Sequence[Field],
    data: str | os.PathLike | Sequence[str | os.PathLike],
) -> str:
    """The page of a fitted :class:`~weakpareto.user.estimator.WeakPareto` on the validated
    field it was fitted to (read from the file ``data``), or on several experiments and files."""
    code = current()
    date = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    names, checked = _names(data), _fields(fields)
    eq_text = model.equation_.text(sig_digits=SIG)
    page = Page(
        f"weakpareto fit: {', '.join(Path(n).name for n in names)}",
        element(
            "p",
            f"wp discover, {date}, weakpareto {code.version} (code {code.code_hash[:8]}).",
            class_="subtitle",
        ),
    )
    summary = [
        element("p", eq_text, class_="equation", id="equation"),
        facts(
            [
                ("branch", f"{model.mode_} (alpha {model.alpha_:.4f})"),
                ("E_fit", _g(model.fit_error_)),
                ("selected size", str(model.selected_size_)),
                ("method", str(model.method)),
                ("operator", str(model.operator)),
            ]
        ),
    ]
    page.add("equation-section", "Selected equation", summary)
    page.add("data", "Data", _data_section(model, checked, names))
    page.add("front-section", "Pareto front", _front_section(model))
    page.add("residual", "Weak residual map", _residual_section(model, checked))
    page.add("uncertainty", "Intervals", _uncertainty_section(model))
    page.add("diagnostics", "Warnings and notes", _warnings_section(model))
    params = [[k, element("code", _setting(v))] for k, v in model.get_params().items()]
    page.add("settings", "Settings", table(["parameter", "value"], params, table_id="settings"))
    return page.document()


def write_fit_page(
    model: Any,
    fields: Field | Sequence[Field],
    data: str | os.PathLike | Sequence[str | os.PathLike],
    path: str | os.PathLike,
) -> Path:
    """Write :func:`fit_page` atomically to ``path``; returns it."""
    return write_text_atomic(path, fit_page(model, fields, data))
