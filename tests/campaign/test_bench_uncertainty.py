"""Cost of the bootstrap against one fit (weakpareto.campaign.bench_uncertainty): the shape and
sanity of the numbers on a tiny case (no timing assertions)."""

from __future__ import annotations

import math

import pandas as pd

from weakpareto.campaign.bench_uncertainty import uncertainty_cost, write_uncertainty_cost

TINY = ["search.popsize=1", "search.maxiter=1", "search.c_max=2", "search.test_budget=smoke"]


def test_cost_row_and_files(tmp_path):
    df = uncertainty_cost("fade", 0.05, n_boot=4, repeats=1, overrides=TINY)
    assert list(df.columns) == [
        "benchmark", "noise", "n_boot", "repeats", "fit_s", "bootstrap_s", "ratio", "target",
    ]  # fmt: skip
    r = df.iloc[0]
    assert r["fit_s"] > 0 and r["bootstrap_s"] > 0
    assert math.isclose(r["ratio"], (r["fit_s"] + r["bootstrap_s"]) / r["fit_s"])
    assert r["ratio"] > 1.0 and r["n_boot"] == 4
    csv = write_uncertainty_cost(tmp_path, df)
    assert pd.read_csv(csv)["ratio"].iloc[0] == r["ratio"]
    assert not (tmp_path / "uncertainty_cost.md").exists()  # rendered by the one writer
