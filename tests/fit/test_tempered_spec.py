"""operator= and tempering= of a FitSpec (fit/spec.py) for the tempered families."""

from __future__ import annotations

import pytest

from weakpareto.errors import UserInputError
from weakpareto.fit.spec import groups_of_params, spec_from_groups


def _spec(**params):
    base = {"method": "weak_pareto_robust", "alpha_range": (0.5, 1.5), "beta_range": (0.5, 2.0)}
    base["powers"] = (0, 1)
    base.update(params)
    return spec_from_groups(groups_of_params(base), 0)


def test_tempered_operators_are_family_searches() -> None:
    spec = _spec(operator="tempered_riesz", tempering=1.0)
    assert spec.families == ("tempered_riesz",) and spec.tempered and spec.tempering == 1.0
    joined = _spec(operator="directional+tempered_riesz")
    assert joined.families == ("directional", "tempered_riesz") and joined.tempering is None
    plain = _spec(operator="riesz")
    assert plain.families == () and not plain.tempered and plain.tempering is None
    assert _spec(operator="auto").families == ("directional", "riesz")


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"operator": "riesz", "tempering": 1.0}, "applies to the tempered"),
        ({"operator": "tempered", "beta_range": (0.5, 2.0)}, "straddles 1"),
        ({"operator": "tempered_riesz", "beta_range": (0.5, 2.5)}, "up to 2"),
        ({"operator": "tempered_riesz", "tempering": -1.0}, "> 0"),
        ({"operator": "riesz+bogus"}, "join distinct families"),
    ],
)
def test_refusals(params, match) -> None:
    with pytest.raises(UserInputError, match=match):
        _spec(**params)


def test_one_sided_ranges_are_accepted() -> None:
    assert _spec(operator="tempered", beta_range=(0.0, 1.0)).tempered
    assert _spec(operator="tempered", beta_range=(1.05, 2.0), tempering=2.0).tempering == 2.0
