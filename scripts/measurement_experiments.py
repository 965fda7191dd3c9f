"""Several experiments of one equation: each alone against all of them pooled in one fit.

Data: exact per-mode Mittag-Leffler solutions (the ``mittag_leffler`` generator, independent of
the method's L1 discretisation) of D_t^0.7 u = 0.3 R^1.5 u on a 2 pi-periodic domain. Three short
experiments (25-41 samples, different durations and grids) start from initial conditions that
each excite one spatial mode k = 1, 2, 3 (plus a constant). On one mode R^beta u = -k^beta u, so
one experiment determines only 0.3 k^1.5, not the order and the coefficient separately; the
three together determine both. Every fit uses the same plain settings (``operator=riesz``,
``alpha_range=[0.2,1.9]``, ``beta_range=[0,3.2]``, the default method), at 0 and 1 %
multiplicative noise, one BLAS thread.

Writes ``results/measurement/tab_experiments.csv`` and the truth equation to
``tab_experiments.json``; the ``.md`` is rendered from both
(:mod:`weakpareto.reporting.studies.measurement`, also by ``wp report``)::

    python scripts/measurement_experiments.py [--out-dir results/measurement]
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
from weakpareto.benchmarks.noise import add_noise
from weakpareto.evaluation.metrics import score, truth_equation
from weakpareto.io import write_csv_atomic
from weakpareto.reporting.studies.common import write_notes
from weakpareto.reporting.studies.measurement import EXPERIMENTS_STEM as STEM
from weakpareto.reporting.studies.measurement import experiments_notes
from weakpareto.reporting.studies.registry import write_study

TRUTH: dict[str, Any] = {
    "mode": "sub",
    "alpha": 0.7,
    "operator": "riesz",
    "terms": [{"power": 0, "order": 1.5, "coef": 0.3}],
}
#: (spatial mode, samples, duration, nx) of each experiment
EXPERIMENTS = ((1, 31, 0.5, 64), (2, 41, 0.8, 48), (3, 25, 0.4, 64))
SETTINGS: dict[str, Any] = dict(operator="riesz", alpha_range=(0.2, 1.9), beta_range=(0.0, 3.2))
NOISE_LEVELS = (0.0, 0.01)
NOISE_SEED = 11


def experiment_config(mode: int, nt: int, duration: float, nx: int) -> dict[str, Any]:
    """The generator config of one experiment (its initial condition excites mode ``mode``)."""
    harmonics = [
        {"fn": "cos", "m": 0, "amp": 1.0},
        {"fn": "sin", "m": mode, "amp": 0.8 / mode**0.5, "phase": 0.3 * mode},
    ]
    return {
        "name": f"mode{mode}",
        "generator": {"kind": "mittag_leffler", "ic": {"harmonics": harmonics}},
        "grid": {"nt": nt, "nx": nx, "T": duration, "L": 2 * np.pi, "t_endpoint": True},
        "truth": TRUTH,
    }


def experiments(noise: float) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The three experiments ``(u, t, x)`` at a multiplicative noise level."""
    out = []
    for k, spec in enumerate(EXPERIMENTS):
        f = generate(experiment_config(*spec), 0)
        u = add_noise(f.u, "multiplicative", noise, NOISE_SEED + k) if noise > 0 else f.u
        out.append((u, f.t, f.x))
    return out


def fit_row(
    label: str, experiment: str, noise: float, data: list[tuple[np.ndarray, ...]]
) -> dict[str, Any]:
    """Fit one experiment (or several pooled) and score it against the truth; ``experiment``
    names the experiments fitted (``2``, ``1+2+3``)."""
    model = WeakPareto(**SETTINGS)
    t0 = time.perf_counter()
    if len(data) == 1:
        model.fit(*data[0])
    else:
        model.fit(*(list(arrays) for arrays in zip(*data, strict=True)))
    seconds = time.perf_counter() - t0
    m = score(model.equation_, truth_equation(experiment_config(*EXPERIMENTS[0])))
    return {
        "noise": noise,
        "fit": label,
        "experiment": experiment,
        "grids": " + ".join(f"{u.shape[0]}x{u.shape[1]}" for u, _, _ in data),
        "equation": model.equation_.text(sig_digits=4),
        "support": bool(m.support_ok),
        "e_alpha": m.e_alpha,
        "e_beta_max": m.e_beta_max,
        "e_xi_max": m.e_xi_max,
        "seconds": round(seconds, 2),
        "warnings": " ".join(w.code for w in model.warnings_ if w.level == "warning"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", default="results/measurement")
    args = parser.parse_args()
    rows = []
    with threadpool_limits(1):
        for noise in NOISE_LEVELS:
            data = experiments(noise)
            for k, one in enumerate(data):
                rows.append(fit_row(f"experiment {k + 1} alone", str(k + 1), noise, [one]))
            rows.append(fit_row("pooled 1+2+3", "1+2+3", noise, data))
            for r in rows[-len(data) - 1 :]:
                print(f"{r['noise']:<5g} {r['fit']:<20s} {r['equation']}", flush=True)
    df = pd.DataFrame(rows)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    write_csv_atomic(df, out / f"{STEM}.csv")
    truth = truth_equation(experiment_config(*EXPERIMENTS[0])).text()
    write_notes(out, STEM, experiments_notes(truth))
    write_study(STEM, out)


if __name__ == "__main__":
    main()
