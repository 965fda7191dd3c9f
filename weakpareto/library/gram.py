"""Order banks and Gram tables: the O(c^2)-per-evaluation objective (paper Sec. 4.2, Eqs. 19-21).

During the search every column is a linear blend of two bank vectors
(docs/method/library.md#interpolation), so every inner product the objective needs —
``Theta^T Theta``, ``Theta^T b``, ``b^T b`` and the row sums for the variance normalisation — on the
training and validation rows is a weighted sum of entries of Gram tables ``V_tr V_tr^T`` and
``V_val V_val^T`` between bank vectors, computed once per dataset. One evaluation is then O(c^2)
lookups plus a c x c solve, independent of K.

Bank layout: rows of ``vectors`` are the target nodes of every admitted branch (in branch
order), then the column nodes of every power (power-major, beta-node-minor).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from weakpareto._typing import Array
from weakpareto.numerics.orders import Branch, beta_blend, blend
from weakpareto.records import Mode

TINY = float(np.finfo(float).tiny)
VAR_EPS = 1e-14
EPS_REL = 1e-14


class FeatureSource(Protocol):
    """Anything that evaluates exact targets and columns (weak or pointwise library)."""

    @property
    def n_rows(self) -> int: ...

    def targets(self, alphas: Array, mode: Mode) -> Array: ...

    def columns(self, power: int, betas: Array) -> Array: ...


@dataclass(frozen=True)
class OrderBanks:
    """Precomputed features at every order node, stacked as ``vectors (M, K)``
    (docs/method/library.md#order-banks-and-gram-tables)."""

    branches: tuple[Branch, ...]
    beta_nodes: Array
    powers: tuple[int, ...]
    vectors: Array
    target_offset: dict[Mode, int]
    column_offset: dict[int, int]

    @property
    def n_rows(self) -> int:
        return self.vectors.shape[1]

    def branch(self, mode: Mode) -> Branch:
        for b in self.branches:
            if b.mode == mode:
                return b
        raise KeyError(mode)

    def target_stencil(self, mode: Mode, alpha: Array) -> tuple[Array, Array]:
        """Bank indices/weights ``(..., 2)`` of the interpolated target at ``alpha``."""
        br = self.branch(mode)
        idx, w = blend(np.asarray(alpha, dtype=float), br.nodes)
        return idx + self.target_offset[mode], w

    def column_stencil(self, power: int, beta: Array) -> tuple[Array, Array]:
        idx, w = beta_blend(np.asarray(beta, dtype=float), self.beta_nodes)
        return idx + self.column_offset[power], w

    def interpolate(self, idx: Array, w: Array) -> Array:
        """Materialise interpolated vectors ``(..., K)`` from a stencil (used for pruning/tests)."""
        return np.einsum("...a,...ak->...k", w, self.vectors[idx])


def build_banks(
    source: FeatureSource,
    branches: tuple[Branch, ...],
    beta_nodes: Array,
    powers: tuple[int, ...],
) -> OrderBanks:
    """Evaluate every target node of every branch and every column node of every power once."""
    blocks: list[Array] = []
    t_off: dict[Mode, int] = {}
    c_off: dict[int, int] = {}
    pos = 0
    for br in branches:
        t_off[br.mode] = pos
        blocks.append(source.targets(br.nodes, br.mode))
        pos += br.nodes.size
    shared = getattr(source, "columns_of_powers", None)  # one X_beta u for every power
    if shared is not None:
        blocks.extend(shared(tuple(powers), beta_nodes))
    else:
        blocks.extend(source.columns(p, beta_nodes) for p in powers)
    for p in powers:
        c_off[p] = pos
        pos += beta_nodes.size
    vectors = np.ascontiguousarray(np.concatenate(blocks, axis=0))
    return OrderBanks(branches, np.asarray(beta_nodes), tuple(powers), vectors, t_off, c_off)


@dataclass(frozen=True)
class RowGram:
    """Gram table and row sums of the bank restricted to one row subset."""

    gram: Array  # (M, M)
    sums: Array  # (M,)
    n: int

    @classmethod
    def of(cls, vectors: Array) -> RowGram:
        v = np.asarray(vectors, dtype=float)
        finite = np.all(np.isfinite(v), axis=0)
        # the column selection copies into Fortran order (the order the products and sums below
        # were made in); an all-finite array gets that order without the selection
        v = np.asfortranarray(v) if finite.all() else v[:, finite]
        return cls(v @ v.T, v.sum(axis=1), v.shape[1])


@dataclass(frozen=True)
class Evaluation:
    """Batched fit of N candidates of size c (all arrays have leading dimension N)."""

    coef: Array  # (N, c)
    train_error: Array  # E_train, variance-normalised
    val_error: Array  # E_val, variance-normalised (paper Eq. 21)
    val_mse: Array  # raw validation MSE (for AIC/BIC-type scores)


def _blend_gram(table: RowGram, idx: Array, w: Array) -> tuple[Array, Array]:
    """Gram ``(N, c+1, c+1)`` and sums ``(N, c+1)`` of blended vectors [y, x_1..x_c].

    ``<w_i0 v_a + w_i1 v_b, w_j0 v_c + w_j1 v_d>`` expanded into four table entries. Every step is
    elementwise in the candidate axis ``N`` (no einsum/BLAS reductions, whose summation order can
    depend on the batch shape), so a candidate scores the same bits alone or in any batch — the
    lock-step DE (:mod:`weakpareto.method.lockstep_de`) relies on this to reproduce SciPy.
    """
    idx = np.ascontiguousarray(idx)
    w = np.ascontiguousarray(w)
    ii, jj = idx[:, :, None, :], idx[:, None, :, :]  # (N, c+1, 1, 2), (N, 1, c+1, 2)
    wi, wj = w[:, :, None, :], w[:, None, :, :]
    gram = (
        table.gram[ii[..., 0], jj[..., 0]] * wi[..., 0] * wj[..., 0]
        + table.gram[ii[..., 0], jj[..., 1]] * wi[..., 0] * wj[..., 1]
    ) + (
        table.gram[ii[..., 1], jj[..., 0]] * wi[..., 1] * wj[..., 0]
        + table.gram[ii[..., 1], jj[..., 1]] * wi[..., 1] * wj[..., 1]
    )
    sums = table.sums[idx[..., 0]] * w[..., 0] + table.sums[idx[..., 1]] * w[..., 1]
    return gram, sums


def _row_dot(a: Array, b: Array) -> Array:
    """``sum_i a[:, i] b[:, i]`` accumulated left to right (batch-independent, see _blend_gram)."""
    out = a[:, 0] * b[:, 0]
    for i in range(1, a.shape[1]):
        out = out + a[:, i] * b[:, i]
    return out


def _rss(gram: Array, coef: Array) -> Array:
    """``y^T y - 2 coef^T X^T y + coef^T X^T X coef`` per candidate, floored at 0."""
    yy = gram[:, 0, 0]
    xy = gram[:, 1:, 0]
    xx = gram[:, 1:, 1:]
    if coef.shape[1] == 0:
        return np.maximum(yy, 0.0)
    xx_coef = np.stack([_row_dot(xx[:, i, :], coef) for i in range(coef.shape[1])], axis=1)
    rss = yy - 2.0 * _row_dot(coef, xy) + _row_dot(coef, xx_coef)
    return np.maximum(rss, 0.0)


def ridge_from_gram(gram: Array, ridge: float) -> Array:
    """Column-normalised ridge (paper Eq. 20) from ``[y, X]`` Gram matrices ``(N, c+1, c+1)``.

    Batch-independent: elementwise scaling and one LAPACK solve (or pseudo-inverse) per matrix.
    """
    xx = gram[:, 1:, 1:]
    xy = gram[:, 1:, 0]
    c = xx.shape[-1]
    scale = np.sqrt(np.maximum(np.diagonal(xx, axis1=1, axis2=2), 0.0))
    scale = np.where(scale > 0.0, scale, 1.0)
    a = xx / (scale[:, :, None] * scale[:, None, :])
    rhs = xy / scale
    if ridge > 0:
        a = a + ridge * np.eye(c)
        sol = np.linalg.solve(a, rhs[..., None])[..., 0]
    else:
        pinv = np.linalg.pinv(a)
        sol = np.stack([_row_dot(pinv[:, i, :], rhs) for i in range(c)], axis=1)
    return sol / scale


@dataclass(frozen=True)
class GramTables:
    """Training/validation Gram tables of an :class:`OrderBanks` for one row split."""

    train: RowGram
    val: RowGram
    full: RowGram

    @classmethod
    def build(cls, banks: OrderBanks, train_rows: Array, val_rows: Array) -> GramTables:
        tr = RowGram.of(banks.vectors[:, train_rows])
        va = RowGram.of(banks.vectors[:, val_rows])
        full = RowGram(tr.gram + va.gram, tr.sums + va.sums, tr.n + va.n)
        return cls(tr, va, full)

    @classmethod
    def build_from_vectors(cls, vectors: Array, train_rows: Array, val_rows: Array) -> GramTables:
        """Tables of explicit vectors ``(M, K)`` (e.g. one exact system ``[y, x_1..x_c]``)."""
        tr = RowGram.of(vectors[:, train_rows])
        va = RowGram.of(vectors[:, val_rows])
        return cls(tr, va, RowGram(tr.gram + va.gram, tr.sums + va.sums, tr.n + va.n))

    def minus(self, c_train: Array, c_val: Array) -> GramTables:
        """Tables with covariance matrices subtracted from the training/validation Grams."""
        tr = RowGram(self.train.gram - c_train, self.train.sums, self.train.n)
        va = RowGram(self.val.gram - c_val, self.val.sums, self.val.n)
        return GramTables(tr, va, RowGram(tr.gram + va.gram, tr.sums + va.sums, tr.n + va.n))

    def full_fit(self, ridge: float) -> tuple[Array, float]:
        """Fit of slot 0 on slots 1.. over all rows and ``sqrt(RSS / y^T y)`` (tables of one
        explicit system, :meth:`build_from_vectors`)."""
        return fit_of_gram(self.full.gram, ridge)

    def evaluate(self, idx: Array, w: Array, ridge: float) -> Evaluation:
        """Fit and score N candidates given stencils ``(N, c+1, 2)``: slot 0 is the target."""
        g_tr, s_tr = _blend_gram(self.train, idx, w)
        coef = ridge_from_gram(g_tr, ridge)
        e_tr, _ = _normalised_error(g_tr, s_tr, coef, self.train.n)
        g_va, s_va = _blend_gram(self.val, idx, w)
        e_va, mse_va = _normalised_error(g_va, s_va, coef, self.val.n)
        return Evaluation(coef, e_tr, e_va, mse_va)


def fit_of_gram(gram: Array, ridge: float) -> tuple[Array, float]:
    """Ridge fit of slot 0 on slots 1.. from one ``[y, X]`` Gram matrix and the relative
    residual ``sqrt(RSS / y^T y)``."""
    g = gram[None]
    coef = ridge_from_gram(g, ridge)
    rss = float(_rss(g, coef)[0])
    return coef[0], float(np.sqrt(rss) / (np.sqrt(max(g[0, 0, 0], 0.0)) + EPS_REL))


def _normalised_error(gram: Array, sums: Array, coef: Array, n: int) -> tuple[Array, Array]:
    mse = _rss(gram, coef) / n
    mean = sums[:, 0] / n
    var = np.maximum(gram[:, 0, 0] / n - mean**2, 0.0)
    return mse / (var + VAR_EPS), mse


def evaluate_direct(
    y: Array, x: Array, train_rows: Array, val_rows: Array, ridge: float
) -> Evaluation:
    """Reference K-row evaluation of one candidate (``y (K,)``, ``x (K, c)``); used in tests."""
    ytr, xtr = y[train_rows], x[train_rows]
    scale = np.linalg.norm(xtr, axis=0)
    scale = np.where(scale > 0.0, scale, 1.0)
    xn = xtr / scale
    c = x.shape[1]
    if ridge > 0:
        coef = np.linalg.solve(xn.T @ xn + ridge * np.eye(c), xn.T @ ytr) / scale
    else:
        coef = np.linalg.lstsq(xn, ytr, rcond=None)[0] / scale

    def err(rows: Array) -> tuple[float, float]:
        r = y[rows] - x[rows] @ coef
        mse = float(np.mean(r**2))
        return mse / (float(np.var(y[rows])) + VAR_EPS), mse

    e_tr, _ = err(train_rows)
    e_va, mse_va = err(val_rows)
    return Evaluation(coef[None], np.array([e_tr]), np.array([e_va]), np.array([mse_va]))
