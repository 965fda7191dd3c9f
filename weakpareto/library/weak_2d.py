"""Two-dimensional directional extension of Weak-Pareto (paper Sec. "Extension to two spatial
dimensions", Eqs. twod-model, twod-a, twod-b; App. "Two-dimensional settings and sensitivity").

Model (paper Eq. twod-model): ``D_t^alpha u = sum_j xi_j X_{beta_j}^{(d_j)} u`` on a doubly
periodic domain, every term linear (power 0) and labelled with the direction ``d_j in {x, y}``
along which its spatial operator acts.

Weak system
-----------
* ``u`` has shape ``(nt, nx, ny)``; time is non-periodic, ``x`` and ``y`` are periodic with the
  endpoint excluded.
* Test functions are separable, ``phi_{a,l,m}(t, x, y) = vartheta_a(t) psi_l(x) chi_m(y)``:
  Gaussian rows in ``t`` (non-periodic), ``x`` and ``y`` (periodic), each l2-normalised
  (docs/method/two-d.md#test-functions). Counts follow the 1-D paper rule on every axis,
  ``K_t`` from ``nt`` and
  ``K_x``/``K_y`` from ``nx``/``ny`` (30 x 40 x 40 = 48 000 rows on 90 x 80 x 80); the temporal
  width is the 1-D rule and every spatial width the 1-D count-to-width rule on its own axis
  (``L/30`` for 40 tests).
* Rows are flattened ``k = (a*K_x + l)*K_y + m`` and quadrature is ``dt*dx*dy`` (uniform
  weights, so every discrete adjoint is a transpose, paper Eq. 12).
* Target: ``b_k(alpha) = dt dx dy sum (T D_h^alpha)[a,i] u[i,j,k] S_x[l,j] S_y[m,k]`` — the L1
  (subunit), ``D1`` (exact integer) or ``L1_{alpha-1} D1`` (superunit) transpose lands on the
  temporal tests.
* Column of direction ``d``: ``theta_k = <u, X_beta^{(d)*} phi_k>_h``; the conjugate
  directional multiplier acts on the spatial test of the axis named by ``d`` only.

Everything is a mode-wise tensor contraction: the field is contracted once with the temporal
tests and the test family of the *other* axis, and each order only touches the adjoint tests of
its own axis. No Kronecker product and no dense ``K x N`` matrix is ever formed.

Search
------
:class:`WeakLibrary2D` is a :class:`weakpareto.library.gram.FeatureSource` whose "power" index is
the **direction index** (``0 -> x``, ``1 -> y``). Because the 2-D model admits power 0 only,
``columns(d, betas)`` returns the direction-``d`` linear columns, ``power_patterns((0, 1), c)``
enumerates exactly the direction multisets, and the same-power duplicate penalty is the paper's
same-direction penalty. :func:`weakpareto.method.discovery_2d.discover_2d` therefore runs the
unchanged 1-D Algorithm 1 and only relabels the result: powers become 0 and the direction is
stored in :attr:`weakpareto.records.Term.direction`.

Deliberate difference from the reference 2-D code
(docs/method/reference-differences.md#two-dimensional-search): the paper says the search is
"otherwise unchanged", so our default is the paper's method — branch-aware (subunit, exact integer
and superunit branches searched separately, no interpolation across ``alpha = 1``), truth-agnostic
anchor starts, DE with the 1-D settings, the plateau and selection-stability stopping and the
signed-chord elbow of Algorithm 1 (as the paper words them — elbow over the best models of all
evaluated sizes, stability = elbow below ``c`` *and unchanged*; set by the 2-D benchmarks'
``tuning``, see :class:`weakpareto.method.selection.SelectionSettings` for where this differs from
the 1-D defaults), inactive-term pruning, exact-order polishing of the full-row relative residual
inside the branch and the beta trust region, and the exact-order refit. The reference 2-D script
instead uses one alpha grid interpolated straight across 1, Sobol-initialised DE without anchors,
evaluates every ``c`` without stopping and polishes the validation objective without a trust region;
none of these shortcuts is reproduced here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from weakpareto._typing import Array
from weakpareto.numerics import operators as ops
from weakpareto.numerics import windows as tf
from weakpareto.records import Mode

StabilityRule = Literal["paper", "reference"]
ElbowPoints = Literal["all", "front"]


#: Direction labels by direction index (the "power" index seen by the search).
DIRECTIONS: tuple[str, ...] = ("x", "y")
#: The powers a 2-D model may declare (linear terms only, paper Sec. subsec:twod).
ADMITTED_POWERS: tuple[int, ...] = (0,)


def _step(grid: Array) -> float:
    return float(grid[1] - grid[0]) if grid.size > 1 else 1.0


@dataclass
class WeakLibrary2D:
    """Weak features of one (noisy) 2-D field; a FeatureSource indexed by direction.

    ``targets(alphas, mode)`` and ``columns(direction, betas)`` evaluate exact features at any
    orders (batched, ``(G, K)``). ``direction`` is ``0`` (x) or ``1`` (y).
    """

    u: Array  # (nt, nx, ny)
    dt: float
    dx: float
    dy: float
    period_x: float
    period_y: float
    temporal_tests: Array  # (K_t, nt)
    x_tests: Array  # (K_x, nx)
    y_tests: Array  # (K_y, ny)
    operator: ops.SpectralKind = "directional"  # checked in __post_init__
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.u = np.asarray(self.u, dtype=float)
        if self.u.ndim != 3:
            raise ValueError(f"u must have shape (nt, nx, ny), got {self.u.shape}")
        nt, nx, ny = self.u.shape
        for name, rows, n in (
            ("temporal_tests", self.temporal_tests, nt),
            ("x_tests", self.x_tests, nx),
            ("y_tests", self.y_tests, ny),
        ):
            if rows.ndim != 2 or rows.shape[1] != n:
                raise ValueError(f"{name} must have shape (K, {n}), got {rows.shape}")
        if self.operator not in ("directional", "riesz"):
            raise ValueError(
                f"2-D operator must be 'directional' or 'riesz', not {self.operator!r}"
            )

    # -- geometry ---------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int, int]:
        """Test counts ``(K_t, K_x, K_y)``."""
        return (self.temporal_tests.shape[0], self.x_tests.shape[0], self.y_tests.shape[0])

    @property
    def n_rows(self) -> int:
        kt, kx, ky = self.shape
        return kt * kx * ky

    @property
    def quadrature(self) -> float:
        return self.dt * self.dx * self.dy

    def _tu(self) -> Array:
        """``(T u)[a, j, k]``: the field contracted with the temporal tests, ``(K_t, nx, ny)``."""
        if "tu" not in self._cache:
            self._cache["tu"] = np.tensordot(self.temporal_tests, self.u, axes=(1, 0))
        return self._cache["tu"]

    def _partial(self, direction: int) -> Array:
        """The field contracted with every test except the one of ``direction``'s axis.

        x: ``V[a, j, m] = sum T[a,i] u[i,j,k] S_y[m,k]`` ``(K_t, nx, K_y)``;
        y: ``V[a, l, k] = sum T[a,i] u[i,j,k] S_x[l,j]`` ``(K_t, K_x, ny)``.
        """
        key = f"partial{direction}"
        if key not in self._cache:
            tu = self._tu()
            if direction == 0:
                self._cache[key] = tu @ self.y_tests.T
            else:
                self._cache[key] = np.einsum("lj,ajk->alk", self.x_tests, tu, optimize=True)
        return self._cache[key]

    def _spatial_projection(self) -> Array:
        """``W[i, l, m] = sum u[i,j,k] S_x[l,j] S_y[m,k]`` ``(nt, K_x, K_y)`` for the targets."""
        if "w" not in self._cache:
            ux = np.einsum("ijk,lj->ilk", self.u, self.x_tests, optimize=True)
            self._cache["w"] = ux @ self.y_tests.T
        return self._cache["w"]

    def _axis(self, direction: int) -> tuple[Array, float]:
        if direction == 0:
            return self.x_tests, self.period_x
        if direction == 1:
            return self.y_tests, self.period_y
        raise ValueError(f"direction index must be 0 (x) or 1 (y), got {direction!r}")

    def adjoint_tests(self, direction: int, betas: Array) -> Array:
        """``X_beta^{(d)*}`` applied to the tests of axis ``d``: ``(G, K_d, n_d)``."""
        betas = np.atleast_1d(np.asarray(betas, dtype=float))
        tests, period = self._axis(direction)
        kappa = ops.wavenumbers(tests.shape[1], period)
        mult = ops.spectral_multiplier(self.operator, kappa, betas)  # (G, n_d)
        return ops.apply_multiplier_adjoint(tests[None], mult[:, None, :])

    def project(self, fields: Array) -> Array:
        """Weak rows of fields ``(..., nt, nx, ny)`` -> ``(..., K)`` (mode-wise contraction)."""
        f = np.asarray(fields, dtype=float)
        r = np.einsum("ai,...ijk->...ajk", self.temporal_tests, f, optimize=True)
        r = np.einsum("lj,...ajk->...alk", self.x_tests, r, optimize=True)
        r = r @ self.y_tests.T
        return self.quadrature * r.reshape(f.shape[:-3] + (-1,))

    # -- FeatureSource ----------------------------------------------------------------------
    def targets(self, alphas: Array, mode: Mode) -> Array:
        """Exact weak targets ``b(mode, alpha)``: ``(G, K)`` (paper Eq. 9 per test triple)."""
        alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
        nt = self.u.shape[0]
        mats = ops.caputo_matrices(nt, self.dt, alphas, mode)  # (G, nt, nt)
        t_op = self.temporal_tests @ mats  # (G, K_t, nt): the transpose lands on the tests
        w = self._spatial_projection()  # (nt, K_x, K_y)
        rows = np.tensordot(t_op, w, axes=(2, 0))  # (G, K_t, K_x, K_y)
        return self.quadrature * rows.reshape(alphas.size, -1)

    def columns(self, power: int, betas: Array) -> Array:
        """Exact direction-``power`` linear columns at each beta: ``(G, K)``.

        ``power`` is the direction index of the search encoding (0 -> x, 1 -> y); the 2-D
        model has no nonlinear terms.
        """
        betas = np.atleast_1d(np.asarray(betas, dtype=float))
        d = int(power)
        adj = self.adjoint_tests(d, betas)  # (G, K_d, n_d)
        v = self._partial(d)
        if d == 0:  # sum_j V[a, j, m] A[g, l, j]
            rows = np.einsum("glj,ajm->galm", adj, v, optimize=True)
        else:  # sum_k V[a, l, k] A[g, m, k]
            rows = np.einsum("gmk,alk->galm", adj, v, optimize=True)
        return self.quadrature * rows.reshape(betas.size, -1)

    def apply_direction(self, direction: int, beta: float, f: Array | None = None) -> Array:
        """``X_beta^{(d)} f`` on the data side (default ``f = u``); used by tests/diagnostics."""
        f = self.u if f is None else np.asarray(f, dtype=float)
        tests, period = self._axis(direction)
        kappa = ops.wavenumbers(tests.shape[1], period)
        mult = ops.spectral_multiplier(self.operator, kappa, beta)
        return ops.apply_multiplier(f, mult, axis=direction - 2)  # x: axis -2, y: axis -1


def build_test_functions_2d(
    t: Array,
    x: Array,
    y: Array,
    period_x: float,
    period_y: float,
    counts: tuple[int, int, int] | None = None,
    budget: tf.Budget = "paper",
    width_fraction: float | None = None,
) -> tuple[Array, Array, Array]:
    """Gaussian tests in t (non-periodic), x and y (periodic) by the 1-D rules per axis.

    ``counts=None`` applies the 1-D count rule independently to each axis (paper
    Sec. subsec:twod: 30 x 40 x 40 on 90 x 80 x 80). ``width_fraction`` replaces the spatial
    count-to-width rule by a fixed fraction of each period (paper tab:twod-width ablation).
    """
    t, x, y = (np.asarray(g, dtype=float) for g in (t, x, y))
    if counts is None:
        kt, kx = tf.paper_test_counts(t.size, x.size, budget)
        _, ky = tf.paper_test_counts(t.size, y.size, budget)
    else:
        kt, kx, ky = (int(c) for c in counts)
    temporal = tf.gaussian_test_functions(t, kt, tf.temporal_gaussian_width(t), periodic=False)
    rows = []
    for grid, period, k in ((x, period_x, kx), (y, period_y, ky)):
        if width_fraction is None:
            width = tf.spatial_gaussian_width(_step(grid), period, k)
        else:
            width = float(width_fraction) * period
        rows.append(tf.gaussian_test_functions(grid, k, width, periodic=True, period=period))
    return temporal, rows[0], rows[1]


def weak_library_2d(
    u: Array,
    t: Array,
    x: Array,
    y: Array,
    *,
    operator: ops.SpectralKind = "directional",
    period: float | None = None,
    period_y: float | None = None,
    test_counts: tuple[int, int, int] | None = None,
    budget: tf.Budget = "paper",
    width_fraction: float | None = None,
) -> WeakLibrary2D:
    """Build the 2-D weak library of a field ``u (nt, nx, ny)`` on its grid (paper budget)."""
    t, x, y = (np.asarray(g, dtype=float) for g in (t, x, y))
    u = np.asarray(u, dtype=float)
    if u.shape != (t.size, x.size, y.size):
        raise ValueError(
            f"u has shape {u.shape}, expected (nt, nx, ny) = {(t.size, x.size, y.size)}"
        )
    dt, dx, dy = _step(t), _step(x), _step(y)
    lx = float(period) if period is not None else dx * x.size
    ly = float(period_y) if period_y is not None else dy * y.size
    temporal, sx, sy = build_test_functions_2d(t, x, y, lx, ly, test_counts, budget, width_fraction)
    return WeakLibrary2D(u, dt, dx, dy, lx, ly, temporal, sx, sy, operator)
