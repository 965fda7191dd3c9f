"""Frozen records: terms, equations and discovery results.

An :class:`Equation` is the encoding ``M = (m_alpha, alpha, p, beta, xi)`` of paper Sec. 2.2
(Eq. 5) and prints itself as text or LaTeX.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

Mode = Literal["sub", "int", "sup"]
OperatorKind = Literal["directional", "riesz", "gl_left"]
#: Periodic spatial operator families a term may carry, in precedence order: ``directional``
#: ``(i kappa)^beta``, ``riesz`` ``-|kappa|^beta``, ``directional_right`` ``(-i kappa)^beta``
#: (docs/method/operators.md#families-per-term). :data:`TEMPERED_FAMILIES` follow them in
#: :data:`ALL_FAMILIES`: ``tempered`` and ``tempered_riesz`` at the run's tempering lambda
#: (docs/method/tempered.md).
Family = Literal["directional", "riesz", "directional_right", "tempered", "tempered_riesz"]
FAMILIES: tuple[Family, ...] = ("directional", "riesz", "directional_right")
TEMPERED_FAMILIES: tuple[Family, ...] = ("tempered", "tempered_riesz")
ALL_FAMILIES: tuple[Family, ...] = FAMILIES + TEMPERED_FAMILIES

#: Text symbol of each family's (or operator's) term; 2-D terms add their direction.
_TEXT_SYMBOL = {
    "riesz": "R",
    "directional_right": "D_-x",
    "tempered": "T_x",
    "tempered_riesz": "TR",
}
_LATEX_SYMBOL = {"tempered": r"\mathcal{T}", "tempered_riesz": r"\mathcal{T}_{R}"}

IDENTITY_TOL = 1e-8
#: Operator-order tolerance tau_q (paper Sec. 5.1): two orders closer than this are the same
#: operator; an order interval wider than this is called unreliable.
TAU_Q = 0.15


@dataclass(frozen=True, order=True)
class Term:
    """One right-hand-side term ``coef * u**power * X_order u`` (order 0 is the identity).

    ``direction`` is the spatial coordinate the operator acts along in multi-dimensional
    models (``"x"`` or ``"y"``, paper Eq. twod-model); ``None`` in 1-D, where the operator acts
    along the only spatial axis. ``family`` is the term's operator family when a model mixes
    families (``u_t = -0.5 D_x^1 u + 0.3 R^1.5 u``); ``None`` means the equation's operator.

    A known forcing term ``coef * f`` names its field in ``forcing`` (its power and order are 0
    and carry no meaning); ``fixed`` says its coefficient was given rather than estimated.
    """

    power: int
    order: float
    coef: float = 0.0
    direction: str | None = None
    family: Family | None = None
    forcing: str | None = None
    fixed: bool = False

    @property
    def is_identity(self) -> bool:
        return abs(self.order) <= IDENTITY_TOL

    def family_in(self, operator: str) -> str:
        """The term's operator family in an equation of ``operator``."""
        return operator if self.family is None else self.family

    def _op_text(self, operator: str) -> str:
        if self.is_identity:
            return "u"
        kind = self.family_in(operator)
        if self.direction is not None:
            sym = f"R_{self.direction}" if kind == "riesz" else f"D_{self.direction}"
            if kind == "directional_right":
                sym = f"D_-{self.direction}"
            return f"{sym}^{self.order:.4f} u"
        sym = _TEXT_SYMBOL.get(kind, "D_x")
        return f"{sym}^{self.order:.4f} u"

    def _op_latex(self, operator: str) -> str:
        if self.is_identity:
            return "u"
        kind = self.family_in(operator)
        if kind in _LATEX_SYMBOL:
            return rf"{_LATEX_SYMBOL[kind]}^{{{self.order:.2f}}}u"
        if kind == "riesz":
            sub = "" if self.direction is None else f"^{{({self.direction})}}"
            return rf"\mathcal{{R}}{sub}_{{{self.order:.2f}}}u"
        d = "x" if self.direction is None else self.direction
        if kind == "directional_right":
            return rf"D_{{-{d}}}^{{{self.order:.2f}}}u"
        return rf"D_{d}^{{{self.order:.2f}}}u"

    def text(self, operator: OperatorKind = "directional") -> str:
        if self.forcing is not None:
            return self.forcing
        base = self._op_text(operator)
        if self.power == 0:
            return base
        pw = "u" if self.power == 1 else f"u^{self.power}"
        return f"{pw} {base}" if not self.is_identity else f"u^{self.power + 1}"

    def latex(self, operator: OperatorKind = "directional") -> str:
        if self.forcing is not None:
            name = self.forcing.replace("_", r"\_")
            return rf"\mathrm{{{name}}}"
        base = self._op_latex(operator)
        if self.power == 0:
            return base
        if self.is_identity:
            return f"u^{{{self.power + 1}}}"
        pw = "u" if self.power == 1 else f"u^{{{self.power}}}"
        return rf"{pw}\,{base}"


def format_coef(value: float, sig_digits: int | None = None) -> str:
    """A coefficient as text: 4 decimals (``sig_digits=None``) or at least ``sig_digits``
    significant digits (see :meth:`Equation.text`)."""
    if sig_digits is None:
        return f"{value:.4f}"
    if sig_digits < 1:
        raise ValueError(f"sig_digits must be >= 1, got {sig_digits}")
    mag = abs(value)
    if mag == 0.0 or not math.isfinite(mag):
        return f"{value:.4f}"
    # 4 decimals show floor(log10|c|) + 5 significant digits.
    if 10.0 ** (sig_digits - 5) <= mag < 1e4:
        return f"{value:.4f}"
    return f"{value:.{sig_digits - 1}e}"


def _lhs_text(mode: Mode, alpha: float) -> str:
    return "u_t" if mode == "int" else f"D_t^{alpha:.4f} u"


def _lhs_latex(mode: Mode, alpha: float) -> str:
    return r"\partial_t u" if mode == "int" else rf"D_t^{{{alpha:.4f}}}u"


@dataclass(frozen=True)
class Equation:
    """A fractional PDE ``T_{mode,alpha} u = sum_j xi_j u^{p_j} X_{beta_j} u`` (paper Eq. 4)."""

    mode: Mode
    alpha: float
    terms: tuple[Term, ...]
    operator: OperatorKind = "directional"

    @property
    def size(self) -> int:
        return len(self.terms)

    def canonical(self) -> Equation:
        """Terms sorted by (power, order, family, coef) (2-D: grouped by direction;
        docs/method/search.md#canonical-order-of-terms); known forcing terms last, by name.

        A term's family is written only where it differs from the equation's operator and the
        term is not the identity (every family's order 0), so equal models compare equal.
        """
        terms = [
            t if t.family is None or (t.family != self.operator and not t.is_identity)
            else replace(t, family=None)
            for t in self.terms
        ]  # fmt: skip
        terms.sort(key=_canonical_key)
        return Equation(self.mode, self.alpha, tuple(terms), self.operator)

    def text(self, sig_digits: int | None = None) -> str:
        """The equation as text.

        ``sig_digits=None`` (default) prints every coefficient with 4 decimals — the format of
        the committed tables and stored runs. An integer ``s >= 1`` never hides a coefficient:
        it keeps the 4-decimal form where that shows at least ``s`` significant digits and the
        value is below 1e4, and uses scientific notation with ``s`` significant digits otherwise
        (``1.235e-06``, ``4.560e+05``).
        """
        rhs = ""
        for i, term in enumerate(self.terms):
            c = term.coef
            sign = "-" if c < 0 else "+"
            body = f"{format_coef(abs(c), sig_digits)} {term.text(self.operator)}"
            rhs += (f"-{body}" if c < 0 else body) if i == 0 else f" {sign} {body}"
        return f"{_lhs_text(self.mode, self.alpha)} = {rhs or '0'}"

    def latex(self) -> str:
        rhs = ""
        for i, term in enumerate(self.terms):
            c = term.coef
            body = rf"{abs(c):.2f}\,{term.latex(self.operator)}"
            if i == 0:
                rhs += f"-{body}" if c < 0 else body
            else:
                rhs += f" - {body}" if c < 0 else f" + {body}"
        return f"{_lhs_latex(self.mode, self.alpha)} = {rhs or '0'}"

    def __str__(self) -> str:
        return self.text()

    def to_dict(self) -> dict[str, Any]:
        return {
            "equation": self.text(),
            "mode": self.mode,
            "alpha": float(self.alpha),
            "operator": self.operator,
            "terms": [_term_dict(t) for t in self.terms],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Equation:
        terms = tuple(
            Term(
                int(t["power"]),
                float(t["order"]),
                float(t["coef"]),
                t.get("direction"),
                t.get("family"),
                t.get("forcing"),
                bool(t.get("fixed", False)),
            )
            for t in d["terms"]
        )
        return cls(d["mode"], float(d["alpha"]), terms, d.get("operator", "directional"))


def _term_dict(t: Term) -> dict[str, Any]:
    out: dict[str, Any] = {"power": int(t.power), "order": float(t.order), "coef": float(t.coef)}
    if t.direction is not None:  # 1-D dictionaries stay exactly as before
        out["direction"] = str(t.direction)
    if t.family is not None:  # single-family dictionaries too
        out["family"] = str(t.family)
    if t.forcing is not None:  # and unforced ones
        out["forcing"] = str(t.forcing)
        out["fixed"] = bool(t.fixed)
    return out


def _canonical_key(t: Term) -> tuple[bool, str, int, str, float, str, float]:
    """Operator terms by (power, direction, order, family, coef), then forcing terms by name."""
    return (
        t.forcing is not None, t.forcing or "", t.power, t.direction or "", t.order,
        t.family or "", t.coef,
    )  # fmt: skip


@dataclass(frozen=True)
class FrontPoint:
    """Best model of one support size on the Pareto sweep (selection-stage, unpruned)."""

    size: int
    train_error: float
    val_error: float
    objective: float
    aic: float
    bic: float
    equation: Equation


@dataclass(frozen=True)
class DiscoveryResult:
    """Everything a discovery run produces (sklearn-style fitted state lives in the estimator)."""

    front: tuple[FrontPoint, ...]  # every evaluated support size, in order of c
    pareto: tuple[int, ...]  # support sizes on the Pareto front
    selected_size: int
    selected: Equation  # selection-stage model (before pruning)
    final: Equation  # after pruning, polishing and exact refit
    fit_error: float  # E_fit, paper Sec. 5.1
    timings: dict[str, float] = field(default_factory=dict)
    #: The gain rule's error floor the selection used, when a noise model raised it above the
    #: configured one (None: the configured floor); a reselection must use the same.
    gain_floor: float | None = None
    #: The search ridge the fit used, when a noise model set it from the noise level (None: the
    #: configured ``search.ridge``); a refit or reselection of this result must use the same.
    search_ridge: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out = self.final.to_dict()
        out["fit_error"] = float(self.fit_error)
        out["selected_size"] = int(self.selected_size)
        out["pareto_front"] = [
            {
                "size": fp.size,
                "val_error": float(fp.val_error),
                "train_error": float(fp.train_error),
                "on_front": fp.size in self.pareto,
                "equation": fp.equation.text(),
            }
            for fp in self.front
        ]
        out["timings"] = {k: float(v) for k, v in self.timings.items()}
        _ = asdict  # records are plain dataclasses; asdict works for callers too
        return out
