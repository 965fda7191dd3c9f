"""Paper tab:appendix."""

from __future__ import annotations

from weakpareto.reporting.tables.appendix_cases import table_appendix


def test_appendix_rows_by_variant(make_runs):
    rows = [
        dict(benchmark="riesz2", variant="p0_aic", seed=s, support_ok=True, operator_ok=False,
             e_beta_max=0.21, e_xi_max=0.38, fit_error=0.236)
        for s in range(5)
    ]  # fmt: skip
    rt = table_appendix(make_runs(rows))
    assert rt is not None
    lines = rt.latex.splitlines()
    assert (
        r" & $p\in\{0\}$, AIC-type & 5/5 & 0/5 & $0.21\pm0.00$ & $0.38\pm0.00$ & "
        r"$0.236\pm0.000$ \\"
    ) in lines
    assert r"\multirow{2}{*}{ADE} & default & -- & -- & -- & -- & -- \\" in lines
    assert "tab:appendix: no runs for riesz2 variant default" in rt.notes
