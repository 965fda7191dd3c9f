"""The skewness of a fitted skewed fractional dispersion, in the report of a fit (ours).

A pair ``a D_+^beta u + b D_-^beta u`` of one power at one order (the same-order tie rule of
:mod:`weakpareto.method.skew`) is ``K [(1+s)/2 D_+^beta + (1-s)/2 D_-^beta] u`` with
``K = a + b`` and ``s = (a - b)/(a + b)``. The equation keeps its two terms; the report adds
these derived numbers (a ``skewed`` list in the JSON, one line in the printed summary).
"""

from __future__ import annotations

from typing import Any

from weakpareto.method.skew import skewed_pairs
from weakpareto.records import Equation, format_coef


def skewed_entries(eq: Equation) -> dict[str, list[dict[str, Any]]]:
    """``{"skewed": [{power, order, K, s, coef_directional, coef_directional_right}, ...]}``,
    one entry per pair; ``{}`` without a pair (the JSON of the fit is then unchanged)."""
    pairs = [p.to_dict() for p in skewed_pairs(eq)]
    return {"skewed": pairs} if pairs else {}


def skewed_lines(eq: Equation, sig_digits: int | None = None) -> list[str]:
    """``  skewed: K = .., s = .., beta = ..`` per pair, for the printed summary."""
    out = []
    for p in skewed_pairs(eq):
        power = "" if p.power == 0 else f" (power {p.power})"
        out.append(
            f"  skewed{power}: K [(1+s)/2 D_x^b + (1-s)/2 D_-x^b] u with "
            f"K = {format_coef(p.K, sig_digits)}, s = {p.skewness:.4f}, b = {p.order:.4f}"
        )
    return out
