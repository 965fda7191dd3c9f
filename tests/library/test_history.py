"""The history model of a record that starts after the onset (weakpareto.library.history)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate, special

from weakpareto.library.forcing import orthonormal_basis
from weakpareto.library.history import (
    SEARCH_RANK,
    history_source,
    leading_directions,
    memory_kernels,
    project_tests,
    stieltjes_functions,
    weak_integrals,
)
from weakpareto.library.weak_exact import exact_time_weak_library
from weakpareto.numerics.mittag_leffler import mittag_leffler


def true_history(alpha: float, lam: float, t0: float, s: np.ndarray) -> np.ndarray:
    """``H(t0 + s)`` of ``u = E_alpha(-lam t^alpha)`` (0 < alpha < 1) by adaptive quadrature:
    ``1/Gamma(1-alpha) int_0^t0 u'(r) (t0 + s - r)^-alpha dr``, ``u'(r) = -lam r^(alpha-1)
    E_{alpha,alpha}(-lam r^alpha)`` (the singular factor as the quadrature's weight)."""

    def part(r: float, t: float) -> float:
        ml = float(np.real(mittag_leffler(np.array([-lam * r**alpha]), alpha, alpha)[0]))
        return -lam * ml * (t - r) ** (-alpha)

    out = [
        integrate.quad(part, 0.0, t0, args=(t0 + si,), weight="alg", wvar=(alpha - 1.0, 0.0),
                       limit=200)[0]
        for si in s
    ]  # fmt: skip
    return np.array(out) / special.gamma(1.0 - alpha)


@pytest.fixture(scope="module")
def bumps() -> tuple[np.ndarray, np.ndarray]:
    """Temporal tests of the exact library on a record of 151 samples over [0, 3]."""
    t = np.linspace(0.0, 3.0, 151)
    x = np.linspace(0.0, 2 * np.pi, 32, endpoint=False)
    lib = exact_time_weak_library(np.sin(x)[None, :] * np.ones((t.size, 1)), t, x,
                                  operator="riesz")  # fmt: skip
    return lib.temporal_tests, t


@pytest.mark.parametrize("alpha", [0.5, 0.8])
def test_kernels_represent_the_history_of_a_mittag_leffler_mode(bumps, alpha):
    """The weak integrals of the true history of a Mittag-Leffler mode recorded from t0 = 1.3
    (30 % of its time since onset) lie in the refit span to 1e-4 and in the search span to
    5e-3 (relative residual of the projection; measured 3e-5 and 2e-4 / 2e-3 at alpha 0.5 /
    0.8)."""
    tests, t = bumps
    h = np.zeros(t.size)  # the first sample: the tests vanish there (and H is weakly singular)
    h[1:] = true_history(alpha, 0.6, 1.3, t[1:] - t[0])
    hw = tests @ h
    refit = orthonormal_basis(weak_integrals(tests, memory_kernels(t, alpha)).T)
    search = leading_directions(weak_integrals(tests, stieltjes_functions(t)), SEARCH_RANK)
    for basis, tol in ((refit, 1e-4), (search, 5e-3)):
        rest = project_tests(hw[None, :], basis, 1)[0]
        assert np.linalg.norm(rest) / np.linalg.norm(hw) < tol


def test_projection_removes_exactly_the_nuisance_directions():
    """``project_tests`` is the orthogonal projection per spatial test: idempotent, it zeroes
    ``Q c`` in every spatial test and keeps vectors orthogonal to ``Q``."""
    rng = np.random.default_rng(0)
    kt, kx = 12, 5
    q = np.linalg.qr(rng.standard_normal((kt, 3)))[0]
    v = rng.standard_normal((2, kt * kx))
    p = project_tests(v, q, kx)
    np.testing.assert_allclose(project_tests(p, q, kx), p, atol=1e-12)
    nuisance = (q @ rng.standard_normal((3, kx))).reshape(1, -1)
    np.testing.assert_allclose(project_tests(nuisance, q, kx), 0.0, atol=1e-12)
    blocks = p.reshape(2, kt, kx)
    np.testing.assert_allclose(np.einsum("am,gal->gml", q, blocks), 0.0, atol=1e-12)


def test_history_source_projects_targets_and_columns():
    """The source's targets and columns are the library's, projected (rows and shape kept)."""
    t = np.linspace(0.0, 2.0, 61)
    x = np.linspace(0.0, 2 * np.pi, 32, endpoint=False)
    u = np.exp(-t)[:, None] * np.sin(x)[None, :]
    lib = exact_time_weak_library(u, t, x, operator="riesz")
    src = history_source(lib)
    assert src.n_rows == lib.n_rows and src.shape == lib.shape
    assert src.nuisance == SEARCH_RANK * lib.shape[1]
    y = src.targets(np.array([0.7]), "sub")
    np.testing.assert_allclose(y, src.project(lib.targets(np.array([0.7]), "sub")))
    cols = src.columns(0, np.array([1.0, 2.0]))
    assert cols.shape == (2, lib.n_rows)
    np.testing.assert_allclose(src.project(cols), cols, atol=1e-12 * np.abs(cols).max())
