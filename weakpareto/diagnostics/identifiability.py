"""Support-conditioned diagnostics: Burgers structure margins and local spatial-order sensitivity.

Two paper diagnostics that hold the support fixed and look only at the weak regression:

* **Nonlinear Burgers benchmark** (paper Sec. subsec:burgersexp, tab:burgers, fig:burgers;
  docs/method/diagnostics.md#burgers-structure-margin). A pool of seven candidate terms
  ``{u_x, u u_x, u^2 u_x, D^1.7 u, u_xx, u D^1.7 u, D^0.5 u}`` gives all 21 two-term structures.
  Each is fitted at its exact orders (exact weak features, integer time mode ``alpha = 1``) by
  the column-normalised ridge (``lambda = 1e-3``, paper Eq. 22) on all rows and scored by the
  full-row relative residual ``||b - Theta xi|| / ||b||``. The residual margin is the lowest
  residual among the structures that differ from the truth divided by the true-structure
  residual (:func:`structure_residuals`, :func:`burgers_margin`).
* **Local identifiability of spatial fractional orders** (paper Sec.
  subsec:local-identifiability, Prop. prop:local-identifiability, Eqs.
  eq:profiled-local-change and eq:weak-order-sensitivity, tab:local-identifiability, App.
  "Local spatial-order diagnostic"; docs/method/diagnostics.md#local-spatial-order-sensitivity).
  :func:`order_sensitivity` evaluates ``S_beta = ||(I - P_Theta) dtheta_j/dbeta_j|| /
  ||theta_j||`` on the true-support design; :func:`fixed_support_profile` estimates the
  principal non-integer linear spatial order with every other ingredient of the model fixed at
  the truth.

The features come from :class:`weakpareto.library.weak.WeakLibrary` (exact ``targets`` and
``columns``, never interpolated bank columns).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import pandas as pd
from scipy.optimize import minimize_scalar

from weakpareto._typing import Array
from weakpareto.benchmarks.catalogue import load_benchmark
from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.evaluation.metrics import score, truth_equation
from weakpareto.library.gram import FeatureSource, evaluate_direct
from weakpareto.library.weak import PowerMode, weak_library
from weakpareto.method.exact_fit import fit_rows, relative_residual
from weakpareto.method.intervals import FD_STEP as FD_STEP
from weakpareto.method.intervals import column_derivative as column_derivative
from weakpareto.method.intervals import orthogonal_residual as orthogonal_residual
from weakpareto.method.search import train_val_split
from weakpareto.method.settings import DEFAULT_N_BETA_NODES, SearchSettings
from weakpareto.numerics.orders import beta_nodes, first_positive
from weakpareto.records import IDENTITY_TOL, Equation, Mode, OperatorKind, Term

# -- settings of the paper -----------------------------------------------------------------------
RIDGE = SearchSettings().ridge  #: Weak-Pareto ridge on column-normalised designs (conf/search)
VAL_FRACTION = SearchSettings().val_fraction  #: validation fraction of the row split
#: Candidate pool of the Burgers structure comparison, (power, order)
#: (docs/method/diagnostics.md#burgers-structure-margin).
BURGERS_POOL: tuple[tuple[int, float], ...] = (
    (0, 1.0),
    (1, 1.0),
    (2, 1.0),
    (0, 1.7),
    (0, 2.0),
    (1, 1.7),
    (0, 0.5),
)
BURGERS_NOISES: tuple[float, ...] = (0.0, 0.05, 0.10, 0.15, 0.20, 0.25)  #: fig:burgers levels
MARGIN_GUARD = 1e-18  #: denominator guard of the residual margin

LOCAL_BENCHMARKS: tuple[str, ...] = ("fade", "rd_space", "rd_timespace", "burgers")
PROFILE_NOISES: tuple[float, ...] = (0.0, 0.02, 0.05, 0.10)
PROFILE_SEEDS: tuple[int, ...] = (0, 1, 2, 3, 4)
N_PROFILE = 61  #: equally spaced trial orders of the fixed-support profile
PROFILE_XATOL = 1e-5  #: tolerance of the bounded 1-D refinement
#: Trial orders closer than this to the true order are merged with it (see
#: :func:`profile_orders`); 0 reproduces a plain ``np.unique`` of the augmented grid.
MERGE_TOL = 1e-9
#: beta nodes of the discovery bank; fixes the positive part of a [0, b] range
N_BANK_NODES = DEFAULT_N_BETA_NODES


# =================================================================================================
# Library construction
# =================================================================================================
def benchmark_library(bench: Any, u: Array, t: Array, x: Array) -> Any:
    """Weak library of a field with the benchmark's operator, power mode and period.

    Paper test budget, Gaussian tests (the main-protocol library of
    :func:`weakpareto.library.weak.weak_library`).
    """
    lib = bench["library"]
    return weak_library(
        np.asarray(u, dtype=float),
        np.asarray(t, dtype=float),
        np.asarray(x, dtype=float),
        operator=cast(OperatorKind, str(lib["operator"])),
        power_mode=cast(PowerMode, str(lib["power_mode"])),
        period=float(bench["grid"]["L"]),
    )


def _field_library(
    bench: Any, seed: int, noise: float, noise_law: str = "multiplicative"
) -> tuple[Any, Any]:
    """(field, weak library of its noisy realisation); noise seed = run seed."""
    fld = generate(bench, seed)
    u = add_noise(fld.u, noise_law, float(noise), int(seed))
    return fld, benchmark_library(bench, u, fld.t, fld.x)


# =================================================================================================
# Burgers: all two-term structures of a pool (paper Sec. subsec:burgersexp)
# =================================================================================================
def term_label(power: int, beta: float) -> str:
    """Plain label of ``u^p X_beta u`` in derivative shorthand (``u_x``, ``u D^1.7 u``, ...)."""
    if abs(beta) <= IDENTITY_TOL:
        op = "u"
    elif abs(beta - 1.0) <= 1e-12:
        op = "u_x"
    elif abs(beta - 2.0) <= 1e-12:
        op = "u_xx"
    else:
        op = f"D^{beta:g} u"
    if power == 0:
        return op
    if abs(beta) <= IDENTITY_TOL:
        return f"u^{power + 1}"
    pw = "u" if power == 1 else f"u^{power}"
    return f"{pw} {op}"


def structure_label(terms: Iterable[tuple[int, float]]) -> str:
    """``{u u_x, D^1.7 u}``-style label of a set of terms (pool order kept)."""
    return "{" + ", ".join(term_label(p, b) for p, b in terms) + "}"


def _same_term(a: tuple[int, float], b: tuple[int, float], tol: float = 1e-9) -> bool:
    return int(a[0]) == int(b[0]) and abs(float(a[1]) - float(b[1])) <= tol


def structure_residuals(
    lib: FeatureSource,
    pool: Sequence[tuple[int, float]] = BURGERS_POOL,
    alpha: float = 1.0,
    mode: Mode = "int",
    ridge: float = RIDGE,
    size: int = 2,
) -> pd.DataFrame:
    """Fit every ``size``-term structure of ``pool`` at its exact orders and score it.

    Paper Sec. subsec:burgersexp: for each structure the coefficients are refit at the exact
    candidate orders (column-normalised ridge of paper Eq. 22 on *all* rows,
    :func:`weakpareto.method.discovery.fit_rows`) and scored by the relative weak residual
    ``||b - Theta xi||_2 / ||b||_2`` (:func:`weakpareto.method.discovery.relative_residual`), where
    ``b`` is the exact weak target of the temporal ``mode``/``alpha`` (paper Eq. 9) and the
    columns are the exact weak features of paper Eqs. 11-12.

    Returns one row per structure (``C(len(pool), size)`` rows, 21 for the Burgers pool) in
    ``itertools.combinations`` order, with ``structure`` (label), ``powers``/``orders`` (tuples),
    ``term_<i>``/``power_<i>``/``beta_<i>``/``coef_<i>`` for ``i = 1..size``, ``residual`` and
    ``rank`` (1 = lowest residual).
    """
    pool = [(int(p), float(b)) for p, b in pool]
    if size < 1 or size > len(pool):
        raise ValueError(f"structure size must be in 1..{len(pool)}, got {size}")
    y = lib.targets(np.array([float(alpha)]), mode)[0]
    cols = [lib.columns(p, np.array([b]))[0] for p, b in pool]
    rows = []
    for combo in itertools.combinations(range(len(pool)), size):
        x = np.stack([cols[i] for i in combo], axis=1)
        coef = fit_rows(y, x, ridge)
        row: dict[str, Any] = {
            "structure": structure_label(pool[i] for i in combo),
            "powers": tuple(pool[i][0] for i in combo),
            "orders": tuple(pool[i][1] for i in combo),
        }
        for k, i in enumerate(combo, start=1):
            row[f"term_{k}"] = term_label(*pool[i])
            row[f"power_{k}"] = pool[i][0]
            row[f"beta_{k}"] = pool[i][1]
            row[f"coef_{k}"] = float(coef[k - 1])
        row["residual"] = relative_residual(y, x, coef)
        rows.append(row)
    df = pd.DataFrame(rows)
    df["rank"] = df["residual"].rank(method="first").astype(int)
    return df


def _is_structure(row: pd.Series, terms: Sequence[tuple[int, float]]) -> bool:
    have = list(zip(row["powers"], row["orders"]))
    if len(have) != len(terms):
        return False
    return all(any(_same_term(t, h) for h in have) for t in terms) and all(
        any(_same_term(h, t) for t in terms) for h in have
    )


def _min_row(df: pd.DataFrame, col: str) -> pd.Series:
    """``df.loc[df[col].idxmin()]``: one row, as the labels (a default integer index) are unique."""
    return cast(pd.Series, df.loc[cast(int, df[col].idxmin())])


def structure_margin(
    table: pd.DataFrame, truth: Equation, guard: float = MARGIN_GUARD
) -> dict[str, Any]:
    """Selection flag, margin and coefficient error of the true structure in a residual table.

    ``margin = min_{S != S*} R(S) / (R(S*) + guard)``
    (docs/method/diagnostics.md#burgers-structure-margin); ``true_selected`` is True when the
    lowest-residual structure is the true one. ``e_xi_max`` is the relative coefficient error of the
    fitted true structure (:func:`weakpareto.evaluation.metrics.score`).
    """
    true_terms = [(t.power, t.order) for t in truth.terms]
    is_true = table.apply(lambda r: _is_structure(r, true_terms), axis=1).to_numpy(bool)
    if is_true.sum() != 1:
        raise ValueError("the true structure must occur exactly once in the candidate pool")
    true_row = table[is_true].iloc[0]
    others = table[~is_true]
    comp = _min_row(others, "residual")
    best = _min_row(table, "residual")
    n = len(true_terms)
    fitted = Equation(
        truth.mode,
        truth.alpha,
        tuple(
            Term(int(true_row[f"power_{k}"]), float(true_row[f"beta_{k}"]), true_row[f"coef_{k}"])
            for k in range(1, n + 1)
        ),
        truth.operator,
    )
    met = score(fitted, truth)
    out: dict[str, Any] = {
        "true_selected": bool(is_true[table.index.get_loc(best.name)]),
        "selected": best["structure"],
        "true_structure": true_row["structure"],
        "true_residual": float(true_row["residual"]),
        "competitor": comp["structure"],
        "competitor_residual": float(comp["residual"]),
        "margin": float(comp["residual"]) / (float(true_row["residual"]) + guard),
        "e_xi_max": met.e_xi_max,
        "e_xi_2": met.e_xi_2,
    }
    for k in range(1, n + 1):
        out[f"xi_{term_label(int(true_row[f'power_{k}']), float(true_row[f'beta_{k}']))}"] = float(
            true_row[f"coef_{k}"]
        )
    return out


def burgers_margin(
    noise_levels: Sequence[float] = BURGERS_NOISES,
    seed: int = 0,
    *,
    benchmark: str = "burgers",
    pool: Sequence[tuple[int, float]] = BURGERS_POOL,
    ridge: float = RIDGE,
    noise_law: str = "multiplicative",
) -> pd.DataFrame:
    """Residual margin of the true Burgers structure per noise level (paper tab:burgers, Fig. 4).

    For each level the benchmark field (seed ``seed``) gets ``noise_law`` noise with the same
    seed, the weak library is built with the paper test budget, and every two-term structure of
    ``pool`` is scored by :func:`structure_residuals` with ``alpha = 1`` in the exact integer
    mode. One row per level: ``noise`` (fraction), ``seed``, ``true_selected``, ``selected``,
    ``true_residual``, ``competitor``, ``competitor_residual``, ``margin``, ``e_xi_max``,
    ``e_xi_2``, the fitted true coefficients ``xi_<term>`` and ``n_structures``.
    """
    bench = load_benchmark(benchmark)
    truth = truth_equation(bench)
    rows = []
    for level in noise_levels:
        _, lib = _field_library(bench, seed, float(level), noise_law)
        table = structure_residuals(lib, pool, truth.alpha, truth.mode, ridge)
        row = {"benchmark": benchmark, "noise": float(level), "seed": int(seed)}
        row.update(structure_margin(table, truth))
        row["n_structures"] = len(table)
        rows.append(row)
    return pd.DataFrame(rows)


# =================================================================================================
# Local identifiability of spatial orders (paper Sec. subsec:local-identifiability)
# =================================================================================================
def principal_order_index(truth: Equation) -> int:
    """Index of the principal non-integer linear spatial term (``p = 0``, non-integer beta).

    With several such terms the highest order is taken; raises ``ValueError`` when the truth has
    none. For the four main benchmarks it is the ``D^1.7``/``R_1.65``/``R_1.55`` term.
    """
    cand = [
        i
        for i, t in enumerate(truth.terms)
        if t.power == 0 and abs(t.order - round(t.order)) > 1e-9
    ]
    if not cand:
        raise ValueError("the true equation has no non-integer linear spatial term")
    return max(cand, key=lambda i: truth.terms[i].order)


def true_system(lib: FeatureSource, truth: Equation) -> tuple[Array, Array]:
    """Exact target ``b`` and true-support design ``Theta`` (paper Eq. eq:local-ident-regression).

    ``b`` is the exact weak target of the true temporal branch and order; column ``j`` is the
    exact weak feature of true term ``j`` at its true order.
    """
    y = lib.targets(np.array([truth.alpha]), truth.mode)[0]
    x = np.stack([lib.columns(t.power, np.array([t.order]))[0] for t in truth.terms], axis=1)
    return y, x


def profiled_local_change(design: Array, dtheta: Array, xi: float) -> float:
    """``min_v ||Theta v + xi dtheta||_2 = |xi| ||(I - P_Theta) dtheta||_2``.

    Paper Eq. eq:profiled-local-change: the smallest first-order change of the model mean
    after the coefficients refit (Prop. prop:local-identifiability).
    """
    return abs(float(xi)) * float(np.linalg.norm(orthogonal_residual(design, dtheta)))


def order_sensitivity(lib: FeatureSource, truth: Equation, j: int, step: float = FD_STEP) -> float:
    """Support-conditioned local order sensitivity ``S_beta_j`` (Eq. eq:weak-order-sensitivity).

    ``S_beta_j = ||(I - P_Theta) dtheta_j/dbeta_j||_2 / ||theta_j||_2`` with ``Theta`` the exact
    weak design of the true support at the true orders (:func:`true_system`), ``P_Theta`` the
    orthogonal projector onto its columns (computed by least squares,
    :func:`orthogonal_residual`) and the column derivative a centred finite difference of step
    ``step`` (paper App. "Local spatial-order diagnostic": 1e-4). By Prop.
    prop:local-identifiability, ``|xi_j| ||theta_j|| S_beta_j`` is the smallest first-order
    change of the model mean per unit order change after refitting all coefficients; ``0``
    means complete first-order confounding. Dimensionless and invariant to rescaling the field
    or any column.
    """
    if not 0 <= j < truth.size:
        raise ValueError(f"term index j={j} outside the {truth.size}-term truth")
    _, x = true_system(lib, truth)
    term = truth.terms[j]
    if abs(term.order) <= IDENTITY_TOL:
        raise ValueError("S_beta is defined for a fractional-order (beta != 0) term")
    dtheta = column_derivative(lib, term.power, term.order, step)
    norm = float(np.linalg.norm(x[:, j]))
    if norm == 0.0:
        raise ValueError(f"true column {j} is zero")
    return float(np.linalg.norm(orthogonal_residual(x, dtheta))) / norm


def positive_interval(
    beta_range: Sequence[float], n_bank_nodes: int = N_BANK_NODES
) -> tuple[float, float]:
    """Positive part of a spatial-order search interval.

    A range starting at 0 (the identity candidate, e.g. RD's ``[0, 2.1]``) searches derivative
    orders from the first positive node of the discovery bank (``beta_nodes(range, 59)``) up, as the
    main protocol's polishing and the temporal-order profile do
    (docs/method/search.md#exact-order-polishing,
    docs/method/diagnostics.md#temporal-order-profile); a positive range is returned unchanged.
    """
    lo, hi = float(beta_range[0]), float(beta_range[1])
    if hi <= 0.0 or hi <= lo:
        raise ValueError(f"beta range {beta_range} has no positive part")
    if lo > 0.0:
        return lo, hi
    return first_positive(beta_nodes((lo, hi), n_bank_nodes)), hi


def profile_orders(
    interval: Sequence[float],
    beta_true: float,
    n_grid: int = N_PROFILE,
    merge_tol: float = MERGE_TOL,
) -> Array:
    """``n_grid`` equally spaced orders over ``interval`` augmented by the true order (sorted).

    A grid node within ``merge_tol`` of the true order is replaced by it: ``linspace`` can put a
    node a rounding error away from the true order (``linspace(0.5, 2, 61)[48] =
    1.7000000000000002``), and keeping both would give the refinement a degenerate bracket.
    ``merge_tol = 0`` keeps both (plain ``np.unique``).
    """
    grid = np.linspace(float(interval[0]), float(interval[1]), int(n_grid))
    if merge_tol > 0.0:
        grid = grid[np.abs(grid - beta_true) > merge_tol]
    return np.unique(np.append(grid, float(beta_true)))


@dataclass(frozen=True)
class Profile:
    """Outcome of one fixed-support order profile."""

    beta_true: float
    beta_hat: float  # final estimate (refined, or the grid point when refinement did not help)
    beta_grid: float  # best trial order of the grid
    val_error: float  # E_val at beta_hat
    grid_val_error: float  # E_val at beta_grid
    bracket: tuple[float, float]
    refined: bool  # True when the refinement improved on the grid point
    n_evals: int
    grid: Array
    grid_errors: Array

    @property
    def error(self) -> float:
        """Absolute order error ``e_beta,fix = |beta_hat - beta_true|``."""
        return abs(self.beta_hat - self.beta_true)


def profile_objective(
    lib: FeatureSource, truth: Equation, j: int, seed: int, ridge: float = RIDGE
) -> Callable[[float], float]:
    """``beta_j -> E_val``: true support/branch/other orders, ridge refit on the training rows.

    The split is :func:`weakpareto.method.search.train_val_split` ``(K, 0.25, seed)`` and the
    score the     variance-normalised validation error of paper Eq. 21
    (:func:`weakpareto.library.gram.evaluate_direct`), as in the main protocol.
    """
    y, x = true_system(lib, truth)
    train, val = train_val_split(y.size, VAL_FRACTION, int(seed))
    power = truth.terms[j].power

    def e_val(beta: float) -> float:
        design = x.copy()
        design[:, j] = lib.columns(power, np.array([float(beta)]))[0]
        return float(evaluate_direct(y, design, train, val, ridge).val_error[0])

    return e_val


def profile_order(
    lib: FeatureSource,
    truth: Equation,
    j: int,
    beta_range: Sequence[float],
    seed: int,
    n_grid: int = N_PROFILE,
    ridge: float = RIDGE,
    xatol: float = PROFILE_XATOL,
    merge_tol: float = MERGE_TOL,
) -> Profile:
    """Fixed-support order profile with its details (see :func:`fixed_support_profile`)."""
    term = truth.terms[j]
    interval = positive_interval(beta_range)
    e_val = profile_objective(lib, truth, j, seed, ridge)
    grid = profile_orders(interval, term.order, n_grid, merge_tol)
    errors = np.array([e_val(b) for b in grid])
    k = int(np.argmin(errors))
    lo = float(grid[max(k - 1, 0)])
    hi = float(grid[min(k + 1, grid.size - 1)])
    beta_hat, best, refined, n_ref = float(grid[k]), float(errors[k]), False, 0
    if hi > lo:
        res = minimize_scalar(e_val, bounds=(lo, hi), method="bounded", options={"xatol": xatol})
        n_ref = int(res.nfev)
        if float(res.fun) < best:
            beta_hat, best, refined = float(res.x), float(res.fun), True
    return Profile(
        beta_true=float(term.order),
        beta_hat=beta_hat,
        beta_grid=float(grid[k]),
        val_error=best,
        grid_val_error=float(errors[k]),
        bracket=(lo, hi),
        refined=refined,
        n_evals=grid.size + n_ref,
        grid=grid,
        grid_errors=errors,
    )


def fixed_support_profile(
    lib: FeatureSource,
    truth: Equation,
    j: int,
    beta_range: Sequence[float],
    seed: int,
    n_grid: int = N_PROFILE,
    ridge: float = RIDGE,
) -> float:
    """Fixed-support estimate of spatial order ``beta_j`` (paper tab:local-identifiability).

    Paper Sec. subsec:local-identifiability and App. "Local spatial-order diagnostic": the true
    temporal branch/order, support, powers and all other spatial orders are fixed; only
    ``beta_j`` varies over ``n_grid`` (61) equally spaced orders on the positive part of
    ``beta_range`` (:func:`positive_interval`) plus the true order. At each trial order all
    coefficients are refit on the training rows of the seeded split with the Weak-Pareto ridge
    and scored by ``E_val`` (paper Eq. 21). The best trial order is then refined by bounded
    Brent minimisation (``scipy.optimize.minimize_scalar``, tolerance 1e-5) between its two
    neighbouring trial orders; the refinement is kept when it lowers ``E_val``.

    ``lib`` is the (noisy) field's exact weak library; ``seed`` selects the row split. Returns
    the estimated order; ``|estimate - truth.terms[j].order|`` is ``e_beta,fix``.
    """
    return profile_order(lib, truth, j, beta_range, seed, n_grid, ridge).beta_hat


def local_identifiability(
    benchmarks: Sequence[str] = LOCAL_BENCHMARKS,
    noise_levels: Sequence[float] = PROFILE_NOISES,
    seeds: Sequence[int] = PROFILE_SEEDS,
    *,
    noise_law: str = "multiplicative",
    step: float = FD_STEP,
    n_grid: int = N_PROFILE,
    ridge: float = RIDGE,
    raw_grid: bool = True,
    progress: Callable[[str], None] | None = None,
) -> pd.DataFrame:
    """``S_beta`` and fixed-support profiles of the paper's four main benchmarks.

    One row per (benchmark, noise, seed). ``s_beta`` is :func:`order_sensitivity` on the clean
    field of that seed (the RD initial conditions depend on the seed; FADE and Burgers do not);
    the profile columns come from :func:`profile_order` on the noisy field (noise seed = run
    seed). With ``raw_grid`` the profile is repeated with ``merge_tol = 0`` (the true order kept
    beside a grid node a rounding error away) and reported as ``beta_hat_raw``/``e_beta_fix_raw``.
    """
    rows = []
    for name in benchmarks:
        bench = load_benchmark(name)
        truth = truth_equation(bench)
        j = principal_order_index(truth)
        beta_range = tuple(float(b) for b in bench["library"]["beta_range"])
        interval = positive_interval(beta_range)
        clean_s: dict[int, float] = {}
        for seed in seeds:
            _, clean = _field_library(bench, seed, 0.0, noise_law)
            clean_s[seed] = order_sensitivity(clean, truth, j, step)
        for level in noise_levels:
            for seed in seeds:
                _, lib = _field_library(bench, seed, float(level), noise_law)
                prof = profile_order(lib, truth, j, beta_range, seed, n_grid, ridge)
                row = {
                    "benchmark": name,
                    "operator": truth.operator,
                    "mode": truth.mode,
                    "alpha": truth.alpha,
                    "term_power": truth.terms[j].power,
                    "beta_true": prof.beta_true,
                    "beta_lo": interval[0],
                    "beta_hi": interval[1],
                    "s_beta": clean_s[seed],
                    "noise": float(level),
                    "seed": int(seed),
                    "beta_grid": prof.beta_grid,
                    "beta_hat": prof.beta_hat,
                    "e_beta_fix": prof.error,
                    "val_error": prof.val_error,
                    "bracket_lo": prof.bracket[0],
                    "bracket_hi": prof.bracket[1],
                    "refined": prof.refined,
                    "n_evals": prof.n_evals,
                }
                if raw_grid:
                    raw = profile_order(
                        lib, truth, j, beta_range, seed, n_grid, ridge, merge_tol=0.0
                    )
                    row["beta_hat_raw"] = raw.beta_hat
                    row["e_beta_fix_raw"] = raw.error
                rows.append(row)
                if progress is not None:
                    progress(
                        f"{name} noise {100 * level:g}% seed {seed}: beta_hat {prof.beta_hat:.5f}"
                        f" (e {prof.error:.2e}), S_beta {clean_s[seed]:.3f}"
                    )
    return pd.DataFrame(rows)
