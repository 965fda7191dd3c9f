"""Known forcing: weak columns of given fields and a feature source that carries them (ours).

Model: ``T_{m,alpha} u = sum_j xi_j u^{p_j} X_{beta_j} u + sum_f c_f f`` with every ``f(t, x)``
known on the grid of ``u`` (an injection, a source term, a control). A forcing field enters the
weak equations as it is — no operator acts on it — so its weak column is the projection of
``f`` on every test function with the quadrature of the other columns:

    ``F_k = <f, phi_k>_h = dt dx sum_ij f_ij vartheta_a(t_i) psi_l(x_j)``   (row ``k = a K_x + l``)

(:func:`weak_forcing_column`; the temporal tests are the library's own: Gaussians, or the
compact bumps of the exact-target library).

:class:`ForcedSource` wraps a weak library for the search:

* a forcing with a **known** coefficient is moved to the target side,
  ``b(m, alpha) - c_f(alpha) F_f``; ``c_f(alpha) = c_f s_f^alpha`` lets a caller that rescaled
  time by ``s`` pass the coefficient of the original units (``s_f = 1``: as given);
* forcing terms with an **estimated** coefficient are always in the model: the target and every
  column are projected on the orthogonal complement of their span,
  ``v -> v - Q Q^T v`` with ``Q`` an orthonormal basis of the columns ``F``. By the
  Frisch–Waugh–Lovell identity a least-squares fit of the projected target on projected columns
  gives the operator coefficients of the fit of ``b`` on ``[Theta, F]``; the forcing
  coefficients follow as ``c = F^+ (b - Theta xi)``. The projection is linear, so it commutes
  with the interpolation of order banks, and the unchanged search runs on the projected source.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from weakpareto._typing import Array
from weakpareto.library.gram import FeatureSource
from weakpareto.library.weak import WeakLibrary
from weakpareto.library.weak_exact import ExactTimeWeakLibrary
from weakpareto.records import Mode


@dataclass(frozen=True)
class Forcing:
    """One known field ``f`` of the data's shape ``(nt, nx)``, on the grid of the fit.

    ``coef`` is its given coefficient (None: estimated); in the fit's units it is
    ``coef * time_unit**alpha`` (a door that rescaled time by ``s`` passes ``time_unit = s``).
    """

    name: str
    values: Array
    coef: float | None = None
    time_unit: float = 1.0

    @property
    def estimated(self) -> bool:
        return self.coef is None


def weak_forcing_column(source: FeatureSource, values: Array) -> Array:
    """``<f, phi_k>_h`` for every test function of a weak library: ``(K,)`` (module docstring);
    a library of several operator families projects on the tests its families share
    (``field_source``).

    Raises ``TypeError`` for a source other than the uniform periodic libraries (a bounded
    window's or a sampled record's tests and quadrature are their own)."""
    source = getattr(source, "field_source", source)
    if type(source) not in (WeakLibrary, ExactTimeWeakLibrary) or not isinstance(
        source, WeakLibrary
    ):
        raise TypeError(f"no weak forcing column for a {type(source).__name__}")
    f = np.asarray(values, dtype=float)
    if f.shape != source.u.shape:
        raise ValueError(f"forcing has shape {f.shape} but u has shape {source.u.shape}")
    return np.asarray(source.project(f[None]))[0]


def orthonormal_basis(columns: Array) -> Array:
    """An orthonormal basis ``(K, r)`` of the span of ``columns (m, K)`` (rank-revealing SVD:
    two proportional forcing fields add one direction, not a degenerate one)."""
    if columns.shape[0] == 0:
        return np.zeros((columns.shape[1], 0))
    u, s, _ = np.linalg.svd(columns.T, full_matrices=False)
    keep = s > s[0] * 1e-10 if s.size and s[0] > 0.0 else np.zeros(s.shape, dtype=bool)
    return u[:, keep]


@dataclass
class ForcedSource:
    """A feature source with known forcing (module docstring): ``forcing_columns (m, K)`` are the
    weak columns of the fields ``names``; a finite ``coef`` puts its field on the target side as
    ``- coef * unit**alpha * F``, ``nan`` marks an estimated coefficient (projected out)."""

    base: FeatureSource
    names: tuple[str, ...]
    forcing_columns: Array
    coef: Array
    unit: Array
    _basis: Array = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._basis = orthonormal_basis(self.estimated)

    @property
    def fixed_rows(self) -> NDArray[np.bool_]:
        """Which fields have a given coefficient."""
        return np.isfinite(self.coef)

    @property
    def shift(self) -> Array:
        """Weak columns of the fields with a given coefficient: ``(m_s, K)``."""
        return self.forcing_columns[self.fixed_rows]

    @property
    def estimated(self) -> Array:
        """Weak columns of the fields with an estimated coefficient: ``(m_e, K)``."""
        return self.forcing_columns[~self.fixed_rows]

    @property
    def n_rows(self) -> int:
        return int(self.base.n_rows)

    @property
    def shape(self) -> tuple[int, ...] | None:
        """Test counts of the wrapped library (its grid record)."""
        return getattr(self.base, "shape", None)

    def project(self, vectors: Array) -> Array:
        """``v - Q Q^T v`` for every row of ``vectors (G, K)``."""
        if self._basis.shape[1] == 0:
            return vectors
        return vectors - (vectors @ self._basis) @ self._basis.T

    def shift_at(self, alphas: Array, mode: Mode) -> Array:
        """The given forcing at each temporal order: ``(G, K)``."""
        alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
        orders = np.ones_like(alphas) if mode == "int" else alphas
        fixed = self.fixed_rows
        scale = self.coef[fixed][None, :] * self.unit[fixed][None, :] ** orders[:, None]
        return scale @ self.shift

    def targets(self, alphas: Array, mode: Mode) -> Array:
        alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
        y = np.asarray(self.base.targets(alphas, mode))
        if self.fixed_rows.any():
            y = y - self.shift_at(alphas, mode)
        return self.project(y)

    def columns(self, power: int, betas: Array) -> Array:
        return self.project(np.asarray(self.base.columns(power, betas)))


def forced_source(base: FeatureSource, forcing: tuple[Forcing, ...]) -> ForcedSource:
    """The :class:`ForcedSource` of a weak library and its known fields."""
    cols = [weak_forcing_column(base, f.values) for f in forcing]
    return ForcedSource(
        base=base,
        names=tuple(f.name for f in forcing),
        forcing_columns=np.array(cols).reshape(len(cols), int(base.n_rows)),
        coef=np.array([np.nan if f.coef is None else float(f.coef) for f in forcing]),
        unit=np.array([float(f.time_unit) for f in forcing]),
    )
