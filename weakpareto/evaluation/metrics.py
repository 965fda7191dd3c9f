"""Recovery metrics and their aggregation (paper Sec. 5.1 "Evaluation protocol";
docs/method/metrics.md).

Scoring a discovered equation against the benchmark truth:

* **Matching map pi** -- truth terms are processed in their *stored* order; each takes the
  still unmatched estimated term with the same power and the nearest order (ties: the first
  such term in the estimate's order). A truth term without a same-power candidate stays
  unmatched.
* **Support/power recovery** -- the estimate has as many terms as the truth and every truth
  term is matched.
* **Operator-structure recovery** -- support/power recovery and, for every matched pair, an
  identity truth term (order 0) is matched by an identity (``|beta| <= 1e-8``) and a derivative
  truth term by a non-identity term with ``|beta_hat - beta| <= tau_q``; plus the same temporal
  mode (``alpha* = 1`` means the exact integer mode) and ``|alpha_hat - alpha*| <= tau_q``.
* ``e_alpha = |alpha_hat - alpha*|`` (always); ``e_beta_max``, ``e_xi_max`` and ``e_xi_2``
  only when the support/power is recovered (NaN otherwise).

Directional (2-D) truths, whose terms carry a ``direction`` (paper Sec. subsec:twod, tab:twod;
docs/method/two-d.md#scoring), are scored by :func:`score_directional`: the number of terms of every
(power, direction) must equal the truth's (support size and direction multiset); within each
direction the orders are matched optimally (Hungarian assignment on ``|beta_hat - beta|``,
``scipy.optimize.linear_sum_assignment``); complete operator recovery additionally requires the 1-D
order rules above for every matched pair, the temporal branch and ``|alpha_hat - alpha*|`` within
``tau_q`` — following the paper's text rather than the reference script, which skips the branch
check.

Aggregation (docs/method/metrics.md#aggregation, as the reference's ``make_tables._agg``): counts
``k/n`` over all seeds; ``e_*`` mean and sample SD (``ddof=1``; SD 0 for one value) over
support-recovered runs; ``E_fit`` mean and sample SD over all runs; ``--`` when there is nothing to
average.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, cast

import numpy as np

from weakpareto.records import (
    ALL_FAMILIES,
    IDENTITY_TOL,
    TAU_Q,
    Equation,
    Family,
    Mode,
    OperatorKind,
    Term,
)

XI_GUARD = 1e-12  # eps_xi in the coefficient errors
EMPTY = "--"  # table entry when no run qualifies


# -- truth ---------------------------------------------------------------------------------------
def _get(cfg: Any, key: str, default: Any = None) -> Any:
    if isinstance(cfg, Mapping):
        return cfg.get(key, default)
    try:  # omegaconf DictConfig (a MutableMapping, but be lenient with other containers)
        return cfg[key] if key in cfg else default
    except TypeError:
        return getattr(cfg, key, default)


def mode_of_alpha(alpha: float) -> Mode:
    """Temporal mode implied by an order: 1 is the exact integer mode ``partial_t``."""
    if abs(alpha - 1.0) <= 1e-12:
        return "int"
    return "sub" if alpha < 1.0 else "sup"


def truth_equation(bench_cfg: Any) -> Equation:
    """The benchmark's true equation, terms in the stored (YAML) order, not canonicalised.

    Accepts a benchmark config (plain mapping or omegaconf ``DictConfig``) with a ``truth``
    entry ``{mode, alpha, operator, terms: [{power, order, coef}, ...]}`` (a term may name its
    ``direction`` and, in a model of several families, its ``family``), or that ``truth``
    mapping itself. A missing ``mode`` is inferred from ``alpha``; a missing ``operator`` falls
    back to ``library.operator`` and then to ``directional``.
    """
    truth = _get(bench_cfg, "truth", None)
    if truth is None:
        truth = bench_cfg
    terms_cfg = _get(truth, "terms", None)
    if terms_cfg is None:
        raise ValueError("benchmark config has no truth.terms")
    alpha = float(_get(truth, "alpha"))
    mode = _get(truth, "mode", None) or mode_of_alpha(alpha)
    operator = _get(truth, "operator", None)
    if operator is None:
        operator = _get(_get(bench_cfg, "library", {}) or {}, "operator", None) or "directional"
    terms = tuple(
        Term(
            int(_get(t, "power")),
            float(_get(t, "order")),
            float(_get(t, "coef")),
            _direction(_get(t, "direction", None)),
            _family(_get(t, "family", None)),
        )
        for t in terms_cfg
    )
    return Equation(cast(Mode, str(mode)), alpha, terms, cast(OperatorKind, str(operator)))


def _direction(value: Any) -> str | None:
    return None if value is None else str(value)


def _family(value: Any) -> Family | None:
    if value is None:
        return None
    if str(value) not in ALL_FAMILIES:
        raise ValueError(f"unknown term family {value!r}; valid: {', '.join(ALL_FAMILIES)}")
    return cast(Family, str(value))


# -- matching and scoring ------------------------------------------------------------------------
def match_terms(estimate: Equation, truth: Equation) -> list[int | None]:
    """The matching map pi: ``pi[j]`` is the index in ``estimate.terms`` of truth term ``j``."""
    used: set[int] = set()
    pi: list[int | None] = []
    for tt in truth.terms:
        best: int | None = None
        best_dist = math.inf
        for i, et in enumerate(estimate.terms):
            if i in used or et.power != tt.power:
                continue
            dist = abs(et.order - tt.order)
            if dist < best_dist:  # strict: ties keep the first candidate
                best, best_dist = i, dist
        if best is not None:
            used.add(best)
        pi.append(best)
    return pi


def required_mode(truth: Equation) -> Mode:
    """Temporal mode the estimate must have: ``alpha* = 1`` always means the integer mode."""
    return "int" if abs(truth.alpha - 1.0) <= 1e-12 else truth.mode


@dataclass(frozen=True)
class Metrics:
    """Recovery flags and errors of one discovered equation against the truth."""

    support_ok: bool
    operator_ok: bool
    branch_ok: bool
    e_alpha: float
    e_beta_max: float
    e_xi_max: float
    e_xi_2: float
    matching: tuple[int | None, ...] = ()

    def as_row(self) -> dict[str, Any]:
        """The columns stored in a results row (the matching map is not stored)."""
        d = asdict(self)
        d.pop("matching")
        return d


def is_directional(eq: Equation) -> bool:
    """True when the equation's terms carry spatial directions (multi-dimensional model)."""
    return any(t.direction is not None for t in eq.terms)


def score(estimate: Equation, truth: Equation, tau: float = TAU_Q) -> Metrics:
    """Score ``estimate`` against ``truth`` with operator-order tolerance ``tau``
    (docs/method/metrics.md#recovery-criteria).

    Directional (2-D) truths are dispatched to :func:`score_directional`.
    """
    if is_directional(truth):
        return score_directional(estimate, truth, tau)
    pi = match_terms(estimate, truth)
    support_ok = estimate.size == truth.size and all(i is not None for i in pi)
    branch_ok = estimate.mode == required_mode(truth)
    e_alpha = abs(float(estimate.alpha) - float(truth.alpha))
    if not support_ok:
        nan = float("nan")
        return Metrics(False, False, branch_ok, e_alpha, nan, nan, nan, tuple(pi))
    pairs = [(estimate.terms[cast(int, i)], tt) for i, tt in zip(pi, truth.terms)]  # all matched
    d_beta = np.array([abs(et.order - tt.order) for et, tt in pairs])
    xi_hat = np.array([et.coef for et, _ in pairs])
    xi_true = np.array([tt.coef for _, tt in pairs])
    orders_ok = True
    for (et, tt), db in zip(pairs, d_beta):
        if abs(tt.order) <= IDENTITY_TOL:
            orders_ok &= abs(et.order) <= IDENTITY_TOL
        else:
            orders_ok &= abs(et.order) > IDENTITY_TOL and db <= tau
    operator_ok = bool(orders_ok and branch_ok and e_alpha <= tau)
    e_beta_max = float(d_beta.max()) if d_beta.size else 0.0
    rel = np.abs(xi_hat - xi_true) / (np.abs(xi_true) + XI_GUARD)
    e_xi_max = float(rel.max()) if rel.size else 0.0
    e_xi_2 = float(np.linalg.norm(xi_hat - xi_true) / (np.linalg.norm(xi_true) + XI_GUARD))
    return Metrics(True, operator_ok, branch_ok, e_alpha, e_beta_max, e_xi_max, e_xi_2, tuple(pi))


def match_directional(estimate: Equation, truth: Equation) -> list[int | None]:
    """Optimal matching within each (power, direction) group (Hungarian on ``|delta beta|``).

    ``pi[j]`` is the index in ``estimate.terms`` of truth term ``j`` (truth in stored order);
    truth terms of a group with fewer estimated terms than needed stay partly unmatched.
    """
    from scipy.optimize import linear_sum_assignment  # imported when used (start-up)

    pi: list[int | None] = [None] * truth.size
    groups = {(t.power, t.direction) for t in truth.terms}
    for key in sorted(groups, key=lambda k: (k[0], k[1] or "")):
        tj = [j for j, t in enumerate(truth.terms) if (t.power, t.direction) == key]
        ei = [i for i, t in enumerate(estimate.terms) if (t.power, t.direction) == key]
        if not ei:
            continue
        cost = np.array(
            [[abs(estimate.terms[i].order - truth.terms[j].order) for i in ei] for j in tj]
        )
        rows, cols = linear_sum_assignment(cost)
        for r, c in zip(rows, cols):
            pi[tj[r]] = ei[c]
    return pi


def _direction_multiset(eq: Equation) -> list[tuple[int, str]]:
    return sorted((int(t.power), t.direction or "") for t in eq.terms)


def score_directional(estimate: Equation, truth: Equation, tau: float = TAU_Q) -> Metrics:
    """Score a directional (2-D) estimate (paper tab:twod, with the paper's rules;
    docs/method/two-d.md#scoring).

    Support/direction recovery: the same support size and the same multiset of (power,
    direction) labels as the truth. Complete operator recovery additionally needs, for every
    optimally matched pair, the 1-D order rule (identity vs. ``|delta beta| <= tau``), the
    truth's temporal branch and ``|alpha_hat - alpha*| <= tau``.
    """
    branch_ok = estimate.mode == required_mode(truth)
    e_alpha = abs(float(estimate.alpha) - float(truth.alpha))
    pi = match_directional(estimate, truth)
    support_ok = _direction_multiset(estimate) == _direction_multiset(truth) and all(
        i is not None for i in pi
    )
    if not support_ok:
        nan = float("nan")
        return Metrics(False, False, branch_ok, e_alpha, nan, nan, nan, tuple(pi))
    pairs = [(estimate.terms[cast(int, i)], tt) for i, tt in zip(pi, truth.terms)]  # all matched
    d_beta = np.array([abs(et.order - tt.order) for et, tt in pairs])
    orders_ok = True
    for (et, tt), db in zip(pairs, d_beta):
        if abs(tt.order) <= IDENTITY_TOL:
            orders_ok &= abs(et.order) <= IDENTITY_TOL
        else:
            orders_ok &= abs(et.order) > IDENTITY_TOL and db <= tau
    operator_ok = bool(orders_ok and branch_ok and e_alpha <= tau)
    xi_hat = np.array([et.coef for et, _ in pairs])
    xi_true = np.array([tt.coef for _, tt in pairs])
    rel = np.abs(xi_hat - xi_true) / (np.abs(xi_true) + XI_GUARD)
    e_xi_2 = float(np.linalg.norm(xi_hat - xi_true) / (np.linalg.norm(xi_true) + XI_GUARD))
    return Metrics(
        True,
        operator_ok,
        branch_ok,
        e_alpha,
        float(d_beta.max()) if d_beta.size else 0.0,
        float(rel.max()) if rel.size else 0.0,
        e_xi_2,
        tuple(pi),
    )


# -- aggregation ---------------------------------------------------------------------------------
def count_str(flags: Iterable[Any], n: int | None = None) -> str:
    """``"k/n"``: number of true flags (missing values count as false) over ``n`` runs."""
    vals = list(flags)
    k = sum(1 for v in vals if not _isnan(v) and bool(v))
    return f"{k}/{len(vals) if n is None else n}"


def _isnan(v: Any) -> bool:
    """True for scalar missing values (None, NaN, pandas NA/NaT)."""
    import pandas as pd  # only the table summaries: scoring a run and `wp generate` need no pandas

    try:
        return bool(pd.isna(v))
    except (TypeError, ValueError):  # array-likes are not missing scalars
        return False


def finite(values: Iterable[Any]) -> np.ndarray:
    """The finite values as a float array (None, NaN and inf dropped)."""
    out = []
    for v in values:
        if v is None:
            continue
        try:
            f = float(v)
        except (TypeError, ValueError):
            continue
        if math.isfinite(f):
            out.append(f)
    return np.asarray(out, dtype=float)


def mean_sd(values: Iterable[Any]) -> tuple[float, float] | None:
    """Mean and sample SD (``ddof=1``; 0 for a single value) of the finite values, or None."""
    v = finite(values)
    if v.size == 0:
        return None
    sd = float(np.std(v, ddof=1)) if v.size > 1 else 0.0
    return float(np.mean(v)), sd


def _fixed(x: float, decimals: int) -> str:
    s = f"{x:.{decimals}f}"
    if s.startswith("-") and float(s) == 0.0:  # no "-0.000"
        s = s[1:]
    return s


def fmt_fixed(x: Any, decimals: int) -> str:
    """Plain fixed-point number, ``--`` when missing."""
    v = finite([x])
    return EMPTY if v.size == 0 else _fixed(float(v[0]), decimals)


def fmt_pm(values: Iterable[Any], decimals: int) -> str:
    """``$m\\pm s$`` (mean and sample SD of the finite values) or ``--``."""
    ms = mean_sd(values)
    if ms is None:
        return EMPTY
    m, s = ms
    return f"${_fixed(m, decimals)}\\pm{_fixed(s, decimals)}$"


def fmt_mean(values: Iterable[Any], decimals: int) -> str:
    """Plain mean of the finite values (no SD), or ``--``."""
    ms = mean_sd(values)
    return EMPTY if ms is None else _fixed(ms[0], decimals)


def fmt_sci(x: Any, digits: int) -> str:
    """``$5.94{\\times}10^{-3}$`` with ``digits`` mantissa decimals, or ``--``."""
    v = finite([x])
    if v.size == 0:
        return EMPTY
    mant, exp = f"{float(v[0]):.{digits}e}".split("e")
    return f"${mant}{{\\times}}10^{{{int(exp)}}}$"


def fmt_sci_mean(values: Iterable[Any], digits: int) -> str:
    """Scientific-notation mean of the finite values, or ``--``."""
    ms = mean_sd(values)
    return EMPTY if ms is None else fmt_sci(ms[0], digits)


ERROR_COLUMNS = ("e_alpha", "e_beta_max", "e_xi_max", "e_xi_2")


@dataclass(frozen=True)
class Summary:
    """Aggregate of the runs of one table cell group (one benchmark/noise/method/variant)."""

    n: int
    n_support: int
    n_operator: int
    n_branch: int
    conditioned: Mapping[str, tuple[float, ...]]  # e_* over support-recovered runs
    fit_error: tuple[float, ...]  # E_fit over all runs (finite values)

    def count(self, which: str) -> str:
        k = {"support": self.n_support, "operator": self.n_operator, "branch": self.n_branch}
        return f"{k[which]}/{self.n}"

    def pm(self, column: str, decimals: int) -> str:
        vals = self.fit_error if column == "fit_error" else self.conditioned[column]
        return fmt_pm(vals, decimals)

    def mean(self, column: str, decimals: int) -> str:
        vals = self.fit_error if column == "fit_error" else self.conditioned[column]
        return fmt_mean(vals, decimals)


def summarise(rows: Sequence[Mapping[str, Any]] | Any) -> Summary:
    """Aggregate run rows (dicts or a DataFrame) following docs/method/metrics.md#aggregation.

    Failed runs count in ``n`` but never as recovered; their ``E_fit`` is missing and skipped.
    """
    if hasattr(rows, "to_dict"):
        rows = rows.to_dict("records")
    rows = list(rows)

    def flag(r: Mapping[str, Any], k: str) -> bool:
        v = r.get(k)
        return False if _isnan(v) else bool(v)

    sup = [r for r in rows if flag(r, "support_ok")]
    cond = {c: tuple(finite(r.get(c) for r in sup)) for c in ERROR_COLUMNS}
    return Summary(
        n=len(rows),
        n_support=len(sup),
        n_operator=sum(flag(r, "operator_ok") for r in rows),
        n_branch=sum(flag(r, "branch_ok") for r in rows),
        conditioned=cond,
        fit_error=tuple(finite(r.get("fit_error") for r in rows)),
    )
