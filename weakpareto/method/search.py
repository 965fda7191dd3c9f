"""Branch-aware continuous-order best-subset search (paper Sec. 4.2, Algorithm 1;
docs/method/search.md).

For each support size ``c``, each nondecreasing power pattern and each admitted temporal branch,
differential evolution (scipy) optimises ``(alpha, beta_1..beta_c)`` (``beta`` only in the exact
integer branch) of the objective ``J = log10(E_val) + Pi_dup`` (paper Eq. 19, App. C Eq. 30), with
coefficients solved by the column-normalised ridge of Eq. 20 inside every evaluation. Evaluations
go through :class:`weakpareto.library.gram.GramTables`, so a whole population is scored in one
batched call.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

import numpy as np
from numpy.typing import NDArray

from weakpareto._typing import Array
from weakpareto.library.gram import TINY, Evaluation, GramTables, OrderBanks
from weakpareto.method.lockstep_de import LockstepProblem, lockstep_differential_evolution
from weakpareto.method.settings import SearchSettings
from weakpareto.numerics.orders import Branch, beta_blend, snap_beta
from weakpareto.records import Equation, Mode, OperatorKind, Term


@dataclass(frozen=True)
class Candidate:
    """A fitted model of one support size at selection stage (interpolated features)."""

    mode: Mode
    alpha: float
    powers: tuple[int, ...]
    betas: tuple[float, ...]  # identity proposals snapped to exactly 0
    coef: tuple[float, ...]
    train_error: float
    val_error: float
    val_mse: float
    objective: float  # log10(max(E_val, tiny)), without the duplicate penalty

    @property
    def size(self) -> int:
        return len(self.powers)

    @classmethod
    def from_evaluation(
        cls,
        mode: Mode,
        alpha: float,
        powers: tuple[int, ...],
        betas: tuple[float, ...],
        ev: Evaluation,
    ) -> Candidate:
        """The candidate of the first row of a (batched) evaluation."""
        return cls(
            mode=mode,
            alpha=alpha,
            powers=powers,
            betas=betas,
            coef=tuple(float(c) for c in ev.coef[0]),
            train_error=float(ev.train_error[0]),
            val_error=float(ev.val_error[0]),
            val_mse=float(ev.val_mse[0]),
            objective=float(np.log10(max(ev.val_error[0], TINY))),
        )

    def information_criteria(self, n_val: int) -> tuple[float, float]:
        """AIC/BIC-type scores ``n ln(MSE_val) + {2, ln n} k`` with ``k = 2c + [fractional]``."""
        n = max(2, n_val)
        k = 2 * self.size + (0 if self.mode == "int" else 1)
        base = n * np.log(max(self.val_mse, TINY))
        return float(base + 2 * k), float(base + np.log(n) * k)

    def equation(self, operator: OperatorKind) -> Equation:
        terms = tuple(Term(p, b, c) for p, b, c in zip(self.powers, self.betas, self.coef))
        return Equation(self.mode, self.alpha, terms, operator).canonical()


def train_val_split(n_rows: int, fraction: float, seed: int) -> tuple[NDArray, NDArray]:
    """Seeded row split: ``n_val = max(1, round(fraction*K))`` from a permutation
    (docs/method/search.md#row-split)."""
    perm = np.random.default_rng(seed).permutation(n_rows)
    n_val = max(1, round(fraction * n_rows))
    return np.sort(perm[n_val:]), np.sort(perm[:n_val])


#: Fewest rows an experiment needs for its own train/validation split (several experiments).
MIN_SPLIT_ROWS = 20


def experiment_split(
    counts: tuple[int, ...], fraction: float, seed: int
) -> tuple[NDArray, NDArray]:
    """Row split of experiments stacked in order (``counts`` rows each): when every experiment
    has at least :data:`MIN_SPLIT_ROWS` rows, :func:`train_val_split` applied to each one (its
    rows offset), so the validation rows mix experiments in their proportions; otherwise the
    split of all rows at once. One experiment is exactly :func:`train_val_split`."""
    total = int(sum(counts))
    if len(counts) == 1 or min(counts) < MIN_SPLIT_ROWS:
        return train_val_split(total, fraction, seed)
    offsets = np.concatenate([[0], np.cumsum(counts)[:-1]])
    pieces = [train_val_split(int(n), fraction, seed) for n in counts]
    train = np.concatenate([tr + off for (tr, _), off in zip(pieces, offsets)])
    val = np.concatenate([va + off for (_, va), off in zip(pieces, offsets)])
    return train, val


_IMPORTANT: dict[int, list[tuple[int, ...]]] = {
    1: [(0,)],
    2: [(0, 0), (0, 1), (1, 1)],
    3: [(0, 0, 0), (0, 0, 1), (0, 1, 1)],
    4: [(0, 0, 0, 0), (0, 0, 0, 1)],
}


def power_patterns(powers: tuple[int, ...], c: int) -> list[tuple[int, ...]]:
    """Nondecreasing power patterns of size ``c``, "important" ones first
    (docs/method/search.md#power-patterns)."""
    allp = list(itertools.combinations_with_replacement(sorted(powers), c))
    first = [p for p in _IMPORTANT.get(c, []) if p in allp]
    return first + [p for p in allp if p not in first]


def same_power_pairs(powers: tuple[int, ...]) -> NDArray[np.bool_]:
    """For each pair ``i < j`` of slots (``itertools.combinations`` order): equal powers?"""
    return np.array(
        [powers[i] == powers[j] for i, j in itertools.combinations(range(len(powers)), 2)],
        dtype=bool,
    )


def duplicate_penalty_rows(
    same: NDArray[np.bool_], betas: Array, weight: float, gap: float
) -> Array:
    """``Pi_dup`` of paper Eq. (30) for proposals ``betas (N, c)`` whose slot pairs have equal
    powers where ``same`` (``(N, #pairs)`` or ``(#pairs,)``, :func:`same_power_pairs`)."""
    same = np.broadcast_to(same, (betas.shape[0], same.shape[-1]))
    pen = np.zeros(betas.shape[0])
    for k, (i, j) in enumerate(itertools.combinations(range(betas.shape[1]), 2)):
        term = weight * np.maximum(0.0, (gap - np.abs(betas[:, i] - betas[:, j])) / gap)
        pen = pen + np.where(same[:, k], term, 0.0)  # + 0.0 leaves other rows' bits alone
    return pen


def duplicate_penalty(powers: tuple[int, ...], betas: Array, weight: float, gap: float) -> Array:
    """``Pi_dup`` of paper Eq. (30) for a batch of raw order proposals ``betas (N, c)``."""
    return duplicate_penalty_rows(same_power_pairs(powers), betas, weight, gap)


def _evaluate(
    banks: OrderBanks,
    tables: GramTables,
    ridge: float,
    target: tuple[NDArray, Array],
    betas: Array,
    column_offset: NDArray[np.intp],
) -> Evaluation:
    """Batched fit of proposals: target stencil ``(N, 2)`` and orders ``betas (N, c)`` whose
    column ``j`` starts at bank row ``column_offset[..., j]`` (``(c,)`` or ``(N, c)``)."""
    c_idx, c_w = beta_blend(betas, banks.beta_nodes)
    idx = np.concatenate([target[0][:, None], c_idx + column_offset[..., None]], axis=1)
    w = np.concatenate([target[1][:, None], c_w], axis=1)
    return tables.evaluate(idx, w, ridge)


class PatternObjective:
    """Batched objective of one (power pattern, temporal branch): ``x (N, dim) -> J (N,)``."""

    def __init__(
        self,
        banks: OrderBanks,
        tables: GramTables,
        branch: Branch,
        powers: tuple[int, ...],
        settings: SearchSettings,
    ) -> None:
        self.banks, self.tables, self.branch, self.powers = banks, tables, branch, powers
        self.settings = settings
        self.fractional = not branch.is_integer
        self.same_power = same_power_pairs(powers)
        self.column_offset = np.array([banks.column_offset[p] for p in powers], dtype=np.intp)
        self.n_evals = 0

    @property
    def dim(self) -> int:
        return len(self.powers) + (1 if self.fractional else 0)

    def split(self, x: Array) -> tuple[Array, Array]:
        x = np.atleast_2d(x)
        if self.fractional:
            return x[:, 0], x[:, 1:]
        return np.ones(x.shape[0]), x

    def fit(self, x: Array):
        """Stencils and batched evaluation for proposals ``x (N, dim)``."""
        alpha, betas = self.split(x)
        target = self.banks.target_stencil(self.branch.mode, alpha)
        self.n_evals += betas.shape[0]
        ev = _evaluate(
            self.banks, self.tables, self.settings.ridge, target, betas, self.column_offset
        )
        return alpha, betas, ev

    def __call__(self, x: Array) -> Array:
        _, betas, ev = self.fit(x)
        obj = np.log10(np.maximum(ev.val_error, TINY))
        s = self.settings
        return obj + duplicate_penalty_rows(self.same_power, betas, s.dup_weight, s.dup_gap)

    def candidate(self, x: Array) -> Candidate:
        alpha, betas, ev = self.fit(np.atleast_2d(x))
        snapped = snap_beta(betas[0], self.banks.beta_nodes)
        a = float(alpha[0]) if self.fractional else 1.0
        snapped_betas = tuple(float(b) for b in snapped)
        return Candidate.from_evaluation(self.branch.mode, a, self.powers, snapped_betas, ev)


def anchor_points(
    branch: Branch,
    beta_range: tuple[float, float],
    powers: tuple[int, ...],
    max_anchors: int,
) -> Array:
    """Truth-agnostic anchor grid: alpha anchors x (beta anchors)^c, subsampled
    (docs/method/search.md#anchor-start)."""
    c = len(powers)
    if branch.is_integer:
        alphas: list[float] | None = None
    else:
        alphas = list(np.linspace(branch.lo, branch.hi, 5))
        alphas += [v for v in (1.0, 2.0) if branch.lo <= v <= branch.hi]
        alphas = _dedup(alphas)
    b_lo, b_hi = beta_range
    betas = _dedup(list(np.linspace(b_lo, b_hi, 6)) + [v for v in (1.0, 2.0) if b_lo <= v <= b_hi])
    axes = ([alphas] if alphas is not None else []) + [betas] * c
    # itertools.product's order (the last axis fastest), built by numpy
    mesh = np.meshgrid(*[np.asarray(a, dtype=float) for a in axes], indexing="ij")
    grid = np.stack(mesh, axis=-1).reshape(-1, len(axes))
    if grid.shape[0] > max_anchors:
        rng = np.random.default_rng(4242 + 37 * c + sum(powers))
        keep = np.sort(rng.choice(grid.shape[0], size=max_anchors, replace=False))
        grid = grid[keep]
    return grid


def _dedup(values: list[float], tol: float = 1e-9) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or abs(v - out[-1]) > tol:
            out.append(float(v))
    return out


def _inside_bounds(x0: Array, bounds: list[tuple[float, float]]) -> Array:
    """Clip ``x0`` so scipy's rescaling ``(x - mid) * (1 / |hi - lo|) + 0.5`` stays in [0, 1].

    An anchor on a bound can rescale to 1 + 1e-16 and be rejected; step it inward by ulps until
    both the quotient and SciPy's product with the reciprocal (which can differ by an ulp) are
    inside.
    """
    lo = np.array([b[0] for b in bounds], dtype=float)
    hi = np.array([b[1] for b in bounds], dtype=float)
    x = np.clip(x0, lo, hi)
    mid, span = 0.5 * (lo + hi), np.abs(hi - lo)
    safe = np.where(span > 0, span, 1.0)
    for _ in range(8):
        quotient = (x - mid) / safe + 0.5
        product = (x - mid) * (1.0 / safe) + 0.5
        high = (quotient > 1.0) | (product > 1.0)
        low = (quotient < 0.0) | (product < 0.0)
        if not (high.any() or low.any()):
            break
        x = np.where(high, np.nextafter(x, lo), np.where(low, np.nextafter(x, hi), x))
    return x


def _anchor_grid(
    objective: PatternObjective, beta_range: tuple[float, float], settings: SearchSettings
) -> Array:
    """The anchors a problem's DE may start from (none without ``settings.anchors``): the
    truth-agnostic grid without proposals the duplicate penalty rules out."""
    if not settings.anchors:
        return np.zeros((0, objective.dim))
    powers = objective.powers
    grid = anchor_points(objective.branch, beta_range, powers, settings.max_anchors)
    _, b = objective.split(grid)
    return grid[duplicate_penalty(powers, b, 1.0, settings.dup_gap) <= 0.0]


def _start_from(
    objective: PatternObjective, beta_range: tuple[float, float], grid: Array, vals: Array
) -> tuple[list[tuple[float, float]], Array, float]:
    """DE bounds, the start point ``x0`` (the best anchor of ``grid``, scored ``vals``; the
    middle of the box without anchors) and its objective value."""
    br, powers = objective.branch, objective.powers
    beta_bounds = cast(tuple[float, float], tuple(beta_range))
    bounds = ([(br.lo, br.hi)] if objective.fractional else []) + [beta_bounds] * len(powers)
    if grid.shape[0]:
        k = int(np.argmin(vals))
        x0, anchor_val = grid[k], float(vals[k])
    else:
        mid_b = 0.5 * (beta_range[0] + beta_range[1])
        x0 = np.array(
            ([0.5 * (br.lo + br.hi)] if objective.fractional else []) + [mid_b] * len(powers)
        )
        anchor_val = np.inf
    return bounds, _inside_bounds(np.asarray(x0, dtype=float), bounds), anchor_val


def _start(
    objective: PatternObjective, beta_range: tuple[float, float], settings: SearchSettings
) -> tuple[list[tuple[float, float]], Array, float]:
    """DE bounds, the start point ``x0`` (best truth-agnostic anchor) and its objective value."""
    grid = _anchor_grid(objective, beta_range, settings)
    vals = objective(grid) if grid.shape[0] else np.zeros(0)
    return _start_from(objective, beta_range, grid, vals)


def _finish(
    objective: PatternObjective,
    bounds: list[tuple[float, float]],
    x: Array,
    x0: Array,
    anchor_val: float,
) -> Candidate:
    """The DE optimum ``x`` (clipped to the bounds) unless the start anchor scores better."""
    best_x = _clipped(bounds, x)
    return _finish_with(objective, best_x, float(objective(best_x[None])[0]), x0, anchor_val)


def _clipped(bounds: list[tuple[float, float]], x: Array) -> Array:
    return np.clip(x, [b[0] for b in bounds], [b[1] for b in bounds])


def _finish_with(
    objective: PatternObjective, best_x: Array, de_val: float, x0: Array, anchor_val: float
) -> Candidate:
    """:func:`_finish` given the clipped optimum's objective value ``de_val``."""
    return objective.candidate(best_x if de_val < anchor_val else x0)


def optimise_pattern_branch(
    objective: PatternObjective,
    beta_range: tuple[float, float],
    seed: int,
    settings: SearchSettings,
) -> Candidate:
    """Anchor start, then scipy differential evolution from the best anchor
    (docs/method/search.md#differential-evolution)."""
    from scipy.optimize import differential_evolution  # imported when used (start-up)

    bounds, x0, anchor_val = _start(objective, beta_range, settings)
    if settings.vectorized:
        func: Callable = lambda x: objective(np.asarray(x).T)  # noqa: E731  (dim, S) -> (S,)
    else:
        func = lambda x: float(objective(np.asarray(x)[None])[0])  # noqa: E731
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "vectorized updating" notices
        res = differential_evolution(
            func,
            bounds,
            maxiter=settings.maxiter,
            popsize=settings.popsize,
            tol=settings.tol,
            polish=False,
            seed=seed,
            updating=settings.updating,
            workers=1,
            x0=x0,
            vectorized=settings.vectorized,
        )
    return _finish(objective, bounds, res.x, x0, anchor_val)


class SizeObjective:
    """The objectives of several (pattern, branch) problems of one support size, as one
    :data:`weakpareto.method.lockstep_de.BatchObjective`: ``(problem_ids, X) -> J``.

    Every row is scored with the same elementwise arithmetic as :meth:`PatternObjective.__call__`
    on that row alone (stencils, one batch-independent Gram evaluation, ``log10`` and the
    duplicate penalty of Eq. 30), so the values are bit-identical to the per-problem objective.
    """

    def __init__(self, objectives: list[PatternObjective]) -> None:
        first = objectives[0]
        self.objectives = objectives
        self.banks, self.tables, self.settings = first.banks, first.tables, first.settings
        self.c = len(first.powers)
        if any(o.tables is not self.tables or len(o.powers) != self.c for o in objectives):
            raise ValueError("a SizeObjective needs problems of one size on one set of tables")
        self.fractional = np.array([o.fractional for o in objectives])
        self.modes = sorted({o.branch.mode for o in objectives})
        self.mode_of = np.array([self.modes.index(o.branch.mode) for o in objectives])
        self.column_offset = np.stack([o.column_offset for o in objectives])  # (P, c)
        n_pairs = self.c * (self.c - 1) // 2
        self.same_power = np.stack([same_power_pairs(o.powers) for o in objectives]).reshape(
            len(objectives), n_pairs
        )
        self.counts = np.zeros(len(objectives), dtype=np.int64)  # rows scored per problem

    def __call__(self, ids: NDArray[np.intp], x: Array) -> Array:
        c, m = self.c, ids.size
        frac = self.fractional[ids]
        if x.shape[1] < c + 1:  # no fractional problem: pad the alpha column
            x = np.concatenate([x, np.full((m, c + 1 - x.shape[1]), np.nan)], axis=1)
        alpha = np.where(frac, x[:, 0], 1.0)
        betas = np.where(frac[:, None], x[:, 1 : c + 1], x[:, :c])
        t_idx = np.empty((m, 2), dtype=np.intp)
        t_w = np.empty((m, 2))
        for k, mode in enumerate(self.modes):  # the target stencil depends on the branch
            rows = np.flatnonzero(self.mode_of[ids] == k)
            if rows.size:
                t_idx[rows], t_w[rows] = self.banks.target_stencil(mode, alpha[rows])
        s = self.settings
        ev = _evaluate(
            self.banks, self.tables, s.ridge, (t_idx, t_w), betas, self.column_offset[ids]
        )
        obj = np.log10(np.maximum(ev.val_error, TINY))
        pen = duplicate_penalty_rows(self.same_power[ids], betas, s.dup_weight, s.dup_gap)
        self.counts += np.bincount(ids, minlength=len(self.objectives))
        return cast(Array, obj + pen)


def scipy_updating(settings: SearchSettings) -> str:
    """SciPy's effective updating: a vectorised objective runs deferred (SciPy switches, warns)."""
    return "deferred" if settings.vectorized else settings.updating


def optimise_size(
    objectives: list[PatternObjective],
    beta_range: tuple[float, float],
    seeds: list[int],
    settings: SearchSettings,
    engine: str = "lockstep",
) -> list[Candidate]:
    """:func:`optimise_pattern_branch` for every problem of one support size.

    The problems are independent, so by default (``engine="lockstep"``) they run in lock-step
    (:func:`weakpareto.method.lockstep_de.lockstep_differential_evolution`): each problem's
    trajectory is SciPy's bit for bit — immediate updating (the paper's) or deferred (the fast
    mode) — and each DE step (deferred: generation) scores the trials of every running problem
    in one batched Gram evaluation. ``engine="scipy"`` runs SciPy on each problem in turn (the
    reference the lock-step path is tested against).
    """
    if engine not in ("lockstep", "scipy"):
        raise ValueError(f"engine={engine!r}: use 'lockstep' or 'scipy'")
    if engine == "scipy" or not objectives:
        return [
            optimise_pattern_branch(o, beta_range, sd, settings) for o, sd in zip(objectives, seeds)
        ]
    batch = SizeObjective(objectives)
    grids = [_anchor_grid(o, beta_range, settings) for o in objectives]
    vals = _scored_rows(batch, grids)  # every problem's anchors in one evaluation
    starts = [_start_from(o, beta_range, g, v) for o, g, v in zip(objectives, grids, vals)]
    problems = [
        LockstepProblem(
            bounds=bounds,
            seed=sd,
            x0=x0,
            maxiter=settings.maxiter,
            popsize=settings.popsize,
            tol=settings.tol,
        )
        for (bounds, x0, _), sd in zip(starts, seeds)
    ]
    results = lockstep_differential_evolution(problems, batch, scipy_updating(settings))
    best = [_clipped(bounds, r.x) for (bounds, _, _), r in zip(starts, results)]
    de_vals = _scored_rows(batch, [b[None] for b in best])  # every optimum in one evaluation
    for o, n in zip(objectives, batch.counts.tolist()):
        o.n_evals += n
    return [
        _finish_with(o, b, float(v[0]), x0, anchor_val)
        for o, b, v, (_, x0, anchor_val) in zip(objectives, best, de_vals, starts)
    ]


def _scored_rows(batch: SizeObjective, points: list[Array]) -> list[Array]:
    """``[objectives[k](points[k]) for k]`` in one call of ``batch`` (the same bits: the
    evaluation is elementwise in its rows), rows padded to the widest problem."""
    sizes = [p.shape[0] for p in points]
    if not sum(sizes):
        return [np.zeros(0) for _ in points]
    width = max(p.shape[1] for p in points)
    x = np.full((sum(sizes), width), np.nan)
    start = 0
    for p in points:
        x[start : start + p.shape[0], : p.shape[1]] = p
        start += p.shape[0]
    ids = np.repeat(np.arange(len(points), dtype=np.intp), sizes)
    scored = batch(ids, x)
    return np.split(scored, np.cumsum(sizes)[:-1])
