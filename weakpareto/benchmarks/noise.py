"""Measurement-noise laws (paper Sec. 5.1, App. altnoise; docs/method/benchmarks.md#noise-laws).

Each law maps a clean field ``u`` to a noisy realisation. ``level`` is a FRACTION
(``0.1`` means 10 %; tables report ``100*level``). The realisation depends only on
``(u.shape, seed)``, so the weak and the strong method, and every feature bank, see the
identical noisy field when called with the same arguments.

* ``multiplicative``: ``u * (1 + level*zeta)``, ``zeta ~ U[-1, 1]`` i.i.d., drawn as ONE
  array of ``u.shape`` by ``numpy.random.default_rng(seed).uniform(-1, 1, u.shape)``.
* ``additive_gaussian``: ``u + level*std(u)*Z`` with ``std`` the population standard
  deviation of the whole clean field and ``Z = default_rng(seed).standard_normal(u.shape)``.

``level == 0`` returns an exact copy of ``u`` (no RNG draw).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

from weakpareto._typing import FloatArray

__all__ = ["NOISE_LAWS", "add_noise", "list_noise_laws"]


def _multiplicative(u: FloatArray, level: float, rng: np.random.Generator) -> FloatArray:
    zeta = rng.uniform(-1.0, 1.0, size=u.shape)
    return u * (1.0 + level * zeta)


def _additive_gaussian(u: FloatArray, level: float, rng: np.random.Generator) -> FloatArray:
    sigma = level * float(np.std(u))
    return u + sigma * rng.standard_normal(u.shape)


NoiseLaw = Callable[[FloatArray, float, np.random.Generator], FloatArray]

NOISE_LAWS: dict[str, NoiseLaw] = {
    "multiplicative": _multiplicative,
    "additive_gaussian": _additive_gaussian,
}


def list_noise_laws() -> list[str]:
    """Names accepted by :func:`add_noise` (and by the ``noise_law`` config group)."""
    return sorted(NOISE_LAWS)


def _check_level(level: object) -> float:
    if isinstance(level, bool) or not isinstance(level, numbers.Real):
        raise ValueError(
            f"noise level must be a real number (a fraction, 0.1 = 10%), got {level!r}"
        )
    val = float(level)
    if not math.isfinite(val) or val < 0.0:
        raise ValueError(
            f"noise level must be a finite fraction >= 0 (0.1 = 10%), got {val!r}; "
            "pass e.g. level=0.1"
        )
    return val


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise ValueError(f"noise seed must be a non-negative integer, got {seed!r}")
    val = int(seed)
    if val < 0:
        raise ValueError(f"noise seed must be a non-negative integer, got {val}")
    return val


def add_noise(u: ArrayLike, law: str, level: float, seed: int) -> FloatArray:
    """Return a noisy copy of ``u`` under the named noise ``law``.

    Parameters
    ----------
    u
        Clean real field (any shape). It is never modified.
    law
        One of :func:`list_noise_laws` (``"multiplicative"``, ``"additive_gaussian"``).
    level
        Noise level as a fraction (``0.1`` = 10 %), finite and ``>= 0``.
    seed
        Non-negative integer seed of ``numpy.random.default_rng``.
    """
    if law not in NOISE_LAWS:
        raise ValueError(f"unknown noise law {law!r}; valid names: {', '.join(list_noise_laws())}")
    lvl = _check_level(level)
    s = _check_seed(seed)
    arr = np.asarray(u)
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"noise can only be added to a real numeric field, got dtype {arr.dtype}")
    clean = np.array(arr, dtype=np.float64, copy=True)
    if lvl == 0.0:
        return clean
    return NOISE_LAWS[law](clean, lvl, np.random.default_rng(s))
