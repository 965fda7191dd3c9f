"""Five-arm oracle profile of the temporal order (paper Remark rem:temporal-target and App.
"Discrete operators and numerical verification", last paragraph;
docs/method/diagnostics.md#temporal-order-profile).

On the Riesz reaction-diffusion benchmarks the selected temporal order shifts under noise. The
oracle diagnostic fixes everything the search would otherwise choose — the true two-term support
(identity ``u`` and one Riesz term, powers 0), the operator modes — and profiles the held-out
objective over the temporal order ``alpha``: for each trial ``alpha`` the Riesz order ``beta_2``
is optimised (bounded Brent on ``[first positive beta node, beta_max]``, ``xatol 1e-5``,
``maxiter 120``) and the profile value is the best ``E_val`` (paper Eq. 21; the seeded 25 %
validation split and ridge ``1e-3`` of the main protocol). Features are the search's
interpolated ones: targets blended linearly between the branch's ``alpha`` nodes, columns between
the uniform ``beta`` nodes (paper budget of test functions, 47 alpha and 59 beta nodes).

The five arms differ only in which field enters the target (the Caputo side) and which the
library (the right-hand side):

====================  ==============  ==============
arm                   target field    library field
====================  ==============  ==============
``clean``             clean           clean
``noisy``             noisy           noisy
``clean_initial``     noisy, clean    same
                      initial slice
``target_only``       noisy           clean
``library_only``      clean           noisy
====================  ==============  ==============

Trial orders: 81 equally spaced in ``[alpha_min, 0.999]`` when the sub-unit branch is admitted,
``alpha = 1`` (the exact integer mode) when admitted, ``max(5, 81 // 4)`` equally spaced in
``[1.001, alpha_max]`` when the super-unit branch is admitted, plus the true order. The reported
minimum of an arm is the trial order with the lowest profile value.

The paper reports, at 2 % multiplicative noise (seed 0): RD space — clean profile at the exact
integer mode, noisy 0.820, target-only 0.817, library-only integer mode, clean-initial 0.800 (the
lower bound); RD time-space — clean and library-only 0.820, noisy and target-only 0.772,
clean-initial 0.763.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import minimize_scalar

from weakpareto._typing import Array
from weakpareto.benchmarks.catalogue import load_benchmark
from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.diagnostics.identifiability import benchmark_library
from weakpareto.evaluation.metrics import truth_equation
from weakpareto.library.gram import evaluate_direct
from weakpareto.method.search import train_val_split
from weakpareto.method.settings import (
    DEFAULT_EPS_ALPHA,
    DEFAULT_N_ALPHA_NODES,
    DEFAULT_N_BETA_NODES,
    SearchSettings,
)
from weakpareto.numerics.orders import Branch, beta_blend, beta_nodes, blend, temporal_branches
from weakpareto.records import Mode

#: Arms: (name, target field, library field); fields: "clean", "noisy", "clean_initial".
ARMS: tuple[tuple[str, str, str], ...] = (
    ("clean", "clean", "clean"),
    ("noisy", "noisy", "noisy"),
    ("clean_initial", "clean_initial", "clean_initial"),
    ("target_only", "noisy", "clean"),
    ("library_only", "clean", "noisy"),
)
PROFILE_BENCHMARKS: tuple[str, ...] = ("rd_space", "rd_timespace")
PROFILE_NOISE = 0.02
PROFILE_SEED = 0
N_SUB = 81
XATOL = 1e-5
MAXITER = 120
RIDGE = SearchSettings().ridge
VAL_FRACTION = SearchSettings().val_fraction


@dataclass(frozen=True)
class _Banks:
    """Target banks per branch and power-0 column bank of one field."""

    targets: dict[Mode, Array]  # mode -> (n_nodes, K)
    columns: Array  # (n_beta_nodes, K)


def trial_orders(branches: Sequence[Branch], alpha_true: float) -> list[tuple[Mode, float]]:
    """``(mode, alpha)`` trial points of the profile, sorted by ``alpha``."""
    out: list[tuple[Mode, float]] = []
    for br in branches:
        if br.mode == "sub":
            out += [("sub", float(a)) for a in np.linspace(br.lo, 0.999, N_SUB)]
        elif br.mode == "int":
            out.append(("int", 1.0))
        else:
            out += [("sup", float(a)) for a in np.linspace(1.001, br.hi, max(5, N_SUB // 4))]
    mode_true: Mode = (
        "int" if abs(alpha_true - 1.0) <= 1e-12 else ("sub" if alpha_true < 1.0 else "sup")
    )
    if not any(m == mode_true and abs(a - alpha_true) <= 1e-12 for m, a in out):
        out.append((mode_true, float(alpha_true)))
    return sorted(out, key=lambda p: p[1])


def _banks(lib: Any, branches: Sequence[Branch], nodes: Array) -> _Banks:
    return _Banks(
        targets={br.mode: np.asarray(lib.targets(br.nodes, br.mode)) for br in branches},
        columns=np.asarray(lib.columns(0, nodes)),
    )


def arm_profiles(name: str, noise: float = PROFILE_NOISE, seed: int = PROFILE_SEED) -> pd.DataFrame:
    """Every arm's profile on one benchmark: one row per (arm, trial alpha) with the best
    ``beta_2`` and its ``E_val``."""
    bench = load_benchmark(name)
    truth = truth_equation(bench)
    lib_cfg = bench["library"]
    alpha_range = (float(lib_cfg["alpha_range"][0]), float(lib_cfg["alpha_range"][1]))
    beta_range = (float(lib_cfg["beta_range"][0]), float(lib_cfg["beta_range"][1]))
    branches = temporal_branches(alpha_range, DEFAULT_N_ALPHA_NODES, DEFAULT_EPS_ALPHA)
    nodes = beta_nodes(beta_range, DEFAULT_N_BETA_NODES)
    if nodes[0] != 0.0:
        raise ValueError(f"{name}: the beta range must start at the identity (0)")
    fld = generate(bench, seed)
    clean = np.asarray(fld.u, dtype=float)
    noisy = add_noise(clean, "multiplicative", float(noise), int(seed)) if noise > 0 else clean
    restored = noisy.copy()
    restored[0] = clean[0]
    fields = {"clean": clean, "noisy": noisy, "clean_initial": restored}
    banks = {
        k: _banks(benchmark_library(bench, u, fld.t, fld.x), branches, nodes)
        for k, u in fields.items()
    }
    n_rows = banks["clean"].columns.shape[1]
    train, val = train_val_split(n_rows, VAL_FRACTION, int(seed))
    beta_lo, beta_hi = float(nodes[nodes > 0][0]), float(nodes[-1])
    by_mode = {br.mode: br for br in branches}
    rows = []
    for arm, tgt, libf in ARMS:
        tb, cb = banks[tgt], banks[libf]
        identity = cb.columns[0]
        for mode, alpha in trial_orders(branches, float(truth.alpha)):
            idx, w = blend(np.array(alpha), by_mode[mode].nodes)
            y = w[0] * tb.targets[mode][idx[0]] + w[1] * tb.targets[mode][idx[1]]
            e_val = _beta_objective(y, identity, cb.columns, nodes, train, val)
            res = minimize_scalar(
                e_val,
                bounds=(beta_lo, beta_hi),
                method="bounded",
                options={"xatol": XATOL, "maxiter": MAXITER},
            )
            rows.append(
                {
                    "benchmark": name,
                    "noise": float(noise),
                    "seed": int(seed),
                    "arm": arm,
                    "mode": mode,
                    "alpha": float(alpha),
                    "beta2": float(res.x),
                    "val_error": float(res.fun),
                }
            )
    return pd.DataFrame(rows)


def _beta_objective(
    y: Array, identity: Array, columns: Array, nodes: Array, train: Array, val: Array
) -> Callable[[float], float]:
    def e_val(beta: float) -> float:
        idx, w = beta_blend(np.array(beta), nodes)
        col = w[0] * columns[idx[0]] + w[1] * columns[idx[1]]
        design = np.column_stack([identity, col])
        return float(evaluate_direct(y, design, train, val, RIDGE).val_error[0])

    return e_val


def arm_minima(profiles: pd.DataFrame) -> pd.DataFrame:
    """Per (benchmark, noise, arm): the trial order with the lowest profile value."""
    best = profiles.loc[
        profiles.groupby(["benchmark", "noise", "arm"], sort=False)["val_error"].idxmin()
    ]
    return best.reset_index(drop=True)


def temporal_profile(
    benchmarks: Sequence[str] = PROFILE_BENCHMARKS,
    noise: float = PROFILE_NOISE,
    seed: int = PROFILE_SEED,
) -> pd.DataFrame:
    """The five arms' profiles of every benchmark (rows as :func:`arm_profiles`)."""
    return pd.concat([arm_profiles(b, noise, seed) for b in benchmarks], ignore_index=True)


__all__ = [
    "ARMS",
    "PROFILE_BENCHMARKS",
    "arm_minima",
    "arm_profiles",
    "temporal_profile",
    "trial_orders",
]
