"""Several operator families over one field: columns per (power, family) kind, their adjoint
identities, the single-family identity and the coincidence (dedup) rule."""

import numpy as np
import pytest

from weakpareto.library.families import (
    FamilyLibrary,
    canonical_family,
    check_families,
    family_library,
    proportionality,
    restrict_families,
    with_families,
)
from weakpareto.library.pooled import PooledSource
from weakpareto.library.weak import power_field, weak_library
from weakpareto.library.weak_exact import exact_time_weak_library
from weakpareto.numerics import operators as ops
from weakpareto.records import FAMILIES

L = 2 * np.pi


@pytest.fixture(scope="module")
def smooth():
    """A smooth periodic field with several modes, sign-changing (positive-part clipping)."""
    nt, nx = 20, 32
    t = 0.05 * np.arange(nt)
    x = np.arange(nx) * (L / nx)
    u = (
        np.sin(x)[None] * np.cos(t)[:, None]
        + 0.5 * np.cos(3 * x + 0.4)[None] * np.exp(-t)[:, None]
        + 0.2 * np.sin(5 * x)[None]
    )
    return u, t, x


@pytest.fixture(scope="module")
def lib(smooth):
    u, t, x = smooth
    return family_library(u, t, x, FAMILIES, power_mode="positive", test_counts=(5, 7))


def _close(a, b, rel=1e-11):
    np.testing.assert_allclose(a, b, rtol=rel, atol=rel * np.abs(b).max())


def test_right_directional_symbol_is_the_mirror_and_the_conjugate():
    kappa = ops.wavenumbers(16, L)  # even n: the Nyquist bin is included
    for beta in (0.0, 0.6, 1.0, 1.5, 2.0):
        right = ops.directional_right_multiplier(kappa, beta)
        assert np.array_equal(right, ops.directional_multiplier(-kappa, beta))
        _close(right, np.conj(ops.directional_multiplier(kappa, beta)), 1e-15)
    f = np.sin(np.arange(16) * L / 16)  # (-i k)^1 is -d/dx
    _close(
        ops.spatial_apply("directional_right", f, np.arange(16) * L / 16, 1.0),
        -np.cos(np.arange(16) * L / 16),
    )


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("power", [0, 1])
def test_columns_equal_strong_form_and_adjoint_form(smooth, lib, family, power):
    """kind (p, f): dt dx T (P(u) X_f u) S^T (strong form) = <u, X_f^*(P(u) phi_k)> (adjoint)."""
    u, _, x = smooth
    beta = 1.37
    col = lib.columns(lib.kind(power, family), np.array([beta]))[0]
    mult = ops.spectral_multiplier(family, ops.wavenumbers(x.size, L), beta)
    w = power_field(u, power, "positive")
    weak = lib.parts[0]
    _close(col, weak.project(w * ops.apply_multiplier(u, mult)))
    k_t, k_x = weak.shape
    adjoint = np.empty((k_t, k_x))
    for a in range(k_t):
        for ell in range(k_x):
            phi = np.outer(weak.temporal_tests[a], weak.spatial_tests[ell])
            adjoint[a, ell] = (
                weak.dt * weak.dx * np.sum(u * ops.apply_multiplier_adjoint(w * phi, mult))
            )
    _close(col, adjoint.ravel())


@pytest.mark.parametrize(
    "family, beta, derivative",
    [("directional", 1.0, 1), ("directional_right", 1.0, -1), ("riesz", 2.0, 2)],
)
def test_strong_form_at_integer_orders_is_the_derivative(smooth, family, beta, derivative):
    """On modes sin(m x), cos(m x): X = d/dx, -d/dx or d^2/dx^2 (spectrally exact)."""
    _, t, x = smooth
    u = np.sin(x) + 0.5 * np.cos(3 * x + 0.4)
    du = {1: np.cos(x) - 1.5 * np.sin(3 * x + 0.4), 2: -np.sin(x) - 4.5 * np.cos(3 * x + 0.4)}
    exact = -du[1] if derivative == -1 else du[abs(derivative)]
    _close(ops.spatial_apply(family, u, x, beta), exact, 1e-12)


def test_targets_are_shared_and_kinds_are_power_major(lib):
    assert lib.kinds((0, 1, 2)) == tuple(range(9))
    assert lib.decode(4) == (1, "riesz") and lib.kind(2, "directional_right") == 8
    alphas = np.array([0.7, 0.9])
    for part in lib.parts:
        assert np.array_equal(part.targets(alphas, "sub"), lib.targets(alphas, "sub"))


@pytest.mark.parametrize("family", ["directional", "riesz"])
def test_one_family_is_todays_library_bit_for_bit(smooth, family):
    u, t, x = smooth
    one = family_library(u, t, x, (family,), power_mode="positive", test_counts=(5, 7))
    today = weak_library(u, t, x, operator=family, power_mode="positive", test_counts=(5, 7))
    betas = np.linspace(0.0, 2.2, 7)
    assert one.kinds((0, 1, 2)) == (0, 1, 2)
    for p in (0, 1, 2):
        assert np.array_equal(one.columns(p, betas), today.columns(p, betas))
    assert np.array_equal(
        one.targets(np.array([0.8]), "sub"), today.targets(np.array([0.8]), "sub")
    )


@pytest.mark.parametrize(
    "f, g, beta, ratio",
    [
        ("riesz", "directional", 0.0, 1.0),  # every family is the identity at 0
        ("directional_right", "riesz", 0.0, 1.0),
        ("riesz", "directional", 2.0, 1.0),  # -|k|^2 = (i k)^2
        ("directional_right", "directional", 2.0, 1.0),
        ("directional_right", "directional", 1.0, -1.0),  # (-i k) = -(i k)
        ("directional_right", "directional", 3.0, -1.0),
        ("riesz", "directional", 4.0, -1.0),  # -|k|^4 = -(i k)^4
        ("riesz", "directional", 1.0, None),
        ("riesz", "directional_right", 1.0, None),
        ("riesz", "directional", 1.5, None),
        ("directional_right", "directional", 1.5, None),
        ("directional", "directional", 1.3, 1.0),
    ],
)
def test_coincidence_rule_matches_the_columns(lib, f, g, beta, ratio):
    """Columns of two kinds are collinear exactly where the rule says, with its factor."""
    assert proportionality(f, g, beta) == ratio
    b = np.array([beta])
    for p in (0, 1):
        a, c = lib.columns(lib.kind(p, f), b)[0], lib.columns(lib.kind(p, g), b)[0]
        if ratio is not None:
            _close(a, ratio * c, 1e-12)
        else:  # a different operator: far from collinear
            cos = abs(a @ c) / (np.linalg.norm(a) * np.linalg.norm(c))
            assert cos < 0.99


def test_canonical_family_takes_the_first_searched_coincident_family():
    both = ("directional", "riesz")
    assert canonical_family("riesz", 2.0, both) == ("directional", 1.0)
    assert canonical_family("riesz", 2.0, ("riesz",)) == ("riesz", 1.0)
    assert canonical_family("riesz", 1.99, both) == ("riesz", 1.0)  # exact coincidences only
    assert canonical_family("directional_right", 1.0, FAMILIES) == ("directional", -1.0)
    assert canonical_family("directional_right", 1.0, ("riesz", "directional_right")) == (
        "directional_right",
        1.0,
    )
    assert canonical_family("riesz", 0.0, FAMILIES) == ("directional", 1.0)


def test_restriction_and_refusals(smooth, lib):
    u, t, x = smooth
    two = lib.restrict(("riesz", "directional"))
    assert two.families == ("riesz", "directional")
    b = np.array([1.2])
    assert np.array_equal(two.columns(two.kind(1, "directional"), b), lib.columns(3, b))
    assert restrict_families(lib, ("riesz",)) is lib.parts[1]  # one family: its own library
    pooled = restrict_families(PooledSource((lib, lib)), ("directional", "riesz"))
    assert isinstance(pooled, PooledSource) and all(
        isinstance(p, FamilyLibrary) and p.families == ("directional", "riesz")
        for p in pooled.parts
    )
    for bad in ((), ("riesz", "riesz"), ("gl_left",)):
        with pytest.raises(ValueError, match="families must be distinct"):
            check_families(bad)
    with pytest.raises(ValueError, match="as many feature sources"):
        FamilyLibrary(("directional", "riesz"), lib.parts[:1])
    with pytest.raises(ValueError, match="not in this library"):
        family_library(u, t, x, ("riesz",), test_counts=(5, 7)).restrict(("directional",))


def test_exact_time_library_in_several_families(smooth):
    """with_families: per-family copies of a periodic library that differ only in operator."""
    from weakpareto.library.weak_bounded import bounded_weak_library
    from weakpareto.library.weak_exact import exact_time_weak_library

    u, t, x = smooth
    base = exact_time_weak_library(u, t, x, operator="directional", test_counts=(5, 7))
    fam = with_families(base, ("directional", "riesz"))
    riesz = exact_time_weak_library(u, t, x, operator="riesz", test_counts=(5, 7))
    betas = np.array([0.7, 1.5])
    assert np.array_equal(fam.columns(fam.kind(0, "riesz"), betas), riesz.columns(0, betas))
    assert np.array_equal(
        fam.targets(np.array([0.8]), "sub"), riesz.targets(np.array([0.8]), "sub")
    )
    bounded = bounded_weak_library(
        u, t, x, operator="directional", beta_max=2.0, test_counts=(5, 7)
    )
    with pytest.raises(ValueError, match="periodic domain"):
        with_families(bounded, ("directional", "riesz"))


def test_a_family_library_profiles_its_rows_as_its_first_part():
    """The families share the field, the tests and the target, so the super-unit u'(0)
    direction is the first part's (exact target, start_slope="profile")."""
    t = np.linspace(0.0, 2.0, 40)
    x = np.linspace(0.0, 2 * np.pi, 32, endpoint=False)
    u = 1.0 + np.outer(np.cos(t), np.sin(x))
    kw = dict(test_counts=(8, 8), start_slope="profile")
    parts = tuple(
        exact_time_weak_library(u, t, x, operator=f, **kw) for f in ("directional", "riesz")
    )
    lib = FamilyLibrary(("directional", "riesz"), parts)
    v = np.random.default_rng(2).standard_normal((3, lib.n_rows))
    np.testing.assert_array_equal(
        lib.profile_rows("sup", 1.3, v), parts[0].profile_rows("sup", 1.3, v)
    )
    assert lib.profile_rows("sub", 0.8, v) is v
