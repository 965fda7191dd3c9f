"""Strong-Pareto's pointwise library (docs/method/baselines.md#strong-pareto) against direct
formulas, and recovery."""

import math

import numpy as np
import pytest

from weakpareto.benchmarks.noise import add_noise
from weakpareto.library.strong import pointwise_library
from weakpareto.library.weak import weak_library
from weakpareto.method.discovery import discover
from weakpareto.method.settings import DiscoveryConfig, RefineSettings, SearchSettings


@pytest.fixture(scope="module")
def small():
    rng = np.random.default_rng(7)
    nt, nx = 16, 12
    t = 0.05 * np.arange(nt)
    length = 3.0
    x = np.arange(nx) * (length / nx)
    u = 0.3 + np.sin(2 * np.pi * x / length)[None] * np.cos(t)[:, None]
    u = u + 0.05 * rng.standard_normal((nt, nx))
    return u, t, x, length


def _d1(u, h):
    """Forward first row, central interior, backward last row
    (docs/method/operators.md#first-derivative-matrix)."""
    out = np.empty_like(u)
    out[0] = (u[1] - u[0]) / h
    out[-1] = (u[-1] - u[-2]) / h
    out[1:-1] = (u[2:] - u[:-2]) / (2 * h)
    return out


def _l1(u, h, alpha):
    """``c sum_{k<n} w_k (u_{n-k} - u_{n-k-1})`` row by row, row 0 NaN
    (docs/method/operators.md#l1-caputo-matrix, #pointwise-operators)."""
    c = h**-alpha / math.gamma(2 - alpha)
    out = np.full_like(u, np.nan)
    for n in range(1, u.shape[0]):
        acc = np.zeros(u.shape[1])
        for k in range(n):
            w = (k + 1) ** (1 - alpha) - k ** (1 - alpha)
            acc += w * (u[n - k] - u[n - k - 1])
        out[n] = c * acc
    return out


def _spectral(u, length, beta, kind):
    """Naive-DFT periodic multiplier along x (directional ``(i k)^beta`` or Riesz ``-|k|^beta``)."""
    n = u.shape[1]
    m = np.concatenate([np.arange(0, (n + 1) // 2), np.arange(-(n // 2), 0)])
    kappa = 2 * np.pi * m / length
    if kind == "directional":
        s = np.where(kappa == 0, 0.0, (1j * kappa + 0j) ** beta)
    else:
        s = -(np.abs(kappa) ** beta)
    j = np.arange(n)
    fmat = np.exp(-2j * np.pi * np.outer(m, j) / n)  # forward DFT
    spec = u @ fmat.T
    return ((spec * s) @ np.conj(fmat) / n).real


def test_targets_match_direct_formulas(small):
    u, t, x, length = small
    h = t[1] - t[0]
    lib = pointwise_library(u, t, x, "directional", "raw", trim_t=2, trim_x=1, period=length)
    assert lib.n_rows == (16 - 4) * (12 - 2)
    inner = (slice(2, 14), slice(1, 11))
    np.testing.assert_allclose(
        lib.targets(np.array([1.0]), "int")[0], _d1(u, h)[inner].ravel(), rtol=1e-12
    )
    for a in (0.35, 0.8):
        got = lib.targets(np.array([a]), "sub")[0]
        np.testing.assert_allclose(got, _l1(u, h, a)[inner].ravel(), rtol=1e-11)
    a = 1.6
    got = lib.targets(np.array([a]), "sup")[0]
    np.testing.assert_allclose(got, _l1(_d1(u, h), h, a - 1)[inner].ravel(), rtol=1e-11)


def test_untrimmed_fractional_target_has_nan_first_row(small):
    u, t, x, length = small
    lib = pointwise_library(u, t, x, "riesz", "raw", period=length)
    sub = lib.targets(np.array([0.5, 0.7]), "sub").reshape(2, 16, 12)
    sup = lib.targets(np.array([1.3]), "sup").reshape(1, 16, 12)
    assert np.isnan(sub[:, 0]).all() and np.isnan(sup[:, 0]).all()
    assert np.isfinite(sub[:, 1:]).all() and np.isfinite(sup[:, 1:]).all()
    assert np.isfinite(lib.targets(np.array([1.0]), "int")).all()


@pytest.mark.parametrize("kind", ["directional", "riesz"])
@pytest.mark.parametrize("mode", ["positive", "raw"])
def test_columns_match_direct_formulas(small, kind, mode):
    u, t, x, length = small
    u = u - 0.3  # sign-changing so the positive-part clip matters
    lib = pointwise_library(u, t, x, kind, mode, trim_t=1, trim_x=2, period=length)
    betas = np.array([0.0, 0.7, 1.0, 1.7])
    inner = (slice(1, 15), slice(2, 10))
    for p in (0, 1, 2):
        cols = lib.columns(p, betas)
        assert cols.shape == (4, lib.n_rows)
        base = np.maximum(u, 0.0) if mode == "positive" else u
        weight = base**p if p else np.ones_like(u)
        np.testing.assert_allclose(cols[0], (weight * u)[inner].ravel(), rtol=1e-13)
        for g, b in enumerate(betas[1:], start=1):
            ref = weight * _spectral(u, length, b, kind)
            np.testing.assert_allclose(cols[g], ref[inner].ravel(), rtol=1e-10, atol=1e-12)


def test_gl_left_columns_are_grunwald_sums(small):
    u, t, x, length = small
    dx = x[1] - x[0]
    lib = pointwise_library(u, t, x, "gl_left", "raw")
    b = 0.6
    g = np.ones(x.size)
    for m in range(1, x.size):
        g[m] = -g[m - 1] * (b - m + 1) / m
    ref = np.zeros_like(u)
    for i in range(x.size):
        ref[:, i] = dx**-b * sum(g[i - j] * u[:, j] for j in range(i + 1))
    np.testing.assert_allclose(lib.columns(0, np.array([b]))[0], ref.ravel(), rtol=1e-12)
    np.testing.assert_allclose(lib.columns(1, np.array([0.0]))[0], (u * u).ravel())


def test_fade_trim_gives_16800_rows(fade_field):
    u, t, x = fade_field
    lib = pointwise_library(u, t, x, "directional", "positive", trim_t=5, trim_x=0)
    assert lib.shape == (140, 120) and lib.n_rows == 16800
    np.testing.assert_array_equal(lib.columns(0, np.array([0.0]))[0], u[5:145].ravel())


def test_bad_trim_rejected(small):
    u, t, x, _ = small
    with pytest.raises(ValueError, match="leaves no nodes"):
        pointwise_library(u, t, x, "directional", trim_t=8)


def test_weak_and_strong_see_identical_noise_realisation(fade_field):
    """The same noisy array feeds both libraries (noise is shared, never re-drawn;
    docs/method/benchmarks.md#noise-laws)."""
    u, t, x = fade_field
    noisy = add_noise(u, "multiplicative", 0.1, 3)
    np.testing.assert_array_equal(noisy, add_noise(u, "multiplicative", 0.1, 3))
    weak = weak_library(noisy, t, x, operator="directional", power_mode="positive")
    strong = pointwise_library(noisy, t, x, "directional", "positive", trim_t=5, trim_x=0)
    assert np.shares_memory(weak.u, noisy) and np.shares_memory(strong.u, noisy)
    # identity columns expose the field each library actually uses
    np.testing.assert_array_equal(strong.columns(0, np.array([0.0]))[0], noisy[5:145].ravel())
    np.testing.assert_allclose(weak.columns(0, np.array([0.0]))[0], weak.project(noisy))
    assert not np.allclose(strong.columns(0, np.array([0.0]))[0], u[5:145].ravel())


def test_strong_pareto_recovers_clean_fade(fade_field):
    """Paper tab:robustness: Strong-Pareto recovers FADE at 0 % noise (5/5 seeds)."""
    u, t, x = fade_field
    lib = pointwise_library(u, t, x, "directional", "positive", trim_t=5, trim_x=0)
    cfg = DiscoveryConfig(
        alpha_range=(0.6, 1.05),
        beta_range=(0.5, 2.0),
        seed=0,
        search=SearchSettings(popsize=5, maxiter=10, updating="deferred", vectorized=True),
        refine=RefineSettings(polish=False, refit=False),
    )
    res = discover(lib, cfg)
    eq = res.final
    assert eq.mode == "sub" and abs(eq.alpha - 0.8) < 0.02
    assert [term.power for term in eq.terms] == [0, 0]
    orders = sorted(term.order for term in eq.terms)
    assert abs(orders[0] - 1.0) < 0.05 and abs(orders[1] - 1.7) < 0.05
    coefs = {round(term.order): term.coef for term in eq.terms}
    assert abs(coefs[1] + 1.0) < 0.05 and abs(coefs[2] - 0.5) < 0.05
    assert res.fit_error < 1e-2  # paper: strong E_fit 2.7e-3 at 0 %
