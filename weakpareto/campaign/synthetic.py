"""Synthetic stored results (no discovery): for tests and the dataset-read benchmark.

:func:`synthetic_seed` makes the run row and front rows one seed would store, with the real
schemas and a plausible two-term FADE result whose numbers depend on the seed only.
"""

from __future__ import annotations

from typing import Any

from weakpareto.campaign import store as res
from weakpareto.campaign.columns import RunKey
from weakpareto.records import DiscoveryResult, Equation, FrontPoint, Term

TRUTH = Equation("sub", 0.8, (Term(0, 1.0, -1.0), Term(0, 1.7, 0.5)))
BENCHMARKS = ("fade", "burgers", "rd_space", "rd_timespace")
NOISES = (0.0, 0.01, 0.05, 0.1, 0.2)


def synthetic_key(
    seed: int, benchmark: str = "fade", noise: float = 0.05, method: str = "weak_pareto"
) -> RunKey:
    """The key of a synthetic run (fixed config and code hashes)."""
    return RunKey(
        benchmark=benchmark,
        method=method,
        variant="default",
        noise_law="multiplicative",
        noise=float(noise),
        seed=int(seed),
        config_hash="0123456789abcdef",
        code_hash="fedcba9876543210",
    )


def _result(seed: int) -> DiscoveryResult:
    eps = 1e-3 * ((seed * 7919) % 97) / 97
    e1 = Equation("sub", 0.79 + eps, (Term(0, 1.0, -0.8),))
    e2 = Equation("sub", 0.8 + eps, (Term(0, 1.0 + eps, -1.0 + eps), Term(0, 1.7, 0.5 - eps)))
    front = (
        FrontPoint(1, 5.9e-3, 5.5e-3, -2.2, 10.0, 11.0, e1),
        FrontPoint(2, 1.2e-4, 1.1e-4, -3.9, 5.0, 7.0, e2),
    )
    return DiscoveryResult(front, (1, 2), 2, e2, e2, 0.02 + eps, {"search": 1.0})


def synthetic_seed(key: RunKey) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The run row and front rows of ``key`` (status ok)."""
    result = _result(key.seed)
    row = res.run_record(result, None, key, truth=TRUTH, runtime=1.0, label="FADE")
    return row, res.front_records(result, key)


def grid_keys(n: int) -> list[RunKey]:
    """``n`` distinct keys spread over benchmarks x noise levels x seeds."""
    cells = [(b, z) for b in BENCHMARKS for z in NOISES]
    return [
        synthetic_key(i // len(cells), cells[i % len(cells)][0], cells[i % len(cells)][1])
        for i in range(n)
    ]
