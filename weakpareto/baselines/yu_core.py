"""The Yu et al. fractional-discovery pipeline (paper App. app:yu, tab:yu;
docs/method/baselines.md#yu-et-al-adaptation), shared by its two field reconstructions
(:mod:`weakpareto.baselines.yu_spline`, the optimiser-only variant, and
:mod:`weakpareto.baselines.yu_neural`, the full neural variant).

Written from the published description of the method (paper App. app:yu); Yu et al.'s code carries
no licence and is not used. Given a smooth reconstruction of the noisy field (anything that
evaluates ``d^{i+j} u / dt^i dx^j`` on a tensor grid, :class:`FieldModel`):

1. **Evaluation points:** ``t in [3, 14)`` and ``x in [4, 26)``, step 0.1 (110 x 220 points
   for FADE), away from the lower terminals of the one-sided operators.
2. **Fractional derivatives by Gauss–Jacobi quadrature** (:func:`gauss_jacobi_caputo`): the
   Caputo derivative of order ``q`` with lower terminal 0, ``m = ceil(q)``,

       D^q f(z) = 1/Gamma(m-q) int_0^z (z-s)^(m-q-1) f^(m)(s) ds
                = (z/2)^(m-q)/Gamma(m-q) sum_k w_k f^(m)(z - (z/2)(s_k + 1)),

   with the 5-node Gauss–Jacobi rule of weight ``(1-s)^0 (1+s)^(m-q-1)`` on ``[-1, 1]``. Time:
   ``0 < alpha < 1`` on ``u_t``; space: ``1 < beta < 2`` on ``u_xx``.
3. **Library** (12 columns, fixed order, :data:`LIBRARY`): 1, u, u_x, D_x^beta u, u_xxx, u^2,
   u u_x, u u_xx, u u_xxx, u^2 u_x, u^2 u_xx, u^2 u_xxx; target ``D_t^alpha u``.
4. **Sparse fit** (:func:`tolerance_search`): STRidge (ridge 2.0 on un-normalised columns, up to
   10 thresholding rounds, final unregularised least squares on the support) inside a 25-step
   tolerance search starting at 0.1, scored on a frozen validation split
   (``default_rng(seed + 4242)``, 20 %) by ``||val residual||_2 + 1e-3 min(cond(X_train), 1e12)
   nnz``; coefficients and the penalty come from the training rows only.
5. **Orders:** differential evolution over ``(alpha, beta) in [0.60, 0.999] x [1.01, 1.999]``
   on precomputed order banks (61 x 81 nodes, linear interpolation), scipy's polish on; then a
   bounded Powell polish at exact orders (quadrature recomputed at the trial orders) and an exact
   refit. Active terms: ``|xi| > 1e-10``; the reported model keeps the terms with
   ``|xi| > max(1e-10, 1e-4 max|xi|)`` (the comparison's scoring convention).

The constant column ``1`` has no ``u^p X_beta u`` form; it is reported as the term
``Term(power=-1, order=0)`` (``u^-1 u``), which matches no truth term, so a model that keeps it
has the wrong support. The other columns map to ``(p, beta)``: ``u^p u`` is ``(p, 0)``,
``u^p u_x`` ``(p, 1)``, ``u^p u_xx`` ``(p, 2)``, ``u^p u_xxx`` ``(p, 3)``, ``D_x^beta u`` ``(0,
beta)``. The one-sided (left, finite-terminal) derivative is recorded as operator ``gl_left``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray
from scipy.special import gamma, roots_jacobi

from weakpareto._typing import Array
from weakpareto.records import DiscoveryResult, Equation, FrontPoint, Mode, Term

FIT_EPS = 1e-12  # E_fit denominator guard (docs/method/search.md#final-exact-refit)
#: (power, order) of the 12 library columns; ``None`` order is the searched D_x^beta u column and
#: power -1 the constant column 1.
LIBRARY: tuple[tuple[int, float | None], ...] = (
    (-1, 0.0),  # 1
    (0, 0.0),  # u
    (0, 1.0),  # u_x
    (0, None),  # D_x^beta u
    (0, 3.0),  # u_xxx
    (1, 0.0),  # u^2
    (1, 1.0),  # u u_x
    (1, 2.0),  # u u_xx
    (1, 3.0),  # u u_xxx
    (2, 1.0),  # u^2 u_x
    (2, 2.0),  # u^2 u_xx
    (2, 3.0),  # u^2 u_xxx
)
LIBRARY_NAMES = (
    "1",
    "u",
    "u_x",
    "D_x^beta u",
    "u_xxx",
    "u^2",
    "u u_x",
    "u u_xx",
    "u u_xxx",
    "u^2 u_x",
    "u^2 u_xx",
    "u^2 u_xxx",
)
BETA_COLUMN = 3


@dataclass(frozen=True)
class YuSettings:
    """Constants of the Yu et al. adaptation (defaults are the paper's;
    docs/method/baselines.md#yu-et-al-adaptation)."""

    alpha_bounds: tuple[float, float] = (0.60, 0.999)
    beta_bounds: tuple[float, float] = (1.01, 1.999)
    n_alpha_bank: int = 61
    n_beta_bank: int = 81
    quad_nodes: int = 5
    t_eval: tuple[float, float, float] = (3.0, 14.0, 0.1)  # [lo, hi) step
    x_eval: tuple[float, float, float] = (4.0, 26.0, 0.1)
    val_fraction: float = 0.2
    split_offset: int = 4242  # frozen split: default_rng(seed + 4242)
    stridge_ridge: float = 2.0
    stridge_iterations: int = 10
    tol_iterations: int = 25
    tol_start: float = 0.1
    l0_factor: float = 1e-3
    cond_cap: float = 1e12
    de_maxiter: int = 15
    de_popsize: int = 15
    de_tol: float = 1e-4
    de_polish: bool = True
    powell: bool = True
    powell_maxiter: int = 50
    powell_xtol: float = 1e-5
    powell_ftol: float = 1e-6
    active_tol: float = 1e-10
    report_rel_tol: float = 1e-4


class FieldModel(Protocol):
    """A smooth reconstruction of the field: derivatives on tensor grids."""

    def grid(self, t: Array, x: Array, dt: int = 0, dx: int = 0) -> Array:
        """``d^{dt+dx} u / dt^dt dx^dx`` at every ``(t_i, x_j)``: shape ``(t.size, x.size)``."""
        ...


def check_domain(t: Array, x: Array, settings: YuSettings) -> None:
    """The evaluation points must lie inside the data's grid (no extrapolation) and away from
    the lower terminal 0 of the one-sided operators (``ValueError`` naming the setting)."""
    for name, axis, spec in (("t_eval", t, settings.t_eval), ("x_eval", x, settings.x_eval)):
        pts = eval_axis(spec)
        lo, hi = float(np.min(axis)), float(np.max(axis))
        if pts.size == 0 or pts[0] <= max(lo, 0.0) or pts[-1] > hi:
            raise ValueError(
                f"method.{name}={list(spec)} gives evaluation points outside the data's "
                f"({max(lo, 0.0):g}, {hi:g}]; the Yu et al. adaptation is set up for FADE's grid, "
                "e.g. method.t_eval=[3.0,14.0,0.1] method.x_eval=[4.0,26.0,0.1]"
            )


def eval_axis(spec: tuple[float, float, float]) -> Array:
    """``lo, lo + step, ...`` below ``hi`` (``np.arange`` without its rounding drift)."""
    lo, hi, step = spec
    n = int(math.ceil((hi - lo) / step - 1e-9))
    return np.asarray(lo + step * np.arange(n), dtype=float)


# -----------------------------------------------------------------------------------------
# Gauss–Jacobi fractional derivatives
# -----------------------------------------------------------------------------------------


def jacobi_rule(order: float, n: int) -> tuple[Array, Array, int]:
    """Nodes, weights (weight ``(1+s)^(m-q-1)`` on [-1, 1]) and ``m = ceil(q)`` for order ``q``."""
    m = int(math.ceil(order - 1e-12))
    s, w = roots_jacobi(n, 0.0, m - order - 1.0)
    return np.asarray(s, dtype=float), np.asarray(w, dtype=float), m


def quadrature_points(z: Array, order: float, n: int) -> tuple[Array, Array, Array, int]:
    """Points ``z - (z/2)(s_k + 1)`` ``(z.size, n)``, weights, prefactor per ``z``, and ``m``."""
    s, w, m = jacobi_rule(order, n)
    z = np.asarray(z, dtype=float)
    pts = z[:, None] - 0.5 * z[:, None] * (s[None, :] + 1.0)
    pref = (0.5 * z) ** (m - order) / gamma(m - order)
    return pts, w, pref, m


def gauss_jacobi_caputo(
    deriv: Callable[[Array], Array], z: Array, order: float, n: int = 5
) -> Array:
    """Caputo derivative (lower terminal 0) of order ``q`` at ``z > 0`` by Gauss–Jacobi quadrature.

    ``deriv(points)`` returns the integer derivative ``f^(m)``, ``m = ceil(q)``, at an array of
    points (any shape); integer orders return ``f^(m)(z)`` itself.
    """
    z = np.asarray(z, dtype=float)
    if abs(order - round(order)) < 1e-12:
        return np.asarray(deriv(z), dtype=float)
    pts, w, pref, _ = quadrature_points(z, order, n)
    return pref * (np.asarray(deriv(pts), dtype=float) @ w)


def caputo_time(model: FieldModel, t: Array, x: Array, alpha: float, n: int = 5) -> Array:
    """``D_t^alpha u`` on the ``(t, x)`` grid (``0 < alpha <= 1``; 1 is ``u_t``)."""
    if abs(alpha - 1.0) < 1e-12:
        return model.grid(t, x, 1, 0)
    pts, w, pref, m = quadrature_points(t, alpha, n)
    vals = _on_points(model, pts.ravel(), x, axis=0, dt=m, dx=0)
    vals = vals.reshape(t.size, n, x.size)
    return pref[:, None] * np.einsum("k,ikj->ij", w, vals)


def caputo_space(model: FieldModel, t: Array, x: Array, beta: float, n: int = 5) -> Array:
    """``D_x^beta u`` (left, terminal 0) on the ``(t, x)`` grid (``1 < beta <= 2``)."""
    if abs(beta - round(beta)) < 1e-12:
        return model.grid(t, x, 0, int(round(beta)))
    pts, w, pref, m = quadrature_points(x, beta, n)
    vals = _on_points(model, t, pts.ravel(), axis=1, dt=0, dx=m)
    vals = vals.reshape(t.size, x.size, n)
    return pref[None, :] * (vals @ w)


def _on_points(model: FieldModel, t: Array, x: Array, axis: int, dt: int, dx: int) -> Array:
    """``model.grid`` on possibly unsorted, repeated points along ``axis`` (sorted internally)."""
    pts = t if axis == 0 else x
    uniq, inverse = np.unique(pts, return_inverse=True)
    if axis == 0:
        return model.grid(uniq, x, dt, dx)[inverse.ravel(), :]
    return model.grid(t, uniq, dt, dx)[:, inverse.ravel()]


# -----------------------------------------------------------------------------------------
# STRidge with tolerance search (on the R factor of the training design)
# -----------------------------------------------------------------------------------------


def _ridge(r: Array, qy: Array, active: NDArray[np.bool_], lam: float) -> Array:
    ra = r[:, active]
    k = ra.shape[1]
    out = np.zeros(r.shape[1])
    out[active] = np.linalg.solve(ra.T @ ra + lam * np.eye(k), ra.T @ qy)
    return out


def _lstsq(r: Array, qy: Array, active: NDArray[np.bool_]) -> Array:
    out = np.zeros(r.shape[1])
    out[active] = np.linalg.lstsq(r[:, active], qy, rcond=None)[0]
    return out


def stridge(r: Array, qy: Array, lam: float, tol: float, iterations: int) -> Array:
    """Sequential threshold ridge regression on the least-squares system ``R xi ~ Q^T y``.

    ``R``, ``Q^T y`` come from a thin QR of the (un-normalised) training design ``X = Q R``, so
    ridge and least-squares fits equal those on ``X`` itself. Up to ``iterations`` rounds: drop
    ``|xi| < tol``, ridge-refit the rest (``lam``), stop when nothing is dropped; then an
    unregularised least-squares fit on the support.
    """
    m = r.shape[1]
    active = np.ones(m, dtype=bool)
    xi = _ridge(r, qy, active, lam)
    for _ in range(iterations):
        new = active & (np.abs(xi) >= tol)
        if np.array_equal(new, active):
            break
        active = new
        if not active.any():
            return np.zeros(m)
        xi = _ridge(r, qy, active, lam)
    return _lstsq(r, qy, active) if active.any() else np.zeros(m)


@dataclass(frozen=True)
class SparseFit:
    """The best model of a tolerance search and its score."""

    coef: Array
    objective: float
    tol: float


def tolerance_search(
    x_train: Array, y_train: Array, x_val: Array, y_val: Array, settings: YuSettings
) -> SparseFit:
    """STRidge over an adaptive tolerance sequence, scored on the validation rows.

    Starts from the full least-squares fit (tolerance 0) and tolerance ``d = tol_start``; a
    tolerance that does not worsen the score is kept and the next is ``tol + d``; otherwise the
    step is shrunk, ``tol <- max(0, tol - 2d) + d'`` with ``d' = 2d / (iterations - i)``. Score:
    ``||y_val - X_val xi||_2 + l0 nnz(xi)``, ``l0 = l0_factor min(cond(X_train), cond_cap)``.
    """
    q, r = np.linalg.qr(x_train)
    qy = q.T @ y_train
    sv = np.linalg.svd(r, compute_uv=False)
    cond = float(sv[0] / sv[-1]) if sv[-1] > 0 else math.inf
    l0 = settings.l0_factor * min(cond, settings.cond_cap)

    def score(xi: Array) -> float:
        return float(np.linalg.norm(y_val - x_val @ xi) + l0 * np.count_nonzero(xi))

    full = np.ones(r.shape[1], dtype=bool)
    best = _lstsq(r, qy, full)
    best_err, best_tol = score(best), 0.0
    d = settings.tol_start
    tol = d
    n_it = settings.tol_iterations
    for i in range(n_it):
        xi = stridge(r, qy, settings.stridge_ridge, tol, settings.stridge_iterations)
        err = score(xi)
        if err <= best_err:
            best, best_err, best_tol = xi, err, tol
            tol += d
        else:
            tol = max(0.0, tol - 2.0 * d)
            d = 2.0 * d / (n_it - i)
            tol += d
    return SparseFit(best, best_err, best_tol)


# -----------------------------------------------------------------------------------------
# Features on the evaluation points
# -----------------------------------------------------------------------------------------


@dataclass
class Features:
    """Fixed columns, order banks and the frozen split on the evaluation points."""

    model: FieldModel
    t: Array
    x: Array
    fixed: Array  # (N, 12) library with the D^beta column zero
    alpha_nodes: Array
    beta_nodes: Array
    alpha_bank: Array  # (n_alpha, N)
    beta_bank: Array  # (n_beta, N)
    train: Array
    val: Array
    settings: YuSettings

    def exact(self, alpha: float, beta: float) -> tuple[Array, Array]:
        n = self.settings.quad_nodes
        y = caputo_time(self.model, self.t, self.x, alpha, n).ravel()
        col = caputo_space(self.model, self.t, self.x, beta, n).ravel()
        return y, col

    def banked(self, alpha: float, beta: float) -> tuple[Array, Array]:
        return _interp(self.alpha_nodes, self.alpha_bank, alpha), _interp(
            self.beta_nodes, self.beta_bank, beta
        )

    def design(self, col: Array) -> Array:
        x = self.fixed.copy()
        x[:, BETA_COLUMN] = col
        return x

    def fit(self, y: Array, col: Array) -> SparseFit:
        x = self.design(col)
        tr, va = self.train, self.val
        return tolerance_search(x[tr], y[tr], x[va], y[va], self.settings)


def _interp(nodes: Array, bank: Array, v: float) -> Array:
    i = int(np.clip(np.searchsorted(nodes, v) - 1, 0, nodes.size - 2))
    w = float(np.clip((v - nodes[i]) / (nodes[i + 1] - nodes[i]), 0.0, 1.0))
    return (1.0 - w) * bank[i] + w * bank[i + 1]


def frozen_split(n: int, seed: int, settings: YuSettings) -> tuple[Array, Array]:
    """Training and validation indices of the evaluation points (``default_rng(seed + 4242)``)."""
    perm = np.random.default_rng(int(seed) + settings.split_offset).permutation(n)
    n_val = int(round(settings.val_fraction * n))
    return np.sort(perm[n_val:]), np.sort(perm[:n_val])


def build_features(model: FieldModel, seed: int, settings: YuSettings) -> Features:
    """Library columns, order banks and split of a field model on the evaluation points."""
    t, x = eval_axis(settings.t_eval), eval_axis(settings.x_eval)
    u = model.grid(t, x, 0, 0).ravel()
    ux = model.grid(t, x, 0, 1).ravel()
    uxx = model.grid(t, x, 0, 2).ravel()
    uxxx = model.grid(t, x, 0, 3).ravel()
    one = np.ones_like(u)
    zero = np.zeros_like(u)
    fixed = np.stack(
        [one, u, ux, zero, uxxx, u * u, u * ux, u * uxx, u * uxxx, u * u * ux, u * u * uxx]
        + [u * u * uxxx],
        axis=1,
    )
    n = settings.quad_nodes
    a_nodes = np.linspace(*settings.alpha_bounds, settings.n_alpha_bank)
    b_nodes = np.linspace(*settings.beta_bounds, settings.n_beta_bank)
    a_bank = np.stack([caputo_time(model, t, x, float(a), n).ravel() for a in a_nodes])
    b_bank = np.stack([caputo_space(model, t, x, float(b), n).ravel() for b in b_nodes])
    train, val = frozen_split(u.size, seed, settings)
    return Features(model, t, x, fixed, a_nodes, b_nodes, a_bank, b_bank, train, val, settings)


# -----------------------------------------------------------------------------------------
# The order search and the result
# -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class YuFit:
    """The selected model of the Yu pipeline."""

    alpha: float
    beta: float
    coef: Array  # (12,) all library coefficients, zero off the support
    objective: float
    fit_error: float
    de_x: tuple[float, float]
    de_fun: float
    timings: dict[str, float] = field(default_factory=dict)

    def equation(self, settings: YuSettings) -> Equation:
        return library_equation(self.alpha, self.beta, self.coef, settings)


def library_equation(alpha: float, beta: float, coef: Array, settings: YuSettings) -> Equation:
    """The reported model: terms with ``|xi| > max(active_tol, report_rel_tol max|xi|)``."""
    mags = np.abs(coef)
    cut = max(settings.active_tol, settings.report_rel_tol * float(mags.max(initial=0.0)))
    terms = []
    for (p, order), c in zip(LIBRARY, coef):
        if abs(c) > cut:
            terms.append(Term(p, float(beta if order is None else order), float(c)))
    mode: Mode = "int" if abs(alpha - 1.0) < 1e-12 else ("sub" if alpha < 1.0 else "sup")
    return Equation(mode, float(alpha), tuple(terms), "gl_left").canonical()


def search_orders(
    feats: Features, seed: int, progress: Callable[[str], None] | None = None
) -> YuFit:
    """DE on the order banks, Powell polish at exact orders, exact refit
    (docs/method/baselines.md#sparse-fit-and-orders)."""
    from scipy.optimize import differential_evolution, minimize  # imported when used (start-up)

    s = feats.settings
    timings: dict[str, float] = {}
    bounds = [s.alpha_bounds, s.beta_bounds]

    def banked(v: Array) -> float:
        y, col = feats.banked(float(v[0]), float(v[1]))
        return feats.fit(y, col).objective

    def exact(v: Array) -> float:
        a = float(np.clip(v[0], *s.alpha_bounds))
        b = float(np.clip(v[1], *s.beta_bounds))
        y, col = feats.exact(a, b)
        return feats.fit(y, col).objective

    t0 = time.perf_counter()
    de = differential_evolution(
        banked,
        bounds,
        maxiter=s.de_maxiter,
        popsize=s.de_popsize,
        tol=s.de_tol,
        polish=s.de_polish,
        seed=int(seed),
    )
    timings["de"] = time.perf_counter() - t0
    if progress is not None:
        progress(f"DE alpha={de.x[0]:.4f} beta={de.x[1]:.4f}")
    x_best = np.array(de.x, dtype=float)
    t1 = time.perf_counter()
    if s.powell:
        pw = minimize(
            exact,
            x_best,
            method="Powell",
            bounds=bounds,
            options={"maxiter": s.powell_maxiter, "xtol": s.powell_xtol, "ftol": s.powell_ftol},
        )
        x_best = np.array(pw.x, dtype=float)
    timings["polish"] = time.perf_counter() - t1
    alpha = float(np.clip(x_best[0], *s.alpha_bounds))
    beta = float(np.clip(x_best[1], *s.beta_bounds))
    y, col = feats.exact(alpha, beta)
    fit = feats.fit(y, col)
    coef = np.where(np.abs(fit.coef) > s.active_tol, fit.coef, 0.0)
    resid = y - feats.design(col) @ coef
    fit_error = float(np.linalg.norm(resid) / (np.linalg.norm(y) + FIT_EPS))
    return YuFit(
        alpha,
        beta,
        coef,
        fit.objective,
        fit_error,
        (float(de.x[0]), float(de.x[1])),
        float(de.fun),
        timings,
    )


def to_result(fit: YuFit, settings: YuSettings, timings: dict[str, float]) -> DiscoveryResult:
    """A :class:`DiscoveryResult` with the selected model as its single front point."""
    eq = fit.equation(settings)
    point = FrontPoint(eq.size, math.nan, fit.objective, fit.objective, math.nan, math.nan, eq)
    return DiscoveryResult(
        front=(point,),
        pareto=(eq.size,),
        selected_size=eq.size,
        selected=eq,
        final=eq,
        fit_error=fit.fit_error,
        timings={**timings, **fit.timings},
    )


def run_pipeline(
    model: FieldModel,
    seed: int,
    settings: YuSettings,
    timings: dict[str, float] | None = None,
    progress: Callable[[str], None] | None = None,
) -> DiscoveryResult:
    """Features → order search → result for a reconstructed field."""
    timings = dict(timings or {})
    t0 = time.perf_counter()
    feats = build_features(model, seed, settings)
    timings["features"] = time.perf_counter() - t0
    fit = search_orders(feats, seed, progress)
    return to_result(fit, settings, timings)


def settings_from_method(method: Any) -> YuSettings:
    """:class:`YuSettings` from a ``method`` config block (missing keys → defaults)."""
    d = YuSettings()
    out: dict[str, Any] = {}
    for name in YuSettings.__dataclass_fields__:
        v = method.get(name, None)
        if v is None:
            continue
        default = getattr(d, name)
        if isinstance(default, tuple):
            out[name] = tuple(float(e) for e in v)
        elif isinstance(default, bool):
            out[name] = bool(v)
        elif isinstance(default, int):
            out[name] = int(v)
        else:
            out[name] = float(v)
    return YuSettings(**out)
