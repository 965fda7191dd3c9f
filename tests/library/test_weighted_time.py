"""The sampled exact weak library: uniform invariance, convergence order on irregular times
against an exact Mittag-Leffler mode, and missing samples skipped by the quadrature."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.library.weak_exact import exact_time_weak_library
from weakpareto.library.weighted_time import sampled_exact_library
from weakpareto.numerics.mittag_leffler import mittag_leffler
from weakpareto.numerics.sampled_time import time_fill

NX = 32
X = 2 * np.pi * np.arange(NX) / NX
#: D_t^alpha u = -0.3 D_x^1 u + 0.2 (-|k|^2) u per mode: lambda(k) = -0.3 i k - 0.2 k^2
KAPPA = np.fft.fftfreq(NX, 1.0 / NX)
LAM = -0.3j * KAPPA - 0.2 * KAPPA**2
U0 = np.cos(X) + 0.4 * np.sin(2 * X + 0.3)


def _spectrum(t: np.ndarray, alpha: float) -> np.ndarray:
    u0h = np.fft.fft(U0)
    act = np.abs(u0h) > 1e-12
    out = np.zeros((t.size, NX), dtype=complex)
    out[:, act] = mittag_leffler(np.multiply.outer(t**alpha, LAM[act]), alpha, 1.0) * u0h[act]
    return out


def _field(t: np.ndarray, alpha: float) -> np.ndarray:
    return np.real(np.fft.ifft(_spectrum(t, alpha), axis=-1))


def _rhs(t: np.ndarray, alpha: float) -> np.ndarray:
    """``C D_t^alpha u = L u`` at the times ``t`` (exact)."""
    return np.real(np.fft.ifft(LAM * _spectrum(t, alpha), axis=-1))


def _jittered(n: int, span: float, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    h = span / (n - 1)
    t = np.linspace(0.0, span, n) + rng.uniform(-0.4, 0.4, n) * h
    t[0], t[-1] = 0.0, span
    return t


def _reference(lib, alpha: float) -> np.ndarray:
    """``int phi_a (L u) psi_l`` by Gauss-Legendre on every bump (unscaled rows)."""
    b = lib.bumps
    z, w = np.polynomial.legendre.leggauss(48)
    rows = []
    for lo, hi in zip(b.lower, b.upper, strict=True):
        tq = 0.5 * (lo + hi) + 0.5 * (hi - lo) * z
        phi = ((tq - lo) * (hi - tq) / (0.5 * (hi - lo)) ** 2) ** b.power
        g = _rhs(np.maximum(tq, 0.0), alpha) @ lib.spatial_tests.T  # (Q, K_x)
        rows.append(0.5 * (hi - lo) * (w * phi) @ g * lib.dx)
    return np.array(rows)


def _unscaled(lib, target: np.ndarray) -> np.ndarray:
    return target.reshape(lib.shape) / lib.bumps.scale[:, None]


@pytest.mark.parametrize("mode,alpha", [("sub", 0.6), ("int", 1.0), ("sup", 1.4)])
@pytest.mark.parametrize("initial", ["sample", "model"])
def test_uniform_grid_through_the_sampled_path_gives_the_same_features(mode, alpha, initial):
    t = np.arange(60, dtype=float)
    u = _field(t / 30.0, 0.8)
    opts = dict(operator="directional", power_mode="raw", initial=initial)
    ref = exact_time_weak_library(u, t, X, **opts)
    new = sampled_exact_library(u, t, X, **opts)
    a = np.array([alpha])
    for got, want in [
        (new.targets(a, mode), ref.targets(a, mode)),
        (new.columns(0, np.array([0.7, 1.9])), ref.columns(0, np.array([0.7, 1.9]))),
        (new.columns(1, np.array([1.2])), ref.columns(1, np.array([1.2]))),
    ]:
        assert np.max(np.abs(got - want)) <= 1e-12 * np.max(np.abs(want))


@pytest.mark.parametrize("alpha,mode", [(0.8, "sub"), (0.5, "sub")])
def test_target_converges_on_jittered_times_at_the_stated_order(alpha, mode):
    """Trapezoid on the samples: O(h^min(2, 1 + alpha)) on a Caputo solution (u - u0 ~ t^alpha)."""
    errors, steps = [], []
    for n in (40, 80, 160, 320):
        t = _jittered(n, 4.0)
        lib = sampled_exact_library(
            _field(t, alpha), t, X, operator="directional", test_counts=(12, 16)
        )
        got = _unscaled(lib, lib.targets(np.array([alpha]), mode)[0])
        want = _reference(lib, alpha)
        errors.append(np.linalg.norm(got - want) / np.linalg.norm(want))
        steps.append(np.max(np.diff(t)))
    order = np.polyfit(np.log(steps), np.log(errors), 1)[0]
    assert order > min(2.0, 1.0 + alpha) - 0.25, (order, errors)
    assert errors[-1] < 5e-4


def test_superunit_quadrature_converges_at_second_order_on_log_spaced_times():
    """The RL derivative of the bumps at irregular times (alpha = 1.4), with the exact start
    values subtracted (u'(0) = 0): the quadrature alone converges like h^2."""
    alpha, errors, steps = 1.4, [], []
    for n in (40, 80, 160, 320):
        t = np.r_[0.0, np.geomspace(0.02, 4.0, n - 1)]
        u = _field(t, alpha)
        lib = sampled_exact_library(u, t, X, operator="directional", test_counts=(12, 16))
        raw = lib._raw_weights(np.array([alpha]))[0]
        got = (raw @ (u - u[0]) @ lib.spatial_tests.T) * lib.quadrature
        errors.append(np.linalg.norm(_unscaled(lib, got) - _reference(lib, alpha)))
        steps.append(np.max(np.diff(t)))
    order = np.polyfit(np.log(steps), np.log(errors), 1)[0]
    assert order > 1.75, (order, errors)


def test_missing_samples_are_never_read_and_barely_move_the_target():
    rng = np.random.default_rng(3)
    t = _jittered(90, 4.0)
    u = _field(t, 0.8)
    missing = rng.random(u.shape) < 0.05
    missing[0] = False
    garbage = np.where(missing, 1e3, u)
    from weakpareto.numerics.sampled_time import periodic_fill

    opts = dict(operator="directional", missing=missing, power_mode="raw")
    a = sampled_exact_library(periodic_fill(garbage, ~missing), t, X, **opts)
    b = sampled_exact_library(periodic_fill(u, ~missing), t, X, **opts)
    full = sampled_exact_library(u, t, X, operator="directional", power_mode="raw")
    alphas = np.array([0.8])
    np.testing.assert_array_equal(a.targets(alphas, "sub"), b.targets(alphas, "sub"))
    np.testing.assert_array_equal(a.columns(1, np.array([1.5])), b.columns(1, np.array([1.5])))
    for got, want in [
        (b.targets(alphas, "sub"), full.targets(alphas, "sub")),
        (b.columns(0, np.array([1.0])), full.columns(0, np.array([1.0]))),
    ]:
        kept = np.ones(got.shape[-1], dtype=bool) if b.row_keep is None else b.row_keep > 0
        assert kept.mean() > 0.8  # isolated gaps drop few weak equations
        assert np.linalg.norm((got - want)[:, kept]) < 0.01 * np.linalg.norm(want[:, kept])


def test_a_block_gap_drops_its_weak_equations():
    t = np.linspace(0.0, 4.0, 80)
    u = _field(t, 0.8)
    missing = np.zeros(u.shape, dtype=bool)
    missing[30:45, 8:20] = True
    lib = sampled_exact_library(u, t, X, operator="directional", missing=missing)
    assert lib.record["rows_dropped"] > 0 and lib.row_keep is not None
    target = lib.targets(np.array([0.8]), "sub")[0]
    assert np.all(target[lib.row_keep == 0.0] == 0.0)


def test_sparse_times_drop_the_bumps_with_too_few_samples():
    t = np.r_[np.linspace(0.0, 1.0, 60), np.linspace(1.3, 4.0, 8)]
    lib = sampled_exact_library(_field(t, 0.8), t, X, operator="directional")
    assert lib.record["temporal_tests_dropped"] > 0
    assert lib.record["min_samples_per_test"] >= 6


@pytest.mark.parametrize("masked", [False, True])
def test_dropped_frames_keep_the_superunit_target(masked):
    """Frames missing in the middle (steps of 2-3 mean steps): the right derivative of a bump
    curves on a few steps and its integral against u - u(0) cancels, so the trapezoid on the
    product across such a step erred by up to 25 % of a target; the product rule (K on nodes
    no coarser than the mean step, u linear between samples) keeps the quadrature error. The
    same gaps as masked samples of a complete frame grid take the per-column product rule."""
    alpha, n = 1.4, 70
    t = np.linspace(0.0, 4.0, n)
    gone = np.zeros(n, dtype=bool)
    gone[[25, 28, 37, 54, 56, 57, 62]] = True
    if masked:
        u = _field(t, alpha)
        missing = np.zeros(u.shape, dtype=bool)
        missing[gone, : NX // 2] = True  # half of each frame: kept, its columns have gaps
    else:
        t = t[~gone]
        u, missing = _field(t, alpha), None
    lib = sampled_exact_library(u, t, X, operator="directional", missing=missing)
    raw = lib._raw_weights(np.array([alpha]))[0]
    filled = u if missing is None else time_fill(t, u, ~missing)
    got = (raw @ (filled - u[0]) @ lib.spatial_tests.T) * lib.quadrature
    want = _reference(lib, alpha)
    err = np.linalg.norm(_unscaled(lib, got) - want, axis=1) / np.linalg.norm(want, axis=1)
    assert np.max(err) < 0.01, err
