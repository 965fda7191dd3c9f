"""Weak library with the exact weak Caputo target (ours; the paper's target is paper Eq. 9).

Same columns as :class:`weakpareto.library.weak.WeakLibrary` (paper Eqs. 10-11), but

* temporal tests are compactly supported polynomial bumps inside ``[t_0, t_last]`` (the paper's
  Gaussians do not vanish at the window's ends, so moving the derivative onto them leaves a
  boundary term the L1 transpose ignores), and
* the target moves the Caputo derivative onto the test function exactly
  (:mod:`weakpareto.numerics.weak_caputo`):
  ``b_k = dt dx sum_ij (RL D^alpha_{T-} vartheta_a)(t_i) (u - u(0) - [sup] t u'(0))_ij psi_l(x_j)``,
  second-order accurate in ``dt`` for every order (the L1 target is ``O(dt^{2-alpha})``).

Spatial tests, operators and the weak columns are the paper's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from scipy import fft as sp_fft

from weakpareto._typing import Array
from weakpareto.library.noise_level import (
    MIN_AXIS_SAMPLES,
    NoiseEstimate,
    NoiseModel,
    estimate_noise,
)
from weakpareto.library.recent import RecentValues
from weakpareto.library.weak import (
    PowerMode,
    SpatialTests,
    WeakLibrary,
    build_test_functions,
    order_chunks,
    power_field,
    uniform_step,
)
from weakpareto.numerics import operators as ops
from weakpareto.numerics import windows as tf
from weakpareto.numerics.corner import corner_radius
from weakpareto.numerics.sampled_time import model_start_weights
from weakpareto.numerics.weak_caputo import (
    PolynomialBumps,
    initial_weights,
    model_initial_weights,
    polynomial_bumps,
    with_initial_terms,
)
from weakpareto.records import Mode, OperatorKind

#: How the target's initial values u(0), u'(0) are estimated: the first sample (and a one-sided
#: difference), a quadratic fit, or (``model``) for super-unit targets a fit by the leading terms
#: of a Caputo solution at the target's order
#: (:func:`weakpareto.numerics.weak_caputo.model_initial_weights`) and the first sample otherwise
#: (the sub-unit basis amplified the noise of u(0), and a quadratic is biased by the t^alpha start).
InitialEstimate = Literal["sample", "fit", "model"]
TestWidths = Literal["paper", "corner"]
#: The super-unit target's ``u'(0)`` in a fit at exact orders: ``estimate`` keeps the estimate of
#: the first samples; ``profile`` treats ``<u'(0), psi_l>`` of every spatial test as an unknown
#: and removes its direction from the weak equations (:meth:`ExactTimeWeakLibrary.profile_rows`).
StartSlope = Literal["estimate", "profile"]

#: Default bump exponent: the right derivative of ``(b - t)^p`` is ``C^{p-2}`` at ``b`` for
#: orders below 2, so p = 4 keeps the target integrand twice differentiable there.
DEFAULT_BUMP_POWER = 4

#: Window of the u'(0) estimate as a fraction of the bump half-width: quadratic fit, and the
#: Caputo basis (four terms, so a longer window for the same noise; on the paper's super-unit
#: benchmark at 0.5 / 1 % noise 0.25 gave operator recovery 2/5 / 1/5, 0.5 gives 5/5 / 4/5, as the
#: quadratic, while exact diffusion-wave solutions keep |d alpha| <= 0.006).
SLOPE_WINDOW = 0.25
MODEL_SLOPE_WINDOW = 0.5

#: Lepski's rule for the u'(0) window of the Caputo basis (:func:`adaptive_slope_points`):
#: windows grow by this factor, at most this many times, from the MODEL_SLOPE_WINDOW one; a
#: larger window is kept while its mean squared standardised difference from every smaller one
#: stays below the limit (1 for noise alone; 2 leaves room for the spread of a mean over x).
SLOPE_WINDOW_GROWTH = 1.5
MAX_SLOPE_STEPS = 4
LEPSKI_LIMIT = 2.0
#: The order whose Caputo start basis the rule fits (mid super-unit range).
SLOPE_ORDER = 1.5
TINY_VARIANCE = 1e-300

#: Target weights kept per library (an exact fit needs them three times: the target and the
#: noise covariance on the training and validation rows).
WEIGHT_CACHE_SIZE = 16


@dataclass
class ExactTimeWeakLibrary(WeakLibrary):
    """:class:`WeakLibrary` whose targets are exact weak Caputo derivatives on bump tests."""

    t: Array = field(default_factory=lambda: np.zeros(0))
    bumps: PolynomialBumps | None = None
    initial: InitialEstimate = "sample"
    initial_points: int = 5
    slope_points: int | None = None
    noise: NoiseEstimate | None = None  # the data's ``auto`` noise estimate, when it was read
    start_slope: StartSlope = "estimate"

    def noise_estimate(self, model: NoiseModel) -> NoiseEstimate | None:
        """The data's noise under ``model``
        (:func:`weakpareto.library.noise_level.estimate_noise`); the ``auto`` estimate read when
        the library was built is not read again."""
        if model == "auto" and self.noise is not None:
            return self.noise
        return estimate_noise(self.u, model)

    def target_weights(self, alphas: Array, mode: Mode) -> Array:
        """Effective temporal weights ``(G, K_t, nt)`` of the target: the right derivative of
        each bump with the initial-value subtraction folded in (``mode="int"``: order 1)."""
        alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
        if self.bumps is None:
            raise ValueError("ExactTimeWeakLibrary needs its temporal bumps")
        recent = self._cache.setdefault("weights", RecentValues(WEIGHT_CACHE_SIZE))
        return recent.get((mode, alphas.tobytes()), lambda: self._target_weights(alphas, mode))

    def _raw_weights(self, orders: Array) -> Array:
        """Weights ``(G, K_t, nt)`` of ``RL D^alpha_{T-} vartheta_a`` on the samples (no
        initial-value terms)."""
        assert self.bumps is not None
        plan = self._cache.get("plan")
        if plan is None:  # the order-independent geometry, built once per library
            plan = self._cache["plan"] = self.bumps.plan(self.t)
        return np.asarray(plan.evaluate(orders))

    def raw_weights(self, orders: Array) -> Array:
        """:meth:`_raw_weights`, the latest orders' kept: a trial system at exact orders reads
        them for its target, its ``u'(0)`` direction and its noise covariance."""
        key = ("raw", np.asarray(orders, dtype=float).tobytes())
        cached = self._cache.get(key)
        if cached is None:
            self._cache.pop(self._cache.pop("raw_key", None), None)
            cached = self._cache[key] = self._raw_weights(orders)
            cached.flags.writeable = False
            self._cache["raw_key"] = key
        return cached

    def slope_direction(self, mode: Mode, alpha: float) -> Array | None:
        """Unit vector ``(K_t,)`` along which ``u'(0)`` enters the weak equations of one spatial
        test, ``r_a = int RL D^alpha_{T-} vartheta_a (t) (t - t_0) dt`` (the weak form of
        ``D^alpha_C t = t^{1-alpha} / Gamma(2 - alpha)``); None unless the target is super-unit
        and ``start_slope="profile"``."""
        if mode != "sup" or self.start_slope != "profile":
            return None
        r = self.raw_weights(np.array([float(alpha)]))[0] @ (self.t - self.t[0])
        norm = float(np.linalg.norm(r))
        return r / norm if norm > 0.0 else None

    def profile_rows(self, mode: Mode, alpha: float, vectors: Array) -> Array:
        """Weak-row vectors ``(G, K)`` with the ``u'(0)`` direction of every spatial test removed
        (:meth:`slope_direction`; unchanged without it): the least squares on the result are
        the joint fit with one unknown ``<u'(0), psi_l>`` per spatial test (Frisch-Waugh-Lovell),
        so the estimate of ``u'(0)`` from noisy first samples leaves no trace."""
        q = self.slope_direction(mode, alpha)
        if q is None:
            return vectors
        v = np.asarray(vectors, dtype=float)
        blocks = v.reshape(v.shape[0], q.size, -1)
        per_test = np.repeat(q[:, None], blocks.shape[2], axis=1)  # (K_t, K_x)
        keep = getattr(self, "row_keep", None)
        if keep is not None:  # dropped equations stay zero: the direction on each test's kept rows
            per_test = per_test * np.asarray(keep, dtype=float).reshape(per_test.shape)
            norms = np.linalg.norm(per_test, axis=0)
            per_test = per_test / np.where(norms > 0.0, norms, 1.0)
        coef = np.einsum("al,gal->gl", per_test, blocks)
        return (blocks - per_test[None] * coef[:, None]).reshape(v.shape)

    def _target_weights(self, alphas: Array, mode: Mode) -> Array:
        orders = np.ones_like(alphas) if mode == "int" else alphas
        weights = self.raw_weights(orders)
        if self.initial == "model" and mode == "sup":
            points = self.slope_points or self.initial_points
            c0, c1 = model_initial_weights(self.t.size, self.dt, orders, points, True)
            return with_initial_terms(weights, self.t, c0, c1)
        if self.initial == "model":
            # u(0) is the first sample: a sub-unit start u(0) + c t^alpha is misread by any
            # polynomial fit, and a quadratic through 5 samples keeps 0.89 of a sample's variance
            c0, _ = initial_weights(self.t.size, self.dt, 1, False)
            return with_initial_terms(weights, self.t, c0, None)
        c0, c1 = initial_weights(
            self.t.size, self.dt, self.initial_points, self.initial != "sample", self.slope_points
        )
        return with_initial_terms(weights, self.t, c0, c1 if mode == "sup" else None)

    def initial_samples(self, mode: Mode) -> int:
        """Leading samples behind the estimates of u(0) (and u'(0) for superunit targets)."""
        if self.initial == "sample" or (self.initial == "model" and mode != "sup"):
            return 3 if mode == "sup" else 1
        slope = self.slope_points if self.slope_points is not None else self.initial_points
        points = max(self.initial_points, slope) if mode == "sup" else self.initial_points
        if self.initial == "model" and mode == "sup":  # one sample more than the basis terms
            points = max(points, 5)
        return points

    def field_apply(self, betas: Array) -> Array:
        """``X_beta u`` ``(G, nt, nx)`` by real FFTs of the field (equal to the paper library's
        complex transforms to rounding, half the work; the paper's method keeps its own)."""
        betas = np.atleast_1d(np.asarray(betas, dtype=float))
        if self.operator not in ops.SPECTRAL_KINDS:
            return super().field_apply(betas)
        mult = ops.spectral_multiplier(self.operator, self._kappa(), betas)
        return ops.apply_multiplier_real(
            self._real_spectrum()[None], mult[:, None, :], self.u.shape[1]
        )

    def _spatial_adjoint_tests(self, betas: Array) -> Array:
        """``X_beta^* psi_l`` ``(G, K_x, nx)`` by real FFTs of the tests, transformed once
        (equal to the paper library's complex transforms to rounding)."""
        if self.operator not in ops.SPECTRAL_KINDS:
            return super()._spatial_adjoint_tests(betas)
        spectrum = self._cache.get("tests_real_spectrum")
        if spectrum is None:
            spectrum = self._cache["tests_real_spectrum"] = sp_fft.rfft(self.spatial_tests, axis=-1)
        mult = np.conj(ops.spectral_multiplier(self.operator, self._kappa(), betas))
        return ops.apply_multiplier_real(spectrum[None], mult[:, None, :], self.u.shape[1])

    def columns(self, power: int, betas: Array) -> Array:
        """Weak columns (paper Eqs. 10-11); the linear ones' contraction of ``T u`` with the
        adjoint tests as one matrix product (the paper library sums it by ``einsum``, whose
        order its stored results keep)."""
        betas = np.atleast_1d(np.asarray(betas, dtype=float))
        if power != 0:  # the paper's product with this library's real transforms
            return super().columns(power, betas)
        tu = self.temporal_projection()  # (K_t, nx)
        adj = self.spatial_adjoint_tests(betas)  # (G, K_x, nx)
        rows = (adj.reshape(-1, adj.shape[-1]) @ tu.T).reshape(betas.size, adj.shape[1], -1)
        return self.quadrature * np.swapaxes(rows, 1, 2).reshape(betas.size, -1)

    def columns_of_powers(self, powers: tuple[int, ...], betas: Array) -> list[Array]:
        """``[columns(p, betas) for p in powers]``, equal bit for bit, with ``X_beta u``
        evaluated once per chunk of orders for all the nonlinear powers (half the transforms of
        a bank with powers 1 and 2). A subclass with its own ``columns`` gets its own."""
        betas = np.atleast_1d(np.asarray(betas, dtype=float))
        nonlinear = [p for p in powers if p != 0]
        if type(self).columns is not ExactTimeWeakLibrary.columns or len(nonlinear) < 2:
            return [self.columns(p, betas) for p in powers]
        # the linear columns first: their adjoint tests of every order (the largest transient)
        # are gone before the nonlinear powers' field and product buffer exist
        linear = self.columns(0, betas) if 0 in powers else np.empty(0)  # empty: not asked for
        weights = {  # u^1 is u itself: no copy of the field
            p: self.u
            if p == 1 and self.power_mode != "positive"
            else power_field(self.u, p, self.power_mode)
            for p in nonlinear
        }
        parts: dict[int, list[Array]] = {p: [] for p in nonlinear}
        chunks = order_chunks(betas.size, 3 * self.u.size)  # the chunks of WeakLibrary.columns
        product = np.empty((chunks[0].stop - chunks[0].start,) + self.u.shape)  # reused
        for c in chunks:
            xu = self.field_apply(betas[c])
            for p in nonlinear:
                out = product[: xu.shape[0]]
                parts[p].append(self.project(np.multiply(weights[p][None], xu, out=out)))
        return [linear if p == 0 else np.concatenate(parts[p], axis=0) for p in powers]

    def _real_spectrum(self) -> Array:
        """``RFFT u`` along x, once per library."""
        spectrum = self._cache.get("u_real_spectrum")
        if spectrum is None:
            spectrum = self._cache["u_real_spectrum"] = sp_fft.rfft(self.u, axis=-1)
        return spectrum

    def targets(self, alphas: Array, mode: Mode) -> Array:
        """Exact weak targets ``(G, K)`` (module docstring)."""
        weights = self.target_weights(alphas, mode)
        rows = weights @ self.spatial_projection()  # (G, K_t, K_x)
        return self.quadrature * rows.reshape(weights.shape[0], -1)


def bump_radius(t: Array, power: int, width_scale: float = 1.0) -> float:
    """Half-width of the temporal bumps: the paper's temporal Gaussian width
    (docs/method/test-functions.md#widths) times ``sqrt(2p + 3)``, so a bump has the Gaussian's
    second moment (``(1 - z^2)^p`` has variance ``1/(2p + 3)``), capped at half the window."""
    sigma = width_scale * tf.temporal_gaussian_width(t)
    return min(sigma * float(np.sqrt(2 * power + 3)), 0.5 * float(t[-1] - t[0]))


def corner_bump_radius(
    u: Array, t: Array, power: int, minimum: float, noise: NoiseEstimate | None
) -> float:
    """Temporal bump half-width by the spectral corner rule (:mod:`weakpareto.numerics.corner`)
    with the data's noise floor ``noise`` (``None``: clean), clipped to
    ``[minimum, half the window]``."""
    variance = float(np.mean(noise.variance)) if noise is not None else 0.0
    r = corner_radius(u, float(t[1] - t[0]), 0, variance, power)
    return float(np.clip(r, minimum, 0.5 * float(t[-1] - t[0])))


def adaptive_slope_points(
    u: Array,
    dt: float,
    base_points: int,
    initial_points: int,
    noise: NoiseEstimate | None,
    offsets: Array | None = None,
) -> int:
    """Samples of the ``u'(0)`` window of the Caputo-basis estimate, widened with the noise by
    Lepski's rule (ours).

    Windows grow by :data:`SLOPE_WINDOW_GROWTH` from ``base_points``; each gives ``u1_j(x)``
    (:func:`weakpareto.numerics.weak_caputo.model_initial_weights` at the representative order
    :data:`SLOPE_ORDER`) and its noise variance ``v_j(x) = sum_i c1_j[i]^2 s(i, x)`` from the
    data's noise estimate. Nested least-squares estimates of one model differ by noise of
    variance ``v_i - v_j`` (``i < j``), so while the bias is below the noise the standardised
    differences ``(u1_j - u1_i)^2 / (v_i - v_j)`` average about 1 over ``x``. The largest window
    whose mean stays below :data:`LEPSKI_LIMIT` against every smaller one is used: on clean data
    (``v`` ~ 0) the first; with noise as wide as the start model holds (the noise of ``u'(0)``
    is shared by every row of a spatial test, which no average over rows removes). Without a
    noise estimate, or a record too short for a second window, the first window is used.
    ``offsets``: the sample times from the first (irregular samples; None: ``dt`` steps).
    """
    est = noise
    nt = u.shape[0]
    if est is None or not np.any(est.variance > 0.0) or nt // 2 < base_points * SLOPE_WINDOW_GROWTH:
        return base_points
    counts = []
    n = base_points
    while n <= min(nt // 2, base_points * SLOPE_WINDOW_GROWTH**MAX_SLOPE_STEPS + 1):
        counts.append(n)
        n = max(n + 1, int(round(n * SLOPE_WINDOW_GROWTH)))
    rows = max(counts)
    slopes, variances = [], []
    for n in counts:
        if offsets is None:
            _, c1 = model_initial_weights(nt, dt, SLOPE_ORDER, max(n, initial_points), True)
        else:
            _, c1 = model_start_weights(offsets, SLOPE_ORDER, max(n, initial_points), True)
        w = c1[0, :rows]
        slopes.append(w @ u[:rows])
        variances.append((w * w) @ est.variance[:rows])
    chosen = 0
    for j in range(1, len(counts)):
        ok = all(
            np.mean(
                (slopes[j] - slopes[i]) ** 2
                / np.maximum(variances[i] - variances[j], TINY_VARIANCE)
            )
            <= LEPSKI_LIMIT
            for i in range(j)
        )
        if not ok:
            break
        chosen = j
    return counts[chosen]


def exact_time_weak_library(
    u: Array,
    t: Array,
    x: Array,
    *,
    operator: OperatorKind,
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
) -> ExactTimeWeakLibrary:
    """Build the exact-target weak library of a field (test counts by the paper's rule).

    ``widths="corner"``: the temporal bumps widen to the spectral corner rule
    (:func:`corner_bump_radius`) when the data's signal band is narrower than the paper's width
    passes; never narrower than the paper's width. The ``u'(0)`` window of ``initial="model"``
    adapts to the noise (:func:`adaptive_slope_points`).
    """
    t = np.asarray(t, dtype=float)
    u = np.asarray(u, dtype=float)
    adapt = initial == "model"
    noise = None
    if (widths == "corner" or adapt) and max(u.shape) >= MIN_AXIS_SAMPLES:
        noise = estimate_noise(u, "auto")  # read once: the corner floor, the window, the score
    dt, dx = uniform_step(t, "t"), uniform_step(x, "x")
    period = float(period) if period is not None else dx * x.size
    kt, kx = test_counts or tf.paper_test_counts(t.size, x.size, budget)
    _, spatial = build_test_functions(t, x, period, spatial_tests, (kt, kx), budget)
    radius = bump_radius(t, bump_power, width_scale)
    if widths == "corner":
        radius = corner_bump_radius(u, t, bump_power, radius, noise)
    bumps = polynomial_bumps(t, kt, radius, bump_power)
    # u'(0) (superunit targets only) from a window of a fraction of the bump half-width: its
    # noise enters every superunit target with a large weight, its bias only through the terms
    # the fit leaves out (a quadratic: O(window^2); the Caputo basis: O(window^(2 alpha - 1)))
    fraction = MODEL_SLOPE_WINDOW if initial == "model" else SLOPE_WINDOW
    slope_points = max(int(initial_points), int(round(fraction * radius / dt)))
    if adapt:
        slope_points = adaptive_slope_points(u, dt, slope_points, initial_points, noise)
    return ExactTimeWeakLibrary(
        u=u,
        dt=dt,
        dx=dx,
        period=period,
        operator=operator,
        power_mode=power_mode,
        temporal_tests=bumps.values(t),
        spatial_tests=spatial,
        temporal_scheme="l1",
        t=t,
        bumps=bumps,
        initial=initial,
        initial_points=initial_points,
        slope_points=slope_points,
        noise=noise,
        start_slope=start_slope,
    )
