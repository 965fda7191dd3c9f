"""``operator=auto`` at the user's door: each term's operator family chosen by the data."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.benchmarks.particles import levy_drift_case
from weakpareto.errors import UserInputError
from weakpareto.user.estimator import WeakPareto

RANGES = {"alpha_range": (0.6, 1.1), "beta_range": (0.5, 2.2)}


@functools.cache
def drift_field():
    """Exact solution of u_t = -0.5 u_x + 0.3 R^1.5 u (a Levy flight with drift), periodic."""
    cfg = levy_drift_case(1.0)  # weakpareto/data/levy_drift.json
    return generate(cfg, 0)


def test_auto_finds_each_terms_family_and_says_so_in_the_json():
    f = drift_field()
    model = WeakPareto(powers=(0,), **RANGES).fit(f.u, f.t, f.x)  # no operator: auto
    terms = sorted(model.equation_.terms, key=lambda t: t.order)
    assert [t.family_in(model.equation_.operator) for t in terms] == ["directional", "riesz"]
    np.testing.assert_allclose([t.order for t in terms], [1.0, 1.5], atol=0.02)
    np.testing.assert_allclose([t.coef for t in terms], [-0.5, 0.3], rtol=0.03)
    text = model.equation_.text()  # each term printed in its own family's symbol
    assert f"D_x^{terms[0].order:.4f} u" in text and f"R^{terms[1].order:.4f} u" in text
    payload = json.loads(model.to_json())
    assert "riesz" in json.dumps(payload)


def test_one_family_is_told_that_the_other_family_would_fit():
    f = drift_field()
    model = WeakPareto(operator="directional", powers=(0,), **RANGES).fit(f.u, f.t, f.x)
    codes = {w.code: w.message for w in model.warnings_}
    assert "operator_family" in codes and "operator=auto" in codes["operator_family"]


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"method": "weak_grid_stridge"}, "fits one family"),
        ({"uncertainty": "bootstrap"}, "resamples one operator family"),
    ],
)
def test_auto_refuses_what_it_cannot_do_in_one_line(kwargs, needle):
    f = drift_field()
    with pytest.raises(UserInputError, match=needle):
        WeakPareto(operator="auto", **RANGES, **kwargs).fit(f.u, f.t, f.x)


def test_auto_with_the_exact_method_keeps_its_noise_scoring():
    """2 % noise: the floor of the gain rule is raised from its configured 1e-8 to the noise
    share the covariance of both families' columns predicts."""
    f = drift_field()
    u = add_noise(f.u, "multiplicative", 0.02, 0)
    model = WeakPareto(method="weak_pareto_exact", operator="auto", powers=(0,), **RANGES)
    model.fit(u, f.t, f.x)
    assert not [w for w in model.warnings_ if w.code == "method_components"]
    assert model.result_.gain_floor > 1e-6, model.result_.gain_floor
    terms = sorted(model.equation_.terms, key=lambda t: t.order)
    assert [t.family_in(model.equation_.operator) for t in terms] == ["directional", "riesz"]
