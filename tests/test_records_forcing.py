"""Forcing terms in the records: text, LaTeX, canonical order and the JSON dictionary."""

from weakpareto.records import Equation, Term


def test_forcing_term_prints_its_name_and_sorts_last():
    eq = Equation(
        "sub",
        0.8,
        (Term(0, 0.0, 0.25, forcing="src_a", fixed=True), Term(0, 1.5, -0.3), Term(0, 0.0, 0.1)),
        "riesz",
    ).canonical()
    assert eq.text() == "D_t^0.8000 u = 0.1000 u - 0.3000 R^1.5000 u + 0.2500 src_a"
    assert eq.latex().endswith(r"+ 0.25\,\mathrm{src\_a}")


def test_forcing_fields_round_trip_and_unforced_dicts_unchanged():
    plain = Equation("int", 1.0, (Term(0, 1.5, 0.3),), "riesz")
    assert plain.to_dict()["terms"] == [{"power": 0, "order": 1.5, "coef": 0.3}]
    forced = Equation("int", 1.0, (Term(0, 1.5, 0.3), Term(0, 0.0, 0.5, forcing="f")), "riesz")
    terms = forced.to_dict()["terms"]
    assert terms[1] == {"power": 0, "order": 0.0, "coef": 0.5, "forcing": "f", "fixed": False}
    assert Equation.from_dict(forced.to_dict()) == forced
    assert Equation.from_dict(plain.to_dict()) == plain
