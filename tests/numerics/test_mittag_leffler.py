"""Tests for weakpareto.numerics.mittag_leffler (closed forms, mpmath series reference, guards)."""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from scipy.special import erfcx

from weakpareto.numerics.mittag_leffler import MittagLefflerOverflowError, mittag_leffler

# ---------------------------------------------------------------------------------------
# high-precision reference (test only)
# ---------------------------------------------------------------------------------------


def ml_series(z: complex, a: float, b: float, digits: int = 60) -> complex:
    """``sum_k z^k / Gamma(a k + b)`` in mpmath with enough guard digits.

    The largest series term is about ``exp(|z|**(1/a))``, so the working precision is raised by
    ``|z|**(1/a)/ln 10`` digits on top of ``digits`` to survive the cancellation at negative
    arguments. ``a*k + b`` is formed in mpmath (forming it in double precision would spoil
    the reference).
    """
    r = abs(complex(z))
    peak = r ** (1.0 / a) if r > 0 else 0.0
    dps = digits + int(peak / math.log(10)) + 10
    with mp.workdps(dps):
        A, B = mp.mpf(a), mp.mpf(b)
        zz = mp.mpc(complex(z))
        total = mp.mpc(0)
        zpow = mp.mpc(1)
        tol = mp.mpf(10) ** (-digits)
        k = 0
        while True:
            term = zpow * mp.rgamma(A * k + B)
            total += term
            if a * k > peak + 10 and abs(term) <= tol * abs(total):
                return complex(total)
            zpow *= zz
            k += 1


ALPHAS = [0.3, 0.5, 0.85, 1.3, 1.65, 1.9]


def _points(alpha: float) -> tuple[np.ndarray, np.ndarray]:
    # For alpha = 0.3 the series needs ~|z|^(1/0.3)/ln10 extra digits (about 450 at |z|=8,
    # several seconds per point); the reference is therefore restricted to |z| <= 5 there.
    rmax = 5.0 if alpha < 0.4 else 8.0
    real = np.linspace(-rmax, 3.0, 9)
    radii = np.array([0.7, 3.0, rmax])
    angles = np.array([0.35, 1.3, 2.2, 3.0, -1.9])
    cplx = (radii[:, None] * np.exp(1j * angles[None, :])).ravel()
    return real, cplx


@pytest.mark.parametrize("alpha", ALPHAS)
@pytest.mark.parametrize("beta_kind", ["one", "alpha"])
def test_against_mpmath_series(alpha: float, beta_kind: str) -> None:
    beta = 1.0 if beta_kind == "one" else alpha
    real, cplx = _points(alpha)

    got_r = mittag_leffler(real, alpha, beta)
    assert got_r.dtype == np.float64
    ref_r = np.array([ml_series(z, alpha, beta).real for z in real])
    np.testing.assert_allclose(got_r, ref_r, rtol=1e-12, atol=1e-15)

    got_c = mittag_leffler(cplx, alpha, beta)
    assert got_c.dtype == np.complex128
    ref_c = np.array([ml_series(z, alpha, beta) for z in cplx])
    rel = np.abs(got_c - ref_c) / np.abs(ref_c)
    assert rel.max() < 1e-12, (alpha, beta, cplx[np.argmax(rel)], rel.max())


def test_reference_is_a_true_check() -> None:
    # The series reference itself must reproduce closed forms, otherwise the test above proves
    # nothing: E_{1,1} = exp and E_{2,1}(-x^2) = cos x.
    assert abs(ml_series(-7.5, 1.0, 1.0) - math.exp(-7.5)) < 1e-25
    assert abs(ml_series(-(2.5**2), 2.0, 1.0) - math.cos(2.5)) < 1e-25


def test_exp_identity() -> None:
    x = np.linspace(-30.0, 30.0, 241)
    np.testing.assert_allclose(mittag_leffler(x, 1.0), np.exp(x), rtol=1e-13)
    z = x[::10] * np.exp(0.7j)
    np.testing.assert_allclose(mittag_leffler(z, 1.0, 1.0), np.exp(z), rtol=1e-13)


def test_cos_identity() -> None:
    x = np.linspace(0.0, 12.0, 121)
    np.testing.assert_allclose(mittag_leffler(-(x**2), 2.0, 1.0), np.cos(x), rtol=0, atol=1e-13)
    z = np.linspace(0.1, 4.0, 9) * np.exp(0.4j)
    np.testing.assert_allclose(mittag_leffler(-(z**2), 2.0), np.cos(z), rtol=1e-13)


def test_erfcx_identity() -> None:
    x = np.linspace(0.0, 50.0, 501)
    got = mittag_leffler(-x, 0.5, 1.0)
    np.testing.assert_allclose(got, erfcx(x), rtol=1e-13)


def test_real_in_real_out_and_shapes() -> None:
    assert mittag_leffler(np.arange(4), 0.7).dtype == np.float64
    assert mittag_leffler(np.float32(0.5), 0.7).dtype == np.float64
    out = mittag_leffler(0.5, 0.7)
    assert isinstance(out, np.ndarray) and out.shape == ()
    z = np.linspace(-3, 1, 12).reshape(3, 4)
    assert mittag_leffler(z, 0.7).shape == (3, 4)
    assert mittag_leffler(z.astype(complex), 0.7).dtype == np.complex128
    assert float(mittag_leffler(0.0, 0.6, 1.0)) == 1.0
    assert mittag_leffler(np.array([]), 0.7).shape == (0,)


@pytest.mark.parametrize("alpha", [0.0, 2.0000001, -0.5, 2.5, float("nan"), float("inf")])
def test_alpha_outside_range(alpha: float) -> None:
    with pytest.raises(ValueError, match="0 < alpha <= 2|finite"):
        mittag_leffler(np.ones(3), alpha)


def test_bad_beta_and_z() -> None:
    with pytest.raises(ValueError, match="beta"):
        mittag_leffler(1.0, 0.5, float("nan"))
    with pytest.raises(ValueError, match="numeric"):
        mittag_leffler(np.array(["a"]), 0.5)


def test_overflow_guard() -> None:
    with pytest.raises(MittagLefflerOverflowError, match=r"1 of 1 .*z = 700"):
        mittag_leffler(700.0, 0.8)
    with pytest.raises(MittagLefflerOverflowError, match=r"2 of 3 .*first offending z = 700"):
        mittag_leffler(np.array([1.0, 700.0, 1e4]), 0.8)
    # it is a ValueError, so callers can catch configuration problems uniformly
    assert issubclass(MittagLefflerOverflowError, ValueError)
    # non-finite inputs are not "overflow" and pass through as NaN
    out = mittag_leffler(np.array([np.nan, 0.0]), 0.8)
    assert np.isnan(out[0]) and out[1] == 1.0
