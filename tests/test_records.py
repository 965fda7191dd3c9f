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


# -- families per term -------------------------------------------------------------------------
LEVY_DRIFT = Equation(
    "int", 1.0, (Term(0, 1.0, -0.5), Term(0, 1.5, 0.3, family="riesz")), "directional"
)


def test_a_term_in_another_family_prints_its_symbol():
    assert LEVY_DRIFT.text() == "u_t = -0.5000 D_x^1.0000 u + 0.3000 R^1.5000 u"
    assert LEVY_DRIFT.latex() == r"\partial_t u = -0.50\,D_x^{1.00}u + 0.30\,\mathcal{R}_{1.50}u"
    in_riesz = Equation("int", 1.0, (Term(0, 1.0, -0.5, family="directional"),), "riesz")
    assert in_riesz.text() == "u_t = -0.5000 D_x^1.0000 u"
    right = Equation("sub", 0.8, (Term(1, 1.2, 2.0, family="directional_right"),))
    assert right.text() == "D_t^0.8000 u = 2.0000 u D_-x^1.2000 u"
    assert right.latex() == r"D_t^{0.8000}u = 2.00\,u\,D_{-x}^{1.20}u"


def test_family_round_trips_and_old_dictionaries_load():
    d = LEVY_DRIFT.to_dict()
    assert d["terms"][0] == {"power": 0, "order": 1.0, "coef": -0.5}  # no key when None
    assert d["terms"][1]["family"] == "riesz"
    assert Equation.from_dict(d) == LEVY_DRIFT
    old = {"mode": "int", "alpha": 1.0, "terms": [{"power": 0, "order": 1.7, "coef": 0.2}]}
    assert Equation.from_dict(old) == Equation("int", 1.0, (Term(0, 1.7, 0.2),))


def test_canonical_writes_a_family_only_where_it_differs():
    eq = Equation(
        "int",
        1.0,
        (
            Term(0, 1.5, 0.3, family="riesz"),
            Term(0, 1.0, -0.5, family="directional"),  # the equation's operator
            Term(0, 0.0, 0.1, family="riesz"),  # the identity of every family
        ),
    )
    can = eq.canonical()
    assert [(t.order, t.family) for t in can.terms] == [(0.0, None), (1.0, None), (1.5, "riesz")]
    assert can.text() == "u_t = 0.1000 u - 0.5000 D_x^1.0000 u + 0.3000 R^1.5000 u"
