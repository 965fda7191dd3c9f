"""Paper tab:equations: representative discovered equations versus ground truth (App. equations).

Per (benchmark, noise) case the representative seed is the median run after sorting the seeds by
``(e_beta_max, e_xi_max)`` (docs/method/diagnostics.md#representative-equations); its equation is
typeset in the paper's notation (terms in canonical order, ``D_t^{alpha}`` with 4 decimals, orders
and coefficients with 2, a dagger for an unrecovered operator structure).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from weakpareto.campaign.store import select_cell
from weakpareto.evaluation.metrics import EMPTY
from weakpareto.records import IDENTITY_TOL
from weakpareto.reporting.latex import latex_table, multirow, noise_pct, table_row
from weakpareto.reporting.markdown import Rendered
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.common import BENCH_PLAIN, missing_note

#: (benchmark, noise) cases in the paper's row order.
EQUATION_CASES: tuple[tuple[str, float], ...] = (
    ("fade", 0.0),
    ("fade", 0.10),
    ("rd_space", 0.0),
    ("rd_space", 0.05),
    ("rd_timespace", 0.0),
    ("rd_timespace", 0.05),
    ("burgers", 0.0),
    ("burgers", 0.10),
)
#: Spatial operator of each benchmark (used when a run row does not store it).
BENCH_OPERATOR = {"rd_space": "riesz", "rd_timespace": "riesz", "riesz2": "riesz"}
DAGGER = r"\textsuperscript{\(\dagger\)}"
#: Sort key for missing errors: such seeds go last.
MISSING_ERROR = 1e9


def representative_seed(df: pd.DataFrame) -> pd.Series | None:
    """Median run after sorting the seeds by (e_beta_max, e_xi_max), NaN -> 1e9
    (docs/method/diagnostics.md#representative-equations)."""
    if df.empty:
        return None
    key = df.assign(
        _b=df["e_beta_max"].astype(float).fillna(MISSING_ERROR),
        _x=df["e_xi_max"].astype(float).fillna(MISSING_ERROR),
    ).sort_values(["_b", "_x", "seed"], kind="stable")
    return key.iloc[(len(key) - 1) // 2]


def term_latex(power: int, order: float, operator: str) -> str:
    r"""One term: ``u``, ``u^{2}``, ``D_x^{1.70}u``, ``\mathcal R_{1.65}u``, ``u\,D_x^{1.00}u``."""
    if abs(order) <= IDENTITY_TOL:
        return "u" if power == 0 else f"u^{{{power + 1}}}"
    op = rf"\mathcal R_{{{order:.2f}}}u" if operator == "riesz" else rf"D_x^{{{order:.2f}}}u"
    if power == 0:
        return op
    return (r"u\," if power == 1 else rf"u^{{{power}}}\,") + op


def equation_latex(
    mode: str,
    alpha: float,
    powers: Sequence[int],
    orders: Sequence[float],
    coefs: Sequence[float],
    operator: str,
) -> str:
    """Equation in the paper's tab:equations typography, terms in canonical order."""
    lhs = r"\partial_tu" if mode == "int" else rf"D_t^{{{alpha:.4f}}}u"
    terms = sorted(
        zip((int(p) for p in powers), (float(o) for o in orders), (float(c) for c in coefs))
    )
    rhs = ""
    for i, (p, o, c) in enumerate(terms):
        sign = "-" if c < 0 else ("" if i == 0 else "+")
        rhs += rf"{sign}{abs(c):.2f}\,{term_latex(p, o, operator)}"
    return f"${lhs}={rhs or '0'}$"


def run_equation(row: pd.Series) -> str:
    """The equation cell of one run (``--`` for a failed run, dagger without operator recovery)."""
    if row["status"] != "ok":
        return EMPTY
    operator = row.get("operator")
    if not isinstance(operator, str) or not operator:  # older rows without the column
        operator = BENCH_OPERATOR.get(row["benchmark"], "directional")
    eq = equation_latex(
        row["mode"],
        float(row["alpha"]),
        list(row["powers"]),
        list(row["orders"]),
        list(row["coefs"]),
        str(operator),
    )
    return eq if bool(row["operator_ok"]) else eq + DAGGER


def table_equations(runs: pd.DataFrame) -> Rendered | None:
    """Paper tab:equations; ``None`` when no case has runs."""
    paper = paper_table("tab:equations")
    truth = paper.extras["truth_lines"]
    rows, body, notes = [], [], []
    benches = list(dict.fromkeys(b for b, _ in EQUATION_CASES))
    for bi, b in enumerate(benches):
        if bi:
            body.append(r"\midrule")
        group = truth[b]
        body.append(rf"\multicolumn{{3}}{{l}}{{{group['name']} --- true: {group['equation']}}} \\")
        cases = [n for bb, n in EQUATION_CASES if bb == b]
        for i, noise in enumerate(cases):
            pct = noise_pct(noise)
            rep = representative_seed(select_cell(runs, b, noise))
            if rep is None:
                notes.append(missing_note(paper.label, f"{b} at {pct} %"))
            cells = {
                "equation": EMPTY if rep is None else run_equation(rep),
                "seed": EMPTY if rep is None else str(int(rep["seed"])),
            }
            rows.append((f"{b}@{pct}", f"{BENCH_PLAIN[b]}, {pct} %", cells))
            lead = multirow(len(cases), group["row_label"]) if i == 0 else ""
            body.append(table_row([lead, rf"{pct}\%", cells["equation"]]))
    if len(notes) == len(EQUATION_CASES):
        return None
    cols = [("equation", "Discovered equation"), ("seed", "Representative seed")]
    latex = latex_table(paper.layout, body)
    return Rendered(paper.label, paper.layout.stem, latex, rows, cols, notes, raw_cells=True)
