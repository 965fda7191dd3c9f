"""The uncertainty columns of a ``wp run`` row (``uncertainty=bootstrap``; ours, beyond the paper,
docs/method/extensions.md#bootstrap-intervals).

With ``uncertainty=bootstrap`` every successful seed's selected equation is bootstrapped
(:func:`weakpareto.campaign.compute.bootstrap_seed`) and its row carries, per selected term in
the order of ``powers``/``orders``/``coefs`` (benchmark units, as the point estimate):

* ``uncertainty`` ("bootstrap"), ``n_boot``, ``level``, ``uncertainty_s`` (bootstrap seconds);
* the **raw** bootstrap percentile intervals ``alpha_lo``/``alpha_hi`` (NaN on the integer
  branch, where alpha = 1 exactly), ``order_lo``/``order_hi`` (NaN for the identity term),
  ``coef_lo``/``coef_hi``;
* the **calibrated** intervals, the raw ones widened by
  :data:`weakpareto.method.intervals.CALIBRATION` (:func:`~weakpareto.method.intervals.calibrate`;
  the intervals ``wp run`` prints and ``wp discover`` reports): ``alpha_cal_lo``/``alpha_cal_hi``,
  ``order_cal_lo``/``order_cal_hi``, ``coef_cal_lo``/``coef_cal_hi``, and ``calibration``, the
  constants used (JSON ``{quantity: [factor, floor, relative]}``);
* ``alpha_at_bound`` (share of resamples on the refit window's edge), ``inclusion`` (share of
  resamples whose reselected model keeps the term), ``s_beta`` (local sensitivity, NaN for the
  identity term), ``order_at_bound``;
* ``uncertainty_flags``: the warning codes of
  :func:`weakpareto.method.intervals.identifiability_flags` (``s_beta_low:1`` ...), read from the
  calibrated intervals as the user's warnings are;
* coverage-ready truth: ``truth_alpha`` and ``truth_orders``/``truth_coefs``, the benchmark
  truth's order and coefficient matched to each selected term (the scoring's matching map; NaN
  for a term that matches none), so coverage is ``lo <= truth <= hi`` row by row;
* ``uncertainty_json``: the rest (strongest alternatives, size frequencies, block shape).

Rows without uncertainty leave every one of these columns null; rows written before the
calibrated columns existed read them back as null. The raw columns do not depend on the
calibration, so a new calibration needs no new runs: ``calibrate`` of the raw intervals with the
new constants.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyarrow as pa

from weakpareto.evaluation.metrics import Metrics
from weakpareto.method.bootstrap import central_interval
from weakpareto.method.intervals import (
    CALIBRATION,
    Calibration,
    EquationBootstrap,
    TermFlags,
    calibrate,
    identifiability_flags,
)
from weakpareto.records import Equation, Term

_FLOATS = pa.list_(pa.float64())

#: The columns (appended to :data:`weakpareto.campaign.columns.RUNS_SCHEMA`).
UNCERTAINTY_FIELDS = [
    pa.field("uncertainty", pa.string()),  # null: off
    pa.field("n_boot", pa.int64()),
    pa.field("level", pa.float64()),
    pa.field("uncertainty_s", pa.float64()),
    pa.field("alpha_lo", pa.float64()),
    pa.field("alpha_hi", pa.float64()),
    pa.field("alpha_at_bound", pa.float64()),
    pa.field("order_lo", _FLOATS),
    pa.field("order_hi", _FLOATS),
    pa.field("coef_lo", _FLOATS),
    pa.field("coef_hi", _FLOATS),
    pa.field("alpha_cal_lo", pa.float64()),
    pa.field("alpha_cal_hi", pa.float64()),
    pa.field("order_cal_lo", _FLOATS),
    pa.field("order_cal_hi", _FLOATS),
    pa.field("coef_cal_lo", _FLOATS),
    pa.field("coef_cal_hi", _FLOATS),
    pa.field("calibration", pa.string()),
    pa.field("inclusion", _FLOATS),
    pa.field("s_beta", _FLOATS),
    pa.field("order_at_bound", _FLOATS),
    pa.field("uncertainty_flags", pa.list_(pa.string())),
    pa.field("truth_alpha", pa.float64()),
    pa.field("truth_orders", _FLOATS),
    pa.field("truth_coefs", _FLOATS),
    pa.field("uncertainty_json", pa.string()),
]


def _opt(v: float | None) -> float:
    return float("nan") if v is None else float(v)


def _median(values: np.ndarray) -> float | None:
    """Median of the finite replicate values (None when there are none)."""
    v = values[np.isfinite(values)]
    return float(np.median(v)) if v.size else None


def calibration_text(cal: Mapping[str, Calibration]) -> str:
    """The ``calibration`` column: ``{"alpha": [factor, floor, relative], ...}``."""
    return json.dumps({q: [c.factor, c.floor, c.relative] for q, c in cal.items()})


def uncertainty_columns(
    eb: EquationBootstrap,
    eq: Equation,
    truth: Equation,
    metrics: Metrics | None,
    calibration: Mapping[str, Calibration] = CALIBRATION,
) -> dict[str, Any]:
    """The :data:`UNCERTAINTY_FIELDS` of one seed (module docstring), calibrated with
    ``calibration`` (the package's by default)."""
    boot = eb.boot
    level = boot.settings.level
    nan = (float("nan"), float("nan"))
    alpha_iv = central_interval(boot.alpha, level) if boot.alpha_free else None
    order_iv = [
        central_interval(boot.orders[:, j], level) if boot.order_free[j] else None
        for j in range(eq.size)
    ]
    coef_iv = [central_interval(boot.coef[:, j], level) for j in range(eq.size)]
    at_bound = [float(boot.at_bound[:, 1 + j].mean()) for j in range(eq.size)]
    alpha_at_bound = float(boot.at_bound[:, 0].mean())
    # the warnings read the calibrated intervals, as the user's output does
    cal_alpha = None if alpha_iv is None else calibrate(alpha_iv, eq.alpha, calibration["alpha"])
    cal_orders = [
        None if iv is None else calibrate(iv, t.order, calibration["beta"])
        for iv, t in zip(order_iv, eq.terms)
    ]
    cal_coefs = [calibrate(iv, t.coef, calibration["xi"]) for iv, t in zip(coef_iv, eq.terms)]
    flags = identifiability_flags(
        cal_alpha,
        alpha_at_bound,
        [
            TermFlags(cal_orders[j], eb.sensitivities[j], at_bound[j], float(boot.inclusion[j]))
            for j in range(eq.size)
        ],
    )
    truth_orders = [float("nan")] * eq.size
    truth_coefs = [float("nan")] * eq.size
    for j, i in enumerate(metrics.matching if metrics is not None else ()):
        if i is not None and j < truth.size:
            truth_orders[i] = float(truth.terms[j].order)
            truth_coefs[i] = float(truth.terms[j].coef)
    extra = {
        "alternatives": [
            {"index": int(p), "order": float(o), "frequency": float(f)}
            for p, o, f in boot.alternatives
        ],
        "size_frequency": {str(k): float(v) for k, v in boot.size_frequency.items()},
        "block": list(boot.block_shape),
        "grid": list(boot.grid_shape),
        "n_tiles": int(boot.n_tiles),
        "alpha_median": _median(boot.alpha),
        "order_median": [_median(boot.orders[:, j]) for j in range(eq.size)],
        "coef_median": [_median(boot.coef[:, j]) for j in range(eq.size)],
    }
    return {
        "uncertainty": "bootstrap",
        "n_boot": int(boot.n_boot),
        "level": float(level),
        "uncertainty_s": float(boot.seconds),
        "alpha_lo": (alpha_iv or nan)[0],
        "alpha_hi": (alpha_iv or nan)[1],
        "alpha_at_bound": alpha_at_bound,
        "order_lo": [(iv or nan)[0] for iv in order_iv],
        "order_hi": [(iv or nan)[1] for iv in order_iv],
        "coef_lo": [iv[0] for iv in coef_iv],
        "coef_hi": [iv[1] for iv in coef_iv],
        "alpha_cal_lo": (cal_alpha or nan)[0],
        "alpha_cal_hi": (cal_alpha or nan)[1],
        "order_cal_lo": [(iv or nan)[0] for iv in cal_orders],
        "order_cal_hi": [(iv or nan)[1] for iv in cal_orders],
        "coef_cal_lo": [iv[0] for iv in cal_coefs],
        "coef_cal_hi": [iv[1] for iv in cal_coefs],
        "calibration": calibration_text(calibration),
        "inclusion": [float(v) for v in boot.inclusion],
        "s_beta": [_opt(s) for s in eb.sensitivities],
        "order_at_bound": at_bound,
        "uncertainty_flags": flags,
        "truth_alpha": float(truth.alpha),
        "truth_orders": truth_orders,
        "truth_coefs": truth_coefs,
        "uncertainty_json": json.dumps(extra, sort_keys=True),
    }


def _finite(v: Any) -> bool:
    return v is not None and isinstance(v, int | float) and math.isfinite(float(v))


def _pair(lo: Any, hi: Any, fmt: str) -> str:
    return f"[{float(lo):{fmt}}, {float(hi):{fmt}}]"


def calibrated_lines(row: Mapping[str, Any]) -> list[str]:
    """The calibrated intervals of a run row as ``wp run`` prints them under the seed's
    equation: alpha, then per selected term its coefficient and order intervals (nothing for a
    row without them, e.g. one written before they were stored)."""
    coef_lo, coef_hi = row.get("coef_cal_lo"), row.get("coef_cal_hi")
    if row.get("uncertainty") is None or coef_lo is None or coef_hi is None:
        return []
    a_lo, a_hi = row.get("alpha_cal_lo"), row.get("alpha_cal_hi")
    alpha = (
        f"alpha {_pair(a_lo, a_hi, '.4f')}"
        if _finite(a_lo) and _finite(a_hi)
        else "alpha 1 (integer branch, exact)"
    )
    out = [f"calibrated {100 * float(row['level']):g} % intervals: {alpha}"]
    o_lo, o_hi = list(row.get("order_cal_lo") or []), list(row.get("order_cal_hi") or [])
    directions = list(row.get("directions") or [])
    operator = str(row.get("operator") or "directional")
    for j, (p, o) in enumerate(zip(row["powers"], row["orders"])):
        d = directions[j] if j < len(directions) else None
        term = Term(int(p), float(o), 1.0, d).text(operator)  # type: ignore[arg-type]
        line = f"  {term}: coef {_pair(coef_lo[j], coef_hi[j], '.4g')}"
        if j < len(o_lo) and _finite(o_lo[j]) and _finite(o_hi[j]):
            line += f", order {_pair(o_lo[j], o_hi[j], '.4f')}"
        out.append(line)
    return out
