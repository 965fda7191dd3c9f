"""Cost of ``uncertainty=bootstrap`` against one fit (target: B = 200 adds at most 2x a fit).

:func:`uncertainty_cost` times, with one BLAS thread, one seed's fit as ``wp run`` computes it
(data, noise, weak library, discovery: :func:`weakpareto.campaign.compute.fit_outcome`) and the
block bootstrap of its selected equation with ``n_boot`` resamples
(:func:`weakpareto.campaign.compute.bootstrap_seed`: local order bank, per-tile Gram tables,
``n_boot`` refits with reselection, ``S_beta``), each the median over ``repeats`` runs of the same
seed. :func:`write_uncertainty_cost` writes ``uncertainty_cost.{csv,md}``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from threadpoolctl import threadpool_limits

from weakpareto.campaign.compose import compose_config
from weakpareto.campaign.compute import bootstrap_seed, fit_outcome
from weakpareto.io import write_csv_atomic

#: Cost target of the bootstrap: fit + bootstrap at most this many times one fit.
TARGET_RATIO = 3.0
STEM = "uncertainty_cost"


def uncertainty_cost(
    benchmark: str = "fade",
    noise: float = 0.1,
    n_boot: int = 200,
    repeats: int = 3,
    seed: int = 0,
    overrides: Sequence[str] = (),
) -> pd.DataFrame:
    """One row: ``benchmark, noise, n_boot, repeats, fit_s, bootstrap_s, ratio`` with
    ``ratio = (fit_s + bootstrap_s) / fit_s`` (medians over ``repeats``, one BLAS thread) and
    ``target`` (:data:`TARGET_RATIO`)."""
    cfg = compose_config(
        [f"benchmark={benchmark}", f"noise={noise}", "uncertainty=bootstrap",
         f"n_boot={n_boot}", *overrides]
    )  # fmt: skip
    fits, boots = [], []
    with threadpool_limits(1):
        for _ in range(max(1, int(repeats))):
            t0 = time.perf_counter()
            outcome = fit_outcome(cfg, seed)
            t1 = time.perf_counter()
            bootstrap_seed(cfg, outcome)
            t2 = time.perf_counter()
            fits.append(t1 - t0)
            boots.append(t2 - t1)
    fit_s, boot_s = statistics.median(fits), statistics.median(boots)
    return pd.DataFrame(
        [
            {
                "benchmark": benchmark,
                "noise": float(noise),
                "n_boot": int(n_boot),
                "repeats": len(fits),
                "fit_s": fit_s,
                "bootstrap_s": boot_s,
                "ratio": (fit_s + boot_s) / fit_s,
                "target": TARGET_RATIO,
            }
        ]
    )


def write_uncertainty_cost(out_dir: str | Path, df: pd.DataFrame) -> Path:
    """Write ``out_dir/uncertainty_cost.csv`` atomically (its table is rendered by
    :mod:`weakpareto.reporting.studies.bench`, by ``wp bench`` and again by ``wp report``)."""
    return write_csv_atomic(df, Path(out_dir) / f"{STEM}.csv")
