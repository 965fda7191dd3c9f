"""Paper tab:burgers from burgers_margin.csv rows."""

from __future__ import annotations

import pandas as pd

from weakpareto.reporting.tables.burgers_margin import as_bool, burgers_cells, burgers_table

LEVELS = [0.0, 0.05, 0.10, 0.15, 0.20, 0.25]
MARGINS = [218.3, 14.9, 7.6, 5.1, 3.9, 3.2]


def _frame(levels=LEVELS, margins=MARGINS):
    return pd.DataFrame(
        {
            "noise": levels,
            "true_selected": ["True"] * len(levels),
            "selected": ["{u u_x, D^1.7 u}"] * len(levels),
            "true_residual": [0.3 / m for m in margins],
            "competitor": ["{u u_x, u_xx}"] * len(levels),
            "competitor_residual": [0.3] * len(levels),
            "margin": margins,
            "e_xi_max": [0.0018, 0.004, 0.0071, 0.011, 0.015, 0.0194][: len(levels)],
        }
    )


def test_cells_and_flags():
    row = _frame().iloc[0]
    assert burgers_cells(row.replace("True", True)) == {
        "selected": "yes",
        "margin": r"$218.3\times$",
        "e_xi": "0.002",
    }
    assert as_bool(pd.Series(["True", "no", "1", "false"])).tolist() == [True, False, True, False]


def test_table_claims_and_notes():
    latex, md = burgers_table(_frame())
    assert r"0 & yes & $218.3\times$ & 0.002 \\" in latex
    assert r"25 & yes & $3.2\times$ & 0.019 \\" in latex
    assert "| 25 % | e_xi^max | 0.019 | 0.019 | yes |" in md
    assert "| 10 % | Residual margin | 7.6× | 7.6× | yes |" in md
    assert "| margin decreases monotonically and stays above one (paper: 218× → 3.2×) | yes |" in md
    assert "| closest competitor is {u u_x, u_xx} at every level | yes |" in md
    assert "levels without a row" not in md


def test_missing_levels_are_noted():
    latex, md = burgers_table(_frame(LEVELS[:3], MARGINS[:3]))
    assert r"25 & " not in latex
    assert "| 25 | Residual margin | 3.2× | (no row) | no |" in md
    assert "- no row at 25 % noise" in md
    assert "- fig:burgers levels without a row: 15, 20, 25 %" in md
