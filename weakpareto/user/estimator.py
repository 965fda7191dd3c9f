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
orders exactly (Eq. 22). Bad input raises a ``ValueError`` (:mod:`weakpareto.user.validation`).
A fit runs with one BLAS thread: its algebra is small, more threads only wait on each other
(2.5x the CPU of the FADE example), and one thread gives ``wp run``'s bits on any machine.

Two spatial dimensions (paper Sec. "Extension to two spatial dimensions"): ``fit(u, t, x, y)``
with ``u`` of shape ``(nt, nx, ny)``, linear terms only and a direction ``x`` or ``y`` per term,
searched with the orders (:func:`weakpareto.method.discovery_2d.discover_2d`).

>>> WeakPareto(alpha_range=(0.55, 1.25), beta_range=(0.5, 2.5), powers=(0,)).fit(
...     u, t, x, y).equation_.text()                                 # doctest: +SKIP
'D_t^0.8494 u = 0.3015 D_x^1.7000 u + 0.2020 D_y^1.3974 u'

Several experiments of one equation (other initial conditions, lengths or grids):
``fit([u1, u2, u3], [t1, t2, t3], [x1, x2, x3])`` (one ``t``/``x`` shared by all is accepted)
fits one equation to the pooled weak rows of all of them (:mod:`weakpareto.user.experiments`,
:mod:`weakpareto.library.pooled`); ``n_experiments_`` and ``experiment_rows_`` record them.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Sequence
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from weakpareto._version import __version__
from weakpareto.errors import UserInputError
from weakpareto.fit.checks import FitWarning, units_warning
from weakpareto.fit.kinds import check_supported
from weakpareto.fit.run import resolve_power_mode
from weakpareto.fit.sources import FitData
from weakpareto.fit.spec import Bootstrap, FitSpec, groups_of_params, spec_from_groups
from weakpareto.method.settings import (
    DEFAULT_C_MAX,
    DEFAULT_USER_METHOD,
    DiscoveryConfig,
    method_settings,
)
from weakpareto.records import DiscoveryResult
from weakpareto.user.checked_data import check_data, with_mask
from weakpareto.user.experiments import (
    ExperimentArgs,
    check_experiments,
    dimensionless_fields,
    fit_data,
    period_given,
    split_experiments,
)
from weakpareto.user.fit_checks import fit_checks
from weakpareto.user.forcing import CheckedForcing, check_forcing, given_coefficients, with_forcing
from weakpareto.user.front_text import front_lines
from weakpareto.user.grid_record import experiment_rows, experiments_grid, field_grid
from weakpareto.user.operator_default import (
    default_operator_spec,
    resolve_operator,
    searched_operator,
)
from weakpareto.user.record_options import with_history, with_noise, with_refit
from weakpareto.user.saved_state import (
    check_state_params,
    fitted_state,
    parse_state_json,
    state_params,
)
from weakpareto.user.scaling import Scales
from weakpareto.user.serialise import (
    as_float,
    changed_params,
    finite_or_none,
    json_param,
    result_to_dict,
)
from weakpareto.user.skew_report import skewed_entries, skewed_lines
from weakpareto.user.tempering import fit_tempered, tempering_record
from weakpareto.user.uncertainty_report import (
    DEFAULT_LEVEL,
    DEFAULT_N_BOOT,
    Uncertainty,
    check_uncertainty,
    interval_warnings,
    uncertainty_of,
)
from weakpareto.user.validation import (
    CheckedField,
    CheckedField2D,
    check_params,
)

# The method's defaults are conf/'s (weakpareto.method.settings): one set for Python and CLI.
_SEARCH, _SELECTION, _REFINE = method_settings(DEFAULT_USER_METHOD)

#: Significant digits of printed coefficients (``Equation.text(sig_digits=...)``): a
#: coefficient is never shown as 0.0000, whatever the units of the data.
SIG_DIGITS = 4


class NotFittedError(ValueError, AttributeError):
    """The estimator is used before :meth:`WeakPareto.fit` (as in scikit-learn)."""


class WeakPareto:
    """Weak-form, continuous-order Pareto discovery of a fractional PDE (paper Algorithm 1).

    Parameters (defaults are the method's constants in ``conf/`` — the paper's, App. C — except
    the search ranges, which the paper declares per benchmark in tab:searchranges and which here
    default to a generic range)
    ----------
    operator : {None, "auto", "directional", "riesz"} or a tempered family, default None
        Periodic spatial operator family (paper Eqs. 2-3): ``directional`` has multiplier
        ``(i kappa)^beta`` (beta=1 is ``u_x``; transport), ``riesz`` has ``-|kappa|^beta``
        (beta=2 is ``u_xx``; symmetric diffusion); ``auto`` chooses each term's family from
        the data. None: ``auto`` where implemented (1-D periodic weak Pareto fits; options that
        fit one family take the family a plain ``auto`` fit chooses), else ``directional`` with
        an info note (:mod:`weakpareto.user.operator_default`).
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
        Spatial test family (paper Sec. 3.1); temporal tests are Gaussian, and so are all in 2-D.
        ``fourier`` is the paper's choice for periodic high-order Riesz cases (beta above ~2.4).
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
    method : {"weak_pareto_exact", "weak_pareto_robust", "weak_pareto"}, default
        "weak_pareto_exact"; every ``conf/method`` option is accepted (each with its own
        selector), methods tied to the FADE grid (``yu_*``) are refused. ``weak_pareto_exact``
        (ours, docs/method/extensions.md#user-methods) is ``weak_pareto_robust`` with the
        Caputo derivative moved exactly onto compactly supported temporal tests and noise-aware
        (errors-in-variables) scoring (``conf/method/weak_pareto_exact.yaml``); 2-D fields and
        bounded windows use the L1 target (an info note says so).
        ``weak_pareto`` is the paper's method (Algorithm 1: signed-chord elbow on search-stage
        models, refit with the search's ridge). ``weak_pareto_robust`` (ours) keeps its search
        but selects with the per-term gain rule on pruned, polished, exactly refitted models
        (with backward elimination), keeps searching while no model explains half of the
        target, and refits the final coefficients by least squares (``conf/method/
        weak_pareto_robust.yaml``, ``conf/selection/gain.yaml``). It recovers fronts that fall
        convexly (Kuramoto–Sivashinsky, 2-D), where the elbow keeps a one-term model.
    selection : {None, "elbow", "aic", "bic", "gain"}, default None
        Support-size selector on the Pareto front (paper Sec. 4.3, App. E); None is the
        method's own (``gain`` for weak_pareto_exact/_robust, ``elbow`` for weak_pareto).
    margin : float, default 0.15
        Margin on ``log10 E_val``: the paper's two-point elbow margin (Sec. 4.3), per added
        term for the gain rule.
    polish : bool, default True
        Exact-order Nelder–Mead polishing before the exact refit (paper Sec. 4.5).
    domain : {"auto", "periodic", "bounded"}, default "auto"
        ``periodic``: FFT operators over one period (the paper); ``bounded``: a window of a
        larger system (1-D; docs/bounded-windows.md); ``auto``: periodic when the edges pass
        :func:`weakpareto.fit.domain.periodicity` or ``period=`` is given, else bounded;
        ``grid_["domain"]``/``["domain_reason"]`` say which and why (:mod:`weakpareto.fit.domain`).
    uncertainty : {None, "bootstrap"}, default None; n_boot : int, 200; level : float, 0.9
        ``bootstrap`` (ours): intervals at ``level`` from ``n_boot`` block resamples of the weak
        equations (alpha, orders and coefficients refit on the support), inclusion frequencies,
        S_beta and ``identifiability`` warnings (:mod:`weakpareto.user.uncertainty_report`).
    history : {"none", "unknown"}, "none"; noise_kind : {"measurement", "intrinsic"}
        ``unknown`` (ours): the record starts after the onset (:mod:`weakpareto.fit.history`,
        an onset fitted with ``refit``: :mod:`weakpareto.fit.history_onset`); ``intrinsic``:
        particle fluctuations corrected (:mod:`weakpareto.fit.intrinsic`).
    refit : {"auto", "weak", "trajectory"}, default "auto"
        ``auto`` (ours): a selected linear model of a periodic 1-D field refitted to the samples
        (:mod:`weakpareto.fit.trajectory`); ``weak``: the weak estimate (the paper's).
    tempering : float or None, default None
        lambda (1/x units) of ``operator="tempered"`` / ``"tempered_riesz"`` / ``"a+tempered"``;
        None estimates it (:mod:`weakpareto.user.tempering`); fitted: ``tempering_``, in grid_.

    Fitted attributes
    -----------------
    equation_ : Equation       the selected, pruned, polished and refitted equation
    mode_, alpha_ : str, float temporal branch ("sub" | "int" | "sup") and order
    coef_, orders_, powers_ : arrays of the right-hand-side terms (order 0.0 = identity ``u``)
    directions_ : array of str, the axis each term's operator acts along ("x" or "y" in 2-D;
        "x" for every term in 1-D, where ``equation_`` terms carry ``direction=None``)
    forcing_ : array of str, the known field a term multiplies ("" for operator terms)
    pareto_front_ : list of dict, one per evaluated support size: size, train_error, val_error,
        on_front, equation (selection-stage text)
    selected_size_ : int, fit_error_ : float (relative all-row residual E_fit, paper Sec. 5.1)
    warnings_ : list of FitWarning (code, level "warning" | "info", message naming the fix),
        the diagnostics of :mod:`weakpareto.fit.checks`; printed by :meth:`print`
    noise_level_ : float, apparent noise of u relative to std(u)
    uncertainty_ : Uncertainty | None; with a bootstrap also intervals_ : dict of (lo, hi) in
        the data's units ``{"alpha", "orders": [...], "coef": [...]}``, inclusion_ : array
    result_ : DiscoveryResult, grid_ : dict (grid steps and sizes, period(s), power_mode,
        test_counts, scales, noise_level, noise_floor; several experiments: one record each)
    n_experiments_ : int, experiment_rows_ : tuple of int — the experiments fitted together and
        the number of weak equations of each (one experiment: ``(K,)``)

    Units: the search runs on the non-dimensionalised field (:mod:`weakpareto.user.scaling`:
    u / max|u|, t and x in grid steps) and every fitted attribute is in the data's units —
    orders unchanged, coefficients rescaled exactly — so the result does not depend on the
    units of u, t and x. ``grid_["scales"]`` holds the scales (u, t, x[, y], origins).
    """

    def __init__(
        self,
        operator: str | None = None,
        alpha_range: tuple[float, float] = (0.5, 1.5),
        beta_range: tuple[float, float] = (0.5, 2.0),
        powers: tuple[int, ...] = (0, 1, 2),
        power_mode: str = "auto",
        max_terms: int = DEFAULT_C_MAX,
        test_functions: str = "gaussian",
        test_counts: tuple[int, int] | None = None,
        seed: int = 0,
        method: str = DEFAULT_USER_METHOD,
        popsize: int = _SEARCH.popsize,
        maxiter: int = _SEARCH.maxiter,
        updating: str = _SEARCH.updating,
        ridge: float = _SEARCH.ridge,
        selection: str | None = None,
        margin: float = _SELECTION.margin,
        polish: bool = _REFINE.polish,
        domain: str = "auto",
        uncertainty: str | None = None,
        n_boot: int = DEFAULT_N_BOOT,
        level: float = DEFAULT_LEVEL,
        history: str = "none",
        tempering: float | None = None,
        noise_kind: str = "measurement",
        refit: str = "auto",
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
        self.method = method
        self.popsize = popsize
        self.maxiter = maxiter
        self.updating = updating
        self.ridge = ridge
        self.selection = selection
        self.margin = margin
        self.polish = polish
        self.domain = domain
        self.uncertainty = uncertainty
        self.n_boot = n_boot
        self.level = level
        self.history, self.tempering, self.noise_kind = history, tempering, noise_kind
        self.refit = refit

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
        changed = changed_params(self.get_params(), defaults)
        return f"{type(self).__name__}({', '.join(changed)})"

    # -- settings ---------------------------------------------------------------------------
    def fit_spec(self) -> FitSpec:
        """The :class:`~weakpareto.fit.spec.FitSpec` of the current (validated) parameters:
        the method's ``conf/`` settings, each parameter written into its config key
        (:data:`weakpareto.fit.names.PARAMETERS`), the same translation as ``wp run``. Without
        ``operator``: ``auto`` where the other parameters allow it, else ``directional``
        (:mod:`weakpareto.user.operator_default`; the data may still narrow it at the fit)."""
        if self.operator is None:
            return default_operator_spec(self._spec_of)
        return self._spec_of(self.operator)

    def _spec_of(self, operator: str, plain: bool = False) -> FitSpec:
        """:meth:`fit_spec` with the given operator; ``plain``: without the options that fit
        one operator family (bootstrap, history, intrinsic noise)."""
        p = check_params({**self.get_params(), "operator": operator})
        unc = check_uncertainty(self.get_params())
        boot = None if unc["uncertainty"] is None else Bootstrap(unc["n_boot"], unc["level"])
        spec = spec_from_groups(
            groups_of_params(p), p["seed"], domain=p["domain"], uncertainty=None if plain else boot
        )
        check_supported(spec, two_dims=False, domain="periodic", rescaled=True)  # before any data
        spec = with_refit(spec, self.refit)
        if plain:
            return spec
        return with_noise(with_history(spec, self.history), self.noise_kind)

    def _operator_for(self, data: FitData, scales: Scales) -> tuple[FitSpec, list[FitWarning]]:
        """The spec of a fit without ``operator`` (:func:`resolve_operator`)."""
        return resolve_operator(
            self._spec_of,
            lambda op: self._spec_of(op, plain=True),
            data,
            lambda spec, d: fit_tempered(d, spec, scales)[0].result.final,
        )

    def discovery_config(self) -> DiscoveryConfig:
        """The :class:`DiscoveryConfig` of the current (validated) parameters."""
        return self.fit_spec().discovery

    @staticmethod
    def resolve_power_mode(power_mode: str, u: np.ndarray) -> str:
        """``auto`` -> ``positive`` for a nonnegative field, ``raw`` otherwise."""
        return resolve_power_mode(power_mode, u)

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
        self._period_given = period is not None or period_y is not None
        return check_data(params, u, t, x, y, period, period_y)

    def validate_experiments(
        self, experiments: Sequence[ExperimentArgs], names: Sequence[str] | None = None
    ) -> tuple[CheckedField | CheckedField2D, ...]:
        """Check parameters and several experiments without computing (raises
        ``UserInputError`` naming the experiment; ``names`` label them, e.g. their files)."""
        params = check_params(self.get_params())
        checked = check_experiments(params, experiments, names)
        self._period_given = any(
            period_given(e.period) or period_given(e.period_y) for e in experiments
        )
        return checked

    def fit(
        self,
        u: Any,
        t: Any,
        x: Any,
        y: Any = None,
        period: Any = None,
        period_y: Any = None,
        forcing: Any = None,
        forcing_coef: Any = None,
        mask: Any = None,
    ) -> WeakPareto:
        """Discover an equation for ``u``; returns ``self`` (``mask``: True = missing sample).

        1-D: ``u`` is ``(nt, nx)`` on ``t``, ``x``. 2-D (paper Sec. "Extension to two spatial
        dimensions"): give ``y`` and ``u`` of shape ``(nt, nx, ny)``; the model is
        ``D_t^alpha u = sum_j xi_j X_{beta_j}^{(d_j)} u`` with linear terms only (``powers``
        must be ``(0,)``) and each term's operator acting along ``d_j in {"x", "y"}``
        (:attr:`directions_`). ``period`` is the x period, default ``nx * dx``
        (endpoint-excluded grid); ``period_y`` the y period, default ``ny * dy``.

        Several experiments of one equation: ``u`` a list of arrays, one per experiment, and
        ``t``, ``x`` (``y``, ``period``, ``period_y``) lists with one entry per experiment or
        a single value shared by all; one equation is fitted to their pooled weak rows
        (:mod:`weakpareto.user.experiments`).

        Known forcing (1-D, one experiment): ``forcing=f`` (u's shape) or ``{"name": f, ...}``
        adds candidate terms ``c_f f`` with estimated coefficients; ``forcing_coef=`` (a number,
        or ``{"name": c}``) gives known ones (:mod:`weakpareto.user.forcing`).
        """
        spec = self.fit_spec()  # validates the parameters
        params = check_params(self.get_params())
        self._period_given = period_given(period) or period_given(period_y)
        experiments = split_experiments(with_mask(u, mask), t, x, y, period, period_y)
        if experiments is not None:
            fields = check_experiments(params, experiments)
            return self._fit_checked(fields, spec, check_forcing(fields, forcing, forcing_coef))
        field = check_data(params, with_mask(u, mask), t, x, y, period, period_y)
        return self._fit_checked(field, spec, check_forcing(field, forcing, forcing_coef))

    @threadpool_limits.wrap(limits=1)  # module docstring
    def _fit_checked(
        self,
        field: CheckedField | CheckedField2D | tuple[CheckedField | CheckedField2D, ...],
        spec: FitSpec,
        forcing: tuple[CheckedForcing, ...] = (),
    ) -> WeakPareto:
        """Fit the non-dimensionalised field (or experiments), report in the data's units.

        :mod:`weakpareto.user.scaling`: u by max |u|, t and x (y) by their steps, origin
        shifted; orders are unit-free and every coefficient is mapped back by its exact power
        law, so the result does not depend on the units of the data. Several experiments
        share one set of scales (:meth:`Scales.common`).
        """
        fields: tuple[CheckedField | CheckedField2D, ...] = (
            field if isinstance(field, tuple) else (field,)
        )
        scales, unitless_fields = dimensionless_fields(fields)
        given = getattr(self, "_period_given", False)
        data = with_forcing(fit_data(unitless_fields, given), forcing, scales)
        operator_notes: list[FitWarning] = []
        if self.operator is None:  # the family the data allow (``spec`` decided before them)
            spec, operator_notes = self._operator_for(data, scales)
        outcome, lam, found = fit_tempered(data, spec, scales)  # fit(data, spec) untempered
        found = operator_notes + found
        raw = outcome.result
        grid = (
            field_grid(fields[0], outcome)
            if len(fields) == 1
            else experiments_grid(fields, outcome)
        )
        res, clipped = scales.result(raw)  # UserInputError if a final coef leaves float64
        grid["scales"] = scales.to_dict()
        grid["operator"] = searched_operator(spec)
        grid.update(tempering_record(lam, spec.tempering))  # {} without tempered families
        checks, level, floor = fit_checks(outcome, raw, unitless_fields, spec.method)
        found += checks
        if clipped:
            found.insert(0, units_warning(scales.u, scales.t, scales.x))
        domain_notes = outcome.domain.notes()
        found = domain_notes + found + [n for n in outcome.notes if n not in domain_notes]
        unc = uncertainty_of(self.get_params(), outcome, scales)
        found += [] if unc is None else interval_warnings(found, unc)
        grid["noise_level"] = level
        grid["noise_floor"] = floor
        self._set_fitted(given_coefficients(res, forcing), grid, found, unc)
        return self

    def _set_fitted(
        self,
        res: DiscoveryResult,
        grid: dict[str, Any],
        found: list[FitWarning] | None = None,
        unc: Uncertainty | None = None,
    ) -> None:
        eq = res.final
        self.uncertainty_ = unc
        if unc is not None:
            self.intervals_, self.inclusion_ = unc.intervals(), unc.inclusion()
        self.result_ = res
        self.grid_ = dict(grid)
        self.n_experiments_ = int(grid.get("n_experiments", 1))
        self.experiment_rows_ = experiment_rows(grid)
        self.warnings_: list[FitWarning] = list(found or [])
        self.noise_level_ = as_float(grid.get("noise_level"))
        self.tempering_ = grid.get("tempering")  # lambda of the tempered families (1/x units)
        self.equation_ = eq
        self.mode_ = eq.mode
        self.alpha_ = float(eq.alpha)
        self.coef_ = np.array([t.coef for t in eq.terms], dtype=float)
        self.orders_ = np.array([t.order for t in eq.terms], dtype=float)
        self.powers_ = np.array([t.power for t in eq.terms], dtype=int)
        self.directions_ = np.array([t.direction or "x" for t in eq.terms], dtype=str)
        self.forcing_ = np.array([t.forcing or "" for t in eq.terms], dtype=str)
        self.fit_error_ = float(res.fit_error)
        self.selected_size_ = int(res.selected_size)
        self.pareto_front_: list[dict[str, Any]] = [
            {
                "size": int(fp.size),
                "train_error": float(fp.train_error),
                "val_error": float(fp.val_error),
                "on_front": fp.size in res.pareto,
                "equation": fp.equation.text(sig_digits=SIG_DIGITS),
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
        refined = self.discovery_config().selection.refine_front
        return front_lines(self.pareto_front_, self.selected_size_, refined)

    def warning_lines(self) -> list[str]:
        """The diagnostics, one line each, starting with ``warning:`` or ``info:``."""
        self._check_fitted()
        return [w.line() for w in self.warnings_]

    def print(self) -> None:
        """Print the domain, the Pareto front, the selected equation (after pruning, polish and
        refit) and the diagnostics (lines starting with ``warning:`` / ``info:``)."""
        self._check_fitted()
        if "domain" in self.grid_:
            print(f"domain {self.grid_['domain']} ({self.grid_['domain_reason']})")
        for line in self.front_lines():
            print(line)
        print(f"selected ({self.mode_} branch, E_fit {self.fit_error_:.3e}):")
        print(f"  {self.equation_.text(sig_digits=SIG_DIGITS)}")
        print("".join(f"{line}\n" for line in skewed_lines(self.equation_, SIG_DIGITS)), end="")
        for line in [] if self.uncertainty_ is None else self.uncertainty_.lines(SIG_DIGITS):
            print(line)
        for line in self.warning_lines():
            print(line)

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
            out["equation"] = self.equation_.text(sig_digits=SIG_DIGITS)
            out.update(skewed_entries(self.equation_))  # {"skewed": [K, s, beta per pair]} or {}
            out["warnings"] = [w.to_dict() for w in self.warnings_]
            out["noise_level"] = finite_or_none(self.noise_level_)
            out["pareto_front"] = [
                {
                    "size": r["size"],
                    "val_error": finite_or_none(r["val_error"]),
                    "train_error": finite_or_none(r["train_error"]),
                    "on_front": bool(r["on_front"]),
                    "equation": r["equation"],
                }
                for r in self.pareto_front_
            ]
            out["selected_size"] = self.selected_size_
            out["fit_error"] = finite_or_none(self.fit_error_)
            out["grid"] = dict(self.grid_)
            out["result"] = result_to_dict(self.result_)
            if self.uncertainty_ is not None:
                out["uncertainty"] = self.uncertainty_.to_dict()
        out["params"] = {k: json_param(v) for k, v in self.get_params().items()}
        out["weakpareto_version"] = __version__
        return out

    def to_json(self, indent: int | None = 2) -> str:
        """:meth:`to_dict` as strict JSON text."""
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> WeakPareto:
        """Rebuild an estimator (fitted if ``d`` holds a result) from :meth:`to_dict` output."""
        model = cls().set_params(**state_params(d))
        check_state_params(model.get_params())
        if "result" in d:
            model._set_fitted(*fitted_state(d))
        return model

    @classmethod
    def from_json(cls, text: str) -> WeakPareto:
        """Inverse of :meth:`to_json`."""
        return cls.from_dict(parse_state_json(text))
