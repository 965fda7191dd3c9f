"""Tempered (truncated power-law) fractional operators on the period, with their adjoints
(ours; docs/method/tempered.md).

A Lévy flight whose jumps of length ``r`` have density ``~ r^(-1-beta) exp(-lambda r)`` moves a
density by a *tempered* fractional derivative (Baeumer & Meerschaert 2010; Meerschaert &
Sikorskii 2012). With the conventions of :mod:`weakpareto.numerics.operators` (``f(x) =
sum f_hat(kappa) exp(i kappa x)``, ``kappa = 2 pi fftfreq(n, L/n)``) the symbols are, for a
tempering ``lambda > 0`` in the units of x:

* ``tempered`` (left, one-sided)::

      s(kappa) = (lambda + i kappa)^beta - lambda^beta                            0 < beta <= 1
      s(kappa) = (lambda + i kappa)^beta - lambda^beta - i kappa beta lambda^(beta-1)
                                                                                  1 < beta <= 2

  ``e^{-lambda x} D^beta (e^{lambda x} f) - lambda^beta f`` (minus ``beta lambda^(beta-1) f'``
  for ``beta > 1``): the principal power of ``lambda + i kappa`` (real part > 0), the zero mode
  annihilated (mass is preserved), and for ``beta > 1`` also ``s'(0) = 0`` (the mean is
  preserved). At ``beta = 1`` the first form is ``i kappa`` (the left limit) while the second
  tends to 0: the family **jumps by an advection term** ``i kappa`` at ``beta = 1``, so an order
  search must stay on one side (``beta_range`` within ``[0, 1]`` or ``[1, 2]``; the door
  refuses a range straddling 1). At ``beta = 2`` it is ``-kappa^2`` (``u_xx``) for every lambda.
  Its adjoint on the period is the right-sided tempered derivative, symbol
  ``(lambda - i kappa)^beta - lambda^beta [+ i kappa beta lambda^(beta-1)]``, the complex
  conjugate (:func:`tempered_right_multiplier`).

* ``tempered_riesz`` (symmetric), the average of the left and right symbols normalised like the
  Riesz derivative::

      s(kappa) = -[(lambda + i kappa)^beta + (lambda - i kappa)^beta - 2 lambda^beta]
                 / (2 cos(pi beta / 2))
               = -[rho^beta cos(beta theta) - lambda^beta] / cos(pi beta / 2),

  ``rho = sqrt(lambda^2 + kappa^2)``, ``theta = arctan(|kappa| / lambda)``. The drift terms of
  ``beta > 1`` cancel in the average, so one formula holds on ``0 < beta <= 2``. It is real,
  even and ``<= 0`` (dissipative), self-adjoint, annihilates the zero mode, and as
  ``lambda -> 0`` tends to ``-|kappa|^beta``: exactly the ``riesz`` family (``lambda = 0`` is
  computed as ``riesz``). At ``beta = 1`` numerator and denominator vanish together; the
  singularity is removable, ``s = (2/pi) (lambda ln(rho / lambda) - |kappa| theta)``
  (:func:`tempered_riesz_at_one`), and within :data:`ONE_WINDOW` of 1 the symbol is the limit
  plus the central-difference slope (error ``~ ONE_WINDOW^2``), so the order search crosses 1
  continuously.

Both are defined for ``0 <= beta <= 2``; ``beta = 0`` is the identity (the modelling convention
of paper Sec. 2.1, as for every family); other orders raise ``ValueError``. The powers are
evaluated as ``lambda^beta expm1(...)`` in ``r = kappa / lambda``, so a mode far below the
tempering (``|kappa| << lambda``, where the symbol is ``~ kappa^2``) loses no digits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from weakpareto._typing import ComplexArray, FloatArray
from weakpareto.numerics.operators import (
    MultiplierOperator,
    SpatialGrid,
    directional_multiplier,
    riesz_multiplier,
    wavenumbers,
)

TemperedKind = Literal["tempered", "tempered_riesz"]
#: The tempered families (:mod:`weakpareto.library.families`).
TEMPERED_KINDS: tuple[TemperedKind, ...] = ("tempered", "tempered_riesz")
#: Largest order of a tempered family (its formulas are the ones of ``0 < beta <= 2``).
MAX_TEMPERED_ORDER = 2.0
#: Half-width of the window around ``beta = 1`` where the tempered Riesz symbol is its limit
#: plus the slope (the direct quotient loses ``eps / |beta - 1|`` there).
ONE_WINDOW = 1e-4


def _orders(beta: float | ArrayLike) -> FloatArray:
    """Orders as an array with a trailing axis for broadcasting against kappa; refused outside
    ``[0, 2]``."""
    b = np.asarray(beta, dtype=float)
    if np.any(~np.isfinite(b)) or np.any(b < 0.0) or np.any(b > MAX_TEMPERED_ORDER):
        raise ValueError(f"tempered orders must lie in [0, 2], got {b}")
    return b[..., None] if b.ndim else b


def _check_tempering(lam: float) -> float:
    lam = float(lam)
    if not (np.isfinite(lam) and lam >= 0.0):
        raise ValueError(f"the tempering lambda must be a finite number >= 0, got {lam}")
    return lam


def _expm1_complex(re: FloatArray, im: FloatArray) -> ComplexArray:
    """``exp(re + i im) - 1`` without cancellation for small arguments."""
    real = np.expm1(re) * np.cos(im) - 2.0 * np.sin(0.5 * im) ** 2
    return np.asarray(real + 1j * np.exp(re) * np.sin(im), dtype=complex)


def _left_power(kappa: FloatArray, b: FloatArray, lam: float) -> ComplexArray:
    """``(lambda + i kappa)^b - lambda^b = lambda^b expm1(b log(1 + i r))``, ``r = kappa / lambda``
    (principal branch: ``log(1 + i r) = log1p(r^2)/2 + i arctan(r)``)."""
    r = kappa / lam
    return (lam**b) * _expm1_complex(0.5 * b * np.log1p(r * r), b * np.arctan(r))


def tempered_multiplier(kappa: ArrayLike, beta: float | ArrayLike, lam: float) -> ComplexArray:
    """Left tempered multiplier (module docstring): ``(lambda + i kappa)^beta - lambda^beta`` for
    ``0 < beta <= 1``, minus ``i kappa beta lambda^(beta-1)`` for ``1 < beta <= 2``; ``beta = 0``
    the identity, the zero mode annihilated; ``lambda = 0`` is :func:`directional_multiplier`.
    An array ``beta`` gives shape ``beta.shape + kappa.shape``."""
    kappa = np.asarray(kappa, dtype=float)
    lam = _check_tempering(lam)
    b = _orders(beta)
    if lam == 0.0:
        return directional_multiplier(kappa, beta)
    out = _left_power(kappa, b, lam)
    out = np.where(b > 1.0, out - 1j * kappa * b * lam ** (b - 1.0), out)
    out = np.where(kappa == 0.0, 0.0 + 0.0j, out)
    out = np.where(b == 0.0, 1.0 + 0.0j, out)
    return np.asarray(out, dtype=complex)


def tempered_right_multiplier(
    kappa: ArrayLike, beta: float | ArrayLike, lam: float
) -> ComplexArray:
    """Right tempered multiplier ``(lambda - i kappa)^beta - lambda^beta`` (``+ i kappa beta
    lambda^(beta-1)`` for ``beta > 1``): the mirror ``x -> -x`` of :func:`tempered_multiplier`,
    its complex conjugate for real kappa, hence its adjoint on the period."""
    return tempered_multiplier(-np.asarray(kappa, dtype=float), beta, lam)


def tempered_riesz_at_one(kappa: ArrayLike, lam: float) -> FloatArray:
    """The removable value at ``beta = 1`` of :func:`tempered_riesz_multiplier`:
    ``(2/pi) (lambda ln(rho/lambda) - |kappa| arctan(|kappa|/lambda))``, which is ``-|kappa|``
    at ``lambda = 0``."""
    k = np.abs(np.asarray(kappa, dtype=float))
    lam = _check_tempering(lam)
    if lam == 0.0:
        return np.asarray(-k, dtype=float)
    r = k / lam
    return np.asarray((2.0 / np.pi) * lam * (0.5 * np.log1p(r * r) - r * np.arctan(r)))


def _riesz_quotient(k: FloatArray, b: FloatArray, lam: float) -> FloatArray:
    """``-[Re (lambda + i k)^b - lambda^b] / cos(pi b / 2)`` (direct form, ``b != 1``)."""
    num = _left_power(k, b, lam).real
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(-num / np.cos(0.5 * np.pi * b), dtype=float)


def tempered_riesz_multiplier(kappa: ArrayLike, beta: float | ArrayLike, lam: float) -> FloatArray:
    """Tempered Riesz multiplier (module docstring)
    ``-[(lambda + i kappa)^beta + (lambda - i kappa)^beta - 2 lambda^beta] / (2 cos(pi beta/2))``:
    real, even, ``<= 0``; ``beta = 0`` the identity, the zero mode annihilated, ``beta = 1`` the
    removable limit; ``lambda = 0`` is :func:`riesz_multiplier` exactly."""
    kappa = np.asarray(kappa, dtype=float)
    lam = _check_tempering(lam)
    b = _orders(beta)
    if lam == 0.0:
        return riesz_multiplier(kappa, beta)
    k = np.abs(kappa)
    near = np.abs(b - 1.0) < ONE_WINDOW
    safe = np.where(near, 0.5, b)  # any order away from 1; replaced below
    out = _riesz_quotient(k, safe, lam)
    if np.any(near):
        at_one = tempered_riesz_at_one(k, lam)
        slope = (
            _riesz_quotient(k, np.asarray(1.0 + ONE_WINDOW), lam)
            - _riesz_quotient(k, np.asarray(1.0 - ONE_WINDOW), lam)
        ) / (2.0 * ONE_WINDOW)
        out = np.where(near, at_one + (b - 1.0) * slope, out)
    out = np.where(kappa == 0.0, 0.0, out)
    out = np.where(b == 0.0, 1.0, out)
    return np.asarray(out, dtype=float)


def tempered_spectral_multiplier(
    kind: str, kappa: ArrayLike, beta: float | ArrayLike, lam: float
) -> FloatArray | ComplexArray:
    """Dispatch to :func:`tempered_multiplier` or :func:`tempered_riesz_multiplier`."""
    if kind == "tempered":
        return tempered_multiplier(kappa, beta, lam)
    if kind == "tempered_riesz":
        return tempered_riesz_multiplier(kappa, beta, lam)
    raise ValueError(f"unknown tempered operator kind {kind!r}; expected one of {TEMPERED_KINDS}")


@dataclass(frozen=True)
class TemperedOperator(MultiplierOperator):
    """A tempered family at a fixed tempering as a periodic :class:`SpatialOperator`: apply
    ``Re IFFT(s FFT f)``, adjoint ``Re IFFT(conj(s) FFT phi)`` (paper Eq. 12 with uniform
    weights: the right tempered derivative for ``tempered``, itself for ``tempered_riesz``).

    The tempering is a run parameter, so these are built per run rather than registered by name
    in :data:`weakpareto.numerics.operators.SPATIAL_OPERATORS`."""

    kind: TemperedKind
    lam: float

    def _mult(self, grid: SpatialGrid, betas: ArrayLike, ndim: int) -> ComplexArray:
        b = np.atleast_1d(np.asarray(betas, dtype=float))
        if b.ndim != 1:
            raise ValueError(f"betas must be a 1-D array of orders, got shape {b.shape}")
        s = tempered_spectral_multiplier(self.kind, wavenumbers(grid.n, grid.length), b, self.lam)
        return np.asarray(s, dtype=complex).reshape((b.size,) + (1,) * (ndim - 1) + (grid.n,))
