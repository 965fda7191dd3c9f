r"""tab_model_class: operator families per term, on advection with fractional dispersion.

Rendered from ``tab_model_class.csv`` (``scripts/model_class.py``) and its sidecar
``tab_model_class.json``. The CSV holds three parts, told apart by the columns only each fills:

* families together and alone (``alpha`` set): advection with Riesz dispersion;
* skewed dispersion (``K, s`` set): all three families with the same-order tie rule, and the
  users' default with ``operator=auto``;
* tempered families (``λ`` set): lambda given or estimated;
* known forcing beside two families (``forcing coef error`` set): the users' defaults.

The sidecar holds what the notes name: the truth equations of the first part, the drift and
the K of the skewed part, the tempering lambda and the cost summary of the first part (the
fastest of interleaved repeats per search on the clean alpha = 1 field, its objective
evaluations, and the ratios of the unrounded timings, which the rounded seconds do not give
back). The Markdown has the four parts with their notes; the LaTeX has the four parts as
``\hline`` tabulars without the equations.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from weakpareto.reporting.studies.common import (
    cell,
    csv_path,
    pipe_table,
    read_notes,
    read_table,
    tabular,
)

STEM = "tab_model_class"
FIRST_COLS = ["case", "families searched", "equation", "terms ok", "|Δα|", "max|Δβ|",
              "max coef error", "E_fit", "seconds"]  # fmt: skip
SKEW_COLS = ["case", "method", "families searched", "equation", "terms ok", "|Δα|", "max|Δβ|",
             "|Δs|", "K, s", "max coef error", "max coef error (K, s)", "E_fit",
             "seconds"]  # fmt: skip
TEMPERED_COLS = ["case", "equation", "λ", "|Δλ|/λ", "terms ok", "max|Δβ|", "max coef error",
                 "seconds"]  # fmt: skip
FORCED_COLS = ["case", "equation", "terms ok", "|Δα|", "max|Δβ|", "max coef error",
               "forcing coef error", "E_fit", "seconds"]  # fmt: skip
#: Columns of the first part in the LaTeX table (the other parts drop only the equation).
FIRST_LATEX = ["case", "families searched", "terms ok", "|Δα|", "max|Δβ|", "max coef error"]


def notes(
    truths: Sequence[str],
    skew_drift: float,
    skew_k: float,
    tempering: float,
    cost: Mapping[str, tuple[float, float]],
) -> dict[str, Any]:
    """The sidecar: ``truths`` (the equations at alpha = 1 and 0.8), the skewed part's drift
    speed and K, the tempering lambda, and ``cost`` (search -> (fastest seconds, evaluations))
    with the ratios of the two-family search to each one-family search."""
    (both, evals), one, riesz = cost["directional+riesz"], cost["directional"], cost["riesz"]
    return {
        "truths": list(truths),
        "skew": {"drift": skew_drift, "K": skew_k},
        "tempering": tempering,
        "cost": {
            "searches": {k: {"seconds": s, "evaluations": n} for k, (s, n) in cost.items()},
            "time_vs_directional": both / one[0],
            "evaluations_vs_directional": evals / one[1],
            "time_vs_riesz": both / riesz[0],
        },
    }


def _yes_no(value: Any) -> Any:
    """``terms ok`` is boolean in two parts and text in the third: a CSV reads all as text."""
    return {"True": True, "False": False}.get(value, value) if isinstance(value, str) else value


Parts = tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, pd.DataFrame]


def parts(df: pd.DataFrame) -> Parts:
    """(families together and alone, skewed, tempered, forced) rows of the CSV (a CSV written
    before the forced part had none)."""
    df = df.assign(**{"terms ok": df["terms ok"].map(_yes_no)})
    none = pd.Series(False, index=df.index)
    forced = df["forcing coef error"].notna() if "forcing coef error" in df else none
    return (
        df[df["alpha"].notna()],
        df[df["K, s"].notna()],
        df[df["λ"].notna()],
        df[forced],
    )


def _rows(frame: pd.DataFrame, cols: list[str]) -> list[str]:
    header = [c.replace("|", "\\|") for c in cols]
    return pipe_table(
        header, ([cell(r[c], yes_no=True) for c in cols] for _, r in frame.iterrows())
    )


def _cost_line(cost: Mapping[str, Any]) -> str:
    searches = cost["searches"]
    timings = ", ".join(
        f"{k} {v['seconds']:.2f} s ({v['evaluations']:.0f})" for k, v in searches.items()
    )
    return (
        "Cost on the clean α = 1 field (fastest of interleaved repeats; objective evaluations): "
        + timings
        + f". Two families / directional alone: {cost['time_vs_directional']:.2f}x the time, "
        f"{cost['evaluations_vs_directional']:.2f}x the evaluations; / Riesz alone: "
        f"{cost['time_vs_riesz']:.2f}x the time."
    )


def markdown(tables: Parts, info: Mapping[str, Any]) -> str:
    """The four parts with their notes and the cost summary."""
    first, skew, tempered, forced = tables
    truth_1, truth_08 = info["truths"]
    drift, k = info["skew"]["drift"], info["skew"]["K"]
    lines = [
        "# tab_model_class: advection with Riesz dispersion, families together and alone",
        "",
        f"Truth: {truth_1} (α = 1) and {truth_08}; exact per-mode "
        "solutions, 120 x 96 points, t in [0, 2], 2π-periodic; noise = multiplicative, seed 0. "
        "Method weak_pareto_robust, α in [0.6, 1.1], β in [0.5, 2.2], powers [0, 1, 2]. Terms "
        "are matched within (power, family); |Δβ| and the relative coefficient error only when "
        "every term's family is right (terms ok). Seconds on one BLAS thread, one run.",
        "",
        *_rows(first, FIRST_COLS),
        "",
        _cost_line(info["cost"]),
        "",
        "## Skewed fractional dispersion (same-order tie rule)",
        "",
        f"Truth: u_t = -{drift} u_x + K [(1+s)/2 D_x^1.5 + (1-s)/2 D_-x^1.5] u, K = {k}, "
        "s = ±0.5 (exact per-mode solutions, grid of the case above; α = 0.8: D_t^0.8 u on the "
        "left); particles: the same drift and jumps from 1e6 particles (jumps exact per output "
        "step, counting noise only). Fitted by weak_pareto_robust with all three families "
        '(settings above), and by the users\' door, `WeakPareto(operator="auto", '
        "alpha_range=(0.6, 1.1), beta_range=(0.5, 2.2))` with its default method "
        "(directional and Riesz). A right-directional term at order 1 ± 0.05 is scored as the "
        "advection (D_-x^1 = -D_x^1); two pairable families at one order (D_x R, D_x D_-x or "
        "R D_-x: one operator, docs/method/skewed.md) are scored as their (D_x, D_-x) pair. "
        "|Δs| from the reported pair (K, s); max coef error scores the pair by its two "
        "one-sided coefficients, max coef error (K, s) by its K (its s is |Δs|) beside the "
        "other terms' coefficients, the parameters the truth is written in.",
        "",
        *_rows(skew, SKEW_COLS),
        "",
        "## Tempered families (λ given or estimated)",
        "",
        f"Truth: u_t = c X^{{β, λ}} u with λ = {info['tempering']:g}: the tempered Riesz symbol "
        "-[(λ+iκ)^β + (λ-iκ)^β - 2λ^β] / (2 cos(πβ/2)) (β = 1.5, c = 0.3) and the one-sided "
        "(λ+iκ)^β - λ^β (β = 0.7, c = -0.3); exact per-mode solutions, 120 x 96 points, t in "
        "[0, 1], 2π-periodic; the users' default method (weak_pareto_exact), α in [0.5, 1.5] "
        "(docs/method/tempered.md). Particles: the tempered Riesz equation (β = 1.5, c = 0.3, "
        "λ = 1) as the density of Lévy particles whose stable jumps are tempered by rejection, 4 "
        "jumps per output step (the generator's finite-step error 1.1 % of the symbol), 120 x 96 "
        "points, t in [0, 2], counting noise only; β range [1.05, 2].",
        "",
        *_rows(tempered, TEMPERED_COLS),
    ]
    if len(forced):
        lines += [
            "",
            "## Known forcing beside two families",
            "",
            f"Truth: the equations of the first part plus a source term, {truth_1} + 0.5 f and "
            f"{truth_08} + 0.5 f, f = g(t) (cos 2x + 0.6 sin 4x) (g = sin 3t at α = 1, 1 + t "
            "at 0.8); exact per-mode solutions (two-parameter Mittag-Leffler function), 101 x 64 "
            "points, t in [0, 2], 2π-periodic; noise as above. Fitted as a user fits it: "
            "`WeakPareto(alpha_range=(0.6, 1.1), beta_range=(0.5, 2.2))` (default method "
            'weak_pareto_exact, no operator: each term\'s family chosen), `forcing={"source": '
            "f}` with its coefficient estimated. Operator terms scored as in the first part; "
            "the forcing's relative coefficient error beside them.",
            "",
            *_rows(forced, FORCED_COLS),
        ]
    return "\n".join(lines) + "\n"


def _tex_cell(value: Any) -> str:
    return cell(value, yes_no=True).replace("_", r"\_").replace("^", r"\^{}")


def _tex_part(frame: pd.DataFrame, cols: list[str]) -> list[str]:
    header = " & ".join(c.replace("|", "$|$").replace("Δ", r"$\Delta$") for c in cols)
    rows = (
        [_tex_cell(r[c]).replace("α", r"$\alpha$").replace("π", r"$\pi$") for c in cols]
        for _, r in frame.iterrows()
    )
    return tabular("l" * len(cols), header, rows, rules=None)


def latex(tables: Parts) -> str:
    """The parts as ``\\hline`` tabulars, one blank line apart, without the equations."""
    first, skew, tempered, forced = tables
    lines = [
        *_tex_part(first, FIRST_LATEX),
        "",
        *_tex_part(skew, [c for c in SKEW_COLS if c not in ("equation", "families searched")]),
        "",
        *_tex_part(tempered, [c for c in TEMPERED_COLS if c != "equation"]),
    ]
    if len(forced):
        lines += ["", *_tex_part(forced, [c for c in FORCED_COLS if c != "equation"])]
    return "\n".join(lines) + "\n"


def render(directory: str | os.PathLike) -> dict[str, str]:
    """``{".md": ..., ".tex": ...}`` from ``tab_model_class.csv`` and ``.json``."""
    tables = parts(read_table(csv_path(directory, STEM)))
    info = read_notes(directory, STEM)
    return {".md": markdown(tables, info), ".tex": latex(tables)}
