"""Strong-Pareto's pointwise library (paper Sec. 5.4 comparator;
docs/method/baselines.md#strong-pareto).

The strong-form comparator uses the same continuous-order search as Weak-Pareto, but its rows
are the grid nodes themselves instead of weak projections. Rows are the nodes left after
removing ``trim_t`` time rows at both ends and ``trim_x`` spatial columns at both ends, flattened
time-major (row ``i*nx' + j``); FADE with trim (5, 0) keeps rows 5..144, i.e. 140 x 120 = 16800.

* Target (docs/method/operators.md#pointwise-operators): the pointwise temporal operator applied
  to the (noisy) field — ``D1``
  (central interior, one-sided ends) at ``alpha = 1``; the L1 formula for ``0 < alpha < 1``;
  ``L1_{alpha-1}`` applied to the ``D1``-differentiated field for ``1 < alpha < 2``. Row 0 of the
  two fractional branches is set to NaN (it is trimmed away for every ``trim_t >= 1``;
  non-finite rows are dropped by the Gram tables otherwise).
* Columns: ``P(U) * (X_beta U)`` node by node, ``P`` the power field of the weak
  library (positive-part or raw powers, ``p = 0`` → ones), ``X_beta`` the periodic spectral
  multiplier applied to each time slice (real part) or, for ``gl_left``, the left
  Grünwald–Letnikov matrix along space. ``beta = 0`` is the identity.

The temporal matrices, the power field and the spectral multipliers are those of
:mod:`weakpareto.library.weak` and :mod:`weakpareto.numerics.operators`; nothing is re-derived here.
Pass the result to :func:`weakpareto.method.discovery.discover` with
``RefineSettings(polish=False, refit=False)`` to run Strong-Pareto exactly as the reference code
did (docs/method/search.md#final-exact-refit).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from weakpareto._typing import Array
from weakpareto.library.weak import PowerMode, power_field, temporal_matrices, uniform_step
from weakpareto.numerics import operators as ops
from weakpareto.records import Mode, OperatorKind


@dataclass
class PointwiseLibrary:
    """Pointwise (strong-form) features of one (noisy) field on the trimmed grid.

    Implements the :class:`weakpareto.library.gram.FeatureSource` protocol: ``targets`` and
    ``columns``     return ``(G, n_rows)`` arrays at any orders (batched over the orders).
    """

    u: Array
    dt: float
    dx: float
    period: float
    operator: OperatorKind
    power_mode: PowerMode
    trim_t: int = 0
    trim_x: int = 0
    _cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        nt, nx = self.u.shape
        if self.trim_t < 0 or self.trim_x < 0:
            raise ValueError(f"trims must be >= 0, got ({self.trim_t}, {self.trim_x})")
        if nt - 2 * self.trim_t < 1 or nx - 2 * self.trim_x < 1:
            raise ValueError(
                f"trim ({self.trim_t}, {self.trim_x}) leaves no nodes of a {nt}x{nx} field"
            )

    @property
    def shape(self) -> tuple[int, int]:
        """Shape ``(nt', nx')`` of the trimmed node grid."""
        nt, nx = self.u.shape
        return nt - 2 * self.trim_t, nx - 2 * self.trim_x

    @property
    def n_rows(self) -> int:
        a, b = self.shape
        return a * b

    def trim(self, fields: Array) -> Array:
        """Keep the interior nodes of fields ``(..., nt, nx)`` and flatten: ``(..., n_rows)``."""
        nt, nx = fields.shape[-2:]
        sub = fields[..., self.trim_t : nt - self.trim_t, self.trim_x : nx - self.trim_x]
        return sub.reshape(fields.shape[:-2] + (-1,))

    # -- building blocks -------------------------------------------------------------------
    def temporal_apply(self, alphas: Array, mode: Mode) -> Array:
        """``D_h^alpha U`` on the full grid for each alpha: ``(G, nt, nx)``
        (docs/method/operators.md#pointwise-operators)."""
        alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
        mats = temporal_matrices(self.u.shape[0], self.dt, alphas, mode, "l1")
        out = mats @ self.u
        if mode != "int":
            out[:, 0, :] = np.nan  # the L1 formula has no value at t_0
        return out

    def spatial_apply(self, f: Array, betas: Array) -> Array:
        """``X_beta f`` along the last axis for every beta: ``(G,) + f.shape``."""
        betas = np.atleast_1d(np.asarray(betas, dtype=float))
        if self.operator in ("directional", "riesz"):
            if "kappa" not in self._cache:
                self._cache["kappa"] = ops.wavenumbers(f.shape[-1], self.period)
            mult = ops.spectral_multiplier(self.operator, self._cache["kappa"], betas)
            out = ops.apply_multiplier(
                f[None], mult.reshape((betas.size,) + (1,) * (f.ndim - 1) + (-1,))
            )
        else:
            mats = ops.grunwald_letnikov_left_matrix(f.shape[-1], self.dx, betas)  # (G, n, n)
            out = np.einsum("...j,gij->g...i", f, mats)
        out[betas == 0.0] = f  # the identity candidate exactly (no FFT round-off)
        return out

    # -- FeatureSource ---------------------------------------------------------------------
    def targets(self, alphas: Array, mode: Mode) -> Array:
        """Pointwise targets ``(D_h^alpha U)`` on the trimmed nodes: ``(G, n_rows)``."""
        return self.trim(self.temporal_apply(alphas, mode))

    def columns(self, power: int, betas: Array) -> Array:
        """Pointwise columns ``P(U) * X_beta U`` on the trimmed nodes: ``(G, n_rows)``."""
        betas = np.atleast_1d(np.asarray(betas, dtype=float))
        fields = self.spatial_apply(self.u, betas)
        if power != 0:
            fields = power_field(self.u, power, self.power_mode)[None] * fields
        return self.trim(fields)


def pointwise_library(
    u: Array,
    t: Array,
    x: Array,
    operator: OperatorKind,
    power_mode: PowerMode = "raw",
    trim_t: int = 0,
    trim_x: int = 0,
    period: float | None = None,
) -> PointwiseLibrary:
    """Build the Strong-Pareto pointwise library of a field on its grid
    (docs/method/baselines.md#strong-pareto).

    ``u`` is used as given (no copy for float64 input), so a weak library built from the same
    array sees the identical noisy realisation. ``period`` defaults to ``nx * dx``.
    """
    u = np.asarray(u, dtype=float)
    t, x = np.asarray(t, dtype=float), np.asarray(x, dtype=float)
    if u.shape != (t.size, x.size):
        raise ValueError(f"field shape {u.shape} does not match the grid ({t.size}, {x.size})")
    dt, dx = uniform_step(t, "t"), uniform_step(x, "x")
    return PointwiseLibrary(
        u=u,
        dt=dt,
        dx=dx,
        period=float(period) if period is not None else dx * x.size,
        operator=operator,
        power_mode=power_mode,
        trim_t=int(trim_t),
        trim_x=int(trim_x),
    )
