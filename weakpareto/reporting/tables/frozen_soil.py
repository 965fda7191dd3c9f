"""Paper tab:frozen-soil: fractional Kelvin fits of two creep records (Sec. subsec:frozen-soil).

The clay and silt records (Yu et al.) are third-party and not redistributed, so the table is
rendered from records the user supplies (``make reproduce-frozen-soil CLAY=... SILT=...``,
``scripts/frozen_soil.py``). Per soil three rows: the published constitutive fit ("reference",
transcribed from the paper), the paper's recipe ("weak integral": uniform 400-point PCHIP grid,
left-endpoint product rule, docs/method/kelvin.md#paper-recipe) and ours ("weak integral, obs.
rows": rows at the observed times, product-trapezoid rule) — both computed by
:func:`weakpareto.kelvin.model.fit_kelvin`. The paper-vs-ours file compares the paper's "weak
integral" rows with ours computed by the same recipe, and lists our default recipe beside them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from weakpareto.evaluation.metrics import EMPTY
from weakpareto.kelvin.model import KelvinFit
from weakpareto.reporting.latex import latex_table, multirow, table_row
from weakpareto.reporting.markdown import comparison_lines, note_lines, title_lines
from weakpareto.reporting.output import TableOutput
from weakpareto.reporting.paper_values import paper_table

LABEL = "tab:frozen-soil"
SOILS = (("clay", "Clay"), ("silt", "Silt"))
COLUMNS = (
    ("alpha", "alpha"),
    ("eta", "eta_K"),
    ("E", "E (MPa)"),
    ("t_ret", "t_ret"),
    ("residual", "Integral residual"),
)
#: Fit rows per soil: (row suffix, fit name in the table, recipe of fit_kelvin or None).
FITS = (
    ("reference", "reference", None),
    ("weak", "weak integral", "paper"),
    ("ours", r"weak integral, obs.\ rows", "ours"),
)


def loads() -> dict[str, float]:
    """The constant loads of the paper's two tests (MPa)."""
    return {k: float(v) for k, v in paper_table(LABEL).extras["loads"].items()}


def _fmt(value: float, decimals: int) -> str:
    return EMPTY if not math.isfinite(value) else f"{value:.{decimals}f}"


def fit_cells(fit: KelvinFit) -> dict[str, str]:
    """The table cells of one fit at the paper's decimals."""
    dec = paper_table(LABEL).decimals_of()
    values = {
        "alpha": fit.alpha,
        "eta": fit.eta_k,
        "E": fit.modulus,
        "t_ret": fit.t_ret,
        "residual": fit.residual,
    }
    return {k: _fmt(float(v), dec[k]) for k, v in values.items()}


def frozen_soil_table(fits: Mapping[str, Mapping[str, KelvinFit]]) -> TableOutput:
    """LaTeX table and paper-vs-ours Markdown from ``{soil: {recipe: fit}}`` (soils ``clay``,
    ``silt``; recipes ``paper``, ``ours``); a soil without fits keeps only its reference row."""
    paper = paper_table(LABEL)
    values = paper.values()
    body: list[str] = []
    rows, notes = [], []
    for i, (soil, name) in enumerate(SOILS):
        if i:
            body.append(r"\midrule")
        soil_fits = fits.get(soil, {})
        shown = [f for f in FITS if f[2] is None or f[2] in soil_fits]
        for j, (suffix, fit_name, recipe) in enumerate(shown):
            rid = f"{soil}@{suffix}"
            if recipe is None:
                cells = {c: values[rid][c] for c, _ in COLUMNS}
            else:
                cells = fit_cells(soil_fits[recipe])
                rows.append((rid, f"{name}, {fit_name.replace(chr(92) + ' ', ' ')}", cells))
            lead = multirow(len(shown), name) if j == 0 else ""
            body.append(table_row([lead, fit_name, *(cells[c] for c, _ in COLUMNS)]))
        if not soil_fits:
            notes.append(f"{LABEL}: no {soil} record given; only the reference row is shown")
        for recipe, fit in soil_fits.items():
            rec = fit.record
            notes.append(
                f"{name} (recipe {recipe}): {rec.n_raw} observations, {rec.n_unique} distinct "
                f"times ({rec.n_averaged} averaged), load {fit.load:g} MPa, alpha range "
                f"[{fit.alpha_range[0]:g}, {fit.alpha_range[1]:g}], {fit.n_rows} rows"
                + ("; alpha at a search bound" if fit.at_bound else "")
            )
    latex = latex_table(paper.layout, body)
    compared = {rid: cells for rid, cells in values.items() if rid.endswith("@weak")}
    lines = title_lines(LABEL)
    lines += [
        "Reference rows are transcribed from the paper (not compared). Paper column: the paper's "
        "weak-integral fit; the 'weak integral' rows are ours by the paper's recipe "
        "(docs/method/kelvin.md#paper-recipe), "
        "the 'obs. rows' rows ours by the default recipe of `wp kelvin` (not in the paper).",
        "",
    ]
    lines += comparison_lines(
        [r for r in rows if r[0].endswith(("@weak", "@ours"))],
        list(COLUMNS),
        compared,
    )
    lines += note_lines(notes)
    return TableOutput(latex, "\n".join(lines) + "\n")
