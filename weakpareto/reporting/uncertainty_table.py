r"""tab_uncertainty (ours, beyond the paper; docs/method/extensions.md#bootstrap-intervals):
coverage and width of the block-bootstrap intervals, raw and
calibrated, from ``wp run uncertainty=bootstrap`` rows
(:mod:`weakpareto.campaign.interval_columns`).

**Records** (:func:`coverage_records`): one per (run, quantity) of every successful run whose
support was recovered (``support_ok``; coverage is undefined for a run that found other terms):

* ``alpha``: the temporal order. A run on the integer branch has alpha = 1 exactly (``exact``,
  no interval): it covers the truth iff the truth is 1. A run on a fractional branch covers iff
  the interval contains alpha*;
* ``beta``: every true *non-identity* order, matched to its discovered term (the scoring's
  matching map); a true order matched by an identity term (no order interval) is not covered.
  True identity terms have no order;
* ``xi``: every true coefficient, matched the same way.

With ``c`` the estimate, ``d = |truth - c|`` and ``side`` the interval's extent from ``c``
towards the truth, a record is covered by :class:`Calibration` ``(k, f)`` iff
``d <= k * side + f`` (``f * |c|`` for the relative coefficient floor); :data:`RAW` is ``(1, 0)``.

**Calibration** (:func:`fit_calibration`): per quantity, over a grid of factors ``k`` and floors
``f``, the pair of smallest mean calibrated width (relative for ``xi``) whose coverage reaches
the level in *every* (benchmark, noise) cell of the fit set with at least ``MIN_CELL``
records — every noise level counts, so the floor is what low noise needs (the shared,
noise-independent error) and the factor what high noise needs. Shown for comparison only: the
package's constants (:data:`weakpareto.method.intervals.CALIBRATION`) are fitted on a
calibration set of equations and judged on held-out ones
(:mod:`weakpareto.reporting.interval_calibration`).

**Table** (:func:`coverage_table`): per benchmark × noise × quantity (``beta``/``xi`` also per
true term): seeds, support-recovered seeds, coverage raw and calibrated (count and share),
median interval width raw and calibrated; per benchmark × noise the share of successful runs
with at least one identifiability flag (any of :data:`IDENTIFIABILITY_FLAGS`) and with an order
whose ``S_beta`` is below ``S_MIN``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from weakpareto.method.intervals import MIN_CELL, RAW, Calibration, calibrate
from weakpareto.reporting.drawing import save_figure
from weakpareto.reporting.drawing import use_agg as _use_agg
from weakpareto.reporting.latex import TableLayout, latex_table, table_row

QUANTITIES = ("alpha", "beta", "xi")
#: Flags that mean "weakly identifiable" (``unstable:j`` is about the support, not the order).
IDENTIFIABILITY_FLAGS = (
    "alpha_wide",
    "alpha_at_bound",
    "order_wide",
    "s_beta_low",
    "order_at_bound",
)
INT_TOL = 1e-12
#: The calibration grid: factors and floors (orders and alpha: absolute, xi: relative).
FACTORS = tuple(float(k) for k in np.round(np.arange(1.0, 4.0001, 0.05), 2))
FLOORS = (0.0, *(float(f) for f in np.geomspace(1e-4, 0.2, 120)))


def latest_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """The rows with intervals, one per cell and seed (of several configs or codes, the latest)."""
    df = runs[runs["uncertainty"].notna()] if "uncertainty" in runs.columns else runs.iloc[:0]
    df = df.sort_values("created_utc", kind="stable", na_position="first")
    cell = ["benchmark", "noise_law", "noise", "method", "variant", "seed"]
    return df.drop_duplicates(subset=cell, keep="last").sort_values(cell).reset_index(drop=True)


def _as_list(v: Any) -> list[float]:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return []
    return [float(x) for x in v]


def _record(
    run: pd.Series, quantity: str, term: str, truth: float, est: float, lo: float, hi: float
) -> dict[str, Any]:
    side = hi - est if truth >= est else est - lo
    return {
        "benchmark": str(run["benchmark"]),
        "noise": float(run["noise"]),
        "seed": int(run["seed"]),
        "quantity": quantity,
        "term": term,
        "truth": truth,
        "estimate": est,
        "lo": lo,
        "hi": hi,
        "exact": False,
        "d": abs(truth - est),
        "side": max(side, 0.0) if math.isfinite(side) else math.nan,
        "scale": abs(est) if quantity == "xi" else 1.0,
    }


COLUMNS = ["benchmark", "noise", "seed", "quantity", "term", "truth", "estimate", "lo", "hi"]


def coverage_records(runs: pd.DataFrame) -> pd.DataFrame:
    """The (run, quantity) records of support-recovered runs with intervals (module docstring)."""
    rows: list[dict[str, Any]] = []
    nan = math.nan
    for _, r in runs.iterrows():
        if r.get("status") != "ok" or r.get("uncertainty") is None or not bool(r["support_ok"]):
            continue
        a_true, a_est = float(r["truth_alpha"]), float(r["alpha"])
        if str(r["mode"]) == "int":  # alpha = 1 exactly: covered iff the truth is 1
            rec = _record(r, "alpha", "alpha", a_true, 1.0, 1.0, 1.0)
            rows.append({**rec, "exact": True})
        else:
            lo, hi = float(r["alpha_lo"]), float(r["alpha_hi"])
            rows.append(_record(r, "alpha", "alpha", a_true, a_est, lo, hi))
        orders, coefs, powers = _as_list(r["orders"]), _as_list(r["coefs"]), list(r["powers"])
        t_orders, t_coefs = _as_list(r["truth_orders"]), _as_list(r["truth_coefs"])
        o_lo, o_hi = _as_list(r["order_lo"]), _as_list(r["order_hi"])
        c_lo, c_hi = _as_list(r["coef_lo"]), _as_list(r["coef_hi"])
        for j, (tb, tc) in enumerate(zip(t_orders, t_coefs)):
            if not math.isfinite(tb):
                continue  # a discovered term no truth term matched
            label = f"u^{int(powers[j])} D^{tb:g}"
            if abs(tb) > INT_TOL:
                lo, hi = (o_lo[j], o_hi[j]) if math.isfinite(o_lo[j]) else (nan, nan)
                rows.append(_record(r, "beta", label, tb, orders[j], lo, hi))
            rows.append(_record(r, "xi", label, tc, coefs[j], c_lo[j], c_hi[j]))
    return pd.DataFrame(rows, columns=[*COLUMNS, "exact", "d", "side", "scale"])


def covered(rec: pd.DataFrame, cal: Calibration) -> np.ndarray:
    """Whether each record's interval, calibrated by ``cal``, contains the truth."""
    d, side = rec["d"].to_numpy(dtype=float), rec["side"].to_numpy(dtype=float)
    pad = cal.floor * (rec["scale"].to_numpy(dtype=float) if cal.relative else 1.0)
    inside = np.isfinite(side) & (d <= cal.factor * np.nan_to_num(side) + pad)
    exact = rec["exact"].to_numpy(dtype=bool)
    return np.where(exact, d <= INT_TOL, inside)


def calibrated_width(rec: pd.DataFrame, cal: Calibration) -> np.ndarray:
    """Widths of the records' intervals calibrated by ``cal`` (0 for an exact alpha)."""
    out = []
    for lo, hi, c, exact in zip(rec["lo"], rec["hi"], rec["estimate"], rec["exact"]):
        a, b = calibrate((float(lo), float(hi)), float(c), cal)
        out.append(0.0 if exact else b - a)
    return np.array(out, dtype=float)


def fit_calibration(
    records: pd.DataFrame, fit_benchmarks: Sequence[str], level: float
) -> dict[str, Calibration]:
    """Per quantity, the narrowest grid pair ``(k, f)`` covering at ``level`` in every fit cell
    (module docstring); when no pair does, the one of highest worst-cell coverage."""
    out = {}
    fit = records[records["benchmark"].isin(list(fit_benchmarks)) & ~records["exact"]]
    for q in QUANTITIES:
        rq = fit[fit["quantity"] == q]
        sizes = rq.groupby(["benchmark", "noise"])["d"].transform("size")
        rq = rq[sizes >= MIN_CELL]
        if rq.empty:
            out[q] = RAW
            continue
        cells = rq.groupby(["benchmark", "noise"]).ngroup().to_numpy()
        d, side = rq["d"].to_numpy(dtype=float), rq["side"].to_numpy(dtype=float)
        scale = rq["scale"].to_numpy(dtype=float)
        relative = q == "xi"
        best: tuple[float, float, Calibration] | None = None
        for k in FACTORS:
            # floor each record needs at factor k (inf: no interval on the truth's side)
            need = np.where(np.isfinite(side), np.maximum(d - k * np.nan_to_num(side), 0.0), np.inf)
            need = need / scale if relative else need
            for f in FLOORS:
                ok = need <= f
                worst = min(float(ok[cells == c].mean()) for c in np.unique(cells))
                spread = k * np.nan_to_num(side)
                width = float(np.mean((spread / scale if relative else spread) + f))
                key = (-min(worst, level), width)
                if best is None or key < best[:2]:
                    best = (*key, Calibration(k, f, relative))
        assert best is not None
        out[q] = best[2]
    return out


def _has(flags: Any, name: str) -> bool:
    return any(str(f).partition(":")[0] == name for f in ([] if flags is None else list(flags)))


def _flagged(flags: Any) -> bool:
    return any(_has(flags, name) for name in IDENTIFIABILITY_FLAGS)


def warning_shares(runs: pd.DataFrame) -> pd.DataFrame:
    """Per benchmark × noise: successful runs with intervals, and the share with an
    identifiability flag and with ``s_beta_low`` on some order."""
    rows = []
    ok = runs[(runs["status"] == "ok") & runs["uncertainty"].notna()]
    for key, g in ok.groupby(["benchmark", "noise"], sort=True):
        b, n = str(key[0]), float(key[1])  # type: ignore[arg-type]
        any_flag = [_flagged(f) for f in g["uncertainty_flags"]]
        low_s = [_has(f, "s_beta_low") for f in g["uncertainty_flags"]]
        rows.append(
            {"benchmark": b, "noise": float(n), "runs": len(g),
             "warned": float(np.mean(any_flag)), "s_beta_low": float(np.mean(low_s))}
        )  # fmt: skip
    return pd.DataFrame(rows, columns=["benchmark", "noise", "runs", "warned", "s_beta_low"])


def coverage_table(
    runs: pd.DataFrame, cal: Mapping[str, Calibration], level: float = 0.9
) -> pd.DataFrame:
    """One row per benchmark × noise × quantity (all terms pooled, ``term == "all"``) and per
    true term (``beta``/``xi`` of each term): coverage and median width, raw and calibrated by
    ``cal[quantity]``; plus the seed counts and warning shares of the cell."""
    recs = coverage_records(runs)
    warn = warning_shares(runs).set_index(["benchmark", "noise"])
    ok = runs[runs["status"] == "ok"]
    rows = []
    for key, cell in runs.groupby(["benchmark", "noise"], sort=True):
        b, n = str(key[0]), float(key[1])  # type: ignore[arg-type]
        rec = recs[(recs["benchmark"] == b) & (recs["noise"] == n)]
        recovered = int(ok.loc[(ok["benchmark"] == b) & (ok["noise"] == n), "support_ok"].sum())
        w = warn.loc[(b, n)] if (b, n) in warn.index else None  # type: ignore[index]
        for q in QUANTITIES:
            rq = rec[rec["quantity"] == q]
            terms = ["all"] + ([] if q == "alpha" else sorted(set(rq["term"])))
            for term in terms:
                rt = rq if term == "all" else rq[rq["term"] == term]
                c = cal.get(q, RAW)
                raw_ok, cal_ok = covered(rt, RAW), covered(rt, c)
                rows.append(
                    {
                        "benchmark": b, "noise": n, "quantity": q, "term": term,
                        "seeds": len(cell), "recovered": recovered, "n": len(rt),
                        "covered_raw": int(raw_ok.sum()),
                        "coverage_raw": float(raw_ok.mean()) if len(rt) else np.nan,
                        "factor": c.factor, "floor": c.floor,
                        "covered_cal": int(cal_ok.sum()),
                        "coverage_cal": float(cal_ok.mean()) if len(rt) else np.nan,
                        "width_raw": _median(calibrated_width(rt, RAW)),
                        "width_cal": _median(calibrated_width(rt, c)),
                        "warned": np.nan if w is None else float(w["warned"]),
                        "s_beta_low": np.nan if w is None else float(w["s_beta_low"]),
                        "level": level,
                    }
                )  # fmt: skip
    return pd.DataFrame(rows)


def _median(v: np.ndarray) -> float:
    v = v[np.isfinite(v)]
    return float(np.median(v)) if v.size else float("nan")


# -- rendering ------------------------------------------------------------------------------------
LABEL = "tab:uncertainty"
STEM = "tab_uncertainty"
NAMES = {"fade": "FADE", "burgers": "Burgers", "rd_space": "RD space"}
SYMBOL = {"alpha": "α", "beta": "β", "xi": "ξ"}
TEX_SYMBOL = {"alpha": r"$\alpha$", "beta": r"$\beta$", "xi": r"$\xi$"}


def describe(cal: Mapping[str, Calibration], symbols: Mapping[str, str] = SYMBOL) -> str:
    """``α ×1 + 0.0008, β ×1.05 + 0.023, ξ ×1.25 + 0.021|ξ|``."""
    parts = []
    for q in QUANTITIES:
        c = cal[q]
        unit = f"|{symbols[q]}|" if c.relative else ""
        parts.append(f"{symbols[q]} ×{c.factor:.3g} + {c.floor:.2g}{unit}")
    return ", ".join(parts)


def _frac(k: Any, n: Any) -> str:
    return "—" if not n else f"{int(k)}/{int(n)}"


def _num(v: Any, digits: int = 3) -> str:
    return "—" if v is None or not np.isfinite(float(v)) else f"{float(v):.{digits}g}"


def _pct(v: Any) -> str:
    return "—" if v is None or not np.isfinite(float(v)) else f"{100 * float(v):.0f} %"


def render_markdown(
    table: pd.DataFrame,
    cal: Mapping[str, Calibration],
    refit: Mapping[str, Calibration],
    fit: Sequence[str],
    level: float,
) -> str:
    """The markdown table: every row of :func:`coverage_table` (calibrated by ``cal``; the note
    also names ``refit``, the calibration fitted on the ``fit`` benchmarks of these runs)."""
    ks, rk = describe(cal), describe(refit)
    lines = [
        "# tab_uncertainty: coverage of the block-bootstrap intervals",
        "",
        f"{100 * level:g} % central intervals (`uncertainty=bootstrap`, `make "
        "reproduce-uncertainty`). **Coverage counts only support-recovered runs** (column "
        "`Recovered`: of the seeds); covered = the interval contains the truth, matched to "
        "the discovered term. α on the integer branch is exact (covers iff the truth is 1). "
        "Calibrated: each side's distance from the point estimate times a factor plus a floor, "
        f"per quantity (the package's calibration: {ks}, fitted on other equations and judged "
        "on held-out ones: results/uncertainty/tab_calibration.md). For comparison, the pair "
        f"these runs would give on {' + '.join(NAMES.get(b, b) for b in fit)} (narrowest with "
        f"the level reached in every cell): {rk}. Widths "
        "are medians (ξ in the coefficient's units). `Warned`: "
        "share of successful runs with an identifiability warning; `S_β low`: with an order "
        "whose local sensitivity is below S_MIN.",
        "",
        "| Case | Noise % | Recovered | Qty | Term | Coverage raw | Coverage cal. | "
        "Width raw | Width cal. | Warned | S_β low |",
        "|" + "---|" * 11,
    ]
    for _, r in table.iterrows():
        lines.append(
            "| " + " | ".join([
                NAMES.get(str(r["benchmark"]), str(r["benchmark"])), f"{100 * r['noise']:g}",
                _frac(r["recovered"], r["seeds"]), SYMBOL[str(r["quantity"])], str(r["term"]),
                f"{_frac(r['covered_raw'], r['n'])} ({_pct(r['coverage_raw'])})",
                f"{_frac(r['covered_cal'], r['n'])} ({_pct(r['coverage_cal'])})",
                _num(r["width_raw"]), _num(r["width_cal"]), _pct(r["warned"]),
                _pct(r["s_beta_low"]),
            ]) + " |"
        )  # fmt: skip
    return "\n".join(lines) + "\n"


def render_latex(table: pd.DataFrame, cal: Mapping[str, Calibration], level: float) -> str:
    """The LaTeX table: the pooled rows (``term == "all"``) of :func:`coverage_table`."""
    ks = describe(cal, TEX_SYMBOL).replace("×", r"$\times$")
    layout = TableLayout(
        label=LABEL,
        stem=STEM,
        caption=(
            rf"Coverage of the {100 * level:g}\,\% block-bootstrap intervals over the "
            r"support-recovered seeds (recovered/seeds), raw and calibrated (factor and floor "
            rf"per quantity: {ks}), median widths, and the share of runs with an "
            r"identifiability warning."
        ),
        colspec=r"@{\extracolsep{\fill}}lrrlrrrrr",
        header=(
            r"Case & Noise (\%) & Rec. & & Cov. raw & Cov. cal. & Width raw & Width cal. & "
            r"Warned \\",
        ),
        size=r"\footnotesize",
    )
    body = []
    for _, r in table[table["term"] == "all"].iterrows():
        body.append(
            table_row([
                NAMES.get(str(r["benchmark"]), str(r["benchmark"])), f"{100 * r['noise']:g}",
                _frac(r["recovered"], r["seeds"]), TEX_SYMBOL[str(r["quantity"])],
                _frac(r["covered_raw"], r["n"]), _frac(r["covered_cal"], r["n"]),
                _num(r["width_raw"]), _num(r["width_cal"]),
                _pct(r["warned"]).replace("%", r"\%"),
            ])
        )  # fmt: skip
    return latex_table(layout, body)


def draw_coverage(table: pd.DataFrame, path: Any, level: float, fit: Sequence[str] = ()) -> None:
    """Coverage (pooled over terms) against noise, one panel per benchmark (titled fit or
    validation when ``fit`` names the fit set): raw (solid) and calibrated (dashed) per
    quantity, the nominal level dotted."""
    plt = _use_agg()
    pooled = table[table["term"] == "all"]
    benches = [b for b in NAMES if b in set(pooled["benchmark"])]
    benches += sorted(set(pooled["benchmark"]) - set(benches))
    fig, axes = plt.subplots(1, max(len(benches), 1), figsize=(3.4 * max(len(benches), 1), 3.0),
                             sharey=True, squeeze=False)  # fmt: skip
    for ax, b in zip(axes[0], benches):
        g = pooled[pooled["benchmark"] == b]
        for i, q in enumerate(QUANTITIES):
            gq = g[g["quantity"] == q].sort_values("noise")
            x = 100 * gq["noise"].to_numpy(dtype=float)
            ax.plot(x, gq["coverage_raw"], "-o", color=f"C{i}", ms=4, label=f"{SYMBOL[q]} raw")
            ax.plot(x, gq["coverage_cal"], "--s", color=f"C{i}", ms=4, mfc="none",
                    label=f"{SYMBOL[q]} calibrated")  # fmt: skip
        ax.axhline(level, color="k", ls=":", lw=1)
        role = "" if not fit else (" (fit)" if b in fit else " (validation)")
        ax.set_title(NAMES.get(b, b) + role)
        ax.set_xlabel("noise (%)")
        ax.set_ylim(-0.03, 1.03)
    axes[0][0].set_ylabel(f"coverage of the {100 * level:g} % interval")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.tight_layout()
    fig.legend(handles, labels, fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    save_figure(fig, Path(path))
    plt.close(fig)
