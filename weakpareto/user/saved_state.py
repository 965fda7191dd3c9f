"""Checks of a saved :class:`~weakpareto.user.estimator.WeakPareto` state before it is rebuilt.

``WeakPareto.from_json`` / ``from_dict`` read what ``to_json()`` or ``wp discover`` wrote; a
file that was truncated, hand-edited or is not such a state at all is refused with one line
(:class:`UserInputError`) naming the part that is wrong, instead of a ``KeyError`` or
``TypeError`` from deep inside the record classes, or an unfitted model with parameters that
``fit`` would refuse later.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from weakpareto.errors import UserInputError
from weakpareto.fit.checks import FitWarning
from weakpareto.records import DiscoveryResult
from weakpareto.user.serialise import result_from_dict
from weakpareto.user.uncertainty_report import Uncertainty, check_uncertainty
from weakpareto.user.validation import check_params, one_line

T = TypeVar("T")
#: Parameters stored as JSON lists that the estimator holds as tuples.
TUPLE_PARAMS = ("alpha_range", "beta_range", "powers", "test_counts")
FIX = "pass the JSON that to_json() or wp discover wrote, unchanged"


def parse_state_json(text: Any) -> Any:
    """The decoded JSON text of a state (``from_json``)."""
    if not isinstance(text, str | bytes | bytearray):
        raise TypeError(
            f"from_json takes JSON text, got {type(text).__name__}; for a dict use from_dict, "
            "for a file from_json(open(path).read())"
        )
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise UserInputError(f"not JSON text ({one_line(err)}); {FIX}") from None


def state_params(d: Any) -> dict[str, Any]:
    """The constructor parameters of a state (``to_dict`` output), lists turned to tuples."""
    if not isinstance(d, dict) or not ({"params", "result"} & set(d)):
        keys = ", ".join(map(str, d)) if isinstance(d, dict) else type(d).__name__
        raise UserInputError(
            f"not a WeakPareto state: it has no 'params' or 'result' (got {keys or 'nothing'});"
            " pass the output of to_dict()/to_json() or the JSON that wp discover writes"
        )
    params = d.get("params", {})
    if not isinstance(params, dict):
        raise UserInputError(
            f"the state's 'params' must be an object of parameters, got "
            f"{type(params).__name__}; {FIX}"
        )
    params = dict(params)
    for k in TUPLE_PARAMS:
        if isinstance(params.get(k), list):
            params[k] = tuple(params[k])
    return params


def check_state_params(params: Mapping[str, Any]) -> None:
    """The parameters a state holds must be ones ``fit`` accepts."""
    check_params(params)
    check_uncertainty(params)


def rebuilt(build: Callable[[], T], what: str) -> T:
    """``build()``, with a malformed ``what`` of the state reported in one line."""
    try:
        return build()
    except UserInputError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, AssertionError) as err:
        detail = f"{type(err).__name__}: {one_line(err)}" if str(err) else type(err).__name__
        raise UserInputError(
            f"the state's {what} is incomplete or corrupt ({detail}); {FIX}"
        ) from None


def fitted_state(
    d: Mapping[str, Any],
) -> tuple[DiscoveryResult, dict[str, Any], list[FitWarning], Uncertainty | None]:
    """The fitted parts of a state: result, grid record, diagnostics and intervals."""
    found = rebuilt(lambda: [FitWarning.from_dict(w) for w in d.get("warnings", [])], "warnings")
    unc = rebuilt(
        lambda: None if d.get("uncertainty") is None else Uncertainty.from_dict(d["uncertainty"]),
        "uncertainty",
    )
    grid = rebuilt(lambda: dict(d.get("grid", {})), "grid")
    return rebuilt(lambda: result_from_dict(d["result"]), "result"), grid, found, unc
