"""tau_q rescoring of the 60 matched noisy runs: a constructed case with a known answer, the
paper's quoted values checked against its text, and the committed runs (45/47/47 and 0/60)."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from weakpareto.campaign.store import load_runs
from weakpareto.records import Equation, Term
from weakpareto.reporting import paper_source
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.tau_rescoring import (
    LABEL,
    MATCHED_CELLS,
    counts,
    rescore,
    table_tau_rescoring,
)

REPO = Path(__file__).resolve().parents[2]
TRUTH = Equation("sub", 0.8, (Term(0, 1.0, -1.0), Term(0, 1.7, 0.5)))


def _row(seed, alpha, orders, powers=(0, 0), status="ok", mode="sub", **over):
    row = {
        "benchmark": "fade",
        "noise_law": "multiplicative",
        "noise": 0.05,
        "seed": seed,
        "method": "weak_pareto",
        "variant": "default",
        "status": status,
        "mode": mode,
        "alpha": alpha,
        "powers": list(powers),
        "orders": list(orders),
        "coefs": [-1.0, 0.5, 0.01][: len(orders)],
        "operator": "directional",
        "created_utc": "2026-01-01T00:00:00",
    }
    row.update(over)
    return row


# Known answers: the tolerance from which each run counts as an operator recovery.
CASES = [
    (_row(0, 0.80, (1.0, 1.7)), 0.0),  # exact: recovered at every tolerance
    (_row(1, 0.69, (1.0, 1.7)), 0.11),  # e_alpha 0.11
    (_row(2, 0.80, (1.0, 1.86)), 0.16),  # e_beta 0.16
    (_row(3, 0.80, (0.83, 1.7)), 0.17),  # e_beta 0.17
    (_row(4, 0.99, (1.0, 1.7)), 0.19),  # e_alpha 0.19
    (_row(5, 1.00, (1.0, 1.7), mode="int"), None),  # wrong temporal branch
    (_row(6, 0.80, (1.0, 1.7, 1.0), powers=(0, 0, 1)), None),  # wrong support
    (_row(7, 0.80, (1.0, 1.7), status="failed"), None),  # failed run
]


def test_rescore_constructed_case():
    runs = pd.DataFrame([r for r, _ in CASES])
    taus = (0.1, 0.125, 0.15, 0.175, 0.2)
    scored = rescore(runs, taus, truth=lambda _: TRUTH)
    assert len(scored) == len(CASES) * len(taus)
    for (row, first), (_, g) in zip(CASES, scored.groupby("seed", sort=True)):
        expected = [first is not None and first <= tau + 1e-12 for tau in taus]
        assert g.sort_values("tau")["operator_ok"].tolist() == expected, row["seed"]
    per_tau = scored.groupby("tau")["operator_ok"].sum().to_dict()
    assert per_tau == {0.1: 1, 0.125: 2, 0.15: 2, 0.175: 4, 0.2: 5}


def test_matched_cells_are_sixty_runs_per_method():
    assert len(MATCHED_CELLS) * 5 == 60


def test_paper_claims_are_in_the_paper():
    lines = paper_source.paper_lines()  # the full source, or the committed excerpt
    claims = paper_table(LABEL).extras["claims"]
    for method, c in claims.items():
        line = lines[c["line"] - 1]
        assert c["quote"] in line, method
        numbers = set(re.findall(r"\d+(?:\.\d+)?", c["quote"]))
        assert set(c["values"].values()) <= numbers
    weak = claims["weak_pareto"]["quote"]
    assert all(f"${k}$" in weak or f"={k}$" in weak for k in claims["weak_pareto"]["values"])
    assert claims["weak_pareto"]["values"] == {"0.125": "45", "0.15": "47", "0.175": "47"}


@pytest.mark.skipif(not (REPO / "results" / "runs").is_dir(), reason="no committed results")
def test_committed_runs_reproduce_45_47_47_and_0_of_60():
    runs = load_runs(REPO / "results" / "runs")
    found = counts(runs)
    n_weak, weak = found["weak_pareto"]
    n_strong, strong = found["strong_pareto"]
    assert n_weak == n_strong == 60
    assert (weak[0.125], weak[0.15], weak[0.175]) == (45, 47, 47)
    assert set(strong.values()) == {0}
    assert weak[0.1] == 40  # the reference archive's 40; at 0.2 ours 48 vs 52
    table = table_tau_rescoring(runs)
    assert table is not None
    assert r"Weak-Pareto & 40/60 & 45/60 & 47/60 & 47/60 & 48/60 \\" in table.latex
    assert "| Weak-Pareto | tau_q = 0.125 | 45/60 | 45/60 | yes |" in table.markdown
    assert "| Strong-Pareto | tau_q = 0.175 | 0/60 | 0/60 | yes |" in table.markdown


def test_no_matched_runs_gives_no_table(results_dir):
    runs = load_runs(results_dir)
    assert table_tau_rescoring(runs.iloc[0:0]) is None
