"""``WeakPareto``: the discovery pipeline as a scikit-learn-style estimator.

>>> model = WeakPareto(operator="directional", alpha_range=(0.6, 1.05), beta_range=(0.5, 2.0))
>>> model.fit(u, t, x).print()                                      # doctest: +SKIP
>>> model.equation_.text()                                          # doctest: +SKIP
'D_t^0.7997 u = -0.9817 D_x^0.9953 u + 0.4912 D_x^1.7473 u'

The model class is ``T_{m,alpha} u = sum_j xi_j u^{p_j} X_{beta_j} u`` (paper Eq. 4) with a Caputo
temporal operator of branch ``m`` in {sub, int, sup} and a periodic spatial operator ``X_beta``
(directional ``(i kappa)^beta`` or Riesz ``-|kappa|^beta``, paper Eqs. 2-3). ``fit`` builds the
weak regression system ``b(m, alpha) = Theta(p, beta) xi + r`` from test-function projections
(paper Eqs. 9-13, 18), sweeps the support size ``c = 1..max_terms`` with a continuous-order
best-subset search (paper Eq. 19, ridge Eq. 20, validation score Eq. 21), selects the elbow of
the Pareto front (paper Sec. 4.3), prunes inactive terms (Sec. 4.4) and polishes and refits the
orders exactly (Eq. 22). Input is validated first (:mod:`weakpareto.user.validation`); bad input
raises :class:`weakpareto.campaign.config.UserInputError`, a ``ValueError``.

Two spatial dimensions (paper Sec. "Extension to two spatial dimensions"): ``fit(u, t, x, y)``
with ``u`` of shape ``(nt, nx, ny)`` searches ``T_{m,alpha} u = sum_j xi_j X_{beta_j}^{(d_j)} u``
with linear terms only (``powers=(0,)``) and a direction label ``d_j in {x, y}`` per term,
searched together with the orders (:func:`weakpareto.method.discovery_2d.discover_2d`: separable
t/x/y Gaussian tests, the same branch-aware search, elbow, pruning, polish and refit).

>>> WeakPareto(alpha_range=(0.55, 1.25), beta_range=(0.5, 2.5), powers=(0,)).fit(
...     u, t, x, y).equation_.text()                                 # doctest: +SKIP
'D_t^0.8494 u = 0.3015 D_x^1.7000 u + 0.2020 D_y^1.3974 u'
"""

from __future__ import annotations

import inspect
import json
import math
import numbers
from typing import Any, cast

import numpy as np

from weakpareto._version import __version__
from weakpareto.errors import UserInputError
from weakpareto.library.weak import PowerMode, SpatialTests, weak_library
from weakpareto.library.weak_2d import weak_library_2d
from weakpareto.method.discovery import discover
from weakpareto.method.discovery_2d import discover_2d
from weakpareto.method.settings import (
    DEFAULT_C_MAX,
    DiscoveryConfig,
    RefineSettings,
    SearchSettings,
    SelectionSettings,
)
from weakpareto.numerics.operators import SpectralKind
from weakpareto.records import DiscoveryResult, Equation, FrontPoint
from weakpareto.user.validation import (
    CheckedField,
    CheckedField2D,
    check_field,
    check_field_2d,
    check_params,
    check_spatial_dims,
)

# The method's defaults are conf/'s (weakpareto.method.settings): one set for Python and CLI.
_SEARCH, _SELECTION, _REFINE = SearchSettings(), SelectionSettings(), RefineSettings()

#: Tolerance (relative to max |u|) under which a slightly negative minimum still counts as a
#: nonnegative field for ``power_mode="auto"`` (spectral round-off, e.g. -1e-15 on FADE).
NONNEG_RTOL = 1e-8


class NotFittedError(ValueError, AttributeError):
    """The estimator is used before :meth:`WeakPareto.fit` (as in scikit-learn)."""


def _finite_or_none(v: float) -> float | None:
    v = float(v)
    return v if math.isfinite(v) else None


def _float(v: Any) -> float:
    return float("nan") if v is None else float(v)


def _front_point_to_dict(fp: FrontPoint) -> dict[str, Any]:
    return {
        "size": int(fp.size),
        "train_error": _finite_or_none(fp.train_error),
        "val_error": _finite_or_none(fp.val_error),
        "objective": _finite_or_none(fp.objective),
        "aic": _finite_or_none(fp.aic),
        "bic": _finite_or_none(fp.bic),
        "equation": fp.equation.to_dict(),
    }


def _front_point_from_dict(d: dict[str, Any]) -> FrontPoint:
    return FrontPoint(
        size=int(d["size"]),
        train_error=_float(d["train_error"]),
        val_error=_float(d["val_error"]),
        objective=_float(d["objective"]),
        aic=_float(d["aic"]),
        bic=_float(d["bic"]),
        equation=Equation.from_dict(d["equation"]),
    )


def result_to_dict(res: DiscoveryResult) -> dict[str, Any]:
    """Lossless JSON-safe form of a :class:`DiscoveryResult` (non-finite floats -> null)."""
    return {
        "front": [_front_point_to_dict(fp) for fp in res.front],
        "pareto": [int(s) for s in res.pareto],
        "selected_size": int(res.selected_size),
        "selected": res.selected.to_dict(),
        "final": res.final.to_dict(),
        "fit_error": _finite_or_none(res.fit_error),
        "timings": {k: float(v) for k, v in res.timings.items()},
    }


def result_from_dict(d: dict[str, Any]) -> DiscoveryResult:
    """Inverse of :func:`result_to_dict`."""
    return DiscoveryResult(
        front=tuple(_front_point_from_dict(fp) for fp in d["front"]),
        pareto=tuple(int(s) for s in d["pareto"]),
        selected_size=int(d["selected_size"]),
        selected=Equation.from_dict(d["selected"]),
        final=Equation.from_dict(d["final"]),
        fit_error=_float(d["fit_error"]),
        timings={k: float(v) for k, v in d.get("timings", {}).items()},
    )


def _json_param(v: Any) -> Any:
    if isinstance(v, tuple | list):
        return [_json_param(i) for i in v]
    if isinstance(v, np.generic):
        return v.item()
    return v


class WeakPareto:
    """Weak-form, continuous-order Pareto discovery of a fractional PDE (paper Algorithm 1).

    Parameters (defaults are the method's constants in ``conf/`` — the paper's, App. C — except
    the search ranges, which the paper declares per benchmark in tab:searchranges and which here
    default to a generic range)
    ----------
    operator : {"directional", "riesz"}
        Periodic spatial operator family (paper Eqs. 2-3): ``directional`` has multiplier
        ``(i kappa)^beta`` (beta=1 is ``u_x``; transport), ``riesz`` has ``-|kappa|^beta``
        (beta=2 is ``u_xx``; symmetric diffusion).
    alpha_range : (lo, hi), 0 < lo < hi < 2, default (0.5, 1.5)
        Temporal Caputo-order interval. The parts below 1, the exact integer ``alpha = 1`` and the
        part above 1 are searched as separate branches sub / int / sup (paper Sec. 4.2).
    beta_range : (lo, hi), 0 <= lo < hi, default (0.5, 2.0)
        Spatial-order interval; ``lo = 0`` admits the identity term ``u`` (reaction).
    powers : tuple of int, default (0, 1, 2)
        Admitted powers ``p`` in the terms ``u^p X_beta u`` (paper Eq. 4). 2-D data admits
        linear terms only: pass ``powers=(0,)``.
    power_mode : {"auto", "raw", "positive"}, default "auto"
        ``positive`` uses ``max(u, 0)^p`` for the nonlinear weights (the paper's setting for
        nonnegative fields such as FADE), ``raw`` uses ``u^p`` (sign-changing fields); ``auto``
        picks ``positive`` when ``min(u) >= -1e-8 max|u|`` and ``raw`` otherwise. Unused in 2-D
        (linear terms only).
    max_terms : int, default 4
        Largest support size ``c_max`` of the sweep (paper Algorithm 1).
    test_functions : {"gaussian", "fourier"}, default "gaussian"
        Spatial test family (paper Sec. 3.1); temporal tests are always Gaussian. ``fourier`` is
        the paper's choice for periodic high-order Riesz cases (beta above ~2.4). 2-D uses
        Gaussian tests on every axis.
    test_counts : (K_t, K_x) or None, default None
        Numbers of temporal and spatial tests; None is the paper rule
        ``K_t = max(20, min(44, nt//3))``, ``K_x = max(32, min(80, nx//2))``. 2-D:
        ``(K_t, K_x, K_y)``, None applies the rule per axis (30 x 40 x 40 on 90 x 80 x 80).
    seed : int, default 0
        Seed of the train/validation row split and of differential evolution.
    popsize, maxiter : int, default 7, 24
        Differential-evolution population multiplier and generations (paper App. C).
    updating : {"deferred", "immediate"}, default "deferred"
        SciPy DE updating; ``deferred`` scores the population in one batched call (fast),
        ``immediate`` is the paper's original setting.
    ridge : float, default 1e-3
        Ridge ``lambda`` on column-normalised designs (paper Eqs. 20, 22).
    selection : {"elbow", "aic", "bic"}, default "elbow"
        Support-size selector on the Pareto front (paper Sec. 4.3, App. E).
    margin : float, default 0.15
        Two-point elbow margin on ``log10 E_val`` (paper Sec. 4.3).
    polish : bool, default True
        Exact-order Nelder–Mead polishing before the exact refit (paper Sec. 4.5).

    Fitted attributes
    -----------------
    equation_ : Equation       the selected, pruned, polished and refitted equation
    mode_, alpha_ : str, float temporal branch ("sub" | "int" | "sup") and order
    coef_, orders_, powers_ : arrays of the right-hand-side terms (order 0.0 = identity ``u``)
    directions_ : array of str, the axis each term's operator acts along ("x" or "y" in 2-D;
        "x" for every term in 1-D, where ``equation_`` terms carry ``direction=None``)
    pareto_front_ : list of dict, one per evaluated support size: size, train_error, val_error,
        on_front, equation (selection-stage text)
    selected_size_ : int, fit_error_ : float (relative all-row residual E_fit, paper Sec. 5.1)
    result_ : DiscoveryResult, grid_ : dict (nt, nx, dt, dx, period, power_mode, test_counts;
        2-D: nt, nx, ny, dt, dx, dy, period, period_y, test_counts)
    """

    def __init__(
        self,
        operator: str = "directional",
        alpha_range: tuple[float, float] = (0.5, 1.5),
        beta_range: tuple[float, float] = (0.5, 2.0),
        powers: tuple[int, ...] = (0, 1, 2),
        power_mode: str = "auto",
        max_terms: int = DEFAULT_C_MAX,
        test_functions: str = "gaussian",
        test_counts: tuple[int, int] | None = None,
        seed: int = 0,
        popsize: int = _SEARCH.popsize,
        maxiter: int = _SEARCH.maxiter,
        updating: str = _SEARCH.updating,
        ridge: float = _SEARCH.ridge,
        selection: str = _SELECTION.rule,
        margin: float = _SELECTION.margin,
        polish: bool = _REFINE.polish,
    ) -> None:
        self.operator = operator
        self.alpha_range = alpha_range
        self.beta_range = beta_range
        self.powers = powers
        self.power_mode = power_mode
        self.max_terms = max_terms
        self.test_functions = test_functions
        self.test_counts = test_counts
        self.seed = seed
        self.popsize = popsize
        self.maxiter = maxiter
        self.updating = updating
        self.ridge = ridge
        self.selection = selection
        self.margin = margin
        self.polish = polish

    # -- scikit-learn parameter protocol -----------------------------------------------------
    @classmethod
    def _param_names(cls) -> list[str]:
        sig = inspect.signature(cls.__init__)
        return [p for p in sig.parameters if p != "self"]

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The constructor parameters (``deep`` is accepted for scikit-learn compatibility)."""
        return {k: getattr(self, k) for k in self._param_names()}

    def set_params(self, **params: Any) -> WeakPareto:
        """Set constructor parameters; unknown names raise ``UserInputError``."""
        valid = self._param_names()
        for k, v in params.items():
            if k not in valid:
                raise UserInputError(f"unknown parameter {k!r}; valid: {', '.join(valid)}")
            setattr(self, k, v)
        return self

    def __repr__(self) -> str:
        defaults = {
            k: p.default
            for k, p in inspect.signature(type(self).__init__).parameters.items()
            if k != "self"
        }
        changed = [f"{k}={v!r}" for k, v in self.get_params().items() if not _same(v, defaults[k])]
        return f"{type(self).__name__}({', '.join(changed)})"

    # -- settings ---------------------------------------------------------------------------
    def discovery_config(self) -> DiscoveryConfig:
        """The :class:`DiscoveryConfig` of the current (validated) parameters."""
        p = check_params(self.get_params())
        return DiscoveryConfig(
            alpha_range=p["alpha_range"],
            beta_range=p["beta_range"],
            powers=p["powers"],
            c_max=p["max_terms"],
            operator=p["operator"],
            seed=p["seed"],
            search=SearchSettings(
                popsize=p["popsize"],
                maxiter=p["maxiter"],
                updating=p["updating"],
                vectorized=p["updating"] == "deferred",
                ridge=p["ridge"],
            ),
            selection=SelectionSettings(rule=p["selection"], margin=p["margin"]),
            refine=RefineSettings(polish=p["polish"]),
        )

    @staticmethod
    def resolve_power_mode(power_mode: str, u: np.ndarray) -> str:
        """``auto`` -> ``positive`` for a nonnegative field, ``raw`` otherwise."""
        if power_mode != "auto":
            return power_mode
        scale = float(np.max(np.abs(u)))
        return "positive" if float(np.min(u)) >= -NONNEG_RTOL * scale else "raw"

    # -- fitting ---------------------------------------------------------------------------
    def validate(
        self,
        u: Any,
        t: Any,
        x: Any,
        y: Any = None,
        period: Any = None,
        period_y: Any = None,
    ) -> CheckedField | CheckedField2D:
        """Check parameters and data without computing (raises ``UserInputError``)."""
        params = check_params(self.get_params())
        return _check_data(params, u, t, x, y, period, period_y)

    def fit(
        self,
        u: Any,
        t: Any,
        x: Any,
        y: Any = None,
        period: float | None = None,
        period_y: float | None = None,
    ) -> WeakPareto:
        """Discover an equation for ``u`` on uniform grids; returns ``self``.

        1-D: ``u`` is ``(nt, nx)`` on ``t``, ``x``. 2-D (paper Sec. "Extension to two spatial
        dimensions"): give ``y`` and ``u`` of shape ``(nt, nx, ny)``; the model is
        ``D_t^alpha u = sum_j xi_j X_{beta_j}^{(d_j)} u`` with linear terms only (``powers``
        must be ``(0,)``) and each term's operator acting along ``d_j in {"x", "y"}``
        (:attr:`directions_`). ``period`` is the x period, default ``nx * dx``
        (endpoint-excluded grid); ``period_y`` the y period, default ``ny * dy``.
        """
        cfg = self.discovery_config()  # validates the parameters
        field = _check_data(check_params(self.get_params()), u, t, x, y, period, period_y)
        return self._fit_checked(field, cfg)

    def _fit_checked(
        self, field: CheckedField | CheckedField2D, cfg: DiscoveryConfig
    ) -> WeakPareto:
        if isinstance(field, CheckedField2D):
            return self._fit_checked_2d(field, cfg)
        mode = cast(PowerMode, self.resolve_power_mode(self.power_mode, field.u))
        counts = check_params(self.get_params())["test_counts"]
        lib = weak_library(
            field.u,
            field.t,
            field.x,
            operator=cfg.operator,
            power_mode=mode,
            period=field.period,
            spatial_tests=cast(SpatialTests, self.test_functions),  # checked by check_params
            test_counts=counts,
        )
        res = discover(lib, cfg)
        grid = {
            "nt": field.shape[0],
            "nx": field.shape[1],
            "dt": field.dt,
            "dx": field.dx,
            "period": field.period,
            "power_mode": mode,
            "test_counts": [int(k) for k in lib.shape],
            "dropped_endpoint": field.dropped_endpoint,
        }
        self._set_fitted(res, grid)
        return self

    def _fit_checked_2d(self, field: CheckedField2D, cfg: DiscoveryConfig) -> WeakPareto:
        """2-D directional discovery (:func:`weakpareto.method.discovery_2d.discover_2d`)."""
        counts = check_params(self.get_params())["test_counts"]
        lib = weak_library_2d(
            field.u,
            field.t,
            field.x,
            field.y,
            operator=cast(SpectralKind, cfg.operator),  # directional | riesz (check_params)
            period=field.period,
            period_y=field.period_y,
            test_counts=counts,
        )
        res = discover_2d(lib, cfg)
        nt, nx, ny = field.shape
        grid = {
            "nt": nt,
            "nx": nx,
            "ny": ny,
            "dt": field.dt,
            "dx": field.dx,
            "dy": field.dy,
            "period": field.period,
            "period_y": field.period_y,
            "test_counts": [int(k) for k in lib.shape],
            "dropped_endpoint": field.dropped_endpoint,
            "dropped_endpoint_y": field.dropped_endpoint_y,
        }
        self._set_fitted(res, grid)
        return self

    def _set_fitted(self, res: DiscoveryResult, grid: dict[str, Any]) -> None:
        eq = res.final
        self.result_ = res
        self.grid_ = dict(grid)
        self.equation_ = eq
        self.mode_ = eq.mode
        self.alpha_ = float(eq.alpha)
        self.coef_ = np.array([t.coef for t in eq.terms], dtype=float)
        self.orders_ = np.array([t.order for t in eq.terms], dtype=float)
        self.powers_ = np.array([t.power for t in eq.terms], dtype=int)
        self.directions_ = np.array([t.direction or "x" for t in eq.terms], dtype=str)
        self.fit_error_ = float(res.fit_error)
        self.selected_size_ = int(res.selected_size)
        self.pareto_front_: list[dict[str, Any]] = [
            {
                "size": int(fp.size),
                "train_error": float(fp.train_error),
                "val_error": float(fp.val_error),
                "on_front": fp.size in res.pareto,
                "equation": fp.equation.text(),
            }
            for fp in res.front
        ]

    def _check_fitted(self) -> None:
        if not hasattr(self, "result_"):
            raise NotFittedError(
                f"this {type(self).__name__} is not fitted yet; call fit(u, t, x) first"
            )

    # -- reporting --------------------------------------------------------------------------
    def front_lines(self) -> list[str]:
        """The Pareto front as text lines (``*`` marks the selected size)."""
        self._check_fitted()
        lines = [
            "Pareto front (best model per support size, selection stage; * = selected):",
            f"  {'size':>6}  {'train_error':>11}  {'val_error':>11}  {'front':>5}  equation",
        ]
        for row in self.pareto_front_:
            mark = "*" if row["size"] == self.selected_size_ else " "
            lines.append(
                f"  {mark}{row['size']:>5}  {row['train_error']:>11.4e}  {row['val_error']:>11.4e}"
                f"  {'yes' if row['on_front'] else 'no':>5}  {row['equation']}"
            )
        return lines

    def print(self) -> None:
        """Print the Pareto front and the selected equation (after pruning, polish and refit)."""
        self._check_fitted()
        for line in self.front_lines():
            print(line)
        print(f"selected ({self.mode_} branch, E_fit {self.fit_error_:.3e}):")
        print(f"  {self.equation_.text()}")

    # -- serialisation ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-safe state. Fitted models put the equation at the top level::

            {"equation": str, "mode": "sub"|"int"|"sup", "alpha": float, "operator": str,
             "terms": [{"power": int, "order": float, "coef": float}, ...],
             (2-D terms also carry "direction": "x" | "y")
             "pareto_front": [{"size", "val_error", "train_error", "on_front", "equation"}, ...],
             "selected_size", "fit_error", "grid", "params", "result", "weakpareto_version"}

        An identity term has ``"order": 0.0``. Unfitted models give only ``params`` and
        ``weakpareto_version``.
        """
        out: dict[str, Any] = {}
        if hasattr(self, "result_"):
            out.update(self.equation_.to_dict())
            out["pareto_front"] = [
                {
                    "size": r["size"],
                    "val_error": _finite_or_none(r["val_error"]),
                    "train_error": _finite_or_none(r["train_error"]),
                    "on_front": bool(r["on_front"]),
                    "equation": r["equation"],
                }
                for r in self.pareto_front_
            ]
            out["selected_size"] = self.selected_size_
            out["fit_error"] = _finite_or_none(self.fit_error_)
            out["grid"] = dict(self.grid_)
            out["result"] = result_to_dict(self.result_)
        out["params"] = {k: _json_param(v) for k, v in self.get_params().items()}
        out["weakpareto_version"] = _version()
        return out

    def to_json(self, indent: int | None = 2) -> str:
        """:meth:`to_dict` as strict JSON text."""
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> WeakPareto:
        """Rebuild an estimator (fitted if ``d`` holds a result) from :meth:`to_dict` output."""
        params = dict(d.get("params", {}))
        for k in ("alpha_range", "beta_range", "powers", "test_counts"):
            if isinstance(params.get(k), list):
                params[k] = tuple(params[k])
        model = cls().set_params(**params)
        if "result" in d:
            model._set_fitted(result_from_dict(d["result"]), d.get("grid", {}))
        return model

    @classmethod
    def from_json(cls, text: str) -> WeakPareto:
        """Inverse of :meth:`to_json`."""
        return cls.from_dict(json.loads(text))


def _check_data(
    params: dict[str, Any],
    u: Any,
    t: Any,
    x: Any,
    y: Any = None,
    period: Any = None,
    period_y: Any = None,
) -> CheckedField | CheckedField2D:
    """Validate the data (1-D without ``y``, 2-D with it) and the dimension-specific parameters.

    ``params`` is the output of :func:`check_params`.
    """
    if y is None:
        if period_y is not None:
            raise UserInputError(
                "period_y= applies to 2-D data only; pass the y grid too, or drop period_y"
            )
        field: CheckedField | CheckedField2D = check_field(u, t, x, period)
        check_spatial_dims(params, 1)
        return field
    if isinstance(y, numbers.Number):
        raise UserInputError(
            f"y={y!r} is a number, not a grid; pass the x period by keyword, "
            "fit(u, t, x, period=L), or y as the array of y coordinates"
        )
    check_spatial_dims(params, 2)
    return check_field_2d(u, t, x, y, period, period_y)


def _version() -> str:
    return __version__


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return list(a) == list(b)
    return bool(a == b)
