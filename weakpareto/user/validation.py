"""Validation of user data and search settings, run before any computation.

Used by ``wp discover`` (:mod:`weakpareto.user.discover_command`) and by
:meth:`weakpareto.user.estimator.WeakPareto.fit`. Every check raises
:class:`weakpareto.campaign.config.UserInputError` (a ``ValueError``) with ONE line that names the
problem and the fix; the CLI prints it and exits with code 2, without a traceback.

Array conventions (paper Sec. 2.1, Eq. 4): ``u`` is ``(nt, nx)`` — time on axis 0, space on
axis 1 — sampled on uniform, strictly increasing grids ``t`` (``nt``) and ``x`` (``nx``). Space is
periodic with period ``L``; the default ``L = nx * dx`` is an endpoint-excluded grid. An
endpoint-included grid (last point ``x_0 + L`` repeating the first) is accepted when ``period=L``
is given, and its repeated last column is dropped.

Two spatial dimensions (paper Sec. "Extension to two spatial dimensions"): ``u`` is
``(nt, nx, ny)`` on grids ``t``, ``x``, ``y`` (:func:`check_field_2d`); every rule above applies
per axis (``period`` for x, ``period_y`` for y, at least 16 points on each spatial axis), NaN/inf
is located as ``(i, j, k)``, and :func:`check_spatial_dims` admits linear terms only
(``powers=[0]``), Gaussian tests and ``test_counts=[K_t, K_x, K_y]``.

Minimum grid sizes follow from the test-function rules the weak library uses
(docs/method/test-functions.md#widths, #test-counts):

* time: Gaussian width ``w_t = max(3 dt, 0.07 (T + dt))`` with centres in
  ``[t_0 + 2.5 w_t, t_end - 2.5 w_t]``; requiring the centres to spread over at least one width,
  ``(nt - 1) dt >= 6 w_t``, gives ``nt >= 19`` (the ``3 dt`` floor is the binding term);
* space: the periodic Gaussian width is at least ``2 dx`` and must stay below ``L / 8`` so that a
  test window decays inside one period (``exp(-8) ~ 3e-4`` at half a period); ``L = nx dx`` gives
  ``nx >= 16``.
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from weakpareto._typing import Array
from weakpareto.errors import UserInputError
from weakpareto.fit.rules import choices_of, range_of
from weakpareto.fit.spec import FAMILY_JOIN, operator_families
from weakpareto.method.settings import (
    DEFAULT_EPS_ALPHA,
    DEFAULT_N_ALPHA_NODES,
    method_names,
)
from weakpareto.numerics.orders import MAX_SPATIAL_ORDER, temporal_branches
from weakpareto.records import TEMPERED_FAMILIES
from weakpareto.user.field_values import (
    check_period,
    check_repeated_endpoint,
    check_values,
)

#: Relative tolerance on the grid step: ``|h_i - h| <= 1e-6 * h`` (plus float rounding).
REL_STEP_TOL = 1e-6
#: Minimum number of time samples (temporal Gaussian centres spread over one width).
MIN_NT = 19
#: Minimum number of spatial samples per period (periodic Gaussian width <= L / 8).
MIN_NX = 16
#: ``operator=`` values besides tempered families and joins (``auto``: chosen per term).
OPERATORS = ("directional", "riesz", "auto")
#: ``power_mode=`` values (``auto``: from the field's sign).
POWER_MODES = ("auto", "raw", "positive")
#: How 1-D data that are irregular in time or incomplete can be fitted.
SAMPLED_HINT = " ({} need method=weak_pareto_exact)"


class NonUniformGrid(UserInputError):
    """A grid whose steps differ (:func:`_check_grid`); irregular ``t`` has a sampled path."""


def one_line(message: object) -> str:
    """First non-empty line of a message (third-party errors can span several lines)."""
    for line in str(message).splitlines():
        if line.strip():
            return line.strip()
    return type(message).__name__ if not isinstance(message, str) else "unknown error"


# -- scalar settings --------------------------------------------------------------------------
def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _is_real(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def check_int(name: str, value: Any, minimum: int, maximum: int | None = None) -> int:
    """An integer within ``[minimum, maximum]``."""
    if not _is_int(value):
        raise UserInputError(f"{name}={value!r} is not an integer; pass e.g. {name}={minimum}")
    if value < minimum or (maximum is not None and value > maximum):
        upper = f" and <= {maximum}" if maximum is not None else ""
        raise UserInputError(f"{name}={value} must be >= {minimum}{upper}")
    return int(value)


def check_setting(name: str, value: Any) -> Any:
    """A search setting checked by its rule in the one table of both doors
    (:mod:`weakpareto.fit.rules`): a number in its range or one of its values."""
    try:
        return check_choice(name, value, choices_of(name))
    except KeyError:
        pass
    rule = range_of(name)
    if rule.integer:
        lo = int(rule.lo) if rule.lo is not None else -(2**63)
        return check_int(name, value, lo, None if rule.hi is None else int(rule.hi))
    ok = _is_real(value) and math.isfinite(float(value)) and rule.inside(float(value))
    if not ok:
        example = rule.hint if rule.hint is not None else 0.001 if rule.inside(0.001) else None
        hint = f", e.g. {name}={example if example is not None else rule.example()}"
        raise UserInputError(f"{name}={value!r} must be a finite number {rule.bounds()}{hint}")
    return float(value)


def check_choice(name: str, value: Any, choices: Sequence[str], hint: str = "") -> str:
    """One of a fixed set of names."""
    if not isinstance(value, str) or value not in choices:
        extra = f" ({hint})" if hint else ""
        raise UserInputError(f"{name}={value!r} is unknown; use one of {', '.join(choices)}{extra}")
    return value


def check_operator(value: Any) -> str | None:
    """Spatial operator family of the periodic library (paper Eqs. 2-3), ``auto``, a tempered
    family or families joined by ``+`` (docs/method/tempered.md); None: not given
    (:mod:`weakpareto.user.operator_default` decides)."""
    if value is None:
        return None
    if isinstance(value, str) and (FAMILY_JOIN in value or value in TEMPERED_FAMILIES):
        operator_families(value)  # one-line refusal of unknown or repeated names
        return value
    return check_choice(
        "operator",
        value,
        OPERATORS,
        "directional: multiplier (i kappa)^beta, advection/transport; "
        "riesz: -|kappa|^beta, symmetric diffusion; auto: each term's family chosen by the data; "
        "tempered, tempered_riesz: truncated power-law jumps (with tempering=); families joined "
        "by +, e.g. directional+tempered_riesz",
    )


def check_tempering(value: Any) -> float | None:
    """``tempering=``: None (estimated) or a finite number > 0 (lambda in 1/x units)."""
    if value is None:
        return None
    if isinstance(value, bool) or not _is_real(value) or not math.isfinite(float(value)):
        raise UserInputError(
            f"tempering={value!r} must be a number > 0 (lambda in 1/x units) or null (estimate)"
        )
    if float(value) <= 0.0:
        raise UserInputError(f"tempering={value!r} must be > 0 (lambda in 1/x units)")
    return float(value)


def _pair(name: str, value: Any, example: str) -> tuple[float, float]:
    if isinstance(value, str | bytes) or not isinstance(value, Sequence | np.ndarray):
        raise UserInputError(f"{name}={value!r} must be a pair [lo,hi], e.g. {name}={example}")
    items = list(value)
    if len(items) != 2 or not all(_is_real(v) for v in items):
        raise UserInputError(
            f"{name}={value!r} must be a pair of two numbers [lo,hi], e.g. {name}={example}"
        )
    lo, hi = float(items[0]), float(items[1])
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise UserInputError(f"{name}=[{lo},{hi}] must be finite, e.g. {name}={example}")
    if lo >= hi:
        raise UserInputError(f"{name}=[{lo:g},{hi:g}] needs lo < hi, e.g. {name}={example}")
    return lo, hi


def check_alpha_range(value: Any) -> tuple[float, float]:
    """Temporal-order search interval, inside (0, 2) and admitting a branch (paper Sec. 4.2)."""
    lo, hi = _pair("alpha_range", value, "[0.6,1.05]")
    if lo <= 0.0 or hi >= 2.0:
        raise UserInputError(
            f"alpha_range=[{lo:g},{hi:g}] must lie inside (0, 2) (Caputo orders 0 < alpha < 2); "
            "e.g. alpha_range=[0.6,1.05]"
        )
    try:
        temporal_branches((lo, hi), DEFAULT_N_ALPHA_NODES, DEFAULT_EPS_ALPHA)
    except ValueError as err:
        raise UserInputError(one_line(err)) from None
    return lo, hi


def check_beta_range(value: Any) -> tuple[float, float]:
    """Spatial-order search interval with beta >= 0 (0 admits the identity term u)."""
    lo, hi = _pair("beta_range", value, "[0.5,2.0]")
    if lo < 0.0:
        raise UserInputError(
            f"beta_range=[{lo:g},{hi:g}] has a negative order; spatial orders are >= 0 "
            "(0 is the identity term u), e.g. beta_range=[0,2.0]"
        )
    if hi > MAX_SPATIAL_ORDER:
        raise UserInputError(
            f"beta_range=[{lo:g},{hi:g}] goes above {MAX_SPATIAL_ORDER:g}, the largest spatial "
            "order searched (|k|^beta loses all precision); e.g. beta_range=[0.5,4.5]"
        )
    return lo, hi


def check_powers(value: Any) -> tuple[int, ...]:
    """Admitted powers ``p`` of the terms ``u^p X_beta u``: distinct non-negative integers."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence | np.ndarray):
        raise UserInputError(f"powers={value!r} must be a list like powers=[0,1,2]")
    items = list(value)
    if not items or not all(_is_int(p) and p >= 0 for p in items):
        raise UserInputError(
            f"powers={items!r} must be non-empty non-negative integers, e.g. powers=[0,1,2] "
            "(0: linear terms X_beta u, 1: u X_beta u, ...)"
        )
    if len(set(items)) != len(items):
        raise UserInputError(f"powers={items!r} repeats a power; list each once, e.g. [0,1,2]")
    return tuple(sorted(int(p) for p in items))


def check_test_counts(value: Any) -> tuple[int, ...] | None:
    """``None`` (paper rule) or positive test-function counts per axis.

    ``[K_t, K_x]`` in 1-D, ``[K_t, K_x, K_y]`` in 2-D; which one the data needs is checked by
    :func:`check_spatial_dims` once the data is known.
    """
    if value is None:
        return None
    if isinstance(value, str | bytes) or not isinstance(value, Sequence | np.ndarray):
        raise UserInputError(f"test_counts={value!r} must be [K_t,K_x] or null, e.g. [44,60]")
    items = list(value)
    if len(items) not in (2, 3) or not all(_is_int(k) and k >= 1 for k in items):
        raise UserInputError(
            f"test_counts={items!r} must be positive integers [K_t,K_x] (2-D: [K_t,K_x,K_y]), "
            "e.g. [44,60]; omit it for the paper rule"
        )
    return tuple(int(k) for k in items)


def check_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Validate and normalise the estimator parameters (see :class:`WeakPareto`); the search
    settings by the one table of both doors (:func:`check_setting`)."""
    p = dict(params)
    out: dict[str, Any] = {
        "operator": check_operator(p["operator"]),
        "alpha_range": check_alpha_range(p["alpha_range"]),
        "beta_range": check_beta_range(p["beta_range"]),
        "powers": check_powers(p["powers"]),
        "power_mode": check_choice(
            "power_mode",
            p["power_mode"],
            POWER_MODES,
            "auto: positive for a nonnegative field, raw otherwise",
        ),
        "max_terms": check_setting("max_terms", p["max_terms"]),
        "test_functions": check_setting("test_functions", p["test_functions"]),
        "test_counts": check_test_counts(p["test_counts"]),
        "seed": check_setting("seed", p["seed"]),
        "popsize": check_setting("popsize", p["popsize"]),
        "maxiter": check_setting("maxiter", p["maxiter"]),
        "updating": check_setting("updating", p["updating"]),
        "ridge": check_setting("ridge", p["ridge"]),
        "method": check_choice("method", p["method"], method_names()),
        "selection": None if p["selection"] is None else check_setting("selection", p["selection"]),
        "margin": check_setting("margin", p["margin"]),
        "domain": check_setting("domain", p.get("domain", "auto")),
        "tempering": check_tempering(p.get("tempering")),
    }
    if not isinstance(p["polish"], bool | np.bool_):
        raise UserInputError(f"polish={p['polish']!r} must be true or false")
    out["polish"] = bool(p["polish"])
    return out


# -- arrays -----------------------------------------------------------------------------------
def _raw_array(name: str, value: Any) -> np.ndarray:
    """``value`` as a real numeric array in its own dtype (bool, complex, object rejected)."""
    try:
        arr = np.asarray(value)
    except Exception as err:  # ragged lists etc.
        raise UserInputError(
            f"{name} is not an array ({one_line(err)}); pass a numeric array"
        ) from None
    if arr.dtype.kind == "c":
        raise UserInputError(f"{name} is complex; pass the real field (e.g. {name}.real)")
    if arr.dtype.kind == "b":
        raise UserInputError(
            f"{name} is boolean (True/False); pass numeric values, e.g. {name}.astype(float) "
            "if 0/1 is really meant"
        )
    if arr.dtype.kind not in "iuf":
        raise UserInputError(
            f"{name} has non-numeric dtype {arr.dtype}; pass numbers (float or int)"
        )
    return arr


def _as_real_array(name: str, value: Any) -> Array:
    # C order whatever the source (MATLAB files load column-major): BLAS rounds by layout,
    # so the same values must give the same bits however they were stored.
    return np.ascontiguousarray(_raw_array(name, value), dtype=float)


def _resolution(arr: np.ndarray) -> float:
    """Relative precision of the values as stored: float32 grids round at ~1e-7, not 1e-16."""
    if arr.dtype.kind == "f":
        return float(max(np.finfo(arr.dtype).eps, np.finfo(float).eps))
    return float(np.finfo(float).eps)  # integers are exact; float64 after conversion


def _as_grid(name: str, value: Any) -> tuple[Array, float]:
    """A coordinate array as float64 and the relative precision it was stored with.

    ``(n, 1)`` and ``(1, n)`` arrays (MATLAB column/row vectors) are flattened.
    """
    arr = _raw_array(name, value)
    if arr.ndim == 2 and 1 in arr.shape:
        arr = arr.reshape(-1)
    return arr.astype(float), _resolution(arr)


def _check_grid(
    name: str, g: Array, resolution: float = float(np.finfo(float).eps), hint: str = ""
) -> float:
    """Finite, strictly increasing, uniform 1-D grid; returns the (mean) step (``hint`` ends
    the non-uniform message).

    Every step must equal the mean step within ``REL_STEP_TOL`` of the step plus the rounding
    of the stored values: 16 float64 units of ``max |g|``, and for lower-precision input two
    units of its own precision (``resolution``: 1.2e-7 for float32).
    """
    bad = ~np.isfinite(g)
    if bad.any():
        i = int(np.argmax(bad))
        raise UserInputError(
            f"{name} has {int(bad.sum())} NaN/inf value(s), first at {name}[{i}]; "
            f"give finite {name} values"
        )
    d = np.diff(g)
    if np.any(d <= 0):
        i = int(np.argmax(d <= 0))
        raise UserInputError(
            f"{name} is not strictly increasing: {name}[{i + 1}]={g[i + 1]:.10g} <= "
            f"{name}[{i}]={g[i]:.10g}; sort the data by {name} and remove repeated {name} values"
        )
    h = (g[-1] - g[0]) / (g.size - 1)
    eps64 = float(np.finfo(float).eps)
    top = float(np.max(np.abs(g)))
    # Rounding a uniform grid moves each step by at most one unit in the last place of the
    # largest value: 2 * resolution * max |g| for low-precision input (float32), 16 float64
    # units as before for float64.
    tol = (
        REL_STEP_TOL * h
        + 16.0 * eps64 * top
        + (2.0 * resolution * top if resolution > eps64 else 0.0)
    )
    dev = np.abs(d - h)
    if np.any(dev > tol):
        i = int(np.argmax(dev))
        raise NonUniformGrid(
            f"{name} is not uniform: step {name}[{i + 1}]-{name}[{i}]={d[i]:.10g} differs from "
            f"the mean step {h:.10g} by {dev[i]:.3g} (tolerance {tol:.3g}: {REL_STEP_TOL:g} of "
            f"the step plus the grid's rounding); resample u onto a uniform {name} grid{hint}"
        )
    if resolution > 1e3 * np.finfo(float).eps:
        return float(h)  # low-precision input: the mean step is far more accurate than g[1]-g[0]
    return float(g[1] - g[0])


@dataclass(frozen=True)
class CheckedField:
    """A validated field on its grid, ready for :func:`weakpareto.library.weak.weak_library`."""

    u: Array
    t: Array
    x: Array
    dt: float
    dx: float
    period: float
    dropped_endpoint: bool = False
    #: Samples not taken (bool, values in ``u`` a fill), frames dropped, irregular ``t``
    #: (:mod:`weakpareto.user.sampled_field`); ``dt`` is then the mean step.
    missing: Array | None = None
    frames_dropped: int = 0
    irregular: bool = False

    @property
    def shape(self) -> tuple[int, int]:
        return (int(self.u.shape[0]), int(self.u.shape[1]))


@dataclass(frozen=True)
class CheckedField2D:
    """A validated 2-D field ``u (nt, nx, ny)``, ready for
    :func:`weakpareto.library.weak_2d.weak_library_2d`."""

    u: Array
    t: Array
    x: Array
    y: Array
    dt: float
    dx: float
    dy: float
    period: float
    period_y: float
    dropped_endpoint: bool = False
    dropped_endpoint_y: bool = False

    @property
    def shape(self) -> tuple[int, int, int]:
        return (int(self.u.shape[0]), int(self.u.shape[1]), int(self.u.shape[2]))


def _check_coordinates(names: Sequence[str], grids: Sequence[Array]) -> None:
    for name, g in zip(names, grids, strict=True):
        if g.ndim != 1:
            raise UserInputError(
                f"{name} must be 1-D (one value per grid point), got shape {g.shape}; "
                f"pass the {name} coordinates, e.g. {name}.ravel() of a vector"
            )


def _axes_hint(shape: tuple[int, ...], expected: tuple[int, ...]) -> str:
    """Name the transpose that turns ``shape`` into ``expected``, if one exists."""
    for perm in itertools.permutations(range(len(shape))):
        if perm != tuple(range(len(shape))) and tuple(shape[k] for k in perm) == expected:
            if len(shape) == 2:
                return "; u looks transposed, pass u.T (rows are times)"
            return f"; u's axes look permuted, pass np.transpose(u, {perm}) (axes must be t, x, y)"
    return ""


def _too_few(shape: tuple[int, ...]) -> None:
    names = ("nt", "nx", "ny")[: len(shape)]
    mins = (MIN_NT, MIN_NX, MIN_NX)[: len(shape)]
    if all(n >= m for n, m in zip(shape, mins, strict=True)):
        return
    need = f"nt >= {MIN_NT}" + "".join(f" and {k} >= {MIN_NX}" for k in names[1:])
    dims = " x ".join(str(n) for n in shape)
    raise UserInputError(
        f"too few grid points for the test functions: u is {dims}, need {need} (temporal "
        f"Gaussians of width max(3dt, 0.07T) need (nt-1)dt >= 6 widths; periodic Gaussians of "
        f"width >= 2dx must fit L/8 on every spatial axis); use a longer record or a finer grid"
    )


def check_field(u: Any, t: Any, x: Any, period: Any = None) -> CheckedField:
    """Validate a field ``u (nt, nx)`` on grids ``t (nt)``, ``x (nx)`` (see module docstring)."""
    u_arr = _as_real_array("u", u)
    t_arr, t_res = _as_grid("t", t)
    x_arr, x_res = _as_grid("x", x)
    if u_arr.ndim == 3:
        raise UserInputError(
            f"u is 3-D {u_arr.shape} but no y grid is given; for two spatial dimensions "
            "(nt x nx x ny) pass y: fit(u, t, x, y), an array y in the .npz or a column y in "
            "the table"
        )
    if u_arr.ndim != 2:
        raise UserInputError(
            f"u must be 2-D (nt x nx: time on axis 0, space on axis 1) or 3-D with a y grid "
            f"(nt x nx x ny), got shape {u_arr.shape}"
        )
    _check_coordinates(("t", "x"), (t_arr, x_arr))
    nt, nx = u_arr.shape
    if (t_arr.size, x_arr.size) != (nt, nx):
        hint = _axes_hint((nt, nx), (t_arr.size, x_arr.size)) or (
            "; u must have shape (len(t), len(x))"
        )
        raise UserInputError(
            f"shape mismatch: u is {nt} x {nx} but len(t)={t_arr.size}, len(x)={x_arr.size}{hint}"
        )
    if nt < 2 or nx < 2:
        raise UserInputError(
            f"u is {nt} x {nx}; need at least nt >= {MIN_NT} times and nx >= {MIN_NX} "
            "spatial points"
        )
    dt = _check_grid("t", t_arr, t_res, SAMPLED_HINT.format("irregular t"))
    dx = _check_grid("x", x_arr, x_res)
    p, drop = check_period(period, nx, dx)
    if drop:
        check_repeated_endpoint(u_arr, 1, "x", "period", nx * dx)
        u_arr, x_arr, nx = u_arr[:, :-1], x_arr[:-1], nx - 1
    _too_few((nt, nx))
    check_values(u_arr, ("t", "x"), (t_arr, x_arr), SAMPLED_HINT.format("gaps (NaN, masks)"))
    return CheckedField(u_arr, t_arr, x_arr, dt, dx, p, drop)


def check_field_2d(
    u: Any, t: Any, x: Any, y: Any, period: Any = None, period_y: Any = None
) -> CheckedField2D:
    """Validate a field ``u (nt, nx, ny)`` on uniform grids ``t``, ``x``, ``y``.

    The 1-D rules apply per axis: uniform, strictly increasing grids (same tolerance), at least
    ``MIN_NT`` times and ``MIN_NX`` points on each spatial axis, ``period`` (x) and ``period_y``
    (y) equal to ``n*h`` (endpoint excluded, the default) or ``(n-1)*h`` (endpoint included; the
    repeated last slice is dropped), NaN/inf reported as ``(i, j, k)`` and ``(t, x, y)``.
    """
    u_arr = _as_real_array("u", u)
    t_arr, t_res = _as_grid("t", t)
    x_arr, x_res = _as_grid("x", x)
    y_arr, y_res = _as_grid("y", y)
    if u_arr.ndim != 3:
        hint = (
            "; for one spatial dimension omit y (fit(u, t, x), no y array/column)"
            if u_arr.ndim == 2
            else ""
        )
        raise UserInputError(
            f"with a y grid u must be 3-D (nt x nx x ny: time, x, y), got shape {u_arr.shape}{hint}"
        )
    _check_coordinates(("t", "x", "y"), (t_arr, x_arr, y_arr))
    nt, nx, ny = u_arr.shape
    expected = (t_arr.size, x_arr.size, y_arr.size)
    if expected != (nt, nx, ny):
        hint = _axes_hint((nt, nx, ny), expected) or "; u must have shape (len(t), len(x), len(y))"
        raise UserInputError(
            f"shape mismatch: u is {nt} x {nx} x {ny} but len(t)={t_arr.size}, "
            f"len(x)={x_arr.size}, len(y)={y_arr.size}{hint}"
        )
    if min(nt, nx, ny) < 2:
        _too_few((nt, nx, ny))
    dt = _check_grid("t", t_arr, t_res)
    dx = _check_grid("x", x_arr, x_res)
    dy = _check_grid("y", y_arr, y_res)
    px, drop_x = check_period(period, nx, dx)
    py, drop_y = check_period(period_y, ny, dy, axis="y", key="period_y")
    if drop_x:
        check_repeated_endpoint(u_arr, 1, "x", "period", nx * dx)
        u_arr, x_arr, nx = u_arr[:, :-1, :], x_arr[:-1], nx - 1
    if drop_y:
        check_repeated_endpoint(u_arr, 2, "y", "period_y", ny * dy)
        u_arr, y_arr, ny = u_arr[:, :, :-1], y_arr[:-1], ny - 1
    _too_few((nt, nx, ny))
    check_values(u_arr, ("t", "x", "y"), (t_arr, x_arr, y_arr))
    return CheckedField2D(u_arr, t_arr, x_arr, y_arr, dt, dx, dy, px, py, drop_x, drop_y)


def check_spatial_dims(params: Mapping[str, Any], dims: int) -> None:
    """Parameter rules that depend on the number of spatial dimensions (1 or 2).

    ``params`` are the normalised output of :func:`check_params`. In 2-D the model is linear
    (paper Sec. "Extension to two spatial dimensions": powers ``[0]`` only), the tests are
    Gaussian on every axis and ``test_counts`` is ``[K_t, K_x, K_y]``; in 1-D it is ``[K_t, K_x]``.
    """
    counts = params.get("test_counts")
    if dims == 1:
        if counts is not None and len(counts) != 2:
            raise UserInputError(
                f"test_counts={list(counts)} has {len(counts)} entries but u has one spatial "
                "dimension; use [K_t,K_x], e.g. test_counts=[44,60], or omit it"
            )
        return
    powers = tuple(params["powers"])
    if powers != (0,):
        raise UserInputError(
            f"powers={list(powers)} is not supported in 2-D: the 2-D model has linear terms "
            "only; pass powers=[0] (Python: powers=(0,))"
        )
    if params.get("test_functions", "gaussian") != "gaussian":
        raise UserInputError(
            f"test_functions={params['test_functions']!r} is 1-D only; 2-D uses Gaussian tests "
            "on every axis, pass test_functions=gaussian"
        )
    if counts is not None and len(counts) != 3:
        raise UserInputError(
            f"test_counts={list(counts)} has {len(counts)} entries but u has two spatial "
            "dimensions; use [K_t,K_x,K_y], e.g. test_counts=[30,40,40], or omit it"
        )
