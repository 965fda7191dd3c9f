"""Unobserved history: a Caputo field recorded from t_0 > onset, default vs ``history=unknown``.

Data: exact per-mode Mittag-Leffler solutions (generator kind ``mittag_leffler``: the independent
suite's four-harmonic initial condition on a 4 pi-periodic grid of 96 points) from the onset
``t = 0`` to ``T_full``; the first ``cut`` of the record is dropped, so the kept record of
``NT_KEPT`` samples over ``T_KEPT = 3`` starts at ``t_0 = cut T_full``. Cases (Riesz operator):

* sub-unit: ``D_t^0.8 u = 0.4 R^0.8 u`` and ``D_t^0.5 u = 0.3 R^2 u``;
* super-unit: ``D_t^1.5 u = 0.5 R^2 u`` (zero initial velocity).

Two more fields come from an independent solver, pycaputo's PECE by lines (generator kind
``pycaputo``, 8 steps per output interval; nothing shared with the Mittag-Leffler basis of the
onset refit): the first sub-unit equation on the same grid, and the nonlinear
``D_t^0.6 u = 0.3 R^1.6 u - 0.2 u R^1 u`` (the independent suite's ``pc_sub60_quad``: its
three-harmonic initial condition on a level 0.5, 64 points), outside the onset refit's class.

Cuts ``t_0 = 10, 30, 50 %`` of ``T_full`` clean, and ``30 %`` with 1 % multiplicative Gaussian
noise.
Every fit: ``method=weak_pareto_exact``, ``operator=riesz``, the independent suite's plain
ranges (``alpha_range=(0.2, 1.9)``, ``beta_range=(0, 3.2)``, powers 0-2), one BLAS thread; rows
for ``history=none`` (the default: the record's start taken for the onset), ``history=unknown``
with the weak estimate (``refit=weak``: the weak form's history model alone) and
``history=unknown`` as a user gets it (``refit=auto``: the onset model,
:mod:`weakpareto.fit.history_onset`). A row passes with the true support (powers and count),
``|dalpha| <= 0.03``, every ``|dbeta| <= 0.03`` and coefficients within 5 %.

Writes ``results/measurement/tab_history.csv`` and the pass tolerances to ``tab_history.json``;
the ``.md`` is rendered from both (:mod:`weakpareto.reporting.studies.measurement`, also by
``wp report``)::

    python scripts/measurement_history.py [--out-dir results/measurement]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from weakpareto import WeakPareto
from weakpareto.benchmarks.generators import generate
from weakpareto.io import write_csv_atomic
from weakpareto.reporting.studies.common import write_notes
from weakpareto.reporting.studies.measurement import HISTORY_STEM as STEM
from weakpareto.reporting.studies.measurement import tolerance_notes
from weakpareto.reporting.studies.registry import write_study

NT_KEPT, T_KEPT, NOISE_SEED = 151, 3.0, 11
IC = [
    {"fn": "sin", "m": 1, "amp": 1.0, "phase": 0.3},
    {"fn": "cos", "m": 2, "amp": 0.6, "phase": 0.0},
    {"fn": "sin", "m": 3, "amp": 0.35, "phase": 1.1},
    {"fn": "cos", "m": 5, "amp": 0.15, "phase": 0.4},
]
CASES: dict[str, tuple[float, float, float]] = {  # alpha, beta, coef
    "sub80_riesz08": (0.8, 0.8, 0.4),
    "sub50_riesz20": (0.5, 2.0, 0.3),
    "sup150_riesz20": (1.5, 2.0, 0.5),
}
#: Fields by pycaputo: alpha, terms (power, order, coef), grid points, level, harmonics.
PC_IC = [
    {"fn": "sin", "m": 1, "amp": 0.3, "phase": 0.3},
    {"fn": "cos", "m": 2, "amp": 0.2, "phase": 0.0},
    {"fn": "sin", "m": 3, "amp": 0.1, "phase": 1.1},
]
PC_CASES: dict[str, tuple[float, list[tuple[int, float, float]], int, float, list[Any]]] = {
    "pc_sub80_riesz08": (0.8, [(0, 0.8, 0.4)], 96, 0.0, IC),
    "pc_sub60_quad": (0.6, [(0, 1.6, 0.3), (1, 1.0, -0.2)], 64, 0.5, PC_IC),
}
PC_SUBSTEPS = 8
RUNS = [(0.1, 0.0), (0.3, 0.0), (0.5, 0.0), (0.3, 0.01)]  # (cut, noise)
VARIANTS = [("none", "auto"), ("unknown", "weak"), ("unknown", "auto")]  # (history, refit)
TOL_ORDER, TOL_COEF = 0.03, 0.05


def cut_record(alpha: float, beta: float, coef: float, cut: float) -> tuple[Any, Any, Any]:
    """The exact field from the onset, its first ``cut`` of the duration dropped: (u, t, x)."""
    steps = int(round((NT_KEPT - 1) / (1.0 - cut)))
    mode = "sub" if alpha < 1 else ("int" if alpha == 1 else "sup")
    cfg = {
        "name": "history",
        "generator": {"kind": "mittag_leffler", "ic": {"harmonics": IC}},
        "grid": {"nt": steps + 1, "nx": 96, "T": T_KEPT * steps / (NT_KEPT - 1),
                 "L": 4 * np.pi, "t_endpoint": True},
        "truth": {"mode": mode, "alpha": alpha, "operator": "riesz",
                  "terms": [{"power": 0, "order": beta, "coef": coef}]},
    }  # fmt: skip
    f = generate(cfg, 0)
    k0 = steps + 1 - NT_KEPT
    return f.u[k0:], f.t[k0:], f.x


def pycaputo_record(name: str, cut: float) -> tuple[Any, Any, Any]:
    """A ``PC_CASES`` field integrated by pycaputo from the onset, the first ``cut`` dropped."""
    alpha, terms, nx, level, ic = PC_CASES[name]
    steps = int(round((NT_KEPT - 1) / (1.0 - cut)))
    cfg = {
        "name": "history_pc",
        "generator": {"kind": "pycaputo", "substeps": PC_SUBSTEPS,
                      "ic": {"harmonics": ic, "offset": level}},
        "grid": {"nt": steps + 1, "nx": nx, "T": T_KEPT * steps / (NT_KEPT - 1),
                 "L": 4 * np.pi, "t_endpoint": True},
        "truth": {"mode": "sub", "alpha": alpha, "operator": "riesz",
                  "terms": [{"power": p, "order": b, "coef": c} for p, b, c in terms]},
    }  # fmt: skip
    f = generate(cfg, 0)
    k0 = steps + 1 - NT_KEPT
    return f.u[k0:], f.t[k0:], f.x


def truth_of(name: str) -> tuple[float, list[tuple[int, float, float]], str]:
    """alpha, the terms (power, order, coef) and the solver of a case."""
    if name in CASES:
        alpha, beta, coef = CASES[name]
        return alpha, [(0, beta, coef)], "Mittag-Leffler"
    alpha, terms, *_ = PC_CASES[name]
    return alpha, terms, "pycaputo PECE"


def term_errors(
    model: WeakPareto, terms: list[tuple[int, float, float]]
) -> tuple[bool, float, float]:
    """Same support (each true term matched by power, nearest order), the largest order and
    relative coefficient errors (NaN when the support differs)."""
    found = sorted(zip(model.powers_.tolist(), model.orders_.tolist(), model.coef_.tolist()))
    want = sorted(terms)
    if [p for p, _, _ in found] != [p for p, _, _ in want]:
        return False, float("nan"), float("nan")
    d_beta = max(abs(b - bt) for (_, b, _), (_, bt, _) in zip(found, want, strict=True))
    d_coef = max(abs(c / ct - 1.0) for (_, _, c), (_, _, ct) in zip(found, want, strict=True))
    return True, d_beta, d_coef


def fit_row(name: str, cut: float, noise: float, history: str, refit: str) -> dict[str, Any]:
    alpha, terms, solver = truth_of(name)
    if name in CASES:
        u, t, x = cut_record(*CASES[name], cut)
    else:
        u, t, x = pycaputo_record(name, cut)
    if noise:
        u = u * (1.0 + noise * np.random.default_rng(NOISE_SEED).standard_normal(u.shape))
    model = WeakPareto(method="weak_pareto_exact", operator="riesz", alpha_range=(0.2, 1.9),
                       beta_range=(0.0, 3.2), history=history, refit=refit)  # fmt: skip
    start = time.perf_counter()
    with threadpool_limits(1):
        model.fit(u, t, x)
    seconds = time.perf_counter() - start
    same, d_beta, d_coef = term_errors(model, terms)
    d_alpha = abs(model.alpha_ - alpha)
    ok = bool(same and d_alpha <= TOL_ORDER and d_beta <= TOL_ORDER and d_coef <= TOL_COEF)
    onset = model.grid_["refit"].get("onset_before_record", float("nan"))
    return {"case": name, "solver": solver, "t0_fraction": cut, "noise": noise,
            "history": history, "refit": refit, "equation": model.equation_.text(),
            "d_alpha": d_alpha, "d_beta": d_beta, "coef_error": d_coef,
            "terms": int(model.coef_.size), "onset_fit": onset,
            "onset_true": cut / (1.0 - cut), "pass": ok,
            "seconds": round(seconds, 1)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", type=Path, default=Path("results/measurement"))
    args = parser.parse_args()
    rows = []
    for name in [*CASES, *PC_CASES]:
        for cut, noise in RUNS:
            for history, refit in VARIANTS:
                rows.append(fit_row(name, cut, noise, history, refit))
                keys = ("case", "t0_fraction", "noise", "history", "refit", "d_alpha", "pass")
                print({k: rows[-1][k] for k in keys}, flush=True)
    df = pd.DataFrame(rows)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    write_csv_atomic(df, args.out_dir / f"{STEM}.csv")
    write_notes(args.out_dir, STEM, tolerance_notes(TOL_ORDER, TOL_COEF))
    write_study(STEM, args.out_dir)


if __name__ == "__main__":
    main()
