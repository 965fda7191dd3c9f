"""Equation records print themselves as text and LaTeX and round-trip through dicts."""

from weakpareto.records import Equation, Term


def test_text_matches_issue_format():
    eq = Equation("sub", 0.8003, (Term(0, 1.0002, -0.9958), Term(0, 1.7334, 0.5110)))
    assert eq.text() == "D_t^0.8003 u = -0.9958 D_x^1.0002 u + 0.5110 D_x^1.7334 u"
    assert str(eq) == eq.text()


def test_integer_mode_identity_and_nonlinear_terms():
    eq = Equation("int", 1.0, (Term(0, 0.0, 0.04), Term(0, 1.65, 0.18)), "riesz")
    assert eq.text() == "u_t = 0.0400 u + 0.1800 R^1.6500 u"
    assert eq.latex() == r"\partial_t u = 0.04\,u + 0.18\,\mathcal{R}_{1.65}u"
    burgers = Equation("int", 1.0, (Term(1, 1.0, -1.0), Term(0, 1.7, 0.25)))
    assert burgers.text() == "u_t = -1.0000 u D_x^1.0000 u + 0.2500 D_x^1.7000 u"
    assert Term(1, 0.0, 1.0).text() == "u^2"  # (p, 0) is the reaction term u^{p+1}


def test_canonical_order_and_dict_round_trip():
    eq = Equation("sup", 1.65, (Term(1, 0.5, 2.0), Term(0, 2.0, 0.12), Term(0, 1.0, -1.0)))
    can = eq.canonical()
    assert [(t.power, t.order) for t in can.terms] == [(0, 1.0), (0, 2.0), (1, 0.5)]
    back = Equation.from_dict(can.to_dict())
    assert back == can
    d = can.to_dict()
    assert d["mode"] == "sup" and d["terms"][0] == {"power": 0, "order": 1.0, "coef": -1.0}
