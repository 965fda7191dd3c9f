"""What the values of a field and its declared period must satisfy before a fit: no NaN/inf, not
all zero, constant, a few spikes, static or uniform in a spatial direction; a period that matches
the grid (endpoint excluded or repeated), and a "repeated endpoint" that really repeats the first
sample. Every problem is a one-line :class:`~weakpareto.errors.UserInputError` naming the fix
(:mod:`weakpareto.user.validation` runs these checks on the arrays it has validated).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from weakpareto._typing import Array
from weakpareto.errors import UserInputError

#: A period within ``0.1 dx`` of ``nx dx`` or ``(nx - 1) dx`` matches the grid.
PERIOD_TOL_DX = 0.1
#: ``period=(n-1) h``: the last slice may differ from the first by at most this fraction of the
#: mean neighbour difference to count as a repeat of it (noise of two measurements of one point).
ENDPOINT_REPEAT_RATIO = 0.5
#: A field that differs from its median at no more than 1 / SPIKE_SHARE of its samples is a few
#: spikes on a constant (a corrupted or empty record), not dynamics.
SPIKE_SHARE = 100
#: Fields whose peak-to-peak range is below this fraction of their magnitude count as constant.
CONSTANT_RTOL = 1e-12


def _is_real(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def check_period(
    period: Any, nx: int, dx: float, axis: str = "x", key: str = "period"
) -> tuple[float, bool]:
    """Grid-consistent period of one spatial axis and whether its repeated endpoint is dropped.

    ``axis`` names the grid (``x`` or ``y``) and ``key`` the argument (``period``/``period_y``).
    """
    n, h = f"n{axis}", f"d{axis}"
    excluded, included = nx * dx, (nx - 1) * dx
    if period is None:
        return excluded, False
    if not _is_real(period) or not math.isfinite(float(period)):
        raise UserInputError(f"{key}={period!r} must be a positive number, e.g. {key}={excluded:g}")
    p = float(period)
    if p <= 0:
        raise UserInputError(
            f"{key}={p:g} must be > 0; omit it to use {n}*{h} = {excluded:g} (endpoint excluded)"
        )
    tol = PERIOD_TOL_DX * dx
    if p < included - tol:
        raise UserInputError(
            f"{key}={p:g} is smaller than the grid span ({n}-1)*{h} = {included:g}; the {axis} "
            f"grid must cover one period: use {key}={excluded:g} (endpoint excluded) or omit {key}="
        )
    if abs(p - excluded) <= tol:
        return excluded, False
    if abs(p - included) <= tol:
        return included, True
    raise UserInputError(
        f"{key}={p:g} does not match the {axis} grid: periodic spectral operators need {axis} to "
        f"cover exactly one period, {key} = {n}*{h} = {excluded:g} (endpoint excluded) or "
        f"({n}-1)*{h} = {included:g} (endpoint included), tolerance {PERIOD_TOL_DX:g}*{h}; "
        f"omit {key}= to use {n}*{h}"
    )


def check_repeated_endpoint(u: Array, axis: int, name: str, key: str, excluded: float) -> None:
    """``period = (n-1) h`` declares the last slice along ``axis`` a repeat of the first; refuse
    when it differs from the first as much as neighbouring slices differ from each other (it is
    then a real sample, and dropping it would lose data). A repeat measured twice differs by
    noise only, so the test is relative to the neighbour differences, not exact equality, and is
    made only on data smooth at the grid scale."""
    u = np.asarray(u, dtype=float)
    first, last, second = (np.take(u, k, axis=axis) for k in (0, -1, 1))
    gap = float(np.mean(np.abs(last - first)))
    step = float(np.mean(np.abs(second - first)))
    # only where the field is smooth on the grid (second differences well below first ones):
    # when noise dominates neighbour differences a repeat and a real sample look alike
    body = np.take(u, np.arange(u.shape[axis] - 1), axis=axis)
    smooth = float(np.mean(np.abs(np.diff(body, 2, axis=axis)))) < ENDPOINT_REPEAT_RATIO * float(
        np.mean(np.abs(np.diff(body, 1, axis=axis)))
    )
    if smooth and gap > ENDPOINT_REPEAT_RATIO * step and gap > 0.0:
        raise UserInputError(
            f"{key}=(n{name}-1)*d{name} says the last {name} sample repeats the first, but u there "
            f"differs from the first slice {gap / step:.2g}x as much as neighbouring slices do: it "
            f"is a real sample; use {key}={excluded:g} (endpoint excluded) or omit {key}="
        )


def check_values(
    u_arr: Array, names: Sequence[str], grids: Sequence[Array], hint: str = ""
) -> None:
    """NaN/inf (with location), all-zero, constant, static and spatially uniform fields
    (``hint`` ends the NaN message)."""
    bad = ~np.isfinite(u_arr)
    if bad.any():
        idx = tuple(int(k) for k in np.unravel_index(int(np.argmax(bad)), bad.shape))
        letters = ("i", "j", "k")[: len(idx)]
        coords = ", ".join(f"{g[i]:g}" for g, i in zip(grids, idx, strict=True))
        raise UserInputError(
            f"u has {int(bad.sum())} NaN/inf value(s), first at ({', '.join(letters)}) = "
            f"({', '.join(str(i) for i in idx)}), ({', '.join(names)}) = ({coords}); "
            f"fill or interpolate them before discovery{hint}"
        )
    scale = float(np.max(np.abs(u_arr)))
    if scale == 0.0:
        raise UserInputError("u is all zero; there is no dynamics to discover — check the data")
    first_value = float(u_arr.flat[0])
    u_arr = u_arr / scale  # unit-free: no overflow in the differences below, any units
    tol = CONSTANT_RTOL
    if float(np.ptp(u_arr)) <= tol:
        raise UserInputError(
            f"u is constant (every value {first_value:.6g}); there is no dynamics to "
            "discover — check the data"
        )
    baseline = float(np.median(u_arr))
    off = np.abs(u_arr - baseline) > tol
    if int(off.sum()) * SPIKE_SHARE <= u_arr.size:  # a few spikes on a constant, not a field
        idx = tuple(int(k) for k in np.unravel_index(int(np.argmax(off)), off.shape))
        raise UserInputError(
            f"u equals {baseline * scale:.6g} except at {int(off.sum())} of {u_arr.size} "
            f"samples (first at index {idx}); isolated spikes carry no dynamics the weak "
            "equations can resolve — check the data"
        )
    if float(np.max(np.abs(u_arr - u_arr[:1]))) <= tol:
        raise UserInputError(
            "u does not change in time (every row equals u[0]); the temporal target is zero — "
            "pass a time-dependent field"
        )
    if u_arr.ndim == 2:
        if float(np.max(np.abs(u_arr - u_arr[:, :1]))) <= tol:
            raise UserInputError(
                "u is uniform in x at every time; spatial derivatives vanish and no spatial term "
                "can be identified — pass a field that varies in x"
            )
        return
    for axis, name, other in ((1, "x", "y"), (2, "y", "x")):
        first = u_arr[:, :1, :] if axis == 1 else u_arr[:, :, :1]
        if float(np.max(np.abs(u_arr - first))) <= tol:
            sl = "u[:, 0, :]" if axis == 1 else "u[:, :, 0]"
            raise UserInputError(
                f"u is uniform in {name} at every (t, {other}); {name}-direction derivatives "
                f"vanish and no {name} term can be identified — fit the 1-D field {sl} on the "
                f"{other} grid instead"
            )
