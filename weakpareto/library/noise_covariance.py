"""The noise covariance of weak features (ours, beyond the paper;
docs/method/extensions.md#noise-aware-scoring).

Noise in ``u`` enters every weak feature linearly. Summed over rows it biases every Gram entry the
search and the refit use: ``E[V V^T] = V_0 V_0^T + C`` with ``C`` the noise covariance of the
feature vectors (errors in variables). The target's share grows with the temporal order (the
derivative lands on the test function, so a larger ``alpha`` amplifies the noise more): an
uncorrected least-squares score prefers the smallest ``alpha`` in range, the paper's
"alpha pinned to the search bound" failure on the reaction-diffusion benchmarks. Subtracting
``C`` removes that bias.

Every linear weak feature is a separable functional of ``u``:
``f_k = dt dx sum_ij A[a, i] B[l, j] u_ij`` (row ``k = a K_x + l``), with ``A`` the effective
temporal weights of the target (:meth:`WeakLibrary.target_weights`) or the temporal tests, and
``B`` the spatial tests or their adjoint images ``X_beta^* psi_l`` (paper Eq. 10). For noise with
variance field ``s_ij`` (independent between grid points) the covariance of two features summed
over the rows of a mask ``M`` is

    C(f, g) = dt^2 dx^2 sum_{a,l} M[a, l] sum_{i,j} A_f[a,i] A_g[a,i] s_ij B_f[l,j] B_g[l,j],

which needs no ``K x N`` matrix. Nonlinear columns (``u^p X_beta u``) are not corrected: their
noise enters through the non-separable ``X_beta`` acting on the noisy field (stated limitation).

The variance field ``s`` comes from the data
(:func:`weakpareto.library.noise_level.estimate_noise`, the package's one noise estimator).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

import numpy as np

from weakpareto._typing import Array, IntArray
from weakpareto.library.families import column_kinds
from weakpareto.library.recent import RecentValues


class SeparableSource(Protocol):
    """What the covariance needs of a weak library."""

    dt: float
    dx: float
    temporal_tests: Array
    spatial_tests: Array

    def target_weights(self, alphas: Array, mode: str) -> Array: ...

    def initial_samples(self, mode: str) -> int: ...

    def spatial_adjoint_tests(self, betas: Array) -> Array: ...


#: Values of the largest per-block intermediate of :meth:`FeatureCovariance.blocks_per_mask`.
BLOCK_VALUES = 1 << 22


def _blocks(n: int, per_item: int) -> list[slice]:
    """Slices of ``n`` items whose intermediates hold at most :data:`BLOCK_VALUES` values
    (one slice when ``n`` is 0, so empty blocks keep their shapes)."""
    size = max(1, BLOCK_VALUES // max(per_item, 1))
    return [slice(i, i + size) for i in range(0, max(n, 1), size)]


#: Trial orders whose target weights and time sums a covariance keeps (least recently used
#: dropped first; each holds ``(K_t, nt + nx)`` values).
KEPT_ORDERS = 8


@dataclass(frozen=True)
class _OrderTerms:
    """One trial order's target weights ``(G, K_t, nt)``, the columns' temporal tests (None: the
    source's), ``P = (W o T) s`` ``(G, K_t, nx)`` (row sums ``(G, K_t)`` for a constant
    variance) and, for replaced tests, ``(T o T) s`` ``(K_t, nx)``."""

    weights: Array
    tests: Array | None
    p: Array
    squares: Array | None


@dataclass(frozen=True)
class FeatureCovariance:
    """Noise covariance of the target and the linear columns of a weak library, per row mask.

    ``family_parts`` are the libraries of several operator families on the same field and tests
    (:class:`weakpareto.library.families.FamilyLibrary`): column kind ``f`` is then the linear
    column of ``family_parts[f]``; empty, kind 0 is ``source``'s own linear column."""

    source: SeparableSource
    variance: Array  # (nt, nx)
    family_parts: tuple[SeparableSource, ...] = ()
    _per_mask: dict[bytes, tuple[Array, Array]] = field(
        default_factory=dict, compare=False, repr=False
    )
    _per_order: RecentValues[tuple[str, float, bool], _OrderTerms] = field(
        default_factory=lambda: RecentValues(KEPT_ORDERS), compare=False, repr=False
    )

    @property
    def linear_kinds(self) -> tuple[int, ...]:
        """The column kinds whose columns are linear in ``u`` (power 0 of each family)."""
        return column_kinds((0,), max(1, len(self.family_parts)))

    def adjoint_tests(self, kinds: Sequence[int] | Array, betas: Array) -> Array:
        """``X_beta^* psi_l`` of linear columns of the given kinds at their orders,
        ``(B, K_x, nx)``: one batched call per kind, rows in the given order."""
        kind = np.asarray(kinds, dtype=int)
        betas = np.asarray(betas, dtype=float)
        out = np.empty((kind.size,) + self.source.spatial_tests.shape)
        for k in np.unique(kind):
            part = self.family_parts[k] if self.family_parts else self.source
            out[kind == k] = part.spatial_adjoint_tests(betas[kind == k])
        return out

    def trial_adjoint_tests(self, kinds: Sequence[int], betas: Array) -> Array:
        """:meth:`adjoint_tests` of a trial system's few columns: one order at a time where the
        source keeps its latest single orders (``keeps_single_orders``), which the system's own
        columns have just asked for; the same bits as one batched call."""
        parts = [self.family_parts[k] if self.family_parts else self.source for k in kinds]
        if not all(getattr(part, "keeps_single_orders", False) for part in parts):
            return self.adjoint_tests(kinds, betas)
        out = np.empty((len(kinds),) + self.source.spatial_tests.shape)
        for i, (part, beta) in enumerate(zip(parts, np.asarray(betas, dtype=float))):
            out[i] = part.spatial_adjoint_tests(np.array([beta]))[0]
        return out

    def bulk_weights(self, alphas: Array, mode: str) -> Array:
        """Target weights without the samples that define the initial values.

        ``u(0)`` (and ``u'(0)``) are estimated from the first samples and enter every target
        row through the subtracted Taylor polynomial: one realisation of their noise, shared by
        all rows, whose energy no average over rows predicts (it fluctuates by its whole size).
        Their noise is left in the score, as in the paper; only the bulk noise is corrected.
        """
        w = np.array(self.source.target_weights(alphas, mode), copy=True)
        w[..., : self.source.initial_samples(mode)] = 0.0
        return w

    @cached_property
    def constant_variance(self) -> float | None:
        """The variance when it is one value on the whole grid (additive noise), else None.

        ``P = (W o T) s`` then equals ``s0 (W o T) 1`` at every ``x_j``: the target x column
        block needs only the row sums of ``W o T`` instead of a ``G K_t nt nx`` product."""
        s = np.asarray(self.variance)
        first = s.flat[0] if s.size else 0.0
        return float(first) if bool(np.all(s == first)) else None

    @property
    def _q2(self) -> float:
        return (self.source.dt * self.source.dx) ** 2

    def blocks(self, weights: Array, adjoints: Array, mask: Array) -> tuple[Array, Array, Array]:
        """``(C_tt, C_tc, C_cc)`` for target weights ``(G, K_t, nt)``, linear-column adjoint tests
        ``(B, K_x, nx)`` and a row mask ``(K_t, K_x)`` (1 on the rows summed)."""
        return self.blocks_per_mask(weights, adjoints, (mask,))[0]

    def _mask_terms(self, mask: Array) -> tuple[Array, Array]:
        """The parts of :meth:`blocks` that depend on the mask alone, kept per mask: the
        target's ``sum_l M[a,l] sum_j s_ij psi_l(x_j)^2`` ``(nt, K_t)`` and the columns'
        ``sum_a M[a,l] sum_i T_ai^2 s_ij`` ``(K_x, nx)``."""
        key = mask.tobytes()
        cached = self._per_mask.get(key)
        if cached is None:
            s, t, sp = self.variance, self.source.temporal_tests, self.source.spatial_tests
            r = (s @ (sp * sp).T) @ mask.T  # (nt, K_t): sum_l M[a,l] sum_j s_ij psi_l^2
            v = mask.T @ ((t * t) @ s)  # (K_x, nx)
            cached = self._per_mask[key] = (r, v)
        return cached

    def time_sums(self, weights: Array, tests: Array | None = None) -> _OrderTerms:
        """The parts of :meth:`blocks_per_mask` that depend on the target's weights and the
        columns' temporal tests alone (one trial order, any orders of the columns)."""
        s = self.variance
        t = self.source.temporal_tests if tests is None else tests
        # target x column: A = (W, T), B = (psi, X^* psi). The time sum first,
        # P = (W o T) s (G, K_t, nx), costs G K_t nt nx once for every mask and column;
        # the space sum first would cost B K_x nt nx (every column of every trial system)
        s0 = self.constant_variance
        if s0 is None:
            p = (weights * t[None]) @ s
        else:  # P constant along x: its row sums (G, K_t)
            p = s0 * (weights * t[None]).sum(axis=-1)
        squares = None if tests is None else (t * t) @ s
        return _OrderTerms(weights, tests, p, squares)

    def blocks_per_mask(
        self,
        weights: Array,
        adjoints: Array,
        masks: tuple[Array, ...],
        tests: Array | None = None,
        sums: _OrderTerms | None = None,
    ) -> list[tuple[Array, Array, Array]]:
        """:meth:`blocks` for several row masks, sharing the mask-independent products (the
        training and validation covariances of one trial system); ``tests`` replace the
        source's temporal tests of the columns (a profiled system, :meth:`systems`); ``sums``
        the :meth:`time_sums` of these weights and tests, when kept from an earlier call."""
        sp = self.source.spatial_tests
        g, nb = weights.shape[0], adjoints.shape[0]
        flat = weights.reshape(g, -1)
        terms = self.time_sums(weights, tests) if sums is None else sums
        s0 = self.constant_variance
        if s0 is None:
            p = terms.p
        else:  # P constant along x: its row sums, and sum_j psi_lj X^* psi_lj once per column
            p_rows = terms.p
            overlap = np.einsum("lj,blj->lb", sp, adjoints)  # (K_x, B)
        adj_flat = adjoints.reshape(nb, sp.size)  # (B, K_x nx); explicit size for B = 0
        out = []
        for mask in masks:
            mask = np.asarray(mask, dtype=float)
            r, v = self._mask_terms(mask)
            if terms.squares is not None:
                v = mask.T @ terms.squares
            # target x target: B = psi for both -> sum_j s_ij psi_l(x_j)^2
            c_tt = flat @ (weights * r.T[None]).reshape(g, -1).T  # sum_ai W_gai W_hai r_ia
            if s0 is not None:
                c_tc = (p_rows @ mask) @ overlap
            else:  # in blocks of targets: the (., K_x, nx) intermediates stay small
                c_tc = np.concatenate(
                    [  # sum_a M[a,l] P[g,a,j] psi_lj, then the sum over (l, j) with X^* psi
                        ((mask.T @ p[b]) * sp[None]).reshape(-1, sp.size) @ adj_flat.T
                        for b in _blocks(g, sp.size)
                    ]
                )
            # column x column: A = T for both
            c_cc = np.concatenate(
                [
                    (adjoints[b] * v[None]).reshape(-1, sp.size) @ adj_flat.T
                    for b in _blocks(nb, sp.size)
                ]
            ).reshape(nb, nb)
            out.append((self._q2 * c_tt, self._q2 * c_tc, self._q2 * c_cc))
        return out

    def system(
        self, mode: str, alpha: float, powers: tuple[int, ...], betas: Array, mask: Array
    ) -> Array:
        """Covariance ``(c+1, c+1)`` of ``[y, x_1..x_c]`` at exact orders (nonlinear columns 0)."""
        return self.systems(mode, alpha, powers, betas, (mask,))[0]

    def _order_terms(self, mode: str, alpha: float, with_start: bool) -> _OrderTerms:
        """The target's weights at ``alpha`` (profiled where the source profiles ``u'(0)``)
        and their :meth:`time_sums`, kept for the last :data:`KEPT_ORDERS` orders: the trial
        systems of one order (every support and column order) share them."""
        key = (mode, float(alpha), with_start)
        return self._per_order.get(key, lambda: self._new_order_terms(mode, alpha, with_start))

    def _new_order_terms(self, mode: str, alpha: float, with_start: bool) -> _OrderTerms:
        alphas = np.array([alpha])
        w = (
            self.source.target_weights(alphas, mode)
            if with_start
            else self.bulk_weights(alphas, mode)
        )
        tests = None
        direction = getattr(self.source, "slope_direction", None)
        q = None if direction is None else direction(mode, alpha)
        if q is not None:  # the profiled system: every temporal weight projected off q
            w = w - q[None, :, None] * np.einsum("a,gai->gi", q, w)[:, None]
            t = self.source.temporal_tests
            tests = t - np.outer(q, q @ t)
        return self.time_sums(w, tests)

    def systems(
        self,
        mode: str,
        alpha: float,
        powers: tuple[int, ...],
        betas: Array,
        masks: tuple[Array, ...],
        with_start: bool = False,
    ) -> list[Array]:
        """:meth:`system` for several row masks at once (``powers``: column kinds);
        ``with_start``: the target's whole noise, that of its initial-value samples included
        (:meth:`bulk_weights` leaves it out). A source that profiles ``u'(0)`` out of this
        order's system (``slope_direction``) has its temporal weights and tests projected off
        that direction, as :func:`weakpareto.method.exact_fit.exact_system` projects the rows."""
        terms = self._order_terms(mode, alpha, with_start)
        w, tests = terms.weights, terms.tests
        linear = [k for k, p in enumerate(powers) if p in self.linear_kinds]
        c = len(powers)
        adj = self.trial_adjoint_tests(
            [powers[k] for k in linear], np.asarray(betas, float)[linear]
        )
        idx = np.array(linear, dtype=int) + 1
        out = []
        for c_tt, c_tc, c_cc in self.blocks_per_mask(w, adj, masks, tests, terms):
            cov = np.zeros((c + 1, c + 1))
            cov[0, 0] = c_tt[0, 0]
            cov[0, idx] = cov[idx, 0] = c_tc[0]
            cov[np.ix_(idx, idx)] = c_cc
            out.append(cov)
        return out


#: Samples per axis above which :func:`realisation_spread` evaluates its sums on a strided
#: subgrid (a ratio of two Riemann sums of smooth integrands, so a grid of this size already
#: resolves it: 0.3 % at most against the full grid in the tests).
SPREAD_SAMPLES = 512
#: Leading and trailing time samples the strided sums keep one by one: the target weights of the
#: initial-value samples (``u'(0)`` of a super-unit target) are spikes no stride may skip.
SPREAD_EDGE = 8
#: Values of the largest intermediate of :func:`realisation_spread` (memory, not results).
SPREAD_BATCH = 1 << 22


def _strided(n: int, edge: int) -> tuple[IntArray, Array]:
    """Sample indices and the count of samples each one represents: every sample up to
    :data:`SPREAD_SAMPLES`, else ``edge`` samples at either end and a stride in between."""
    step = -(-n // SPREAD_SAMPLES)
    if step == 1 or n <= 2 * edge + step:
        return np.arange(n), np.ones(n)
    bulk = np.arange(edge, n - edge, step)
    counts = np.diff(np.append(bulk, n - edge)).astype(float)
    idx = np.concatenate([np.arange(edge), bulk, np.arange(n - edge, n)])
    return idx, np.concatenate([np.ones(edge), counts, np.ones(edge)])


def realisation_spread(cov: FeatureCovariance, weights: Array) -> float:
    """Relative standard deviation of the realised noise energy ``n^T n`` of one target.

    For Gaussian noise with row covariance ``S`` (``K x K``), ``E[n^T n] = tr S`` and
    ``Var[n^T n] = 2 tr(S^2)``; overlapping tests make ``S`` far from diagonal, so the spread
    ``sqrt(2 tr S^2) / tr S = sqrt(2 / K_eff)`` is large (~0.5 for the paper's test counts).
    ``weights`` are the target's temporal weights ``(K_t, nt)``. Beyond
    :data:`SPREAD_SAMPLES` samples an axis is summed on a strided subgrid, each kept sample
    weighted by the samples it stands for (:func:`_strided`); the ratio does not depend on
    the grid's resolution once the tests are resolved.
    """
    sp, s = cov.source.spatial_tests, cov.variance
    t_idx, t_count = _strided(s.shape[0], SPREAD_EDGE)
    x_idx, _ = _strided(s.shape[1], 0)  # periodic space: a uniform stride scales both sums alike
    if t_idx.size < s.shape[0]:
        weights = weights[:, t_idx] * np.sqrt(t_count)[None]
    if t_idx.size < s.shape[0] or x_idx.size < s.shape[1]:
        s, sp = s[np.ix_(t_idx, x_idx)], sp[:, x_idx]
    # S[(a,l),(b,m)] = sum_i W_ai W_bi z_ilm with z_i = psi diag(s_i) psi^T, never formed:
    # tr S = sum_i (sum_a W_ai^2) tr z_i and tr S^2 = sum_ii' (W^T W)_ii'^2 tr(z_i z_i')
    rows = max(1, SPREAD_BATCH // sp.size)  # (rows, K_x, nx) intermediates at a time
    z = np.concatenate(  # (nt, K_x, K_x), symmetric per i; each i is its own product
        [(sp[None] * s[i : i + rows, None, :]) @ sp.T for i in range(0, s.shape[0], rows)]
    )
    flat = z.reshape(z.shape[0], -1)
    gram = weights.T @ weights  # (nt, nt)
    trace = float(np.sum(weights * weights, axis=0) @ np.trace(z, axis1=1, axis2=2))
    square = float(np.sum(gram * gram * (flat @ flat.T)))
    return float(np.sqrt(2.0 * square) / trace) if trace > 0.0 else 0.0


def row_mask(rows: Array, shape: tuple[int, int]) -> Array:
    """``(K_t, K_x)`` indicator of flattened row indices (row ``k = a K_x + l``)."""
    m = np.zeros(shape[0] * shape[1])
    m[np.asarray(rows, dtype=int)] = 1.0
    return m.reshape(shape)


def bank_covariance(
    cov: FeatureCovariance,
    branches: tuple[tuple[str, Array, int], ...],
    beta_nodes: Array,
    linear_offsets: dict[int, int],
    n_vectors: int,
    mask: Array,
) -> Array:
    """Noise covariance ``(M, M)`` of the order-bank vectors (layout of
    :class:`weakpareto.library.gram.OrderBanks`): every target node of every branch
    ``(mode, nodes, offset)`` and the linear columns of each kind at ``linear_offsets[kind]``."""
    out = np.zeros((n_vectors, n_vectors))
    kinds = sorted(linear_offsets)
    adj = cov.adjoint_tests(np.repeat(kinds, beta_nodes.size), np.tile(beta_nodes, len(kinds)))
    weights = [cov.bulk_weights(nodes, mode) for mode, nodes, _ in branches]
    w_all = np.concatenate(weights, axis=0)
    t_idx = np.concatenate([off + np.arange(nodes.size) for _, nodes, off in branches])
    c_tt, c_tc, c_cc = cov.blocks(w_all, adj, mask)
    out[np.ix_(t_idx, t_idx)] = c_tt
    if kinds:
        c_idx = np.concatenate([linear_offsets[k] + np.arange(beta_nodes.size) for k in kinds])
        out[np.ix_(t_idx, c_idx)] = c_tc
        out[np.ix_(c_idx, t_idx)] = c_tc.T
        out[np.ix_(c_idx, c_idx)] = c_cc
    return out
