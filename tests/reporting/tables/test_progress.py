"""Paper tab:progress from the stored fronts."""

from __future__ import annotations

import pandas as pd

from weakpareto.campaign import store as res
from weakpareto.reporting.tables.progress import latest_front, table_progress


def test_progress_rows(results_dir):
    rt = table_progress(res.load_fronts(results_dir))
    assert rt is not None and rt.stem == "tab_progress"
    lines = rt.latex.splitlines()
    assert r"1 & $5.94{\times}10^{-3}$ & $5.49{\times}10^{-3}$ &  \\" in lines
    assert r"2 & $1.21{\times}10^{-4}$ & $1.16{\times}10^{-4}$ & $\checkmark$ \\" in lines
    assert r"3 & $1.05{\times}10^{-4}$ & $9.40{\times}10^{-5}$ &  \\" in lines
    assert table_progress(pd.DataFrame()) is None
    assert table_progress(res.load_fronts(results_dir), seed=3) is None


def test_latest_front_ignores_older_configs():
    base = dict(benchmark="fade", method="weak_pareto", variant="default",
                noise_law="multiplicative", noise=0.05, seed=0)  # fmt: skip
    fronts = pd.DataFrame(
        [
            {**base, "config_hash": "old", "size": 1, "created_utc": "2025-01-01"},
            {**base, "config_hash": "new", "size": 2, "created_utc": "2026-01-01"},
            {**base, "config_hash": "new", "size": 1, "created_utc": "2026-01-01"},
        ]
    )
    df = latest_front(fronts, "fade", 0.05, 0)
    assert df["config_hash"].tolist() == ["new", "new"] and df["size"].tolist() == [1, 2]
