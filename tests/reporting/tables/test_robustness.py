"""Paper tab:robustness and its Burgers counterpart."""

from __future__ import annotations

from weakpareto.reporting.markdown import paper_vs_ours
from weakpareto.reporting.tables.robustness import table_robustness


def test_weak_and_strong_halves(make_runs):
    rows = [
        dict(benchmark="fade", noise=0.0, seed=s, support_ok=True, e_xi_max=x, fit_error=1.5e-3)
        for s, x in enumerate((0.02, 0.04))
    ]
    rows += [
        dict(benchmark="fade", noise=0.0, seed=s, method="strong_pareto", support_ok=s == 0,
             e_xi_max=0.04, fit_error=2.7e-3)
        for s in range(2)
    ]  # fmt: skip
    rt = table_robustness(make_runs(rows))
    assert rt is not None and rt.stem == "tab_robustness"
    assert r"0 & 2/2 & 0.03 & $1.5{\times}10^{-3}$ & 1/2 & 0.04 & $2.7{\times}10^{-3}$ \\" in (
        rt.latex.splitlines()
    )
    assert r"1 & -- & -- & -- & -- & -- & -- \\" in rt.latex.splitlines()
    assert "tab:robustness: no runs for strong_pareto at 20 %" in rt.notes


def test_burgers_table_has_no_paper_values(make_runs):
    rows = [dict(benchmark="burgers", noise=0.05, seed=0, support_ok=True, e_xi_max=0.01)]
    rt = table_robustness(make_runs(rows), "burgers")
    assert rt is not None and rt.label == "tab:robustness-burgers"
    assert r"\label{tab:robustness-burgers}" in rt.latex
    assert "The paper reports no cell values for this table." in paper_vs_ours(rt)
    assert table_robustness(make_runs(rows), "fade") is None
