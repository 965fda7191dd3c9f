"""Paper tab:conditioning from conditioning.csv."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pandas as pd

from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.conditioning import table_conditioning

REPO = Path(__file__).resolve().parents[3]


def test_conditioning_csv(tmp_path):
    csv = tmp_path / "conditioning.csv"
    pd.DataFrame(
        {
            "spacing": [0.5, 0.25],
            "columns": [6, 12],
            "coherence": [0.7221, 0.9209],
            "condition": [321.7, 2.61e9],
        }
    ).to_csv(csv, index=False)
    rt = table_conditioning(csv)
    assert rt is not None and rt.notes == []
    assert r"0.50 & 6 & 0.722 & $3.2{\times}10^{2}$ \\" in rt.latex.splitlines()
    assert r"0.25 & 12 & 0.921 & $2.6{\times}10^{9}$ \\" in rt.latex.splitlines()
    assert table_conditioning(tmp_path / "missing.csv") is None
    pd.DataFrame({"spacing": [0.5]}).to_csv(csv, index=False)
    assert table_conditioning(csv) is None  # incomplete columns


def test_conditioning_script_writes_the_paper_table(tmp_path):
    script = REPO / "scripts" / "conditioning.py"
    spec = importlib.util.spec_from_file_location("conditioning_script", script)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    csv = tmp_path / "diag" / "conditioning.csv"
    assert mod.main(["--out", str(csv)]) == 0
    rt = table_conditioning(csv)
    assert rt is not None
    cells = {rid: c for rid, _, c in rt.rows}
    paper = paper_table("tab:conditioning")
    for rid in ("0.50", "0.25", "0.10", "0.05"):
        assert cells[rid]["columns"] == paper.value(rid, "columns")
        assert cells[rid]["coherence"] == paper.value(rid, "coherence")
    for rid in ("0.50", "0.25"):  # well above the rounding floor: same at paper precision
        assert cells[rid]["condition"] == paper.value(rid, "condition")
