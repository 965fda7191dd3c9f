"""Paper tab:twod from hand-made 2-D runs."""

from __future__ import annotations

import json

import pandas as pd

from weakpareto.reporting.tables.twod import has_twod_runs, table_twod, write_twod

NOISES = (0.0, 0.01, 0.05, 0.1, 0.2)
#: The truth each run was scored against, as stored in its config_json (A: 2 terms, B: 3).
TRUTH_SIZE = {"twod_a": 2, "twod_b": 3}


def _config(n_terms):
    terms = [{"power": 0, "order": 1.0, "coef": 0.1}] * n_terms
    return json.dumps({"benchmark": {"truth": {"terms": terms}}})


def _runs(make_runs, failed=()):
    rows = [
        dict(benchmark=b, noise=n, seed=s, support_ok=True, operator_ok=(b, n, s) not in failed,
             branch_ok=True, e_alpha=0.001, e_beta_max=0.002, e_xi_max=0.01, e_xi_2=0.01,
             fit_error=0.02, runtime_s=6.0, config_json=_config(TRUTH_SIZE[b]))
        for b in ("twod_a", "twod_b") for n in NOISES for s in range(5)
    ]  # fmt: skip
    rows.append(dict(benchmark="fade", seed=0, support_ok=False))  # other benchmarks ignored
    return make_runs(rows)


def test_twod_counts_errors_and_breakdown(make_runs):
    latex, md = table_twod(_runs(make_runs, failed={("twod_b", 0.2, 4)}))
    assert r"\label{tab:twod}" in latex and latex.count(r"\toprule") == 1
    assert r"A: anisotropic diffusion & 2 & $25/25$ & $25/25$ \\" in latex
    assert r"B: advection--diffusion & 3 & $25/25$ & $24/25$ \\" in latex
    assert "| A: anisotropic diffusion | Operator | 25/25 | 25/25 | yes |" in md
    assert "| B: advection--diffusion | Operator | 25/25 | 24/25 | no |" in md
    # paper errors from the text after the table, ours at the paper's decimals
    assert (
        "| A: anisotropic diffusion | e_alpha | 0.00081 ± 0.00054 | 0.00100 ± 0.00000 | no |" in md
    )
    assert "| A: anisotropic diffusion | e_xi^max | 0.0111 ± 0.0023 | 0.0100 ± 0.0000 | no |" in md
    assert "| B: advection--diffusion | 20 | 5 | 5/5 | 4/5 | " in md
    assert "- Runtime per seed over all 2-D runs: 6.0 ± 0.0 s." in md


def test_twod_without_runs(tmp_path):
    empty = pd.DataFrame(columns=["benchmark", "noise"])
    latex, md = table_twod(empty)
    assert r"A: anisotropic diffusion & -- & -- & -- \\" in latex  # no runs: no active terms
    assert "no runs for twod_a" in md and "| A: anisotropic diffusion | 0 | 0 | -- |" in md
    assert not has_twod_runs(empty) and write_twod(empty, tmp_path) == []


def test_write_twod(make_runs, tmp_path):
    paths = write_twod(_runs(make_runs), tmp_path)
    assert [p.name for p in paths] == ["tab_twod.tex", "tab_twod_paper_vs_ours.md"]


def test_active_terms_come_from_the_runs_not_the_paper(make_runs):
    """The true equation's size is read from the runs' stored configs, without a fallback."""
    runs = _runs(make_runs)
    runs.loc[runs["benchmark"] == "twod_b", "config_json"] = _config(4)  # what the runs used
    latex, md = table_twod(runs)
    assert r"B: advection--diffusion & 4 & $25/25$ & $25/25$ \\" in latex
    assert "| B: advection--diffusion | Active terms | 3 | 4 | no |" in md
    runs.loc[runs["benchmark"] == "twod_a", "config_json"] = "{}"  # no truth stored
    assert r"A: anisotropic diffusion & -- & $25/25$" in table_twod(runs).latex
    mixed = _runs(make_runs)
    mixed.loc[mixed.index[0], "config_json"] = _config(1)  # runs disagree: both sizes shown
    assert r"A: anisotropic diffusion & 1/2 & " in table_twod(mixed).latex
