"""Weak Grid-STRidge: the fixed-dictionary ablation (paper Sec. 5.8, tab:ablation;
docs/method/baselines.md#weak-grid-stridge).

Instead of searching orders continuously, Grid-STRidge fixes a dense weak dictionary — every
power ``p`` at every node of the 59-node uniform ``beta`` grid (177 columns for FADE) — and runs
sequential threshold ridge regression (STRidge) for every temporal order of the 47-node uniform
``alpha`` grid and every threshold of ``logspace(-5, -1, 17)``:

1. columns are normalised by their training-row norms (the target is not normalised);
2. STRidge, up to 20 fits: ridge fit (``lambda = 1e-8``) on the active set, deactivate the
   coefficients with ``|coef| < threshold``, stop when the active set no longer changes;
   a final ridge refit on the active set (no support cap in the paper ablation);
3. each (alpha, threshold) is scored by the BIC-type ``n_val ln(val MSE) + ln(n_val)(#active+1)``
   and the minimum is kept; ``E_fit`` is the all-row relative residual with the selected
   (training-row) coefficients, denominator ``+1e-12``.

Temporal targets are interpolated inside their branch
(:func:`weakpareto.numerics.orders.blend`, via the precomputed
:class:`weakpareto.library.gram.OrderBanks`); when the integer branch is admitted the exact
``alpha = 1`` target is one more candidate. Everything is batched: the banks are built once, the
training Gram matrix of the normalised dictionary is formed once, all (alpha, threshold)
problems share the first (full-dictionary) fit, and identical (alpha, active set) states are
solved once per iteration.

:func:`fixed_dictionary_stability` is the "weak_fixed_stability" variant (not in the paper tables;
docs/method/baselines.md#fixed-dictionary-stability): Grid-STRidge over test-function width scales x
splits, reporting the most frequent signature.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Literal, cast

import numpy as np
from numpy.typing import NDArray

from weakpareto._typing import Array
from weakpareto.library.gram import TINY, VAR_EPS, FeatureSource, OrderBanks, build_banks
from weakpareto.library.weak import PowerMode, TemporalScheme, WeakLibrary, weak_library
from weakpareto.method.search import train_val_split
from weakpareto.method.settings import DiscoveryConfig
from weakpareto.numerics import windows as tf
from weakpareto.numerics.orders import beta_nodes, temporal_branches
from weakpareto.records import DiscoveryResult, Equation, FrontPoint, Mode, OperatorKind, Term

#: E_fit denominator guard of the baselines (docs/method/search.md#final-exact-refit).
FIT_EPS = 1e-12
_CHUNK = 48  # problems per batched masked solve (bounds memory to ~48 M^2 doubles)


@dataclass(frozen=True)
class GridSTRidgeSettings:
    """Constants of the Grid-STRidge ablation (defaults are the paper's;
    docs/method/baselines.md#weak-grid-stridge)."""

    thresholds: tuple[float, ...] = tuple(float(v) for v in np.logspace(-5, -1, 17))
    ridge: float = 1e-8
    max_iter: int = 20
    max_terms: int | None = None  # None = uncapped, as in the paper ablation


@dataclass(frozen=True)
class GridSTRidgeFit:
    """The selected (alpha, threshold) model and its scores."""

    mode: Mode
    alpha: float
    threshold: float
    powers: tuple[int, ...]
    betas: tuple[float, ...]
    coef: tuple[float, ...]  # raw (unnormalised) coefficients of the active columns
    train_error: float
    val_error: float
    val_mse: float
    bic: float
    aic: float
    fit_error: float
    n_val: int
    operator: OperatorKind = "directional"

    @property
    def size(self) -> int:
        return len(self.powers)

    def equation(self) -> Equation:
        terms = tuple(Term(p, b, c) for p, b, c in zip(self.powers, self.betas, self.coef))
        return Equation(self.mode, self.alpha, terms, self.operator).canonical()

    def signature(self) -> tuple[float, tuple[tuple[int, float], ...]]:
        """``alpha`` and the sorted ``(p, beta)`` pairs rounded to 2 decimals
        (docs/method/baselines.md#fixed-dictionary-stability)."""
        pairs = tuple(sorted((int(p), round(float(b), 2)) for p, b in zip(self.powers, self.betas)))
        return round(float(self.alpha), 2), pairs


# -----------------------------------------------------------------------------------------
# STRidge on a Gram matrix, batched over problems
# -----------------------------------------------------------------------------------------


def masked_ridge(gram: Array, rhs: Array, active: NDArray[np.bool_], ridge: float) -> Array:
    """Ridge solutions restricted to active sets, batched: ``(N, M)``.

    Solves ``(G_AA + ridge I) xi_A = rhs_A`` with ``xi = 0`` off the active set ``A`` for each of
    the ``N`` problems (``rhs (N, M)``, ``active (N, M)``): inactive rows/columns are replaced by
    the identity, so one batched dense solve handles every active set.
    """
    n, m = rhs.shape
    out = np.zeros((n, m))
    reg = gram + ridge * np.eye(m)
    eye = np.eye(m, dtype=bool)
    for s in range(0, n, _CHUNK):
        act = active[s : s + _CHUNK]
        mask = act[:, :, None] & act[:, None, :]
        mats = np.where(mask, reg[None], np.where(eye[None], 1.0, 0.0))
        b = np.where(act, rhs[s : s + _CHUNK], 0.0)
        out[s : s + _CHUNK] = np.linalg.solve(mats, b[..., None])[..., 0]
    out[~active] = 0.0
    return out


def stridge_batch(
    gram: Array,
    rhs: Array,
    problem_rhs: NDArray[np.intp],
    thresholds: Array,
    ridge: float,
    max_iter: int = 20,
    max_terms: int | None = None,
) -> tuple[Array, NDArray[np.bool_]]:
    """STRidge for many (target, threshold) problems sharing one normalised dictionary.

    ``gram (M, M)`` is ``X^T X`` of the (column-normalised) training dictionary, ``rhs (R, M)``
    holds ``X^T y`` of ``R`` targets; problem ``n`` uses target ``problem_rhs[n]`` and threshold
    ``thresholds[n]``. Per problem: up to ``max_iter`` fits (fit the active set, deactivate
    ``|coef| < threshold``, optionally keep only the ``max_terms`` largest, stop when the set is
    unchanged), then a final ridge refit on the active set. Returns ``coef (N, M)`` (zero off
    the active set) and ``active (N, M)``.
    """
    n_prob, m = problem_rhs.size, gram.shape[0]
    thresholds = np.asarray(thresholds, dtype=float)
    # the first fit uses the full dictionary, shared by every threshold of a target
    full = cast(Array, np.linalg.solve(gram + ridge * np.eye(m), rhs.T).T)  # (R, M)
    coef = full[problem_rhs].copy()
    active = np.ones((n_prob, m), dtype=bool)
    pending = np.ones(n_prob, dtype=bool)
    for it in range(max_iter):
        if it > 0:
            idx = np.flatnonzero(pending)
            coef[idx] = _solve_unique(gram, rhs, problem_rhs[idx], active[idx], ridge)
        new = active & (np.abs(coef) >= thresholds[:, None])
        if max_terms is not None:
            new = _cap(new, coef, max_terms)
        changed = np.any(new != active, axis=1) & pending
        active[pending] = new[pending]
        pending = changed & active.any(axis=1)  # an emptied set has nothing left to fit
        if not pending.any():
            break
    # Final refit on the active set. Problems that stopped because their set was unchanged
    # already hold that fit; the others exhausted the iteration budget right after a change.
    if pending.any():
        idx = np.flatnonzero(pending)
        coef[idx] = _solve_unique(gram, rhs, problem_rhs[idx], active[idx], ridge)
    coef[~active] = 0.0
    return coef, active


def _cap(active: NDArray[np.bool_], coef: Array, max_terms: int) -> NDArray[np.bool_]:
    """Keep at most ``max_terms`` active entries per row, those with the largest ``|coef|``."""
    mag = np.where(active, np.abs(coef), -np.inf)
    order = np.argsort(-mag, axis=1, kind="stable")
    keep = np.zeros_like(active)
    np.put_along_axis(keep, order[:, :max_terms], True, axis=1)
    return active & keep


def _solve_unique(
    gram: Array, rhs: Array, which: NDArray[np.intp], active: NDArray[np.bool_], ridge: float
) -> Array:
    """:func:`masked_ridge` on the distinct (target, active set) pairs only."""
    key = np.concatenate([which[:, None].astype(np.int64), np.packbits(active, axis=1)], axis=1)
    _, first, inverse = np.unique(key, axis=0, return_index=True, return_inverse=True)
    sol = masked_ridge(gram, rhs[which[first]], active[first], ridge)
    return sol[inverse.ravel()]


# -----------------------------------------------------------------------------------------
# Grid-STRidge on a feature source
# -----------------------------------------------------------------------------------------


def alpha_candidates(
    alpha_range: tuple[float, float], n_nodes: int, eps: float
) -> list[tuple[Mode, float]]:
    """(mode, alpha) of the uniform alpha grid, assigned to their branches
    (docs/method/baselines.md#weak-grid-stridge).

    Uniform nodes inside the subunit/superunit branch bounds are kept with that branch; the
    exact integer order ``alpha = 1`` is added once when the integer branch is admitted (a
    uniform node inside ``(1 - eps, 1 + eps)`` is therefore represented by it).
    """
    out: list[tuple[Mode, float]] = []
    uniform = np.linspace(float(alpha_range[0]), float(alpha_range[1]), n_nodes)
    for br in temporal_branches(alpha_range, n_nodes, eps):
        if br.is_integer:
            out.append(("int", 1.0))
        else:
            inside = uniform[(uniform >= br.lo) & (uniform <= br.hi)]
            out.extend((br.mode, float(a)) for a in inside)
    return out


def _stencils(banks: OrderBanks, cands: list[tuple[Mode, float]]) -> Array:
    """Interpolated targets of every candidate: ``(R, K)``."""
    rows = []
    for mode, a in cands:
        idx, w = banks.target_stencil(mode, np.array(a))
        rows.append(banks.interpolate(idx, w))
    return np.stack(rows)


def grid_stridge_fit(
    source: FeatureSource,
    cfg: DiscoveryConfig,
    settings: GridSTRidgeSettings | None = None,
    timings: dict[str, float] | None = None,
) -> GridSTRidgeFit:
    """Grid-STRidge on a feature source; ranges, grids, split seed and powers from ``cfg``."""
    settings = settings or GridSTRidgeSettings()
    t0 = time.perf_counter()
    branches = temporal_branches(cfg.alpha_range, cfg.n_alpha_nodes, cfg.eps_alpha)
    nodes = beta_nodes(cfg.beta_range, cfg.n_beta_nodes)
    banks = build_banks(source, branches, nodes, cfg.powers)
    cands = alpha_candidates(cfg.alpha_range, cfg.n_alpha_nodes, cfg.eps_alpha)
    y_all = _stencils(banks, cands)  # (R, K)
    col_idx = np.concatenate([banks.column_offset[p] + np.arange(nodes.size) for p in cfg.powers])
    x_all = banks.vectors[col_idx].T  # (K, M)
    col_powers = np.repeat(np.array(cfg.powers), nodes.size)
    col_betas = np.tile(nodes, len(cfg.powers))
    train, val = train_val_split(banks.n_rows, cfg.search.val_fraction, cfg.seed)
    finite = np.all(np.isfinite(banks.vectors), axis=0)
    train, val = train[finite[train]], val[finite[val]]
    if timings is not None:
        timings["banks"] = time.perf_counter() - t0
    t1 = time.perf_counter()

    scale = np.linalg.norm(x_all[train], axis=0)
    scale = np.where(scale > 0.0, scale, 1.0)
    xn = x_all / scale
    gram = xn[train].T @ xn[train]
    rhs = y_all[:, train] @ xn[train]  # (R, M)
    thr = np.asarray(settings.thresholds, dtype=float)
    n_a, n_t = len(cands), thr.size
    which = np.repeat(np.arange(n_a), n_t)
    coef, active = stridge_batch(
        gram, rhs, which, np.tile(thr, n_a), settings.ridge, settings.max_iter, settings.max_terms
    )

    # validation scores of every problem at once (residuals, not Gram differences: exact fits
    # of the synthetic checks would otherwise drown in cancellation)
    y_val = y_all[:, val][which]
    resid = y_val - coef @ xn[val].T  # (N, n_val)
    val_mse = np.mean(resid**2, axis=1)
    val_var = np.var(y_val, axis=1)
    n = max(2, val.size)
    k = active.sum(axis=1) + 1
    base = n * np.log(np.maximum(val_mse, TINY))
    bic = base + np.log(n) * k
    best = int(np.argmin(bic))
    y = y_all[which[best]]
    tr_resid = y[train] - xn[train] @ coef[best]
    train_error = float(np.mean(tr_resid**2) / (np.var(y[train]) + VAR_EPS))
    if timings is not None:
        timings["search"] = time.perf_counter() - t1

    act = active[best]
    raw = coef[best] / scale
    y_fin = y[finite]  # all (finite) rows; weak rows are always finite
    resid_all = y_fin - x_all[finite] @ raw
    fit = float(np.linalg.norm(resid_all) / (np.linalg.norm(y_fin) + FIT_EPS))
    mode, alpha = cands[which[best]]
    return GridSTRidgeFit(
        mode=mode,
        alpha=float(alpha),
        threshold=float(thr[best % n_t]),
        powers=tuple(int(p) for p in col_powers[act]),
        betas=tuple(float(b) for b in col_betas[act]),
        coef=tuple(float(c) for c in raw[act]),
        train_error=train_error,
        val_error=float(val_mse[best] / (val_var[best] + VAR_EPS)),
        val_mse=float(val_mse[best]),
        bic=float(bic[best]),
        aic=float(base[best] + 2.0 * k[best]),
        fit_error=fit,
        n_val=int(val.size),
        operator=cfg.operator,
    )


def to_result(fit: GridSTRidgeFit, timings: dict[str, float] | None = None) -> DiscoveryResult:
    """A :class:`DiscoveryResult` with the selected model as its single front point."""
    eq = fit.equation()
    point = FrontPoint(
        fit.size,
        fit.train_error,
        fit.val_error,
        float(np.log10(max(fit.val_error, TINY))),
        fit.aic,
        fit.bic,
        eq,
    )
    return DiscoveryResult(
        front=(point,),
        pareto=(fit.size,),
        selected_size=fit.size,
        selected=eq,
        final=eq,
        fit_error=fit.fit_error,
        timings=dict(timings or {}),
    )


def grid_stridge(
    source: FeatureSource, cfg: DiscoveryConfig, settings: GridSTRidgeSettings | None = None
) -> DiscoveryResult:
    """Weak Grid-STRidge on a feature source, as a :class:`DiscoveryResult`
    (docs/method/baselines.md#weak-grid-stridge)."""
    timings: dict[str, float] = {}
    fit = grid_stridge_fit(source, cfg, settings, timings)
    return to_result(fit, timings)


# -----------------------------------------------------------------------------------------
# Fixed-dictionary stability variant (not in the paper tables;
# docs/method/baselines.md#fixed-dictionary-stability)
# -----------------------------------------------------------------------------------------

WIDTH_SCALES = (0.85, 1.0, 1.2)
SEED_OFFSET = 1009  # config seed of split s: seed + 1009 s
SPLIT_OFFSET = 37  # split seed of split s: config seed + 37 s


def scaled_weak_library(
    u: Array,
    t: Array,
    x: Array,
    *,
    operator: OperatorKind,
    power_mode: PowerMode = "raw",
    period: float | None = None,
    width_scale: float = 1.0,
    spatial_tests: Literal["gaussian", "fourier"] = "gaussian",
    test_counts: tuple[int, int] | None = None,
    budget: tf.Budget = "paper",
    temporal_scheme: TemporalScheme | None = None,
) -> WeakLibrary:
    """Weak library whose Gaussian test widths (time and space) are multiplied by a scale.

    Counts and centres follow the paper rules (docs/method/test-functions.md); ``width_scale = 1``
    reproduces
    :func:`weakpareto.library.weak.weak_library`. Fourier spatial tests have no width, so only
    the temporal width is scaled for them.
    """
    return weak_library(
        np.asarray(u, dtype=float),
        np.asarray(t, dtype=float),
        np.asarray(x, dtype=float),
        operator=operator,
        power_mode=power_mode,
        period=period,
        spatial_tests=spatial_tests,
        test_counts=test_counts,
        temporal_scheme=temporal_scheme,
        budget=budget,
        width_scale=width_scale,
    )


@dataclass(frozen=True)
class StabilityMember:
    """One Grid-STRidge run of the stability study."""

    width_scale: float
    split: int
    split_seed: int
    fit: GridSTRidgeFit


@dataclass(frozen=True)
class StabilityResult:
    """Outcome of :func:`fixed_dictionary_stability`."""

    result: DiscoveryResult  # the reported member (lowest E_val of the winning signature)
    signature: tuple[float, tuple[tuple[int, float], ...]]
    frequency: int
    members: tuple[StabilityMember, ...] = field(default_factory=tuple)


def split_seed(seed: int, split: int) -> int:
    """Row-split seed of split ``s``: config seed ``seed + 1009 s`` plus offset ``37 s``."""
    return int(seed) + SEED_OFFSET * split + SPLIT_OFFSET * split


def fixed_dictionary_stability(
    u: Array,
    t: Array,
    x: Array,
    cfg: DiscoveryConfig,
    *,
    power_mode: PowerMode = "raw",
    period: float | None = None,
    settings: GridSTRidgeSettings | None = None,
    width_scales: tuple[float, ...] = WIDTH_SCALES,
    n_splits: int = 2,
    spatial_tests: Literal["gaussian", "fourier"] = "gaussian",
    test_counts: tuple[int, int] | None = None,
    budget: tf.Budget = "paper",
    temporal_scheme: TemporalScheme | None = None,
) -> StabilityResult:
    """Grid-STRidge over width scales x splits; report the most frequent signature
    (docs/method/baselines.md#fixed-dictionary-stability).

    The signature of a run is ``alpha`` and its ``(p, beta)`` pairs rounded to 2 decimals. The
    winner is the most frequent signature (ties: lowest median BIC); the reported model is its
    member with the lowest ``E_val``. The field ``u`` (already noisy) is shared by every run.
    """
    t0 = time.perf_counter()
    members: list[StabilityMember] = []
    for split in range(n_splits):
        s_seed = split_seed(cfg.seed, split)
        run_cfg = _with_seed(cfg, s_seed)
        for scale in width_scales:
            lib = scaled_weak_library(
                u,
                t,
                x,
                operator=cfg.operator,
                power_mode=power_mode,
                period=period,
                width_scale=scale,
                spatial_tests=spatial_tests,
                test_counts=test_counts,
                budget=budget,
                temporal_scheme=temporal_scheme,
            )
            fit = grid_stridge_fit(lib, run_cfg, settings)
            members.append(StabilityMember(float(scale), split, s_seed, fit))
    counts = Counter(m.fit.signature() for m in members)

    def rank(sig: Any) -> tuple[int, float]:
        bics = [m.fit.bic for m in members if m.fit.signature() == sig]
        return -counts[sig], float(np.median(bics))

    winner = min(counts, key=rank)  # first-seen order breaks exact ties deterministically
    group = [m for m in members if m.fit.signature() == winner]
    chosen = min(group, key=lambda m: m.fit.val_error)
    timings = {"total": time.perf_counter() - t0}
    return StabilityResult(
        result=to_result(chosen.fit, timings),
        signature=winner,
        frequency=counts[winner],
        members=tuple(members),
    )


def _with_seed(cfg: DiscoveryConfig, seed: int) -> DiscoveryConfig:
    return replace(cfg, seed=int(seed))


# -----------------------------------------------------------------------------------------
# Config entry point (``method=weak_grid_stridge`` in ``wp run``)
# -----------------------------------------------------------------------------------------


def settings_from_method(method: Any) -> GridSTRidgeSettings:
    """:class:`GridSTRidgeSettings` from a ``method`` config block (missing keys → defaults)."""
    d = GridSTRidgeSettings()
    thr = method.get("thresholds", None)
    if thr is not None:
        lo, hi, n = float(thr[0]), float(thr[1]), int(thr[2])
        thresholds = tuple(float(v) for v in np.geomspace(lo, hi, n))
    else:
        thresholds = d.thresholds
    max_terms = method.get("max_terms", None)
    return GridSTRidgeSettings(
        thresholds=thresholds,
        ridge=float(method.get("stridge_ridge", d.ridge)),
        max_iter=int(method.get("stridge_iterations", d.max_iter)),
        max_terms=None if max_terms is None else int(max_terms),
    )
