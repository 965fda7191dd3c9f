"""Paper tab:twod-width and tab:twod-resolution from hand-made 2-D runs."""

from __future__ import annotations

import pandas as pd
import pytest

from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.twod_sensitivity import (
    paper_decimals,
    table_twod_resolution,
    table_twod_width,
    write_twod_sensitivity,
)


@pytest.fixture()
def runs(make_runs):
    rows = []

    def add(bench, variant, noise, seed, ok, n_rows, err=0.001):
        rows.append(
            dict(benchmark=bench, variant=variant, noise=noise, seed=seed, support_ok=ok,
                 operator_ok=ok, branch_ok=ok, e_alpha=err, e_beta_max=2 * err,
                 e_xi_max=3 * err, n_rows=n_rows, n_terms=3 if ok else 2, runtime_s=1.0,
                 equation="D_t^0.85 u = ...")
        )  # fmt: skip

    for seed in range(5):
        for variant, ok in (("wrule", True), ("w0.10", True), ("w0.16", False), ("w0.24", False)):
            add("twod_b", variant, 0.05, seed, ok, 48000, err=0.001 * (seed + 1))
        for noise in (0.0, 0.01, 0.05, 0.1, 0.2):
            add("twod_a", "default", noise, seed, True, 48000)
            add("twod_a", "r112", noise, seed, True, 94080)
    return make_runs(rows)


def test_paper_decimals_per_cell():
    width = paper_table("tab:twod-width")
    assert paper_decimals(width, "wrule", "e_alpha") == 5
    assert paper_decimals(width, "w0.16", "e_alpha") == 5  # "--": the table default
    assert paper_decimals(paper_table("tab:twod-resolution"), "default", "e_xi_max") == 4


def test_width_table(runs):
    latex, md = table_twod_width(runs)
    assert r"\label{tab:twod-width}" in latex
    # errors 0.001..0.005 over five seeds: mean 0.003, SD 0.00158
    assert r"Inherited paper rule & $5/5$ & $5/5$ & $0.00300\pm0.00158$" in latex
    assert r"$0.16L$ & $0/5$ & $0/5$ & -- & -- & -- \\" in latex
    assert "| 0.16L | Support/direction | 0/5 | 0/5 | yes |" in md
    assert "| 0.16L | e_alpha | -- | -- | yes |" in md
    assert "| Inherited paper rule | L/30 (paper rule) | 5 | 3, 3, 3, 3, 3 |" in md


def test_width_paper_rule_falls_back_to_default_runs(runs):
    runs = runs.copy()
    runs.loc[runs["variant"] == "wrule", "variant"] = "default"
    latex, md = table_twod_width(runs)
    assert r"Inherited paper rule & $5/5$" in latex
    assert "no 'wrule' runs" in md


def test_resolution_table(runs):
    latex, md = table_twod_resolution(runs)
    assert r"$90\times112\times112$ & $94{,}080$ & $25/25$ & $0.00100\pm0.00000$" in latex
    assert "| 90x112x112 | Weak rows | 94,080 | 94,080 | yes |" in md
    assert "| 90x80x80 | e_xi^max | 0.0111 ± 0.0023 | 0.0030 ± 0.0000 | no |" in md


def test_write_only_the_studies_with_runs(runs, tmp_path):
    assert write_twod_sensitivity(pd.DataFrame(), tmp_path) == []
    assert write_twod_sensitivity(runs[runs["variant"] == "default"], tmp_path) == []
    names = [p.name for p in write_twod_sensitivity(runs, tmp_path)]
    assert names == [
        "tab_twod_width.tex",
        "tab_twod_width_paper_vs_ours.md",
        "tab_twod_resolution.tex",
        "tab_twod_resolution_paper_vs_ours.md",
    ]
