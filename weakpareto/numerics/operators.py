"""Discrete fractional operators and their discrete adjoints (paper Eqs. 1-3, 12;
docs/method/operators.md).

Array conventions
-----------------
* Fields are sampled on uniform grids; time is axis 0 and space the last axis.
* Periodic spatial operators act along the last axis through Fourier multipliers
  ``s(kappa)`` with ``kappa = 2*pi*fftfreq(n, d=L/n)`` (numpy ordering; for even ``n`` the
  Nyquist bin is the negative value ``-pi/dx``).
* The discrete inner product is ``<f, g>_h = dt*dx*sum(f*g)`` (uniform quadrature), so the
  discrete adjoint (paper Eq. 12) of a matrix operator is its transpose and the adjoint of a
  Fourier multiplier is its complex conjugate followed by the real part.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import fft as sp_fft
from scipy import special

from weakpareto._typing import ComplexArray, FloatArray


def wavenumbers(n: int, length: float) -> FloatArray:
    """Angular wavenumbers ``2*pi*fftfreq(n, d=length/n)`` of an endpoint-excluded periodic grid."""
    return cast(FloatArray, 2.0 * np.pi * np.fft.fftfreq(n, d=length / n))


def riesz_multiplier(kappa: ArrayLike, beta: float | ArrayLike) -> FloatArray:
    """Riesz multiplier ``-|kappa|**beta`` (paper Eq. 2); ``beta == 0`` is the identity (ones).

    ``beta`` may be an array of orders; the result then has shape ``beta.shape + kappa.shape``.
    The identity at ``beta = 0`` is a modelling convention (paper Sec. 2.1), not the limit.
    """
    kappa = np.asarray(kappa, dtype=float)
    beta_arr = np.asarray(beta, dtype=float)
    b = beta_arr[..., None] if beta_arr.ndim else beta_arr
    with np.errstate(divide="ignore"):
        out = -(np.abs(kappa) ** b)
    out = np.where(b == 0.0, 1.0, out)
    return np.asarray(out, dtype=float)


def directional_multiplier(kappa: ArrayLike, beta: float | ArrayLike) -> ComplexArray:
    """Directional multiplier ``(i*kappa)**beta`` on the principal branch (paper Eq. 3).

    ``|kappa|**beta * exp(i*pi*beta*sgn(kappa)/2)``; the zero mode is annihilated for ``beta > 0``;
    ``beta == 0`` is the identity. The Nyquist bin gets no special case
    (docs/method/operators.md#periodic-multipliers): after the real part its effective action is
    ``cos(pi*beta/2)*|kappa|**beta``.
    """
    kappa = np.asarray(kappa, dtype=float)
    beta_arr = np.asarray(beta, dtype=float)
    b = beta_arr[..., None] if beta_arr.ndim else beta_arr
    mag = np.abs(kappa) ** b
    phase = np.exp(1j * 0.5 * np.pi * b * np.sign(kappa))
    out = mag * phase
    out = np.where(kappa == 0.0, 0.0 + 0.0j, out)
    out = np.where(b == 0.0, 1.0 + 0.0j, out)
    return np.asarray(out, dtype=complex)


def directional_right_multiplier(kappa: ArrayLike, beta: float | ArrayLike) -> ComplexArray:
    """Right-sided directional multiplier ``(-i*kappa)**beta`` = ``(i*(-kappa))**beta``.

    The mirror image ``x -> -x`` of :func:`directional_multiplier` (the right Weyl derivative on
    the period) and its complex conjugate for real ``kappa``, so on the period it is the adjoint
    family of the directional one. Same conventions: zero mode annihilated for ``beta > 0``,
    ``beta == 0`` the identity, no Nyquist special case (effective ``cos(pi*beta/2)|kappa|**beta``).
    """
    return directional_multiplier(-np.asarray(kappa, dtype=float), beta)


# Equation numbers in the docstrings below count the paper's numbered displays in order
# (docs/method/README.md#paper-equation-numbers): 1 eq:rl-def, 2 eq:spectral-def,
# 3 eq:ik-branch, 9 eq:caputo-weak, 10 eq:linear-spatial, 12 eq:discrete-adjoint.

# ---------------------------------------------------------------------------------------------
# Temporal (Caputo) matrices: D1, L1, superunit composition (paper Eq. 9, Sec. 3.3;
# docs/method/operators.md#first-derivative-matrix, #l1-caputo-matrix, #superunit-composition)
# ---------------------------------------------------------------------------------------------

TemporalMode = Literal["sub", "int", "sup"]
SpectralKind = Literal["riesz", "directional", "directional_right"]
#: The periodic Fourier-multiplier kinds (:func:`spectral_multiplier`).
SPECTRAL_KINDS: tuple[SpectralKind, ...] = ("riesz", "directional", "directional_right")

#: Tolerance below which ``|alpha - 1|`` selects the exact integer mode
#: (docs/method/operators.md#branch-of-a-temporal-order).
INTEGER_ORDER_TOL = 1e-11


def first_derivative_matrix(n: int, h: float) -> FloatArray:
    """First-derivative matrix ``D1`` used by the exact integer mode ``alpha = 1``
    (docs/method/operators.md#first-derivative-matrix).

    Row 0 is the forward difference ``(u_1 - u_0)/h``, rows ``1..n-2`` the central difference
    ``(u_{i+1} - u_{i-1})/(2h)`` and row ``n-1`` the backward difference. In the weak target the
    transpose ``D1.T`` acts on the tests (discrete adjoint, paper Eq. 12).
    """
    if n < 2:
        raise ValueError(f"first_derivative_matrix needs n >= 2, got {n}")
    d = np.zeros((n, n))
    i = np.arange(1, n - 1)
    d[i, i + 1] = 0.5 / h
    d[i, i - 1] = -0.5 / h
    d[0, :2] = (-1.0 / h, 1.0 / h)
    d[n - 1, n - 2 :] = (-1.0 / h, 1.0 / h)
    return d


def _check_subunit(alphas: FloatArray, what: str) -> None:
    if np.any(~np.isfinite(alphas)) or np.any(alphas <= 0.0) or np.any(alphas >= 1.0):
        raise ValueError(f"{what} needs 0 < alpha < 1, got {alphas}")


def _l1_matrices(n: int, h: float, alphas: FloatArray) -> FloatArray:
    """Batched L1 matrices, shape ``alphas.shape + (n, n)`` (Toeplitz build, no row loop)."""
    a = np.asarray(alphas, dtype=float)[..., None]  # (..., 1)
    k = np.arange(n, dtype=float)
    one_minus = 1.0 - a
    w = (k + 1.0) ** one_minus - k**one_minus  # (..., n): w_k, k = 0..n-1 (0**x = 0 for x>0)
    c = h ** (-a) / special.gamma(2.0 - a)  # (..., 1)
    # Toeplitz symbol for columns m >= 1: a_0 = w_0, a_d = w_d - w_{d-1} (d = n_row - m >= 1).
    toe = np.concatenate([w[..., :1], np.diff(w, axis=-1)], axis=-1) * c
    rows = np.arange(n)[:, None]
    cols = np.arange(n)[None, :]
    diff = rows - cols
    mask = (diff >= 0) & (cols >= 1)
    mat = np.where(mask, np.take(toe, np.clip(diff, 0, n - 1), axis=-1), 0.0)
    # Column 0 (initial value): -c w_{n_row - 1} for rows >= 1; row 0 stays zero.
    mat[..., 1:, 0] = -(c * w[..., : n - 1])
    return mat


def caputo_l1_matrix(n: int, h: float, alpha: float) -> FloatArray:
    """L1 Caputo matrix for ``0 < alpha < 1`` (Caputo target of paper Eq. 9;
    docs/method/operators.md#l1-caputo-matrix).

    With ``c = h**-alpha / Gamma(2 - alpha)`` and ``w_k = (k+1)**(1-alpha) - k**(1-alpha)``,
    row 0 is zero and row ``i >= 1`` equals ``c * sum_{k<i} w_k (u_{i-k} - u_{i-k-1})``:
    coefficient ``c w_0`` on ``u_i``, ``-c w_{i-1}`` on ``u_0`` and ``c (w_{i-m} - w_{i-m-1})`` on
    ``u_m`` (``1 <= m <= i-1``). Constants are in the null space (initial value subtracted).
    """
    alphas = np.asarray([alpha], dtype=float)
    _check_subunit(alphas, "caputo_l1_matrix")
    return _l1_matrices(n, h, alphas)[0]


def caputo_superunit_matrix(n: int, h: float, alpha: float) -> FloatArray:
    """Superunit Caputo matrix ``L1_{alpha-1} @ D1`` for ``1 < alpha < 2``
    (docs/method/operators.md#superunit-composition).

    Its transpose ``D1.T @ L1_{alpha-1}.T`` is the discrete adjoint stated after paper Eq. 9.
    """
    if not 1.0 < alpha < 2.0:
        raise ValueError(f"caputo_superunit_matrix needs 1 < alpha < 2, got {alpha}")
    return caputo_l1_matrix(n, h, alpha - 1.0) @ first_derivative_matrix(n, h)


def temporal_mode(alpha: float, tol: float = INTEGER_ORDER_TOL) -> TemporalMode:
    """Caputo branch of ``alpha`` (paper Sec. 2.1).

    ``"sub"`` for ``0 < alpha < 1``, ``"int"`` for ``|alpha - 1| < tol``,
    ``"sup"`` for ``1 < alpha < 2``.
    """
    if not np.isfinite(alpha) or alpha <= 0.0 or alpha >= 2.0:
        raise ValueError(f"temporal order must satisfy 0 < alpha < 2, got {alpha}")
    if abs(alpha - 1.0) < tol:
        return "int"
    return "sub" if alpha < 1.0 else "sup"


def _check_mode(mode: str, alphas: FloatArray, tol: float) -> None:
    if mode == "sub":
        ok = np.all((alphas > 0.0) & (alphas < 1.0))
    elif mode == "sup":
        ok = np.all((alphas > 1.0) & (alphas < 2.0))
    elif mode == "int":
        ok = np.all(np.abs(alphas - 1.0) < tol)
    else:
        raise ValueError(f"unknown temporal mode {mode!r}; expected 'sub', 'int' or 'sup'")
    if not ok:
        raise ValueError(f"temporal order(s) {alphas} inconsistent with mode {mode!r}")


def caputo_matrix(n: int, h: float, alpha: float, mode: TemporalMode | None = None) -> FloatArray:
    """Branch-aware temporal matrix (paper Sec. 3.3): L1 / exact ``D1`` / L1-D1 composition.

    ``mode=None`` infers the branch with :func:`temporal_mode`. An explicit ``mode`` must be
    consistent with ``alpha`` (sub: ``0<alpha<1``; int: ``|alpha-1| < 1e-11``; sup: ``1<alpha<2``),
    so e.g. ``alpha = 0.999`` stays a subunit model and is never identified with ``d/dt``.
    """
    if mode is None:
        mode = temporal_mode(alpha)
    _check_mode(mode, np.asarray([alpha], dtype=float), INTEGER_ORDER_TOL)
    if mode == "int":
        return first_derivative_matrix(n, h)
    if mode == "sub":
        return caputo_l1_matrix(n, h, alpha)
    return caputo_superunit_matrix(n, h, alpha)


def caputo_matrices(n: int, h: float, alphas: ArrayLike, mode: TemporalMode) -> FloatArray:
    """Order bank: temporal matrices for every order in ``alphas`` of one branch, ``(G, n, n)``.

    Vectorised over the orders (one Toeplitz gather for the whole bank); equals stacking
    :func:`caputo_matrix` calls. Used to precompute the branch-confined order grids.
    """
    a = np.atleast_1d(np.asarray(alphas, dtype=float)).ravel()
    _check_mode(mode, a, INTEGER_ORDER_TOL)
    if mode == "int":
        return np.broadcast_to(first_derivative_matrix(n, h), (a.size, n, n)).copy()
    if mode == "sub":
        return _l1_matrices(n, h, a)
    return _l1_matrices(n, h, a - 1.0) @ first_derivative_matrix(n, h)


# ---------------------------------------------------------------------------------------------
# Periodic Fourier multipliers (paper Eqs. 2-3; docs/method/operators.md#periodic-multipliers)
# ---------------------------------------------------------------------------------------------


def _axis_to_last(a: NDArray[Any], axis: int) -> tuple[NDArray[Any], int]:
    ax = axis if axis < 0 else axis - a.ndim
    if not -a.ndim <= ax < 0:
        raise ValueError(f"axis {axis} out of range for array of ndim {a.ndim}")
    return np.moveaxis(a, ax, -1), ax


def _multiplier_action(f: ArrayLike, mult: ArrayLike, axis: int, conjugate: bool) -> FloatArray:
    arr, ax = _axis_to_last(np.asarray(f, dtype=float), axis)
    s = np.asarray(mult)
    if s.shape[-1] != arr.shape[-1]:
        raise ValueError(f"multiplier length {s.shape[-1]} != transform length {arr.shape[-1]}")
    if conjugate:
        s = np.conj(s)
    out = sp_fft.ifft(s * sp_fft.fft(arr, axis=-1), axis=-1).real
    return np.moveaxis(out, -1, ax)


def forward_spectrum(f: ArrayLike) -> ComplexArray:
    """``FFT f`` along the last axis: the first half of :func:`apply_multiplier`, to reuse."""
    return np.asarray(sp_fft.fft(np.asarray(f, dtype=float), axis=-1))


def inverse_spectrum(spectrum: ArrayLike) -> FloatArray:
    """``Re IFFT`` along the last axis: the second half of :func:`apply_multiplier`;
    ``inverse_spectrum(mult * forward_spectrum(f))`` equals ``apply_multiplier(f, mult)`` bit for
    bit (the same transforms of the same arrays)."""
    return np.asarray(sp_fft.ifft(spectrum, axis=-1).real)


def hermitian_half(mult: ArrayLike) -> ComplexArray:
    """The first ``n//2 + 1`` entries of the Hermitian part ``(m_k + conj(m_{-k})) / 2`` of a
    multiplier ``(..., n)`` in FFT order: for real ``f``, ``Re IFFT(m FFT f)`` equals
    ``IRFFT(h RFFT f)`` (the anti-Hermitian part's contribution is imaginary)."""
    m = np.asarray(mult)
    k = np.arange(m.shape[-1] // 2 + 1)
    return np.asarray(0.5 * (m[..., k] + np.conj(m[..., -k])))  # m_{-k} at k (m_0 at 0)


def apply_multiplier_real(spectrum: ArrayLike, mult: ArrayLike, n: int) -> FloatArray:
    """``Re IFFT(m FFT f)`` by real transforms from ``RFFT f`` (``spectrum``, last axis
    ``n//2 + 1``): half the work of :func:`apply_multiplier`, equal to rounding."""
    return np.asarray(sp_fft.irfft(hermitian_half(mult) * np.asarray(spectrum), n=n, axis=-1))


def apply_multiplier(f: ArrayLike, mult: ArrayLike, axis: int = -1) -> FloatArray:
    """``Re IFFT(mult * FFT f)`` along ``axis`` (periodic operator of paper Eq. 2).

    ``mult`` has shape ``(..., n)`` and broadcasts against ``f`` moved to ``(..., n)``; e.g. a
    bank ``mult[:, None, :]`` of shape ``(G, 1, n)`` applied to ``f`` of shape ``(K, n)`` gives
    ``(G, K, n)``. Extra leading broadcast dimensions are prepended to the output.
    """
    return _multiplier_action(f, mult, axis, conjugate=False)


def apply_multiplier_adjoint(phi: ArrayLike, mult: ArrayLike, axis: int = -1) -> FloatArray:
    """Discrete adjoint ``Re IFFT(conj(mult) * FFT phi)`` (paper Eq. 12 with uniform weights).

    Exact for any complex multiplier (including the unsymmetrised Nyquist bin of even ``n``):
    ``sum((apply_multiplier(f, s)) * phi) == sum(f * apply_multiplier_adjoint(phi, s))``.
    """
    return _multiplier_action(phi, mult, axis, conjugate=True)


def spectral_multiplier(
    kind: SpectralKind, kappa: ArrayLike, beta: float | ArrayLike
) -> FloatArray | ComplexArray:
    """Dispatch to :func:`riesz_multiplier`, :func:`directional_multiplier` (paper Eqs. 2-3) or
    :func:`directional_right_multiplier`."""
    if kind == "riesz":
        return riesz_multiplier(kappa, beta)
    if kind == "directional":
        return directional_multiplier(kappa, beta)
    if kind == "directional_right":
        return directional_right_multiplier(kappa, beta)
    raise ValueError(f"unknown spectral operator kind {kind!r}")


# ---------------------------------------------------------------------------------------------
# Grünwald-Letnikov matrices and the weighted discrete adjoint (paper Eq. 12;
# docs/method/operators.md#grunwald-letnikov-matrices)
# ---------------------------------------------------------------------------------------------


def grunwald_letnikov_weights(n: int, gamma: float | ArrayLike) -> FloatArray:
    """GL weights ``g_0 = 1``, ``g_m = -g_{m-1} (gamma - m + 1)/m`` = ``(-1)^m binom(gamma, m)``.

    Returns ``n`` weights; for an array ``gamma`` the shape is ``gamma.shape + (n,)``.
    """
    g = np.asarray(gamma, dtype=float)[..., None]
    m = np.arange(1, n, dtype=float)
    factors = (m - 1.0 - g) / m  # -(gamma - m + 1)/m
    ones = np.ones(g.shape[:-1] + (1,))
    return np.concatenate([ones, np.cumprod(factors, axis=-1)], axis=-1)[..., :n]


def _gl_toeplitz(n: int, h: float, gamma: float | ArrayLike, lower: bool) -> FloatArray:
    g_arr = np.asarray(gamma, dtype=float)
    w = grunwald_letnikov_weights(n, g_arr) * (h ** (-g_arr))[..., None]
    idx = np.arange(n)
    diff = idx[:, None] - idx[None, :]
    if not lower:
        diff = -diff
    return np.where(diff >= 0, np.take(w, np.clip(diff, 0, n - 1), axis=-1), 0.0)


def grunwald_letnikov_left_matrix(n: int, h: float, gamma: float | ArrayLike) -> FloatArray:
    """Left GL matrix ``G_L[i, j] = h**-gamma g_{i-j}`` (``j <= i``),
    docs/method/operators.md#grunwald-letnikov-matrices.

    Discretises the left RL derivative of paper Eq. 1; its discrete adjoint (paper Eq. 12) is
    ``G_L.T``, the GL form of the right derivative. ``gamma`` may be an array (bank of matrices).
    """
    return _gl_toeplitz(n, h, gamma, lower=True)


def grunwald_letnikov_right_matrix(n: int, h: float, gamma: float | ArrayLike) -> FloatArray:
    """Right GL matrix ``G_R[i, j] = h**-gamma g_{j-i}`` (``j >= i``, paper Eq. 1;
    docs/method/operators.md#grunwald-letnikov-matrices)."""
    return _gl_toeplitz(n, h, gamma, lower=False)


def discrete_adjoint(A: ArrayLike, weights: ArrayLike | None = None) -> FloatArray:
    """Discrete adjoint ``A^{*,h} = W^{-1} A^T W`` with ``W = diag(weights)`` (paper Eq. 12).

    ``<A f, phi>_h = <f, A^{*,h} phi>_h`` for ``<f, g>_h = f^T W g``. ``weights=None`` means
    uniform quadrature, for which the adjoint is ``A.T``. ``A`` may be a stack ``(..., n, n)``.
    """
    a = np.asarray(A, dtype=float)
    at = np.swapaxes(a, -1, -2)
    if weights is None:
        return at.copy()
    w = np.asarray(weights, dtype=float)
    if w.shape != (a.shape[-1],) or np.any(w <= 0.0):
        raise ValueError("weights must be a positive vector of length n")
    return at * w[None, :] / w[:, None]


# ---------------------------------------------------------------------------------------------
# Spatial-operator registry (config names -> implementations)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpatialGrid:
    """Uniform 1-D spatial grid: ``n`` points with spacing ``dx``.

    For periodic operators the grid excludes the right endpoint, so the period is ``n*dx``.
    """

    n: int
    dx: float

    @property
    def length(self) -> float:
        """Period ``L = n*dx`` of the endpoint-excluded grid."""
        return self.n * self.dx

    @classmethod
    def from_length(cls, n: int, length: float) -> SpatialGrid:
        """Grid with ``n`` points on the period ``[x0, x0 + length)``."""
        return cls(int(n), float(length) / n)

    @classmethod
    def from_points(cls, x: ArrayLike) -> SpatialGrid:
        """Grid from uniformly spaced, endpoint-excluded sample points."""
        x = np.asarray(x, dtype=float)
        if x.ndim != 1 or x.size < 2:
            raise ValueError("grid points must be a 1-D array with at least 2 entries")
        return cls(x.size, float(x[1] - x[0]))


GridLike = SpatialGrid | NDArray[np.float64]


def as_spatial_grid(grid: GridLike | ArrayLike) -> SpatialGrid:
    """Accept a :class:`SpatialGrid` or an array of uniformly spaced grid points."""
    return grid if isinstance(grid, SpatialGrid) else SpatialGrid.from_points(grid)


class SpatialOperator(ABC):
    """A spatial operator ``X_beta`` acting along the last axis, with its discrete adjoint.

    Banked methods take an array of orders ``betas`` (shape ``(G,)``) and return ``(G, ..., n)``.
    ``beta = 0`` is the identity for every kind (modelling convention, paper Sec. 2.1).
    """

    name: str = ""

    @abstractmethod
    def apply_bank(self, f: ArrayLike, grid: SpatialGrid, betas: ArrayLike) -> FloatArray:
        """``X_beta f`` along the last axis for every order, ``(G, ..., n)``."""

    @abstractmethod
    def adjoint_bank(self, phi: ArrayLike, grid: SpatialGrid, betas: ArrayLike) -> FloatArray:
        """``X_beta^{*,h} phi`` along the last axis for every order, ``(G, ..., n)``."""

    def apply(self, f: ArrayLike, grid: SpatialGrid, beta: float) -> FloatArray:
        """``X_beta f`` along the last axis."""
        return self.apply_bank(f, grid, np.asarray([beta], dtype=float))[0]

    def adjoint(self, phi: ArrayLike, grid: SpatialGrid, beta: float) -> FloatArray:
        """``X_beta^{*,h} phi`` along the last axis (paper Eqs. 10 and 12)."""
        return self.adjoint_bank(phi, grid, np.asarray([beta], dtype=float))[0]


SPATIAL_OPERATORS: dict[str, SpatialOperator] = {}


def register_spatial(name: str) -> Callable[[type[SpatialOperator]], type[SpatialOperator]]:
    """Class decorator registering one instance under ``name`` in :data:`SPATIAL_OPERATORS`."""

    def deco(cls: type[SpatialOperator]) -> type[SpatialOperator]:
        if name in SPATIAL_OPERATORS:
            raise ValueError(f"spatial operator {name!r} already registered")
        inst = cls()
        inst.name = name
        SPATIAL_OPERATORS[name] = inst
        return cls

    return deco


def _bank(betas: ArrayLike) -> FloatArray:
    b = np.asarray(betas, dtype=float)
    if b.ndim != 1:
        raise ValueError(f"betas must be a 1-D array of orders, got shape {b.shape}")
    if np.any(b < 0.0) or np.any(~np.isfinite(b)):
        raise ValueError(f"spatial orders must be finite and >= 0, got {b}")
    return b


class MultiplierOperator(SpatialOperator):
    """Periodic Fourier-multiplier operator; adjoint = conjugate multiplier
    (docs/method/operators.md#periodic-multipliers). Subclasses give the multiplier."""

    @abstractmethod
    def _mult(self, grid: SpatialGrid, betas: ArrayLike, ndim: int) -> NDArray[Any]:
        """The multipliers ``(G, 1, ..., n)`` broadcast against an ``ndim``-array."""

    def apply_bank(self, f: ArrayLike, grid: SpatialGrid, betas: ArrayLike) -> FloatArray:
        f = np.asarray(f, dtype=float)
        return apply_multiplier(f, self._mult(grid, betas, f.ndim))

    def adjoint_bank(self, phi: ArrayLike, grid: SpatialGrid, betas: ArrayLike) -> FloatArray:
        phi = np.asarray(phi, dtype=float)
        return apply_multiplier_adjoint(phi, self._mult(grid, betas, phi.ndim))


class _SpectralOperator(MultiplierOperator):
    """A named family's multiplier (:func:`spectral_multiplier`)."""

    kind: SpectralKind

    def _mult(self, grid: SpatialGrid, betas: ArrayLike, ndim: int) -> NDArray[Any]:
        b = _bank(betas)
        s = spectral_multiplier(self.kind, wavenumbers(grid.n, grid.length), b)  # (G, n)
        return s.reshape((b.size,) + (1,) * (ndim - 1) + (grid.n,))


@register_spatial("riesz")
class RieszOperator(_SpectralOperator):
    """Periodic Riesz operator, multiplier ``-|kappa|**beta`` (paper Eq. 2); self-adjoint."""

    kind: SpectralKind = "riesz"


@register_spatial("directional")
class DirectionalOperator(_SpectralOperator):
    """Periodic directional derivative ``(i kappa)**beta`` (paper Eqs. 2-3)."""

    kind: SpectralKind = "directional"


@register_spatial("directional_right")
class DirectionalRightOperator(_SpectralOperator):
    """Periodic right-sided directional derivative ``(-i kappa)**beta``, the adjoint family of
    :class:`DirectionalOperator` on the period."""

    kind: SpectralKind = "directional_right"


class _MatrixOperator(SpatialOperator):
    """Finite-domain matrix operator; adjoint = transpose (uniform quadrature, paper Eq. 12)."""

    @abstractmethod
    def matrices(self, n: int, h: float, betas: FloatArray) -> FloatArray:
        """Operator matrices, ``(G, n, n)``."""

    def apply_bank(self, f: ArrayLike, grid: SpatialGrid, betas: ArrayLike) -> FloatArray:
        f = np.asarray(f, dtype=float)
        mats = self.matrices(grid.n, grid.dx, _bank(betas))
        # (A f)_i along the last axis = f @ A.T
        out = f.reshape(-1, grid.n) @ np.swapaxes(mats, -1, -2)
        return out.reshape((mats.shape[0],) + f.shape)

    def adjoint_bank(self, phi: ArrayLike, grid: SpatialGrid, betas: ArrayLike) -> FloatArray:
        phi = np.asarray(phi, dtype=float)
        mats = self.matrices(grid.n, grid.dx, _bank(betas))
        # (A^T phi)_j along the last axis = phi @ A
        out = phi.reshape(-1, grid.n) @ mats
        return out.reshape((mats.shape[0],) + phi.shape)


@register_spatial("gl_left")
class GLLeftOperator(_MatrixOperator):
    """Left Grünwald-Letnikov derivative on a finite domain; adjoint ``phi @ G_L``
    (docs/method/operators.md#grunwald-letnikov-matrices)."""

    def matrices(self, n: int, h: float, betas: FloatArray) -> FloatArray:
        return grunwald_letnikov_left_matrix(n, h, betas)


@register_spatial("gl_right")
class GLRightOperator(_MatrixOperator):
    """Right Grünwald-Letnikov derivative on a finite domain; adjoint ``phi @ G_R``
    (docs/method/operators.md#grunwald-letnikov-matrices)."""

    def matrices(self, n: int, h: float, betas: FloatArray) -> FloatArray:
        return grunwald_letnikov_right_matrix(n, h, betas)


def get_spatial_operator(kind: str) -> SpatialOperator:
    """Registered spatial operator for a config name (``riesz``, ``directional``, ``gl_left``)."""
    try:
        return SPATIAL_OPERATORS[kind]
    except KeyError:
        raise ValueError(
            f"unknown spatial operator {kind!r}; registered: {sorted(SPATIAL_OPERATORS)}"
        ) from None


def spatial_apply(kind: str, f: ArrayLike, grid: GridLike | ArrayLike, beta: float) -> FloatArray:
    """Strong-form ``X_beta f`` along the last axis of ``f``
    (docs/method/operators.md#pointwise-operators)."""
    return get_spatial_operator(kind).apply(f, as_spatial_grid(grid), beta)


def spatial_adjoint_apply(
    kind: str, phi_rows: ArrayLike, grid: GridLike | ArrayLike, beta: float
) -> FloatArray:
    """``X_beta^{*,h}`` applied to every test row (paper Eqs. 10, 12): ``(K, n) -> (K, n)``.

    riesz/directional: conjugate multiplier on the periodic grid ``grid`` (period ``n*dx``);
    gl_left/gl_right: ``phi_rows @ G`` (i.e. ``(G^T phi^T)^T``). ``beta = 0`` is the identity.
    Leading dimensions of ``phi_rows`` other than the last are carried through.
    """
    return get_spatial_operator(kind).adjoint(phi_rows, as_spatial_grid(grid), beta)


def spatial_adjoint_bank(
    kind: str, phi_rows: ArrayLike, grid: GridLike | ArrayLike, betas: ArrayLike
) -> FloatArray:
    """Banked :func:`spatial_adjoint_apply` over orders ``betas`` (G,): ``(K, n) -> (G, K, n)``."""
    return get_spatial_operator(kind).adjoint_bank(phi_rows, as_spatial_grid(grid), betas)
