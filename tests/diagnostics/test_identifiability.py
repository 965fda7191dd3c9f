"""Burgers structure margins and local spatial-order sensitivity (paper tab:burgers,
Prop. local-identifiability, Eq. weak-order-sensitivity, tab:local-identifiability)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from weakpareto.benchmarks.catalogue import load_benchmark
from weakpareto.benchmarks.generators import generate
from weakpareto.diagnostics.identifiability import (
    BURGERS_POOL,
    benchmark_library,
    burgers_margin,
    fixed_support_profile,
    order_sensitivity,
    orthogonal_residual,
    positive_interval,
    principal_order_index,
    profile_orders,
    profiled_local_change,
    structure_residuals,
    true_system,
)
from weakpareto.evaluation.metrics import truth_equation
from weakpareto.library.weak import weak_library
from weakpareto.records import Equation, Term


@pytest.fixture(scope="module")
def burgers_clean():
    bench = load_benchmark("burgers")
    fld = generate(bench, 0)
    return bench, fld, benchmark_library(bench, fld.u, fld.t, fld.x)


@pytest.fixture(scope="module")
def fade_clean():
    bench = load_benchmark("fade")
    fld = generate(bench, 0)
    return bench, fld, benchmark_library(bench, fld.u, fld.t, fld.x)


# -- Proposition local-identifiability ----------------------------------------------------------
@pytest.mark.parametrize("shape", [(40, 1), (200, 3), (500, 6)])
def test_profiled_change_identity_random(shape):
    """min_v ||Theta v + xi dtheta|| = |xi| ||(I - P) dtheta|| (Eq. profiled-local-change)."""
    rng = np.random.default_rng(sum(shape))
    k, c = shape
    theta = rng.standard_normal((k, c)) * rng.uniform(0.1, 10.0, c)
    dtheta = rng.standard_normal(k)
    xi = float(rng.uniform(-3.0, 3.0))
    # left side: the refit itself (least squares over v)
    v = np.linalg.lstsq(theta, -xi * dtheta, rcond=None)[0]
    lhs = np.linalg.norm(theta @ v + xi * dtheta)
    # right side: projector from a QR factorisation (independent of lstsq's SVD)
    q, _ = np.linalg.qr(theta)
    rhs_qr = abs(xi) * np.linalg.norm(dtheta - q @ (q.T @ dtheta))
    rhs = profiled_local_change(theta, dtheta, xi)
    assert abs(lhs - rhs_qr) <= 1e-12 * max(1.0, rhs_qr)
    assert abs(rhs - rhs_qr) <= 1e-12 * max(1.0, rhs_qr)
    # the residual is orthogonal to col(Theta)
    r = orthogonal_residual(theta, dtheta)
    assert np.max(np.abs(theta.T @ r)) <= 1e-12 * np.linalg.norm(theta) * np.linalg.norm(dtheta)


def test_profiled_change_rank_deficient_design():
    rng = np.random.default_rng(7)
    a = rng.standard_normal((60, 2))
    theta = np.column_stack([a, a @ [1.0, -2.0]])  # rank 2
    dtheta = rng.standard_normal(60)
    q, _ = np.linalg.qr(a)
    expected = np.linalg.norm(dtheta - q @ (q.T @ dtheta))
    assert profiled_local_change(theta, dtheta, -1.0) == pytest.approx(expected, rel=1e-12)


def test_prop_matches_finite_refit_on_weak_features(fade_clean):
    """The first-order refit change of Prop. local-identifiability on exact FADE features."""
    _, _, lib = fade_clean
    truth = truth_equation(load_benchmark("fade"))
    j = principal_order_index(truth)
    term = truth.terms[j]
    _, theta = true_system(lib, truth)
    xi = np.array([t.coef for t in truth.terms])
    s = order_sensitivity(lib, truth, j)
    predicted = abs(term.coef) * np.linalg.norm(theta[:, j]) * s
    delta = 1e-4
    moved = theta.copy()
    moved[:, j] = lib.columns(term.power, np.array([term.order + delta]))[0]
    change = (moved - theta) @ xi  # Theta(beta + d) xi - Theta(beta) xi
    v = np.linalg.lstsq(moved, -change, rcond=None)[0]  # refit xi -> xi + v
    actual = np.linalg.norm(moved @ v + change) / delta
    assert actual == pytest.approx(predicted, rel=1e-3)


# -- S_beta --------------------------------------------------------------------------------------
@dataclass
class _Quadratic:
    """Feature source with theta_0 = z (power 1) and theta_1(beta) = beta^2 w + beta z (power 0)."""

    w: np.ndarray
    z: np.ndarray
    r: np.ndarray | None = None  # adds sin(beta) r, a direction outside col(Theta) if generic

    @property
    def n_rows(self) -> int:
        return self.w.size

    def targets(self, alphas, mode):
        return np.zeros((np.size(alphas), self.w.size))

    def columns(self, power, betas):
        betas = np.atleast_1d(np.asarray(betas, dtype=float))
        if power == 1:
            return np.repeat(self.z[None], betas.size, axis=0)
        out = betas[:, None] ** 2 * self.w + betas[:, None] * self.z
        if self.r is not None:
            out = out + np.sin(betas)[:, None] * self.r
        return out


TWO_TERMS = Equation("int", 1.0, (Term(1, 1.0, -1.0), Term(0, 1.3, 0.5)), "directional")


def test_s_beta_zero_when_derivative_in_column_space():
    rng = np.random.default_rng(3)
    w, z = rng.standard_normal(300), rng.standard_normal(300)
    # d theta_1 / d beta = 2 beta w + z = (2/beta) theta_1 - z  lies in span{z, theta_1}
    assert order_sensitivity(_Quadratic(w, z), TWO_TERMS, 1) < 1e-9
    generic = _Quadratic(w, z, r=rng.standard_normal(300))
    assert order_sensitivity(generic, TWO_TERMS, 1) > 1e-2


def test_s_beta_riesz_single_wavenumber_is_zero_directional_is_not():
    """Paper Eq. spectral-order-sensitivity: one |kappa| gives a pure rescaling for Riesz."""
    t = 0.05 * np.arange(40)
    x = np.arange(64) * (20.0 / 64)
    u = np.exp(-0.3 * t)[:, None] * np.cos(2 * np.pi * 3 * x / 20.0)[None, :]
    one = Equation("int", 1.0, (Term(0, 1.5, 0.2),), "riesz")
    riesz = weak_library(u, t, x, operator="riesz", period=20.0)
    assert order_sensitivity(riesz, one, 0) < 1e-6
    directional = weak_library(u, t, x, operator="directional", period=20.0)
    assert order_sensitivity(directional, one, 0) > 0.1


def test_s_beta_fade_clean_matches_paper(fade_clean):
    _, _, lib = fade_clean
    truth = truth_equation(load_benchmark("fade"))
    j = principal_order_index(truth)
    assert truth.terms[j].order == pytest.approx(1.7)
    assert order_sensitivity(lib, truth, j) == pytest.approx(0.502, rel=0.02)  # paper 0.502


def test_s_beta_scale_invariant(burgers_clean):
    """Rescaling the field rescales u u_x by c^2 and D^1.7 u by c: S_beta is unchanged."""
    bench, fld, lib = burgers_clean
    truth = truth_equation(bench)
    j = principal_order_index(truth)
    s = order_sensitivity(lib, truth, j)
    scaled = benchmark_library(bench, 3.7 * fld.u, fld.t, fld.x)
    assert order_sensitivity(scaled, truth, j) == pytest.approx(s, rel=1e-8)
    assert s == pytest.approx(1.610, rel=0.02)  # paper 1.610


# -- Burgers structure comparison ----------------------------------------------------------------
def test_structure_residuals_all_pairs(burgers_clean):
    _, _, lib = burgers_clean
    df = structure_residuals(lib, BURGERS_POOL)
    assert len(df) == 21
    assert sorted(df["rank"]) == list(range(1, 22))
    best = df.loc[df["residual"].idxmin()]
    assert best["structure"] == "{u u_x, D^1.7 u}"


def test_burgers_clean_margin():
    df = burgers_margin([0.0], seed=0)
    row = df.iloc[0]
    assert bool(row["true_selected"])
    assert row["margin"] > 100.0
    assert row["margin"] == pytest.approx(218.3, abs=0.5)  # paper 218.3x
    assert row["competitor"] == "{u u_x, u_xx}"
    assert row["e_xi_max"] < 0.005  # paper 0.002
    assert row["n_structures"] == 21


# -- fixed-support profile -----------------------------------------------------------------------
def test_profile_grid_merges_rounding_twin():
    grid = profile_orders((0.5, 2.0), 1.7)
    assert grid.size == 61 and 1.7 in grid
    assert profile_orders((0.5, 2.0), 1.7, merge_tol=0.0).size == 62
    assert profile_orders((0.5, 2.0), 1.71).size == 62
    lo, hi = positive_interval((0.0, 2.1))
    assert lo == pytest.approx(2.1 / 58) and hi == 2.1
    assert positive_interval((0.5, 2.0)) == (0.5, 2.0)


def test_fixed_support_profile_burgers_clean(burgers_clean):
    bench, _, lib = burgers_clean
    truth = truth_equation(bench)
    j = principal_order_index(truth)
    est = fixed_support_profile(lib, truth, j, tuple(bench.library.beta_range), seed=0)
    assert abs(est - 1.7) < 1e-4  # paper: (1.3 +- 2.1) x 1e-5 over five seeds
