"""Resource limits checked before a fit: the seed range and the memory of the weak library.

* **Seeds.** The search seeds one differential evolution per (support size, power pattern,
  temporal branch) with ``seed + 7919 c + 103 j + 1009 i``
  (:meth:`weakpareto.method.discovery.Discovery.best_of_size`), and SciPy's DE seeds numpy's
  legacy ``RandomState``, which accepts ``0 <= seed < 2**32`` only — so ``seed=4294967295``
  used to end in a ``ValueError`` traceback from inside the search. :func:`check_seed_range`
  computes the largest offset of the given settings and rejects larger seeds in one line.
* **Memory.** :func:`library_bytes` estimates the peak allocation of the weak library, its
  order banks and Gram tables from the grid and the test counts; :func:`check_memory` rejects
  settings above a budget (4 GiB, ``$WEAKPARETO_MEMORY_GIB``) with the size and a smaller
  ``test_counts`` (huge ``test_counts`` used to try to allocate tens of GiB and crash).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any

from weakpareto.errors import UserInputError
from weakpareto.fit.spec import searched_families
from weakpareto.library.families import column_kinds
from weakpareto.library.weak import BATCH_VALUES
from weakpareto.method.discovery import search_seed
from weakpareto.method.search import power_patterns
from weakpareto.method.settings import (
    DEFAULT_EPS_ALPHA,
    DEFAULT_N_ALPHA_NODES,
    DEFAULT_N_BETA_NODES,
)
from weakpareto.numerics.orders import temporal_branches
from weakpareto.numerics.windows import fourier_max_mode, paper_test_counts

# -- seeds ------------------------------------------------------------------------------------
#: numpy's legacy seeding (used by scipy's differential evolution) takes 0 <= seed < 2**32.
SEED_LIMIT = 2**32


def searched_family_count(operator: str | None) -> int:
    """How many operator families a 1-D search runs with (not given: ``auto``'s, the most it
    may use)."""
    return len(searched_families("auto" if operator is None else operator)[1]) or 1


def max_seed(params: Mapping[str, Any], dims: int = 1) -> int:
    """Largest ``seed`` whose derived DE seeds all stay below ``2**32`` for these settings
    (several families: the search's powers are the (power, family) column kinds)."""
    if dims == 1:
        n_families = searched_family_count(params.get("operator"))
        search_powers = column_kinds(tuple(params["powers"]), n_families)
    else:
        search_powers = (0, 1)  # 2-D: directions
    branches = temporal_branches(params["alpha_range"], DEFAULT_N_ALPHA_NODES, DEFAULT_EPS_ALPHA)
    # DE seeds are method.discovery.search_seed(seed, c, pattern, branch)
    offset = max(
        search_seed(0, c, len(power_patterns(search_powers, c)), len(branches) - 1)
        for c in range(1, int(params["max_terms"]) + 1)
    )
    return SEED_LIMIT - 1 - offset


def check_seed_range(params: Mapping[str, Any], dims: int = 1) -> None:
    """``seed`` small enough for every derived DE seed (numpy's range is 0 .. 2**32 - 1)."""
    seed = int(params["seed"])
    top = max_seed(params, dims)
    if seed > top:
        raise UserInputError(
            f"seed={seed} is too large: the search seeds its differential evolutions with "
            f"seed + (an offset up to {SEED_LIMIT - 1 - top}), and numpy accepts seeds below "
            f"2**32; use 0 <= seed <= {top}"
        )


# -- memory -----------------------------------------------------------------------------------
#: Memory the weak library may allocate, in GiB (override with the environment variable
#: ``WEAKPARETO_MEMORY_GIB``). Larger requests are rejected before any computation.
MEMORY_BUDGET_GIB = 4.0
MEMORY_ENV = "WEAKPARETO_MEMORY_GIB"
_GIB = 1024.0**3


def memory_budget_bytes() -> float:
    """The memory budget in bytes (:data:`MEMORY_BUDGET_GIB` or ``$WEAKPARETO_MEMORY_GIB``)."""
    raw = os.environ.get(MEMORY_ENV, "")
    try:
        gib = float(raw) if raw.strip() else MEMORY_BUDGET_GIB
    except ValueError:
        raise UserInputError(
            f"{MEMORY_ENV}={raw!r} is not a number; set it to a size in GiB, e.g. 8"
        ) from None
    if not (math.isfinite(gib) and gib > 0):
        raise UserInputError(f"{MEMORY_ENV}={raw!r} must be a positive size in GiB, e.g. 8")
    return gib * _GIB


def resolved_test_counts(params: Mapping[str, Any], shape: tuple[int, ...]) -> tuple[int, ...]:
    """The test counts a fit uses: ``test_counts`` or the paper rule per axis."""
    counts = params.get("test_counts")
    if counts is not None:
        return tuple(int(k) for k in counts)
    kt, kx = paper_test_counts(shape[0], shape[1])
    if len(shape) == 2:
        return (kt, kx)
    return (kt, kx, paper_test_counts(shape[0], shape[2])[1])


def library_bytes(params: Mapping[str, Any], shape: tuple[int, ...]) -> float:
    """Estimated peak bytes of the weak library, its order banks and Gram tables.

    Float64 everywhere. With ``M`` order nodes (temporal nodes of every admitted branch plus
    ``n_beta`` spatial nodes per power / direction) and ``K`` weak rows, the banks (``M x K``)
    exist twice at the peak (the per-order blocks and their concatenation; later the train /
    validation copies of the Gram tables); on top come the largest intermediates of one
    feature call — the spatially transformed copies of the field for the nonlinear columns (real
    and complex FFT buffers) and the ``nt x nt`` temporal operator matrices, each for one chunk
    of orders (:func:`weakpareto.library.weak.order_chunks`), and the adjoint spatial tests.
    Measured peaks (tracemalloc, FADE, Burgers, two-term Riesz, 2-D benchmark A, paper and
    enlarged test counts) were 0.7-0.9 of this estimate before the chunking.
    """
    counts = resolved_test_counts(params, shape)
    branches = temporal_branches(params["alpha_range"], DEFAULT_N_ALPHA_NODES, DEFAULT_EPS_ALPHA)
    n_alpha = sum(int(b.nodes.size) for b in branches)
    g_alpha = max(int(b.nodes.size) for b in branches)
    g = DEFAULT_N_BETA_NODES
    nt = shape[0]
    if len(shape) == 2:
        nx = shape[1]
        kt, kx = counts
        if params.get("test_functions") == "fourier":
            kx = 2 * fourier_max_mode(nx, kx) + 1
        k = kt * kx
        powers = tuple(params["powers"])
        m = n_alpha + len(powers) * g
        # the temporal matrices and the transformed fields come a chunk of orders at a time
        # (weakpareto.library.weak.order_chunks); the per-order outputs accumulate
        chunk_a = min(g_alpha, max(1, BATCH_VALUES // (2 * nt * nt)))
        chunk_b = min(g, max(1, BATCH_VALUES // (3 * nt * nx)))
        targets = 2 * chunk_a * nt * nt + g_alpha * (kt * nt + k)
        linear = g * (3 * kx * nx + k)
        nonlinear = 4 * chunk_b * nt * nx + g * (kt * nx + k) if any(p > 0 for p in powers) else 0
        extra = max(targets, linear, nonlinear) + 4 * nt * nx
    else:
        nx, ny = shape[1], shape[2]
        kt, kx, ky = counts
        k = kt * kx * ky
        m = n_alpha + 2 * g
        targets = g_alpha * (nt * nt + kt * nt + k) + nt * kx * (ky + ny)
        columns = 2 * g * k + 3 * g * max(kx * nx, ky * ny) + kt * (nx * ky + kx * ny)
        extra = max(targets, columns) + 2 * nt * nx * ny + kt * nx * ny
    return 8.0 * (2.0 * m * k + extra)


def check_memory(params: Mapping[str, Any], shape: tuple[int, ...]) -> None:
    """Reject settings whose weak library would exceed the memory budget (one line)."""
    need = library_bytes(params, shape)
    budget = memory_budget_bytes()
    if need <= budget:
        return
    counts = resolved_test_counts(params, shape)
    dims = " x ".join(str(n) for n in shape)
    given = params.get("test_counts") is not None
    # The banks grow linearly in K = prod(counts): shrink every count by the same factor.
    factor = (0.8 * budget / need) ** (1.0 / len(counts))
    smaller = [max(4, int(k * factor)) for k in counts]
    trial = dict(params, test_counts=tuple(smaller))
    what = f"test_counts={list(counts)}" if given else f"the test counts {list(counts)}"
    if given and library_bytes(trial, shape) <= budget:
        fix = f"use e.g. test_counts=[{','.join(str(k) for k in smaller)}] or omit test_counts"
    else:
        fix = (
            "subsample the data (e.g. every 2nd time step, u[::2], t[::2]) or narrow "
            "alpha_range/powers"
        )
    raise UserInputError(
        f"{what} on a {dims} grid would need about {need / _GIB:.1f} GiB for the weak "
        f"library (budget {budget / _GIB:g} GiB, ${MEMORY_ENV} to change); {fix}"
    )
