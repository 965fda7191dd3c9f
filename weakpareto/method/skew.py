"""Skewed fractional dispersion: two one-sided terms tied to one order (ours).

The fractional advection-dispersion equation of tracer studies reads

    u_t = -v u_x + K [ (1 + s)/2 D_+^beta + (1 - s)/2 D_-^beta ] u,     -1 <= s <= 1,

with ``D_+^beta`` the ``directional`` family (symbol ``(i kappa)^beta``) and ``D_-^beta`` the
``directional_right`` one (``(-i kappa)^beta``). A skewed operator is a **pair** of terms of one
power at one shared order with coefficients ``a = K (1 + s)/2``, ``b = K (1 - s)/2``, so

    K = a + b,     s = (a - b) / (a + b)                                   (:class:`SkewedPair`),

and a pair of any two of the three families at one order is reported as such (:func:`skewed_pairs`).

At one order the three families span only two dimensions: ``(i kappa)^beta + (-i kappa)^beta =
2 cos(pi beta / 2) |kappa|^beta``, i.e. ``R^beta = -(D_+^beta + D_-^beta) / (2 cos(pi beta/2))``.
So a search over (directional, riesz, directional_right) may return the skewed operator as any
two of the three families, at two nearby orders (``c R^b1 + d D_+^b2``), or stuck in a local
optimum that splits it over distant orders. The **same-order tie rule** (:func:`tie_skewed`)
takes the final model of such a search and, for every pair of its terms of one power in two
different families, refits the model with that pair at one shared order — replaced by
``(D_+, D_-)`` when both one-sided families are searched, in its own two families otherwise
(``operator=auto`` searches directional and Riesz: ``c D_+ + d R`` at one order is the skewed
operator too). The shared order starts at the pair's mean order and, with every other order (and
``alpha`` in a fractional branch), is polished by Nelder-Mead on the exact all-row residual
within the polishing trust radius of its start (as :meth:`weakpareto.method.discovery.
Discovery.polish`); coefficients are then refitted (paper Eq. 22). The best tied model is kept
when its score is not worse than the free model's beyond the selection margin,

    log10(E_tied^2 + floor) - log10(E_free^2 + floor) <= margin,

(the gain rule of :meth:`~weakpareto.method.discovery.Discovery.eliminate`: the tie removes one
order parameter), after which terms are removed backwards while the rise stays within the
margin (the tied pair's members included; a member dropped ends the tie). Where
``cos(pi beta / 2) = 0`` (odd integer orders) ``D_+`` and ``D_-`` are collinear and such a pair
fits worse, so it is never kept there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from weakpareto._typing import Array
from weakpareto.library.families import decode_kind
from weakpareto.method.discovery import Discovery
from weakpareto.numerics.orders import first_positive
from weakpareto.records import Equation, Family, Mode, Term

#: Two orders of a reported pair closer than this are one order.
SAME_ORDER = 1e-9
#: Families that can form a skewed pair.
PAIRED: tuple[Family, ...] = ("directional", "riesz", "directional_right")


@dataclass(frozen=True)
class SkewedPair:
    """``a D_+^beta + b D_-^beta`` of one power, as ``K [(1+s)/2 D_+ + (1-s)/2 D_-]``."""

    power: int
    order: float
    coef_left: float  # a, of D_+ (directional)
    coef_right: float  # b, of D_- (directional_right)

    @property
    def K(self) -> float:  # noqa: N802  (the equation's symbol)
        """``K = a + b``."""
        return self.coef_left + self.coef_right

    @property
    def skewness(self) -> float:
        """``s = (a - b) / (a + b)`` (NaN when ``a + b = 0``)."""
        k = self.K
        return float("nan") if k == 0.0 else (self.coef_left - self.coef_right) / k

    def to_dict(self) -> dict[str, float | int]:
        return {
            "power": int(self.power),
            "order": float(self.order),
            "K": float(self.K),
            "s": float(self.skewness),
            "coef_directional": float(self.coef_left),
            "coef_directional_right": float(self.coef_right),
        }


#: Below this ``|cos(pi beta / 2)|`` the Riesz operator is not a combination of ``D_+, D_-``.
MIN_COS = 1e-6


def as_one_sided(family: str, coef: float, order: float) -> tuple[float, float] | None:
    """``(a, b)`` with ``coef X^beta = a D_+^beta + b D_-^beta`` for a pairable family:
    ``R^beta = -(D_+^beta + D_-^beta) / (2 cos(pi beta / 2))``; None where that is singular."""
    if family == "directional":
        return coef, 0.0
    if family == "directional_right":
        return 0.0, coef
    c = np.cos(0.5 * np.pi * order)
    if family != "riesz" or abs(c) < MIN_COS:
        return None
    w = -coef / (2.0 * c)
    return w, w


def skewed_pairs(eq: Equation) -> list[SkewedPair]:
    """The pairs of one power at one order in two different pairable families of ``eq``
    (``D_+ D_-``, ``D_+ R`` or ``R D_-``), each as ``a D_+^beta + b D_-^beta``."""
    terms = [t for t in eq.terms if not t.is_identity and t.family_in(eq.operator) in PAIRED]
    out = []
    for i, x in enumerate(terms):
        for y in terms[i + 1 :]:
            fx, fy = x.family_in(eq.operator), y.family_in(eq.operator)
            if fx == fy or x.power != y.power or abs(x.order - y.order) > SAME_ORDER:
                continue
            order = 0.5 * (x.order + y.order)
            ax, ay = as_one_sided(fx, x.coef, order), as_one_sided(fy, y.coef, order)
            if ax is not None and ay is not None:
                out.append(SkewedPair(x.power, order, ax[0] + ay[0], ax[1] + ay[1]))
    return out


@dataclass(frozen=True)
class Model:
    """A model in search-encoded kinds: ``group[j]`` names the order slot of term ``j`` (terms
    of one slot share their order; -1: the identity, fixed at 0)."""

    mode: Mode
    alpha: float
    kinds: tuple[int, ...]
    slots: tuple[int, ...]
    orders: tuple[float, ...]  # one per slot

    def betas(self, orders: Sequence[float] | Array | None = None) -> Array:
        o = np.asarray(self.orders if orders is None else orders, dtype=float)
        return np.array([0.0 if s < 0 else float(o[s]) for s in self.slots])

    def without(self, j: int) -> Model:
        """The model without term ``j`` (its slot dropped when no other term uses it)."""
        kinds = self.kinds[:j] + self.kinds[j + 1 :]
        slots = self.slots[:j] + self.slots[j + 1 :]
        used = sorted({s for s in slots if s >= 0})
        renum = {s: i for i, s in enumerate(used)}
        return Model(
            self.mode,
            self.alpha,
            kinds,
            tuple(-1 if s < 0 else renum[s] for s in slots),
            tuple(self.orders[s] for s in used),
        )


def _polish(disc: Discovery, m: Model) -> Model:
    """Nelder-Mead on the exact all-row residual (the search's ridge) over ``alpha`` (fractional
    branch) and the slot orders, each within the trust radius of its start (module docstring)."""
    from scipy.optimize import minimize  # imported when used (start-up)

    if not disc.cfg.refine.polish or not m.orders:
        return m
    br = disc.banks.branch(m.mode)
    fractional = not br.is_integer
    delta = disc.trust_radius()
    b_pos, b_max = first_positive(disc.beta_nodes), disc.cfg.beta_range[1]
    o0 = np.asarray(m.orders, dtype=float)
    lo = np.array(([br.lo] if fractional else []) + [max(b_pos, b - delta) for b in o0])
    hi = np.array(([br.hi] if fractional else []) + [min(b_max, b + delta) for b in o0])
    v0 = np.clip(np.array(([m.alpha] if fractional else []) + list(o0)), lo, hi)
    ridge = disc.cfg.search.ridge

    def unpack(v: Array) -> tuple[float, Array]:
        v = np.clip(v, lo, hi)
        return (float(v[0]), v[1:]) if fractional else (m.alpha, v)

    def residual(v: Array) -> float:
        alpha, orders = unpack(v)
        return disc.exact_fit(m.mode, alpha, m.kinds, m.betas(orders), ridge)[1]

    opts = {"maxiter": disc.cfg.refine.maxiter, "xatol": disc.cfg.refine.xatol,
            "fatol": disc.cfg.refine.fatol}  # fmt: skip
    try:
        res = minimize(residual, v0, method="Nelder-Mead", options=opts)
    except (ValueError, np.linalg.LinAlgError):
        return m
    alpha, orders = unpack(res.x)
    return Model(m.mode, alpha, m.kinds, m.slots, tuple(float(o) for o in orders))


def _score(disc: Discovery, m: Model) -> tuple[float, float]:
    """``log10(E^2 + floor)`` and ``E``: the all-row residual of the refit (its ridge)."""
    fit = disc.exact_fit(m.mode, m.alpha, m.kinds, m.betas(), disc.refit_ridge)[1]
    return float(np.log10(fit**2 + disc.cfg.selection.gain_floor)), float(fit)


def _encoded_model(eq: Equation) -> Model:
    """One slot per non-identity term of a search-encoded equation."""
    slots: list[int] = []
    orders: list[float] = []
    for t in eq.terms:
        if t.is_identity:
            slots.append(-1)
        else:
            slots.append(len(orders))
            orders.append(float(t.order))
    kinds = tuple(int(t.power) for t in eq.terms)
    return Model(eq.mode, float(eq.alpha), kinds, tuple(slots), tuple(orders))


def _tied(m: Model, j: int, k: int, families: Sequence[Family]) -> Model:
    """Terms ``j`` and ``k`` (one power) at their mean order: as ``(D_+, D_-)`` when both
    one-sided families are searched, otherwise in their own families (any two of the three
    span the same operators at one order)."""
    n = len(families)
    power = decode_kind(m.kinds[j], n)[0]
    kinds = list(m.kinds)
    if {"directional", "directional_right"} <= set(families):
        kinds[j] = power * n + families.index("directional")
        kinds[k] = power * n + families.index("directional_right")
    betas = m.betas()
    shared = 0.5 * (betas[j] + betas[k])
    slots: list[int] = []
    orders: list[float] = []
    for i in range(len(kinds)):
        if m.slots[i] < 0:
            slots.append(-1)
        elif i == k:
            slots.append(slots[j])
        else:
            slots.append(len(orders))
            orders.append(shared if i == j else float(betas[i]))
    return Model(m.mode, m.alpha, tuple(kinds), tuple(slots), tuple(orders))


def pair_candidates(m: Model, families: Sequence[Family]) -> list[tuple[int, int]]:
    """Pairs of non-identity terms of one power in two different pairable families."""
    n = len(families)
    dec = [decode_kind(k, n) for k in m.kinds]
    return [
        (j, k)
        for j in range(len(dec))
        for k in range(j + 1, len(dec))
        if m.slots[j] >= 0 and m.slots[k] >= 0
        and dec[j][0] == dec[k][0] and dec[j][1] != dec[k][1]
        and families[dec[j][1]] in PAIRED and families[dec[k][1]] in PAIRED
    ]  # fmt: skip


def _eliminate(disc: Discovery, m: Model, score: float) -> tuple[Model, float]:
    """Backward elimination with tied polishing while the rise stays within the margin."""
    margin = disc.cfg.selection.margin
    while len(m.kinds) > 1:
        options = []
        for j in range(len(m.kinds)):
            smaller = _polish(disc, m.without(j))
            options.append((_score(disc, smaller)[0], j, smaller))
        rise, _, best = min(options, key=lambda o: (o[0], o[1]))
        if rise - score > margin:
            break
        m, score = best, rise
    return m, score


def tie_skewed(
    disc: Discovery, final: Equation, families: Sequence[Family]
) -> tuple[Equation, float] | None:
    """The final model (search-encoded kinds) with its best same-order skewed pair, or None
    when no tie is kept (module docstring). Returns the refitted equation and its E_fit."""
    if len(set(families) & set(PAIRED)) < 2:
        return None
    free = _encoded_model(final)
    pairs = pair_candidates(free, families)
    if not pairs:
        return None
    base = _score(disc, free)[0]
    tried = []
    for j, k in pairs:
        tied = _polish(disc, _tied(free, j, k, families))
        tried.append((_score(disc, tied)[0], j, k, tied))
    score, _, _, best = min(tried, key=lambda o: (o[0], o[1], o[2]))
    if score - base > disc.cfg.selection.margin:
        return None
    best, score = _eliminate(disc, best, score)
    betas = best.betas()
    coef, fit = disc.exact_fit(best.mode, best.alpha, best.kinds, betas, disc.refit_ridge)
    terms = tuple(Term(p, float(b), float(c)) for p, b, c in zip(best.kinds, betas, coef))
    eq = Equation(best.mode, float(best.alpha), terms, disc.cfg.operator).canonical()
    return eq, float(fit)
