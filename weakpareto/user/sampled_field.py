"""Data as measured at the user's door: irregular times, NaN gaps, ``mask=`` and ``numpy.ma``.

A 1-D field may be sampled at strictly increasing times with any steps, and may miss samples:
NaN entries, ``mask`` (True = missing, the shape of ``u``) or a masked array's mask. The exact
weak Caputo target (``method=weak_pareto_exact``) integrates on the samples actually taken
(:mod:`weakpareto.library.weighted_time`); every other method, 2-D data and bounded domains
refuse such data with one line naming the fix.

* a frame missing more than :data:`MAX_FRAME_MISSING` of its samples is dropped (its time is
  then simply not sampled); the first frame is the Caputo derivative's start and must be kept;
* the missing samples of the other frames get zero quadrature weight; their values in the
  validated ``u`` are the row's periodic linear interpolant
  (:func:`weakpareto.numerics.sampled_time.periodic_fill`), read only where a non-local operator
  or a start value needs the whole row, and by the scales and diagnostics (so a masked value,
  however wild, never enters the fit);
* more than :data:`MAX_MISSING_SHARE` of the samples missing is refused.

Complete data on a uniform grid take the unchanged path (:func:`weakpareto.user.validation.
check_field`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from weakpareto._typing import Array
from weakpareto.errors import UserInputError
from weakpareto.method.settings import named_features
from weakpareto.numerics.sampled_time import is_uniform, mean_step, periodic_fill
from weakpareto.user.field_values import check_period, check_repeated_endpoint, check_values
from weakpareto.user.validation import (
    REL_STEP_TOL,
    SAMPLED_HINT,
    CheckedField,
    NonUniformGrid,
    _as_grid,
    _as_real_array,
    _check_coordinates,
    _check_grid,
    _too_few,
    check_field,
)

#: A frame missing more than this share of its samples is dropped as a whole.
MAX_FRAME_MISSING = 0.5
#: Largest share of missing samples (in the kept frames) a fit accepts.
MAX_MISSING_SHARE = 0.5


def with_mask(u: Any, mask: Any) -> Any:
    """``u`` as a masked array with ``mask`` (True = missing) added to its own mask; ``u``
    itself when ``mask`` is None."""
    if mask is None:
        return u
    if isinstance(u, list | tuple):
        raise UserInputError(
            "mask= applies to one field; for several experiments pass each u as a masked "
            "array (numpy.ma.masked_array(u, mask=m)) or with NaN at the missing samples"
        )
    m = np.asarray(mask)
    if m.dtype.kind not in "biu" or (m.dtype.kind != "b" and not np.isin(m, (0, 1)).all()):
        raise UserInputError(f"mask has dtype {m.dtype}; pass booleans (True = missing)")
    values = np.ma.getdata(u)
    if m.shape != np.shape(values):
        raise UserInputError(
            f"mask has shape {m.shape} but u has shape {np.shape(values)}; give one flag per "
            "sample of u (True = missing)"
        )
    return np.ma.masked_array(values, mask=np.ma.getmaskarray(u) | m.astype(bool))


def sampled_allowed(params: Mapping[str, Any]) -> bool:
    """Whether the method integrates on the samples taken (the exact weak Caputo target)."""
    return named_features(str(params["method"])).temporal_target == "exact"


def has_mask(u: Any) -> bool:
    """Whether ``u`` is a masked array with a masked sample."""
    return isinstance(u, np.ma.MaskedArray) and bool(np.ma.getmaskarray(u).any())


def _values_and_missing(u: Any) -> tuple[Array, Array | None]:
    """The values as float64 and the missing samples (NaN or masked; None if none)."""
    values = _as_real_array("u", np.ma.getdata(u) if isinstance(u, np.ma.MaskedArray) else u)
    missing = np.isnan(values)
    if isinstance(u, np.ma.MaskedArray):
        missing = missing | np.ma.getmaskarray(u)
    return values, (missing if missing.any() else None)


def _irregular_t(values: Array, t: Any) -> bool:
    """Whether ``t`` matches ``u``'s time axis, increases strictly and has unequal steps."""
    t_arr, t_res = _as_grid("t", t)
    if values.ndim != 2 or t_arr.ndim != 1 or t_arr.size != values.shape[0] or t_arr.size < 3:
        return False  # the shape checks of check_field report it
    try:
        _check_grid("t", t_arr, t_res)
    except NonUniformGrid:
        return True
    return False


def check_sampled_field(
    u: Any, t: Any, x: Any, period: Any, params: Mapping[str, Any]
) -> CheckedField:
    """Validate a 1-D field that may be irregular in time or miss samples (module docstring);
    complete uniform data take :func:`check_field` unchanged."""
    values, missing = _values_and_missing(u)
    irregular = _irregular_t(values, t)
    if missing is None and not irregular:
        return check_field(
            np.ma.getdata(u) if isinstance(u, np.ma.MaskedArray) else u, t, x, period
        )
    if not sampled_allowed(params):
        if irregular:
            return check_field(values, t, x, period)  # the non-uniform message with its hint
        assert missing is not None
        raise UserInputError(
            f"u misses {int(missing.sum())} sample(s) (NaN or masked), first at (i, j) = "
            f"{tuple(int(k) for k in np.argwhere(missing)[0])}; gaps and masks need "
            f"method=weak_pareto_exact (method={params['method']} needs complete data)"
        )
    if params.get("domain") == "bounded":
        raise UserInputError(
            "irregular t and missing samples need a periodic domain (the sampled quadrature of "
            "method=weak_pareto_exact is periodic in x); pass domain=periodic or domain=auto"
        )
    return _sampled(values, missing, t, x, period)


def _sampled(values: Array, missing: Array | None, t: Any, x: Any, period: Any) -> CheckedField:
    t_arr, t_res = _as_grid("t", t)
    x_arr, x_res = _as_grid("x", x)
    _check_coordinates(("t", "x"), (t_arr, x_arr))
    if values.ndim != 2 or values.shape != (t_arr.size, x_arr.size):
        return check_field(values, t_arr, x_arr, period)  # its shape message
    try:
        _check_grid("t", t_arr, t_res)  # finite, strictly increasing; any steps
    except NonUniformGrid:
        pass
    dx = _check_grid("x", x_arr, x_res)
    miss = np.zeros(values.shape, dtype=bool) if missing is None else missing
    frame_share = miss.mean(axis=1)
    gone = frame_share > MAX_FRAME_MISSING
    if gone[0]:
        raise UserInputError(
            f"the first frame (t={t_arr[0]:g}) misses {frame_share[0]:.0%} of its samples; the "
            "Caputo derivative starts at the first sample, so it must be measured: give that "
            "frame, or start the record (t, u) at a complete frame"
        )
    t_arr, values, miss = t_arr[~gone], values[~gone], miss[~gone]
    share = float(miss.mean())
    if share > MAX_MISSING_SHARE:
        raise UserInputError(
            f"{share:.0%} of the samples of the kept frames are missing (more than "
            f"{MAX_MISSING_SHARE:.0%}); too little data is left for the weak equations"
        )
    p, drop = check_period(period, x_arr.size, dx)
    filled = periodic_fill(np.where(miss, 0.0, values), ~miss)
    if drop:
        check_repeated_endpoint(filled, 1, "x", "period", x_arr.size * dx)
        filled, x_arr, miss = filled[:, :-1], x_arr[:-1], miss[:, :-1]
    _too_few(filled.shape)
    check_values(filled, ("t", "x"), (t_arr, x_arr), SAMPLED_HINT.format("gaps (NaN, masks)"))
    return CheckedField(
        filled,
        t_arr,
        x_arr,
        mean_step(t_arr),
        dx,
        p,
        drop,
        missing=miss if miss.any() else None,
        frames_dropped=int(gone.sum()),
        irregular=not is_uniform(t_arr, REL_STEP_TOL),
    )


def sampling_record(field: CheckedField, library_record: Mapping[str, Any]) -> dict[str, Any]:
    """The ``grid["sampling"]`` record: what was missing and what the fit left out."""
    missing = 0 if field.missing is None else int(np.count_nonzero(field.missing))
    return {
        "irregular_t": bool(field.irregular),
        "t_min_step": float(np.min(np.diff(field.t))),
        "t_max_step": float(np.max(np.diff(field.t))),
        "missing_samples": missing,
        "missing_frames": int(field.frames_dropped),
        **dict(library_record),
    }
