"""Exact tempered solutions of the Mittag-Leffler generator (benchmarks/generators.py)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from weakpareto.benchmarks.generators import generate
from weakpareto.numerics.mittag_leffler import mittag_leffler
from weakpareto.numerics.tempered import tempered_riesz_multiplier

L = 2.0 * np.pi
CFG = {
    "name": "tempered_test",
    "generator": {
        "kind": "mittag_leffler",
        "tempering": 1.0,
        "ic": {"harmonics": [{"fn": "sin", "m": 1, "amp": 1.0}, {"fn": "cos", "m": 3, "amp": 0.5}]},
    },
    "grid": {"nt": 20, "nx": 32, "T": 1.0, "L": L, "t_endpoint": True},
    "truth": {
        "mode": "sub",
        "alpha": 0.8,
        "operator": "tempered_riesz",
        "terms": [{"power": 0, "order": 1.5, "coef": 0.3}],
    },
}


def test_each_mode_decays_by_its_tempered_symbol() -> None:
    """u = sum_m a_m E_{0.8}(0.3 s(m) t^0.8) e_m(x): the two harmonics, exactly."""
    f = generate(CFG)
    s = 0.3 * tempered_riesz_multiplier(np.array([1.0, 3.0]), 1.5, 1.0)
    e = [mittag_leffler(s[i] * f.t**0.8, 0.8, 1.0).real for i in range(2)]
    want = np.outer(e[0], np.sin(f.x)) + 0.5 * np.outer(e[1], np.cos(3 * f.x))
    np.testing.assert_allclose(f.u, want, atol=1e-10)


def test_left_family_advects_and_lambda_is_required() -> None:
    cfg = copy.deepcopy(CFG)
    cfg["truth"]["operator"] = "tempered"
    cfg["truth"]["mode"], cfg["truth"]["alpha"] = "int", 1.0
    u = generate(cfg).u
    assert np.isfinite(u).all() and abs(u.sum(axis=1) - u[0].sum()).max() < 1e-10  # mass kept
    del cfg["generator"]["tempering"]
    with pytest.raises(ValueError, match="generator.tempering"):
        generate(cfg)
