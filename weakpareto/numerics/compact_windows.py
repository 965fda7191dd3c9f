"""Compactly supported spatial test functions for bounded (non-periodic) windows.

A bounded window ``[a, b]`` carries no periodicity, so every spatial test function must vanish,
with enough derivatives, before either edge: then integration by parts moves an integer-order
derivative onto the test exactly, with no boundary terms,

    <d^n u / dx^n, psi> = (-1)^n <u, psi^(n)>,

and a fractional Riemann–Liouville derivative with terminal ``a`` (left) or ``b`` (right) moves
onto the test as the opposite-sided derivative, ``<D_a^beta u, psi> = <u, D_b^beta psi>``
(the right derivative of a test that vanishes near ``b`` equals its Liouville derivative, so no
terminal value of ``u`` enters).

The family is the polynomial bump ``psi(x) = (1 - s^2)^q`` on ``|s| < 1``, ``s = (x - c)/r``
(C^(q-1) at the ends of its support), with ``q`` chosen from the highest order searched
(:func:`bump_degree`). Integer derivatives are exact polynomial derivatives. Fractional
derivatives are evaluated on a grid ``M`` times finer than the data grid by the second-order
weighted-shifted Grünwald formula (shifts 1 and 0, weights ``beta/2`` and ``1 - beta/2``) and
one Richardson step between ``M`` and ``2M`` (third order); for a test of radius ``r`` sampled
on the data grid this is accurate to about ``(dx / (M r))^3`` relative (tested against closed
forms in ``tests/numerics/test_compact_windows.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.polynomial import polynomial as P
from scipy import fft as sp_fft

from weakpareto._typing import FloatArray
from weakpareto.numerics.operators import grunwald_letnikov_weights
from weakpareto.numerics.windows import ROW_NORM_EPS

#: An order within this distance of an integer is that integer (exact derivative).
INTEGER_TOL = 1e-9
#: Refinement of the fine grid of the fractional evaluation (and twice it, for Richardson).
FINE_FACTOR = 8
#: Orders evaluated together on the fine grid (memory ~ chunk x K x 32 nx x 16 bytes).
ORDER_CHUNK = 4
#: Smallest bump exponent (the periodic bumps of docs/method/test-functions.md#compact-bumps use 6).
MIN_DEGREE = 6
#: Extra smoothness beyond the highest searched order (3 for the Richardson-extrapolated
#: weighted-shifted Grünwald expansion, 1 for the exact integer derivative at the top order).
EXTRA_DEGREE = 4


def bump_degree(beta_max: float) -> int:
    """Bump exponent ``q = max(6, ceil(beta_max) + 4)``: C^(q-1) covers the top order searched
    plus the three further derivatives the fractional expansion needs."""
    return max(MIN_DEGREE, int(math.ceil(float(beta_max) - INTEGER_TOL)) + EXTRA_DEGREE)


def nearest_integer(beta: float) -> int | None:
    """``n`` when ``|beta - n| <= INTEGER_TOL``, else None."""
    n = int(round(float(beta)))
    return n if abs(float(beta) - n) <= INTEGER_TOL else None


def _bump_poly(q: int) -> FloatArray:
    """Coefficients (ascending) of ``(1 - s^2)^q``."""
    return np.asarray(P.polypow(np.array([1.0, 0.0, -1.0]), q), dtype=float)


@dataclass(frozen=True)
class CompactTests:
    """``K`` bumps ``(1 - s^2)^q``, ``s = (x - centres_l)/radius``, each scaled by ``scale_l``
    (the l2 normalisation of its samples on the data grid, as for the periodic rows)."""

    centres: FloatArray
    radius: float
    degree: int
    scale: FloatArray

    @property
    def count(self) -> int:
        return int(self.centres.size)

    def derivative(self, x: FloatArray, n: int = 0) -> FloatArray:
        """Exact ``d^n psi_l / dx^n`` at ``x``: ``(K, len(x))``."""
        x = np.asarray(x, dtype=float)
        s = (x[None, :] - self.centres[:, None]) / self.radius
        coef = P.polyder(_bump_poly(self.degree), n) if n > 0 else _bump_poly(self.degree)
        vals = P.polyval(np.clip(s, -1.0, 1.0), coef) * self.radius ** (-float(n))
        vals = np.where(np.abs(s) < 1.0, vals, 0.0)
        return np.asarray(vals * self.scale[:, None], dtype=float)

    def values(self, x: FloatArray) -> FloatArray:
        return self.derivative(x, 0)

    def fractional(self, x: FloatArray, betas: FloatArray, side: str) -> FloatArray:
        """Riemann–Liouville ``D^beta psi_l`` of side ``"right"`` (terminal beyond the support on
        the right) or ``"left"``, at grid ``x`` for every order: ``(G, K, len(x))``.

        Integer orders are exact: right ``(-1)^n psi^(n)``, left ``psi^(n)``; order 0 is psi.
        """
        x = np.asarray(x, dtype=float)
        betas = np.atleast_1d(np.asarray(betas, dtype=float))
        out = np.empty((betas.size, self.count, x.size))
        frac = []
        for g, b in enumerate(betas):
            n = nearest_integer(b)
            if n is None:
                frac.append(g)
                continue
            sign = (-1.0) ** n if side == "right" else 1.0
            out[g] = sign * self.derivative(x, n)
        for start in range(0, len(frac), ORDER_CHUNK):  # bounded memory: chunks of orders
            idx = np.array(frac[start : start + ORDER_CHUNK])
            f1 = _fine_wsgd(self, x, betas[idx], side, FINE_FACTOR)
            f2 = _fine_wsgd(self, x, betas[idx], side, 2 * FINE_FACTOR)
            out[idx] = (4.0 * f2 - f1) / 3.0
        return out


def _fine_wsgd(
    tests: CompactTests, x: FloatArray, betas: FloatArray, side: str, m: int
) -> FloatArray:
    """Weighted-shifted Grünwald ``D^beta psi`` on a grid ``m`` times finer, sampled at ``x``.

    Right side: ``D_h psi(x) = h^-beta sum_k g_k [beta/2 psi(x + (k-1)h) + (1-beta/2) psi(x+kh)]``
    (second order for tests that vanish smoothly near the terminal); the left side is its mirror.
    """
    h = float(x[1] - x[0]) / m
    lo = min(float(x[0]), float(tests.centres.min() - tests.radius)) - h
    hi = max(float(x[-1]), float(tests.centres.max() + tests.radius)) + h
    start = float(x[0]) - h * math.ceil((float(x[0]) - lo) / h)
    nf = int(math.ceil((hi - start) / h)) + 2
    fine = np.asarray(start + h * np.arange(nf), dtype=float)
    psi = tests.values(fine)  # (K, nf)
    at = np.rint((x - start) / h).astype(int)  # coarse points on the fine grid
    if side == "left":
        psi = psi[:, ::-1]
        at = nf - 1 - at
    # right sum y_j = sum_k g_k psi_{j+k} (psi vanishes beyond the support): a correlation.
    w = grunwald_letnikov_weights(nf, betas) * (h ** (-betas))[:, None]  # (G, nf)
    size = sp_fft.next_fast_len(2 * nf)
    spec_psi = sp_fft.rfft(psi[:, ::-1], size, axis=-1)  # reversed -> convolution
    spec_w = sp_fft.rfft(w, size, axis=-1)
    conv = sp_fft.irfft(spec_psi[None] * spec_w[:, None], size, axis=-1)  # (G, K, size)
    # reversed psi index r = nf-1-i; conv_n = sum_k w_k psi_{nf-1-(n-k)}; y_j at n = nf-1-j.
    y0 = conv[..., nf - 1 - at]
    y_shift = conv[..., nf - at]  # y_{j-1}: shift 1 (psi_{j+k-1})
    lam1 = (betas / 2.0)[:, None, None]
    return np.asarray(lam1 * y_shift + (1.0 - lam1) * y0, dtype=float)


#: End weights of the fourth-order Gregory rule ("alternative extended Simpson"), applied at
#: both ends of the window; interior weights are 1.
GREGORY_ENDS = (3.0 / 8.0, 7.0 / 6.0, 23.0 / 24.0)


def gregory_weights(n: int) -> FloatArray:
    """Quadrature weights (in units of the step) of the 4th-order Gregory rule on ``n`` points.

    The opposite-sided derivative of a compact test has a tail that reaches the window edge, so
    ``<u, D_b^beta psi>`` has an integrand that is nonzero at the edge; the uniform sum
    ``h sum f_i`` is then only first order there. Integer orders and every feature whose
    integrand vanishes at the edges are unchanged (weight 1 wherever the integrand is nonzero).
    """
    w = np.ones(n)
    k = len(GREGORY_ENDS)
    if n >= 2 * k:
        w[:k] = GREGORY_ENDS
        w[n - k :] = GREGORY_ENDS[::-1]
    return w


def compact_tests(
    x: FloatArray, count: int, width: float, beta_max: float, margin: float | None = None
) -> CompactTests:
    """``count`` bumps inside the window of grid ``x``, l2-normalised on ``x``.

    The radius ``r = width * sqrt(2 q)`` matches the curvature of a Gaussian of ``width`` at the
    centre (``(1 - s^2)^q ~ exp(-q s^2)``); centres are evenly spaced in
    ``[x_0 + r + margin, x_last - r - margin]`` (``margin`` three grid steps by default, so the
    Gregory end weights of :func:`gregory_weights` never meet a nonzero test value), so every
    test and its first ``q - 1`` derivatives vanish at both window edges.
    """
    x = np.asarray(x, dtype=float)
    h = float(x[1] - x[0])
    q = bump_degree(beta_max)
    span = float(x[-1] - x[0])
    pad = len(GREGORY_ENDS) * h if margin is None else float(margin)
    radius = float(width) * math.sqrt(2.0 * q)
    radius = min(radius, 0.5 * span - pad - h)
    if radius < 3.0 * h:
        raise ValueError(
            f"window of {x.size} points is too short for compact test functions of radius "
            f">= 3 grid steps; use a longer window"
        )
    centres = np.linspace(x[0] + radius + pad, x[-1] - radius - pad, count)
    unit = CompactTests(centres, radius, q, np.ones(count))
    raw = unit.values(x)
    scale = 1.0 / np.sqrt(np.sum(raw * raw, axis=-1) + ROW_NORM_EPS)
    return CompactTests(centres, radius, q, scale)
