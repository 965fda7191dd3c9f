"""Paper tab:forward from forward.csv rows."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from weakpareto.reporting.tables.forward import (
    forward_tables,
    paper_forward,
    parse_sci_cell,
    sci_latex,
    sci_text,
    write_forward,
)


def _row(benchmark, noise, e, et, *, included=True, seed=2):
    return dict(benchmark=benchmark, noise=noise, seed=seed, status="ok", mode="sub", alpha=0.8,
                equation="D_t^0.8000 u = ...", solver="l1", e_beta_max=0.02, e_field=e,
                e_field_true=et, included=included)  # fmt: skip


def test_number_formats():
    assert parse_sci_cell(r"$4.74{\times}10^{-3}$") == 4.74e-3
    with pytest.raises(ValueError):
        parse_sci_cell("0.1")
    assert sci_latex(4.7449e-3) == r"$4.74{\times}10^{-3}$"
    assert sci_latex(math.inf) == r"$\infty$" and sci_latex("x") == "--"
    assert sci_text(1.74e-16) == "1.74e-16" and sci_text(np.nan) == "--"
    assert paper_forward()[("rd_space", 0.05)] == (2.73e-3, 1.74e-16)


def test_forward_table_and_notes():
    df = pd.DataFrame(
        [
            _row("fade", 0.0, 4.7449e-3, 1.0112e-2),
            _row("fade", 0.1, 9.0e-3, 1.0112e-2),
            _row("rd_space", 0.0, 1.0e-4, 3.0e-16),
            _row("ade", 0.1, np.nan, 0.31, included=False),
        ]
    )
    latex, md = forward_tables(df)
    assert r"\caption{" in latex.splitlines()[2] and latex.splitlines()[3] == r"\centering"
    assert (
        r"\multirow{2}{*}{FADE} & 0\% & $4.74{\times}10^{-3}$ & $1.01{\times}10^{-2}$ \\" in latex
    )
    assert "{ADE}" not in latex and r" & 10\% & -- & -- \\" in latex
    assert "| FADE, 0 % | e_field | 4.74e-03 | 4.74e-03 | yes |" in md
    assert "| FADE, 10 % | e_field | 9.93e-03 | 9.00e-03 | no (ours/paper = 0.906) |" in md
    assert "| Frac. RD (space), 0 % | e_field^true | 1.74e-16 | 3.00e-16 | round-off" in md
    assert "- FADE: both discovered-model errors are no larger than" in md
    assert "Excluded: ade (true-parameter floor e_field^true = 3.10e-01" in md
    assert "no forward row for burgers at 10 %" in md


def test_write_forward(tmp_path):
    assert write_forward(tmp_path / "tables", tmp_path / "diag") == []
    (tmp_path / "diag").mkdir()
    pd.DataFrame([_row("fade", 0.0, 4.7e-3, 1e-2)]).to_csv(tmp_path / "diag" / "forward.csv")
    paths = write_forward(tmp_path / "tables", tmp_path / "diag")
    assert [p.name for p in paths] == ["tab_forward.tex", "tab_forward_paper_vs_ours.md"]
