"""Block bootstrap of the weak equations (weakpareto.method.bootstrap).

Real-number checks on the shipped FADE field (truth D_t^0.8 u = -u_x + 0.5 D_x^1.7 u) with the
support and orders held at the truth's, so no search runs: the 90 % intervals contain the truth
at 5 % noise, shrink from 5 % to 1 % noise, and are bit-identical for the same seed.
"""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.library.weak import weak_library
from weakpareto.library.weak_exact import exact_time_weak_library
from weakpareto.method.bootstrap import (
    BootstrapSettings,
    Bounds,
    LocalBank,
    Model,
    _relative,
    _relative_batch,
    block_lengths,
    bootstrap,
    catmull_rom,
    catmull_rom_batch,
    central_interval,
    overlap_block_length,
    resample_counts,
    residual_block_length,
    tile_labels,
)
from weakpareto.method.exact_fit import exact_system, fit_rows
from weakpareto.method.settings import DEFAULT_EPS_ALPHA
from weakpareto.numerics.windows import gaussian_test_functions

TRUTH = Model("sub", 0.8, (0, 0), (1.0, 1.7))
BOUNDS = Bounds((0.6, 1.0 - DEFAULT_EPS_ALPHA), (0.5, 2.0))


# -- blocks ---------------------------------------------------------------------------------------
def test_tiles_are_blocks_of_neighbouring_tests():
    shape, blocks = (7, 10), (3, 4)
    labels = tile_labels(shape, blocks).reshape(shape)
    assert labels.max() + 1 == 3 * 3  # ceil(7/3) x ceil(10/4), the last tiles shorter
    for i in range(7):
        for j in range(10):
            assert labels[i, j] == (i // 3) * 3 + j // 4
    # every tile is a contiguous rectangle of the test grid
    for k in range(9):
        ii, jj = np.nonzero(labels == k)
        assert (ii.max() - ii.min() + 1) * (jj.max() - jj.min() + 1) == ii.size
    # rows are flattened row-major, as WeakLibrary.project does (l_t * K_x + l_x)
    flat = tile_labels(shape, blocks)
    assert flat[1 * 10 + 5] == labels[1, 5]
    three = tile_labels((4, 4, 4), (2, 2, 4))
    assert three.max() + 1 == 4 and np.all(three.reshape(4, 4, 4)[:2, :2, :] == 0)
    with pytest.raises(ValueError):
        tile_labels((4, 4), (2,))


def test_resampling_draws_whole_tiles_deterministically():
    a = resample_counts(12, 50, seed=3)
    assert a.shape == (50, 12) and np.all(a.sum(axis=1) == 12)
    assert np.array_equal(a, resample_counts(12, 50, seed=3))
    assert not np.array_equal(a, resample_counts(12, 50, seed=4))
    # a row's weight is its tile's multiplicity: rows of one tile always move together
    labels = tile_labels((6, 8), (2, 4))
    weights = a[:, labels[labels < 12]]
    for k in range(6):
        rows = np.flatnonzero(labels == k)
        assert np.all(weights[:, rows] == weights[:, rows[:1]])


def test_block_length_follows_the_gaussian_overlap():
    # width w, centre spacing s: overlap exp(-(L s)^2 / (4 w^2)) >= 0.1 up to L = 2w sqrt(ln 10)/s
    grid = np.linspace(0.0, 30.0, 301)
    width = 1.0
    tests = gaussian_test_functions(grid, 40, width)
    spacing = (30.0 - 5.0 * width) / 39
    expected = 1 + int(np.floor(2 * width * np.sqrt(np.log(10.0)) / spacing))
    assert abs(overlap_block_length(tests, 0.1) - expected) <= 1
    # orthogonal tests (Fourier) are independent rows: blocks of one
    x = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    fourier = np.array([np.cos(m * x) for m in range(1, 9)] + [np.sin(m * x) for m in range(1, 9)])
    assert overlap_block_length(fourier, 0.1) == 1


def test_residual_block_length():
    rng = np.random.default_rng(0)
    white = rng.standard_normal((40, 60))
    assert residual_block_length(white, 0, 0.1) == 1
    assert residual_block_length(white, 1, 0.1) == 1
    smooth = np.cumsum(rng.standard_normal((40, 60)), axis=0)  # random walk along axis 0
    assert residual_block_length(smooth, 0, 0.1) > 5
    # capped at half the axis: at least two blocks
    assert block_lengths((40, 60), None, smooth, 0.1)[0] <= 20


def test_catmull_rom_weights():
    for v in (0.3, 0.37, 0.5, 0.41234):
        idx, w = catmull_rom(v, 0.0, 0.1, 11)
        nodes = 0.1 * np.array(idx)
        assert sum(w) == pytest.approx(1.0)
        assert float(np.dot(w, nodes)) == pytest.approx(v)  # linear exactly
        assert float(np.dot(w, nodes**2)) == pytest.approx(v**2)  # and quadratics
    idx, w = catmull_rom(0.4, 0.0, 0.1, 11)  # on a node: that node only
    assert np.allclose([w[i] for i in range(4) if idx[i] != 4], 0.0)


def test_catmull_rom_of_many_values_equals_one_at_a_time():
    values = np.array([-0.2, 0.0, 0.3, 0.37, 0.41234, 0.95, 1.0, 1.3])  # clamped at both ends
    for n in (1, 2, 11):
        idx, w = catmull_rom_batch(values, 0.0, 0.1, n)
        for v, i_row, w_row in zip(values, idx, w):
            i_one, w_one = catmull_rom(float(v), 0.0, 0.1, n)
            assert list(i_row) == i_one and list(w_row) == w_one


@pytest.mark.parametrize("ridge", [0.0, 1e-3])
def test_stacked_systems_equal_one_system_at_a_time(ridge):
    """The bank's Gram at many points and their residuals equal the one-point evaluation."""
    rng = np.random.default_rng(4)
    t = np.linspace(0.0, 2.0, 60)
    x = np.linspace(0.0, 2 * np.pi, 40, endpoint=False)
    u = 1.0 + np.outer(np.exp(-t), np.sin(x)) + 0.2 * np.outer(t, np.cos(3 * x))
    lib = weak_library(u + 1e-3 * rng.standard_normal(u.shape), t, x, operator="directional")
    labels = np.arange(lib.n_rows) % 5
    bank = LocalBank(lib, TRUTH, BOUNDS, [], labels, BootstrapSettings())
    grams = np.tensordot(rng.integers(0, 3, (3, 5)).astype(float), bank.tile_grams, axes=1)
    problems = rng.integers(0, 3, 20)
    alphas = rng.uniform(0.6, 0.95, 20)
    orders = np.column_stack([rng.uniform(0.8, 1.2, 20), rng.uniform(1.5, 1.9, 20)])
    stacked = bank.system_grams(grams, problems, alphas, orders)
    errors = _relative_batch(stacked, ridge)
    for m in range(20):
        one = bank.system_gram(grams[problems[m]], alphas[m], orders[m])
        np.testing.assert_allclose(stacked[m], one, rtol=1e-12, atol=1e-12 * np.abs(one).max())
        assert errors[m] == pytest.approx(_relative(one, ridge)[1], rel=1e-9)


def test_central_interval():
    v = np.arange(101, dtype=float)
    assert central_interval(v, 0.9) == pytest.approx((5.0, 95.0))
    assert central_interval(np.append(v, np.nan), 0.9) == pytest.approx((5.0, 95.0))


# -- bootstrap on FADE ----------------------------------------------------------------------------
def _library(fade_field, noise: float, seed: int = 0):
    u, t, x = fade_field
    rng = np.random.default_rng(seed)
    noisy = u * (1 + noise * rng.uniform(-1, 1, u.shape))
    return weak_library(noisy, t, x, operator="directional", power_mode="positive")


def _residual(lib, model: Model = TRUTH):
    y, x = exact_system(lib, model.mode, model.alpha, model.index, np.array(model.orders))
    return y - x @ fit_rows(y, x, 0.0)


def _boot(lib, n_boot: int = 40, seed: int = 0):
    return bootstrap(
        lib,
        TRUTH,
        BOUNDS,
        BootstrapSettings(n_boot=n_boot, seed=seed),
        ridge=1e-3,
        refit_ridge=0.0,
        margin=0.15,
        gain_floor=1e-8,
        resid=_residual(lib),
    )


@pytest.fixture(scope="module")
def boot5(fade_field):
    return _boot(_library(fade_field, 0.05))


#: Discretisation bias of the D^1.7 order on this grid: the clean field gives 1.725 (test below);
#: a resampling interval cannot see a bias every resample shares.
BETA2_CLEAN_BIAS = 0.03


def test_intervals_contain_the_truth_at_5_percent(boot5):
    """Measured (n_boot 40): alpha [0.7977, 0.8015], beta [0.9926, 1.0004] and [1.7173, 1.7651],
    xi_2 [0.484, 0.509]; the D^1.7 interval misses 1.7 by the clean-data bias only."""
    b = boot5
    assert b.alpha_free and b.order_free.all()
    lo, hi = b.interval(b.alpha)
    assert lo <= 0.8 <= hi and hi - lo < 0.05
    lo, hi = b.interval(b.orders[:, 0])
    assert lo <= 1.0 <= hi and hi - lo < 0.05
    lo, hi = b.interval(b.orders[:, 1])
    assert lo - BETA2_CLEAN_BIAS <= 1.7 <= hi and hi - lo < 0.15
    for j, coef in enumerate((-1.0, 0.5)):
        lo, hi = b.interval(b.coef[:, j])
        assert lo <= coef <= hi
    assert np.all(b.inclusion == 1.0)  # both terms are needed on every resample
    assert b.block_shape[0] > 1 and b.n_tiles >= 20
    assert not b.at_bound.any()


def test_intervals_shrink_with_less_noise(fade_field, boot5):
    b1 = _boot(_library(fade_field, 0.01))
    for j in range(2):
        w5 = np.subtract(*boot5.interval(boot5.orders[:, j])[::-1])
        w1 = np.subtract(*b1.interval(b1.orders[:, j])[::-1])
        assert w1 < 0.6 * w5
    w5 = np.subtract(*boot5.interval(boot5.alpha)[::-1])
    w1 = np.subtract(*b1.interval(b1.alpha)[::-1])
    assert w1 < 0.6 * w5


def test_clean_field_bias_is_outside_the_resampling_interval(fade_field):
    """Without noise the resamples agree to 0.01 on beta_2 = 1.725, not 1.7: discretisation
    error (L1 Caputo, grid) is shared by every resample, so intervals describe sampling
    variability only (documented in weakpareto.user.uncertainty_report)."""
    b = _boot(_library(fade_field, 0.0), n_boot=20)
    lo, hi = b.interval(b.orders[:, 1])
    assert hi - lo < 0.015 and 1.7 < lo < 1.7 + BETA2_CLEAN_BIAS


def test_same_seed_gives_identical_replicates(fade_field, boot5):
    again = _boot(_library(fade_field, 0.05), n_boot=40, seed=0)
    for a, b in (
        (again.alpha, boot5.alpha),
        (again.orders, boot5.orders),
        (again.coef, boot5.coef),
    ):
        assert np.array_equal(a, b)
    other = _boot(_library(fade_field, 0.05), n_boot=10, seed=1)
    assert not np.array_equal(other.alpha, boot5.alpha[:10])


def test_reselection_counts_alternatives(fade_field):
    """Among a one-term model, the truth and a three-term model the gain rule keeps the truth;
    the extra u D^1.2 u term is never reselected, the single term is not an alternative."""
    lib = _library(fade_field, 0.05)
    alts = [
        Model("sub", 0.76, (0,), (0.89,)),
        TRUTH,
        Model("sub", 0.8, (0, 0, 1), (1.0, 1.7, 1.2)),
    ]
    b = bootstrap(
        lib,
        TRUTH,
        BOUNDS,
        BootstrapSettings(n_boot=20),
        ridge=1e-3,
        refit_ridge=0.0,
        margin=0.15,
        gain_floor=1e-8,
        alternatives=alts,
    )
    assert b.size_frequency == {2: 1.0}
    assert np.all(b.inclusion == 1.0) and b.alternatives == ()


def test_integer_branch_and_identity_term_are_held_fixed(fade_field):
    lib = _library(fade_field, 0.05)
    model = Model("int", 1.0, (0, 0), (0.0, 1.7))
    b = bootstrap(
        lib,
        model,
        Bounds((1.0, 1.0), (0.5, 2.0)),
        BootstrapSettings(n_boot=5),
        ridge=1e-3,
        refit_ridge=0.0,
        margin=0.15,
        gain_floor=1e-8,
    )
    assert not b.alpha_free and np.all(b.alpha == 1.0)
    assert list(b.order_free) == [False, True] and np.all(b.orders[:, 0] == 0.0)
    assert np.all(np.isfinite(b.coef))


def _markovian_field() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """u_t = 0.25 R^2 u (alpha = 1 exactly) from its per-mode exponential solution, 5 %
    multiplicative noise: the fit lands on the sub-unit branch next to 1 (alpha 0.993)."""
    from weakpareto.benchmarks.generators import generate
    from weakpareto.benchmarks.noise import add_noise

    harmonics = [
        {"fn": "sin", "m": 1, "amp": 1.0, "phase": 0.3},
        {"fn": "cos", "m": 2, "amp": 0.6, "phase": 0.0},
        {"fn": "sin", "m": 3, "amp": 0.35, "phase": 1.1},
        {"fn": "cos", "m": 5, "amp": 0.15, "phase": 0.4},
    ]
    cfg = {
        "name": "markovian",
        "generator": {"kind": "mittag_leffler", "ic": {"harmonics": harmonics}},
        "grid": {"nt": 151, "nx": 96, "T": 3.0, "L": 4 * np.pi, "t_endpoint": True},
        "truth": {
            "mode": "int",
            "alpha": 1.0,
            "operator": "riesz",
            "terms": [{"power": 0, "order": 2.0, "coef": 0.25}],
        },
    }
    f = generate(cfg, 0)
    return add_noise(f.u, "multiplicative", 0.05, 11), f.t, f.x


def test_resamples_on_the_branch_edge_cross_to_the_integer_twin(monkeypatch):
    """A sub-unit alpha next to 1: resamples whose alpha ends on the branch edge become alpha =
    1 when the integer twin fits as well, so the interval reaches 1 and is not reported as
    truncated; without the twin they pile up on the edge (17 % of the resamples at n_boot=100)."""
    from weakpareto import WeakPareto
    from weakpareto.method import intervals

    u, t, x = _markovian_field()

    def fit() -> WeakPareto:
        return WeakPareto(
            operator="riesz",
            alpha_range=(0.5, 1.2),
            beta_range=(0.5, 3.0),
            uncertainty="bootstrap",
            n_boot=60,
            method="weak_pareto_robust",  # the default tests the integer twin on every fit
        ).fit(u, t, x)

    with_twin = fit()
    assert with_twin.mode_ == "sub" and 0.98 < with_twin.alpha_ < 1.0
    unc = with_twin.uncertainty_
    assert unc.alpha_at_bound == 0.0 and unc.alpha_interval[1] >= 1.0
    assert not any("edge of its admissible" in w.message for w in with_twin.warnings_)
    monkeypatch.setattr(intervals, "integer_branch_admitted", lambda cfg: False)
    without = fit().uncertainty_
    assert without.alpha_at_bound > 0.05


def test_a_profiled_super_unit_bank_holds_the_rows_its_point_estimate_scored():
    """With u'(0) profiled out (start_slope="profile"), every node of the selected super-unit
    model's local bank is profiled at the model's order: the bank's Gram at the point estimate
    equals the exact profiled system's, and no integer twin is read through its columns."""
    t = np.linspace(0.0, 3.0, 90)
    x = np.linspace(0.0, 2 * np.pi, 48, endpoint=False)
    u = 1.0 + np.outer(np.cos(0.8 * t**1.4), np.sin(x)) + 0.3 * np.outer(t, np.cos(2 * x))
    lib = exact_time_weak_library(u, t, x, operator="riesz", initial="model",
                                  start_slope="profile")  # fmt: skip
    model = Model("sup", 1.4, (0,), (1.5,))
    labels = np.zeros(lib.n_rows, dtype=np.intp)
    bank = LocalBank(lib, model, Bounds((1.01, 1.9), (0.5, 2.5)), [], labels,
                     BootstrapSettings(), edge_twin=True)  # fmt: skip
    y, xs = exact_system(lib, "sup", 1.4, (0,), np.array([1.5]))
    vectors = np.vstack([y[None], xs.T])
    gram = bank.system_gram(bank.gram(np.ones(1)), 1.4, np.array([1.5]))
    np.testing.assert_allclose(gram, vectors @ vectors.T, rtol=1e-10)
    assert bank.twin_slot is None
    plain = exact_time_weak_library(u, t, x, operator="riesz", initial="model")
    unprofiled = LocalBank(plain, model, Bounds((1.01, 1.9), (0.5, 2.5)), [], labels,
                           BootstrapSettings(), edge_twin=True)  # fmt: skip
    assert unprofiled.twin_slot is not None
