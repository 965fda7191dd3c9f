"""Paper tab:gaussian-noise."""

from __future__ import annotations

from weakpareto.reporting.tables.gaussian_noise import table_gaussian


def test_gaussian_rows_use_the_additive_law(make_runs):
    rows = [
        dict(benchmark="burgers", seed=s, noise_law="additive_gaussian", support_ok=True,
             e_beta_max=0.004, e_xi_max=0.017, fit_error=0.08)
        for s in range(5)
    ]  # fmt: skip
    rows.append(dict(benchmark="fade", seed=0, support_ok=True))  # multiplicative: ignored
    rt = table_gaussian(make_runs(rows))
    assert rt is not None
    lines = rt.latex.splitlines()
    assert (
        r"\multirow{2}{*}{Frac. Burgers} & Weak & 5/5 & 5/5 & $0.004\pm0.000$ & "
        r"$0.017\pm0.000$ & $0.080\pm0.000$ \\"
    ) in lines
    assert r"\multirow{2}{*}{FADE} & Weak & -- & -- & -- & -- & -- \\" in lines
    assert [c for c, _ in rt.columns][:2] == ["support", "operator"]
