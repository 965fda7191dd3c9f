"""The committed runs are what the current code computes: one seed per table cell, recomputed.

For every stored sweep point of ``results/runs`` made by this code (same code hash; the tab:yu
neural runs are excluded: ~10 min per seed and torch is optional), the lowest stored seed is
recomputed from the stored config (``config_json``) and its row compared with the stored row:
same config hash, equation, orders, coefficients, errors and recovery flags. Slow (~90 seeds).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from omegaconf import OmegaConf
from threadpoolctl import threadpool_limits

from weakpareto.campaign.provenance import current
from weakpareto.campaign.runner import compute_seed, run_key
from weakpareto.campaign.store import load_runs

RUNS = Path(__file__).resolve().parents[2] / "results" / "runs"
#: Columns that hold what was computed (not when, how long or by which process).
COMPARED = (
    "status", "equation", "equation_latex", "mode", "alpha", "operator", "n_terms", "powers",
    "orders", "coefs", "selected_size", "fit_error", "support_ok", "operator_ok", "branch_ok",
    "e_alpha", "e_beta_max", "e_xi_max", "e_xi_2", "n_rows", "n_evals",
)  # fmt: skip


def _cells() -> list[pd.Series]:
    if not RUNS.is_dir():
        return []
    runs = load_runs(RUNS)
    mine = runs[(runs["code_hash"] == current().code_hash) & (runs["method"] != "yu_neural")]
    first = mine.sort_values("seed").groupby("config_hash", sort=True).head(1)
    return [row for _, row in first.iterrows()]


@pytest.mark.slow
def test_a_recomputed_seed_per_cell_equals_the_stored_row() -> None:
    cells = _cells()
    if not cells:
        pytest.skip("no committed runs of this code")
    assert len(cells) >= 80  # every paper-table cell (and tab:yu's Weak-Pareto/spline rows)
    differing = []
    for stored in cells:
        cfg = OmegaConf.create(json.loads(stored["config_json"]))
        key = run_key(cfg, int(stored["seed"]))
        assert key.config_hash == stored["config_hash"]
        with threadpool_limits(1):  # as every worker of `wp run` computes (2-D bits depend on it)
            row, _ = compute_seed(cfg, key)
        for col in COMPARED:
            if not _same(row.get(col), stored[col]):
                differing.append((stored["experiment"], stored["benchmark"], key.seed, col))
    assert differing == []


def _same(ours: object, theirs: object) -> bool:
    if hasattr(theirs, "tolist"):
        return list(ours) == theirs.tolist()  # type: ignore[call-overload]
    if pd.isna(theirs):  # None, NaN or pd.NA (an integer column without a value)
        return ours is None or bool(pd.isna(ours))  # type: ignore[arg-type]
    return ours == theirs
