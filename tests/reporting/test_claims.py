"""The performance claims of the prose hold against the committed result files, and a number
edited on one side only (text or data) is caught."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from weakpareto.reporting.claim_sources import markdown_tables, select
from weakpareto.reporting.claims import (
    DEFAULT_CLAIMS,
    Claim,
    ClaimError,
    check_claims,
    load_claims,
    parse_claim,
)

ROOT = Path(__file__).resolve().parents[2]
SUITE_DOC = "docs/independent-suite.md"
SUITE_CSV = "results/independent/tab_independent.csv"


def test_every_registered_claim_matches_the_committed_data():
    failures = check_claims(load_claims(ROOT / DEFAULT_CLAIMS), ROOT)
    assert not failures, "\n".join(failures)


def test_the_claims_cover_the_main_documents():
    files = {c.file for c in load_claims(ROOT / DEFAULT_CLAIMS)}
    assert {SUITE_DOC, "docs/performance.md", "docs/reproducing-the-paper.md"} <= files


def _suite_copy(tmp_path: Path) -> list[Claim]:
    """The independent-suite document and table copied under ``tmp_path``, with their claims."""
    for rel in (SUITE_DOC, SUITE_CSV):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, tmp_path / rel)
    claims = [
        c
        for c in load_claims(ROOT / DEFAULT_CLAIMS)
        if c.file == SUITE_DOC and c.source == SUITE_CSV
    ]
    assert claims and not check_claims(claims, tmp_path)
    return claims


def _default_total(claims: list[Claim]) -> tuple[str, int, int]:
    """The suite table's ``| all |`` row and the default method's ``passed/judged`` in it."""
    claim = next(
        c for c in claims if c.snippet.startswith("| all |") and c.snippet.endswith(f" {c.value} |")
    )
    passed, judged = (int(v) for v in claim.value.split("/"))
    return claim.snippet, passed, judged


def test_a_number_edited_in_the_text_only_fails(tmp_path):
    claims = _suite_copy(tmp_path)
    row, passed, judged = _default_total(claims)
    edited = row.replace(f" {passed}/{judged} |", f" {passed + 1}/{judged} |")
    doc = tmp_path / SUITE_DOC
    doc.write_text(doc.read_text().replace(row, edited))
    failures = check_claims(claims, tmp_path)
    assert failures
    assert all(SUITE_DOC in f and "snippet found 0 times" in f for f in failures)


def test_data_recomputed_without_the_text_fails_with_both_values(tmp_path):
    claims = _suite_copy(tmp_path)
    csv = tmp_path / SUITE_CSV
    table = pd.read_csv(csv)
    row = (table["case"] == "sub35_riesz15") & (table["method"] == "weak_pareto_exact")
    table.loc[row, "passed"] = False
    table.to_csv(csv, index=False)
    failures = check_claims(claims, tmp_path)
    _, passed, judged = _default_total(claims)
    written = f"written {passed}/{judged}, recomputed {passed - 1}/{judged}"
    assert any(written in f and "| all |" in f for f in failures)
    assert any("written 15/15, recomputed 14/15" in f for f in failures)


def _claim(tmp_path: Path, text: str, **raw) -> Claim:
    (tmp_path / "doc.md").write_text(text)
    return parse_claim({"file": "doc.md", "source": "t.csv", **raw})


def test_a_bound_claim_compares_numerically(tmp_path):
    pd.DataFrame({"e": [0.001, 0.004]}).to_csv(tmp_path / "t.csv", index=False)
    bound = {"compute": "value", "column": "e", "agg": "max", "bound": "upper"}
    holds = _claim(tmp_path, "", snippet="<= 0.005 here", value="0.005", **bound)
    fails = _claim(tmp_path, "", snippet="<= 0.003 there", value="0.003", **bound)
    (tmp_path / "doc.md").write_text("errors <= 0.005 here, <= 0.003 there")
    assert check_claims([holds], tmp_path) == []
    assert "upper bound" in check_claims([fails], tmp_path)[0]


def test_a_ratio_of_two_aggregates_and_an_expression_column(tmp_path):
    pd.DataFrame({"m": ["a", "a", "b"], "s": [1.0, 3.0, 0.5], "n": [5, 5, 5]}).to_csv(
        tmp_path / "t.csv", index=False
    )
    ratio = _claim(
        tmp_path,
        "a is 4.0x b; 4 of 5",
        snippet="4.0x b",
        value="4.0x",
        compute="ratio",
        format="{:.1f}x",
        numerator={"where": {"m": "a"}, "column": "s", "agg": "mean"},
        denominator={"where": {"m": "b"}, "column": "s"},
    )
    expr = parse_claim(
        {
            "file": "doc.md",
            "source": "t.csv",
            "snippet": "4 of 5",
            "value": "4",
            "compute": "value",
            "where": {"m": "b"},
            "column": "n - 1",
            "format": "{:.0f}",
        }
    )
    assert check_claims([ratio, expr], tmp_path) == []


def test_markdown_tables_are_stacked():
    text = (
        "# t\n\n| a | b |\n|---|---|\n| x | **0.975 s** |\n\ntext\n\n"
        "| a | c |\n|---|---|\n| y | 2 |\n"
    )
    rows = markdown_tables(text)
    assert list(rows["a"]) == ["x", "y"]
    assert len(select(rows, {"c": {">=": 2}})) == 1


def test_a_claim_names_what_it_lacks():
    with pytest.raises(ClaimError, match="source"):
        parse_claim({"file": "f", "snippet": "s", "value": "1", "compute": "count"})
    with pytest.raises(ClaimError, match="compute"):
        parse_claim({"file": "f", "snippet": "s", "value": "1", "source": "x", "compute": "sum"})
