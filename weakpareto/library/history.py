"""Unobserved history: the memory of a process that started before the record (ours).

A Caputo process started at its onset ``t_on`` and recorded from ``t_0 > t_on`` obeys, for
``t > t_0`` and ``0 < alpha < 1``,

    ``C D^alpha_{t_on} u (t) = C D^alpha_{t_0} u (t) + H(x, t)``,
    ``H(x, t) = 1/Gamma(1 - alpha) int_{t_on}^{t_0} u_s(x, s) (t - s)^{-alpha} ds``,

and for ``1 < alpha < 2`` the same with ``u_ss``, ``Gamma(2 - alpha)`` and ``(t - s)^{1-alpha}``.
The exact weak target (:mod:`weakpareto.library.weak_exact`) computes ``C D^alpha_{t_0} u``
(``u(t_0)``, ``u'(t_0)`` from the first samples), so the unobserved past adds ``<H, phi_k>`` to
every weak equation. With ``t' = t - t_0``, ``tau = t_0 - s`` and ``gamma = alpha`` (sub-unit)
or ``alpha - 1`` (super-unit), ``H`` is a mixture of one kernel over the unobserved delays,

    ``H(x, t') = int_0^{t_0 - t_on} w(x, tau) k_gamma(t' + tau) d tau``, ``k_gamma(z) = z^-gamma``,

smooth and decaying in ``t'`` for every history ``w``. It is modelled per spatial test ``l`` by
``M`` kernels with unknown coefficients, ``H ≈ sum_m c_{l,m} g_m(t')``, so each weak equation
``k = a K_x + l`` gains ``sum_m c_{l,m} <g_m, vartheta_a>``. These nuisance directions are
``N = Q_t ⊗ I_{K_x}`` with ``Q_t (K_t, r)`` an orthonormal basis of the temporal weak integrals
``G_{a,m} = dt sum_i vartheta_a(t_i) g_m(t_i)``; they are projected out of the target and every
column, ``v -> (I - Q_t Q_t^T) v`` per spatial test (the Frisch–Waugh–Lovell argument of
:mod:`weakpareto.library.forcing`: the projected least squares are the joint fit with the
nuisance coefficients). Two kernel sets:

* **search** (:class:`HistorySource`, order-free so that the order banks of the search stay
  valid): the leading ``r = SEARCH_RANK`` left singular vectors of the normalised weak integrals of
  ``{1, t', 1/(t' + sigma_j)}``, ``sigma_j`` log-spaced over ``[dt/8, 30 T]`` (``T`` the record's
  duration). ``1/(t' + sigma)`` spans every ``k_gamma``, ``0 < gamma < 1``, by the Stieltjes
  identity ``(t' + tau)^-gamma = sin(pi gamma)/pi int_tau^inf (sigma - tau)^-gamma
  / (t' + sigma) d sigma``; ``1`` and ``t'`` take the delays beyond ``30 T``.
* **refit** (:func:`history_refit`): the kernels at the fitted order itself,
  ``g_m = k_gamma(t' + tau_m)``, ``tau_m`` log-spaced over ``[REFIT_DELAYS] * T``; the selected
  model's order, spatial orders and coefficients are re-estimated with them.

Error bound. Interpolating ``k_gamma(t' + tau)`` linearly in ``s = log tau`` between delay nodes
of ratio ``q`` errs by at most ``(ln q)^2 / 8 max |d^2 k / ds^2| <= gamma q^gamma (ln q)^2 / 8
k_gamma(t' + tau)`` (``d^2 k/ds^2 = -gamma k (rho (1 - rho) - gamma rho^2)``,
``rho = tau / (t' + tau)``), so inside the node range

    ``|H - sum_m c_m g_m| (t') <= gamma q^gamma (ln q)^2 / 8 int |w(tau)| k_gamma(t' + tau) d tau``;

delays below the first node ``tau_1`` add at most ``(1 + tau_1/t')^gamma - 1`` of their share
(only the first tests, near ``t_0``, see them), delays beyond the last ``tau_M`` at most
``gamma T / tau_M``. The least-squares coefficients do no worse than the interpolating ones. The
bound is a worst case: a small ``M`` is chosen because every kernel removed from the data also
removes the temporal information that identifies ``alpha`` (the weak integrals of smooth
relaxations span only a handful of directions); the representation of true Mittag-Leffler
histories is measured in ``tests/library/test_history.py``. Errors of the start values
``u(t_0)``, ``u'(t_0)`` enter the target as ``k_alpha(t')`` and ``k_{alpha-1}(t')``, the delay-0
members of the same family, and are absorbed in the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from weakpareto._typing import Array
from weakpareto.library.forcing import orthonormal_basis
from weakpareto.library.weak_exact import ExactTimeWeakLibrary
from weakpareto.records import Mode

#: ``history=``: the record starts at the onset (``none``) or after it (``unknown``).
HistoryModel = Literal["none", "unknown"]
HISTORY_MODELS: tuple[str, ...] = ("none", "unknown")

#: Nuisance directions per spatial test in the search (order-free Stieltjes basis).
SEARCH_RANK = 3
#: Poles of the search basis: ``[dt/8, 30 T]``, this many per decade.
POLES_PER_DECADE = 4
POLE_SPAN = (0.125, 30.0)
#: Kernels of the refit: delays ``tau_m`` log-spaced over these fractions of the duration.
REFIT_KERNELS = 3
REFIT_DELAYS = (0.05, 2.0)


def stieltjes_functions(t: Array) -> Array:
    """``{1, t', 1/(t' + sigma_j)}`` on the samples, ``(M, nt)`` (module docstring)."""
    s = np.asarray(t, dtype=float) - float(t[0])
    dt, duration = float(s[1]), float(s[-1])
    lo, hi = POLE_SPAN[0] * dt, POLE_SPAN[1] * duration
    poles = np.geomspace(lo, hi, int(np.ceil(POLES_PER_DECADE * np.log10(hi / lo))) + 1)
    return np.vstack([np.ones_like(s), s / duration, 1.0 / (s[None, :] + poles[:, None])])


def memory_kernels(t: Array, alpha: float, count: int = REFIT_KERNELS) -> Array:
    """``k_gamma(t' + tau_m)`` at the order's kernel exponent, ``(count, nt)``."""
    s = np.asarray(t, dtype=float) - float(t[0])
    gamma = alpha if alpha < 1.0 else alpha - 1.0
    delays = np.geomspace(REFIT_DELAYS[0], REFIT_DELAYS[1], count) * float(s[-1])
    return (s[None, :] + delays[:, None]) ** (-gamma)


def weak_integrals(tests: Array, functions: Array) -> Array:
    """``G = vartheta g^T`` ``(K_t, M)``, each column normalised (only the span matters)."""
    g = np.asarray(tests, dtype=float) @ np.asarray(functions, dtype=float).T
    norms = np.linalg.norm(g, axis=0)
    return g / np.where(norms > 0.0, norms, 1.0)


def leading_directions(columns: Array, rank: int) -> Array:
    """The ``rank`` leading left singular vectors of ``columns (K_t, M)``: ``(K_t, rank)``."""
    u, _, _ = np.linalg.svd(columns, full_matrices=False)
    return np.ascontiguousarray(u[:, : min(rank, u.shape[1])])


def project_tests(vectors: Array, basis: Array, kx: int) -> Array:
    """``(I - Q Q^T)`` along the temporal tests of rows ``k = a K_x + l``: ``(G, K) -> (G, K)``."""
    v = np.asarray(vectors, dtype=float)
    blocks = v.reshape(v.shape[0], basis.shape[0], kx)
    coef = np.einsum("am,gal->gml", basis, blocks)
    return (blocks - np.einsum("am,gml->gal", basis, coef)).reshape(v.shape)


@dataclass
class HistorySource:
    """A weak library with the order-free history directions projected out (module docstring);
    ``basis (K_t, r)`` is orthonormal."""

    base: ExactTimeWeakLibrary
    basis: Array

    @property
    def n_rows(self) -> int:
        return int(self.base.n_rows)

    @property
    def shape(self) -> tuple[int, int]:
        """Test counts of the wrapped library (its grid record)."""
        return self.base.shape

    @property
    def nuisance(self) -> int:
        """Nuisance coefficients of the fit: ``r`` per spatial test."""
        return int(self.basis.shape[1] * self.base.shape[1])

    def project(self, vectors: Array) -> Array:
        return project_tests(vectors, self.basis, self.base.shape[1])

    def targets(self, alphas: Array, mode: Mode) -> Array:
        return self.project(np.asarray(self.base.targets(alphas, mode)))

    def columns(self, power: int, betas: Array) -> Array:
        return self.project(np.asarray(self.base.columns(power, betas)))

    def history_record(self) -> dict[str, Any]:
        """What the grid record says about the model (``grid_["history"]``)."""
        return {
            "model": "unknown",
            "basis": f"search: {self.basis.shape[1]} Stieltjes directions; refit: "
            f"{REFIT_KERNELS} kernels (t-t0+tau)^-gamma, tau in "
            f"[{REFIT_DELAYS[0]:g}, {REFIT_DELAYS[1]:g}] x duration",
            "nuisance": self.nuisance,
        }


def history_source(base: ExactTimeWeakLibrary, rank: int = SEARCH_RANK) -> HistorySource:
    """The :class:`HistorySource` of an exact-target library."""
    g = weak_integrals(base.temporal_tests, stieltjes_functions(base.t))
    return HistorySource(base, leading_directions(g, rank))


# -- the refit with the order's own kernels --------------------------------------------------------
@dataclass(frozen=True)
class HistoryRefit:
    """Refitted order, spatial orders, coefficients and ``E_fit`` (projected, relative)."""

    alpha: float
    orders: Array
    coef: Array
    fit_error: float


def refit_system(
    base: ExactTimeWeakLibrary, mode: Mode, alpha: float, terms: Sequence[tuple[int, float]]
) -> tuple[Array, Array]:
    """The target ``(K,)`` and columns ``(K, c)`` with the order's history kernels projected."""
    q = orthonormal_basis(weak_integrals(base.temporal_tests, memory_kernels(base.t, alpha)).T)
    y = np.asarray(base.targets(np.array([alpha]), mode))
    cols = [np.asarray(base.columns(p, np.array([b]))) for p, b in terms]
    stacked = np.concatenate([y, *cols], axis=0)
    projected = project_tests(stacked, q, base.shape[1])
    return projected[0], projected[1:].T


def relative_misfit(y: Array, x: Array) -> tuple[float, Array]:
    """``||y - x xi|| / ||y||`` at the least-squares ``xi``, and ``xi``."""
    xi = np.asarray(np.linalg.lstsq(x, y, rcond=None)[0], dtype=float)
    return float(np.linalg.norm(y - x @ xi) / (np.linalg.norm(y) + 1e-300)), xi


def history_refit(
    base: ExactTimeWeakLibrary,
    mode: Mode,
    alpha: float,
    terms: Sequence[tuple[int, float]],
    alpha_bounds: tuple[float, float],
    beta_bounds: tuple[float, float],
) -> HistoryRefit:
    """Re-estimate ``alpha`` and the non-identity spatial orders of a support by Nelder–Mead on
    the misfit with the order's own history kernels (:func:`refit_system`); the coefficients
    are the least-squares ones there."""
    powers = [p for p, _ in terms]
    free = np.array([b > 0.0 for _, b in terms])
    start = np.array([alpha, *[b for _, b in terms if b > 0.0]])
    bounds = [alpha_bounds] + [beta_bounds] * int(free.sum())

    def orders_of(z: Array) -> Array:
        out = np.zeros(len(terms))
        out[free] = z[1:]
        return out

    def misfit(z: Array) -> float:
        support = list(zip(powers, orders_of(z), strict=True))
        return relative_misfit(*refit_system(base, mode, float(z[0]), support))[0]

    from scipy.optimize import minimize  # imported when used (start-up)

    best = minimize(misfit, start, method="Nelder-Mead", bounds=bounds,
                    options={"xatol": 1e-4, "fatol": 1e-10, "maxiter": 400})  # fmt: skip
    z = np.asarray(best.x, dtype=float)
    orders = orders_of(z)
    err, xi = relative_misfit(
        *refit_system(base, mode, float(z[0]), list(zip(powers, orders, strict=True)))
    )
    return HistoryRefit(float(z[0]), orders, np.asarray(xi, dtype=float), err)
