"""The exact-time library's u'(0) window and noise estimate (library/weak_exact.py)."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.library.noise_level import estimate_noise
from weakpareto.library.weak_exact import adaptive_slope_points, exact_time_weak_library
from weakpareto.numerics.weak_caputo import model_initial_weights


def caputo_start_field(alpha: float = 1.4, nt: int = 200, nx: int = 64):
    """``u = 1 + a(x) + u1(x) t + c(x) t^alpha / Gamma(alpha + 1)`` with a known ``u'(0)``."""
    t = np.linspace(0.0, 4.0, nt)
    x = np.linspace(0.0, 2 * np.pi, nx, endpoint=False)
    u1 = 0.3 * np.sin(x)
    c = 0.5 * np.cos(2 * x) - 0.2
    u = 1.5 + 0.2 * np.sin(3 * x)[None] + np.outer(t, u1) + np.outer(t**alpha / 1.33, c)
    return t, u, u1


def slope_error(u: np.ndarray, u1: np.ndarray, dt: float, points: int) -> float:
    _, c1 = model_initial_weights(u.shape[0], dt, 1.5, points, True)
    return float(np.sqrt(np.mean((c1[0] @ u - u1) ** 2)))


def test_clean_data_keep_the_base_window():
    t, u, _ = caputo_start_field()
    assert adaptive_slope_points(u, float(t[1] - t[0]), 12, 5, estimate_noise(u, "auto")) == 12


def test_noisy_data_widen_the_window_and_the_slope_error_falls():
    """1 % multiplicative noise: Lepski's rule widens the window, and the error of u'(0)
    against the known slope falls by more than half (noise-dominated at the base window)."""
    t, u, u1 = caputo_start_field()
    dt = float(t[1] - t[0])
    noisy = u * (1.0 + 0.01 * np.random.default_rng(0).standard_normal(u.shape))
    points = adaptive_slope_points(noisy, dt, 12, 5, estimate_noise(noisy, "auto"))
    assert points > 12
    assert slope_error(noisy, u1, dt, points) < 0.5 * slope_error(noisy, u1, dt, 12)


def test_a_record_too_short_for_a_second_window_keeps_the_base_one():
    t, u, _ = caputo_start_field(nt=30)
    noisy = u * (1.0 + 0.01 * np.random.default_rng(1).standard_normal(u.shape))
    assert (
        adaptive_slope_points(noisy, float(t[1] - t[0]), 12, 5, estimate_noise(noisy, "auto")) == 12
    )
    assert (
        adaptive_slope_points(noisy, float(t[1] - t[0]), 20, 5, estimate_noise(noisy, "auto")) == 20
    )


def test_the_library_reads_the_noise_once_and_hands_it_to_the_score():
    t, u, _ = caputo_start_field()
    x = np.linspace(0.0, 2 * np.pi, u.shape[1], endpoint=False)
    noisy = u * (1.0 + 0.01 * np.random.default_rng(2).standard_normal(u.shape))
    lib = exact_time_weak_library(noisy, t, x, operator="riesz", initial="model")
    fresh = estimate_noise(noisy, "auto")
    assert lib.noise is not None and fresh is not None
    assert lib.noise_estimate("auto") is lib.noise
    assert lib.noise.law == fresh.law and lib.noise.level == fresh.level
    np.testing.assert_array_equal(lib.noise.variance, fresh.variance)
    additive = lib.noise_estimate("additive")
    assert additive is not None and additive.law == "additive"
    assert exact_time_weak_library(noisy, t, x, operator="riesz").noise is None


# -- u'(0) profiled out of super-unit weak equations -------------------------------------------
def profiled_library(alpha: float = 1.4, noise: float = 0.0):
    t, u, _ = caputo_start_field(alpha)
    x = np.linspace(0.0, 2 * np.pi, u.shape[1], endpoint=False)
    if noise:
        u = u * (1.0 + noise * np.random.default_rng(3).standard_normal(u.shape))
    return exact_time_weak_library(
        u, t, x, operator="riesz", initial="model", start_slope="profile"
    )


def test_the_slope_direction_is_the_weak_integral_of_t_to_the_one_minus_alpha():
    """Adjoint identity: ``int (RL D^alpha_{T-} phi)(t) t dt = int phi(t) (RL D^alpha_{0+} t) dt
    = int phi_a t^{1-alpha} / Gamma(2-alpha) dt`` for compactly supported bumps; compared with
    that integral by a fine Riemann sum of each bump (independent of the library's closed
    form of the right derivative)."""
    from math import gamma

    lib = profiled_library()
    alpha = 1.4
    q = lib.slope_direction("sup", alpha)
    assert q is not None and q.shape == (lib.shape[0],)
    assert lib.bumps is not None
    fine = np.linspace(float(lib.t[0]), float(lib.t[-1]), 200_001)[1:]  # t^{1-a} is integrable
    phi = lib.bumps.values(fine)
    kernel = fine ** (1.0 - alpha) / gamma(2.0 - alpha)
    step = fine[1] - fine[0]
    truth = (phi * kernel).sum(axis=1) * step
    truth /= np.linalg.norm(truth)
    np.testing.assert_allclose(q, truth, atol=2e-4)


def test_profiling_makes_the_target_independent_of_the_slope_estimate():
    """The profiled super-unit target equals the profiled target with no slope subtracted at
    all, and every spatial test's block is orthogonal to the direction."""
    from weakpareto.numerics.weak_caputo import with_initial_terms

    lib = profiled_library(noise=0.01)
    alpha = 1.4
    with_slope = lib.targets(np.array([alpha]), "sup")
    raw = lib._raw_weights(np.array([alpha]))
    c0, _ = model_initial_weights(lib.t.size, lib.dt, np.array([alpha]), lib.slope_points, True)
    no_slope = lib.quadrature * (
        with_initial_terms(raw, lib.t, c0, None) @ lib.spatial_projection()
    ).reshape(1, -1)
    a = lib.profile_rows("sup", alpha, with_slope)
    b = lib.profile_rows("sup", alpha, no_slope)
    assert np.linalg.norm(with_slope - no_slope) > 1e-3 * np.linalg.norm(with_slope)
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-12 * np.abs(with_slope).max())
    q = lib.slope_direction("sup", alpha)
    assert q is not None
    blocks = a.reshape(lib.shape)
    assert np.abs(q @ blocks).max() < 1e-12 * np.abs(with_slope).max()


def test_only_super_unit_profiled_libraries_change_their_rows():
    lib = profiled_library()
    v = np.random.default_rng(4).standard_normal((2, lib.n_rows))
    for mode in ("sub", "int"):
        assert lib.slope_direction(mode, 0.7) is None
        np.testing.assert_array_equal(lib.profile_rows(mode, 0.7, v), v)
    estimate = exact_time_weak_library(
        lib.u, lib.t, np.linspace(0, 2 * np.pi, lib.u.shape[1], endpoint=False), operator="riesz"
    )
    assert estimate.slope_direction("sup", 1.4) is None


@pytest.mark.parametrize("operator", ["riesz", "directional", "directional_right"])
@pytest.mark.parametrize("nx", [64, 65])
def test_real_transforms_and_matrix_contraction_equal_the_paper_library(operator, nx):
    """The exact library's ``X_beta u`` and adjoint tests by real FFTs and its linear columns
    by one matrix product equal the paper library's complex transforms and ``einsum`` to
    rounding (a random field: every wavenumber, the Nyquist one included for even nx)."""
    from weakpareto.library.weak import WeakLibrary

    rng = np.random.default_rng(1)
    t, x = np.linspace(0.0, 1.0, 50), np.arange(nx) * 2.0 * np.pi / nx
    lib = exact_time_weak_library(rng.standard_normal((50, nx)), t, x, operator=operator)
    betas = np.array([0.7, 1.5, 2.3])
    for ours, paper in [
        (lib.field_apply(betas), WeakLibrary.field_apply(lib, betas)),
        (lib.columns(0, betas), WeakLibrary.columns(lib, 0, betas)),
        (lib.columns(1, betas), WeakLibrary.columns(lib, 1, betas)),
        (lib.columns(2, betas[1:]), WeakLibrary.columns(lib, 2, betas[1:])),
        (lib.spatial_adjoint_tests(betas), WeakLibrary._spatial_adjoint_tests(lib, betas)),
    ]:
        np.testing.assert_allclose(ours, paper, rtol=0, atol=1e-14 * np.abs(paper).max())


@pytest.mark.parametrize("operator", [None, "riesz"])
def test_columns_of_several_powers_equal_each_power_alone_bit_for_bit(operator, monkeypatch):
    """The bank's nonlinear columns share ``X_beta u`` per chunk of orders: equal to
    ``columns(p, betas)`` one power at a time exactly, chunked (one order per chunk) or not,
    for one family and for a library of two (column kinds); a subclass with its own
    ``columns`` (missing samples) is asked power by power."""
    from weakpareto.library import weak
    from weakpareto.library.families import with_families
    from weakpareto.library.weighted_time import SampledExactLibrary

    rng = np.random.default_rng(4)
    t, x = np.linspace(0.0, 1.0, 40), np.arange(48) * 2.0 * np.pi / 48
    u = 1.0 + 0.3 * rng.standard_normal((40, 48))
    if operator is None:
        base = exact_time_weak_library(u, t, x, operator="directional")
        lib = with_families(base, ("directional", "riesz"))
        kinds = tuple(lib.kinds((0, 1, 2)))
    else:
        lib = exact_time_weak_library(u, t, x, operator=operator)
        kinds = (0, 1, 2)
    betas = np.linspace(0.2, 2.8, 7)
    for per_chunk in (None, 1):
        if per_chunk is not None:
            monkeypatch.setattr(weak, "BATCH_VALUES", 3 * u.size)
        together = lib.columns_of_powers(kinds, betas)
        for k, got in zip(kinds, together, strict=True):
            assert np.array_equal(got, lib.columns(k, betas))
    calls = []
    monkeypatch.setattr(SampledExactLibrary, "columns", lambda self, p, b: calls.append(p) or 0)
    sampled = object.__new__(SampledExactLibrary)
    assert SampledExactLibrary.columns_of_powers(sampled, (0, 1, 2), betas) == [0, 0, 0]
    assert calls == [0, 1, 2]
