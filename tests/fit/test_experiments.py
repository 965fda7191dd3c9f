"""Several experiments at the fit layer: one domain, one power mode, pooled rows."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.errors import UserInputError
from weakpareto.fit.domain import choose_common_domain, periodicity
from weakpareto.fit.run import applicable, fit, resolve_power_mode
from weakpareto.fit.sources import FEATURE_SOURCES, Experiments, FitField, build_source
from weakpareto.library.pooled import PooledSource
from weakpareto.user.estimator import WeakPareto


def _field(nt: int, nx: int, mode: int, shift: float = 1.0) -> FitField:
    t = 0.05 * np.arange(nt)
    x = np.arange(nx) * (2 * np.pi / nx)
    u = shift + np.sin(mode * x)[None] * np.exp(-0.3 * mode**1.5 * t)[:, None]
    return FitField(u, t, x, period=2 * np.pi, period_given=False)


@pytest.fixture(scope="module")
def spec():
    return WeakPareto(operator="riesz", alpha_range=(0.5, 1.5), beta_range=(0.0, 2.5)).fit_spec()


def test_experiments_build_the_named_source_of_each_and_stack_it(spec):
    fields = (_field(30, 32, 1), _field(40, 48, 2))
    name, source = build_source(Experiments(fields), spec, "periodic", "positive")
    assert name == "periodic_exact" and isinstance(source, PooledSource)
    singles = [FEATURE_SOURCES[name](f, spec, "positive") for f in fields]
    betas = np.array([0.0, 1.2])
    np.testing.assert_array_equal(
        source.columns(0, betas), np.concatenate([s.columns(0, betas) for s in singles], axis=1)
    )
    np.testing.assert_array_equal(
        source.targets(np.array([0.8]), "sub"),
        np.concatenate([s.targets(np.array([0.8]), "sub") for s in singles], axis=1),
    )


def test_one_domain_for_all_experiments():
    a, b = _field(30, 32, 1), _field(30, 32, 2)
    choice = choose_common_domain("auto", [(a.u, False), (b.u, False)], False)
    assert choice.domain == "periodic" and "all 2 experiments" in choice.reason
    window = a.u[:, 4:20]
    with pytest.raises(UserInputError, match=r"periodic: experiment\(s\) 1; bounded: exp"):
        choose_common_domain("auto", [(a.u, False), (window, False)], False)
    forced = choose_common_domain("bounded", [(a.u, False), (window, False)], False)
    assert forced.domain == "bounded" and len(forced.checks) == 1
    worst = max(periodicity(a.u).score, periodicity(window).score)
    assert forced.checks[0].score == worst  # the least periodic experiment's edges


def test_power_mode_is_positive_only_when_every_experiment_is():
    assert resolve_power_mode("auto", (np.ones((3, 3)), np.zeros((3, 3)) + 2)) == "positive"
    assert resolve_power_mode("auto", (np.ones((3, 3)), -np.ones((3, 3)))) == "raw"


def test_noise_aware_scoring_is_dropped_with_a_note_for_several_experiments():
    exact = WeakPareto(method="weak_pareto_exact").fit_spec()
    assert exact.discovery.noise_model != "none"
    one, _ = applicable(exact, False, "periodic", 1)
    assert one.discovery.noise_model == exact.discovery.noise_model
    several, notes = applicable(exact, False, "periodic", 3)
    assert several.discovery.noise_model == "none"
    assert several.feature_settings.temporal_target == "exact"
    assert any("with 3 experiments" in n.message for n in notes)


def test_methods_without_a_pooled_implementation_are_refused():
    stridge = WeakPareto(method="weak_grid_stridge").fit_spec()
    data = Experiments((_field(30, 32, 1), _field(30, 32, 2)))
    with pytest.raises(UserInputError, match="fits one experiment at a time"):
        fit(data, stridge)
