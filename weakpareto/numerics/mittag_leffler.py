"""Two-parameter Mittag-Leffler function ``E_{alpha,beta}(z)``
(docs/method/benchmarks.md#mittag-leffler-evaluation).

Thin, checked wrapper around :func:`pymittagleffler.mittag_leffler` (Garrappa's optimal
parabolic-contour Laplace inversion). The wrapper adds what the generators need:

* argument checks (``0 < alpha <= 2``, real finite ``beta``); ``alpha = 2`` is admitted
  because ``E_{2,1}(-z**2) = cos z`` is a closed form used to validate the evaluator, and it
  is the end point of the superunit Caputo branch;
* dtype discipline: a real input gives a real ``float64`` array, a complex input a
  ``complex128`` array (pymittagleffler itself always returns complex);
* an overflow guard: pymittagleffler returns NaN (not ``inf``) when the value overflows
  double precision, e.g. ``E_{0.8,1}(700)``; a finite argument with a non-finite value raises
  :class:`MittagLefflerOverflowError` instead of silently propagating NaN.

Non-finite arguments (NaN, +-inf) are passed through and give whatever pymittagleffler
returns (NaN); only finite arguments are guarded.
"""

from __future__ import annotations

import numbers

import numpy as np
import pymittagleffler
from numpy.typing import ArrayLike, NDArray

__all__ = ["MittagLefflerOverflowError", "mittag_leffler"]

ALPHA_MIN = 0.0
ALPHA_MAX = 2.0


class MittagLefflerOverflowError(ValueError):
    """``E_{alpha,beta}(z)`` is not representable in double precision at a finite ``z``."""


def _check_order(name: str, value: object, *, open_range: bool) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    val = float(value)
    if not np.isfinite(val):
        raise ValueError(f"{name} must be finite, got {val!r}")
    if open_range and not (ALPHA_MIN < val <= ALPHA_MAX):
        raise ValueError(
            f"{name} = {val!r} is outside the supported range 0 < {name} <= 2 "
            "(orders of the Caputo branches sub/int/sup)"
        )
    return val


def mittag_leffler(
    z: ArrayLike, alpha: float, beta: float = 1.0
) -> NDArray[np.float64] | NDArray[np.complex128]:
    """Evaluate ``E_{alpha,beta}(z) = sum_k z**k / Gamma(alpha*k + beta)`` elementwise.

    Parameters
    ----------
    z
        Scalar or array, real or complex. The output has the same shape (a 0-d array for a
        scalar input).
    alpha
        Order, ``0 < alpha <= 2``.
    beta
        Second parameter, a finite real number (default 1).

    Returns
    -------
    ndarray
        ``float64`` if ``z`` is real (integer or float), ``complex128`` if ``z`` is complex.

    Raises
    ------
    ValueError
        ``alpha`` outside ``(0, 2]``, non-real/non-finite ``alpha`` or ``beta``, or a
        non-numeric ``z``.
    MittagLefflerOverflowError
        The value at some finite ``z`` overflows double precision.
    """
    a = _check_order("alpha", alpha, open_range=True)
    b = _check_order("beta", beta, open_range=False)
    z_arr = np.asarray(z)
    if z_arr.dtype.kind in "biuf":
        is_complex = False
        z_eval = z_arr.astype(np.float64, copy=False)
    elif z_arr.dtype.kind == "c":
        is_complex = True
        z_eval = z_arr.astype(np.complex128, copy=False)
    else:
        raise ValueError(f"z must be a real or complex numeric array, got dtype {z_arr.dtype}")

    if z_eval.size == 0:
        if is_complex:
            return np.empty(z_eval.shape, dtype=np.complex128)
        return np.empty(z_eval.shape, dtype=np.float64)

    raw = np.asarray(pymittagleffler.mittag_leffler(z_eval, a, b), dtype=np.complex128)
    raw = raw.reshape(z_eval.shape)

    bad = np.isfinite(z_eval) & ~np.isfinite(raw)
    if np.any(bad):
        n_bad = int(np.count_nonzero(bad))
        first = z_eval[np.unravel_index(int(np.argmax(bad)), z_eval.shape)]
        raise MittagLefflerOverflowError(
            f"E_{{{a:g},{b:g}}}(z) overflows double precision at {n_bad} of {z_eval.size} "
            f"finite point(s); first offending z = {first.item()!r}. Reduce |z| (shorter horizon "
            "or smaller symbol) or use a stable (decaying) argument."
        )
    if is_complex:
        return raw
    return np.array(raw.real, dtype=np.float64)
