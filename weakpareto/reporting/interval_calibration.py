r"""tab_calibration (ours, beyond the paper; docs/method/extensions.md#interval-calibration): the
interval calibration fitted on one set of equations and judged on another
(``scripts/calibrate_intervals.py``, split in ``scripts/calibration_split.yaml``).

**Records** (:class:`IntervalRecord`): one per parameter of a run whose selected support and
temporal branch equal the truth's (the intervals are conditional on both): ``alpha`` on a
fractional branch, every true non-identity order ``beta`` (position ``j`` = its rank among the
truth's non-identity terms) and every true coefficient ``xi`` (rank among all truth terms),
each with the point estimate ``c`` and the raw central percentile interval ``[lo, hi]`` of the
bootstrap, in the data's units.

**Covered** (:func:`covered`): with ``d = |truth - c|`` and ``side`` the raw interval's extent
from ``c`` towards the truth (0 when ``c`` is outside it on that side), a record is covered by
:class:`~weakpareto.method.intervals.Calibration` ``(k, f)`` iff ``d <= k * side + f`` (``f * |c|``
for ``xi``), i.e. iff :func:`~weakpareto.method.intervals.calibrate` of ``[lo, hi]`` contains the
truth. Widths (:func:`widths`) are those of the calibrated intervals, relative to ``|c|`` for
``xi``.

**Fit** (:func:`fit_calibration`): per quantity, over the grid of factors and floors of
:mod:`weakpareto.reporting.uncertainty_table`, the pair of smallest mean width whose coverage
reaches the level at every noise level of the calibration set, each equation weighing the same
(an equation, not a record, is the unit the calibration has to carry over to); floors are
rounded up to two significant digits before they are judged.

**Summary** (:func:`coverage_summary`): per set, quantity and position (``all`` pools the
positions) the runs, records, coverage raw and under each named calibration with its exact
binomial (Clopper-Pearson) bounds (:func:`clopper_pearson`), and median widths.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import beta as beta_dist

from weakpareto.method.intervals import RAW, Calibration, calibrate
from weakpareto.reporting.uncertainty_table import FACTORS, FLOORS

QUANTITIES = ("alpha", "beta", "xi")
SYMBOL = {"alpha": "α", "beta": "β", "xi": "ξ"}
#: The names of the sets of ``calibration_split.yaml``.
SETS = ("calibration", "held_out", "outside_scope")
SET_NAMES = {
    "calibration": "in-sample (calibration set)",
    "held_out": "out-of-sample (held-out set)",
    "outside_scope": "outside scope (super-unit)",
}
#: Confidence of the binomial bounds.
CONFIDENCE = 0.95
#: Held-out target: calibrated coverage of every parameter at least this, over at least
#: :data:`MIN_RUNS` held-out runs.
TARGET = 0.85
MIN_RUNS = 40
#: The columns of a record table (:func:`records_frame`).
RECORD_COLUMNS = [
    "set",
    "equation",
    "noise",
    "seed",
    "quantity",
    "position",
    "truth",
    "estimate",
    "lo",
    "hi",
]


@dataclass(frozen=True)
class IntervalRecord:
    """One parameter of one run: truth, point estimate and raw interval (data units)."""

    set: str
    equation: str
    noise: float
    seed: int
    quantity: str  # "alpha" | "beta" | "xi"
    position: int  # 0 for alpha; beta/xi: 1-based rank among the truth's terms (module docstring)
    truth: float
    estimate: float
    lo: float
    hi: float

    def as_row(self) -> dict[str, Any]:
        return asdict(self)


def records_frame(records: Sequence[IntervalRecord] | pd.DataFrame) -> pd.DataFrame:
    """The records as a table with the derived columns ``d``, ``side``, ``scale`` (``|c|`` for
    ``xi``, 1 otherwise) and ``spread`` (the raw interval's two extents from ``c`` over
    ``scale``)."""
    df = (
        records.loc[:, RECORD_COLUMNS].copy()
        if isinstance(records, pd.DataFrame)
        else pd.DataFrame([r.as_row() for r in records], columns=RECORD_COLUMNS)
    )
    truth, est = df["truth"].to_numpy(float), df["estimate"].to_numpy(float)
    lo, hi = df["lo"].to_numpy(float), df["hi"].to_numpy(float)
    side = np.where(truth >= est, hi - est, est - lo)
    df["d"] = np.abs(truth - est)
    df["side"] = np.where(np.isfinite(side), np.maximum(side, 0.0), np.nan)
    df["scale"] = np.where(df["quantity"].to_numpy() == "xi", np.abs(est), 1.0)
    spread = np.maximum(est - lo, 0.0) + np.maximum(hi - est, 0.0)
    df["spread"] = spread / df["scale"].to_numpy(float)
    return df


def covered(frame: pd.DataFrame, cal: Calibration) -> np.ndarray:
    """Whether each record's interval, calibrated by ``cal``, contains the truth."""
    d, side = frame["d"].to_numpy(float), frame["side"].to_numpy(float)
    pad = cal.floor * (np.abs(frame["estimate"].to_numpy(float)) if cal.relative else 1.0)
    return np.isfinite(side) & (d <= cal.factor * np.nan_to_num(side) + pad)


def widths(frame: pd.DataFrame, cal: Calibration) -> np.ndarray:
    """Width of each record's interval calibrated by ``cal`` (relative to ``|c|`` for ``xi``)."""
    out = []
    for lo, hi, c, s in zip(frame["lo"], frame["hi"], frame["estimate"], frame["scale"]):
        a, b = calibrate((float(lo), float(hi)), float(c), cal)
        out.append((b - a) / float(s) if s > 0 else math.nan)
    return np.array(out, dtype=float)


def clopper_pearson(k: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Exact two-sided binomial confidence interval of a proportion ``k / n``."""
    if n <= 0:
        return math.nan, math.nan
    tail = 0.5 * (1.0 - confidence)
    lo = 0.0 if k <= 0 else float(beta_dist.ppf(tail, k, n - k + 1))
    hi = 1.0 if k >= n else float(beta_dist.ppf(1.0 - tail, k + 1, n - k))
    return lo, hi


# -- fit ------------------------------------------------------------------------------------------
def round_up(value: float, digits: int = 2) -> float:
    """``value`` rounded up to ``digits`` significant digits (0 stays 0)."""
    if value <= 0.0 or not math.isfinite(value):
        return value
    step = 10.0 ** (math.floor(math.log10(value)) - digits + 1)
    return float(round(math.ceil(value / step - 1e-9) * step, 12))


def equation_weights(frame: pd.DataFrame) -> np.ndarray:
    """Weights giving every equation of ``frame`` the same total weight."""
    counts = frame.groupby("equation")["equation"].transform("size").to_numpy(float)
    return 1.0 / counts


def weighted_quantile(values: np.ndarray, weights: np.ndarray, level: float) -> float:
    """The smallest ``v`` of ``values`` with a weighted share ``>= level`` of values ``<= v``."""
    order = np.argsort(values, kind="stable")
    share = np.cumsum(weights[order]) / float(np.sum(weights))
    i = int(np.searchsorted(share, level - 1e-12))
    return float(values[order][min(i, values.size - 1)])


def _pair_cost(
    frame: pd.DataFrame, factor: float, level: float, relative: bool
) -> tuple[float, float]:
    """(floor, mean width) of ``factor``: the rounded floor reaching ``level`` at every noise
    level (equation-weighted), and the equation-weighted mean calibrated width."""
    d, side = frame["d"].to_numpy(float), frame["side"].to_numpy(float)
    scale = frame["scale"].to_numpy(float) if relative else np.ones(len(frame))
    need = np.where(np.isfinite(side), np.maximum(d - factor * np.nan_to_num(side), 0.0), np.inf)
    need = need / scale
    floor = 0.0
    for _, cell in frame.groupby("noise"):
        idx = frame.index.get_indexer(cell.index)
        floor = max(floor, weighted_quantile(need[idx], equation_weights(cell), level))
    if not math.isfinite(floor):
        return math.inf, math.inf
    floor = round_up(floor)
    if floor > FLOORS[-1]:
        return math.inf, math.inf
    w = equation_weights(frame)
    width = factor * np.nan_to_num(frame["spread"].to_numpy(float)) + 2.0 * floor
    return floor, float(np.sum(w * width) / np.sum(w))


def fit_calibration(frame: pd.DataFrame, level: float) -> dict[str, Calibration]:
    """Per quantity, the narrowest ``(factor, floor)`` covering at ``level`` at every noise
    level of ``frame`` (module docstring); :data:`RAW` for a quantity without records."""
    out: dict[str, Calibration] = {}
    for q in QUANTITIES:
        rq = frame[frame["quantity"] == q].reset_index(drop=True)
        relative = q == "xi"
        best: tuple[float, Calibration] | None = None
        for k in [] if rq.empty else FACTORS:
            floor, width = _pair_cost(rq, k, level, relative)
            if math.isfinite(width) and (best is None or width < best[0] - 1e-15):
                best = (width, Calibration(k, floor, relative))
        out[q] = RAW if best is None else best[1]
    return out


# -- summary --------------------------------------------------------------------------------------
def _label(quantity: str, position: int | str) -> str:
    if quantity == "alpha":
        return SYMBOL["alpha"]
    return SYMBOL[quantity] + ("" if position == "all" else f"_{position}")


def coverage_summary(
    frame: pd.DataFrame, cals: Mapping[str, Mapping[str, Calibration]], by_noise: bool = False
) -> pd.DataFrame:
    """Per set × quantity × position (``all`` and each position; with ``by_noise`` per noise
    level instead of per position): equations, runs, records, coverage raw and under each
    calibration of ``cals`` (name -> per-quantity constants) with Clopper-Pearson bounds, and
    median widths (relative for ``xi``)."""
    rows = []
    for s in [s for s in SETS if s in set(frame["set"])]:
        fs = frame[frame["set"] == s]
        for q in QUANTITIES:
            fq = fs[fs["quantity"] == q]
            if fq.empty:
                continue
            keys: list[tuple[str, Any]] = [("all", None)]
            if by_noise:
                keys = [(f"{100 * n:g} %", n) for n in sorted(set(fq["noise"]))]
            elif q != "alpha":
                keys += [(str(p), p) for p in sorted(set(fq["position"]))]
            for label, value in keys:
                if value is None:
                    part = fq
                else:
                    part = fq[fq["noise" if by_noise else "position"] == value]
                rows.append(_summary_row(s, q, label, part, cals))
    return pd.DataFrame(rows)


def _summary_row(
    set_name: str,
    quantity: str,
    label: str,
    part: pd.DataFrame,
    cals: Mapping[str, Mapping[str, Calibration]],
) -> dict[str, Any]:
    n = len(part)
    raw_ok = covered(part, RAW)
    row: dict[str, Any] = {
        "set": set_name,
        "quantity": quantity,
        "term": label,
        "parameter": _label(quantity, label) if not label.endswith("%") else SYMBOL[quantity],
        "equations": int(part["equation"].nunique()),
        "runs": int(part[["equation", "noise", "seed"]].drop_duplicates().shape[0]),
        "records": n,
        "covered_raw": int(raw_ok.sum()),
        "coverage_raw": float(raw_ok.mean()) if n else math.nan,
        "width_raw": _median(widths(part, RAW)),
    }
    for name, cal in cals.items():
        ok = covered(part, cal[quantity])
        lo, hi = clopper_pearson(int(ok.sum()), n)
        row.update(
            {
                f"covered_{name}": int(ok.sum()),
                f"coverage_{name}": float(ok.mean()) if n else math.nan,
                f"cp_lo_{name}": lo,
                f"cp_hi_{name}": hi,
                f"width_{name}": _median(widths(part, cal[quantity])),
            }
        )
    return row


def _median(v: np.ndarray) -> float:
    v = v[np.isfinite(v)]
    return float(np.median(v)) if v.size else math.nan


def target_met(summary: pd.DataFrame, name: str) -> bool:
    """Whether every held-out parameter row (pooled and per position) of ``summary`` reaches
    :data:`TARGET` under calibration ``name`` over at least :data:`MIN_RUNS` runs."""
    held = summary[summary["set"] == "held_out"]
    return bool(
        not held.empty
        and (held[f"coverage_{name}"] >= TARGET).all()
        and (held["runs"] >= MIN_RUNS).all()
    )


def per_equation(frame: pd.DataFrame, cal: Mapping[str, Calibration]) -> pd.DataFrame:
    """Per set and equation: runs, and per quantity the records and those covered under
    ``cal`` (all positions and noise levels pooled)."""
    rows = []
    for (s, eq), g in frame.groupby(["set", "equation"], sort=False):
        row: dict[str, Any] = {
            "set": s,
            "equation": eq,
            "runs": int(g[["noise", "seed"]].drop_duplicates().shape[0]),
        }
        for q in QUANTITIES:
            gq = g[g["quantity"] == q]
            row[f"{q}_records"] = len(gq)
            row[f"{q}_covered"] = int(covered(gq, cal[q]).sum()) if len(gq) else 0
        rows.append(row)
    return pd.DataFrame(rows)


# -- rendering ------------------------------------------------------------------------------------
def describe(cal: Mapping[str, Calibration]) -> str:
    """``α ×1 + 0.00083, β ×1.05 + 0.023, ξ ×1.25 + 0.022|ξ|``."""
    parts = []
    for q in QUANTITIES:
        c = cal[q]
        unit = f"|{SYMBOL[q]}|" if c.relative else ""
        parts.append(f"{SYMBOL[q]} ×{c.factor:.3g} + {c.floor:.2g}{unit}")
    return ", ".join(parts)


def _pct(v: Any) -> str:
    return "—" if v is None or not np.isfinite(float(v)) else f"{100 * float(v):.1f} %"


def _num(v: Any) -> str:
    return "—" if v is None or not np.isfinite(float(v)) else f"{float(v):.3g}"


def _cov(row: pd.Series, name: str) -> str:
    return f"{int(row[f'covered_{name}'])}/{int(row['records'])} ({_pct(row[f'coverage_{name}'])})"


def markdown_rows(summary: pd.DataFrame, names: Sequence[str]) -> list[str]:
    """Markdown table rows of :func:`coverage_summary`: coverage raw and under each calibration
    of ``names``, the Clopper-Pearson bounds of the last one, median widths raw and under each."""
    last = names[-1]
    head = ["Set", "Param.", "Eq.", "Runs", "Raw coverage"]
    head += [f"Coverage ({n})" for n in names]
    head += ["95 % bounds", "Width raw"] + [f"Width ({n})" for n in names]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for _, r in summary.iterrows():
        term = str(r["term"])
        cells = [
            SET_NAMES.get(str(r["set"]), str(r["set"])),
            f"{r['parameter']} at {term}" if term.endswith("%") else str(r["parameter"]),
            str(int(r["equations"])),
            str(int(r["runs"])),
            f"{int(r['covered_raw'])}/{int(r['records'])} ({_pct(r['coverage_raw'])})",
        ]
        cells += [_cov(r, n) for n in names]
        cells.append(f"[{_pct(r[f'cp_lo_{last}'])}, {_pct(r[f'cp_hi_{last}'])}]")
        cells += [_num(r["width_raw"])] + [_num(r[f"width_{n}"]) for n in names]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def per_equation_rows(table: pd.DataFrame) -> list[str]:
    """Markdown rows of :func:`per_equation`."""
    head = ["Set", "Equation", "Runs", *(SYMBOL[q] for q in QUANTITIES)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for _, r in table.iterrows():
        cells = [SET_NAMES.get(str(r["set"]), str(r["set"])), str(r["equation"]), str(r["runs"])]
        for q in QUANTITIES:
            n, k = int(r[f"{q}_records"]), int(r[f"{q}_covered"])
            cells.append("—" if n == 0 else f"{k}/{n} ({_pct(k / n)})")
        lines.append("| " + " | ".join(cells) + " |")
    return lines
