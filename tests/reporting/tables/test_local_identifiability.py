"""Paper tab:local-identifiability from local_identifiability.csv rows."""

from __future__ import annotations

import pandas as pd

from weakpareto.reporting.tables.local_identifiability import fmt_error_pm, local_table


def test_error_format_matches_paper_cells():
    assert fmt_error_pm([0.0, 4.8e-5, 0.0, 1.7e-5, 0.0]) == r"$(1.3\pm2.1){\times}10^{-5}$"
    assert fmt_error_pm([0.0278, 0.0278]) == r"$0.0278\pm0.0000$"
    assert fmt_error_pm([0.0278], decimals=2) == r"$0.03\pm0.00$" and fmt_error_pm([]) == "--"


def _frame(with_raw=False):
    rows = []
    for b, s_beta, beta in (("fade", 0.502, 1.7), ("burgers", 1.61, 1.7)):
        for noise in (0.0, 0.1):
            for seed in range(2):
                err = (0.02 if b == "fade" else 0.002) * noise * 10 + 1e-3 * seed
                rows.append(dict(benchmark=b, noise=noise, seed=seed, s_beta=s_beta,
                                 e_beta_fix=err, beta_hat=beta + err, beta_true=beta,
                                 e_beta_fix_raw=err + (0.01 if with_raw else 0.0)))  # fmt: skip
    return pd.DataFrame(rows)


def test_local_table():
    latex, md = local_table(_frame())
    assert r"FADE & directional & $0.502$ & $0.0005\pm0.0007$ & $0.0205\pm0.0007$ \\" in latex
    assert r"Frac.\ RD (space) & Riesz & -- & -- & -- \\" in latex
    assert "| FADE | Operator |  | directional |  |" in md  # the paper's column is not compared
    assert "| FADE | S_beta | 0.502 | 0.502 | yes |" in md
    assert "| S_beta ordering is the reverse of the 10 % fixed-support error ordering | yes |" in md
    assert "- no rows for rd_space" in md and "| FADE | 10 | 1.7 | " in md
    assert "Refinement bracket" not in md


def test_raw_grid_variant_is_explained():
    _, md = local_table(_frame(with_raw=True))
    assert "Refinement bracket at the true order" in md
    assert "Without the artefact the clean FADE profile" in md
