"""Paper tab:ksens: K-sweep cells over all seeds and the condition-number column."""

from __future__ import annotations

from weakpareto.reporting.markdown import paper_vs_ours
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.ksens import ksens_condition, ksens_variant, table_ksens


def test_ksens_cells_over_all_seeds(ksens_runs):
    kappa = {(15, 21): 1.604, (22, 30): 1.5954, (44, 60): 1.5919}

    def condition(kt, kx):
        if (kt, kx) == (31, 43):
            raise ValueError("no field")
        return kappa[(kt, kx)]

    rt = table_ksens(ksens_runs, condition)
    assert rt is not None and rt.stem == "tab_ksens"
    lines = rt.latex.splitlines()
    assert r"\label{tab:ksens}" in rt.latex and r"\operatorname" not in rt.latex
    assert (
        r"$15{\times}21$ & 315 & 4/5 & 3/5 & $0.002\pm0.002$ & $0.04\pm0.03$ & "
        r"$5.0{\times}10^{-2}$ & $9.0{\times}10^{-3}$ & $1.60$ \\"
    ) in lines
    # no runs: design K, empty results, kappa still computed (a property of the test grid)
    assert r"$22{\times}30$ & 660 & -- & -- & -- & -- & -- & -- & $1.60$ \\" in lines
    assert r"$31{\times}43$ & 1333 & -- & -- & -- & -- & -- & -- & -- \\" in lines
    assert (
        r"$44{\times}60$ & 2641 & 2/2 & 2/2 & $0.002\pm0.001$ & $0.07\pm0.03$ & "
        r"$1.2{\times}10^{-1}$ & $2.2{\times}10^{-2}$ & $1.59$ \\"
    ) in lines
    md = paper_vs_ours(rt)
    assert "| 15x21 | e_alpha | 0.002 ± 0.002 | 0.002 ± 0.002 | yes |" in md
    assert "| 15x21 | Supp./pow. | 5/5 | 4/5 | no |" in md
    assert "| 15x21 | e_xi^max | 4.7×10^-2 | 5.0×10^-2 | no |" in md
    assert "| 15x21 | cond_2 | 1.60 | 1.60 | yes |" in md
    assert "| 62x85 | Oper./struct. | 1/5 | -- | no |" in md
    assert "| 44x60 | K | 2640 | 2641 | no |" in md
    assert "no runs for fade at 10 % with test counts 62x85 (K62x85)" in md
    assert "runs of K44x60 have K = [2641], expected 2640" in md
    assert "condition number for 31x43 unavailable (no field)" in md
    assert table_ksens(ksens_runs.iloc[-1:], condition) is None


def test_without_condition_callback_the_column_is_empty(ksens_runs):
    rt = table_ksens(ksens_runs, None)
    assert rt is not None and all(c["condition"] == "--" for _, _, c in rt.rows)
    assert ksens_variant(44, 60) == "K44x60"


def test_ksens_condition_number_matches_paper():
    # docs/method/experiments.md#k-sensitivity on the shipped FADE data: sigma_max/sigma_min of
    # the 2 exact columns
    kappa = ksens_condition(15, 21)
    assert 1.0 < kappa < 2.0
    assert f"${kappa:.2f}$" == paper_table("tab:ksens").value("K15x21", "condition")
