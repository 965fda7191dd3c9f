"""Fractional Kelvin creep fit (weakpareto.kelvin.model) against the exact Mittag-Leffler
solution eps(t) = (sigma/E)(1 - E_alpha(-(E/eta_K) t^alpha)) on irregular, noisy records."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import gamma

from weakpareto.kelvin.model import (
    exact_creep,
    fit_kelvin,
    integral_at_nodes,
    integral_matrix,
    prepare_record,
)

#: (alpha, eta_K, E, load): the paper's clay and silt weak-integral fits (tab:frozen-soil).
CLAY = (0.469, 0.1034, 0.331, 1.11)
SILT = (0.562, 0.0744, 0.430, 1.14)


def synthetic_record(
    seed: int,
    alpha: float,
    eta: float,
    modulus: float,
    load: float,
    *,
    n: int = 56,
    span: float = 30.0,
    noise: float = 0.01,
) -> tuple[np.ndarray, np.ndarray]:
    """``n`` irregular times on ``(0, span * t_ret]``, denser early (squared uniform draws), with
    multiplicative noise ``eps (1 + noise zeta)``, ``zeta ~ U[-1, 1]`` (the paper's law)."""
    rng = np.random.default_rng(seed)
    t_ret = (eta / modulus) ** (1.0 / alpha)
    t = span * t_ret * np.sort(rng.uniform(0.0, 1.0, n)) ** 2
    eps = exact_creep(t, alpha, eta, modulus, load)
    return t, eps * (1.0 + noise * rng.uniform(-1.0, 1.0, n))


@pytest.mark.parametrize("quadrature", ["linear", "left"])
def test_uniform_integral_matrix_on_powers(quadrature):
    n, alpha = 201, 0.47
    t = np.linspace(0.0, 2.0, n)
    w = integral_matrix(n, t[1], alpha, quadrature)
    ones = w @ np.ones(n)
    assert np.allclose(ones, t**alpha / gamma(alpha + 1), atol=1e-12)  # both exact on constants
    err = np.abs(w @ t - t ** (1 + alpha) / gamma(2 + alpha)).max()
    assert err < (1e-12 if quadrature == "linear" else 2e-2)


def test_nonuniform_product_trapezoid_is_exact_for_linear_functions():
    rng = np.random.default_rng(1)
    s = np.sort(np.concatenate([[0.0], rng.uniform(0.0, 3.0, 40)]))
    rows = np.arange(s.size)
    for alpha in (0.2, 0.5, 0.9):
        w = integral_at_nodes(s, rows, alpha)
        exact = 2.0 * s**alpha / gamma(alpha + 1) + 3.0 * s ** (alpha + 1) / gamma(alpha + 2)
        assert np.allclose(w @ (2.0 + 3.0 * s), exact, rtol=1e-11, atol=1e-12)


def test_prepare_record_sorts_averages_and_anchors():
    rec = prepare_record([3.0, 1.0, 2.0, 2.0, 4.0], [0.3, 0.1, 0.2, 0.4, 0.5])
    assert rec.t.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert rec.strain.tolist() == pytest.approx([0.0, 0.1, 0.3, 0.3, 0.5])
    assert (rec.n_raw, rec.n_unique, rec.n_averaged, rec.anchored) == (5, 4, 1, True)
    rec0 = prepare_record([0.0, 1.0], [0.05, 0.1])
    assert not rec0.anchored and rec0.t.tolist() == [0.0, 1.0]


@pytest.mark.parametrize("params", [CLAY, SILT], ids=["clay", "silt"])
def test_clean_record_is_recovered_exactly(params):
    alpha, eta, modulus, load = params
    t, eps = synthetic_record(0, *params, noise=0.0)
    fit = fit_kelvin(t, eps, load)
    assert abs(fit.alpha - alpha) < 1e-3
    assert fit.modulus == pytest.approx(modulus, rel=1e-3)
    assert fit.eta_k == pytest.approx(eta, rel=2e-3)
    assert fit.t_ret == pytest.approx((eta / modulus) ** (1 / alpha), rel=5e-3)
    assert fit.residual < 1e-3 and not fit.at_bound


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("params", [CLAY, SILT], ids=["clay", "silt"])
def test_one_percent_noise_56_irregular_points(params, seed):
    """Acceptance: alpha within 0.02, E within 5 % at 1 % noise, 56 points."""
    alpha, _, modulus, load = params
    t, eps = synthetic_record(seed, *params)
    fit = fit_kelvin(t, eps, load)
    assert abs(fit.alpha - alpha) < 0.02
    assert abs(fit.modulus / modulus - 1) < 0.05
    assert 0.005 < fit.residual < 0.03  # the noise level, not a misfit


def test_noise_statistics_over_forty_seeds():
    """90 % of 40 seeds within the tolerances (measured: 90th percentile alpha error 0.010,
    E error 1.1 % for the clay parameters; the paper's recipe has 0.047 and 3.0 %)."""
    alpha, _, modulus, load = CLAY
    ours, paper = [], []
    for seed in range(40):
        t, eps = synthetic_record(seed, *CLAY)
        for recipe, out in (("ours", ours), ("paper", paper)):
            fit = fit_kelvin(t, eps, load, recipe=recipe)
            out.append((abs(fit.alpha - alpha), abs(fit.modulus / modulus - 1)))
    p90 = np.percentile(np.array(ours), 90, axis=0)
    assert p90[0] < 0.015 and p90[1] < 0.02
    assert np.percentile(np.array(paper), 90, axis=0)[0] > p90[0]  # ours is the better recipe


def test_repeated_timestamps_are_averaged_not_duplicated():
    t, eps = synthetic_record(3, *SILT)
    t2 = np.concatenate([t, t[10:12]])
    e2 = np.concatenate([eps, eps[10:12]])
    a, b = fit_kelvin(t, eps, SILT[3]), fit_kelvin(t2, e2, SILT[3])
    assert b.record.n_averaged == 2 and a.alpha == pytest.approx(b.alpha, abs=1e-9)


def test_alpha_outside_the_search_range_is_flagged():
    t, eps = synthetic_record(0, *CLAY, noise=0.0)
    fit = fit_kelvin(t, eps, CLAY[3], alpha_range=(0.6, 0.9))
    assert fit.at_bound and fit.alpha == pytest.approx(0.6, abs=0.01)


def test_bad_arguments_raise():
    t, eps = synthetic_record(0, *CLAY)
    with pytest.raises(ValueError, match="alpha_range"):
        fit_kelvin(t, eps, 1.0, alpha_range=(0.5, 1.2))
    with pytest.raises(ValueError, match="load"):
        fit_kelvin(t, eps, -1.0)
    with pytest.raises(ValueError, match="recipe"):
        fit_kelvin(t, eps, 1.0, recipe="nope")
