"""The same-order tie rule of skewed fractional dispersion (method/skew.py): pairs, K and s,
the tied structures it tries, and (slow) recovery of a skewed FADE with its skewness."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.particles import levy_drift_case
from weakpareto.library.families import family_library
from weakpareto.method.discovery_families import discover_families
from weakpareto.method.settings import DiscoveryConfig, named_settings
from weakpareto.method.skew import Model, _tied, pair_candidates, skewed_pairs
from weakpareto.records import FAMILIES, Equation, Term

KAPPA = np.arange(-12, 13, dtype=float)


def _skewed_field(a: float, b: float):
    """Exact field of u_t = -0.5 u_x + a D_+^1.5 u + b D_-^1.5 u on the Lévy-drift grid."""
    cfg = levy_drift_case(1.0)
    cfg["truth"]["terms"] = [
        {"power": 0, "order": 1.0, "coef": -0.5},
        {"power": 0, "order": 1.5, "coef": a},
        {"power": 0, "order": 1.5, "coef": b, "family": "directional_right"},
    ]
    return generate(cfg, 0)


def _symbol(eq: Equation) -> np.ndarray:
    """The Fourier symbol of the equation's linear terms, written out per family."""
    out = np.zeros(KAPPA.size, dtype=complex)
    for t in eq.terms:
        fam = t.family_in(eq.operator)
        z = {"directional": 1j * KAPPA, "directional_right": -1j * KAPPA}.get(fam)
        out += t.coef * (z**t.order if z is not None else -(np.abs(KAPPA) ** t.order))
    return out


def test_a_same_order_pair_is_k_and_s():
    eq = Equation("int", 1.0, (Term(0, 1.0, -0.5), Term(0, 1.5, 0.225),
                               Term(0, 1.5, 0.075, family="directional_right")))  # fmt: skip
    (pair,) = skewed_pairs(eq)
    assert (pair.power, pair.order) == (0, 1.5)
    assert pair.K == pytest.approx(0.3) and pair.skewness == pytest.approx(0.5)
    assert pair.to_dict()["s"] == pytest.approx(0.5)
    apart = Equation(
        "int", 1.0, (Term(0, 1.5, 0.2), Term(0, 1.51, 0.1, family="directional_right"))
    )
    assert skewed_pairs(apart) == []  # only a tied (same-order) pair is a skewed operator


@pytest.mark.parametrize(
    "terms",
    [
        (Term(0, 1.5, -0.15), Term(0, 1.5, 0.3182, family="riesz")),
        (Term(0, 1.3, 0.2, family="riesz"), Term(0, 1.3, -0.05, family="directional_right")),
        (Term(0, 0.7, -0.4), Term(0, 0.7, 0.1, family="riesz")),
    ],
)
def test_any_two_families_at_one_order_are_one_skewed_operator(terms):
    """D_+ with R, or R with D_-, at one order is reported as the pair a D_+ + b D_- whose
    symbol a (i k)^b + b (-i k)^b equals the pair's own symbol at every wavenumber."""
    eq = Equation("int", 1.0, terms)
    (pair,) = skewed_pairs(eq)
    one_sided = Equation("int", 1.0, (
        Term(0, pair.order, pair.coef_left),
        Term(0, pair.order, pair.coef_right, family="directional_right")))  # fmt: skip
    np.testing.assert_allclose(_symbol(one_sided), _symbol(eq), atol=1e-12, rtol=1e-12)


def test_at_an_odd_integer_order_riesz_is_no_one_sided_combination():
    """cos(pi/2) = 0: D_+^1 + D_-^1 = 0, so R^1 (= -|k|) is not in their span."""
    eq = Equation("int", 1.0, (Term(0, 1.0, -0.5), Term(0, 1.0, 0.2, family="riesz")))
    assert skewed_pairs(eq) == []


def test_with_directional_and_riesz_only_a_tie_keeps_the_pair_in_its_families():
    # kinds with families (D, R): 0 = (0, D), 1 = (0, R)
    m = Model("int", 1.0, (0, 0, 1), (0, 1, 2), (1.0, 1.49, 1.51))
    assert pair_candidates(m, ("directional", "riesz")) == [(0, 2), (1, 2)]
    tied = _tied(m, 1, 2, ("directional", "riesz"))
    assert tied.kinds == (0, 0, 1) and tied.slots == (0, 1, 1)
    np.testing.assert_allclose(tied.betas(), [1.0, 1.5, 1.5])


def test_the_users_door_gives_a_skewed_dispersion_as_one_operator():
    """u_t = -0.5 u_x + 0.3 [0.25 D_+^1.5 + 0.75 D_-^1.5] u (exact), ``WeakPareto(operator=
    "auto")`` with its default method (directional and Riesz searched): without the tie the fit
    was -0.1503 D_x^1.4986 u + 0.3181 R^1.4996 u (one operator split over two orders, no K, s);
    tied, the pair is one order with K and s. Measured: beta 1.4998, K 0.3003, s -0.4991."""
    from weakpareto import WeakPareto

    field = _skewed_field(0.075, 0.225)
    model = WeakPareto(operator="auto", alpha_range=(0.6, 1.1), beta_range=(0.5, 2.2))
    eq = model.fit(field.u, field.t, field.x).equation_
    (pair,) = skewed_pairs(eq)
    assert abs(pair.order - 1.5) <= 0.005 and abs(pair.skewness + 0.5) <= 0.01
    assert abs(pair.K / 0.3 - 1.0) <= 0.01
    (advection,) = [t for t in eq.terms if abs(t.order - 1.0) <= 0.005]
    assert abs(advection.coef + 0.5) <= 0.005 and len(eq.terms) == 3, eq.text()


def test_tied_structures_share_one_order_and_are_written_as_one_sided_pairs():
    # kinds with families (D, R, D-): 0 = (0, D), 1 = (0, R), 2 = (0, D-)
    m = Model("int", 1.0, (2, 1, 0), (0, 1, 2), (0.94, 1.28, 1.68))
    assert pair_candidates(m, FAMILIES) == [(0, 1), (0, 2), (1, 2)]
    tied = _tied(m, 1, 2, FAMILIES)
    assert tied.kinds == (2, 0, 2) and tied.slots == (0, 1, 1)
    np.testing.assert_allclose(tied.betas(), [0.94, 1.48, 1.48])
    smaller = tied.without(0)
    assert smaller.slots == (0, 0) and smaller.orders == (1.48,)
    same = Model("int", 1.0, (0, 0), (0, 1), (1.0, 1.5))
    assert pair_candidates(same, FAMILIES) == []  # one family twice is never a skewed pair


def _robust() -> DiscoveryConfig:
    search, selection, refine = named_settings("weak_pareto_robust", "gain")
    return DiscoveryConfig(
        (0.6, 1.1), (0.5, 2.2), powers=(0, 1, 2), search=search, selection=selection, refine=refine
    )


@pytest.mark.slow
def test_skewed_dispersion_is_recovered_with_its_skewness():
    """u_t = -0.5 u_x + 0.3 [0.75 D_+^1.5 + 0.25 D_-^1.5] u, exact, all three families: the
    search alone splits the skewed operator over distant orders (R^1.28 + D_x^1.68); the tie
    rule gives the pair at one order. Measured: beta 1.4939, K 0.3084, s 0.471."""
    field = _skewed_field(0.225, 0.075)
    result = discover_families(family_library(field.u, field.t, field.x, FAMILIES), _robust())
    (pair,) = skewed_pairs(result.final)
    assert abs(pair.order - 1.5) <= 0.02 and abs(pair.skewness - 0.5) <= 0.05
    assert abs(pair.K / 0.3 - 1.0) <= 0.05
    advection = [t for t in result.final.terms if abs(t.order - 1.0) <= 0.02]
    assert len(advection) == 1 and len(result.final.terms) == 3, result.final.text()
