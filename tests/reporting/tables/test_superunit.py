"""Paper tab:superunit."""

from __future__ import annotations

from weakpareto.reporting.tables.superunit import table_superunit


def test_branch_and_operator_counts(make_runs):
    rows = [
        dict(benchmark="superunit", noise=0.005, seed=s, branch_ok=True, operator_ok=s < 2)
        for s in range(5)
    ]
    rt = table_superunit(make_runs(rows))
    assert rt is not None
    lines = rt.latex.splitlines()
    assert r" & 0.5 & 5/5 & 2/5 \\" in lines
    assert r"\multirow{3}{*}{Strong-Pareto} & 0 & -- & -- \\" in lines
    assert {rid for rid, _, _ in rt.rows} >= {"weak_pareto@0.5", "strong_pareto@1.0"}
