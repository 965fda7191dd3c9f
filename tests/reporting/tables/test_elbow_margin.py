"""Paper tab:elbow-margin-sensitivity from synthetic fronts and margin reruns."""

from __future__ import annotations

import pandas as pd
import pytest

from weakpareto.reporting.markdown import paper_vs_ours
from weakpareto.reporting.tables.elbow_margin import (
    counts_over,
    delta_range,
    margin_variant,
    table_elbow_margin,
    two_point_deltas,
)


def test_two_point_deltas_use_the_latest_front(elbow_frames):
    _, fronts = elbow_frames
    d = two_point_deltas(fronts, "fade", "m0.15")
    assert list(d.index) == [0, 1, 2, 3, 4]
    assert d.to_numpy() == pytest.approx([0.12, 0.17, 0.25, 0.105, 0.30], abs=1e-12)
    rd = two_point_deltas(fronts, "rd_space", "m0.2")
    assert rd.isna().tolist() == [False, False, True, False, False]
    assert two_point_deltas(fronts, "burgers", "m0.15").empty


def test_counts_are_strict_and_nan_never_clears():
    d = pd.Series([0.1, 0.15, float("nan"), 0.2])
    assert counts_over(d, 0.10) == "$2/4$" and counts_over(d.iloc[:0], 0.1) == "--"
    assert delta_range(d, 3) == "$0.100$--$0.200$" and margin_variant(0.1) == "m0.1"


def test_elbow_margin_cells(elbow_frames):
    runs, fronts = elbow_frames
    rt = table_elbow_margin(runs, fronts)
    assert rt is not None and rt.stem == "tab_elbow_margin"
    lines = rt.latex.splitlines()
    assert r"\label{tab:elbow-margin-sensitivity}" in rt.latex
    # counts are strict (> m2): 0.105 clears 0.10 only; 0.30 and 0.25 clear 0.20
    assert r"FADE & $0.105$--$0.300$ & $5/5$ & $3/5$ & $2/5$ & --, $1/1$, -- \\" in lines
    assert r"Frac.\ Burgers & -- & -- & -- & -- & -- \\" in lines
    # NaN seed counts in n but never clears; the fallback fronts are noted
    assert (
        r"Frac.\ RD (space) & $0.107$--$0.267$ & $4/5$ & $2/5$ & $1/5$ & "
        r"$5/5$, $3/5$, $1/5$ \\"
    ) in lines
    assert lines.index(r"\midrule") + 1 == lines.index(
        next(x for x in lines if x.startswith("FADE &"))
    )
    md = paper_vs_ours(rt)
    assert "| FADE | Range of Delta_12 | 0.971--1.124 | 0.105--0.300 | no |" in md
    assert "| FADE | m2 = 0.10 | 5/5 | 5/5 | yes |" in md
    assert "| Frac. RD (space) | m2 = 0.20 | 1/5 | 1/5 | yes |" in md
    assert (
        "| Frac. RD (space) | Full-selector supp./pow. (m2 = 0.10, 0.15, 0.20) | "
        "5/5, 3/5, 1/5 | 5/5, 3/5, 1/5 | yes |"
    ) in md
    assert "Full-selector oper./struct. (m2 = 0.10, 0.15, 0.20; text, not tabulated) | " in md
    assert "| 0/5, 0/5, 0/5 | 0/5, 0/5, 0/5 | yes |" in md
    assert "| FADE | Full-selector supp./pow. (m2 = 0.10, 0.15, 0.20) | (not in paper) |" in md
    assert "rd_space: Delta_12 from the m0.2 fronts (m0.15 fronts missing)" in md
    assert "rd_space: no finite c = 1, 2 validation errors for seeds [2]" in md
    assert "fade: Delta_12 of the m0.1 fronts differs from the m0.15 fronts by up to 0.01" in md
    assert "no runs for burgers full-selector rerun m0.15" in md
    assert table_elbow_margin(runs.iloc[:0], fronts.iloc[:0]) is None
