"""The exact weak Caputo library on irregular time samples and on fields with missing samples.

Every weak integral of :class:`weakpareto.library.weak_exact.ExactTimeWeakLibrary` is a sum
``dt dx sum_ij u_ij g(t_i, x_j)``; here it becomes the quadrature on the samples actually taken,

    dt dx sum_ij tau_i m_ij F_ij g(t_i, x_j),

``tau_i = w_i / dt`` the trapezoid weights of the actual times over the mean step ``dt``
(:func:`weakpareto.numerics.sampled_time.trapezoid_weights`; the first sample weighted ``h_0``
like the uniform library, where every integrand but the target's vanishes) and ``m_ij`` the
trapezoid weights in time of column ``x_j`` with its missing samples removed, relative to
``tau_i`` (0 at a gap, 1 in a complete column;
:func:`weakpareto.numerics.sampled_time.time_gap_weights`). So the target is

    b_al = dt dx sum_ij tau_i m_ij (RL D^alpha_{T-} phi_a)(t_i) (u_ij - u0_j - [sup] t_i u1_j)
           psi_l(x_j)

with the right derivative of each bump at the actual sample times (closed form,
:mod:`weakpareto.numerics.weak_caputo`), ``u0``, ``u1`` from the first samples at their actual
offsets, and the columns ``dt dx sum_ij tau_i m_ij phi_a(t_i) F_ij (X^* psi_l)(x_j)`` (linear) and
``... u^p X_beta u ... psi_l(x_j)`` (nonlinear). A missing sample enters no sum; only the
operator input ``X_beta u`` of a nonlinear column and a start value at a missing first sample
read the row's linear interpolant in ``x`` across the gap
(:func:`weakpareto.numerics.sampled_time.periodic_fill`; the spatial operator is non-local).

The target's weight ``RL D^alpha_{T-} phi_a`` changes sign on a few steps and its integral
against ``u - u0 - t u1`` cancels to a small part of its absolute value, so across a step longer
than the mean step (a dropped frame) or a column's gap the target takes the product trapezoid
rule instead: the weight read on nodes no coarser than the mean step, ``u`` linear in time
between the column's present samples (:meth:`SampledExactLibrary._raw_weights`,
:func:`weakpareto.numerics.sampled_time.time_fill`); with neither it is the rule above.

Accuracy: the time quadrature is the trapezoid rule, ``O(h^2)`` in the largest step ``h`` for a
smooth field; a Caputo solution starts like ``u(0) + c t^alpha``, whose first interval limits it
to ``O(h_0^(1 + alpha))`` near the start (tests/library/test_weighted_time.py measures the order
on a Mittag-Leffler mode). On a uniform grid the weights reduce to the uniform library's: the
same target to rounding.

Tests: the bumps are placed by the sample span (centres evenly in ``[t_0 + r, t_last - r]``,
``r`` the half-width of the uniform grid with the same span and count); a bump with fewer than
:data:`MIN_SAMPLES_PER_TEST` samples inside its support is dropped. A weak equation whose weight
(its test, or its target's reach ``|RL D^alpha_{T-} phi_a|`` over ``[t_0, b_a]`` at alpha = 0.5,
1, 1.5) falls on gaps by more than :data:`MAX_GAP_SHARE` is dropped (its row is zero in every
feature, so it adds nothing to any Gram table).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from weakpareto._typing import Array, BoolArray
from weakpareto.errors import UserInputError
from weakpareto.library.noise_level import (
    MIN_AXIS_SAMPLES,
    NoiseEstimate,
    NoiseModel,
    estimate_noise,
)
from weakpareto.library.weak import PowerMode, SpatialTests, build_test_functions, uniform_step
from weakpareto.library.weak_exact import (
    DEFAULT_BUMP_POWER,
    MODEL_SLOPE_WINDOW,
    SLOPE_WINDOW,
    ExactTimeWeakLibrary,
    InitialEstimate,
    StartSlope,
    TestWidths,
    adaptive_slope_points,
    bump_radius,
)
from weakpareto.numerics import windows as tf
from weakpareto.numerics.sampled_time import (
    is_uniform,
    masked_start_values,
    mean_step,
    model_start_weights,
    product_nodes,
    start_weights,
    time_fill,
    time_gap_weights,
    trapezoid_weights,
)
from weakpareto.numerics.weak_caputo import PolynomialBumps, polynomial_bumps, with_initial_terms
from weakpareto.records import Mode, OperatorKind

#: Fewest samples strictly inside a temporal bump's support for it to be kept: a degree-2p
#: polynomial bump sampled more coarsely is not integrated to the trapezoid rule's order.
MIN_SAMPLES_PER_TEST = 6
#: Largest share of a weak equation's weight ``|phi_a psi_l|`` on missing samples (weighted by
#: the squared length of their run, :func:`gap_badness`): beyond it the linear interpolant
#: across the gaps carries too much of the integral, so the equation is dropped.
MAX_GAP_SHARE = 0.15
#: Fewest weak equations (share of all) that must remain once gaps are removed.
MIN_ROW_SHARE = 0.25


@dataclass
class SampledExactLibrary(ExactTimeWeakLibrary):
    """:class:`ExactTimeWeakLibrary` with the quadrature of the samples actually taken (module
    docstring). ``temporal_tests`` hold ``phi_a(t_i) tau_i``; ``sample_weights`` is ``m`` (None:
    no missing sample); ``row_keep`` zeroes the dropped weak equations (None: all kept)."""

    time_weights: Array = field(default_factory=lambda: np.ones(0))
    sample_weights: Array | None = None
    row_keep: Array | None = None
    record: dict[str, Any] = field(default_factory=dict)

    def _target_weights(self, alphas: Array, mode: Mode) -> Array:
        orders = np.ones_like(alphas) if mode == "int" else alphas
        c0, c1 = self._start_weights(orders, mode)
        return with_initial_terms(self.raw_weights(orders), self.t, c0, c1)

    def _raw_weights(self, orders: Array) -> Array:
        """Product-trapezoid weights of ``RL D^alpha_{T-} phi_a``: ``(G, K_t, nt)``.

        The right derivative of a bump changes sign and curves on a scale of a few mean
        steps, and its integral against ``u - u(0) - t u'(0)`` cancels to a small fraction of
        its absolute value (super-unit orders most), so the trapezoid on ``K v`` across a step
        much longer than the mean (a dropped frame) errs by tens of percent of the target. So
        ``K`` is read on nodes no farther apart than the mean step ``dt`` and integrated
        against the linear interpolant of the samples (:func:`weakpareto.numerics.
        sampled_time.product_nodes`); with no longer step this is ``tau_i K(t_i)``, the
        trapezoid of the uniform library."""
        assert self.bumps is not None
        plan = self._cache.get("plan")
        if plan is None:
            nodes, hats = product_nodes(self.t, self.dt)
            if nodes.size == self.t.size:
                plan = self._cache["plan"] = self.bumps.plan(self.t)
            else:
                self._cache["product"] = (time_quadrature(nodes, self.dt), hats)
                plan = self._cache["plan"] = self.bumps.plan(nodes)
        product = self._cache.get("product")
        if product is None:
            return plan.evaluate(orders) * self.time_weights
        tau, hats = product
        return (plan.evaluate(orders) * tau) @ hats

    def _start_weights(self, orders: Array, mode: Mode) -> tuple[Array, Array | None]:
        """``c0``, ``c1`` of the start values at the actual sample offsets (the uniform
        library's rule, :meth:`ExactTimeWeakLibrary._target_weights`)."""
        s = self.t - self.t[0]
        if self.initial == "model" and mode == "sup":
            points = self.slope_points or self.initial_points
            return model_start_weights(s, orders, points, True)
        if self.initial == "model":
            c0 = np.zeros(s.size)
            c0[0] = 1.0
            return c0, None
        c0, c1 = start_weights(s, self.initial_points, self.initial != "sample", self.slope_points)
        return c0, c1 if mode == "sup" else None

    def _start_values(self, orders: Array, mode: Mode) -> tuple[Array, Array | None]:
        """``u(0)``, ``u'(0)`` per column, ``(G or 1, nx)``. Super-unit targets with the model
        start (:func:`weakpareto.numerics.sampled_time.masked_start_values`) fit each column on
        the samples it has: ``u'(0)`` enters every super-unit target with a large weight, and a
        value interpolated in x across a gap at the start would bias it. Otherwise the linear
        weights of :meth:`_start_weights` on the field (x-interpolated across gaps)."""
        if self.initial == "model" and mode == "sup" and self.sample_weights is not None:
            points = self.slope_points or self.initial_points
            present = self.sample_weights > 0.0
            values = masked_start_values(self.t - self.t[0], self.u, present, orders, points)
            return values[:, 0], values[:, 1]
        c0, c1 = self._start_weights(orders, mode)
        u0 = np.atleast_2d(c0 @ self.u)
        return u0, None if c1 is None else np.atleast_2d(c1 @ self.u)

    def _keep(self, rows: Array) -> Array:
        return rows if self.row_keep is None else rows * self.row_keep

    def targets(self, alphas: Array, mode: Mode) -> Array:
        """Weak targets ``(G, K)`` on the actual samples (module docstring)."""
        m = self.sample_weights
        if m is None:
            return self._keep(super().targets(alphas, mode))
        alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
        orders = np.ones_like(alphas) if mode == "int" else alphas
        raw = self.raw_weights(orders)  # (G, K_t, nt)
        u0, u1 = self._start_values(orders, mode)  # (G or 1, nx) each
        # the product rule of _raw_weights per column: RL D phi against the linear interpolant
        # in time of the column's present samples (the trapezoid on the product across a gap
        # errs like a dropped frame, :meth:`_raw_weights`)
        filled = self._cache.get("time_fill")
        if filled is None:
            filled = self._cache["time_fill"] = time_fill(self.t, self.u, m > 0.0)
        rows = raw @ filled - raw.sum(axis=-1)[..., None] * u0[:, None, :]
        if u1 is not None:
            rows = rows - (raw @ (self.t - self.t[0]))[..., None] * u1[:, None, :]
        out = (rows @ self.spatial_tests.T).reshape(alphas.size, -1)
        return self._keep(self.quadrature * out)

    def project(self, fields: Array) -> Array:
        """Weak rows of fields ``(..., nt, nx)`` with the missing samples skipped."""
        m = self.sample_weights
        return super().project(fields if m is None else m * fields)

    def columns(self, power: int, betas: Array) -> Array:
        """Weak columns ``(G, K)`` on the actual samples (module docstring)."""
        m = self.sample_weights
        if m is None or power != 0:
            return self._keep(super().columns(power, betas))
        betas = np.atleast_1d(np.asarray(betas, dtype=float))
        tu = self.temporal_tests @ (m * self.u)  # (K_t, nx)
        rows = np.einsum("an,gln->gal", tu, self.spatial_adjoint_tests(betas))
        return self._keep(self.quadrature * rows.reshape(betas.size, -1))

    def noise_estimate(self, model: NoiseModel) -> NoiseEstimate | None:
        """Noise of the samples actually taken: sixth differences only on runs of seven present
        samples, along time only on a uniform time grid; the variance field is scaled by
        ``m^2`` (a missing sample carries no noise into any feature, a re-weighted one more)."""
        if model == "auto" and self.noise is not None:
            est: NoiseEstimate | None = self.noise  # read when the library was built
        else:
            usable = None if self.sample_weights is None else self.sample_weights > 0.0
            est = samples_noise(self.u, self.t, usable, model)
        if est is None or self.sample_weights is None:
            return est
        return replace(est, variance=est.variance * self.sample_weights**2)


def time_quadrature(t: Array, step: float) -> Array:
    """Trapezoid weights of the times ``t`` over ``step``, the first sample with the full weight
    ``h_0`` of the uniform library: the target integrand there is ``RL D phi(t_0) (u_0 - u(0)
    estimate)``, zero for exact start values, so the order is unchanged and a uniform grid gives
    the uniform library's features to rounding."""
    tau = trapezoid_weights(t) / step
    tau[0] *= 2.0
    return tau


def samples_noise(
    u: Array, t: Array, usable: BoolArray | None, model: NoiseModel
) -> NoiseEstimate | None:
    """Noise of the samples taken (``usable``; None: all): sixth differences only on runs of
    seven present samples, along time only on a uniform time grid."""
    axes = (0, 1) if is_uniform(t) else (1,)
    return estimate_noise(u, model, usable=usable, axes=axes)


def sampled_bumps(
    t: Array, count: int, radius: float, power: int, weights: Array
) -> tuple[PolynomialBumps, int]:
    """Bumps placed by the span of ``t``, those with fewer than :data:`MIN_SAMPLES_PER_TEST`
    samples inside dropped, rows normalised by the quadrature ``sum_i tau_i phi(t_i)^2``; and
    the number dropped."""
    span = np.linspace(t[0], t[-1], t.size)
    placed = polynomial_bumps(span, count, radius, power, normalise=False)
    inside = (t[None, :] > placed.lower[:, None]) & (t[None, :] < placed.upper[:, None])
    keep = inside.sum(axis=1) >= MIN_SAMPLES_PER_TEST
    if not keep.any():
        raise UserInputError(
            f"no temporal test has {MIN_SAMPLES_PER_TEST} samples inside its support (bump "
            f"half-width {radius:.3g}): the times are too sparse; give more time samples"
        )
    bumps = PolynomialBumps(placed.lower[keep], placed.upper[keep], power, np.ones(int(keep.sum())))
    norms = np.sqrt(np.sum(bumps.values(t) ** 2 * weights, axis=1) + 1e-14)
    return replace(bumps, scale=1.0 / norms), int(np.count_nonzero(~keep))


def gap_badness(missing: BoolArray) -> Array:
    """``((r + 1) / 2)^2`` on a missing sample in a run of ``r`` missing samples in time (0 on
    present ones): the trapezoid across the run errs like the square of its length, so an
    isolated sample counts 1 and an eight-frame block 20."""
    miss = np.asarray(missing, dtype=bool)
    n = miss.shape[0]
    i = np.arange(n)[:, None]
    start = np.maximum.accumulate(np.where(~miss, i, -1), axis=0)  # last present <= i
    end = np.minimum.accumulate(np.where(~miss, i, n)[::-1], axis=0)[::-1]  # first present >= i
    return np.where(miss, ((end - start) / 2.0) ** 2, 0.0)


def gap_rows(temporal: Array, spatial: Array, gaps: Array) -> Array:
    """Share of each weak equation's weight ``|A_a(t_i) psi_l(x_j)|`` on the gaps (weighted by
    :func:`gap_badness`), ``(K_t K_x,)``, for temporal weights ``A`` (tests or target reach)."""
    a, s = np.abs(temporal), np.abs(spatial)
    on_gap = a @ gaps @ s.T
    total = np.outer(a.sum(axis=1), s.sum(axis=1))
    return (on_gap / np.maximum(total, 1e-300)).ravel()


def sampled_exact_library(
    u: Array,
    t: Array,
    x: Array,
    *,
    operator: OperatorKind,
    missing: BoolArray | None = None,
    power_mode: PowerMode = "raw",
    period: float | None = None,
    spatial_tests: SpatialTests = "gaussian",
    test_counts: tuple[int, int] | None = None,
    budget: tf.Budget = "paper",
    bump_power: int = DEFAULT_BUMP_POWER,
    width_scale: float = 1.0,
    initial: InitialEstimate = "sample",
    initial_points: int = 5,
    widths: TestWidths = "paper",
    start_slope: StartSlope = "estimate",
) -> SampledExactLibrary:
    """The exact-target library of ``u`` sampled at the times ``t`` (strictly increasing, any
    steps) with ``missing`` samples (bool ``(nt, nx)``, values there unused but finite).

    Test counts by the paper's rule on ``(nt, nx)``; bump widths of the uniform grid with the
    same span and count (``widths="corner"`` is not applied: its spectral rule needs uniform
    steps, so the paper's width is used).
    """
    t = np.asarray(t, dtype=float)
    u = np.asarray(u, dtype=float)
    h, dx = mean_step(t), uniform_step(x, "x")
    span = np.linspace(t[0], t[-1], t.size)
    period = float(period) if period is not None else dx * x.size
    kt, kx = test_counts or tf.paper_test_counts(t.size, x.size, budget)
    _, spatial = build_test_functions(span, x, period, spatial_tests, (kt, kx), budget)
    radius = bump_radius(span, bump_power, width_scale)
    tau = time_quadrature(t, h)
    bumps, dropped = sampled_bumps(t, kt, radius, bump_power, tau)
    temporal = bumps.values(t) * tau
    fraction = MODEL_SLOPE_WINDOW if initial == "model" else SLOPE_WINDOW
    window = int(np.count_nonzero(t - t[0] < fraction * radius - 0.5 * h))
    slope_points = max(int(initial_points), window)
    noise = None
    if initial == "model" and max(u.shape) >= MIN_AXIS_SAMPLES:
        # the u'(0) window widened with the noise as on a uniform grid (Lepski's rule of
        # adaptive_slope_points), at the actual offsets, from the noise of the samples taken
        # (read once: the library's noise_estimate hands it on)
        usable = None if missing is None or not np.any(missing) else ~np.asarray(missing, bool)
        noise = samples_noise(u, t, usable, "auto")
        slope_points = adaptive_slope_points(
            u, h, slope_points, initial_points, noise, offsets=t - t[0]
        )
    weights = keep = None
    record: dict[str, Any] = {
        "irregular_t": not is_uniform(t),
        "temporal_tests": int(bumps.lower.size),
        "temporal_tests_dropped": dropped,
        "min_samples_per_test": int(
            np.min(np.sum((t > bumps.lower[:, None]) & (t < bumps.upper[:, None]), axis=1))
        ),
        "rows_dropped": 0,
    }
    if missing is not None and np.any(missing):
        weights = time_gap_weights(t, ~np.asarray(missing, dtype=bool))
        # the target reads u on [t_0, b_a] through the right derivative, not only the support
        reach = np.max(np.abs(bumps.plan(t).evaluate(np.array([0.5, 1.0, 1.5]))), axis=0) * tau
        gaps = gap_badness(missing)
        share = np.maximum(gap_rows(temporal, spatial, gaps), gap_rows(reach, spatial, gaps))
        keep = (share <= MAX_GAP_SHARE).astype(float)
        record["rows_dropped"] = int(np.count_nonzero(keep == 0.0))
        if keep.mean() < MIN_ROW_SHARE:
            raise UserInputError(
                f"{record['rows_dropped']} of {keep.size} weak equations fall mostly on missing "
                f"samples (more than {MAX_GAP_SHARE:.0%} of their test weight); too little data "
                "is left: give a field with fewer or smaller gaps"
            )
    return SampledExactLibrary(
        u=u,
        dt=h,
        dx=dx,
        period=period,
        operator=operator,
        power_mode=power_mode,
        temporal_tests=temporal,
        spatial_tests=spatial,
        temporal_scheme="l1",
        t=t,
        bumps=bumps,
        initial=initial,
        initial_points=initial_points,
        slope_points=slope_points,
        time_weights=tau,
        sample_weights=weights,
        row_keep=keep,
        record=record,
        noise=noise,
        start_slope=start_slope,
    )
