"""Order grids, temporal branches and linear order interpolation (paper Sec. 4.2;
docs/method/library.md#order-grids, #temporal-branches, #interpolation).

The temporal range ``[alpha_min, alpha_max]`` is split into the branch sets of paper Sec. 4.2,

    I_sub = [a_min, a_max] ∩ (0, 1 - eps],  I_int = [a_min, a_max] ∩ {1},
    I_sup = [a_min, a_max] ∩ [1 + eps, 2),

each with its own interpolation grid (the uniform nodes inside the branch plus both branch
bounds), so linear interpolation never crosses ``alpha = 1``. Spatial orders use one uniform
grid; when it contains ``beta = 0`` that node is the identity candidate and any proposal below
the first positive node snaps to it (identity and derivative columns are never blended).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from weakpareto.records import Mode

MODES: tuple[Mode, ...] = ("sub", "int", "sup")
INTEGER_TOL = 1e-11
#: Largest spatial order searched: |kappa|^beta of a fine grid overflows float64 for beta in the
#: hundreds and loses every digit of the weak library far earlier; the benchmarks need <= 4.5.
MAX_SPATIAL_ORDER = 8.0


@dataclass(frozen=True)
class Branch:
    """One temporal branch: its mode, DE bounds and interpolation nodes."""

    mode: Mode
    lo: float
    hi: float
    nodes: NDArray[np.float64]

    @property
    def is_integer(self) -> bool:
        return self.mode == "int"


def temporal_branches(
    alpha_range: tuple[float, float], n_nodes: int, eps: float
) -> tuple[Branch, ...]:
    """Admitted temporal branches for a declared range (paper Sec. 4.2;
    docs/method/library.md#temporal-branches).

    Raises ``ValueError`` when the range admits no branch.
    """
    a_min, a_max = float(alpha_range[0]), float(alpha_range[1])
    if not (0.0 < a_min < a_max < 2.0):
        raise ValueError(
            f"alpha_range [{a_min}, {a_max}] must satisfy 0 < min < max < 2; "
            "fix the alpha range in the benchmark library or on the command line"
        )
    uniform = np.linspace(a_min, a_max, n_nodes)
    out: list[Branch] = []
    if a_min < 1.0 - eps:
        lo, hi = a_min, min(a_max, 1.0 - eps)
        out.append(Branch("sub", lo, hi, _branch_nodes(uniform, lo, hi)))
    if a_min - INTEGER_TOL <= 1.0 <= a_max + INTEGER_TOL:
        out.append(Branch("int", 1.0, 1.0, np.array([1.0])))
    if a_max > 1.0 + eps:
        lo, hi = max(a_min, 1.0 + eps), a_max
        out.append(Branch("sup", lo, hi, _branch_nodes(uniform, lo, hi)))
    if not out:
        raise ValueError(
            f"alpha_range [{a_min}, {a_max}] admits no temporal branch (sub needs min < "
            f"{1 - eps}, int needs 1 in range, sup needs max > {1 + eps}); widen the range"
        )
    return tuple(out)


def _branch_nodes(uniform: NDArray[np.float64], lo: float, hi: float) -> NDArray[np.float64]:
    inside = uniform[(uniform >= lo) & (uniform <= hi)]
    nodes = np.unique(np.round(np.concatenate([inside, [lo, hi]]), 15))
    return nodes


def beta_nodes(
    beta_range: tuple[float, float], n_nodes: int, min_positive: float | None = None
) -> NDArray[np.float64]:
    """Uniform spatial-order grid ``linspace(beta_min, beta_max, n)``
    (docs/method/library.md#order-grids).

    ``min_positive`` (ours): when the range starts at the identity (0), the positive nodes are
    ``linspace(min_positive, beta_max, n - 1)`` instead, so every proposal below
    ``min_positive`` snaps to the identity and a low-order term cannot stand in for it.
    """
    lo, hi = float(beta_range[0]), float(beta_range[1])
    if min_positive is None or lo != 0.0 or min_positive <= 0.0:
        return np.linspace(lo, hi, n_nodes)
    if not min_positive < hi:
        raise ValueError(f"min_positive_order {min_positive} must lie below beta_max {hi}")
    return np.concatenate([[0.0], np.linspace(float(min_positive), hi, n_nodes - 1)])


def first_positive(nodes: NDArray[np.float64]) -> float:
    """Smallest strictly positive node; proposals below it snap to the identity (if present)."""
    pos = nodes[nodes > 0.0]
    return float(pos[0])


def has_identity(nodes: NDArray[np.float64]) -> bool:
    return bool(nodes[0] == 0.0)


def snap_beta(beta: NDArray[np.float64], nodes: NDArray[np.float64]) -> NDArray[np.float64]:
    """Snap proposals below the first positive node to exactly 0 when the grid has the identity."""
    beta = np.asarray(beta, dtype=float)
    if not has_identity(nodes):
        return beta
    return np.where(beta < first_positive(nodes), 0.0, beta)


def blend(z: NDArray[np.float64], nodes: NDArray[np.float64]) -> tuple[NDArray, NDArray]:
    """Linear-interpolation stencil of orders ``z`` on ``nodes``.

    Returns ``(idx, w)`` of shape ``z.shape + (2,)``: the interpolated vector is
    ``w[...,0]*bank[idx[...,0]] + w[...,1]*bank[idx[...,1]]``. Orders are clipped to the grid,
    the interval found by a right-sided search, ``w = (z - lo)/(hi - lo + 1e-14)``
    (docs/method/library.md#interpolation).
    A grid with a single node returns that node with weight 1.
    """
    z = np.asarray(z, dtype=float)
    n = nodes.size
    if n == 1:
        idx = np.zeros(z.shape + (2,), dtype=np.intp)
        w = np.zeros(z.shape + (2,))
        w[..., 0] = 1.0
        return idx, w
    zc = np.clip(z, nodes[0], nodes[-1])
    hi = np.clip(np.searchsorted(nodes, zc, side="right"), 1, n - 1)
    lo = hi - 1
    frac = (zc - nodes[lo]) / (nodes[hi] - nodes[lo] + 1e-14)
    idx = np.stack([lo, hi], axis=-1)
    w = np.stack([1.0 - frac, frac], axis=-1)
    return idx, w


def beta_blend(beta: NDArray[np.float64], nodes: NDArray[np.float64]) -> tuple[NDArray, NDArray]:
    """Like :func:`blend` but an identity proposal (after :func:`snap_beta`) maps to node 0 only."""
    snapped = snap_beta(beta, nodes)
    idx, w = blend(snapped, nodes)
    if has_identity(nodes):
        ident = snapped == 0.0
        idx = np.where(ident[..., None], 0, idx)
        w = np.where(ident[..., None], np.array([1.0, 0.0]), w)
    return idx, w
