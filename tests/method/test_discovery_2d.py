"""2-D directional discovery driver (paper Sec. subsec:twod): relabelling and input checks."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.library.weak_2d import DIRECTIONS, weak_library_2d
from weakpareto.method.discovery_2d import directional_equation, discover_2d
from weakpareto.method.settings import DiscoveryConfig
from weakpareto.records import Equation, Term


def test_directional_equation_relabels_powers_as_directions():
    enc = Equation("sub", 0.85, (Term(1, 1.4, 0.2), Term(0, 1.7, 0.3), Term(0, 1.0, -0.6)))
    eq = directional_equation(enc)
    assert [(t.power, t.direction, t.order) for t in eq.terms] == [
        (0, "x", 1.0),
        (0, "x", 1.7),
        (0, "y", 1.4),
    ]
    assert eq.text() == (
        "D_t^0.8500 u = -0.6000 D_x^1.0000 u + 0.3000 D_x^1.7000 u + 0.2000 D_y^1.4000 u"
    )
    assert DIRECTIONS == ("x", "y")


def test_discover_2d_rejects_nonlinear_powers():
    rng = np.random.default_rng(3)
    t, x, y = np.arange(12) * 0.1, np.arange(10) * 0.3, np.arange(9) * 0.4
    u = rng.standard_normal((12, 10, 9))
    lib = weak_library_2d(u, t, x, y, test_counts=(6, 6, 6))
    cfg = DiscoveryConfig(alpha_range=(0.55, 1.25), beta_range=(0.5, 2.5), powers=(0, 1))
    with pytest.raises(ValueError, match="linear terms only"):
        discover_2d(lib, cfg)
