"""Discovery over several operator families: the relabelling, the single-family identity and
recovery of advection with Riesz dispersion, which no single family holds."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np
import pytest

from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.benchmarks.particles import levy_drift_case
from weakpareto.library.families import FamilyLibrary, family_library
from weakpareto.library.weak import weak_library
from weakpareto.method.discovery import Discovery, discover
from weakpareto.method.discovery_families import (
    discover_families,
    equation_operator,
    family_equation,
)
from weakpareto.method.settings import DiscoveryConfig, SearchSettings, named_settings
from weakpareto.records import DiscoveryResult, Equation, Family, Term

FAST = dict(popsize=5, maxiter=10, updating="deferred", vectorized=True)
BOTH: tuple[Family, ...] = ("directional", "riesz")


def _same(a: DiscoveryResult, b: DiscoveryResult) -> None:
    """Every field but the timings, exactly."""
    assert a.front == b.front and a.pareto == b.pareto
    assert a.selected == b.selected and a.final == b.final
    assert (a.selected_size, a.fit_error, a.gain_floor) == (
        b.selected_size,
        b.fit_error,
        b.gain_floor,
    )


# -- relabelling --------------------------------------------------------------------------------
def test_family_equation_decodes_kinds_and_merges_one_operator_from_two_kinds():
    # kinds of (directional, riesz): 0 = (0, D), 1 = (0, R), 2 = (1, D), 3 = (1, R)
    encoded = Equation(
        "int",
        1.0,
        (
            Term(0, 1.0, -0.5),
            Term(1, 1.5, 0.3),
            Term(0, 2.0, 0.04),
            Term(1, 2.0, 0.06),  # R^2 = D^2: merged with the term above
            Term(3, 0.0, 0.2),  # u^2 (the identity of every family)
        ),
    )
    eq = family_equation(encoded, BOTH)
    assert eq.operator == "directional"
    assert eq.text() == (
        "u_t = -0.5000 D_x^1.0000 u + 0.3000 R^1.5000 u + 0.1000 D_x^2.0000 u + 0.2000 u^2"
    )
    # one kind twice is the search's own business (its duplicate penalty), never merged here
    twice = Equation("int", 1.0, (Term(1, 0.0, 0.1), Term(1, 0.0, 0.2)))
    assert len(family_equation(twice, BOTH).terms) == 2


def test_right_directional_terms_at_integer_orders_are_written_as_directional():
    fams = ("directional", "directional_right")
    encoded = Equation("sub", 0.8, (Term(1, 1.0, 0.5), Term(1, 1.3, 0.2)))
    eq = family_equation(encoded, fams)
    assert eq.text() == "D_t^0.8000 u = -0.5000 D_x^1.0000 u + 0.2000 D_-x^1.3000 u"
    assert equation_operator(("directional_right",)) == "directional"
    assert equation_operator(("riesz", "directional_right")) == "riesz"


# -- one family is today's run ------------------------------------------------------------------
@pytest.fixture(scope="module")
def fade_families(noisy_fade):
    u, t, x = noisy_fade
    return family_library(u, t, x, BOTH, power_mode="positive"), (u, t, x)


@pytest.mark.parametrize("family", BOTH)
def test_one_family_is_bit_identical_to_todays_run(fade_families, family):
    source, (u, t, x) = fade_families
    cfg = DiscoveryConfig((0.6, 1.05), (0.5, 2.0), seed=0, search=SearchSettings(**FAST))
    today = discover(
        weak_library(u, t, x, operator=family, power_mode="positive"),
        dataclasses.replace(cfg, operator=family),
    )
    _same(discover_families(source, cfg, (family,)), today)
    # the one-family library itself encodes kinds as powers: the same run through it
    one = source.restrict((family,))
    _same(Discovery(one, dataclasses.replace(cfg, operator=family)).run(), today)


def test_refusals(fade_families):
    source, _ = fade_families
    cfg = DiscoveryConfig((0.6, 1.05), (0.5, 2.0))
    with pytest.raises(ValueError, match="not in this library"):
        discover_families(source, cfg, ("directional_right",))


def test_noise_aware_scoring_over_both_families_matches_the_one_family_run(fade_families):
    """FADE at 10 % noise: with the noise covariance of every family's linear column removed,
    the two-family search finds the one-family noise-aware run's equation (all terms
    directional) with the same noise floor."""
    source, (u, t, x) = fade_families
    cfg = DiscoveryConfig(
        (0.6, 1.05), (0.5, 2.0), seed=0, search=SearchSettings(**FAST), noise_model="auto"
    )
    both = discover_families(source, cfg)
    alone = discover(
        weak_library(u, t, x, operator="directional", power_mode="positive"),
        dataclasses.replace(cfg, operator="directional"),
    )
    assert both.final.text() == alone.final.text()
    assert both.gain_floor == pytest.approx(alone.gain_floor, rel=1e-12)


# -- advection + Riesz dispersion: exact per-mode solution ----------------------------------------
def levy_drift_config(alpha: float) -> dict[str, Any]:
    """D_t^alpha u = -0.5 u_x + 0.3 R^1.5 u on [0, 2 pi): u_hat(k, t) = u_hat(k, 0)
    E_{alpha,1}(lambda_k t^alpha), lambda_k = -0.5 i k - 0.3 |k|^1.5 (the exponential at 1);
    the shared config of weakpareto/data/levy_drift.json."""
    return levy_drift_case(alpha)


@functools.cache
def levy_drift_source(alpha: float, noise: float) -> FamilyLibrary:
    field = generate(levy_drift_config(alpha), 0)
    u = add_noise(field.u, "multiplicative", noise, 0) if noise > 0 else field.u
    return family_library(u, field.t, field.x, BOTH)


@functools.cache
def levy_drift_fit(alpha: float, noise: float, families: tuple[Family, ...]) -> DiscoveryResult:
    return discover_families(levy_drift_source(alpha, noise), _robust(), families)


def _robust() -> DiscoveryConfig:
    search, selection, refine = named_settings("weak_pareto_robust", "gain")
    return DiscoveryConfig(
        (0.6, 1.1), (0.5, 2.2), powers=(0, 1, 2), search=search, selection=selection, refine=refine
    )


def test_generator_solves_the_mixed_family_equation_per_mode():
    field = generate(levy_drift_config(1.0), 0)
    k = 2 * np.pi * np.fft.fftfreq(field.x.size, d=field.x[1] - field.x[0])
    lam = -0.5j * k - 0.3 * np.abs(k) ** 1.5
    expected = np.real(np.fft.ifft(np.fft.fft(field.u[0]) * np.exp(lam * field.t[-1])))
    np.testing.assert_allclose(field.u[-1], expected, atol=1e-12)


@pytest.mark.parametrize(
    "alpha, noise",
    [
        (1.0, 0.0),
        pytest.param(1.0, 0.01, marks=pytest.mark.slow),  # the two corners run by default
        pytest.param(0.8, 0.0, marks=pytest.mark.slow),
        (0.8, 0.01),
    ],
)
def test_advection_with_riesz_dispersion_is_recovered_term_by_term(alpha, noise):
    result = levy_drift_fit(alpha, noise, BOTH)
    labelled = [fp.equation for fp in result.front] + [result.selected, result.final]
    assert all(t.power in (0, 1, 2) for e in labelled for t in e.terms)  # kinds decoded
    eq = result.final
    assert eq.mode == ("int" if alpha == 1.0 else "sub") and abs(eq.alpha - alpha) <= 0.02
    assert [(t.power, t.family_in(eq.operator)) for t in eq.terms] == [
        (0, "directional"),
        (0, "riesz"),
    ], eq.text()
    for term, (order, coef) in zip(eq.terms, ((1.0, -0.5), (1.5, 0.3))):
        assert abs(term.order - order) <= 0.02, eq.text()
        assert abs(term.coef / coef - 1.0) <= 0.03, eq.text()


def test_no_single_family_holds_it():
    both = levy_drift_fit(1.0, 0.0, BOTH)
    for family in BOTH:
        alone = levy_drift_fit(1.0, 0.0, (family,))
        assert alone.fit_error > 100 * both.fit_error, alone.final.text()
