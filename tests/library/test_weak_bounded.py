"""Bounded-window weak library: exact integer features, consistent fractional features, and
targets identical to the periodic library's."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.library.weak import WeakLibrary
from weakpareto.library.weak_bounded import bounded_weak_library

T = np.linspace(0.0, 2.0, 41)
X = np.linspace(0.0, 6.0, 241)  # window [0, 6], not a period of anything below


def field(n: int = 0) -> np.ndarray:
    """u = (1 + 0.3 t) (sin(1.1 x + 0.4) + 0.05 x^3) and its n-th x-derivative (n <= 3)."""
    s = [np.sin, np.cos, lambda z: -np.sin(z), lambda z: -np.cos(z)][n](1.1 * X + 0.4) * 1.1**n
    poly = [X**3, 3 * X**2, 6 * X, 6 + 0 * X][n] * 0.05
    return (1.0 + 0.3 * T)[:, None] * (s + poly)[None, :]


def library(operator: str = "directional", beta_max: float = 3.5):
    return bounded_weak_library(
        field(), T, X, operator=operator, beta_max=beta_max, test_counts=(10, 24)
    )


@pytest.mark.parametrize("n", [1, 2, 3])
def test_integer_linear_columns_equal_projected_derivatives(n: int) -> None:
    lib = library()
    col = lib.columns(0, np.array([float(n)]))[0]
    ref = lib.project(field(n))  # <u^(n), phi> of the analytic derivative
    assert np.max(np.abs(col - ref)) <= 1e-7 * np.max(np.abs(ref))


def test_burgers_flux_column_is_exact_and_continuous() -> None:
    lib = library()
    exact = lib.columns(1, np.array([1.0]))[0]  # -<u^2/2, phi_x>
    ref = lib.project(field() * field(1))  # <u u_x, phi>
    assert np.max(np.abs(exact - ref)) <= 1e-7 * np.max(np.abs(ref))
    near = lib.columns(1, np.array([1.0 + 1e-9 + 1e-7]))[0]  # data-side 4th-order operator
    assert np.max(np.abs(near - ref)) <= 1e-4 * np.max(np.abs(ref))


@pytest.mark.parametrize("beta", [0.6, 1.5, 2.4])
def test_fractional_linear_columns_agree_with_data_side_operator(beta: float) -> None:
    """<u, D_b^beta phi> (operator on the tests) = <D_a^beta u, phi> (operator on the data)."""
    lib = library()
    on_tests = lib.columns(0, np.array([beta]))[0]
    on_data = lib.project(lib.spatial_apply(field(), np.array([beta]))[0])
    # both sides are accurate (tests: Richardson fine-grid Grunwald + Gregory end weights; data:
    # 4th order with edge-start weights); measured agreement ~1e-6 relative at h = 0.025
    assert np.max(np.abs(on_tests - on_data)) <= 2e-5 * np.max(np.abs(on_tests))


def test_riesz_at_two_is_the_second_derivative() -> None:
    lib = library("riesz")
    col = lib.columns(0, np.array([2.0]))[0]
    ref = lib.project(field(2))
    assert np.max(np.abs(col - ref)) <= 1e-7 * np.max(np.abs(ref))
    frac = lib.columns(0, np.array([1.7]))[0]
    data = lib.project(lib.spatial_apply(field(), np.array([1.7]))[0])
    assert np.max(np.abs(frac - data)) <= 2e-5 * np.max(np.abs(frac))


def test_targets_are_the_periodic_librarys() -> None:
    lib = library()
    per = WeakLibrary(
        u=lib.u,
        dt=lib.dt,
        dx=lib.dx,
        period=lib.period,
        operator="directional",
        power_mode="raw",
        temporal_tests=lib.temporal_tests,
        spatial_tests=lib.spatial_tests,
    )
    for mode, alphas in (("int", [1.0]), ("sub", [0.6, 0.9]), ("sup", [1.3])):
        a = np.array(alphas)
        assert np.array_equal(lib.targets(a, mode), per.targets(a, mode))


def test_identity_and_shape() -> None:
    lib = library()
    assert lib.shape == (10, 24)
    col = lib.columns(0, np.array([0.0]))[0]
    assert np.allclose(col, lib.project(field()), rtol=0, atol=1e-14)
    with pytest.raises(ValueError, match="bounded domains support"):
        bounded_weak_library(field(), T, X, operator="gl_left", beta_max=2.0)
