"""The operator family of a fit whose ``operator`` was not given.

Without ``operator``, each term's family is chosen by the data (``operator=auto``: directional
or Riesz per term, docs/user-guide.md#the-model-class) wherever that search is implemented; where
it is not (2-D data, a bounded window, bootstrap uncertainty, known forcing, an unobserved
history, the intrinsic-noise correction, methods other than the weak Pareto search) the
directional family of the paper is fitted and an info note says why. The decision replays the
refusals :func:`weakpareto.fit.run.fit` makes before it computes (:func:`preflight`: the same
functions in the same order), so a refusal added there belongs in both.
"""

from __future__ import annotations

from collections.abc import Callable

from weakpareto.errors import UserInputError
from weakpareto.fit.checks import FitWarning
from weakpareto.fit.forcing import check_forcing_supported, forcing_of
from weakpareto.fit.history import check_history_supported
from weakpareto.fit.intrinsic import check_intrinsic_supported
from weakpareto.fit.kinds import check_supported
from weakpareto.fit.run import data_domain
from weakpareto.fit.sources import FitData
from weakpareto.fit.spec import FitSpec

#: what ``operator`` means when it is not given, and the family fitted where that cannot apply
DEFAULT_OPERATOR = "auto"
FALLBACK_FAMILY = "directional"


def preflight(spec: FitSpec, data: FitData) -> None:
    """The refusals :func:`weakpareto.fit.run.fit` raises before computing, for ``data`` in
    grid units (the users' door rescales); a one-line ``UserInputError`` or nothing."""
    domain = data_domain(spec.domain, data).domain
    check_supported(spec, data.two_d, domain, rescaled=True, n_experiments=len(data.fields))
    if forcing_of(data):
        check_forcing_supported(spec, data, domain)
    if spec.noise_kind == "intrinsic":
        check_intrinsic_supported(spec, data, domain)
    if spec.history != "none":
        check_history_supported(spec, data, domain)


def default_operator_spec(
    spec_of: Callable[[str], FitSpec], data: FitData | None = None
) -> tuple[FitSpec, list[FitWarning]]:
    """The spec of ``operator=auto`` where it applies (to ``data`` when given, else to the
    parameters alone), otherwise that of the directional family with an info note naming the
    reason. ``spec_of(operator)`` builds and checks the spec of the other parameters; an error
    that the directional family meets as well is the user's to see and is raised."""
    try:
        spec = spec_of(DEFAULT_OPERATOR)
        if data is not None:
            preflight(spec, data)
        return spec, []
    except UserInputError as err:
        reason = str(err)
    spec = spec_of(FALLBACK_FAMILY)
    if data is not None:
        preflight(spec, data)
    note = FitWarning(
        "operator_default",
        f"operator not given: the {FALLBACK_FAMILY} family was fitted, as operator=auto (each "
        f"term's family chosen by the data) does not apply here: {reason}",
        "info",
    )
    return spec, [note]


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
