"""Periodic or bounded spatial domain: ``domain=periodic|bounded|auto`` (ours,
docs/method/extensions.md#bounded-domain).

``periodic`` is the paper's setting (FFT operators on a grid covering one period). ``bounded``
treats the data as a window ``[a, b]`` of a larger system
(:mod:`weakpareto.library.weak_bounded`: compact tests inside the window; integer orders by exact
integration by parts; fractional orders as finite-domain Riemann–Liouville derivatives whose
terminals are the window's edges). ``auto`` (the default) runs the periodicity test below.

Periodicity test (:func:`periodicity`): on a periodic grid the wrap-around pair
``(u(x_last), u(x_0))`` is one more pair of neighbours, so its difference and the second
differences across the wrap look like those inside the grid. With
``jump = rms_t(u_0 - u_last) / rms(u_{i+1} - u_i)`` and
``kink = rms_t(second differences across the wrap) / rms(interior second differences)``
(root mean squares over time and position), the edges are *consistent with periodicity* when
``max(jump, kink) <= PERIODIC_TOL`` (3). ``auto`` picks ``periodic`` then and ``bounded``
otherwise; an explicit ``period=`` also means periodic. Periodic operators on data scoring above
the tolerance get a ``non_periodic`` warning. A field at rest on both edges (below 1 % of
max|u|) passes the test, and the printed reason then says that only ``domain=bounded`` is right
for a process confined to the window: the edges cannot reveal where a fractional operator's
memory starts. Measured (``results/bench/bounded_domain.md``): every periodic benchmark of the
package scores 0.07-2.2 at 0-10 % noise; the finite-domain ADE file 10-28; windows cut from
periodic simulations 15-620.

On a bounded domain a polished order within ``SNAP_TOL`` of an integer is replaced by that
integer when the exact integer model's all-row residual is within the selection margin of the
fractional one (the rule the method applies to ``alpha`` next to 1): the exact
integration-by-parts feature holds only at the integer itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from weakpareto._typing import Array
from weakpareto.errors import UserInputError
from weakpareto.fit.checks import FitWarning
from weakpareto.library.gram import EPS_REL, FeatureSource
from weakpareto.method.exact_fit import exact_system, fit_rows, relative_residual
from weakpareto.method.settings import DiscoveryConfig
from weakpareto.records import DiscoveryResult, Equation, Term

#: ``auto``: periodic when both wrap ratios are at most this (see the module docstring).
PERIODIC_TOL = 3.0
#: Both edge columns below this fraction of max|u| at all times: the edges are "at rest".
EDGE_REST = 0.01
#: Orders this close to an integer are tried at the integer on a bounded domain.
SNAP_TOL = 0.05


@dataclass(frozen=True)
class Periodicity:
    """Wrap-around ratios of one spatial axis (module docstring) and the verdict."""

    jump: float
    kink: float

    @property
    def score(self) -> float:
        return max(self.jump, self.kink)

    @property
    def periodic(self) -> bool:
        return bool(self.score <= PERIODIC_TOL)

    def text(self) -> str:
        return (
            f"wrap-around jump {self.jump:.3g}x and slope jump {self.kink:.3g}x the typical "
            f"neighbour differences (tolerance {PERIODIC_TOL:g})"
        )


def _rms(a: Array) -> float:
    return float(np.sqrt(np.mean(np.square(a))))


def periodicity(u: Array, axis: int = 1) -> Periodicity:
    """Wrap-around ratios of ``u`` along spatial ``axis`` (1 = x, 2 = y)."""
    v = np.moveaxis(np.asarray(u, dtype=float), axis, -1)
    v = v / (float(np.max(np.abs(v))) or 1.0)
    d1 = np.diff(v, axis=-1)
    d2 = v[..., 2:] - 2.0 * v[..., 1:-1] + v[..., :-2]
    wrap1 = v[..., 0] - v[..., -1]
    wrap2 = np.stack(
        [v[..., 1] - 2.0 * v[..., 0] + v[..., -1], v[..., 0] - 2.0 * v[..., -1] + v[..., -2]]
    )
    tiny = 1e-300
    return Periodicity(_rms(wrap1) / max(_rms(d1), tiny), _rms(wrap2) / max(_rms(d2), tiny))


@dataclass(frozen=True)
class DomainChoice:
    """The domain used, why, and the periodicity of the data."""

    domain: str
    reason: str
    checks: tuple[Periodicity, ...]

    def line(self) -> str:
        """The printed choice: ``domain <periodic|bounded> (<reason>)``."""
        return f"domain {self.domain} ({self.reason})"

    def notes(self) -> list[FitWarning]:
        """``warning: [non_periodic]`` when periodic operators meet data that fail the
        periodicity test (the choice itself is printed by :meth:`line`, not as a warning)."""
        bad = [c for c in self.checks if not c.periodic]
        if self.domain != "periodic" or not bad:
            return []
        axes = "/".join(a for a, c in zip("xy", self.checks) if not c.periodic)
        hint = (
            "use domain=bounded for a window of a larger system"
            if len(self.checks) == 1
            else "bounded domains are 1-D only: fit 1-D slices with domain=bounded"
        )
        return [
            FitWarning(
                "non_periodic",
                f"periodic operators on data whose {axes} edges do not match ({bad[0].text()}); "
                f"the FFT operators wrap the window around — {hint}",
            )
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "domain": self.domain,
            "domain_reason": self.reason,
            "periodicity_score": [float(c.score) for c in self.checks],
        }


def edges_at_rest(u: Array) -> bool:
    """Whether ``|u|`` stays below ``EDGE_REST`` of its maximum on both x edges at all times."""
    v = np.abs(np.asarray(u, dtype=float))
    return bool(np.max(v[:, [0, -1]]) <= EDGE_REST * float(np.max(v)))


def choose_domain(requested: str, u: Array, period_given: bool, two_d: bool) -> DomainChoice:
    """Resolve ``domain=`` for a validated field (raises ``UserInputError`` for 2-D + bounded)."""
    checks = tuple(periodicity(u, ax) for ax in ((1, 2) if two_d else (1,)))
    if requested == "bounded":
        if two_d:
            raise UserInputError(
                "domain=bounded supports 1-D data only; 2-D data need periodic x and y "
                "(domain=periodic), or fit 1-D slices u[:, :, k] with domain=bounded"
            )
        if period_given:
            raise UserInputError("period= applies to periodic domains; drop it for domain=bounded")
        return DomainChoice("bounded", "domain=bounded given", checks)
    if requested == "periodic":
        return DomainChoice("periodic", "domain=periodic given", checks)
    if period_given:
        return DomainChoice("periodic", "auto, period= given", checks)
    if all(c.periodic for c in checks):
        text = "; ".join(c.text() for c in checks)
        if not two_d and edges_at_rest(u):
            text += (
                f"; u stays below {EDGE_REST:.0%} of max|u| at both edges, where periodic and "
                "bounded operators differ only in fractional terms: if the process is confined "
                "to the window (e.g. zero Dirichlet ends), pass domain=bounded"
            )
        return DomainChoice("periodic", f"auto, edges consistent with periodicity: {text}", checks)
    if two_d:
        return DomainChoice("periodic", "auto, 2-D data (bounded domains are 1-D only)", checks)
    reason = f"auto, edges not periodic: {checks[0].text()}"
    return DomainChoice("bounded", reason, checks)


def choose_common_domain(
    requested: str, fields: Sequence[tuple[Array, bool]], two_d: bool
) -> DomainChoice:
    """One domain for several experiments (``fields``: their ``u`` and whether their period was
    given): :func:`choose_domain` of every experiment, which must agree, since one equation has
    one kind of spatial operator (raises ``UserInputError`` naming the experiments of each
    domain). The choice carries, per axis, the periodicity of the experiment whose edges match
    least."""
    choices = [choose_domain(requested, u, given, two_d) for u, given in fields]
    domains = list(dict.fromkeys(c.domain for c in choices))  # in order of first appearance
    if len(domains) > 1:
        members = {d: [str(k + 1) for k, c in enumerate(choices) if c.domain == d] for d in domains}
        groups = "; ".join(f"{d}: experiment(s) {', '.join(ks)}" for d, ks in members.items())
        odd = next(k for k, c in enumerate(choices) if c.domain != choices[0].domain)
        raise UserInputError(
            f"the experiments need different spatial domains ({groups}; experiment {odd + 1}: "
            f"{choices[odd].reason}); one equation has one kind of spatial operator: pass "
            "domain=periodic or domain=bounded, or fit the experiments separately"
        )
    worst = tuple(
        max((c.checks[axis] for c in choices), key=lambda p: p.score)
        for axis in range(len(choices[0].checks))
    )
    n = len(choices)
    if len({c.reason for c in choices}) == 1:
        reason = f"{choices[0].reason}; all {n} experiments"
    else:
        w = max(range(n), key=lambda k: max(p.score for p in choices[k].checks))
        reason = (
            f"all {n} experiments; least periodic edges, experiment {w + 1}: {choices[w].reason}"
        )
    return DomainChoice(choices[0].domain, reason, worst)


def _refit(source: FeatureSource, eq: Equation, orders: Array, ridge: float) -> tuple[Array, float]:
    powers = tuple(t.power for t in eq.terms)
    y, x = exact_system(source, eq.mode, eq.alpha, powers, orders)
    coef = fit_rows(y, x, ridge)
    return coef, relative_residual(y, x, coef)


def snap_integer_orders(
    source: FeatureSource, res: DiscoveryResult, cfg: DiscoveryConfig
) -> DiscoveryResult:
    """Replace orders within ``SNAP_TOL`` of an integer by it when the refitted exact model's
    ``log10 E_fit`` rises by at most the selection margin (module docstring)."""
    eq = res.final
    orders = np.array([t.order for t in eq.terms], dtype=float)
    near = np.rint(orders)
    snap = (np.abs(orders - near) <= SNAP_TOL) & (orders != near) & (near >= 1.0)
    snap &= (near >= cfg.beta_range[0]) & (near <= cfg.beta_range[1])
    if not snap.any():
        return res
    ridge = cfg.search.ridge if cfg.refine.ridge is None else cfg.refine.ridge
    new_orders = np.where(snap, near, orders)
    coef, fit = _refit(source, eq, new_orders, ridge)
    rise = np.log10(fit + EPS_REL) - np.log10(res.fit_error + EPS_REL)
    if not np.all(np.isfinite(coef)) or rise > cfg.selection.margin:
        return res
    terms = tuple(
        Term(t.power, float(b), float(c), t.direction)
        for t, b, c in zip(eq.terms, new_orders, coef)
    )
    final = Equation(eq.mode, eq.alpha, terms, eq.operator).canonical()
    return dataclasses.replace(res, final=final, fit_error=float(fit))


def method_notes(method: str, exact_target: bool, two_d: bool, domain: str) -> list[FitWarning]:
    """Say where a method's components do not apply (never a silent substitution)."""
    if not exact_target or (not two_d and domain != "bounded"):
        return []
    where = "2-D fields" if two_d else "bounded windows"
    what = "the exact time target and noise-aware scoring"
    return [
        FitWarning(
            "method_components",
            f"{what} of method={method} are 1-D periodic only: {where} use the paper's L1 time "
            "target without noise scoring (the method's other settings still apply, so the "
            "result can differ from method=weak_pareto_robust)",
            "info",
        )
    ]
