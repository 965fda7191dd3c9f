"""``WeakPareto(method="weak_pareto_exact")``: the exact weak time derivative and noise-aware
scoring through the user API (docs/method/extensions.md#exact-weak-time-derivative)."""

from __future__ import annotations

import numpy as np

from weakpareto.benchmarks.generators import generate
from weakpareto.user.estimator import WeakPareto


def test_exact_method_recovers_a_clean_single_term_time_fractional_riesz_diffusion():
    f = generate("tf_riesz", 0)  # D_t^0.75 u = 0.3 R^1.6 u, exact per mode
    kw = dict(operator="riesz", alpha_range=(0.5, 1.1), beta_range=(0.0, 2.2), domain="periodic")
    model = WeakPareto(method="weak_pareto_exact", **kw).fit(f.u, f.t, f.x)
    eq = model.equation_
    assert len(eq.terms) == 1, eq.text()
    assert abs(eq.terms[0].order - 1.6) <= 0.01 and abs(eq.alpha - 0.75) <= 0.005
    assert abs(eq.terms[0].coef - 0.3) <= 0.01
    assert not [w for w in model.warnings_ if w.code == "method_components"]


def test_exact_method_says_where_its_components_do_not_apply():
    t = np.linspace(0.0, 1.0, 40)
    x = np.linspace(0.0, 10.0, 48)
    u = np.exp(-((x[None, :] - 5.0 - 0.5 * t[:, None]) ** 2)) + 0.2  # not periodic at the edges
    model = WeakPareto(
        method="weak_pareto_exact", domain="bounded", max_terms=1, popsize=4, maxiter=4
    ).fit(u, t, x)
    notes = [w for w in model.warnings_ if w.code == "method_components"]
    assert len(notes) == 1 and "bounded windows" in notes[0].message and notes[0].level == "info"
