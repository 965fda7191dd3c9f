"""The measurement tables: several experiments in one fit, unobserved history, irregular samples.

Each is rendered from ``<stem>.csv`` and its sidecar ``<stem>.json`` in ``results/measurement``:

* tab_experiments (``scripts/measurement_experiments.py``): every fit of one experiment alone
  and of all pooled; the sidecar holds the truth equation;
* tab_history (``scripts/measurement_history.py``): a Caputo field recorded from t0 > onset,
  default against ``history=unknown``; the sidecar holds the pass tolerances;
* tab_irregular (``scripts/measurement_irregular.py``): irregular times, gaps and masks; the
  sidecar holds the pass tolerances.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pandas as pd

from weakpareto.reporting.studies.common import (
    cell,
    csv_path,
    pipe_row,
    pipe_rule,
    pipe_table,
    read_notes,
    read_table,
)

EXPERIMENTS_STEM = "tab_experiments"
HISTORY_STEM = "tab_history"
IRREGULAR_STEM = "tab_irregular"
EXPERIMENTS_COLS = ["noise", "fit", "grids", "equation", "e_alpha", "e_beta_max", "e_xi_max",
                    "seconds", "warnings"]  # fmt: skip


def experiments_notes(truth: str) -> dict[str, Any]:
    """The sidecar of tab_experiments: the truth equation's text."""
    return {"truth": truth}


def tolerance_notes(order: float, coefficient: float) -> dict[str, Any]:
    """The sidecar of tab_history and tab_irregular: a row passes with its orders within
    ``order`` and its coefficients within the relative ``coefficient``."""
    return {"tolerances": {"order": order, "coefficient": coefficient}}


def experiments_markdown(df: pd.DataFrame, truth: str) -> str:
    """Every fit of tab_experiments under a note naming ``truth``."""
    lines = [
        "# tab_experiments: several experiments of one equation, alone and pooled",
        "",
        f"Truth: {truth}; experiment k "
        "starts from a constant plus spatial mode k (one mode: the order and the coefficient "
        "trade off); e_alpha = |dalpha|, e_beta_max = max |dbeta|, e_xi_max = max relative "
        "coefficient error; noise = multiplicative fraction; seconds on one BLAS thread.",
        "",
        *pipe_table(
            EXPERIMENTS_COLS, ([cell(r[c]) for c in EXPERIMENTS_COLS] for _, r in df.iterrows())
        ),
    ]
    return "\n".join(lines) + "\n"


def linear_errors(
    model: Any, alpha: float, truth: list[tuple[float, float]], order_tol: float, coef_tol: float
) -> dict[str, Any]:
    """A fitted ``WeakPareto`` of a linear truth ``(order, coef)`` scored: its equation,
    ``d_alpha``, the largest order error and relative coefficient error over the terms paired
    by order (NaN and no pass when the support differs) and ``pass`` within the tolerances."""
    row = {"equation": model.equation_.text(sig_digits=4), "d_alpha": abs(model.alpha_ - alpha)}
    want = sorted(truth)
    if len(model.orders_) != len(want) or np.any(model.powers_ != 0):
        return {**row, "d_beta": np.nan, "coef_err": np.nan, "pass": False}
    idx = np.argsort(model.orders_)
    d_beta = float(np.max(np.abs(model.orders_[idx] - [b for b, _ in want])))
    coef_err = float(np.max(np.abs(model.coef_[idx] / [c for _, c in want] - 1.0)))
    ok = row["d_alpha"] <= order_tol and d_beta <= order_tol and coef_err <= coef_tol
    return {**row, "d_beta": d_beta, "coef_err": coef_err, "pass": bool(ok)}


def _yes_no(passed: Any) -> str:
    return "yes" if passed else "no"


def history_markdown(df: pd.DataFrame, order: float, coefficient: float) -> str:
    """Every fit of tab_history; ``order`` and ``coefficient`` are the pass tolerances."""
    header = ["case", "solver", "t0", "noise", "history", "refit", "equation", "abs dalpha",
              "max abs dbeta", "max coef err", "onset: fit / true", "pass"]  # fmt: skip
    lines = [
        "# Unobserved history: default vs history=unknown (weak estimate and onset refit)",
        "",
        "Fields recorded from t0 (fraction of the time since the onset): exact Mittag-Leffler "
        "modes, and pycaputo's PECE by lines (an independent solver; `pc_sub60_quad` is "
        "nonlinear, outside the onset refit's class). `refit=weak`: the weak form's history "
        "model alone; `refit=auto`: what a user gets (the onset model where a linear model fits "
        "the samples). Onset: its delay before the record as a fraction of the record's "
        f"duration. Pass: true support, |dalpha| and every |dbeta| <= {order}, coefficients "
        f"within {coefficient:.0%} (scripts/measurement_history.py).",
        "",
    ]
    rows = (
        [str(r["case"]), str(r["solver"]), f"{r['t0_fraction']:.0%}", f"{r['noise']:.0%}",
         str(r["history"]), str(r["refit"]), str(r["equation"]), f"{r['d_alpha']:.4f}",
         f"{r['d_beta']:.4f}", f"{r['coef_error']:.3f}", _onset(r), _yes_no(r["pass"])]
        for _, r in df.iterrows()
    )  # fmt: skip
    lines += pipe_table(header, rows)
    passed = df[df["history"] == "unknown"].groupby("refit")["pass"].agg(["sum", "size"])
    lines += ["", "history=unknown passes: " + ", ".join(
        f"refit={k} {int(v['sum'])}/{int(v['size'])}" for k, v in passed.iterrows()
    ) + f"; default (history=none): {int(df[df['history'] == 'none']['pass'].sum())}/"
        f"{int((df['history'] == 'none').sum())}."]  # fmt: skip
    return "\n".join(lines) + "\n"


def _onset(row: Any) -> str:
    fitted = float(row["onset_fit"])
    return "—" if not np.isfinite(fitted) else f"{fitted:.3f} / {float(row['onset_true']):.3f}"


def irregular_markdown(df: pd.DataFrame, order: float, coefficient: float) -> str:
    """Every fit of tab_irregular; ``order`` and ``coefficient`` are the pass tolerances."""
    lines = [
        "# Irregular time samples, gaps and masks (method=weak_pareto_exact)",
        "",
        "Exact Mittag-Leffler solutions evaluated at the sampled times, 64 x 70 samples; "
        f"targets: same equation, |d alpha|, |d beta| <= {order}, coefficients within "
        f"{coefficient:.0%} (scripts/measurement_irregular.py).",
        "",
        pipe_row(
            [
                "field",
                "sampling",
                "noise",
                "equation",
                "dα",
                "dβ",
                "coef err",
                "dropped (frames / samples / tests / rows)",
                "pass",
            ]
        ),  # fmt: skip
        pipe_rule(9),
    ]
    for _, r in df.iterrows():
        dropped = " / ".join(
            str(r[c])
            for c in ("missing_frames", "missing_samples", "tests_dropped", "rows_dropped")
        )
        lines.append(
            pipe_row([
                str(r["field"]), str(r["sampling"]), f"{r['noise']:.0%}", f"`{r['equation']}`",
                f"{r['d_alpha']:.4f}", f"{r['d_beta']:.4f}", f"{r['coef_err']:.2%}", dropped,
                _yes_no(r["pass"]),
            ])
        )  # fmt: skip
    return "\n".join(lines) + "\n"


def render_experiments(directory: str | os.PathLike) -> dict[str, str]:
    """``{".md": ...}`` from ``tab_experiments.csv`` and ``.json``."""
    df = read_table(csv_path(directory, EXPERIMENTS_STEM))
    truth = read_notes(directory, EXPERIMENTS_STEM)["truth"]
    return {".md": experiments_markdown(df, truth)}


def _tolerances(directory: str | os.PathLike, stem: str) -> tuple[float, float]:
    tol = read_notes(directory, stem)["tolerances"]
    return float(tol["order"]), float(tol["coefficient"])


def render_history(directory: str | os.PathLike) -> dict[str, str]:
    """``{".md": ...}`` from ``tab_history.csv`` and ``.json``."""
    df = read_table(csv_path(directory, HISTORY_STEM))
    return {".md": history_markdown(df, *_tolerances(directory, HISTORY_STEM))}


def render_irregular(directory: str | os.PathLike) -> dict[str, str]:
    """``{".md": ...}`` from ``tab_irregular.csv`` and ``.json``."""
    df = read_table(csv_path(directory, IRREGULAR_STEM))
    return {".md": irregular_markdown(df, *_tolerances(directory, IRREGULAR_STEM))}
