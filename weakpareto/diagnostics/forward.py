"""Forward simulation of a discovered 1-D FPDE (paper App. app:forward, Eq. efield;
docs/method/diagnostics.md#forward-model-validation).

:func:`simulate` integrates ``T_{mode,alpha} u = sum_j xi_j P(u)^{p_j} X_{beta_j} u`` on an
endpoint-excluded periodic grid from ``u0``, returning the field on the time grid ``t`` (the
data grid, first row = ``u0``). The spatial operator ``X_beta`` is the equation's periodic
Fourier multiplier (Riesz ``-|k|**beta`` or directional ``(i k)**beta``); orders with
``|beta| < 5e-3`` are the identity. The time integrator depends on the model:

* ``alpha = 1``, linear (every power 0): exact exponential propagator per Fourier mode,
  ``u_hat(t) = exp(lambda(k) (t - t_0)) u_hat(t_0)``;
* ``alpha = 1``, nonlinear: classic RK4 on the spectrum with the 2/3-dealiased nonlinear
  tendency and ``n_sub = ceil(dt / (0.4 min(dx / (pi max|u|), 2.5 / lambda_max)))`` substeps
  per output interval (``max|u|`` of the current field; ``lambda_max`` = max over the linear
  terms of ``|xi| max|multiplier|``);
* ``0 < alpha < 1``, linear: the implicit L1 Caputo recursion per Fourier mode
  (docs/method/benchmarks.md#time-space-fractional-rd),
  ``U_n = [c U_{n-1} - c sum_{j=1}^{n-1} w_j (U_{n-j} - U_{n-j-1})] / (c - lambda)``.

Other combinations (fractional nonlinear, superunit) are outside the paper's protocol and raise
``ValueError``. :func:`field_error` is paper Eq. efield with a ``1e-12`` guard.

:func:`forward_validation` builds the rows of paper tab:forward from the campaign runs: the
representative run of each (benchmark, noise) cell (median ``e_beta^max`` seed) simulated from
the clean ``U[0]`` of its seed against the clean field, and the true equation through the same
solver (``scripts/forward_validation.py`` writes them to ``results/diagnostics/forward.csv``;
:mod:`weakpareto.reporting.tables.forward` renders the table).
"""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy.special import gamma as gamma_fn

from weakpareto._typing import ComplexArray, FloatArray
from weakpareto.benchmarks.catalogue import load_benchmark
from weakpareto.benchmarks.generators import generate
from weakpareto.campaign.store import select_cell as select_runs
from weakpareto.evaluation.metrics import truth_equation
from weakpareto.numerics.operators import directional_multiplier, riesz_multiplier, wavenumbers
from weakpareto.records import Equation, Mode, OperatorKind, Term

__all__ = [
    "DEALIAS_FRACTION",
    "EXCLUDED_CANDIDATES",
    "FLOOR_MAX",
    "FORWARD_CASES",
    "FORWARD_COLUMNS",
    "IDENTITY_ORDER_TOL",
    "equation_from_arrays",
    "field_error",
    "forward_case",
    "forward_validation",
    "is_linear",
    "linear_symbol",
    "representative_run",
    "rk4_substeps",
    "select_runs",
    "simulate",
    "solver_name",
    "spatial_multiplier",
]


#: ``|beta|`` below this is the identity operator.
IDENTITY_ORDER_TOL = 5e-3
#: 2/3 rule: modes with ``|k| <= (2/3) max|k|`` are kept in the nonlinear tendency.
DEALIAS_FRACTION = 2.0 / 3.0
#: Safety factor and diffusive stability constant of the adaptive RK4 substeps.
RK4_SAFETY = 0.4
RK4_STABILITY = 2.5
#: Guard in the denominator of Eq. efield.
FIELD_EPS = 1e-12
#: ``|alpha - 1|`` below this is the integer temporal branch.
INTEGER_TOL = 1e-11


def spatial_multiplier(operator: str, kappa: ArrayLike, order: float) -> ComplexArray:
    """Fourier multiplier of ``X_order`` for the equation's operator kind.

    ``|order| < 5e-3`` gives the identity (ones, zero mode included); otherwise the Riesz
    multiplier ``-|k|**order`` or the directional ``(i k)**order`` (principal branch, zero mode
    annihilated).
    """
    kappa = np.asarray(kappa, dtype=float)
    if abs(float(order)) < IDENTITY_ORDER_TOL:
        return np.ones(kappa.shape, dtype=np.complex128)
    if operator == "riesz":
        return riesz_multiplier(kappa, float(order)).astype(np.complex128)
    if operator == "directional":
        return directional_multiplier(kappa, float(order))
    raise ValueError(
        f"forward simulation supports the periodic operators 'riesz' and 'directional', "
        f"got {operator!r}"
    )


def is_linear(eq: Equation) -> bool:
    """True when every term has power 0 (``u``-independent multipliers only)."""
    return all(int(t.power) == 0 for t in eq.terms)


def _check_terms(eq: Equation) -> None:
    for t in eq.terms:
        if t.direction not in (None, "x"):
            raise ValueError(f"forward simulation is 1-D; term {t} acts along {t.direction!r}")
        if int(t.power) < 0:
            raise ValueError(f"term powers must be non-negative, got {t.power}")
        if not (math.isfinite(float(t.coef)) and math.isfinite(float(t.order))):
            raise ValueError(f"term {t} has a non-finite order or coefficient")


def linear_symbol(eq: Equation, kappa: ArrayLike) -> ComplexArray:
    """``lambda(k) = sum over power-0 terms of xi_j s_{beta_j}(k)``."""
    kappa = np.asarray(kappa, dtype=float)
    lam = np.zeros(kappa.shape, dtype=np.complex128)
    for t in eq.terms:
        if int(t.power) == 0:
            lam += float(t.coef) * spatial_multiplier(eq.operator, kappa, t.order)
    return lam


def solver_name(eq: Equation) -> str:
    """Time integrator :func:`simulate` uses for ``eq``: ``exponential``, ``rk4`` or ``l1``."""
    integer = eq.mode == "int" or abs(float(eq.alpha) - 1.0) < INTEGER_TOL
    if integer:
        return "exponential" if is_linear(eq) else "rk4"
    if eq.mode == "sub" or 0.0 < float(eq.alpha) < 1.0:
        if not 0.0 < float(eq.alpha) < 1.0:
            raise ValueError(f"subunit model needs 0 < alpha < 1, got {eq.alpha}")
        if not is_linear(eq):
            raise ValueError(
                "forward simulation of nonlinear fractional-time models is outside the "
                "paper's protocol (L1 is used for linear models only)"
            )
        return "l1"
    raise ValueError(
        f"forward simulation supports alpha = 1 and 0 < alpha < 1, got mode {eq.mode!r}, "
        f"alpha {eq.alpha}"
    )


def _uniform_step(t: FloatArray) -> float:
    if t.ndim != 1 or t.size < 1:
        raise ValueError("t must be a non-empty 1-D time grid")
    if t.size == 1:
        return 0.0
    dt = np.diff(t)
    if np.any(dt <= 0) or not np.allclose(dt, dt[0], rtol=1e-9, atol=0.0):
        raise ValueError("t must be uniform and increasing")
    return float(dt[0])


def _exponential(u0_hat: ComplexArray, lam: ComplexArray, t: FloatArray) -> ComplexArray:
    with np.errstate(over="ignore", invalid="ignore"):
        return np.exp(np.multiply.outer(t - t[0], lam)) * u0_hat


def _l1(u0_hat: ComplexArray, lam: ComplexArray, dt: float, nt: int, alpha: float) -> ComplexArray:
    """Implicit L1 Caputo recursion, all modes at once; loops over time steps only."""
    c = dt ** (-alpha) / gamma_fn(2.0 - alpha)
    j = np.arange(nt, dtype=np.float64)
    w = (j + 1.0) ** (1.0 - alpha) - j ** (1.0 - alpha)
    spec = np.zeros((nt,) + u0_hat.shape, dtype=np.complex128)
    incr = np.zeros_like(spec)  # incr[m] = U_m - U_{m-1}
    spec[0] = u0_hat
    denom = c - lam
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for n in range(1, nt):
            hist = w[1:n] @ incr[n - 1 : 0 : -1] if n > 1 else 0.0
            spec[n] = (c * spec[n - 1] - c * hist) / denom
            incr[n] = spec[n] - spec[n - 1]
    return spec


def rk4_substeps(dt: float, dx: float, max_abs_u: float, lambda_max: float) -> int:
    """``ceil(dt / (0.4 min(dx / (pi max|u|), 2.5 / lambda_max)))`` (at least 1).

    A zero ``max|u|`` or ``lambda_max`` drops the corresponding limit; non-finite ``max|u|``
    returns 1 (the caller stops on a blown-up field).
    """
    limits = []
    if max_abs_u > 0.0 and math.isfinite(max_abs_u):
        limits.append(dx / (math.pi * max_abs_u))
    if lambda_max > 0.0:
        limits.append(RK4_STABILITY / lambda_max)
    if not limits:
        return 1
    return max(1, math.ceil(dt / (RK4_SAFETY * min(limits))))


def _rk4(
    eq: Equation,
    u0_hat: ComplexArray,
    kappa: FloatArray,
    t: FloatArray,
    dx: float,
    power_mode: str,
) -> tuple[ComplexArray, int]:
    """RK4 pseudospectral integration; returns the spectra and the largest substep count."""
    lam = linear_symbol(eq, kappa)
    nl_terms: list[tuple[float, int, ComplexArray]] = [
        (float(tm.coef), int(tm.power), spatial_multiplier(eq.operator, kappa, tm.order))
        for tm in eq.terms
        if int(tm.power) > 0
    ]
    mask = (np.abs(kappa) <= DEALIAS_FRACTION * np.max(np.abs(kappa))).astype(np.float64)
    lambda_max = max(
        (
            abs(float(tm.coef))
            * float(np.max(np.abs(spatial_multiplier(eq.operator, kappa, tm.order))))
            for tm in eq.terms
            if int(tm.power) == 0
        ),
        default=0.0,
    )

    def power(u: FloatArray, p: int) -> FloatArray:
        base = np.maximum(u, 0.0) if power_mode == "positive" else u
        return base**p

    def rhs(u_hat: ComplexArray) -> ComplexArray:
        u = np.real(np.fft.ifft(u_hat))
        nl = np.zeros(u.shape)
        for coef, p, mult in nl_terms:
            nl += coef * power(u, p) * np.real(np.fft.ifft(mult * u_hat))
        return lam * u_hat + mask * np.fft.fft(nl)

    spec = np.full((t.size,) + u0_hat.shape, np.nan + 0j, dtype=np.complex128)
    spec[0] = u0_hat
    u_hat = u0_hat.copy()
    max_sub = 1
    with np.errstate(over="ignore", invalid="ignore"):
        for i in range(1, t.size):
            dt = float(t[i] - t[i - 1])
            umax = float(np.max(np.abs(np.real(np.fft.ifft(u_hat)))))
            if not math.isfinite(umax):
                break  # blown up: remaining rows stay NaN
            n_sub = rk4_substeps(dt, dx, umax, lambda_max)
            max_sub = max(max_sub, n_sub)
            h = dt / n_sub
            for _ in range(n_sub):
                k1 = rhs(u_hat)
                k2 = rhs(u_hat + 0.5 * h * k1)
                k3 = rhs(u_hat + 0.5 * h * k2)
                k4 = rhs(u_hat + h * k3)
                u_hat = u_hat + (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
            spec[i] = u_hat
    return spec, max_sub


def simulate(
    eq: Equation,
    u0: ArrayLike,
    t: ArrayLike,
    x: ArrayLike,
    period: float | None = None,
    *,
    power_mode: str = "raw",
) -> FloatArray:
    """Integrate ``eq`` from ``u0`` on the periodic grid ``x`` (length ``period``); ``(nt, nx)``.

    ``t`` is the uniform output grid (``t[0]`` is the time of ``u0``); ``period`` defaults to
    ``nx * dx``. ``power_mode`` gives ``P(u)`` of the nonlinear terms: ``"raw"`` (``u**p``) or
    ``"positive"`` (``max(u, 0)**p``), as in the weak library. A blown-up integration returns
    non-finite values (never raises). See the module docstring for the integrators.
    """
    u0 = np.asarray(u0, dtype=np.float64)
    t = np.asarray(t, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64)
    if u0.ndim != 1 or x.ndim != 1 or u0.size != x.size or x.size < 2:
        raise ValueError(f"u0 {u0.shape} and x {x.shape} must be 1-D of equal length >= 2")
    if power_mode not in ("raw", "positive"):
        raise ValueError(f"power_mode must be 'raw' or 'positive', got {power_mode!r}")
    _check_terms(eq)
    dx = float(x[1] - x[0])
    length = float(period) if period is not None else x.size * dx
    if not length > 0:
        raise ValueError(f"period must be positive, got {period}")
    dt = _uniform_step(t)
    kappa = wavenumbers(x.size, length)
    u0_hat = np.fft.fft(u0)
    solver = solver_name(eq)
    if solver == "exponential":
        spec = _exponential(u0_hat, linear_symbol(eq, kappa), t)
    elif solver == "l1":
        spec = _l1(u0_hat, linear_symbol(eq, kappa), dt, t.size, float(eq.alpha))
    else:
        spec, _ = _rk4(eq, u0_hat, kappa, t, dx, power_mode)
    with np.errstate(invalid="ignore"):
        return np.real(np.fft.ifft(spec, axis=-1))


def field_error(pred: ArrayLike, ref: ArrayLike) -> float:
    """Paper Eq. efield: ``||pred - ref||_2 / (||ref||_2 + 1e-12)`` over the whole field.

    Non-finite predictions (a blown-up simulation) give ``inf``.
    """
    pred = np.asarray(pred, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    if pred.shape != ref.shape:
        raise ValueError(f"pred {pred.shape} and ref {ref.shape} differ in shape")
    if not np.all(np.isfinite(pred)):
        return math.inf
    return float(np.linalg.norm(pred - ref) / (np.linalg.norm(ref) + FIELD_EPS))


def equation_from_arrays(
    mode: str, alpha: float, powers: ArrayLike, orders: ArrayLike, coefs: ArrayLike, operator: str
) -> Equation:
    """:class:`Equation` from the flat columns of a results row."""
    terms = tuple(
        Term(int(p), float(o), float(c))
        for p, o, c in zip(np.ravel(powers), np.ravel(orders), np.ravel(coefs), strict=True)
    )
    return Equation(cast(Mode, str(mode)), float(alpha), terms, cast(OperatorKind, str(operator)))


# ---------------------------------------------------------------------------------------------
# Paper tab:forward: representative discovered models vs the clean reference
# (docs/method/diagnostics.md#forward-model-validation)
# ---------------------------------------------------------------------------------------------

#: (benchmark, (clean level, noisy level)) of paper tab:forward, in the paper's row order.
FORWARD_CASES: tuple[tuple[str, tuple[float, ...]], ...] = (
    ("fade", (0.0, 0.10)),
    ("rd_space", (0.0, 0.05)),
    ("rd_timespace", (0.0, 0.05)),
    ("burgers", (0.0, 0.10)),
)
#: Candidates checked but dropped when their true-parameter floor exceeds :data:`FLOOR_MAX`
#: (the ADE control; its campaign has the 10 % level only).
EXCLUDED_CANDIDATES: tuple[tuple[str, tuple[float, ...]], ...] = (("ade", (0.10,)),)
#: Benchmarks whose true-parameter solver discrepancy exceeds this are excluded (the ADE
#: control, whose finite-domain data the periodic solver cannot reproduce).
FLOOR_MAX = 5e-2
#: Columns of ``results/diagnostics/forward.csv``.
FORWARD_COLUMNS = (
    "benchmark",
    "noise",
    "seed",
    "status",
    "mode",
    "alpha",
    "equation",
    "solver",
    "e_beta_max",
    "e_field",
    "e_field_true",
    "included",
)


def representative_run(df: pd.DataFrame) -> pd.Series | None:
    """Median-``e_beta^max`` run: stable sort of the seeds by ``e_beta_max`` (NaN -> 1e9), row
    ``n // 2`` (index 2 of five seeds). ``None`` for no runs."""
    if df.empty:
        return None
    key = df.sort_values("seed", kind="stable")
    key = key.assign(_b=key["e_beta_max"].astype(float).fillna(1e9))
    key = key.sort_values("_b", kind="stable")
    return key.iloc[len(key) // 2]


def _truth_operator(cfg: Any) -> str:
    truth = cfg["truth"]
    op = truth.get("operator") if hasattr(truth, "get") else None
    return str(op or "directional")


def forward_case(
    runs: pd.DataFrame, benchmark: str, noise: float, cache: dict | None = None
) -> dict[str, Any]:
    """One tab:forward row: representative run of ``(benchmark, noise)`` simulated from the clean
    ``U[0]`` of its seed against the clean field, plus the true-parameter discrepancy.

    The spatial multiplier is the benchmark's declared operator (``truth.operator``), the power
    law its ``library.power_mode``. Without a usable run (status ``missing``, a failed run, or
    ``unsupported`` for a model outside the protocol's integrators), ``e_field`` is NaN.
    """
    cache = {} if cache is None else cache
    cfg = load_benchmark(benchmark)
    operator = _truth_operator(cfg)
    power_mode = str(cfg["library"].get("power_mode", "raw"))
    period = float(cfg["grid"]["L"])
    rep = representative_run(select_runs(runs, benchmark, noise))
    seed = 0 if rep is None else int(rep["seed"])
    if (benchmark, seed) not in cache:
        fld = generate(cfg, seed)
        truth = truth_equation(cfg)
        true_pred = simulate(truth, fld.u[0], fld.t, fld.x, period, power_mode=power_mode)
        cache[(benchmark, seed)] = (fld, field_error(true_pred, fld.u))
    fld, e_true = cache[(benchmark, seed)]
    row: dict[str, Any] = {
        "benchmark": benchmark,
        "noise": float(noise),
        "seed": seed if rep is not None else -1,
        "status": "missing" if rep is None else str(rep["status"]),
        "mode": "",
        "alpha": math.nan,
        "equation": "",
        "solver": "",
        "e_beta_max": math.nan if rep is None else float(rep["e_beta_max"]),
        "e_field": math.nan,
        "e_field_true": e_true,
        "included": bool(e_true <= FLOOR_MAX),
    }
    if rep is None or rep["status"] != "ok":
        return row
    eq = equation_from_arrays(
        rep["mode"], rep["alpha"], rep["powers"], rep["orders"], rep["coefs"], operator
    )
    row.update(mode=str(eq.mode), alpha=float(eq.alpha), equation=eq.text())
    try:
        solver = solver_name(eq)
    except ValueError:  # e.g. a nonlinear fractional-time model: no integrator in the protocol
        row["status"] = "unsupported"
        return row
    pred = simulate(eq, fld.u[0], fld.t, fld.x, period, power_mode=power_mode)
    row.update(solver=solver, e_field=field_error(pred, fld.u))
    return row


def forward_validation(runs: pd.DataFrame, *, with_excluded: bool = True) -> pd.DataFrame:
    """All tab:forward rows (and, with ``with_excluded``, the ADE control flagged
    ``included=False``) as a DataFrame with :data:`FORWARD_COLUMNS`."""
    cases = FORWARD_CASES + (EXCLUDED_CANDIDATES if with_excluded else ())
    cache: dict = {}
    rows = [forward_case(runs, b, n, cache) for b, levels in cases for n in levels]
    return pd.DataFrame(rows, columns=list(FORWARD_COLUMNS))
