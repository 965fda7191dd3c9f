"""The one table of setting rules (fit/rules.py): both doors refuse and accept the same values."""

from __future__ import annotations

import pytest

from weakpareto.campaign import schema
from weakpareto.errors import UserInputError
from weakpareto.fit.names import PARAMETERS
from weakpareto.fit.rules import ENUMS, RANGES, choices_of, range_of, table_key
from weakpareto.user.validation import check_setting

NUMERIC = ("max_terms", "popsize", "maxiter", "ridge", "margin", "seed")
CHOICES = ("updating", "selection", "domain", "test_functions")


def test_every_door_name_with_a_rule_reaches_a_run_key_of_the_table():
    keys = {name: table_key(name) for name in (*PARAMETERS, "seed", "selection", "domain")}
    assert keys["max_terms"] == "search.c_max"
    assert keys["test_functions"] == "benchmark.library.spatial_tests"
    assert keys["selection"] == "selection.rule"
    for name in (*NUMERIC, *CHOICES):
        assert keys[name] in RANGES or keys[name] in ENUMS, name
    assert table_key("not_a_setting") is None


def _outside(name: str) -> list[float]:
    rule = range_of(name)
    out = []
    if rule.lo is not None:
        out.append(rule.lo - 1)
    if rule.hi is not None:
        out.append(rule.hi + 1)
    return out


@pytest.mark.parametrize("name", NUMERIC)
def test_a_value_outside_the_range_is_refused_at_both_doors(name):
    key = table_key(name)
    assert key is not None
    rule = range_of(name)
    inside = rule.example()
    check_setting(name, inside)
    schema.check_value(key, inside, inside)
    for value in _outside(name):
        value = int(value) if rule.integer else value
        with pytest.raises(UserInputError, match=name):
            check_setting(name, value)
        with pytest.raises(UserInputError, match=key.replace(".", r"\.")):
            schema.check_value(key, value, inside)


@pytest.mark.parametrize("name", CHOICES)
def test_both_doors_accept_exactly_the_same_values(name):
    key = table_key(name)
    assert key is not None
    for value in choices_of(name):
        check_setting(name, value)
        schema.check_value(key, value, value)
    default = choices_of(name)[0]
    with pytest.raises(UserInputError, match=name):
        check_setting(name, "no_such_value")
    with pytest.raises(UserInputError):
        schema.check_value(key, "no_such_value", default)
