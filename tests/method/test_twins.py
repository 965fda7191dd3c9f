"""Same-sign twins: one operator split into two nearby orders is merged back (ours)."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto import WeakPareto
from weakpareto.method import discovery
from weakpareto.method.discovery import Discovery
from weakpareto.numerics.mittag_leffler import mittag_leffler

NX, NT, T_END = 64, 70, 2.0
ALPHA, TERMS = 0.8, ((1.0, -1.0), (1.7, 0.5))


def _fade_type() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact per-mode Mittag-Leffler solution of D_t^0.8 u = -D_x^1 u + 0.5 D_x^1.7 u
    (directional symbols (ik)^beta) from a Gaussian pulse: no discretisation of the method's."""
    x = 2 * np.pi * np.arange(NX) / NX
    k = np.fft.fftfreq(NX, 1.0 / NX)
    t = np.linspace(0.0, T_END, NT)
    lam = sum(c * (1j * k) ** b for b, c in TERMS)
    u0 = np.exp(-((x - 2 * np.pi / 3) ** 2) / (2 * (np.pi / 6) ** 2))
    spec = mittag_leffler(np.multiply.outer(t**ALPHA, lam), ALPHA, 1.0) * np.fft.fft(u0)
    return np.real(np.fft.ifft(spec, axis=-1)), t, x


def _fit() -> WeakPareto:
    u, t, x = _fade_type()
    model = WeakPareto(
        method="weak_pareto_exact",
        operator="directional",
        alpha_range=(0.6, 1.05),
        beta_range=(0.5, 2.0),
        powers=(0,),
        max_terms=3,
    )
    return model.fit(u, t, x)


def test_exact_method_merges_a_split_operator_on_clean_data():
    eq = _fit().equation_
    assert [round(t.order, 1) for t in eq.terms] == [1.0, 1.7]
    assert abs(eq.alpha - ALPHA) < 0.001
    for term, (order, coef) in zip(eq.terms, TERMS):
        assert abs(term.order - order) < 0.005 and abs(term.coef / coef - 1.0) < 0.01


def test_without_the_merge_the_same_fit_splits_the_order_1_7_term(monkeypatch):
    """The rule is what removes the split: without it the clean fit at the configured ridge
    keeps 0.246 D^1.695 + 0.252 D^1.707 (E_fit 7.3e-5 against 1.2e-4 merged — fitting
    precision, not physics). The ridge is held at its configured value: at the clean-data
    ridge this field does not split, so it would not exercise the rule."""
    monkeypatch.setattr(Discovery, "merge_twin", lambda self, *a: None)
    monkeypatch.setattr(discovery, "noise_ridge", lambda configured, share: configured)
    eq = _fit().equation_
    orders = sorted(t.order for t in eq.terms)
    assert len(orders) == 3 and orders[2] - orders[1] < 0.05
    assert np.prod([t.coef for t in eq.terms if t.order > 1.5]) > 0  # same sign
    assert sum(t.coef for t in eq.terms if t.order > 1.5) == pytest.approx(0.5, rel=0.02)
