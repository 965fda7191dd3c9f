"""JSON-safe forms of discovery results (lossless; non-finite floats become null)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from weakpareto.records import DiscoveryResult, Equation, FrontPoint


def finite_or_none(v: float) -> float | None:
    v = float(v)
    return v if math.isfinite(v) else None


def as_float(v: Any) -> float:
    return float("nan") if v is None else float(v)


def _front_point_to_dict(fp: FrontPoint) -> dict[str, Any]:
    return {
        "size": int(fp.size),
        "train_error": finite_or_none(fp.train_error),
        "val_error": finite_or_none(fp.val_error),
        "objective": finite_or_none(fp.objective),
        "aic": finite_or_none(fp.aic),
        "bic": finite_or_none(fp.bic),
        "equation": fp.equation.to_dict(),
    }


def _front_point_from_dict(d: dict[str, Any]) -> FrontPoint:
    return FrontPoint(
        size=int(d["size"]),
        train_error=as_float(d["train_error"]),
        val_error=as_float(d["val_error"]),
        objective=as_float(d["objective"]),
        aic=as_float(d["aic"]),
        bic=as_float(d["bic"]),
        equation=Equation.from_dict(d["equation"]),
    )


def result_to_dict(res: DiscoveryResult) -> dict[str, Any]:
    """Lossless JSON-safe form of a :class:`DiscoveryResult` (non-finite floats -> null)."""
    return {
        "front": [_front_point_to_dict(fp) for fp in res.front],
        "pareto": [int(s) for s in res.pareto],
        "selected_size": int(res.selected_size),
        "selected": res.selected.to_dict(),
        "final": res.final.to_dict(),
        "fit_error": finite_or_none(res.fit_error),
        "timings": {k: float(v) for k, v in res.timings.items()},
        "gain_floor": None if res.gain_floor is None else float(res.gain_floor),
        "search_ridge": None if res.search_ridge is None else float(res.search_ridge),
    }


def result_from_dict(d: dict[str, Any]) -> DiscoveryResult:
    """Inverse of :func:`result_to_dict`."""
    return DiscoveryResult(
        front=tuple(_front_point_from_dict(fp) for fp in d["front"]),
        pareto=tuple(int(s) for s in d["pareto"]),
        selected_size=int(d["selected_size"]),
        selected=Equation.from_dict(d["selected"]),
        final=Equation.from_dict(d["final"]),
        fit_error=as_float(d["fit_error"]),
        timings={k: float(v) for k, v in d.get("timings", {}).items()},
        gain_floor=None if d.get("gain_floor") is None else float(d["gain_floor"]),
        search_ridge=None if d.get("search_ridge") is None else float(d["search_ridge"]),
    )


def json_param(v: Any) -> Any:
    if isinstance(v, tuple | list):
        return [json_param(i) for i in v]
    if isinstance(v, np.generic):
        return v.item()
    return v


def changed_params(params: dict[str, Any], defaults: dict[str, Any]) -> list[str]:
    """``name=value`` of every parameter that differs from its default (a list equals the tuple
    of its items)."""

    def same(a: Any, b: Any) -> bool:
        if isinstance(a, list | tuple) and isinstance(b, list | tuple):
            return list(a) == list(b)
        return bool(a == b)

    return [f"{k}={v!r}" for k, v in params.items() if not same(v, defaults[k])]
