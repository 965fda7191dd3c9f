"""noise_kind="intrinsic": orders corrected for fluctuations that obey the dynamics
(fit/intrinsic.py), on particle densities the method's discretisations did not make."""

from __future__ import annotations

import pytest

from weakpareto.errors import UserInputError
from weakpareto.user.estimator import WeakPareto

SETTINGS = {"operator": "riesz", "alpha_range": (0.2, 1.9), "beta_range": (0.0, 3.2)}


def test_brownian_particles_recover_the_diffusion_equation_the_plain_fit_misses(brownian_density):
    """N = 1e5, seed 0, method=weak_pareto_robust: the plain weak fit adds a growing R^3.2 term
    beside R^2.27 (the counting noise read as modes without dynamics); the corrected fit keeps
    one term near order 2. (refit=auto, the default, refits frame to frame here:
    tests/fit/test_markov_refit.py.)"""
    u, t, x = brownian_density(100_000, 0)
    robust = {**SETTINGS, "method": "weak_pareto_robust"}
    plain_fit = WeakPareto(refit="weak", **robust).fit(u, t, x)
    assert len(plain_fit.equation_.terms) == 2
    model = WeakPareto(noise_kind="intrinsic", **robust).fit(u, t, x)
    eq = model.equation_
    assert eq.mode == "int" and len(eq.terms) == 1
    assert abs(eq.terms[0].order - 2.0) < 0.05 and abs(eq.terms[0].coef / 0.3 - 1) < 0.02
    note = [w for w in model.warnings_ if w.code == "intrinsic_noise"]
    assert note and note[0].level == "info" and "1 term(s) removed" in note[0].message
    # the counting noise is still flagged, but the advice no longer asks for what was done
    (flag,) = [w for w in model.warnings_ if w.code == "correlated_noise"]
    assert "refit with noise_kind=intrinsic" not in flag.message
    assert "noise_kind=intrinsic corrected the final fit" in flag.message
    (plain_flag,) = [w for w in plain_fit.warnings_ if w.code == "correlated_noise"]
    assert "refit with noise_kind=intrinsic" in plain_flag.message
    again = WeakPareto.from_json(model.to_json())
    assert again.noise_kind == "intrinsic" and again.equation_ == eq


def test_a_fractional_time_order_is_left_alone_with_a_warning(brownian_density):
    u, t, x = brownian_density(20_000, 1)
    model = WeakPareto(noise_kind="intrinsic", alpha_range=(0.5, 0.9), operator="riesz")
    model.fit(u, t, x)
    (w,) = [w for w in model.warnings_ if w.code == "intrinsic_noise"]
    assert w.level == "warning" and "alpha" in w.message


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"noise_kind": "counting"}, "noise_kind='counting' is not one of"),
        ({"noise_kind": "intrinsic", "uncertainty": "bootstrap"}, "not implemented"),
        ({"noise_kind": "intrinsic", "operator": "auto"}, "one operator family"),
        ({"noise_kind": "intrinsic", "method": "weak_grid_stridge"}, "weak Pareto"),
    ],
)
def test_refusals_are_one_line(params, match, brownian_density):
    u, t, x = brownian_density(2_000, 0)
    with pytest.raises(UserInputError, match=match) as info:
        WeakPareto(**{**SETTINGS, **params}).fit(u, t, x)
    assert "\n" not in str(info.value)
