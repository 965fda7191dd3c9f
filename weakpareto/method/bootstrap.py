"""Block bootstrap of the weak equations: intervals for alpha, orders and coefficients (ours).

The weak rows are test-function products ``phi_{l_t}(t) psi_{l_x}(x)`` (2-D: ``... chi_{l_y}(y)``)
laid out row-major on the test grid ``(K_t, K_x[, K_y])``. Neighbouring test functions overlap,
so neighbouring rows share noise and are dependent; resampling single rows would treat them as
independent and give intervals that are too narrow. We therefore resample **tiles** of
neighbouring test indices with replacement (a block bootstrap on the test grid).

Tiles (:mod:`weakpareto.method.tiles`): blocks of neighbouring tests as long as the tests
overlap or the residual stays correlated; several experiments are tiled one by one and, from
three on, resampled as whole experiments too.

Per resample (:func:`bootstrap`) the support is held fixed and everything continuous is refit:
alpha (fractional branches), every non-identity order and every coefficient. The orders minimise
the all-row relative residual with the search's ridge (the objective of the method's polish,
:meth:`weakpareto.method.discovery.Discovery.polish`) by a bounded Nelder–Mead started at the
full-data optimum; the coefficients are then refit with the final refit's ridge. Evaluations use
a **local bank**: exact features at a fine grid of orders around the point estimate
(``node_step`` apart, ``half_width`` each side, clipped to the search range), blended by C1 cubic
(Catmull-Rom) weights, and per-tile Gram tables of the bank, so a resample's Gram is a weighted
sum of tile tables and one evaluation is O(c^2) lookups (:mod:`weakpareto.library.gram`).

Reselection (ensemble-SINDy style, cheap): on every resample the models of the Pareto front are
refit at their own (fixed) orders, the gain rule (:func:`weakpareto.method.selection.select_gain`)
picks a size among them, and — when it picks the selected model — one backward-elimination pass
at the resample's orders drops terms whose removal raises ``log10(E^2 + floor)`` by no more than
the margin. The inclusion frequency of a term is the fraction of resamples whose reselected
model contains it (same power/direction, order within ``match_tol``).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from weakpareto._typing import Array, IntArray
from weakpareto.library.gram import EPS_REL, FeatureSource
from weakpareto.method.exact_fit import profiled
from weakpareto.method.selection import select_gain
from weakpareto.method.tiles import axis_tests as axis_tests
from weakpareto.method.tiles import block_lengths as block_lengths
from weakpareto.method.tiles import grid_shape as grid_shape
from weakpareto.method.tiles import overlap_block_length as overlap_block_length
from weakpareto.method.tiles import resample_counts as resample_counts
from weakpareto.method.tiles import residual_block_length as residual_block_length
from weakpareto.method.tiles import tile_labels as tile_labels
from weakpareto.method.tiles import tile_layout
from weakpareto.numerics.nelder_mead import minimize_batched
from weakpareto.records import Mode

#: Default number of resamples and interval level.
N_BOOT = 200
LEVEL = 0.9


@dataclass(frozen=True)
class BootstrapSettings:
    """Constants of the block bootstrap (module docstring)."""

    n_boot: int = N_BOOT
    level: float = LEVEL
    seed: int = 0
    overlap: float = 0.1  # row-dependence threshold of the block length
    half_width: float = 0.3  # local order window each side of the point estimate
    node_step: float = 0.01  # spacing of the local bank's order nodes
    maxiter: int = 400  # Nelder–Mead iterations per resample
    xatol: float = 1e-4
    fatol: float = 1e-7
    match_tol: float = 0.1  # orders closer than this count as the same term (reselection)


@dataclass(frozen=True)
class Model:
    """A model on the feature source's own index: ``index`` is the power (2-D: direction)."""

    mode: Mode
    alpha: float
    index: tuple[int, ...]
    orders: tuple[float, ...]

    @property
    def size(self) -> int:
        return len(self.index)


@dataclass(frozen=True)
class Bounds:
    """Search bounds of the refit: the branch's alpha interval, the positive order interval."""

    alpha: tuple[float, float]
    order: tuple[float, float]


@dataclass(frozen=True)
class BootstrapResult:
    """Replicates of one bootstrap (dimensionless coefficients, as fitted)."""

    alpha: Array  # (B,)
    orders: Array  # (B, c)
    coef: Array  # (B, c)
    fit_error: Array  # (B,) relative residual on the resampled rows
    alpha_free: bool
    order_free: Array  # (c,) bool: identity terms are fixed
    at_bound: Array  # (B, 1 + c) bool: alpha / order on the refit window's edge
    inclusion: Array  # (c,) fraction of resamples whose reselected model keeps term j
    alternatives: tuple[tuple[int, float, float], ...]  # (index, order, frequency), not selected
    size_frequency: dict[int, float]  # reselected size -> fraction
    block_shape: tuple[int, ...]  # the first experiment's
    grid_shape: tuple[int, ...]  # the first experiment's
    n_tiles: int  # over all experiments
    seconds: float
    settings: BootstrapSettings = field(default_factory=BootstrapSettings)
    n_experiments: int = 1
    experiments_resampled: bool = False

    @property
    def n_boot(self) -> int:
        return int(self.alpha.shape[0])

    def interval(self, values: Array) -> tuple[float, float]:
        """Central percentile interval at ``settings.level`` of replicate values ``(B,)``."""
        return central_interval(values, self.settings.level)


def central_interval(values: Array, level: float) -> tuple[float, float]:
    """Central percentile interval ``[q_{(1-level)/2}, q_{(1+level)/2}]`` of finite values."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return float("nan"), float("nan")
    lo, hi = np.quantile(v, [0.5 * (1.0 - level), 0.5 * (1.0 + level)])
    return float(lo), float(hi)


# -- local bank -----------------------------------------------------------------------------------
def catmull_rom(value: float, start: float, step: float, n: int) -> tuple[list[int], list[float]]:
    """Indices and C1 cubic (Catmull-Rom) weights of ``value`` on ``start + step * arange(n)``
    (four nodes; indices clamped at the ends). Plain Python: it runs in the optimiser's loop."""
    if n == 1:
        return [0, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]
    s = min(max((value - start) / step, 0.0), n - 1.0)
    i = min(int(math.floor(s)), n - 2)
    t = s - i
    t2, t3 = t * t, t * t * t
    w = [
        0.5 * (-t3 + 2.0 * t2 - t),
        0.5 * (3.0 * t3 - 5.0 * t2 + 2.0),
        0.5 * (-3.0 * t3 + 4.0 * t2 + t),
        0.5 * (t3 - t2),
    ]
    idx = [min(max(k, 0), n - 1) for k in range(i - 1, i + 3)]
    return idx, w


def catmull_rom_batch(values: Array, start: float, step: float, n: int) -> tuple[IntArray, Array]:
    """:func:`catmull_rom` of many values at once: indices ``(M, 4)`` and weights ``(M, 4)``,
    equal to the scalar function's value by value."""
    v = np.asarray(values, dtype=float)
    if n == 1:
        return np.zeros((v.size, 4), dtype=np.int64), np.tile([1.0, 0.0, 0.0, 0.0], (v.size, 1))
    s = np.minimum(np.maximum((v - start) / step, 0.0), n - 1.0)
    i = np.minimum(np.floor(s).astype(np.int64), n - 2)
    t = s - i
    t2, t3 = t * t, t * t * t
    w = np.stack(
        [
            0.5 * (-t3 + 2.0 * t2 - t),
            0.5 * (3.0 * t3 - 5.0 * t2 + 2.0),
            0.5 * (-3.0 * t3 + 4.0 * t2 + t),
            0.5 * (t3 - t2),
        ],
        axis=1,
    )
    idx = np.clip(i[:, None] + np.arange(-1, 3), 0, n - 1)
    return idx, w


@dataclass(frozen=True)
class _Axis:
    """One slot of the local bank: a fixed vector (``n = 1``) or a uniform grid of orders."""

    offset: int
    start: float
    step: float
    n: int

    @property
    def lo(self) -> float:
        return self.start

    @property
    def hi(self) -> float:
        return self.start + self.step * (self.n - 1)

    def stencil(self, value: float) -> tuple[list[int], list[float]]:
        idx, w = catmull_rom(value, self.start, self.step, self.n)
        return [k + self.offset for k in idx], w

    def stencils(self, values: Array) -> tuple[IntArray, Array]:
        """:meth:`stencil` of many values: bank indices and weights ``(M, 4)``."""
        idx, w = catmull_rom_batch(values, self.start, self.step, self.n)
        return idx + self.offset, w


def _grid(centre: float, bounds: tuple[float, float], half: float, step: float) -> _Axis:
    """Uniform nodes spanning ``[centre - half, centre + half]`` clipped to ``bounds``, at most
    ``step`` apart (offset 0; the caller places it)."""
    a, b = max(bounds[0], centre - half), min(bounds[1], centre + half)
    if not b > a:
        return _Axis(0, centre, 1.0, 1)
    n = max(2, int(np.ceil((b - a) / step - 1e-9)) + 1)
    return _Axis(0, a, (b - a) / (n - 1), n)


class LocalBank:
    """Exact features of the selected model on fine order grids around its point estimate, plus
    the fixed features of the alternative models, with per-tile Gram tables."""

    def __init__(
        self,
        source: FeatureSource,
        model: Model,
        bounds: Bounds,
        alternatives: Sequence[Model],
        labels: NDArray[np.intp],
        settings: BootstrapSettings,
        edge_twin: bool = False,
    ) -> None:
        vectors: list[Array] = []
        pos = 0
        # the selected model's rows as its point estimate scored them: nuisance directions at
        # its order profiled out of every node (the super-unit u'(0); the order grid is narrow)
        own, own_profiled = self._profiler(source, model.mode, model.alpha)
        self.alpha_free = model.mode != "int" and bounds.alpha[1] > bounds.alpha[0]
        if self.alpha_free:
            ax = _grid(model.alpha, bounds.alpha, settings.half_width, settings.node_step)
            alphas = np.asarray(ax.start + ax.step * np.arange(ax.n), dtype=float)
            vectors.append(own(np.asarray(source.targets(alphas, model.mode))))
            self.target = dataclasses.replace(ax, offset=pos)
            pos += ax.n
        else:
            vectors.append(own(np.asarray(source.targets(np.array([model.alpha]), model.mode))))
            self.target = _Axis(pos, model.alpha, 1.0, 1)
            pos += 1
        self.columns: list[_Axis] = []
        free = []
        for p, b in zip(model.index, model.orders):
            is_free = b != 0.0
            free.append(is_free)
            ax = (
                _grid(b, bounds.order, settings.half_width, settings.node_step)
                if is_free
                else _Axis(0, 0.0, 1.0, 1)
            )
            orders = np.asarray(ax.start + ax.step * np.arange(ax.n), dtype=float)
            vectors.append(own(np.asarray(source.columns(p, orders))))
            self.columns.append(dataclasses.replace(ax, offset=pos))
            pos += ax.n
        self.order_free = np.array(free, dtype=bool)
        # the integer twin's target (order 1), for resamples whose alpha ends on the branch
        # edge next to 1 (:func:`bootstrap`, ``edge_twin``)
        self.twin_slot: int | None = None
        # (not with profiled rows: the columns above are then not the twin's)
        if edge_twin and self.alpha_free and not own_profiled:
            vectors.append(np.asarray(source.targets(np.array([1.0]), "int")))
            self.twin_slot = pos
            pos += 1
        # alternatives: fixed target and columns at their own orders
        self.alt_slots: list[list[int]] = []
        for m in alternatives:
            alt, _ = self._profiler(source, m.mode, m.alpha)
            slots = [pos]
            vectors.append(alt(np.asarray(source.targets(np.array([m.alpha]), m.mode))))
            pos += 1
            for p, b in zip(m.index, m.orders):
                vectors.append(alt(np.asarray(source.columns(p, np.array([b])))))
                slots.append(pos)
                pos += 1
            self.alt_slots.append(slots)
        v = np.concatenate(vectors, axis=0)
        v = np.where(np.isfinite(v), v, 0.0)
        n_tiles = int(labels.max()) + 1
        self.tile_grams = np.empty((n_tiles, v.shape[0], v.shape[0]))
        for k in range(n_tiles):
            vk = v[:, labels == k]
            self.tile_grams[k] = vk @ vk.T

    @staticmethod
    def _profiler(
        source: FeatureSource, mode: Mode, alpha: float
    ) -> tuple[Callable[[Array], Array], bool]:
        """Rows ``(G, K) -> (G, K)`` profiled at one model's order
        (:func:`weakpareto.method.exact_fit.profiled`), and whether that changes them."""
        probe = np.zeros((1, int(source.n_rows)))
        if profiled(source, mode, alpha, probe) is probe:
            return (lambda v: v), False
        return (lambda v: profiled(source, mode, alpha, v)), True

    def gram(self, counts: Array) -> Array:
        """Gram table of the bank on the resampled rows (tile multiplicities ``counts``)."""
        return np.tensordot(counts, self.tile_grams, axes=1)

    # -- evaluation ---------------------------------------------------------------------------
    def unpack(self, v: Array, model: Model) -> tuple[float, Array]:
        alpha = float(v[0]) if self.alpha_free else model.alpha
        orders = np.array(model.orders, dtype=float)
        orders[self.order_free] = v[1:] if self.alpha_free else v
        return alpha, orders

    def lower_upper(self) -> tuple[Array, Array]:
        lo = [self.target.lo] if self.alpha_free else []
        hi = [self.target.hi] if self.alpha_free else []
        for ax, f in zip(self.columns, self.order_free):
            if f:
                lo.append(ax.lo)
                hi.append(ax.hi)
        return np.array(lo), np.array(hi)

    def system_gram(
        self, g: Array, alpha: float, orders: Array, integer_twin: bool = False
    ) -> Array:
        """``[y, x_1..x_c]`` Gram ``(c+1, c+1)`` at the given orders from a bank Gram ``g``;
        ``integer_twin``: ``y`` the order-1 target of the integer branch."""
        blend = np.zeros((g.shape[0], len(self.columns) + 1))
        if integer_twin:
            assert self.twin_slot is not None
            slots = [([self.twin_slot], [1.0])]
        else:
            slots = [self.target.stencil(alpha)]
        slots += [ax.stencil(float(b)) for ax, b in zip(self.columns, orders)]
        for i, (idx, w) in enumerate(slots):
            for k, wk in zip(idx, w):
                blend[k, i] += wk
        return blend.T @ (g @ blend)

    def system_grams(self, grams: Array, problems: IntArray, alphas: Array, orders: Array) -> Array:
        """:meth:`system_gram` of many points at once: ``grams (P, n, n)`` the bank Grams of the
        problems, ``problems (M,)`` each point's, ``alphas (M,)``, ``orders (M, c)`` ->
        ``(M, c + 1, c + 1)``."""
        parts = [self.target.stencils(alphas)]
        parts += [ax.stencils(orders[:, j]) for j, ax in enumerate(self.columns)]
        idx = np.stack([p[0] for p in parts], axis=1)  # (M, c + 1, 4)
        w = np.stack([p[1] for p in parts], axis=1)
        m = np.asarray(problems, dtype=np.intp)[:, None, None, None, None]
        sub = grams[m, idx[:, :, :, None, None], idx[:, None, None, :, :]]  # (M, c+1, 4, c+1, 4)
        return np.einsum("mpk,mpkql,mql->mpq", w, sub, w)


def _relative_batch(gram: Array, ridge: float) -> Array:
    """:func:`_relative`'s relative residual for a stack of ``[y, X]`` Grams ``(M, c+1, c+1)``."""
    yy = gram[:, 0, 0]
    xy = gram[:, 1:, 0]
    xx = gram[:, 1:, 1:]
    scale = np.sqrt(np.maximum(np.diagonal(xx, axis1=1, axis2=2), 0.0))
    scale = np.where(scale > 0.0, scale, 1.0)
    a = xx / (scale[:, :, None] * scale[:, None, :])
    rhs = (xy / scale)[:, :, None]
    if ridge > 0.0:
        coef = np.linalg.solve(a + ridge * np.eye(a.shape[1]), rhs)[:, :, 0] / scale
    else:
        coef = (np.linalg.pinv(a) @ rhs)[:, :, 0] / scale
    fit = np.einsum("mi,mi->m", coef, xy)
    quad = np.einsum("mi,mij,mj->m", coef, xx, coef)
    rss = np.maximum(yy - 2.0 * fit + quad, 0.0)
    return np.sqrt(rss) / (np.sqrt(np.maximum(yy, 0.0)) + EPS_REL)


def _relative(gram: Array, ridge: float) -> tuple[Array, float]:
    """Coefficients (column-normalised ridge, as :func:`weakpareto.library.gram.ridge_from_gram`)
    and relative residual ``||y - X xi|| / (||y|| + eps)`` from a ``[y, X]`` Gram."""
    yy = float(gram[0, 0])
    xy = gram[1:, 0]
    xx = gram[1:, 1:]
    scale = np.sqrt(np.maximum(np.diagonal(xx), 0.0))
    scale = np.where(scale > 0.0, scale, 1.0)
    a = xx / np.outer(scale, scale)
    if ridge > 0.0:
        coef = np.linalg.solve(a + ridge * np.eye(a.shape[0]), xy / scale) / scale
    else:
        coef = (np.linalg.pinv(a) @ (xy / scale)) / scale
    rss = max(yy - 2.0 * float(coef @ xy) + float(coef @ xx @ coef), 0.0)
    return coef, float(np.sqrt(rss) / (np.sqrt(max(yy, 0.0)) + EPS_REL))


def _drop(gram: Array, j: int) -> Array:
    keep = np.delete(np.arange(gram.shape[0]), j + 1)
    return gram[np.ix_(keep, keep)]


def _score(e: float, floor: float) -> float:
    return float(np.log10(e * e + floor))


# -- driver ---------------------------------------------------------------------------------------
def bootstrap(
    source: FeatureSource,
    model: Model,
    bounds: Bounds,
    settings: BootstrapSettings,
    *,
    ridge: float,
    refit_ridge: float,
    margin: float,
    gain_floor: float,
    alternatives: Sequence[Model] = (),
    resid: Array | None = None,
    edge_twin: bool = False,
) -> BootstrapResult:
    """Block bootstrap of the selected ``model`` on ``source`` (module docstring).

    ``ridge`` is the order objective's (the search's, as in the polish), ``refit_ridge`` the
    final coefficients'; ``margin``/``gain_floor`` those of the gain rule (reselection and the
    elimination pass). ``alternatives`` are the front models (fixed orders) for reselection; the
    selected model should be among them (matched by size and terms). ``resid`` is the point
    estimate's weak residual ``(n_rows,)`` for the residual correlation length (None: test
    overlap only). ``edge_twin``: a fractional model whose branch borders the admitted integer
    branch; a resample whose alpha ends on that edge is compared with its integer twin (order 1,
    the same terms at the resample's orders), which it becomes unless the fractional order
    lowers ``log10`` of the residual by more than ``margin`` — the refinement's rule, so the
    interval of alpha can reach 1.
    """
    t0 = time.perf_counter()
    if not 0.0 < settings.level < 1.0:
        raise ValueError(f"level={settings.level} must be in (0, 1)")
    if settings.n_boot < 1:
        raise ValueError(f"n_boot={settings.n_boot} must be >= 1")
    if alternatives and _matching(model, alternatives, settings.match_tol) is None:
        # the selected model stands in for the front model of its size
        alternatives = [m for m in alternatives if m.size != model.size] + [model]
    layout = tile_layout(source, resid, settings.overlap)
    bank = LocalBank(source, model, bounds, alternatives, layout.labels, settings, edge_twin)
    # the branch edge next to 1 (sub: the upper bound, sup: the lower)
    edge_next_to_one = bounds.alpha[1] if model.mode == "sub" else bounds.alpha[0]
    lo, hi = bank.lower_upper()
    c = model.size

    def fit_orders(grams: Array, starts: Array) -> Array:
        """Orders minimising the relative residual of every bank Gram ``grams (P, n, n)`` from
        ``starts (P, d)``: one Nelder–Mead per Gram, all in lock-step (the same trajectories as
        one at a time; :mod:`weakpareto.numerics.nelder_mead`)."""
        if starts.shape[1] == 0:
            return starts

        def objective(v: Array, problems: IntArray) -> Array:
            v = np.clip(v, lo, hi)
            alphas = v[:, 0] if bank.alpha_free else np.full(v.shape[0], model.alpha)
            orders = np.tile(np.array(model.orders, dtype=float), (v.shape[0], 1))
            orders[:, bank.order_free] = v[:, 1:] if bank.alpha_free else v
            return _relative_batch(bank.system_grams(grams, problems, alphas, orders), ridge)

        res = minimize_batched(
            objective,
            starts,
            lo,
            hi,
            maxiter=settings.maxiter,
            xatol=settings.xatol,
            fatol=settings.fatol,
        )
        return np.clip(res.x, lo, hi)

    v_hat = np.clip(
        np.array(
            ([model.alpha] if bank.alpha_free else [])
            + [b for b, f in zip(model.orders, bank.order_free) if f]
        ),
        lo,
        hi,
    )
    g_full = bank.tile_grams.sum(axis=0)
    v_full = fit_orders(g_full[None], v_hat[None])[0]

    sel_alt = _matching(model, alternatives, settings.match_tol)
    counts = layout.resample(settings.n_boot, settings.seed)
    nb = settings.n_boot
    alpha_out = np.full(nb, model.alpha)
    orders_out = np.tile(np.array(model.orders, dtype=float), (nb, 1))
    coef_out = np.full((nb, c), np.nan)
    fit_out = np.full(nb, np.nan)
    at_bound = np.zeros((nb, 1 + c), dtype=bool)
    kept = np.zeros((nb, c), dtype=bool)
    alt_terms: dict[tuple[int, float], int] = {}
    size_count: dict[int, int] = {}
    span = np.maximum(hi - lo, 1e-12)
    grams = np.tensordot(counts, bank.tile_grams, axes=1)  # (B, n, n)
    v_all = fit_orders(grams, np.tile(v_full, (nb, 1)))
    for b in range(nb):
        g = grams[b]
        v = v_all[b]
        a, orders = bank.unpack(v, model)
        gram = bank.system_gram(g, a, orders)
        coef, err = _relative(gram, refit_ridge)
        crossed = False
        if bank.twin_slot is not None and abs(a - edge_next_to_one) <= 1e-6 * span[0]:
            twin = bank.system_gram(g, a, orders, integer_twin=True)
            coef_i, err_i = _relative(twin, refit_ridge)
            crossed = math.log10(err_i + EPS_REL) - math.log10(err + EPS_REL) <= margin
            if crossed:
                a, gram, coef, err = 1.0, twin, coef_i, err_i
        alpha_out[b], orders_out[b], coef_out[b], fit_out[b] = a, orders, coef, err
        edge = (np.abs(v - lo) <= 1e-6 * span) | (np.abs(hi - v) <= 1e-6 * span)
        if crossed:  # alpha is 1, not truncated at the branch edge
            edge[0] = False
        flags = np.zeros(1 + c, dtype=bool)
        if bank.alpha_free:
            flags[0] = edge[0]
            flags[1:][bank.order_free] = edge[1:]
        else:
            flags[1:][bank.order_free] = edge
        at_bound[b] = flags
        # reselection among the front's models at their own orders
        pick = sel_alt
        if alternatives:
            errs = []
            for slots in bank.alt_slots:
                sub = g[np.ix_(slots, slots)]
                errs.append(_relative(sub, refit_ridge)[1])
            sizes = np.array([m.size for m in alternatives])
            order = np.argsort(sizes, kind="stable")
            e2 = np.array(errs)[order] ** 2
            k = select_gain(sizes[order], e2, margin, gain_floor)
            pick = int(order[k])
        if pick == sel_alt:
            base = _score(err, gain_floor)
            for j in range(c):
                if c == 1:
                    kept[b, j] = True
                    continue
                e_j = _relative(_drop(gram, j), refit_ridge)[1]
                kept[b, j] = _score(e_j, gain_floor) - base > margin
            size_count[int(kept[b].sum())] = size_count.get(int(kept[b].sum()), 0) + 1
        else:
            assert pick is not None
            m = alternatives[pick]
            size_count[m.size] = size_count.get(m.size, 0) + 1
            for j in range(c):
                kept[b, j] = _contains(m, model.index[j], model.orders[j], settings.match_tol)
            for p, o in zip(m.index, m.orders):
                if not _contains(model, p, o, settings.match_tol):
                    key = (int(p), float(o))
                    alt_terms[key] = alt_terms.get(key, 0) + 1
    alts = tuple(
        sorted(
            ((p, o, n / nb) for (p, o), n in alt_terms.items()),
            key=lambda t: -t[2],
        )
    )
    return BootstrapResult(
        alpha=alpha_out,
        orders=orders_out,
        coef=coef_out,
        fit_error=fit_out,
        alpha_free=bank.alpha_free,
        order_free=bank.order_free,
        at_bound=at_bound,
        inclusion=kept.mean(axis=0),
        alternatives=alts,
        size_frequency={s: n / nb for s, n in sorted(size_count.items())},
        block_shape=layout.blocks[0],
        grid_shape=layout.shapes[0],
        n_tiles=layout.n_tiles,
        seconds=time.perf_counter() - t0,
        settings=settings,
        n_experiments=len(layout.tiles),
        experiments_resampled=layout.experiments_resampled,
    )


def _contains(m: Model, index: int, order: float, tol: float) -> bool:
    for p, o in zip(m.index, m.orders):
        if int(p) != int(index):
            continue
        if (o == 0.0) != (order == 0.0):
            continue
        if abs(o - order) <= tol:
            return True
    return False


def _matching(model: Model, alternatives: Sequence[Model], tol: float) -> int | None:
    """Index of the alternative that is the selected model (same size and terms), if any."""
    for i, m in enumerate(alternatives):
        if m.size == model.size and all(
            _contains(m, p, o, tol) for p, o in zip(model.index, model.orders)
        ):
            return i
    return None
