"""Recovery metrics (paper Sec. 5.1, docs/method/metrics.md) on hand-built equations, and their
aggregation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from omegaconf import OmegaConf

from weakpareto.campaign.config import config_dir
from weakpareto.evaluation.metrics import (
    EMPTY,
    Metrics,
    fmt_mean,
    fmt_pm,
    fmt_sci,
    match_terms,
    mean_sd,
    score,
    summarise,
    truth_equation,
)
from weakpareto.records import Equation, Term

FADE = Equation("sub", 0.8, (Term(0, 1.0, -1.0), Term(0, 1.7, 0.5)))
RD_SPACE = Equation("int", 1.0, (Term(0, 0.0, 0.04), Term(0, 1.65, 0.18)), "riesz")
BURGERS = Equation("int", 1.0, (Term(1, 1.0, -1.0), Term(0, 1.7, 0.25)))


def test_exact_truth_recovers_everything_with_zero_errors():
    m = score(FADE, FADE)
    assert (m.support_ok, m.operator_ok, m.branch_ok) == (True, True, True)
    assert (m.e_alpha, m.e_beta_max, m.e_xi_max, m.e_xi_2) == (0.0, 0.0, 0.0, 0.0)
    assert m.matching == (0, 1)


def test_swapped_term_order_still_matches():
    est = Equation("sub", 0.8, (Term(0, 1.72, 0.45), Term(0, 0.98, -1.1)))
    assert match_terms(est, FADE) == [1, 0]
    m = score(est, FADE)
    assert m.support_ok and m.operator_ok
    assert m.e_beta_max == pytest.approx(0.02)
    assert m.e_xi_max == pytest.approx(0.1)  # max(0.1/1, 0.05/0.5)


def test_matching_is_greedy_in_truth_order_with_first_tie():
    # truth 1.0 takes 1.3 (nearer than 1.6); truth 1.7 then takes 1.6
    est = Equation("sub", 0.8, (Term(0, 1.6, 0.5), Term(0, 1.3, -1.0)))
    assert match_terms(est, FADE) == [1, 0]
    # exact tie (0.9 and 1.1 around 1.0): the first estimated term wins
    tie = Equation("sub", 0.8, (Term(0, 1.125, -1.0), Term(0, 0.875, 0.5)))
    assert match_terms(tie, Equation("sub", 0.8, (Term(0, 1.0, -1.0),))) == [0]


def test_wrong_power_fails_support_but_reports_e_alpha():
    est = Equation("int", 1.0, (Term(2, 1.0, -1.0), Term(0, 1.7, 0.25)))
    assert match_terms(est, BURGERS) == [None, 1]
    m = score(est, BURGERS)
    assert not m.support_ok and not m.operator_ok and m.branch_ok
    assert m.e_alpha == 0.0
    assert all(math.isnan(v) for v in (m.e_beta_max, m.e_xi_max, m.e_xi_2))


def test_wrong_size_fails_support():
    est = Equation("sub", 0.8, (*FADE.terms, Term(1, 1.0, 0.01)))
    m = score(est, FADE)
    assert not m.support_ok and not m.operator_ok
    assert math.isnan(m.e_xi_2)


def test_identity_versus_small_order_riesz_fails_operator():
    low_order = Equation("int", 1.0, (Term(0, 0.05, 0.04), Term(0, 1.65, 0.18)), "riesz")
    m = score(low_order, RD_SPACE)
    assert m.support_ok and not m.operator_ok
    assert m.e_beta_max == pytest.approx(0.05)
    # and the reverse: a derivative truth term matched by the identity
    truth = Equation("int", 1.0, (Term(0, 0.1, 0.04), Term(0, 1.65, 0.18)), "riesz")
    m2 = score(RD_SPACE, truth)
    assert m2.support_ok and not m2.operator_ok and m2.e_beta_max == pytest.approx(0.1)
    # an identity within 1e-8 counts as the identity
    near = Equation("int", 1.0, (Term(0, 5e-9, 0.04), Term(0, 1.65, 0.18)), "riesz")
    assert score(near, RD_SPACE).operator_ok


def test_fractional_alpha_near_one_is_not_the_integer_branch():
    est = Equation("sub", 0.999, RD_SPACE.terms, "riesz")
    m = score(est, RD_SPACE)
    assert m.support_ok and not m.branch_ok and not m.operator_ok
    assert m.e_alpha == pytest.approx(0.001)
    # the exact integer mode passes
    assert score(Equation("int", 1.0, RD_SPACE.terms, "riesz"), RD_SPACE).branch_ok


@pytest.mark.parametrize(("delta", "ok"), [(0.149, True), (0.151, False), (-0.149, True)])
def test_order_tolerance_boundary(delta, ok):
    est = Equation("sub", 0.8, (Term(0, 1.0, -1.0), Term(0, 1.7 + delta, 0.5)))
    m = score(est, FADE)
    assert m.support_ok and m.operator_ok is ok
    assert m.e_beta_max == pytest.approx(abs(delta))


@pytest.mark.parametrize(("alpha", "ok"), [(0.8 + 0.149, True), (0.8 - 0.151, False)])
def test_alpha_tolerance_boundary(alpha, ok):
    assert score(Equation("sub", alpha, FADE.terms), FADE).operator_ok is ok


def test_coefficient_errors_by_hand():
    est = Equation("sub", 0.8, (Term(0, 1.0, -0.9), Term(0, 1.7, 0.6)))
    m = score(est, FADE)
    # e_xi_max = max(0.1/1, 0.1/0.5); e_xi_2 = ||(0.1, 0.1)|| / ||(-1, 0.5)||
    assert m.e_xi_max == pytest.approx(0.2, rel=1e-10)
    assert m.e_xi_2 == pytest.approx(math.sqrt(0.02) / math.sqrt(1.25), rel=1e-10)
    assert m.e_xi_2 == pytest.approx(0.12649110640673517, rel=1e-10)


def test_superunit_generic_rule():
    truth = Equation("sup", 1.65, (Term(0, 2.0, 0.12),))
    assert score(Equation("sup", 1.78, (Term(0, 1.9, 0.1),)), truth).operator_ok
    saturated = score(Equation("sup", 1.85, (Term(0, 2.0, 0.12),)), truth)
    assert saturated.branch_ok and not saturated.operator_ok
    wrong_branch = score(Equation("sub", 0.99, (Term(0, 2.0, 0.12),)), truth)
    assert not wrong_branch.branch_ok


def test_truth_equation_from_yaml_keeps_stored_order():
    cfg = OmegaConf.load(str(config_dir() / "benchmark" / "burgers.yaml"))
    eq = truth_equation(cfg)
    assert eq.mode == "int" and eq.alpha == 1.0 and eq.operator == "directional"
    assert eq.terms == (Term(1, 1.0, -1.0), Term(0, 1.7, 0.25))  # not canonicalised
    plain = truth_equation(
        {"truth": {"alpha": 0.82, "terms": [{"power": 0, "order": 0.0, "coef": 0.03}]}}
    )
    assert plain.mode == "sub" and plain.operator == "directional"


def test_truth_equation_keeps_each_terms_family_and_refuses_an_unknown_one():
    """A drift beside a Riesz dispersion (u_t = -0.5 D_x^1 u + 0.3 R^1.5 u): the terms keep
    their families, so a fit that puts the dispersion in the wrong family is scored wrong."""
    truth = {
        "alpha": 1.0,
        "operator": "directional",
        "terms": [
            {"power": 0, "order": 1.0, "coef": -0.5, "family": "directional"},
            {"power": 0, "order": 1.5, "coef": 0.3, "family": "riesz"},
        ],
    }
    eq = truth_equation({"truth": truth})
    assert [t.family for t in eq.terms] == ["directional", "riesz"]
    assert [t.family_in(eq.operator) for t in eq.terms] == ["directional", "riesz"]
    bad = {**truth, "terms": [{"power": 0, "order": 1.5, "coef": 0.3, "family": "levy"}]}
    with pytest.raises(ValueError, match="unknown term family 'levy'"):
        truth_equation({"truth": bad})


def test_mean_sd_uses_sample_sd():
    m, s = mean_sd([0.1, 0.2, 0.4, float("nan"), None])
    assert m == pytest.approx(0.7 / 3)
    assert s == pytest.approx(np.sqrt(((0.1 - m) ** 2 + (0.2 - m) ** 2 + (0.4 - m) ** 2) / 2))
    assert s == pytest.approx(0.15275252316519466)
    assert fmt_pm([0.1, 0.2, 0.4], 2) == r"$0.23\pm0.15$"
    assert fmt_pm([0.5], 2) == r"$0.50\pm0.00$"  # one value: SD 0
    assert fmt_pm([], 3) == EMPTY and fmt_pm([float("nan")], 3) == EMPTY
    assert fmt_mean([0.02, 0.04], 2) == "0.03"
    assert fmt_sci(5.94e-3, 2) == r"$5.94{\times}10^{-3}$"
    assert fmt_sci(1.3e16, 1) == r"$1.3{\times}10^{16}$"


def _row(m: Metrics | None, fit: float) -> dict:
    base = {
        "support_ok": False,
        "operator_ok": False,
        "branch_ok": False,
        "e_alpha": np.nan,
        "e_beta_max": np.nan,
        "e_xi_max": np.nan,
        "e_xi_2": np.nan,
    }
    return {**base, **(m.as_row() if m else {}), "fit_error": fit}


def test_summary_conditions_errors_on_support_and_fit_on_all_runs():
    ok1 = score(Equation("sub", 0.8, (Term(0, 1.0, -1.0), Term(0, 1.8, 0.5))), FADE)
    ok2 = score(Equation("sub", 0.81, (Term(0, 1.0, -1.0), Term(0, 1.6, 0.5))), FADE)
    bad = score(Equation("sub", 0.9, (Term(0, 1.0, -1.0),)), FADE)
    rows = [_row(ok1, 0.02), _row(ok2, 0.03), _row(bad, 0.10), _row(None, np.nan)]
    s = summarise(rows)
    assert (s.count("support"), s.count("operator"), s.count("branch")) == ("2/4", "2/4", "3/4")
    assert s.pm("e_beta_max", 2) == r"$0.10\pm0.00$"
    assert s.pm("e_alpha", 3) == r"$0.005\pm0.007$"  # only the two recovered runs (0, 0.01)
    assert s.pm("fit_error", 2) == r"$0.05\pm0.04$"  # all three finite E_fit values
    none = summarise([_row(bad, 0.1)])
    assert none.count("support") == "0/1" and none.pm("e_xi_max", 2) == EMPTY
