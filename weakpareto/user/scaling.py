"""Non-dimensionalisation: discover on a unit-free field, report in the user's units.

The method has absolute constants (the variance floor of the validation error, the ``eps`` of
the relative residual, the absolute pruning threshold on coefficients) and raises ``u`` to
powers, so a field in arbitrary physical units (u ~ 1e-14 or 1e150, x in micrometres, t in
nanoseconds) can give a different — or a non-finite — answer than the same field in units of
order one. :class:`WeakPareto` therefore discovers on

    u~ = u / U,    t~ = (t - t_0) / T,    x~ = (x - x_0) / X    (2-D: y~ = (y - y_0) / Y)

with ``U = max |u|``, ``T = dt`` and ``X = dx`` (``Y = dy``): the dimensionless grids are exactly
``0, 1, 2, ...`` (the validated grids are uniform), the x period is exactly ``nx`` and
``max |u~| = 1``, so the data the search sees are the same (to rounding of u / U) for every
choice of units.

Mapping back (paper Eq. 4, ``T_{m,alpha} u = sum_j xi_j u^{p_j} X_{beta_j} u``). With
``u = U u~``, ``t = T t~``, ``x = X x~``:

* Caputo derivative of order alpha (sub, int alpha = 1, sup 1 < alpha < 2 alike; the origin
  shift changes nothing because the derivative starts at the first sample):
  ``D_t^alpha u = U T^-alpha D_t~^alpha u~``;
* a periodic spatial operator: the period scales with X, so the wavenumbers are ``kappa~ / X``
  and both multipliers scale by ``X^-beta`` — directional ``(i kappa)^beta`` and Riesz
  ``-|kappa|^beta``; the identity term (beta = 0) by ``X^0 = 1``;
* ``u^p X_beta u = U^(p+1) X^-beta u~^p X~_beta u~`` (also for ``max(u, 0)^p``, since U > 0).

Hence ``xi_j = xi~_j U^-p_j T^-alpha X_j^beta_j``, with ``X_j`` the step of the axis term j acts
along in 2-D. Orders are unchanged. Every error the method reports (E_train, E_val, E_fit) is
relative and therefore unit-free; AIC/BIC are kept as computed on the dimensionless system.

Several experiments of one equation share one set of scales (:meth:`Scales.common`: the
largest ``max |u|``, the first experiment's steps), so one mapping serves all of them; the other
experiments' dimensionless steps are their steps over the first one's.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from weakpareto.errors import UserInputError
from weakpareto.records import DiscoveryResult, Equation, Term
from weakpareto.user.validation import CheckedField, CheckedField2D

#: Significant bits kept of every dimensionless value (float32's 24: relative 6e-8).
MANTISSA_BITS = 24

#: Largest / smallest magnitude a physical coefficient may have (float64 normal range).
_LOG_MAX = math.log(np.finfo(float).max)
_LOG_MIN = math.log(np.finfo(float).tiny)


def round_mantissa(v: np.ndarray, bits: int = MANTISSA_BITS) -> np.ndarray:
    """Round every value to ``bits`` significant bits (relative precision ``2**-bits``).

    ``u / U`` of a rescaled copy ``c u`` differs from that of ``u`` by an ulp or two, because
    ``c u`` was rounded when the user formed it. The search is not continuous in such
    differences: it breaks exact ties — e.g. the mirror images ``(beta_1, beta_2)`` and
    ``(beta_2, beta_1)`` of a same-power pattern score identically up to rounding, and the
    anchor start takes the smaller — so an ulp can change the selection-stage model. Rounding
    to 24 bits makes the dimensionless fields of ``u`` and ``c u`` bit-identical except for
    values within an ulp of a rounding boundary (probability ~1e-8 per value), far below any
    measurement precision (float32 data carry the same 24 bits).
    """
    mant, expo = np.frexp(v)
    scale = float(2**bits)
    return np.ldexp(np.round(mant * scale) / scale, expo)


@dataclass(frozen=True)
class Scales:
    """Characteristic scales: ``u = U u~``, ``t = t0 + T t~``, ``x = x0 + X x~`` (2-D: y)."""

    u: float
    t: float
    x: float
    t0: float = 0.0
    x0: float = 0.0
    y: float | None = None
    y0: float | None = None

    @classmethod
    def of(cls, field: CheckedField | CheckedField2D) -> Scales:
        """``U = max |u|``, ``T = dt``, ``X = dx`` (``Y = dy``) of a validated field."""
        scale = float(np.max(np.abs(field.u)))
        if not (scale > 0.0 and math.isfinite(scale)):  # validation rejects these already
            raise UserInputError("u is all zero or not finite; there is no dynamics to discover")
        y = y0 = None
        if isinstance(field, CheckedField2D):
            y, y0 = float(field.dy), float(field.y[0])
        return cls(
            u=scale,
            t=float(field.dt),
            x=float(field.dx),
            t0=float(field.t[0]),
            x0=float(field.x[0]),
            y=y,
            y0=y0,
        )

    @classmethod
    def common(cls, fields: Sequence[CheckedField | CheckedField2D]) -> Scales:
        """One set of scales for several experiments of one equation: ``U`` the largest
        ``max |u|`` of all, ``T``, ``X`` (``Y``) and the origins the first experiment's (the
        mapping of coefficients back must be the same for every experiment)."""
        first = cls.of(fields[0])
        return dataclasses.replace(first, u=max(float(np.max(np.abs(f.u))) for f in fields))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"u": self.u, "t": self.t, "x": self.x, "t0": self.t0, "x0": self.x0}
        if self.y is not None:
            out.update(y=self.y, y0=self.y0)
        return out

    # -- data --------------------------------------------------------------------------------
    def dimensionless(self, field: CheckedField | CheckedField2D) -> CheckedField | CheckedField2D:
        """The field on unit grids ``0, 1, ...`` with ``max |u~| = 1`` (period ``n``)."""
        u = round_mantissa(np.asarray(field.u, dtype=float) / self.u)
        nt = field.u.shape[0]
        t = np.arange(nt, dtype=float)
        x = np.arange(field.u.shape[1], dtype=float)
        if isinstance(field, CheckedField2D):
            y = np.arange(field.u.shape[2], dtype=float)
            return CheckedField2D(
                u, t, x, y, 1.0, 1.0, 1.0, float(x.size), float(y.size),
                field.dropped_endpoint, field.dropped_endpoint_y,
            )  # fmt: skip
        if field.irregular or field.missing is not None:  # the actual times, in mean steps
            t = (field.t - field.t[0]) / self.t
            return dataclasses.replace(field, u=u, t=t, x=x, dt=1.0, dx=1.0, period=float(x.size))
        return CheckedField(u, t, x, 1.0, 1.0, float(x.size), field.dropped_endpoint)

    def dimensionless_experiment(
        self, field: CheckedField | CheckedField2D
    ) -> CheckedField | CheckedField2D:
        """One of several experiments on these (common) scales: ``u / U``, grids from 0 in
        steps ``dt / T`` and ``dx / X`` (``dy / Y``), periods in units of ``X`` (``Y``). Each
        experiment starts at its own first sample, where its Caputo derivative starts."""
        u = round_mantissa(np.asarray(field.u, dtype=float) / self.u)
        dt, dx = float(field.dt) / self.t, float(field.dx) / self.x
        t = np.arange(u.shape[0], dtype=float) * dt
        x = np.arange(u.shape[1], dtype=float) * dx
        period = u.shape[1] * dx  # the validated period spans the kept points
        if isinstance(field, CheckedField2D):
            assert self.y is not None
            dy = float(field.dy) / self.y
            y = np.arange(u.shape[2], dtype=float) * dy
            return CheckedField2D(
                u, t, x, y, dt, dx, dy, period, u.shape[2] * dy,
                field.dropped_endpoint, field.dropped_endpoint_y,
            )  # fmt: skip
        if field.irregular or field.missing is not None:
            t = (field.t - field.t[0]) / self.t
            return dataclasses.replace(field, u=u, t=t, x=x, dt=dt, dx=dx, period=period)
        return CheckedField(u, t, x, dt, dx, period, field.dropped_endpoint)

    # -- results -----------------------------------------------------------------------------
    def log_factor(self, power: int, alpha: float, order: float, direction: str | None) -> float:
        """``log(U^-p T^-alpha X^beta)``: the factor from a dimensionless to a physical xi."""
        step = self.y if direction == "y" and self.y is not None else self.x
        out = -alpha * math.log(self.t) - power * math.log(self.u)
        if order != 0.0:
            out += order * math.log(step)
        return out

    def coefficient(
        self, coef: float, power: int, alpha: float, order: float, direction: str | None
    ) -> float:
        """Physical coefficient of one term (exact power law, computed in logs: no overflow).

        Raises ``UserInputError`` when it is outside float64's normal range.
        """
        log_mag = self._log_magnitude(coef, power, alpha, order, direction)
        if log_mag is None:
            return float(coef)
        if not _LOG_MIN <= log_mag <= _LOG_MAX:
            raise UserInputError(
                f"a discovered coefficient is about 1e{log_mag / math.log(10):+.0f} in the "
                f"units of the data (u scale {self.u:.3g}, dt {self.t:.3g}, dx {self.x:.3g}), "
                "outside float64's range; rescale u, t or x (e.g. to SI units) and refit"
            )
        return math.copysign(math.exp(log_mag), coef)

    def _log_magnitude(
        self, coef: float, power: int, alpha: float, order: float, direction: str | None
    ) -> float | None:
        if coef == 0.0 or not math.isfinite(coef):
            return None
        return math.log(abs(coef)) + self.log_factor(power, alpha, order, direction)

    def equation(self, eq: Equation, strict: bool = True) -> tuple[Equation, bool]:
        """A dimensionless equation in physical units (orders unchanged).

        Returns ``(equation, clipped)``. ``strict`` raises for a coefficient outside float64's
        range; otherwise it is clipped to the range (``clipped`` is True) — used for the
        selection-stage models, so that a front model with, say, a ``u^2`` term cannot fail a
        fit whose selected model is representable.
        """
        alpha = 1.0 if eq.mode == "int" else float(eq.alpha)
        clipped = False
        terms = []
        for term in eq.terms:
            args = (term.coef, term.power, alpha, term.order, term.direction)
            log_mag = self._log_magnitude(*args)
            if strict or log_mag is None or _LOG_MIN <= log_mag <= _LOG_MAX:
                coef = self.coefficient(*args)
            else:
                clipped = True
                coef = math.copysign(math.exp(min(max(log_mag, _LOG_MIN), _LOG_MAX)), term.coef)
            terms.append(dataclasses.replace(term, coef=coef))
        return Equation(eq.mode, eq.alpha, tuple(terms), eq.operator), clipped

    def result(self, res: DiscoveryResult) -> tuple[DiscoveryResult, bool]:
        """Every equation of a dimensionless result in physical units; errors are unit-free.

        Returns ``(result, clipped)``: the final equation must be representable (else
        ``UserInputError``); selection-stage coefficients are clipped if they are not.
        """
        final, _ = self.equation(res.final)
        selected, clipped = self.equation(res.selected, strict=False)
        front = []
        for fp in res.front:
            eq, c = self.equation(fp.equation, strict=False)
            clipped = clipped or c
            front.append(dataclasses.replace(fp, equation=eq))
        out = dataclasses.replace(res, front=tuple(front), selected=selected, final=final)
        return out, clipped


def term_scale(scales: Scales, term: Term, alpha: float) -> float:
    """Factor ``U^-p T^-alpha X^beta`` of one term (for tests and diagnostics)."""
    return math.exp(scales.log_factor(term.power, alpha, term.order, term.direction))
