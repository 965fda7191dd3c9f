"""Several experiments of one equation at the users' door: arguments, checks, common units.

``WeakPareto.fit([u1, u2, u3], [t1, t2, t3], [x1, x2, x3])`` and ``wp discover
data=[a.npz,b.npz,c.npz]`` fit one equation — shared alpha, orders and coefficients — to the
pooled weak rows of every experiment (:mod:`weakpareto.library.pooled`). Each experiment keeps its
own uniform grid, length and initial condition; a single ``t``, ``x`` (``y``), ``period`` or
``period_y`` is shared by all experiments.

* :func:`split_experiments` recognises a list of ``u`` arrays and pairs every experiment with its
  grids (one per experiment, or one for all);
* :func:`check_experiments` validates every experiment with the single-field checks, prefixing a
  failure with the experiment it concerns (e.g. a record too short to carry a weak equation:
  ``experiment 2 (data=b.npz): too few grid points ... need nt >= 19``), then what the
  experiments must share: the number of spatial dimensions, and the memory of their pooled
  weak rows;
* :func:`dimensionless_fields` puts all experiments on one set of scales
  (:meth:`weakpareto.user.scaling.Scales.common`) and :func:`fit_data` hands them to the fit
  layer as :class:`weakpareto.fit.sources.Experiments`.

Their grid record (``grid_["experiments"]``, one entry per experiment with its 1-based
``experiment`` number and its weak equations ``rows``) is :mod:`weakpareto.user.grid_record`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from weakpareto.errors import UserInputError
from weakpareto.fit.sources import Experiments, FitData, FitField
from weakpareto.user.checked_data import check_data
from weakpareto.user.limits import library_bytes, memory_budget_bytes
from weakpareto.user.scaling import Scales
from weakpareto.user.validation import CheckedField, CheckedField2D

Checked = CheckedField | CheckedField2D


@dataclass(frozen=True)
class ExperimentArgs:
    """The arrays of one experiment as given (validated by :func:`check_experiments`)."""

    u: Any
    t: Any
    x: Any
    y: Any = None
    period: Any = None
    period_y: Any = None


def is_experiment_list(u: Any) -> bool:
    """Whether ``u`` is several experiments: a list or tuple of arrays of at least two axes."""
    return (
        isinstance(u, list | tuple)
        and len(u) > 0
        and all(isinstance(v, np.ndarray) and v.ndim >= 2 for v in u)
    )


def _per_experiment(name: str, value: Any, n: int, grid: bool) -> list[Any]:
    """``value`` for each of ``n`` experiments: a list/tuple with one entry per experiment, or
    one value shared by all (a grid given as a list of numbers is one grid)."""
    if isinstance(value, list | tuple) and len(value) > 0:
        # a grid list holds arrays (None: an experiment without that axis), not numbers
        arrays = [v for v in value if v is not None]
        per = bool(arrays) and all(np.ndim(v) >= 1 for v in arrays) if grid else True
        if per:
            if len(value) != n:
                raise UserInputError(
                    f"{name} has {len(value)} entries for {n} experiments; give one per "
                    f"experiment or a single {name} shared by all"
                )
            return list(value)
    return [value] * n


def split_experiments(
    u: Any, t: Any, x: Any, y: Any = None, period: Any = None, period_y: Any = None
) -> tuple[ExperimentArgs, ...] | None:
    """The experiments of a ``fit`` call, or None when ``u`` is one field."""
    if not is_experiment_list(u):
        return None
    n = len(u)
    ts = _per_experiment("t", t, n, grid=True)
    xs = _per_experiment("x", x, n, grid=True)
    ys = _per_experiment("y", y, n, grid=True)
    ps = _per_experiment("period", period, n, grid=False)
    pys = _per_experiment("period_y", period_y, n, grid=False)
    return tuple(ExperimentArgs(*args) for args in zip(u, ts, xs, ys, ps, pys, strict=True))


def experiment_label(k: int, names: Sequence[str] | None = None) -> str:
    """``experiment 2`` or ``experiment 2 (data=b.npz)`` for the 0-based index ``k``."""
    name = f" (data={names[k]})" if names is not None and k < len(names) else ""
    return f"experiment {k + 1}{name}"


def check_experiments(
    params: Mapping[str, Any],
    experiments: Sequence[ExperimentArgs],
    names: Sequence[str] | None = None,
) -> tuple[Checked, ...]:
    """Validate every experiment (:func:`weakpareto.user.checked_data.check_data`, a failure
    prefixed with the experiment) and what they must share (module docstring)."""
    if isinstance(experiments, str | bytes) or not isinstance(experiments, Sequence):
        raise UserInputError(
            f"experiments must be a list of ExperimentArgs(u, t, x, ...), got "
            f"{type(experiments).__name__}; e.g. [ExperimentArgs(u1, t1, x1), "
            "ExperimentArgs(u2, t2, x2)]"
        )
    if not experiments:
        raise UserInputError("experiments is empty; give at least one ExperimentArgs(u, t, x)")
    wrong = [k for k, e in enumerate(experiments) if not isinstance(e, ExperimentArgs)]
    if wrong:
        kind = type(experiments[wrong[0]]).__name__
        raise UserInputError(
            f"{experiment_label(wrong[0], names)} is of type {kind}, not an "
            "ExperimentArgs(u, t, x, ...); wrap each experiment's arrays in one"
        )
    checked: list[Checked] = []
    for k, e in enumerate(experiments):
        try:
            checked.append(check_data(dict(params), e.u, e.t, e.x, e.y, e.period, e.period_y))
        except UserInputError as err:
            raise UserInputError(f"{experiment_label(k, names)}: {err}") from None
    dims = [_dims(f) for f in checked]
    if len(set(dims)) > 1:
        odd = next(k for k, d in enumerate(dims) if d != dims[0])
        raise UserInputError(
            f"{experiment_label(odd, names)} has {dims[odd]} spatial dimension(s) "
            f"(u {_shape_text(checked[odd])}) but {experiment_label(0, names)} has {dims[0]} "
            f"(u {_shape_text(checked[0])}); one equation needs experiments with the same "
            "spatial dimensions"
        )
    _check_pooled_memory(params, checked)
    return tuple(checked)


def _dims(field: Checked) -> int:
    return 2 if isinstance(field, CheckedField2D) else 1


def _shape_text(field: Checked) -> str:
    return " x ".join(str(n) for n in field.u.shape)


def _check_pooled_memory(params: Mapping[str, Any], fields: Sequence[Checked]) -> None:
    """The pooled rows of all experiments within the memory budget (each alone is checked by
    :func:`weakpareto.user.limits.check_memory`)."""
    need = sum(library_bytes(params, f.shape) for f in fields)
    budget = memory_budget_bytes()
    if need > budget:
        raise UserInputError(
            f"the {len(fields)} experiments together would need about {need / 1024.0**3:.1f} "
            f"GiB for their pooled weak rows (budget {budget / 1024.0**3:g} GiB, "
            "$WEAKPARETO_MEMORY_GIB to change); fit fewer experiments at once, subsample them "
            "or give smaller test_counts"
        )


def dimensionless_fields(
    fields: tuple[CheckedField | CheckedField2D, ...],
) -> tuple[Scales, tuple[CheckedField | CheckedField2D, ...]]:
    """The scales and the dimensionless fields: one field on its own scales, several
    experiments on common ones (:mod:`weakpareto.user.scaling`)."""
    if len(fields) == 1:
        scales = Scales.of(fields[0])
        return scales, (scales.dimensionless(fields[0]),)
    scales = Scales.common(fields)
    return scales, tuple(scales.dimensionless_experiment(f) for f in fields)


def fit_field(field: CheckedField | CheckedField2D, period_given: bool) -> FitField:
    """The fit layer's field of a validated (dimensionless) field."""
    return FitField(
        field.u,
        field.t,
        field.x,
        field.y if isinstance(field, CheckedField2D) else None,
        field.period,
        field.period_y if isinstance(field, CheckedField2D) else None,
        period_given=period_given,
        missing=getattr(field, "missing", None),
        irregular_t=bool(getattr(field, "irregular", False)),
    )


def fit_data(fields: tuple[CheckedField | CheckedField2D, ...], given: bool) -> FitData:
    """The fit layer's data of validated dimensionless fields: one field, or experiments."""
    parts = tuple(fit_field(f, given) for f in fields)
    return parts[0] if len(parts) == 1 else Experiments(parts)


def period_given(value: Any) -> bool:
    """Whether a period argument was given (for several experiments: for any of them)."""
    if isinstance(value, list | tuple):
        return any(v is not None for v in value)
    return value is not None
