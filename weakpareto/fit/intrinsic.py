"""``noise_kind="intrinsic"``: orders and coefficients corrected for fluctuations that obey the
dynamics (ours; docs/method/intrinsic-noise.md).

Densities of moving particles carry counting noise that the particles carry along: the
fluctuations are time-correlated, the weak form reads them as modes without dynamics, and the
fitted spatial orders come out low (Brownian particles, N = 1e5: order 1.85 for a true 2).
:mod:`weakpareto.library.fluctuations` gives their covariance for a linear Markovian model. The
search selects the structure as usual; then, with the model's symbol ``lambda_k`` held fixed,
the orders are re-polished and the coefficients refitted on the Gram matrix with that covariance
subtracted (errors in variables),

    xi = (X^T X - C_xx)^{-1} (X^T y - C_xy),
    E_c^2 = (y^T y - C_yy - xi^T (X^T y - C_xy)) / (y^T y - C_yy),

and the symbol is updated from the corrected model until the orders settle. The fluctuation
variance per grid point is read from the data (finite differences along x,
:func:`weakpareto.library.noise_level.difference_levels`). Applies to alpha = 1 (Markovian: the
particles' propagator is the equation's) and linear terms of the Fourier-multiplier families.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from weakpareto._typing import Array
from weakpareto.errors import UserInputError, check_choice
from weakpareto.fit.context import FitWarning
from weakpareto.fit.restrictions import require_one_periodic_1d_field
from weakpareto.fit.sources import FitData
from weakpareto.fit.spec import NOISE_KINDS, FitSpec, NoiseKind
from weakpareto.library.fluctuations import IntrinsicCovariance
from weakpareto.library.gram import FeatureSource
from weakpareto.library.noise_level import difference_levels
from weakpareto.numerics.operators import (
    SPECTRAL_KINDS,
    SpectralKind,
    spectral_multiplier,
    wavenumbers,
)
from weakpareto.records import DiscoveryResult

#: Orders move at most this far from the search's (the bias it corrects is ~0.05-0.2).
TRUST = 0.3
#: Updates of the model's symbol; the orders settle in 2-4 on the particle suite.
MAX_UPDATES = 6
#: Orders closer than this between two updates have settled.
SETTLED = 1e-4


def check_noise_kind(value: Any) -> NoiseKind:
    """The validated ``noise_kind=`` value."""
    hint = "intrinsic: fluctuations that obey the dynamics, e.g. densities of moving particles"
    return cast(NoiseKind, check_choice("noise_kind", value, NOISE_KINDS, hint))


def check_intrinsic_supported(spec: FitSpec, data: FitData, domain: str) -> None:
    """One-line refusals where the correction has no implementation."""
    what = "noise_kind=intrinsic"
    require_one_periodic_1d_field(what, data, domain, "fit with noise_kind=measurement")
    if spec.kind != "pareto" or spec.features != "weak":
        raise UserInputError(
            f"{what} refines the weak Pareto methods; method={spec.method} is not one"
        )
    if spec.families:
        raise UserInputError(
            f"{what} needs one operator family; give operator=directional or riesz"
        )
    if spec.uncertainty is not None:
        raise UserInputError(f"uncertainty=bootstrap is not implemented for {what}")
    if spec.history != "none" or any(f.forcing for f in data.fields):
        raise UserInputError(f"{what} is not implemented with history= or forcing=")


def intrinsic_applied(notes: Sequence[FitWarning]) -> bool:
    """Whether a fit's notes say the intrinsic correction was applied (its info note)."""
    return any(n.code == "intrinsic_noise" and n.level == "info" for n in notes)


def _not_applied(reason: str) -> list[FitWarning]:
    return [FitWarning("intrinsic_noise", f"noise_kind=intrinsic was not applied: {reason}")]


@dataclass(frozen=True)
class _Problem:
    """The weak system of one field for the refit: target, columns per order, the fluctuation
    variance and the Fourier grid of the model's symbol."""

    lib: Any
    kind: SpectralKind
    y: Array
    times: Array
    kappa: Array
    variance: float
    bounds: tuple[float, float]

    def columns(self, betas: Array) -> Array:
        return np.stack([self.lib.columns(0, np.array([b]))[0] for b in betas], axis=1)

    def raw(self, betas: Array) -> tuple[float, Array]:
        """Relative residual and coefficients of plain least squares at ``betas``."""
        x = self.columns(betas)
        xi = np.asarray(np.linalg.lstsq(x, self.y, rcond=None)[0], dtype=float)
        return float(np.linalg.norm(self.y - x @ xi) / np.linalg.norm(self.y)), xi

    def corrected(self, cov: IntrinsicCovariance, betas: Array) -> tuple[float, Array]:
        """Squared relative residual and coefficients with the fluctuation covariance
        subtracted; not clipped at 0 (the realised fluctuations can fall short of their
        expectation, and a clipped objective is flat where the optimum lies)."""
        v = np.column_stack([self.y, self.columns(betas)])
        g = v.T @ v - cov.system(betas)
        xi = np.asarray(np.linalg.solve(g[1:, 1:], g[1:, 0]), dtype=float)
        return float((g[0, 0] - xi @ g[1:, 0]) / g[0, 0]), xi

    def rates(self, betas: Array, coef: Array) -> Array:
        """``lambda_k`` of the model ``sum_j xi_j X^{beta_j}``."""
        mult = spectral_multiplier(self.kind, self.kappa, np.asarray(betas, dtype=float))
        return np.asarray(np.asarray(coef) @ np.atleast_2d(mult), dtype=complex)

    def stable(self, betas: Array, coef: Array) -> bool:
        """Whether no mode of the model grows (stationary fluctuations exist)."""
        rates = self.rates(betas, coef)
        return bool(np.max(rates.real) <= 1e-9 * np.max(np.abs(rates)))

    def polish_corrected(self, cov: IntrinsicCovariance, betas: Array) -> Array:
        """``betas`` re-polished on the corrected residual under ``cov``."""
        free = betas > 0.0
        return _polish(partial(_first, self.corrected, cov), betas, free, *self.box(betas, free))

    def box(self, betas: Array, free: Any) -> tuple[Array, Array]:
        lo = np.maximum(betas[free] - TRUST, max(self.bounds[0], 1e-6))
        return lo, np.minimum(betas[free] + TRUST, self.bounds[1])

    def converge(self, betas: Array, coef: Array) -> tuple[Array, Array, IntrinsicCovariance, int]:
        """Orders re-polished and coefficients refitted under the covariance of the current
        model until the orders settle (the model is updated between polishes)."""
        free = betas > 0.0
        lo, hi = self.box(betas, free)
        updates = 0
        while True:
            updates += 1
            rates = self.rates(betas, coef)
            cov = IntrinsicCovariance.build(self.lib, self.times, self.variance, rates)
            new = _polish(partial(_first, self.corrected, cov), betas, free, lo, hi)
            _, coef = self.corrected(cov, new)
            moved = float(np.max(np.abs(new - betas)))
            betas = new
            if moved < SETTLED or updates >= MAX_UPDATES or not self.stable(betas, coef):
                return betas, coef, cov, updates


def _dissipative(problem: _Problem, betas: Array) -> NDArray[np.bool_]:
    """The terms kept: while the model has growing modes, the term that adds most growth at the
    fastest-growing mode is dropped (the fluctuations of a growing mode are not stationary;
    such terms are what the fluctuations bias the search into)."""
    keep = np.ones(betas.size, dtype=bool)
    while keep.sum() > 1:
        _, xi = problem.raw(betas[keep])
        if problem.stable(betas[keep], xi):
            break
        mult = spectral_multiplier(problem.kind, problem.kappa, betas[keep])
        growth = (xi[:, None] * mult).real  # (terms, modes)
        worst = int(np.argmax(np.sum(growth, axis=0)))
        drop = np.flatnonzero(keep)[int(np.argmax(growth[:, worst]))]
        keep[drop] = False
    return keep


def finish_intrinsic(
    result: DiscoveryResult, source: FeatureSource, spec: FitSpec
) -> tuple[DiscoveryResult, list[FitWarning]]:
    """The result with its final equation corrected for intrinsic fluctuations, and a note."""
    eq = result.final
    kinds = {t.family or eq.operator for t in eq.terms}
    if eq.mode != "int":
        return result, _not_applied(
            f"the fitted alpha is {eq.alpha:.4f}; the correction models Markovian dynamics "
            "(alpha = 1): give an alpha_range that admits 1, or noise_kind=measurement"
        )
    if not eq.terms or any(t.power != 0 or t.forcing for t in eq.terms):
        return result, _not_applied("the model has nonlinear or forcing terms (linear only)")
    if len(kinds) != 1 or not kinds <= set(SPECTRAL_KINDS):
        return result, _not_applied(
            f"operator {sorted(kinds)} is not one Fourier-multiplier family"
        )
    lib: Any = source
    u = np.asarray(lib.u, dtype=float)
    nt, nx = u.shape
    problem = _Problem(
        lib=lib,
        kind=cast(SpectralKind, kinds.pop()),
        y=lib.targets(np.array([1.0]), "int")[0],
        times=lib.dt * np.arange(nt),
        kappa=wavenumbers(nx, lib.period),
        variance=min(difference_levels(u, 1).values()),
        bounds=tuple(spec.discovery.beta_range),  # type: ignore[arg-type]
    )
    start = np.array([t.order for t in eq.terms])
    keep = _dissipative(problem, start)
    betas = start[keep]
    if not np.all(keep):  # the orders of the remaining terms were fitted beside the dropped ones
        free = betas > 0.0
        betas = _polish(partial(_first, problem.raw), betas, free, *problem.box(betas, free))
    coef = problem.raw(betas)[1]
    if not problem.stable(betas, coef):
        return result, _not_applied("the fitted model has growing modes (no stationary noise)")
    betas, coef, cov, updates = problem.converge(betas, coef)
    betas, coef, cov, dropped = _eliminate(problem, betas, coef, cov, spec)
    x = problem.columns(betas)
    fit_error = float(np.linalg.norm(problem.y - x @ coef) / np.linalg.norm(problem.y))
    kept_terms = [t for t, k in zip(eq.terms, keep) if k]
    kept_terms = [t for j, t in enumerate(kept_terms) if j not in dropped]
    terms = tuple(
        dataclasses.replace(t, order=float(b), coef=float(c))
        for t, b, c in zip(kept_terms, betas, coef)
    )
    final = dataclasses.replace(eq, terms=terms)
    removed = int(np.sum(~keep)) + len(dropped)
    note = FitWarning(
        "intrinsic_noise",
        f"noise_kind=intrinsic: orders {_orders(start)} -> {_orders(betas)}"
        + (f" ({removed} term(s) removed)" if removed else "")
        + " after correcting for fluctuations that obey the fitted dynamics (variance "
        f"{problem.variance:.3g} per point, read along x; {updates} model updates)",
        "info",
    )
    return dataclasses.replace(result, final=final, fit_error=fit_error), [note]


def _eliminate(
    problem: _Problem, betas: Array, coef: Array, cov: IntrinsicCovariance, spec: FitSpec
) -> tuple[Array, Array, IntrinsicCovariance, list[int]]:
    """Backward elimination on the corrected residual (the gain rule of the search: a term
    stays when removing it raises ``log10(max(E_c^2, 0) + floor)`` by more than the margin)."""
    sel = spec.discovery.selection
    dropped: list[int] = []
    index = list(range(betas.size))
    while betas.size > 1:
        base = np.log10(max(problem.corrected(cov, betas)[0], 0.0) + sel.gain_floor)
        rises = []
        for j in range(betas.size):
            rest = problem.polish_corrected(cov, np.delete(betas, j))
            score = np.log10(max(problem.corrected(cov, rest)[0], 0.0) + sel.gain_floor)
            rises.append((score - base, j))
        rise, j = min(rises)
        if rise > sel.margin:
            break
        dropped.append(index.pop(j))
        betas = np.delete(betas, j)
        coef = problem.corrected(cov, betas)[1]
        if not problem.stable(betas, coef):
            break
        betas, coef, cov, _ = problem.converge(betas, coef)
    return betas, coef, cov, dropped


def _polish(
    objective: Callable[[Array], float], betas: Array, free: Any, lo: Array, hi: Array
) -> Array:
    """Nelder-Mead on the free orders within ``[lo, hi]`` (the identity stays at 0)."""
    from scipy.optimize import minimize  # imported when used (start-up of wp status/generate)

    out = betas.copy()
    if not free.any():
        return out

    def on_box(z: Array) -> float:
        b = betas.copy()
        b[free] = np.clip(z, lo, hi)
        return objective(b)

    res = minimize(
        on_box, betas[free], method="Nelder-Mead", options={"xatol": 1e-4, "fatol": 1e-12}
    )
    out[free] = np.clip(res.x, lo, hi)
    return out


def _first(fn: Callable[..., tuple[float, Array]], *args: Any) -> float:
    return fn(*args)[0]


def _orders(b: Array) -> str:
    return "[" + ", ".join(f"{v:.4f}" for v in b) + "]"
