"""The uncertainty columns of a ``wp run`` row (``uncertainty=bootstrap``; ours, beyond the paper,
docs/method/extensions.md#bootstrap-intervals).

With ``uncertainty=bootstrap`` every successful seed's selected equation is bootstrapped
(:func:`weakpareto.campaign.compute.bootstrap_seed`) and its row carries, per selected term in
the order of ``powers``/``orders``/``coefs`` (benchmark units, as the point estimate):

* ``uncertainty`` ("bootstrap"), ``n_boot``, ``level``, ``uncertainty_s`` (bootstrap seconds);
* ``alpha_lo``/``alpha_hi`` (NaN on the integer branch, where alpha = 1 exactly),
  ``alpha_at_bound`` (share of resamples on the refit window's edge);
* ``order_lo``/``order_hi`` (NaN for the identity term), ``coef_lo``/``coef_hi``,
  ``inclusion`` (share of resamples whose reselected model keeps the term), ``s_beta`` (local
  sensitivity, NaN for the identity term), ``order_at_bound``;
* ``uncertainty_flags``: the warning codes of
  :func:`weakpareto.method.intervals.identifiability_flags` (``s_beta_low:1`` ...), read from the
  calibrated intervals as the user's warnings are;
* coverage-ready truth: ``truth_alpha`` and ``truth_orders``/``truth_coefs``, the benchmark
  truth's order and coefficient matched to each selected term (the scoring's matching map; NaN
  for a term that matches none), so coverage is ``lo <= truth <= hi`` row by row;
* ``uncertainty_json``: the rest (strongest alternatives, size frequencies, block shape).

Rows without uncertainty leave every one of these columns null. The stored intervals are the raw
bootstrap percentiles (so a new calibration needs no new runs); the calibrated ones are
:func:`weakpareto.method.intervals.calibrate` of them with
:data:`weakpareto.method.intervals.CALIBRATION`.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyarrow as pa

from weakpareto.evaluation.metrics import Metrics
from weakpareto.method.bootstrap import central_interval
from weakpareto.method.intervals import (
    CALIBRATION,
    EquationBootstrap,
    TermFlags,
    calibrate,
    identifiability_flags,
)
from weakpareto.records import Equation

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


def uncertainty_columns(
    eb: EquationBootstrap, eq: Equation, truth: Equation, metrics: Metrics | None
) -> dict[str, Any]:
    """The :data:`UNCERTAINTY_FIELDS` of one seed (module docstring)."""
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
    cal_alpha = None if alpha_iv is None else calibrate(alpha_iv, eq.alpha, CALIBRATION["alpha"])
    cal_orders = [
        None if iv is None else calibrate(iv, t.order, CALIBRATION["beta"])
        for iv, t in zip(order_iv, eq.terms)
    ]
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
        "inclusion": [float(v) for v in boot.inclusion],
        "s_beta": [_opt(s) for s in eb.sensitivities],
        "order_at_bound": at_bound,
        "uncertainty_flags": flags,
        "truth_alpha": float(truth.alpha),
        "truth_orders": truth_orders,
        "truth_coefs": truth_coefs,
        "uncertainty_json": json.dumps(extra, sort_keys=True),
    }
