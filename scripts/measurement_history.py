"""Unobserved history: a Caputo field recorded from t_0 > onset, default vs ``history=unknown``.

Data: exact per-mode Mittag-Leffler solutions (generator kind ``mittag_leffler``: the independent
suite's four-harmonic initial condition on a 4 pi-periodic grid of 96 points) from the onset
``t = 0`` to ``T_full``; the first ``cut`` of the record is dropped, so the kept record of
``NT_KEPT`` samples over ``T_KEPT = 3`` starts at ``t_0 = cut T_full``. Cases (Riesz operator):

* sub-unit: ``D_t^0.8 u = 0.4 R^0.8 u`` and ``D_t^0.5 u = 0.3 R^2 u``;
* super-unit: ``D_t^1.5 u = 0.5 R^2 u`` (zero initial velocity).

Cuts ``t_0 = 10, 30, 50 %`` of ``T_full`` clean, and ``30 %`` with 1 % multiplicative Gaussian
noise.
Every fit: ``method=weak_pareto_exact``, ``operator=riesz``, the independent suite's plain
ranges (``alpha_range=(0.2, 1.9)``, ``beta_range=(0, 3.2)``, powers 0-2), one BLAS thread; rows
for ``history=none`` (the default: the record's start taken for the onset) and
``history=unknown``. A row passes with the true support, ``|dalpha| <= 0.03``,
``|dbeta| <= 0.03`` and coefficients within 5 %.

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
RUNS = [(0.1, 0.0), (0.3, 0.0), (0.5, 0.0), (0.3, 0.01)]  # (cut, noise)
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


def fit_row(name: str, cut: float, noise: float, history: str) -> dict[str, Any]:
    alpha, beta, coef = CASES[name]
    u, t, x = cut_record(alpha, beta, coef, cut)
    if noise:
        u = u * (1.0 + noise * np.random.default_rng(NOISE_SEED).standard_normal(u.shape))
    model = WeakPareto(method="weak_pareto_exact", operator="riesz", alpha_range=(0.2, 1.9),
                       beta_range=(0.0, 3.2), history=history)  # fmt: skip
    start = time.perf_counter()
    with threadpool_limits(1):
        model.fit(u, t, x)
    seconds = time.perf_counter() - start
    one = model.coef_.size == 1 and model.powers_[0] == 0
    d_beta = abs(float(model.orders_[0]) - beta) if one else float("nan")
    d_coef = abs(float(model.coef_[0]) / coef - 1.0) if one else float("nan")
    d_alpha = abs(model.alpha_ - alpha)
    ok = bool(one and d_alpha <= TOL_ORDER and d_beta <= TOL_ORDER and d_coef <= TOL_COEF)
    return {"case": name, "t0_fraction": cut, "noise": noise, "history": history,
            "equation": model.equation_.text(), "d_alpha": d_alpha, "d_beta": d_beta,
            "coef_error": d_coef, "terms": int(model.coef_.size), "pass": ok,
            "seconds": round(seconds, 1)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", type=Path, default=Path("results/measurement"))
    args = parser.parse_args()
    rows = []
    for name in CASES:
        for cut, noise in RUNS:
            for history in ("none", "unknown"):
                rows.append(fit_row(name, cut, noise, history))
                print({k: rows[-1][k] for k in ("case", "t0_fraction", "noise", "history",
                                                 "d_alpha", "pass")}, flush=True)  # fmt: skip
    df = pd.DataFrame(rows)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    write_csv_atomic(df, args.out_dir / f"{STEM}.csv")
    write_notes(args.out_dir, STEM, tolerance_notes(TOL_ORDER, TOL_COEF))
    write_study(STEM, args.out_dir)


if __name__ == "__main__":
    main()
