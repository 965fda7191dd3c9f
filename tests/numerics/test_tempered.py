"""Tempered fractional multipliers (weakpareto/numerics/tempered.py, docs/method/tempered.md)."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.numerics.operators import (
    SpatialGrid,
    apply_multiplier,
    directional_multiplier,
    riesz_multiplier,
    wavenumbers,
)
from weakpareto.numerics.tempered import (
    TemperedOperator,
    tempered_multiplier,
    tempered_riesz_at_one,
    tempered_riesz_multiplier,
    tempered_right_multiplier,
)

N, L = 64, 2.0 * np.pi
KAPPA = wavenumbers(N, L)
X = np.arange(N) * L / N
ORDERS = (0.3, 0.7, 1.0, 1.3, 1.5, 1.9, 2.0)


def _left(k: np.ndarray, b: float, lam: float) -> np.ndarray:
    """Direct complex power: (lam + ik)^b - lam^b [- ik b lam^(b-1) for b > 1]."""
    out = (lam + 1j * k) ** b - lam**b
    return out - 1j * k * b * lam ** (b - 1.0) if b > 1.0 else out


@pytest.mark.parametrize("beta", ORDERS)
def test_closed_form_on_a_plane_wave(beta: float) -> None:
    """T exp(i m x) = s(m) exp(i m x): the real part of the action on cos(m x)."""
    lam = 0.8
    for m in (1, 3, 7):
        f = np.cos(m * X)
        got = TemperedOperator("tempered", lam).apply(f, SpatialGrid.from_length(N, L), beta)
        s = _left(np.array(float(m)), beta, lam)
        np.testing.assert_allclose(got, (s * np.exp(1j * m * X)).real, atol=1e-11)
        got_r = TemperedOperator("tempered_riesz", lam).apply(
            f, SpatialGrid.from_length(N, L), beta
        )
        if beta != 1.0:
            sr = -((lam + 1j * m) ** beta + (lam - 1j * m) ** beta - 2 * lam**beta).real / (
                2 * np.cos(np.pi * beta / 2)
            )
        else:
            sr = float(tempered_riesz_at_one(np.array(float(m)), lam))
        np.testing.assert_allclose(got_r, sr * f, atol=1e-11)


@pytest.mark.parametrize("kind", ["tempered", "tempered_riesz"])
def test_adjoint_identity_on_the_period(kind: str) -> None:
    """<T f, g> = <f, T* g> for the discrete inner product, every order of a bank."""
    rng = np.random.default_rng(0)
    f, g = rng.standard_normal((2, N))
    op, grid = TemperedOperator(kind, 1.3), SpatialGrid.from_length(N, L)  # type: ignore[arg-type]
    betas = np.array(ORDERS)
    tf, tg = op.apply_bank(f, grid, betas), op.adjoint_bank(g, grid, betas)
    np.testing.assert_allclose((tf * g).sum(axis=-1), (f * tg).sum(axis=-1), rtol=1e-12, atol=1e-12)


def test_adjoint_of_left_is_the_right_tempered_derivative() -> None:
    rng = np.random.default_rng(1)
    g = rng.standard_normal(N)
    grid = SpatialGrid.from_length(N, L)
    for beta in (0.6, 1.4):
        adj = TemperedOperator("tempered", 0.5).adjoint(g, grid, beta)
        right = apply_multiplier(g, tempered_right_multiplier(KAPPA, beta, 0.5))
        np.testing.assert_allclose(adj, right, atol=1e-12)


def test_riesz_is_self_adjoint_real_and_dissipative() -> None:
    s = tempered_riesz_multiplier(KAPPA, np.array(ORDERS[:-1]), 0.7)
    assert s.dtype == float and np.all(s <= 1e-15)
    np.testing.assert_array_equal(s[:, 1 : N // 2], s[:, N - 1 : N // 2 : -1])  # even in kappa


def test_lambda_to_zero_recovers_the_untempered_families() -> None:
    betas = np.array([0.5, 1.0, 1.5, 2.0])
    np.testing.assert_array_equal(
        tempered_riesz_multiplier(KAPPA, betas, 0.0), riesz_multiplier(KAPPA, betas)
    )
    np.testing.assert_array_equal(
        tempered_multiplier(KAPPA, betas, 0.0), directional_multiplier(KAPPA, betas)
    )
    for lam in (1e-4, 1e-7):  # converges like lambda^min(beta, 1) (times log lambda at 1)
        err = np.abs(tempered_riesz_multiplier(KAPPA, betas, lam) - riesz_multiplier(KAPPA, betas))
        bound = 5.0 * lam ** np.minimum(betas, 1.0) * (1.0 + abs(np.log(lam)))
        assert np.all(err.max(axis=1) < bound)
    np.testing.assert_allclose(tempered_riesz_at_one(KAPPA, 1e-12), -np.abs(KAPPA), atol=1e-9)


def test_mass_and_mean_preserved() -> None:
    """Zero mode annihilated (mass); for beta > 1 also s'(0) = 0 (mean): s(k) / k -> 0."""
    for kind in ("tempered", "tempered_riesz"):
        op = TemperedOperator(kind, 1.0)  # type: ignore[arg-type]
        f = 1.0 + np.sin(X) + 0.3 * np.cos(4 * X)
        out = op.apply_bank(f, SpatialGrid.from_length(N, L), np.array(ORDERS))
        np.testing.assert_allclose(out.sum(axis=-1), 0.0, atol=1e-11)
    small = np.array([1e-5, -1e-5])
    for beta in (1.2, 1.5, 1.9):
        assert np.all(np.abs(tempered_multiplier(small, beta, 1.0) / small) < 1e-4)
    assert abs(tempered_multiplier(small, 0.5, 1.0)[0] / small[0] - 0.5j) < 1e-4  # drift below 1


def test_orders_one_and_two() -> None:
    """Left family: i kappa at 1 (its left limit), -kappa^2 at 2; Riesz continuous at 1."""
    lam = 0.9
    np.testing.assert_allclose(tempered_multiplier(KAPPA, 1.0, lam), 1j * KAPPA, atol=1e-13)
    for s in (tempered_multiplier(KAPPA, 2.0, lam), tempered_riesz_multiplier(KAPPA, 2.0, lam)):
        np.testing.assert_allclose(s, -(KAPPA**2), atol=1e-11)
    near = tempered_riesz_multiplier(KAPPA, 1.0 + 7e-5 * np.arange(-3, 4), lam)  # across 1e-4
    steps = np.abs(np.diff(near, axis=0)).max(axis=1)
    np.testing.assert_allclose(steps, steps.mean(), rtol=1e-3)  # no jump at 1 nor at the edges
    assert np.all(np.isfinite(near))


def test_identity_and_refusals() -> None:
    np.testing.assert_array_equal(tempered_multiplier(KAPPA, 0.0, 1.0), np.ones(N))
    np.testing.assert_array_equal(tempered_riesz_multiplier(KAPPA, 0.0, 1.0), np.ones(N))
    for bad in (-0.1, 2.1, np.nan):
        with pytest.raises(ValueError, match="tempered orders"):
            tempered_multiplier(KAPPA, bad, 1.0)
    with pytest.raises(ValueError, match="tempering"):
        tempered_riesz_multiplier(KAPPA, 1.5, -1.0)
