"""Tempered families as feature sources (weakpareto/library/families.py)."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.library.families import (
    FamilyLibrary,
    TemperedExactLibrary,
    TemperedWeakLibrary,
    canonical_family,
    family_library,
    proportionality,
    retempered,
    tempered_copy,
    with_families,
)
from weakpareto.library.weak import weak_library
from weakpareto.library.weak_exact import exact_time_weak_library
from weakpareto.numerics.operators import SpatialGrid
from weakpareto.numerics.tempered import TemperedOperator


def _field() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    t = np.linspace(0.0, 1.0, 30)
    x = np.arange(32) * 2.0 * np.pi / 32
    u = np.exp(-t)[:, None] * (1.2 + np.sin(x) + 0.4 * np.cos(3 * x))[None, :]
    return u, t, x


@pytest.mark.parametrize("family", ["tempered", "tempered_riesz"])
def test_columns_are_the_strong_form_projected(family: str) -> None:
    """theta = <u, T* phi> (adjoint on the tests) equals <T u, phi> (strong form), power 0 and 1."""
    u, t, x = _field()
    lib = family_library(u, t, x, [family], tempering=0.7, test_counts=(5, 7))  # type: ignore[list-item]
    part = lib.parts[0]
    assert isinstance(part, TemperedWeakLibrary)
    betas = np.array([0.0, 0.6, 1.4])
    op = TemperedOperator(family, 0.7)  # type: ignore[arg-type]
    strong = op.apply_bank(u, SpatialGrid.from_points(x), betas)
    np.testing.assert_allclose(part.columns(0, betas), part.project(strong), rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(part.columns(1, betas), part.project(u * strong), rtol=1e-10)


def test_untempered_parts_unchanged_and_tempering_required() -> None:
    u, t, x = _field()
    base = weak_library(u, t, x, operator="directional", test_counts=(5, 7))
    mixed = with_families(base, ("riesz", "tempered_riesz"), tempering=1.0)
    plain = with_families(base, ("riesz",))
    b = np.array([0.5, 1.5])
    np.testing.assert_array_equal(mixed.parts[0].columns(0, b), plain.parts[0].columns(0, b))
    with pytest.raises(ValueError, match="tempering"):
        with_families(base, ("tempered",))
    with pytest.raises(ValueError, match="> 0"):
        tempered_copy(base, "tempered", 0.0)


def test_exact_time_library_and_retempering() -> None:
    u, t, x = _field()
    base = exact_time_weak_library(u, t, x, operator="directional", test_counts=(5, 7))
    lib = with_families(base, ("directional", "tempered_riesz"), tempering=0.5)
    assert isinstance(lib.parts[1], TemperedExactLibrary)
    np.testing.assert_array_equal(
        lib.targets(np.array([0.8]), "sub"), base.targets(np.array([0.8]), "sub")
    )
    again = retempered(lib, 2.0)
    assert isinstance(again, FamilyLibrary) and again.parts[0] is lib.parts[0]
    assert again.parts[1].tempering == 2.0  # type: ignore[attr-defined]
    direct = with_families(base, ("directional", "tempered_riesz"), tempering=2.0)
    kind = lib.kind(0, "tempered_riesz")
    np.testing.assert_allclose(
        again.columns(kind, np.array([1.3])), direct.columns(kind, np.array([1.3]))
    )


def test_coincidences_with_untempered_families() -> None:
    """Every family is -kappa^2 at 2; the left tempered one is i kappa at 1 (from below)."""
    assert proportionality("tempered_riesz", "riesz", 2.0) == 1.0
    assert proportionality("tempered", "directional", 2.0) == 1.0
    assert proportionality("tempered", "directional", 1.0) == 1.0
    assert proportionality("tempered", "directional_right", 1.0) == -1.0
    assert proportionality("tempered_riesz", "riesz", 1.5) is None
    assert proportionality("tempered", "tempered_riesz", 1.0) is None
    assert canonical_family("tempered_riesz", 2.0, ("riesz", "tempered_riesz")) == ("riesz", 1.0)
    assert canonical_family("tempered_riesz", 1.2, ("riesz", "tempered_riesz")) == (
        "tempered_riesz",
        1.0,
    )
