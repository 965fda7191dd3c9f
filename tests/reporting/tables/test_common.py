"""Run-group cells and selection shared by the run-based tables."""

from __future__ import annotations

from weakpareto.reporting.tables.common import (
    at_noise,
    count_cell,
    group_cells,
    math_count_cell,
    noise_sweep,
    pm_cell,
    runtime_cell,
    support_recovered,
)


def test_cells_of_a_run_group(make_runs):
    df = make_runs(
        [
            dict(benchmark="fade", seed=0, support_ok=True, e_beta_max=0.1, fit_error=0.02),
            dict(benchmark="fade", seed=1, support_ok=True, e_beta_max=0.3, fit_error=0.04),
            dict(benchmark="fade", seed=2, support_ok=False, e_beta_max=9.0, fit_error=0.06),
        ]
    )
    assert count_cell(df, "support") == "2/3" and math_count_cell(df, "support") == "$2/3$"
    assert pm_cell(df, "e_beta_max", 2) == r"$0.20\pm0.14$"  # support-recovered seeds only
    assert pm_cell(df, "fit_error", 2) == r"$0.04\pm0.02$"  # all seeds
    assert group_cells(df, ["support", "e_beta_max"], {"e_beta_max": 1}) == {
        "support": "2/3",
        "e_beta_max": r"$0.2\pm0.1$",
    }
    empty = df.iloc[:0]
    assert count_cell(empty, "support") == "--" and pm_cell(empty, "fit_error", 2) == "--"
    assert len(support_recovered(df)) == 2


def test_noise_sweep_latest_run_per_seed(make_runs):
    df = make_runs(
        [
            dict(benchmark="twod_a", noise=0.2, seed=0, runtime_s=1.0),
            dict(benchmark="twod_a", noise=0.0, seed=0, runtime_s=3.0),
            dict(benchmark="twod_a", noise=0.0, seed=0, runtime_s=9.0, created_utc="2020-01-01"),
            dict(benchmark="twod_a", noise=0.05, seed=0, runtime_s=1.0, variant="other"),
        ]
    )
    sweep = noise_sweep(df, "twod_a", (0.0, 0.05, 0.2))
    assert sweep["noise"].tolist() == [0.0, 0.2] and sweep["runtime_s"].tolist() == [3.0, 1.0]
    assert runtime_cell(sweep) == "2.0 ± 1.4" and runtime_cell(sweep.iloc[:0]) == "--"
    assert len(at_noise(sweep, 0.2 + 1e-12)) == 1
    assert noise_sweep(df, "twod_b", (0.0,)).empty
