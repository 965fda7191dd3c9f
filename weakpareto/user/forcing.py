"""Known forcing at the users' door: ``WeakPareto().fit(u, t, x, forcing=f)`` (ours).

Model: ``D_t^alpha u = sum_j xi_j u^{p_j} X_{beta_j} u + sum_f c_f f`` with every ``f`` a known
field of u's shape on u's grid — an injection, a source term, a control
(:mod:`weakpareto.fit.forcing`, :mod:`weakpareto.library.forcing`).

* ``forcing=f`` (an array; its term is named ``f``) or ``forcing={"source": f, ...}`` (named
  fields, several allowed). Names are identifiers other than ``u``, ``t``, ``x``, ``y``.
* ``forcing_coef=`` gives known coefficients: a number (one forcing field) or a mapping
  ``{"source": 0.5}``; such a term is moved to the target side and printed with its given
  coefficient. Every other forcing term is a candidate with its coefficient estimated, kept
  when the data need it and dropped when they do not.

Checks (:func:`check_forcing`, one line each): u's shape (as given, before a repeated periodic
endpoint column is dropped — the forcing's is dropped with it), real finite values, not zero
everywhere, finite coefficients of named fields; 2-D data and several experiments are refused.

Units (:mod:`weakpareto.user.scaling`): the search sees ``f / U`` with ``U = max |u|``; since
``D_t^alpha u = U T^-alpha D_t~^alpha u~``, the dimensionless coefficient is ``c T^alpha``, so a
forcing term maps back like an identity term with ``p = 0`` (``xi = xi~ T^-alpha``) and a given
coefficient enters the search as ``c T^alpha`` at every temporal order.
"""

from __future__ import annotations

import dataclasses
import numbers
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from weakpareto._typing import Array
from weakpareto.errors import UserInputError
from weakpareto.fit.sources import FitData, FitField
from weakpareto.library.forcing import Forcing
from weakpareto.records import DiscoveryResult, Equation
from weakpareto.user.scaling import Scales, round_mantissa
from weakpareto.user.validation import CheckedField, CheckedField2D

#: Name of a single forcing field given as an array.
DEFAULT_NAME = "f"
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_RESERVED = ("u", "t", "x", "y")


@dataclass(frozen=True)
class CheckedForcing:
    """A validated forcing field on the validated grid of u, with its given coefficient."""

    name: str
    values: Array
    coef: float | None = None


def _named(forcing: Any) -> dict[str, Any]:
    """``forcing=`` as ``{name: array}``."""
    if isinstance(forcing, Mapping):
        if not forcing:
            raise UserInputError("forcing={} names no field; give forcing=f or {'name': f}")
        named = {str(k): v for k, v in forcing.items()}
    else:
        named = {DEFAULT_NAME: forcing}
    for name in named:
        if not _NAME.match(name) or name in _RESERVED:
            raise UserInputError(
                f"forcing name {name!r} is not usable in an equation; use a letter followed by "
                f"letters, digits or _, other than {', '.join(_RESERVED)}"
            )
    return named


def _coefs(forcing_coef: Any, names: list[str]) -> dict[str, float]:
    """``forcing_coef=`` as ``{name: coefficient}`` (finite real numbers)."""
    if forcing_coef is None:
        return {}
    if isinstance(forcing_coef, Mapping):
        given = {str(k): v for k, v in forcing_coef.items()}
    elif len(names) == 1:
        given = {names[0]: forcing_coef}
    else:
        raise UserInputError(
            f"forcing_coef={forcing_coef!r} is one number for {len(names)} forcing fields; "
            f"give a mapping, e.g. forcing_coef={{{names[0]!r}: 0.5}}"
        )
    out = {}
    for name, value in given.items():
        if name not in names:
            raise UserInputError(
                f"forcing_coef names {name!r}, which is not a forcing field ({', '.join(names)})"
            )
        ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
        if not ok or not np.isfinite(float(value)):
            raise UserInputError(
                f"forcing_coef of {name!r} must be a finite real number, got {value!r}"
            )
        out[name] = float(value)
    return out


def _values(name: str, raw: Any, field: CheckedField) -> Array:
    """The field's values on the checked grid (u's repeated endpoint column dropped)."""
    try:
        arr = np.asarray(raw)
    except (TypeError, ValueError) as exc:
        raise UserInputError(f"forcing {name!r} is not an array: {exc}") from None
    if arr.dtype.kind not in "biuf":
        raise UserInputError(
            f"forcing {name!r} must hold real numbers, got dtype {arr.dtype} "
            "(complex values: pass the real field)"
        )
    nt, nx = field.shape
    given = (nt, nx + int(field.dropped_endpoint))
    if arr.shape != given:
        raise UserInputError(
            f"forcing {name!r} has shape {' x '.join(map(str, arr.shape)) or 'scalar'} but u "
            f"has shape {given[0]} x {given[1]}; give the forcing on u's grid (time on axis 0)"
        )
    arr = arr.astype(float)[:, :nx]
    bad = ~np.isfinite(arr)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise UserInputError(
            f"forcing {name!r} has {int(bad.sum())} non-finite values (first at t={field.t[i]:g}, "
            f"x={field.x[j]:g}); give a finite field"
        )
    if not np.any(arr != 0.0):
        raise UserInputError(f"forcing {name!r} is zero everywhere; drop it")
    return arr


def check_forcing(
    field: CheckedField | CheckedField2D | tuple[CheckedField | CheckedField2D, ...],
    forcing: Any,
    forcing_coef: Any = None,
) -> tuple[CheckedForcing, ...]:
    """Validate ``forcing=`` and ``forcing_coef=`` against the validated data (module
    docstring); empty without forcing."""
    if forcing is None:
        if forcing_coef is not None:
            raise UserInputError("forcing_coef= needs forcing= (the field it multiplies)")
        return ()
    if isinstance(field, tuple):
        raise UserInputError(
            "known forcing (forcing=) needs one experiment; fit the experiments one at a time"
        )
    if isinstance(field, CheckedField2D):
        raise UserInputError("known forcing (forcing=) is 1-D only; fit 2-D data without it")
    named = _named(forcing)
    coefs = _coefs(forcing_coef, list(named))
    return tuple(
        CheckedForcing(name, _values(name, raw, field), coefs.get(name))
        for name, raw in named.items()
    )


def with_forcing(data: FitData, forcing: tuple[CheckedForcing, ...], scales: Scales) -> FitData:
    """The fit layer's data with the forcing in the units of the search (module docstring)."""
    if not forcing:
        return data
    if not isinstance(data, FitField):
        raise UserInputError("known forcing (forcing=) needs one experiment")
    unitless = tuple(
        Forcing(f.name, round_mantissa(f.values / scales.u), f.coef, scales.t) for f in forcing
    )
    return dataclasses.replace(data, forcing=unitless)


def _given(eq: Equation, coef: dict[str, float]) -> Equation:
    terms = tuple(
        dataclasses.replace(t, coef=coef[t.forcing]) if t.fixed and t.forcing in coef else t
        for t in eq.terms
    )
    return dataclasses.replace(eq, terms=terms)


def given_coefficients(
    res: DiscoveryResult, forcing: tuple[CheckedForcing, ...]
) -> DiscoveryResult:
    """A result in the data's units with every given coefficient exactly as given (the mapping
    through the search's units rounds it in the last digit)."""
    coef = {f.name: f.coef for f in forcing if f.coef is not None}
    if not coef:
        return res
    front = tuple(dataclasses.replace(fp, equation=_given(fp.equation, coef)) for fp in res.front)
    return dataclasses.replace(
        res, final=_given(res.final, coef), selected=_given(res.selected, coef), front=front
    )
