"""Paper tab:ablation."""

from __future__ import annotations

from weakpareto.reporting.tables.ablation import table_ablation


def test_ablation_rows(make_runs):
    rows = [
        dict(benchmark="fade", seed=s, method="weak_grid_stridge", support_ok=False,
             operator_ok=False, e_beta_max=float("nan"), fit_error=0.014)
        for s in range(5)
    ]  # fmt: skip
    rt = table_ablation(make_runs(rows))
    assert rt is not None
    lines = rt.latex.splitlines()
    assert (
        r"\shortstack[l]{Weak Grid-\\STRidge} & yes & no & no & 0/5 & 0/5 & -- & -- & "
        r"$0.014\pm0.000$ \\"
    ) in lines
    assert r"\shortstack[l]{Full\\Weak-Pareto} & yes & yes & yes & -- & -- & -- & -- & -- \\" in (
        lines
    )
    assert len(rt.notes) == 3
    assert table_ablation(make_runs(rows).iloc[:0]) is None
