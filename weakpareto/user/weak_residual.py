"""The weak residual of a fitted equation per test function, for the fit page's residual map.

For the selected equation ``T_{m,alpha} u = sum_j xi_j u^{p_j} X_{beta_j} u`` the weak system is
``b = Theta xi + r``: one row per test function (temporal test k_t times spatial test k_x). The
estimator keeps neither that system nor its feature source, so it is rebuilt here from what the
fitted estimator exposes — its settings (``fit_spec()``), the chosen domain and power mode
(``grid_``) — and the data: the field is made dimensionless exactly as the fit did
(:mod:`weakpareto.user.scaling`, ``Scales.of`` and ``dimensionless``), the feature source of the
fit is built again (:func:`weakpareto.fit.sources.build_source`), and the equation's
coefficients are mapped back to the dimensionless system by the inverse of the scaling's power
law. ``b`` and ``Theta`` are evaluated directly at the selected orders, as the final refit does,
and with the same nuisance directions profiled out (the super-unit ``u'(0)`` of
``weak_pareto_exact``, :func:`weakpareto.method.exact_fit.profiled_system`), so
``||r|| / ||b||`` is the fit's E_fit — except for noise-aware scoring (``weak_pareto_exact``),
whose E_fit comes from the noise-corrected Gram matrix while the map shows the raw residual, and
after a trajectory refit (``refit=auto``, :mod:`weakpareto.fit.trajectory`), whose equation is
not the weak estimate E_fit belongs to: the map is then the weak residual of the refitted model.

Nothing is computed for fits without weak equations (methods that build their own features)
or for several experiments fitted together; the reason is returned instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from weakpareto.fit.sources import FitField, build_source
from weakpareto.library.weak import PowerMode
from weakpareto.method.exact_fit import profiled_system
from weakpareto.user.scaling import Scales
from weakpareto.user.validation import CheckedField, CheckedField2D


@dataclass(frozen=True)
class ResidualMap:
    """Weak residual per test function, divided by the RMS of the weak target ``b``."""

    values: np.ndarray  # (K_t, K_x); 2-D data: RMS over the y tests
    relative: float  # ||r|| / ||b|| over all rows
    shape: tuple[int, ...]  # the test counts of the source
    note: str  # how the map was reduced, if it was
    noise_corrected: bool = False  # the fit's E_fit removes the expected noise energy


def _field_of(unitless: CheckedField | CheckedField2D) -> FitField:
    y = period_y = None
    if isinstance(unitless, CheckedField2D):
        y, period_y = unitless.y, unitless.period_y
    # period_given: the domain is the fit's (grid_), not chosen again
    return FitField(unitless.u, unitless.t, unitless.x, y, unitless.period, period_y, True)


def _column_index(term: Any, two_d: bool) -> int:
    """The source's column family of a term: its power, or its direction in 2-D."""
    if two_d:
        return 1 if term.direction == "y" else 0
    return int(term.power)


def weak_residual_map(model: Any, field: CheckedField | CheckedField2D) -> ResidualMap | str:
    """The residual map of a fitted :class:`~weakpareto.user.estimator.WeakPareto` on the field
    it was fitted to, or the reason there is none."""
    grid = model.grid_
    if int(grid.get("n_experiments", 1)) > 1:
        return "several experiments were fitted together; the map covers one field"
    if any(t.forcing is not None for t in model.equation_.terms):
        return "the equation has known forcing terms, whose fields the fitted model does not keep"
    spec = model.fit_spec()
    if spec.features != "weak" or any(w.code == "no_diagnostics" for w in model.warnings_):
        return f"method={model.method} builds its own features: it has no weak equations"
    if "domain" not in grid:
        return "the fit does not record its domain"
    two_d = isinstance(field, CheckedField2D)
    scales = Scales.of(field)
    unitless = scales.dimensionless(field)
    power_mode: PowerMode = "positive" if grid.get("power_mode") == "positive" else "raw"
    _, source = build_source(_field_of(unitless), spec, str(grid["domain"]), power_mode)
    eq = model.equation_
    alpha = 1.0 if eq.mode == "int" else float(eq.alpha)
    b = np.asarray(source.targets(np.array([alpha]), eq.mode)[0], dtype=float)
    theta = np.zeros((b.size, len(eq.terms)))
    xi = np.zeros(len(eq.terms))
    for j, term in enumerate(eq.terms):
        idx = _column_index(term, two_d)
        theta[:, j] = source.columns(idx, np.array([float(term.order)]))[0]
        factor = scales.log_factor(term.power, alpha, float(term.order), term.direction)
        xi[j] = float(term.coef) * math.exp(-factor)
    b, theta = profiled_system(source, eq.mode, alpha, b, theta)  # the rows E_fit scored
    r = b - theta @ xi
    norm_b = float(np.linalg.norm(b))
    rms_b = norm_b / math.sqrt(b.size) if b.size else 1.0
    shape = tuple(int(k) for k in (getattr(source, "shape", None) or grid.get("test_counts", [])))
    note = ""
    if len(shape) >= 2 and int(np.prod(shape)) == r.size:
        values = r.reshape(shape)
        if values.ndim == 3:
            values = np.sqrt(np.mean(values**2, axis=2))
            note = f"RMS over the {shape[2]} y tests"
    else:
        values = r[None, :]
        note = "rows in source order (the source has no test-function grid)"
    scale = rms_b if rms_b > 0 else 1.0
    relative = float(np.linalg.norm(r)) / norm_b if norm_b > 0 else math.nan
    corrected = spec.discovery.noise_model != "none" and not two_d
    return ResidualMap(values / scale, relative, shape, note, corrected)
