"""The weak regression system ``b(m, alpha) = Theta(p, beta) xi + r`` (paper Eqs. 7-12, 18).

Test functions: docs/method/test-functions.md; assembly: docs/method/library.md.

Array conventions
-----------------
* ``u`` has shape ``(nt, nx)``: time on axis 0, periodic space on axis 1 (endpoint excluded).
* Test functions are separable, ``phi_k(t, x) = vartheta_a(t) psi_l(x)``;
  ``temporal_tests`` is ``(K_t, nt)`` and ``spatial_tests`` ``(K_x, nx)``, rows
  l2-normalised.
* Weak rows are flattened time-test-major: row ``k = a*K_x + l``.
* Quadrature is uniform, ``<f, g>_h = dt*dx*sum(f*g)``, so every discrete adjoint is a transpose
  (paper Eq. 12) and every row is a separable contraction ``dt*dx * T F S^T`` of a field ``F``;
  no ``K x N`` matrix is ever formed.

Target (paper Eq. 9): ``b_k = <D_h^alpha u, phi_k>_h = dt dx (T D_h^alpha) u S^T`` with
``D_h^alpha`` the L1 matrix (sub), ``D1`` (int) or ``L1_{alpha-1} D1`` (sup); the transpose of
the temporal operator lands on the temporal tests.

Linear columns (paper Eq. 10): ``theta_k = <u, X_beta^* phi_k>_h = dt dx T u (X_beta^* S)^T`` —
the spatial adjoint acts on the test functions only.

Nonlinear columns (paper Eq. 11): ``<u, X_beta^*(P(u) phi_k)>_h``, which by the discrete adjoint
chain equals ``dt dx T (P(u) * X_beta u) S^T`` exactly; ``P(u) = max(u, 0)^p`` in the positive
power mode and ``u^p`` otherwise (docs/method/library.md#power-modes). ``beta = 0`` is the identity
candidate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from weakpareto._typing import Array
from weakpareto.library.recent import RecentValues
from weakpareto.numerics import operators as ops
from weakpareto.numerics import windows as tf
from weakpareto.records import Mode, OperatorKind

PowerMode = Literal["positive", "raw"]
TemporalScheme = Literal["l1", "gl_caputo"]
SpatialTests = Literal["gaussian", "fourier"]


#: Largest number of values of one batched intermediate (orders x field): order banks are
#: evaluated a chunk of orders at a time, so memory grows like the field rather than like
#: (number of orders) x (field) — 58 orders of a 2400 x 4096 field would be 4.5 GB at once.
BATCH_VALUES = 1 << 24

#: Single orders whose adjoint tests a library keeps (the polish revisits the latest few).
ADJOINT_CACHE_SIZE = 4


def order_chunks(n_orders: int, per_order: int) -> list[slice]:
    """Slices of ``n_orders`` orders whose intermediates hold at most :data:`BATCH_VALUES`
    values (one order at a time when a single one is larger). Every order is computed on its
    own slice of the batch, so chunking does not change a result."""
    size = max(1, BATCH_VALUES // max(int(per_order), 1))
    return [slice(i, min(i + size, n_orders)) for i in range(0, max(n_orders, 1), size)]


def uniform_step(grid: Array, name: str) -> float:
    """Step of a uniform grid (the caller validates uniformity)."""
    return float(grid[1] - grid[0]) if grid.size > 1 else 1.0


def power_field(u: Array, power: int, mode: PowerMode) -> Array:
    """``P(u)``: ``max(u, 0)**p`` for the positive power mode, ``u**p`` otherwise; p=0 → ones."""
    if power == 0:
        return np.ones_like(u)
    base = np.maximum(u, 0.0) if mode == "positive" else u
    return base**power


def temporal_matrices(
    n: int, h: float, alphas: Array, mode: Mode, scheme: TemporalScheme = "l1"
) -> Array:
    """Temporal operator matrices ``(G, n, n)`` at the given orders of one branch.

    ``scheme="l1"`` is the reference L1 family (docs/method/operators.md#l1-caputo-matrix,
    #superunit-composition); ``scheme="gl_caputo"`` is the finite-domain Grünwald–Letnikov matrix
    used for the ADE data (docs/method/library.md#ade-target); its Caputo initial-value subtraction
    is applied to the field, see :func:`caputo_subtracted`.
    """
    alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
    if scheme == "l1":
        return ops.caputo_matrices(n, h, alphas, mode)
    orders = np.ones_like(alphas) if mode == "int" else alphas
    return ops.grunwald_letnikov_left_matrix(n, h, orders)  # batched over the orders


def caputo_subtracted(u: Array, dt: float, mode: Mode) -> Array:
    """``u - P_{n-1,0} u`` for the GL Caputo target: subtract u(0) and, for sup, t*(u1-u0)/dt."""
    out = u - u[0]
    if mode == "sup":
        t = dt * np.arange(u.shape[0])[:, None]
        out = out - t * (u[1] - u[0]) / dt
    return out


@dataclass
class WeakLibrary:
    """Weak features of one (noisy) field for one operator family.

    ``targets`` and ``columns`` evaluate exact features at any orders (batched); order banks and
    Gram tables are built from them (see :mod:`weakpareto.library.gram`).
    """

    u: Array
    dt: float
    dx: float
    period: float
    operator: OperatorKind | ops.SpectralKind
    power_mode: PowerMode
    temporal_tests: Array
    spatial_tests: Array
    temporal_scheme: TemporalScheme = "l1"
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def n_rows(self) -> int:
        return self.temporal_tests.shape[0] * self.spatial_tests.shape[0]

    @property
    def shape(self) -> tuple[int, int]:
        return (self.temporal_tests.shape[0], self.spatial_tests.shape[0])

    @property
    def quadrature(self) -> float:
        return self.dt * self.dx

    def _kappa(self) -> Array:
        if "kappa" not in self._cache:
            self._cache["kappa"] = ops.wavenumbers(self.u.shape[1], self.period)
        return self._cache["kappa"]

    # -- building blocks -------------------------------------------------------------------
    def spatial_apply(self, f: Array, betas: Array) -> Array:
        """``X_beta f`` along the last axis for every beta: ``(G,) + f.shape``."""
        betas = np.atleast_1d(np.asarray(betas, dtype=float))
        if self.operator in ops.SPECTRAL_KINDS:
            mult = ops.spectral_multiplier(self.operator, self._kappa(), betas)  # (G, nx)
            return ops.apply_multiplier(
                f[None], mult.reshape((betas.size,) + (1,) * (f.ndim - 1) + (-1,))
            )
        mats = _gl_matrices(f.shape[-1], self.dx, betas)
        return np.einsum("...j,gij->g...i", f, mats)

    def spatial_adjoint_tests(self, betas: Array) -> Array:
        """``X_beta^* psi_l`` for every spatial test and beta: ``(G, K_x, nx)`` (paper Eq. 10).

        One order at a time (the polish) is kept for the next few calls: a trial system asks
        for it for its column and for the noise covariance of each row mask."""
        betas = np.atleast_1d(np.asarray(betas, dtype=float))
        if betas.size != 1:
            return self._spatial_adjoint_tests(betas)
        recent = self._cache.setdefault("adjoint", RecentValues(ADJOINT_CACHE_SIZE))
        return recent.get(betas.tobytes(), lambda: _read_only(self._spatial_adjoint_tests(betas)))

    @property
    def keeps_single_orders(self) -> bool:
        """Whether :meth:`spatial_adjoint_tests` keeps its latest single orders and a batched
        call gives each order the bits of a single one (spectral operators: one inverse
        transform per row), so that a caller may ask order by order."""
        return (
            type(self).spatial_adjoint_tests is WeakLibrary.spatial_adjoint_tests
            and self.operator in ops.SPECTRAL_KINDS
        )

    def _spatial_adjoint_tests(self, betas: Array) -> Array:
        s = self.spatial_tests
        if self.operator in ops.SPECTRAL_KINDS:
            mult = ops.spectral_multiplier(self.operator, self._kappa(), betas)
            return ops.apply_multiplier_adjoint(s[None], mult[:, None, :])
        mats = _gl_matrices(s.shape[-1], self.dx, betas)
        return np.einsum("kj,gji->gki", s, mats)  # rows of S @ G = (G^T psi)^T

    def field_apply(self, betas: Array) -> Array:
        """``X_beta u`` of the library's field for every beta, ``(G, nt, nx)``: the same values
        as ``spatial_apply(self.u, betas)`` with the field's spectrum computed once per library
        (the polish asks for one order at a time)."""
        betas = np.atleast_1d(np.asarray(betas, dtype=float))
        if self.operator not in ops.SPECTRAL_KINDS:
            return self.spatial_apply(self.u, betas)
        spectrum = self._cache.get("u_spectrum")
        if spectrum is None:
            spectrum = self._cache["u_spectrum"] = ops.forward_spectrum(self.u[None])
        mult = ops.spectral_multiplier(self.operator, self._kappa(), betas)
        return ops.inverse_spectrum(mult.reshape((betas.size, 1, -1)) * spectrum)

    def temporal_projection(self) -> Array:
        """``T u`` (``K_t x nx``), computed once per library."""
        tu = self._cache.get("tu")
        if tu is None:
            tu = self._cache["tu"] = self.temporal_tests @ self.u
        return tu

    def spatial_projection(self) -> Array:
        """``u S^T`` (``nt x K_x``), computed once per library."""
        us = self._cache.get("us")
        if us is None:
            us = self._cache["us"] = self.u @ self.spatial_tests.T
        return us

    def project(self, fields: Array) -> Array:
        """Weak rows of fields ``(..., nt, nx)`` → ``(..., K)``: ``dt dx T F S^T`` flattened."""
        rows = self.temporal_tests @ fields @ self.spatial_tests.T
        return self.quadrature * rows.reshape(fields.shape[:-2] + (-1,))

    def _temporal_weights(self, alphas: Array, mode: Mode) -> Array:
        """``T D_h^alpha`` for every order: ``(G, K_t, nt)``, a chunk of orders at a time."""
        nt = self.u.shape[0]
        return np.concatenate(
            [
                self.temporal_tests
                @ temporal_matrices(nt, self.dt, alphas[c], mode, self.temporal_scheme)
                for c in order_chunks(alphas.size, 2 * nt * nt)
            ],
            axis=0,
        )

    def target_weights(self, alphas: Array, mode: Mode) -> Array:
        """Temporal weights ``(G, K_t, nt)`` with ``targets = dt dx W u S^T`` (the noise
        covariance of the target, :mod:`weakpareto.library.noise_covariance`)."""
        alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
        weights = self._temporal_weights(alphas, mode)
        if self.temporal_scheme == "gl_caputo":  # the field is u - u0 [- t (u1 - u0)/dt]
            nt = self.u.shape[0]
            c0 = np.zeros(nt)
            c0[0] = 1.0
            weights = weights - weights.sum(axis=-1, keepdims=True) * c0
            if mode == "sup":
                c1 = np.zeros(nt)
                c1[:2] = np.array([-1.0, 1.0]) / self.dt
                weights = weights - (weights @ (self.dt * np.arange(nt)))[..., None] * c1
        return weights

    def initial_samples(self, mode: Mode) -> int:
        """Leading time samples that define the target's initial values (u(0): the first)."""
        return 2 if (mode == "sup" and self.temporal_scheme == "gl_caputo") else 1

    # -- exact features --------------------------------------------------------------------
    def targets(self, alphas: Array, mode: Mode) -> Array:
        """Exact weak targets ``b(mode, alpha)`` for each alpha: ``(G, K)`` (paper Eq. 9)."""
        alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
        t_op = self._temporal_weights(alphas, mode)  # (G, K_t, nt): transpose on the tests
        if self.temporal_scheme == "gl_caputo":
            us = caputo_subtracted(self.u, self.dt, mode) @ self.spatial_tests.T
        else:
            us = self.spatial_projection()  # (nt, K_x)
        rows = t_op @ us
        return self.quadrature * rows.reshape(alphas.size, -1)

    def columns(self, power: int, betas: Array) -> Array:
        """Exact weak columns for one power at each beta: ``(G, K)`` (paper Eqs. 10-11)."""
        betas = np.atleast_1d(np.asarray(betas, dtype=float))
        if power == 0:
            tu = self.temporal_projection()  # (K_t, nx)
            adj = self.spatial_adjoint_tests(betas)  # (G, K_x, nx)
            rows = np.einsum("an,gln->gal", tu, adj)
            return self.quadrature * rows.reshape(betas.size, -1)
        weight = power_field(self.u, power, self.power_mode)
        return np.concatenate(
            [
                self.project(weight[None] * self.field_apply(betas[c]))
                for c in order_chunks(betas.size, 3 * self.u.size)  # real + complex spectrum
            ],
            axis=0,
        )


def _gl_matrices(n: int, h: float, betas: Array) -> Array:
    """Left GL matrices ``(G, n, n)`` at every order, batched; order 0 is exactly the identity
    (``g_0 = 1``, ``g_m = 0`` for m >= 1)."""
    return ops.grunwald_letnikov_left_matrix(n, h, np.asarray(betas, dtype=float))


def build_test_functions(
    t: Array,
    x: Array,
    period: float,
    spatial: SpatialTests = "gaussian",
    counts: tuple[int, int] | None = None,
    budget: tf.Budget = "paper",
    width_scale: float = 1.0,
) -> tuple[Array, Array]:
    """Temporal Gaussian and spatial Gaussian/Fourier tests by the paper's rules
    (docs/method/test-functions.md).

    ``width_scale`` multiplies both Gaussian widths (fixed-dictionary stability study,
    docs/method/baselines.md#fixed-dictionary-stability); Fourier tests have no width.
    """
    dx = uniform_step(x, "x")
    kt, kx = counts if counts is not None else tf.paper_test_counts(t.size, x.size, budget)
    w_t = width_scale * tf.temporal_gaussian_width(t)
    temporal = tf.gaussian_test_functions(t, kt, w_t, periodic=False)
    if spatial == "fourier":
        spatial_rows = tf.fourier_test_functions(x, period, tf.fourier_max_mode(x.size, kx))
    else:
        width = width_scale * tf.spatial_gaussian_width(dx, period, kx)
        spatial_rows = tf.gaussian_test_functions(x, kx, width, periodic=True, period=period)
    return temporal, spatial_rows


def weak_library(
    u: Array,
    t: Array,
    x: Array,
    *,
    operator: OperatorKind,
    power_mode: PowerMode = "raw",
    period: float | None = None,
    spatial_tests: SpatialTests = "gaussian",
    test_counts: tuple[int, int] | None = None,
    temporal_scheme: TemporalScheme | None = None,
    budget: tf.Budget = "paper",
    width_scale: float = 1.0,
) -> WeakLibrary:
    """Build the weak library of a field on its grid (paper budget by default)."""
    dt, dx = uniform_step(t, "t"), uniform_step(x, "x")
    period = float(period) if period is not None else dx * x.size
    temporal, spatial = build_test_functions(
        t, x, period, spatial_tests, test_counts, budget, width_scale
    )
    scheme = temporal_scheme or ("gl_caputo" if operator == "gl_left" else "l1")
    return WeakLibrary(
        u=np.asarray(u, dtype=float),
        dt=dt,
        dx=dx,
        period=period,
        operator=operator,
        power_mode=power_mode,
        temporal_tests=temporal,
        spatial_tests=spatial,
        temporal_scheme=scheme,
    )


def _read_only(a: Array) -> Array:
    """``a``, which can no longer be written (it is kept and shared)."""
    a.flags.writeable = False
    return a
