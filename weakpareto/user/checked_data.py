"""Validation of the data together with the dimension-specific parameters (1-D or 2-D)."""

from __future__ import annotations

import numbers
from typing import Any

from weakpareto.errors import UserInputError
from weakpareto.user.limits import check_memory, check_seed_range
from weakpareto.user.sampled_field import check_sampled_field, has_mask, with_mask
from weakpareto.user.validation import (
    CheckedField,
    CheckedField2D,
    check_field_2d,
    check_spatial_dims,
)

__all__ = ["check_data", "with_mask"]


def check_data(
    params: dict[str, Any],
    u: Any,
    t: Any,
    x: Any,
    y: Any = None,
    period: Any = None,
    period_y: Any = None,
) -> CheckedField | CheckedField2D:
    """Validate the data (1-D without ``y``, 2-D with it) and the dimension-specific parameters.

    ``params`` is the output of :func:`check_params`.
    """
    if y is None:
        if period_y is not None:
            raise UserInputError(
                "period_y= applies to 2-D data only; pass the y grid too, or drop period_y"
            )
        # irregular t or missing samples: the sampled path; complete uniform data: check_field
        field: CheckedField | CheckedField2D = check_sampled_field(u, t, x, period, params)
        check_spatial_dims(params, 1)
        check_seed_range(params, 1)
        check_memory(params, field.shape)
        return field
    if isinstance(y, numbers.Number):
        raise UserInputError(
            f"y={y!r} is a number, not a grid; pass the x period by keyword, "
            "fit(u, t, x, period=L), or y as the array of y coordinates"
        )
    if has_mask(u):
        raise UserInputError(
            "masks and gaps are 1-D only (method=weak_pareto_exact, periodic); give a complete "
            "2-D field"
        )
    check_spatial_dims(params, 2)
    check_seed_range(params, 2)
    field2 = check_field_2d(u, t, x, y, period, period_y)
    check_memory(params, field2.shape)
    return field2
