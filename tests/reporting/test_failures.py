"""`wp report` says how many runs behind each table failed and lists them beside the table."""

from __future__ import annotations

import dataclasses

import pandas as pd

from weakpareto.campaign import store as res
from weakpareto.reporting.failures import failures_of, reason_of, with_failures
from weakpareto.reporting.markdown import same_cells
from weakpareto.reporting.render import render_all

SINGULAR = "singular fit: LinAlgError: Singular matrix\nTraceback (most recent call last): ..."
KEY = res.RunKey(
    benchmark="rd_space",
    method="weak_pareto",
    variant="default",
    noise_law="multiplicative",
    noise=0.1,
    seed=5,
    config_hash="feedbeef00",
    code_hash="c0dec0dec0dec0de",
)


def _write_failed(root, key, error=SINGULAR):
    row = res.run_record(None, None, key, runtime=0.2, error=error)
    res.write_front_and_run(res.run_path(root, key), row, [])


def test_failed_runs_are_counted_printed_and_listed(results_dir, tmp_path, capsys):
    _write_failed(results_dir, KEY)  # a sixth RD-space seed at 10 %: tab:main and tab:rdnoise
    _write_failed(
        results_dir, dataclasses.replace(KEY, seed=6), "no feasible candidate: no support size"
    )
    out = tmp_path / "tables"
    render_all(results_dir, out, conditioning_csv=tmp_path / "none.csv")
    err = capsys.readouterr().err
    reasons = "(no feasible candidate 1, singular fit 1)"
    assert f"wp report: tab:main: 2 of 12 runs failed {reasons}" in err
    assert "wp report: tab:rdnoise: 2 of 7 runs failed" in err
    assert "failed runs in 2 of" in err and "tab:progress" not in err.split("failed runs in")[0]
    md = (out / "tab_main_paper_vs_ours.md").read_text()
    assert "## Failed runs" in md and "2 of 12 runs behind this table failed" in md
    assert "| rd_space | weak_pareto | default | multiplicative | 10 | 5 | singular fit: " in md
    assert "Traceback" not in md  # the first line of the stored error only
    assert "| Frac. RD (space) | Support/power | 3/5 | 3/7 | no |" in md  # failed = not recovered
    fade = (out / "tab_robustness_paper_vs_ours.md").read_text()  # FADE only: no failed runs
    assert "Failed runs" not in fade


def test_no_failed_runs_leaves_the_tables_as_they_were(results_dir, tmp_path, capsys):
    out = tmp_path / "tables"
    render_all(results_dir, out, conditioning_csv=tmp_path / "none.csv")
    err = capsys.readouterr().err
    assert "failed runs: none among the 11 runs behind the tables" in err
    assert "same at paper precision:" in err
    for md in out.glob("*_paper_vs_ours.md"):
        assert "Failed runs" not in md.read_text()


def test_failures_of_counts_each_run_once():
    ok = pd.DataFrame([{**KEY.as_dict(), "seed": 1, "status": "ok", "error": ""}])
    bad = pd.DataFrame([{**KEY.as_dict(), "status": "failed", "error": SINGULAR}])
    f = failures_of([ok, bad, bad])  # two tables cells reading the same failed run
    assert (f.total, f.count, f.reasons()) == (2, 1, {"singular fit": 1})
    assert with_failures("# t\n", failures_of([ok])) == "# t\n"  # no failures: unchanged
    assert with_failures("# t\n", f).startswith("# t\n\n## Failed runs\n")
    assert reason_of("RuntimeError: boom\nTraceback") == "RuntimeError"  # rows of older code
    assert failures_of([]).total == 0


def test_same_cells_counts_the_comparison_column():
    md = "\n".join(
        [
            "| Row | Column | Paper | Ours | Same at paper precision |",
            "|---|---|---|---|---|",
            "| a | x | 1 | 1 | yes |",
            "| a | y | 1 | 2 | no |",
            "| a | z | (not in paper) | 3 |  |",
            "| b | x | 1e-16 | 2e-16 | round-off (both < 1e-13) |",
            "",
            "| Claim | Holds |",
            "|---|---|",
            "| c | yes |",
        ]
    )
    assert same_cells(md) == (1, 3)
