"""Weak forcing columns and the forced feature source (weakpareto/library/forcing.py)."""

import numpy as np
import pytest

from weakpareto.library.forcing import ForcedSource, Forcing, forced_source, weak_forcing_column
from weakpareto.library.weak import weak_library
from weakpareto.library.weak_bounded import bounded_weak_library
from weakpareto.library.weak_exact import exact_time_weak_library


@pytest.fixture(scope="module")
def small():
    rng = np.random.default_rng(5)
    nt, nx = 40, 32
    t = 0.05 * np.arange(nt)
    x = np.arange(nx) * (2 * np.pi / nx)
    u = np.sin(x)[None] * np.exp(-t)[:, None] + 0.2 * np.cos(3 * x)[None]
    f = np.cos(2 * t)[:, None] * np.sin(2 * x)[None] + 0.1 * rng.standard_normal((nt, nx))
    return u, t, x, f


def _quadrature(f, t, x, temporal, spatial):
    """``dt dx sum_ij f_ij phi_k(t_i, x_j)`` with ``phi_k`` formed on the grid, row by row."""
    dt, dx = t[1] - t[0], x[1] - x[0]
    rows = []
    for a in range(temporal.shape[0]):
        for l in range(spatial.shape[0]):
            phi = np.outer(temporal[a], spatial[l])
            rows.append(dt * dx * np.sum(f * phi))
    return np.array(rows)


@pytest.mark.parametrize("builder", [weak_library, exact_time_weak_library])
def test_weak_column_is_the_quadrature_of_f_phi(small, builder):
    """The forcing column is the weak integral of f against every test function (no operator),
    with the quadrature of the other columns, for Gaussian and bump temporal tests."""
    u, t, x, f = small
    lib = builder(u, t, x, operator="directional", test_counts=(6, 8))
    col = weak_forcing_column(lib, f)
    ref = _quadrature(f, t, x, lib.temporal_tests, lib.spatial_tests)
    np.testing.assert_allclose(col, ref, rtol=1e-12, atol=1e-14 * np.abs(ref).max())
    # f = u is the identity column (directional order 0 is the identity): the same quadrature
    ident = lib.columns(0, np.array([0.0]))[0]
    np.testing.assert_allclose(weak_forcing_column(lib, u), ident, rtol=1e-12, atol=1e-15)


def test_weak_column_refuses_other_sources_and_shapes(small):
    u, t, x, f = small
    lib = weak_library(u, t, x, operator="directional", test_counts=(6, 8))
    with pytest.raises(ValueError, match=r"forcing has shape \(40, 31\) but u has shape"):
        weak_forcing_column(lib, f[:, :-1])
    bounded = bounded_weak_library(u, t, x, operator="directional", beta_max=2.0)
    with pytest.raises(TypeError, match="BoundedWeakLibrary"):
        weak_forcing_column(bounded, f)


def test_projection_gives_the_joint_least_squares_fit(small):
    """Frisch–Waugh–Lovell: the fit of the projected target on projected columns has the
    operator coefficients of the fit of the target on [columns, forcing]."""
    u, t, x, f = small
    lib = weak_library(u, t, x, operator="directional", test_counts=(8, 10))
    src = forced_source(lib, (Forcing("f", f),))
    y = lib.targets(np.array([1.0]), "int")[0]
    cols = np.stack([lib.columns(0, np.array([b]))[0] for b in (1.0, 2.0)], axis=1)
    fcol = weak_forcing_column(lib, f)
    joint = np.linalg.lstsq(np.column_stack([cols, fcol]), y, rcond=None)[0]
    yp = src.targets(np.array([1.0]), "int")[0]
    xp = np.stack([src.columns(0, np.array([b]))[0] for b in (1.0, 2.0)], axis=1)
    proj = np.linalg.lstsq(xp, yp, rcond=None)[0]
    np.testing.assert_allclose(proj, joint[:2], rtol=1e-9)
    assert abs(yp @ fcol) <= 1e-10 * np.linalg.norm(y) * np.linalg.norm(fcol)


def test_given_coefficient_moves_to_the_target(small):
    """A known term is subtracted from the target as ``coef * unit**alpha * F`` (order 1 for
    the integer branch), nothing is projected."""
    u, t, x, f = small
    lib = weak_library(u, t, x, operator="directional", test_counts=(6, 8))
    src = forced_source(lib, (Forcing("f", f, coef=0.7, time_unit=0.5),))
    assert isinstance(src, ForcedSource) and src.estimated.shape[0] == 0
    fcol = weak_forcing_column(lib, f)
    alphas = np.array([0.6, 0.9])
    expect = lib.targets(alphas, "sub") - 0.7 * 0.5 ** alphas[:, None] * fcol[None]
    np.testing.assert_allclose(src.targets(alphas, "sub"), expect, rtol=1e-12)
    expect_int = lib.targets(np.array([1.0]), "int") - 0.7 * 0.5 * fcol[None]
    np.testing.assert_allclose(src.targets(np.array([1.0]), "int"), expect_int, rtol=1e-12)
    np.testing.assert_array_equal(src.columns(1, np.array([1.3])), lib.columns(1, np.array([1.3])))


def test_a_family_library_under_forcing_keeps_its_families_and_shared_column(small):
    """Several operator families share the field and the tests: the forcing column of the
    family library is each family's own; ``families_of`` and ``restrict_families`` see through
    the forcing, and a restricted source's columns are the restricted library's, projected."""
    from weakpareto.library.families import (
        families_of,
        restrict_families,
        term_kind,
        with_families,
    )

    u, t, x, f = small
    base = exact_time_weak_library(u, t, x, operator="directional", test_counts=(6, 8))
    lib = with_families(base, ("directional", "riesz"))
    forced = forced_source(lib, (Forcing("f", f),))
    for part in lib.parts:
        np.testing.assert_array_equal(forced.forcing_columns[0], weak_forcing_column(part, f))
    assert families_of(forced) == ("directional", "riesz")
    assert term_kind(forced, 1, "riesz") == 3 and term_kind(base, 1, "riesz") == 1
    riesz = restrict_families(forced, ("riesz",))
    assert isinstance(riesz, ForcedSource) and riesz.base is lib.parts[1]
    betas = np.array([1.5])
    np.testing.assert_allclose(
        riesz.columns(0, betas), forced.columns(term_kind(forced, 0, "riesz"), betas), rtol=1e-14
    )
    # the projection removes the forcing: every projected column is orthogonal to it
    assert abs(riesz.columns(0, betas)[0] @ forced.forcing_columns[0]) < 1e-10 * np.linalg.norm(
        riesz.columns(0, betas)[0]
    ) * np.linalg.norm(forced.forcing_columns[0])
