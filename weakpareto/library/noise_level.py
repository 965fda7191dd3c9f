"""The noise of a field, read from the data: the package's one noise estimator.

White measurement noise of variance ``s^2`` gives the k-th finite difference along an axis the
variance ``C(2k, k) s^2`` (``sum_j binom(k, j)^2``), while a signal resolved on the grid has tiny
high-order differences. Two readings of that fact serve every caller:

- :func:`estimate_noise`, the noise *law* and its variance field for the errors-in-variables
  correction (docs/method/extensions.md#noise-aware-scoring): sixth differences (gain 924) along
  the smoother axis; multiplicative noise has ``s = r^2 u^2``, additive ``s = sigma^2``, and
  ``auto`` picks the law whose fit of the squared differences against the local ``u^2`` is
  better. Irregular axes and gaps are never differenced across (complete stencils only).
- :func:`relative_noise_level`, the apparent white-noise level relative to ``std(u)`` that the
  fit's diagnostics report: for every axis (t, x [, y]) and order k = 2..6 the level
  ``mean((Delta^k u)^2) / C(2k, k)`` (:func:`difference_levels`), the smallest one (the axis and
  order where the signal leaks least). The mean square counts heteroscedastic noise at its rms.
  Fields rough on the grid in every direction read as noise: an upper bound, "apparent" noise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from typing import Literal

import numpy as np

from weakpareto._typing import Array, BoolArray

#: Finite-difference orders of the per-axis levels (:func:`difference_levels`).
DIFFERENCE_ORDERS = (2, 3, 4, 5, 6)
#: Samples an axis needs for :func:`estimate_noise` to difference along it (a sixth difference
#: and room on both sides).
MIN_AXIS_SAMPLES = 12

NoiseModel = Literal["none", "additive", "multiplicative", "auto"]
NoiseLaw = Literal["additive", "multiplicative"]

#: ``sum_k binom(6, k)^2``: variance gain of the sixth difference on white noise.
SIXTH_DIFFERENCE_GAIN = 924.0


@dataclass(frozen=True)
class NoiseEstimate:
    """Estimated noise law, level (std; relative std for multiplicative) and variance field."""

    law: NoiseLaw
    level: float
    variance: Array  # (nt, nx)


def _sixth_differences(u: Array) -> tuple[Array, Array, int]:
    """Sixth differences along the smoother axis, the matching ``u^2`` and that axis."""
    best: tuple[Array, Array, int] | None = None
    for axis in (0, 1):
        if u.shape[axis] < MIN_AXIS_SAMPLES:
            continue
        d = np.diff(u, n=6, axis=axis)
        sl = [slice(None), slice(None)]
        sl[axis] = slice(3, 3 + d.shape[axis])
        u2 = u[tuple(sl)] ** 2
        if best is None or np.mean(d * d) < np.mean(best[0] ** 2):
            best = (d, u2, axis)
    if best is None:
        raise ValueError(
            f"noise estimation needs at least {MIN_AXIS_SAMPLES} samples along time or space"
        )
    return best


def _usable_differences(u: Array, usable: BoolArray, axes: tuple[int, ...]) -> tuple[Array, Array]:
    """Sixth differences (and the matching ``u^2``) along ``axes`` on runs of seven usable
    samples only, flattened: a gap or an irregular axis is never differenced across."""
    ds, u2s = [], []
    for axis in axes:
        if u.shape[axis] < MIN_AXIS_SAMPLES:
            continue
        d = np.diff(u, n=6, axis=axis)
        ok = np.ones(d.shape, dtype=bool)
        for k in range(7):  # all seven samples of the stencil present
            sl = [slice(None), slice(None)]
            sl[axis] = slice(k, k + d.shape[axis])
            ok &= usable[tuple(sl)]
        sl = [slice(None), slice(None)]
        sl[axis] = slice(3, 3 + d.shape[axis])
        ds.append(d[ok])
        u2s.append(u[tuple(sl)][ok] ** 2)
    if not ds or min(x.size for x in ds) == 0:
        return np.zeros(0), np.zeros(0)
    best = int(np.argmin([np.mean(d * d) for d in ds]))  # the smoother axis, as for full data
    return ds[best], u2s[best]


def estimate_noise(
    u: Array,
    model: NoiseModel,
    usable: BoolArray | None = None,
    axes: tuple[int, ...] = (0, 1),
) -> NoiseEstimate | None:
    """Noise law and variance field of ``u`` (``None`` for ``model="none"``).

    ``usable`` (bool, shape of ``u``) marks the samples taken and ``axes`` the axes with uniform
    steps: the differences then use complete stencils along those axes only; with none the
    estimate is zero noise (the noise model is off)."""
    if model == "none":
        return None
    u = np.asarray(u, dtype=float)
    if usable is None and axes == (0, 1):
        d, u2, _ = _sixth_differences(u)
    else:
        mask = np.ones(u.shape, dtype=bool) if usable is None else np.asarray(usable, bool)
        d, u2 = _usable_differences(u, mask, axes)
        if d.size == 0:
            return NoiseEstimate("additive", 0.0, np.zeros(u.shape))
    d2 = d * d / SIXTH_DIFFERENCE_GAIN
    add_var = float(np.mean(d2))
    mult_var = float(np.sum(d2 * u2) / max(np.sum(u2 * u2), 1e-300))  # LS fit d2 ~ r^2 u^2
    law: NoiseLaw
    if model == "auto":
        add_res = float(np.sum((d2 - add_var) ** 2))
        mult_res = float(np.sum((d2 - mult_var * u2) ** 2))
        law = "multiplicative" if mult_res < add_res else "additive"
    else:
        law = model
    if law == "multiplicative":
        # E[(u(1 + r z))^2] = u^2 (1 + r^2): the noisy u^2 overstates the clean one.
        variance = mult_var * u * u / (1.0 + mult_var)
        return NoiseEstimate(law, float(np.sqrt(mult_var)), variance)
    return NoiseEstimate(law, float(np.sqrt(add_var)), np.full(u.shape, add_var))


#: Values per block of :func:`difference_levels` (memory only: the sums are accumulated).
LEVEL_BLOCK_VALUES = 1 << 20


def difference_levels(u: Array, axis: int) -> dict[int, float]:
    """``mean((Delta^k u)^2) / C(2k, k)`` along ``axis`` for every ``k`` of
    :data:`DIFFERENCE_ORDERS` the axis is long enough for (two differences left): the white-noise
    variance each order reads. One pass of successive differences serves every order
    (``np.diff(u, n=k)`` is the same recursion), on blocks of another axis at a time."""
    u = np.asarray(u, dtype=float)
    n = u.shape[axis]
    orders = [k for k in DIFFERENCE_ORDERS if n - k >= 2]
    if not orders:
        return {}
    other = 0 if axis != 0 else min(1, u.ndim - 1)
    width = max(1, LEVEL_BLOCK_VALUES * u.shape[other] // max(u.size, 1))
    sums = dict.fromkeys(orders, 0.0)
    for start in range(0, u.shape[other] if other != axis else 1, width):
        index: list[slice] = [slice(None)] * u.ndim
        if other != axis:
            index[other] = slice(start, start + width)
        d = u[tuple(index)]
        for k in range(1, orders[-1] + 1):
            d = np.diff(d, axis=axis)
            if k in sums:
                sums[k] += float(np.sum(d * d))
    per_order = u.size // n  # samples of the other axes
    return {k: sums[k] / ((n - k) * per_order) / comb(2 * k, k) for k in orders}


def relative_noise_level(u: Array) -> float:
    """Apparent white-noise level of ``u`` relative to ``std(u)`` (module docstring)."""
    u = np.asarray(u, dtype=float)
    spread = float(np.std(u))
    if not spread > 0.0:
        return 0.0
    best = min(min(difference_levels(u, a).values(), default=np.inf) for a in range(u.ndim))
    return float(np.sqrt(best)) / spread if np.isfinite(best) else 0.0


def pooled_noise_level(fields: Sequence[Array]) -> float:
    """Apparent noise of several experiments: the root mean square of their
    :func:`relative_noise_level` values weighted by their numbers of samples (one field: its
    level)."""
    if len(fields) == 1:
        return relative_noise_level(fields[0])
    sizes = np.array([np.asarray(f).size for f in fields], dtype=float)
    levels = np.array([relative_noise_level(f) for f in fields])
    return float(np.sqrt(np.sum(sizes * levels**2) / np.sum(sizes)))
