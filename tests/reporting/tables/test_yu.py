"""Paper tab:yu: Weak-Pareto (DE 6 x 20) versus the Yu et al. adaptation on FADE."""

from __future__ import annotations

from weakpareto.reporting.markdown import paper_vs_ours
from weakpareto.reporting.tables.yu import table_yu

NAN = float("nan")


def _spline_rows():
    """yu_spline as in the paper: right support at 0 % (beta ~0.2 off), wrong support later."""
    rows = []
    for s in range(5):
        rows.append(
            dict(benchmark="fade", seed=s, method="yu_spline", variant="yu", noise=0.0,
                 support_ok=True, operator_ok=False, e_alpha=0.017, e_beta_max=0.204 + 0.001 * s,
                 e_xi_max=0.129, runtime_s=25.0 + s)
        )  # fmt: skip
        for noise in (0.01, 0.05):
            rows.append(
                dict(benchmark="fade", seed=s, method="yu_spline", variant="yu", noise=noise,
                     support_ok=False, operator_ok=False, e_alpha=0.2, e_beta_max=NAN,
                     e_xi_max=NAN, runtime_s=11.0)
            )  # fmt: skip
    return rows


def test_yu_rows_cells_and_paper_comparison(make_runs):
    weak = [
        dict(benchmark="fade", seed=s, method="weak_pareto", variant="yu", noise=0.0,
             support_ok=True, e_alpha=0.001, e_beta_max=0.026, e_xi_max=0.026, runtime_s=6.6)
        for s in range(5)
    ]  # fmt: skip
    other = [dict(weak[0], variant="default", operator_ok=False)]  # tab:robustness's runs
    rt = table_yu(make_runs(_spline_rows() + weak + other))
    assert rt is not None
    lines = rt.latex.splitlines()
    assert (
        r"\multirow{3}{*}{Weak-Pareto} & 0 & 5/5 & $0.0010\pm0.0000$ & $0.026\pm0.000$ & "
        r"$0.026\pm0.000$ & $6.6\pm0.0$ \\"
    ) in lines
    assert r"\multirow{3}{*}{Yu framework} & 0 & -- & -- & -- & -- & -- \\" in lines
    assert (
        r"\multirow{3}{*}{Yu optimiser-only} & 0 & 0/5 & $0.017\pm0.000$ & $0.206\pm0.002$ & "
        r"$0.129\pm0.000$ & $27.0\pm1.6$ \\"
    ) in lines
    assert r" & 5 & 0/5 & -- & -- & -- & $11.0\pm0.0$ \\" in lines
    assert lines.count(r"\midrule") == 3  # header rule + two group rules
    md = paper_vs_ours(rt)
    assert "| Yu optimiser-only 1 % | Op. rec. | 0/5 | 0/5 | yes |" in md
    assert "| Yu optimiser-only 0 % | e_alpha | 0.017 ± 0.000 | 0.017 ± 0.000 | yes |" in md
    assert "| Yu framework 5 % | Op. rec. | 4/5 | -- | no |" in md
    assert any("yu_neural on fade at 0 %" in n for n in rt.notes)


def test_yu_table_is_skipped_without_runs(make_runs):
    assert table_yu(make_runs(_spline_rows()).iloc[:0]) is None
    only_default = [dict(benchmark="fade", seed=0, method="weak_pareto", noise=0.0)]
    assert table_yu(make_runs(only_default)) is None  # tab:robustness rows are not tab:yu's
