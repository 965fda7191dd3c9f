"""Weak Grid-STRidge ablation and its fixed-dictionary stability variant
(docs/method/baselines.md#weak-grid-stridge, #fixed-dictionary-stability)."""

import numpy as np
import pytest

from weakpareto.baselines.grid_stridge import (
    GridSTRidgeSettings,
    alpha_candidates,
    fixed_dictionary_stability,
    grid_stridge,
    grid_stridge_fit,
    masked_ridge,
    scaled_weak_library,
    stridge_batch,
)
from weakpareto.benchmarks.noise import add_noise
from weakpareto.library.weak import weak_library
from weakpareto.method.settings import DiscoveryConfig
from weakpareto.numerics.orders import beta_nodes

ALPHA_RANGE = (0.6, 0.9)
BETA_RANGE = (0.5, 2.0)
N_ALPHA = 7  # uniform alpha nodes 0.6, 0.65, ..., 0.9
TRUE_ALPHA = 0.7
BETAS = beta_nodes(BETA_RANGE, 59)
TRUE_TERMS = ((0, float(BETAS[14]), -1.0), (1, float(BETAS[40]), 0.5))  # on grid nodes


class SyntheticSource:
    """Exact linear problem: ``b(alpha) = sum xi_j theta(p_j, beta_j) + (alpha - alpha*) h``.

    Columns are fixed pseudo-random vectors per (power, beta); the target is exact at the true
    order and departs from the span linearly in alpha, so only alpha* admits an exact fit.
    """

    n_rows = 480

    def __init__(self) -> None:
        rng = np.random.default_rng(123)
        self.h = rng.standard_normal(self.n_rows)

    def _col(self, p: int, b: float) -> np.ndarray:
        key = (p, int(round(b * 1e6)))
        return np.random.default_rng(key).standard_normal(self.n_rows)

    def columns(self, power, betas):
        return np.stack([self._col(power, float(b)) for b in np.atleast_1d(betas)])

    def targets(self, alphas, mode):
        exact = sum(c * self._col(p, b) for p, b, c in TRUE_TERMS)
        return np.stack([exact + (a - TRUE_ALPHA) * self.h for a in np.atleast_1d(alphas)])


def _cfg(seed: int = 0) -> DiscoveryConfig:
    return DiscoveryConfig(
        alpha_range=ALPHA_RANGE,
        beta_range=BETA_RANGE,
        powers=(0, 1),
        n_alpha_nodes=N_ALPHA,
        seed=seed,
    )


def test_recovers_exact_two_term_problem_on_grid_nodes():
    res = grid_stridge(SyntheticSource(), _cfg())
    eq = res.final
    assert eq.mode == "sub" and eq.alpha == pytest.approx(TRUE_ALPHA, abs=1e-12)
    got = [(t.power, t.order) for t in eq.terms]
    assert got == [(p, pytest.approx(b, abs=1e-12)) for p, b, _ in TRUE_TERMS]
    np.testing.assert_allclose([t.coef for t in eq.terms], [-1.0, 0.5], rtol=1e-6)
    assert res.fit_error < 1e-6
    assert res.selected_size == 2 and res.pareto == (2,) and len(res.front) == 1
    assert res.front[0].bic < 0 and res.front[0].equation == eq


def test_deterministic_for_fixed_seed(noisy_fade):
    u, t, x = noisy_fade
    lib = weak_library(u, t, x, operator="directional", power_mode="positive", budget="smoke")
    cfg = DiscoveryConfig(alpha_range=(0.6, 1.05), beta_range=(0.5, 2.0), seed=3)
    a, b = grid_stridge(lib, cfg), grid_stridge(lib, cfg)
    assert a.final == b.final and a.fit_error == b.fit_error
    src = SyntheticSource()
    assert grid_stridge(src, _cfg(5)).final == grid_stridge(src, _cfg(5)).final


def test_alpha_candidates_follow_branches():
    cands = alpha_candidates((0.6, 1.05), 47, 1e-3)
    modes = [m for m, _ in cands]
    assert modes.count("sub") == 41 and modes.count("int") == 1 and modes.count("sup") == 6
    assert ("int", 1.0) in cands
    assert max(a for m, a in cands if m == "sub") < 0.999
    assert min(a for m, a in cands if m == "sup") > 1.001
    uniform = np.linspace(0.65, 1.0, 47)  # the last uniform node is the exact integer order
    assert alpha_candidates((0.65, 1.0), 47, 1e-3) == [("sub", float(a)) for a in uniform[:-1]] + [
        ("int", 1.0)
    ]


def _naive_stridge(xn, y, thr, ridge, max_iter, max_terms=None):
    """Per-problem STRidge with explicit active-set sub-systems (reference for the batch)."""
    m = xn.shape[1]

    def fit(act):
        coef = np.zeros(m)
        if act.any():
            sub = xn[:, act]
            coef[act] = np.linalg.solve(sub.T @ sub + ridge * np.eye(act.sum()), sub.T @ y)
        return coef

    act = np.ones(m, dtype=bool)
    for _ in range(max_iter):
        coef = fit(act)
        new = act & (np.abs(coef) >= thr)
        if max_terms is not None and new.sum() > max_terms:
            keep = np.argsort(-np.where(new, np.abs(coef), -np.inf), kind="stable")[:max_terms]
            capped = np.zeros(m, dtype=bool)
            capped[keep] = True
            new &= capped
        if (new == act).all():
            break
        act = new
        if not act.any():
            break
    return fit(act), act


@pytest.mark.parametrize("max_terms", [None, 3])
def test_stridge_batch_matches_naive_loop(max_terms):
    rng = np.random.default_rng(0)
    n, m = 60, 12
    xn = rng.standard_normal((n, m))
    xn /= np.linalg.norm(xn, axis=0)
    ys = rng.standard_normal((4, n)) * 0.05
    ys[0] += 2.0 * xn[:, 1] - 0.7 * xn[:, 5]
    ys[1] += xn @ rng.standard_normal(m)
    thresholds = np.logspace(-3, 0, 7)
    which = np.repeat(np.arange(4), thresholds.size)
    thr = np.tile(thresholds, 4)
    for max_iter in (1, 2, 20):
        coef, active = stridge_batch(
            xn.T @ xn, ys @ xn, which, thr, 1e-8, max_iter=max_iter, max_terms=max_terms
        )
        for i in range(which.size):
            ref, act = _naive_stridge(xn, ys[which[i]], thr[i], 1e-8, max_iter, max_terms)
            np.testing.assert_array_equal(active[i], act)
            np.testing.assert_allclose(coef[i], ref, rtol=1e-9, atol=1e-12)


def test_masked_ridge_zero_off_support():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((30, 5))
    y = rng.standard_normal(30)
    act = np.array([[True, False, True, False, False], [False] * 5])
    sol = masked_ridge(x.T @ x, np.tile(x.T @ y, (2, 1)), act, 1e-3)
    sub = x[:, act[0]]
    ref = np.linalg.solve(sub.T @ sub + 1e-3 * np.eye(2), sub.T @ y)
    np.testing.assert_allclose(sol[0, act[0]], ref)
    assert not sol[0, ~act[0]].any() and not sol[1].any()


def test_fade_ablation_overfits_like_the_paper(fade_field):
    """Paper tab:ablation: Grid-STRidge 0/5 support at 10 % FADE noise, E_fit 0.014 +- 0.001."""
    u, t, x = fade_field
    noisy = add_noise(u, "multiplicative", 0.1, 0)
    lib = weak_library(noisy, t, x, operator="directional", power_mode="positive")
    cfg = DiscoveryConfig(alpha_range=(0.6, 1.05), beta_range=(0.5, 2.0), seed=0)
    fit = grid_stridge_fit(lib, cfg)
    assert fit.size > 2  # the coherent dictionary is fitted by a dense combination
    assert 0.010 < fit.fit_error < 0.018
    assert fit.mode == "sub" and abs(fit.alpha - 0.8) < 0.05
    assert len(GridSTRidgeSettings().thresholds) == 17


def test_scaled_library_scale_one_is_the_weak_library(fade_field):
    u, t, x = fade_field
    ref = weak_library(u, t, x, operator="directional", power_mode="positive")
    lib = scaled_weak_library(u, t, x, operator="directional", power_mode="positive")
    np.testing.assert_array_equal(lib.temporal_tests, ref.temporal_tests)
    np.testing.assert_array_equal(lib.spatial_tests, ref.spatial_tests)
    wide = scaled_weak_library(u, t, x, operator="directional", width_scale=1.2)
    assert wide.shape == ref.shape
    # a wider Gaussian (l2-normalised) has a lower peak
    assert wide.temporal_tests.max() < ref.temporal_tests.max()
    assert wide.spatial_tests.max() < ref.spatial_tests.max()


def test_stability_variant_reports_most_frequent_signature(fade_field):
    u, t, x = fade_field
    cfg = DiscoveryConfig(alpha_range=(0.6, 1.05), beta_range=(0.5, 2.0), seed=0)
    out = fixed_dictionary_stability(
        u,
        t,
        x,
        cfg,
        power_mode="positive",
        settings=GridSTRidgeSettings(max_terms=2),
        budget="smoke",
    )
    assert len(out.members) == 6
    assert {(m.width_scale, m.split) for m in out.members} == {
        (s, k) for s in (0.85, 1.0, 1.2) for k in (0, 1)
    }
    assert {m.split_seed for m in out.members} == {0, 1046}
    sigs = [m.fit.signature() for m in out.members]
    assert out.frequency == sigs.count(out.signature) == max(sigs.count(s) for s in sigs)
    group = [m.fit for m in out.members if m.fit.signature() == out.signature]
    best = min(group, key=lambda f: f.val_error)
    assert out.result.final == best.equation() and out.result.fit_error == best.fit_error
    again = fixed_dictionary_stability(
        u,
        t,
        x,
        cfg,
        power_mode="positive",
        settings=GridSTRidgeSettings(max_terms=2),
        budget="smoke",
    )
    assert again.result.final == out.result.final


def test_config_entry_point_matches_direct_call(fade_field):
    from weakpareto.campaign.compose import compose_config
    from weakpareto.campaign.compute import fit_spec
    from weakpareto.fit.run import fit
    from weakpareto.fit.sources import FitField

    u, t, x = fade_field
    cfg = compose_config(["benchmark=fade", "method=weak_grid_stridge", "search.test_budget=smoke"])
    res = fit(FitField(u, t, x, period=30.0), fit_spec(cfg, 2)).result
    lib = weak_library(u, t, x, operator="directional", power_mode="positive", budget="smoke")
    ref = grid_stridge(lib, DiscoveryConfig(alpha_range=(0.6, 1.05), beta_range=(0.5, 2.0), seed=2))
    assert res.final == ref.final and res.fit_error == pytest.approx(ref.fit_error, rel=1e-12)
