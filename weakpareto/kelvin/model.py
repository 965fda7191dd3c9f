"""Integral-form fit of the fractional Kelvin(-Voigt) creep model (paper Sec. "Experimental
frozen-soil creep", Eqs. kelvin and kelvin-integral, tab:frozen-soil; docs/method/kelvin.md).

Model, for a constant load ``sigma`` applied at ``t = 0`` and ``0 < alpha < 1``::

    D_t^alpha eps(t) = sigma / eta_K - (E / eta_K) eps(t)                    (Caputo)

Applying the Riemann-Liouville integral ``I^alpha`` removes every pointwise derivative::

    eps(t) - eps(0) = a0 t^alpha / Gamma(alpha + 1) + a1 I^alpha eps(t),
    a0 = sigma / eta_K,   a1 = -E / eta_K.

For a trial ``alpha`` the two linear parameters are a least-squares fit; ``alpha`` is chosen by
a bounded one-dimensional search of the relative residual. The exact solution with
``eps(0) = 0`` is ``eps(t) = (sigma / E) (1 - E_alpha(-(E / eta_K) t^alpha))``
(:func:`exact_creep`), used by the tests as independent truth.

Record handling (:func:`prepare_record`): the observations are sorted by time, repeated
timestamps are averaged, and ``(0, 0)`` is prepended when the record starts after ``t = 0`` (the
load is applied at ``t = 0`` on an unstrained sample). A shape-preserving cubic (PCHIP)
interpolant of the record is used for quadrature only: no derivative of the record is evaluated.

Two recipes (``recipe=``):

* ``"ours"`` (default): one regression row per observation (``t > 0``), target the observed
  ``eps - eps(0)``; ``I^alpha eps`` at each observed time by the product-trapezoid rule (exact
  for a piecewise-linear function, :func:`integral_at_nodes`) over the PCHIP interpolant sampled
  ``refine`` (8) times per observation interval. The rows are the data, so the interpolant
  enters only through the integral.
* ``"paper"`` (docs/method/kelvin.md#paper-recipe): the PCHIP interpolant on a uniform grid of
  ``n_grid`` (400) points on ``[0, t_max]`` gives both the rows ``1 .. n_grid - 1`` and the
  integral, by the left-endpoint product rule
  ``I_i = h^alpha / Gamma(alpha + 1) sum_{j<i} ((i - j)^alpha - (i - j - 1)^alpha) eps_j``
  (:func:`integral_matrix`; first order in ``h``).

On synthetic records (56 irregular observations, 1 % multiplicative noise) the default recipe
has about half the alpha error of the paper's (uniform rows put most weight on the plateau, and
the left-endpoint rule biases ``alpha`` upward by ~0.03; ``tests/kelvin/test_model.py``).

The residual is ``||y - X a|| / (||y|| + 1e-14)`` over the rows (``y = eps - eps(0)``,
``X = [t^alpha / Gamma(alpha + 1), I^alpha eps]``). The search evaluates the residual at 41
equally spaced ``alpha`` in ``alpha_range`` (default [0.10, 0.90]) and refines the best one with
bounded Brent (``xatol 1e-8``, ``maxiter 250``) between its neighbours, so a local minimum
elsewhere in the range is not taken for the global one.

Outputs: ``eta_K = sigma / a0``, ``E = -a1 eta_K`` and the retardation time
``t_ret = (eta_K / E)^(1 / alpha)`` (in the record's time unit; ``eta_K`` has units
``stress * time^alpha``, so only ``t_ret`` is comparable across orders).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy.interpolate import PchipInterpolator
from scipy.optimize import minimize_scalar
from scipy.special import gamma

from weakpareto._typing import FloatArray, IntArray
from weakpareto.numerics.mittag_leffler import mittag_leffler

QUADRATURES: tuple[str, ...] = ("linear", "left")
RECIPES: tuple[str, ...] = ("ours", "paper")

#: Defaults (docs/method/kelvin.md#order-search): alpha search interval, quadrature grid size,
#: Brent tolerance/budget.
ALPHA_RANGE = (0.10, 0.90)
N_GRID = 400
#: Quadrature nodes per observation interval (recipe "ours").
REFINE = 8
XATOL = 1e-8
MAXITER = 250
#: Coarse alpha values scanned before the bounded refinement.
N_SCAN = 41
RESIDUAL_EPS = 1e-14
#: An alpha within this fraction of the search width of a bound is reported as at the bound.
BOUND_FRACTION = 0.01


@dataclass(frozen=True)
class CreepRecord:
    """A creep record after sorting, averaging repeated timestamps and anchoring at ``t = 0``."""

    t: FloatArray  # strictly increasing, t[0] == 0
    strain: FloatArray
    n_raw: int  # observations as given
    n_unique: int  # distinct timestamps as given (before the anchor)
    n_averaged: int  # timestamps that had repeated observations (averaged)
    anchored: bool  # (0, 0) was prepended


@dataclass(frozen=True)
class KelvinFit:
    """The fitted fractional Kelvin model and its integral residual."""

    alpha: float
    eta_k: float
    modulus: float  # E
    t_ret: float  # (eta_K / E)^(1 / alpha); NaN when eta_K / E <= 0
    residual: float  # relative l2 residual of the integral equation
    a0: float
    a1: float
    load: float
    alpha_range: tuple[float, float]
    recipe: str
    n_rows: int  # regression rows
    at_bound: bool
    record: CreepRecord = field(repr=False)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready summary (the record is reduced to its counts)."""
        d = asdict(self)
        rec = d.pop("record")
        d["E"] = d.pop("modulus")
        d["eta_K"] = d.pop("eta_k")
        d["alpha_range"] = list(self.alpha_range)
        d.update({k: rec[k] for k in ("n_raw", "n_unique", "n_averaged", "anchored")})
        d["t_max"] = float(self.record.t[-1])
        return {k: _json_float(v) for k, v in d.items()}


def _json_float(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


# -- the exact solution ------------------------------------------------------------------------
def exact_creep(
    t: ArrayLike, alpha: float, eta_k: float, modulus: float, load: float
) -> FloatArray:
    """``eps(t) = (sigma / E) (1 - E_alpha(-(E / eta_K) t^alpha))`` (``eps(0) = 0``)."""
    tt = np.asarray(t, dtype=np.float64)
    z = -(modulus / eta_k) * np.power(np.maximum(tt, 0.0), alpha)
    ml = np.asarray(mittag_leffler(z, alpha), dtype=np.float64)
    return np.asarray((load / modulus) * (1.0 - ml), dtype=np.float64)


# -- the record --------------------------------------------------------------------------------
def prepare_record(t: ArrayLike, strain: ArrayLike) -> CreepRecord:
    """Sort, average repeated timestamps, prepend ``(0, 0)`` when the record starts after 0.

    The inputs must be finite 1-D arrays of equal length with ``t >= 0`` (checked by the
    caller, :mod:`weakpareto.user.kelvin_command`; here they raise ``ValueError``).
    """
    tt = np.asarray(t, dtype=np.float64).ravel()
    ee = np.asarray(strain, dtype=np.float64).ravel()
    if tt.shape != ee.shape:
        raise ValueError(f"t has {tt.size} values but strain has {ee.size}")
    if not (np.all(np.isfinite(tt)) and np.all(np.isfinite(ee))):
        raise ValueError("t and strain must be finite")
    if tt.size and tt.min() < 0:
        raise ValueError("t must be >= 0 (time since the load was applied)")
    uniq, inverse, counts = np.unique(tt, return_inverse=True, return_counts=True)
    sums = np.zeros(uniq.size)
    np.add.at(sums, inverse, ee)
    mean = sums / counts
    anchored = bool(uniq.size and uniq[0] > 0.0)
    if anchored:
        uniq = np.concatenate([[0.0], uniq])
        mean = np.concatenate([[0.0], mean])
    return CreepRecord(
        t=uniq,
        strain=mean,
        n_raw=int(tt.size),
        n_unique=int(counts.size),
        n_averaged=int(np.count_nonzero(counts > 1)),
        anchored=anchored,
    )


def quadrature_grid(record: CreepRecord, n_grid: int = N_GRID) -> tuple[FloatArray, FloatArray]:
    """The uniform grid on ``[0, t_max]`` and the PCHIP interpolant of the strain on it."""
    if record.t.size < 2:
        raise ValueError("a creep record needs at least two distinct times")
    grid = np.linspace(0.0, float(record.t[-1]), int(n_grid))
    values = PchipInterpolator(record.t, record.strain, extrapolate=False)(grid)
    return grid, np.asarray(values, dtype=np.float64)


# -- fractional integral -------------------------------------------------------------------------
def integral_matrix(n: int, h: float, alpha: float, quadrature: str = "linear") -> FloatArray:
    """``W`` with ``(W f)_i ~ I^alpha f(t_i)`` on the uniform grid ``t_i = i h``, ``i < n``."""
    k = np.arange(n, dtype=np.float64)
    if quadrature == "left":
        # weight of f_j at row i: c_{i-j} with c_m = m^a - (m-1)^a for m >= 1, 0 for m = 0
        c = np.zeros(n)
        c[1:] = k[1:] ** alpha - k[:-1] ** alpha
        scale = h**alpha / gamma(alpha + 1.0)
        idx = np.arange(n)
        diff = idx[:, None] - idx[None, :]
        w = np.where(diff >= 1, c[np.clip(diff, 0, n - 1)], 0.0)
        return np.asarray(scale * w, dtype=np.float64)
    if quadrature != "linear":
        raise ValueError(f"quadrature={quadrature!r}; use one of {', '.join(QUADRATURES)}")
    # product trapezoid: interior weight of f_j at row i (m = i - j >= 1)
    #   (m+1)^(a+1) - 2 m^(a+1) + (m-1)^(a+1);  diagonal (m = 0): 1;
    #   first column (j = 0, i >= 1): (i-1)^(a+1) - (i - a - 1) i^a
    ap1 = alpha + 1.0
    p = k**ap1
    interior = np.zeros(n)
    interior[0] = 1.0
    if n > 1:
        kk = k[1:]
        interior[1:] = (kk + 1.0) ** ap1 - 2.0 * p[1:] + (kk - 1.0) ** ap1
    idx = np.arange(n)
    diff = idx[:, None] - idx[None, :]
    w = np.where(diff >= 0, interior[np.clip(diff, 0, n - 1)], 0.0)
    first = np.zeros(n)
    first[1:] = (k[1:] - 1.0) ** ap1 - (k[1:] - alpha - 1.0) * k[1:] ** alpha
    w[:, 0] = first
    w[0, :] = 0.0
    return np.asarray(h**alpha / gamma(alpha + 2.0) * w, dtype=np.float64)


# -- the fit ---------------------------------------------------------------------------------------
def refined_nodes(t: FloatArray, refine: int) -> FloatArray:
    """``t`` with every interval split into ``refine`` equal pieces (``t`` stays a subset: the
    observation ``k`` is node ``k * refine``)."""
    pieces = [np.linspace(t[i], t[i + 1], refine + 1)[:-1] for i in range(t.size - 1)]
    return np.concatenate([*pieces, t[-1:]])


def integral_at_nodes(s: FloatArray, rows: IntArray, alpha: float) -> FloatArray:
    """``W`` with ``(W f)_r = I^alpha f(s[rows[r]])`` for the piecewise-linear interpolant of the
    node values ``f`` on the (non-uniform) nodes ``s`` (product trapezoid, exact per piece)."""
    w = np.zeros((rows.size, s.size))
    for r, k in enumerate(rows):
        if k == 0:
            continue
        tau = s[k]
        a, b = tau - s[:k], tau - s[1 : k + 1]  # distances to the piece ends
        h = s[1 : k + 1] - s[:k]
        p = (a ** (alpha + 1.0) - b ** (alpha + 1.0)) / (alpha + 1.0)
        q = (a**alpha - b**alpha) / alpha
        w[r, :k] += (p - b * q) / h  # weight of the left node of each piece
        w[r, 1 : k + 1] += (a * q - p) / h  # weight of the right node
    return np.asarray(w / gamma(alpha), dtype=np.float64)


@dataclass(frozen=True)
class _Problem:
    """The fixed parts of the regression: rows, target, node values."""

    times: FloatArray  # the rows' times (t > 0)
    y: FloatArray  # eps - eps(0) at the rows
    values: FloatArray  # interpolated strain at the quadrature nodes
    integral: Any  # alpha -> (rows x nodes) weights


def _problem(record: CreepRecord, recipe: str, n_grid: int, refine: int) -> _Problem:
    if recipe == "paper":
        grid, values = quadrature_grid(record, n_grid)
        h = float(grid[1] - grid[0])
        return _Problem(
            grid[1:],
            (values - values[0])[1:],
            values,
            lambda a: integral_matrix(grid.size, h, a, "left")[1:],
        )
    if recipe != "ours":
        raise ValueError(f"recipe={recipe!r}; use one of {', '.join(RECIPES)}")
    s = refined_nodes(record.t, refine)
    values = np.asarray(PchipInterpolator(record.t, record.strain)(s), dtype=np.float64)
    rows = np.arange(refine, s.size, refine)  # the observations after t = 0
    return _Problem(
        record.t[1:],
        record.strain[1:] - record.strain[0],
        values,
        lambda a: integral_at_nodes(s, rows, a),
    )


def _fit(problem: _Problem, alpha: float) -> tuple[float, float, float]:
    x = np.column_stack(
        [problem.times**alpha / gamma(alpha + 1.0), problem.integral(alpha) @ problem.values]
    )
    coef, *_ = np.linalg.lstsq(x, problem.y, rcond=None)
    r = np.linalg.norm(problem.y - x @ coef) / (np.linalg.norm(problem.y) + RESIDUAL_EPS)
    return float(coef[0]), float(coef[1]), float(r)


def fit_kelvin(
    t: ArrayLike,
    strain: ArrayLike,
    load: float,
    alpha_range: tuple[float, float] = ALPHA_RANGE,
    recipe: str = "ours",
    n_grid: int = N_GRID,
    refine: int = REFINE,
) -> KelvinFit:
    """Fit the integral-form fractional Kelvin model to a creep record under ``load``.

    ``recipe="ours"`` (default): residual rows at the observed times, ``I^alpha`` by the product
    trapezoid over the PCHIP interpolant sampled ``refine`` times per observation interval.
    ``recipe="paper"`` (docs/method/kelvin.md#paper-recipe): rows on a uniform ``n_grid`` grid of
    the PCHIP interpolant, left-endpoint product rule.
    """
    lo, hi = float(alpha_range[0]), float(alpha_range[1])
    if not 0.0 < lo < hi < 1.0:
        raise ValueError(f"alpha_range must satisfy 0 < lo < hi < 1, got {alpha_range}")
    if not (math.isfinite(load) and load > 0):
        raise ValueError(f"load must be a finite positive stress, got {load}")
    record = prepare_record(t, strain)
    if record.t.size < 3:
        raise ValueError("a creep record needs at least two observations after t = 0")
    problem = _problem(record, recipe, n_grid, refine)

    def objective(a: float) -> float:
        return _fit(problem, a)[2]

    scan = np.linspace(lo, hi, N_SCAN)
    scores = np.array([objective(float(a)) for a in scan])
    best = int(np.nanargmin(scores))
    res = minimize_scalar(
        objective,
        bounds=(float(scan[max(best - 1, 0)]), float(scan[min(best + 1, N_SCAN - 1)])),
        method="bounded",
        options={"xatol": XATOL, "maxiter": MAXITER},
    )
    alpha = float(res.x) if float(res.fun) <= scores[best] else float(scan[best])
    a0, a1, resid = _fit(problem, alpha)
    eta = load / a0 if a0 != 0 else math.nan
    modulus = -a1 * eta
    ratio = eta / modulus if modulus != 0 else math.nan
    t_ret = ratio ** (1.0 / alpha) if ratio > 0 else math.nan
    margin = BOUND_FRACTION * (hi - lo)
    return KelvinFit(
        alpha=alpha,
        eta_k=float(eta),
        modulus=float(modulus),
        t_ret=float(t_ret),
        residual=resid,
        a0=a0,
        a1=a1,
        load=float(load),
        alpha_range=(lo, hi),
        recipe=recipe,
        n_rows=int(problem.y.size),
        at_bound=bool(alpha - lo <= margin or hi - alpha <= margin),
        record=record,
    )


__all__ = [
    "ALPHA_RANGE",
    "N_GRID",
    "QUADRATURES",
    "CreepRecord",
    "KelvinFit",
    "exact_creep",
    "RECIPES",
    "fit_kelvin",
    "integral_at_nodes",
    "integral_matrix",
    "prepare_record",
    "quadrature_grid",
    "refined_nodes",
]
