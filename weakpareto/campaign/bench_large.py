"""Time and peak memory of one fit of a large field (``wp bench large=2400x4096``).

The field is the closed form of ``u_t = 0.3 R^1.5 u`` with five Fourier modes on ``nt x nx``
samples of ``[0, 1] x [0, 2 pi)`` (:func:`five_mode_field`), fitted by ``WeakPareto`` with the
Riesz family, ``alpha_range=(0.6, 1.2)`` and ``beta_range=(0.5, 2.5)``. Every fit runs in a fresh
interpreter with one BLAS thread (set by its environment) and nothing imported but what the fit
needs (pandas is imported by the parent only), so its peak resident memory is the fit's (the
child reports ``ru_maxrss``); wall seconds are the whole process, fit seconds the fit alone.
Nothing here asserts a time; :func:`write_large_fields` writes ``large_fields.csv``
(``results/bench/large_fields.md`` discusses the measurements).
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from weakpareto.errors import UserInputError

if TYPE_CHECKING:
    import pandas as pd

STEM = "large_fields"
#: Environment variables that cap the BLAS and OpenMP threads of the child process.
BLAS_THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
#: The equation every size must return (clean data: the method's answer, not a tolerance).
TRUTH = "u_t = 0.3000 R^1.5000 u"


def five_mode_field(nt: int, nx: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``u = sum_k a_k exp(-0.3 k^1.5 t) cos(k x + 0.3 k)``, k = 1..5: the exact solution of
    ``u_t = 0.3 R^1.5 u`` (``R^beta`` has the symbol ``-|k|^beta``); returns ``u, t, x``."""
    x = np.arange(nx) * 2.0 * np.pi / nx
    t = np.linspace(0.0, 1.0, nt)
    u = np.zeros((nt, nx))
    for k, a in zip([1, 2, 3, 4, 5], [1.0, 0.5, 0.3, 0.2, 0.1]):
        u += a * np.exp(-0.3 * k**1.5 * t)[:, None] * np.cos(k * x + 0.3 * k)[None, :]
    return u, t, x


def fit_once(nt: int, nx: int, method: str) -> dict[str, Any]:
    """Fit the field of one size in this process: equation, fit seconds, peak MiB so far (the
    BLAS threads are the environment's: :func:`_child` starts it with one)."""
    import resource

    from weakpareto import WeakPareto

    u, t, x = five_mode_field(nt, nx)
    start = time.perf_counter()
    model = WeakPareto(
        method=method, operator="riesz", alpha_range=(0.6, 1.2), beta_range=(0.5, 2.5)
    )
    model.fit(u, t, x)
    seconds = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return {"equation": model.equation_.text(), "fit_s": seconds, "peak_mib": peak_kib / 1024}


def parse_sizes(text: str) -> list[tuple[int, int]]:
    """``"600x1024,2400x4096"`` -> ``[(600, 1024), (2400, 4096)]``; empty text: none."""
    sizes = []
    for item in (s.strip() for s in text.strip("[]").split(",")):
        if not item:
            continue
        match = re.fullmatch(r"(\d+)x(\d+)", item)
        if match is None or min(int(match[1]), int(match[2])) < 32:
            raise UserInputError(
                f"large={text} is not a list of nt x nx sizes of at least 32 each; "
                "e.g. large=600x1024,2400x4096"
            )
        sizes.append((int(match[1]), int(match[2])))
    return sizes


def _child(nt: int, nx: int, method: str) -> dict[str, Any]:
    program = (
        "import json; from weakpareto.campaign.bench_large import fit_once; "
        f"print(json.dumps(fit_once({nt}, {nx}, {method!r})))"
    )
    # one BLAS thread by the environment: threadpoolctl in the child would load and inspect
    # every BLAS library, 64 MiB of the peak being measured
    env = {**os.environ, **dict.fromkeys(BLAS_THREAD_VARIABLES, "1")}
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", program], check=True, capture_output=True, text=True, env=env
    )
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["wall_s"] = time.perf_counter() - t0
    return dict(out)


def large_field_rows(
    sizes: list[tuple[int, int]], method: str = "weak_pareto_exact", repeats: int = 1
) -> pd.DataFrame:
    """One row per size: median wall and fit seconds over ``repeats`` fresh processes, the
    largest peak MiB, the equation and whether it is :data:`TRUTH`."""
    import pandas as pd

    rows = []
    for nt, nx in sizes:
        runs = [_child(nt, nx, method) for _ in range(max(1, int(repeats)))]
        equations = {r["equation"] for r in runs}
        row = {
            "nt": nt,
            "nx": nx,
            "method": method,
            "repeats": len(runs),
            "wall_s": statistics.median(r["wall_s"] for r in runs),
            "fit_s": statistics.median(r["fit_s"] for r in runs),
            "peak_mib": max(r["peak_mib"] for r in runs),
            "equation": " | ".join(sorted(equations)),
            "exact": equations == {TRUTH},
        }
        rows.append(row)
        print(
            f"large field {nt} x {nx} ({method}): wall {row['wall_s']:.2f} s, fit "
            f"{row['fit_s']:.2f} s, peak {row['peak_mib']:.0f} MiB, {row['equation']}"
        )
    return pd.DataFrame(rows)


def write_large_fields(out_dir: str | Path, df: pd.DataFrame) -> Path:
    """Write ``out_dir/large_fields.csv`` atomically."""
    from weakpareto.io import write_csv_atomic

    return write_csv_atomic(df, Path(out_dir) / f"{STEM}.csv")
