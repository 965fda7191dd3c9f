"""The report of a skewed pair: K, s and beta in the JSON and the printed summary."""

from __future__ import annotations

import json

from weakpareto.records import Equation, Term
from weakpareto.user.skew_report import skewed_entries, skewed_lines

EQ = Equation("int", 1.0, (Term(0, 1.0, -0.5), Term(0, 1.5, 0.225),
                           Term(0, 1.5, 0.075, family="directional_right")))  # fmt: skip


def test_the_pair_is_reported_with_k_s_and_beta_and_nothing_else_changes():
    entry = skewed_entries(EQ)
    (pair,) = json.loads(json.dumps(entry))["skewed"]
    assert pair["order"] == 1.5 and abs(pair["K"] - 0.3) < 1e-12 and abs(pair["s"] - 0.5) < 1e-12
    (line,) = skewed_lines(EQ)
    assert "K = 0.3000" in line and "s = 0.5000" in line and "b = 1.5000" in line
    plain = Equation("int", 1.0, (Term(0, 1.0, -0.5), Term(0, 1.5, 0.3, family="riesz")))
    assert skewed_entries(plain) == {} and skewed_lines(plain) == []
