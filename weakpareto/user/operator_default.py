"""The operator family of a fit whose ``operator`` was not given.

Without ``operator``, each term's family is chosen by the data (``operator=auto``: directional
or Riesz per term, docs/user-guide.md#the-model-class) wherever that search is implemented.
Options that fit one family (``uncertainty=``, ``history=``, ``noise_kind=intrinsic``) take the
family an ``operator=auto`` fit without them chooses
(:func:`resolve_operator`): the two-step fit their refusal of ``operator=auto`` advises, done for
the user; when that fit needs both families the option cannot be fitted and the error says so.
Where the per-term search is not implemented at all (2-D data, a bounded window, methods other
than the weak Pareto search) the directional family of the paper is fitted and an info note says
why. Both decisions are taken on the refusals :func:`weakpareto.fit.run.fit` makes before it
computes (:func:`preflight`: its own :func:`weakpareto.fit.run.plan_fit`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import cast

from weakpareto.errors import UserInputError
from weakpareto.fit.checks import FitWarning
from weakpareto.fit.run import plan_fit
from weakpareto.fit.sources import FitData
from weakpareto.fit.spec import FitSpec
from weakpareto.records import Equation, Family

#: what ``operator`` means when it is not given, and the family fitted where that cannot apply
DEFAULT_OPERATOR = "auto"
FALLBACK_FAMILY: Family = "directional"
#: orders this close to 2 are nearly one operator in both families (``(i k)^2 = -|k|^2``; at
#: ``2 -+ 0.05`` the symbols differ by an odd part of 8 %, which the one-family refit's own
#: search then absorbs): a plain fit's ``R^1.99`` beside ``D_x^1`` still fits one family
SAME_AT_TWO = 0.05


def preflight(spec: FitSpec, data: FitData) -> None:
    """The refusals :func:`weakpareto.fit.run.fit` raises before computing, for ``data`` in
    grid units (the users' door rescales); a one-line ``UserInputError`` or nothing."""
    plan_fit(data, spec, rescaled=True)


def options_text(spec: FitSpec) -> str:
    """The one-family options of a fit, as the user wrote them ("" for none)."""
    given = [
        "uncertainty=bootstrap" if spec.uncertainty is not None else "",
        f"history={spec.history}" if spec.history != "none" else "",
        "noise_kind=intrinsic" if spec.noise_kind == "intrinsic" else "",
    ]
    return ", ".join(g for g in given if g)


def distinct_families(eq: Equation) -> set[Family]:
    """The families of ``eq``'s terms where the families differ (the identity and orders
    within :data:`SAME_AT_TWO` of 2 fit either)."""
    return {
        cast(Family, t.family_in(eq.operator))
        for t in eq.terms
        if not t.is_identity and abs(t.order - 2.0) > SAME_AT_TWO
    }


def one_family(eq: Equation) -> Family | None:
    """The one family every term of ``eq`` is in (order 2 and the identity fit either), or
    None when it needs two."""
    families = distinct_families(eq)
    if len(families) > 1:
        return None
    return families.pop() if families else FALLBACK_FAMILY


@dataclasses.dataclass(frozen=True)
class OperatorChoice:
    """How a fit without ``operator`` proceeds: with ``spec`` (and its ``notes``), or, when
    ``family_fit`` is set, with the family an ``operator=auto`` fit of that spec (the options
    that fit one family left out) puts every term in."""

    spec: FitSpec
    notes: tuple[FitWarning, ...] = ()
    family_fit: FitSpec | None = None


def default_operator_spec(spec_of: Callable[[str], FitSpec]) -> FitSpec:
    """What the parameters alone decide: the ``auto`` spec, or the directional one where
    ``auto`` is refused before any data."""
    return choose_operator(spec_of, None).spec


def choose_operator(
    spec_of: Callable[[str], FitSpec],
    data: FitData | None,
    plain_spec_of: Callable[[str], FitSpec] | None = None,
) -> OperatorChoice:
    """``operator=auto`` where it applies to ``data`` (to the parameters alone when None);
    where only one-family options refuse it, the plain ``auto`` fit that picks the family
    (``plain_spec_of(operator)``: the spec without those options); else the directional family
    with an info note. ``spec_of(operator)`` builds and checks the spec of the parameters; an
    error the directional family meets as well is raised."""
    try:
        auto = spec_of(DEFAULT_OPERATOR)
        if data is not None:
            preflight(auto, data)
        return OperatorChoice(auto)
    except UserInputError as err:
        reason = str(err)
    one = spec_of(FALLBACK_FAMILY)
    if data is None:
        return OperatorChoice(one)
    preflight(one, data)
    if plain_spec_of is not None and options_text(one):
        try:
            auto_plain = plain_spec_of(DEFAULT_OPERATOR)
            preflight(auto_plain, data)
        except UserInputError:
            pass  # not the options alone: the directional family below
        else:
            return OperatorChoice(one, (), auto_plain)
    note = FitWarning(
        "operator_default",
        f"operator not given: the {FALLBACK_FAMILY} family was fitted, as operator=auto (each "
        f"term's family chosen by the data) does not apply here: {reason}",
        "info",
    )
    return OperatorChoice(one, (note,))


def resolve_operator(
    spec_of: Callable[[str], FitSpec],
    plain_spec_of: Callable[[str], FitSpec],
    data: FitData,
    fit_equation: Callable[[FitSpec, FitData], Equation],
) -> tuple[FitSpec, list[FitWarning]]:
    """The spec of a fit without ``operator`` on ``data`` and its notes: ``auto``; for options
    that fit one family, the family a plain ``auto`` fit (``fit_equation``) puts every term in;
    or the directional family (:func:`choose_operator`)."""
    choice = choose_operator(spec_of, data, plain_spec_of)
    if choice.family_fit is None:
        return choice.spec, list(choice.notes)
    options = options_text(choice.spec)
    eq = fit_equation(choice.family_fit, data)
    family = one_family(eq)
    if family is None:
        raise two_families_error(options, eq)
    return spec_of(family), [family_note(options, family)]


def family_note(options: str, family: Family) -> FitWarning:
    """The info note of a family chosen by a plain ``operator=auto`` fit."""
    return FitWarning(
        "operator_default",
        f"operator not given: {options} fits one operator family, and an operator=auto fit "
        f"without it put every term in the {family} family, so operator={family} was fitted",
        "info",
    )


def two_families_error(options: str, eq: Equation) -> UserInputError:
    """The refusal when the data need two families and an option fits one."""
    names = ", ".join(sorted({t.family_in(eq.operator) for t in eq.terms if not t.is_identity}))
    return UserInputError(
        f"operator not given, and {options} fits one operator family while an operator=auto fit "
        f"without it needs {names} terms ({eq.text(sig_digits=3)}, in grid units); fit without "
        f"{options}, or give operator=directional or operator=riesz"
    )


def searched_operator(spec: FitSpec) -> str:
    """The searched operator as printed and stored (``grid_["operator"]``): one family, or
    (``operator=auto``, joined or tempered families) the families per term, with the tempering
    lambda when given."""
    if spec.families and spec.tempered:
        lam = "estimated" if spec.tempering is None else f"{spec.tempering:g}"
        return f"{'+'.join(spec.families)} (tempering lambda {lam})"
    if spec.families:
        return f"auto ({' or '.join(spec.families)} per term)"
    return str(spec.discovery.operator)
