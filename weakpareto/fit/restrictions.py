"""What the fit extensions built on one periodic 1-D field share: their refusals and their
noise-scoring note.

Known forcing (:mod:`weakpareto.fit.forcing`) and the unknown-history model
(:mod:`weakpareto.fit.history`) both change the weak rows of one periodic 1-D field, so both are
refused on 2-D data, on several experiments and on bounded windows, and both switch the
noise-aware scoring off (its covariance describes the unchanged rows).
"""

from __future__ import annotations

import dataclasses

from weakpareto.errors import UserInputError
from weakpareto.fit.context import FitWarning
from weakpareto.fit.sources import FitData
from weakpareto.fit.spec import FitSpec


def require_one_periodic_1d_field(
    what: str, data: FitData, domain: str, fallback: str, bounded_reason: str = ""
) -> None:
    """A one-line ``UserInputError`` naming ``what`` unless the data are one periodic 1-D field;
    ``fallback`` is the fix that always works (e.g. "fit without forcing")."""
    if data.two_d:
        raise UserInputError(f"{what} is 1-D only; {fallback} for 2-D data")
    if len(data.fields) > 1:
        raise UserInputError(f"{what} needs one experiment; fit the experiments one at a time")
    if domain != "periodic":
        raise UserInputError(
            f"{what} is periodic only{bounded_reason}; pass domain=periodic if the data are "
            f"periodic, or {fallback}"
        )


def without_noise_scoring(spec: FitSpec, rows: str) -> tuple[FitSpec, list[FitWarning]]:
    """The spec without noise-aware scoring and the note that says so; ``rows`` says which weak
    rows its covariance describes."""
    if spec.discovery.noise_model == "none":
        return spec, []
    note = FitWarning(
        "method_components",
        f"the noise-aware scoring of method={spec.method} models {rows}: the search scores "
        "without it (the exact time target is kept)",
        "info",
    )
    discovery = dataclasses.replace(spec.discovery, noise_model="none")
    return dataclasses.replace(spec, discovery=discovery), [note]


def check_tempering_supported(spec: FitSpec, data: FitData, domain: str) -> None:
    """A one-line ``UserInputError`` where the tempered families (docs/method/tempered.md) have
    no implementation: they are periodic Fourier multipliers searched by the weak Pareto
    method on 1-D fields (several experiments of one equation included)."""
    if not spec.tempered:
        return
    what = f"operator={'+'.join(spec.families)} (a tempered family)"
    if spec.kind != "pareto" or spec.features != "weak":
        raise UserInputError(
            f"{what} is searched by the weak Pareto method; method={spec.method} has no tempered "
            "columns: use method=weak_pareto_robust (or weak_pareto, weak_pareto_exact)"
        )
    if data.two_d:
        raise UserInputError(f"{what} is 1-D only; for 2-D data give operator=directional/riesz")
    if domain != "periodic":
        raise UserInputError(
            f"{what} is periodic only (a Fourier multiplier on the period); pass domain=periodic "
            "if the data are periodic, or fit the bounded window with operator=directional/riesz"
        )
    if spec.uncertainty is not None:
        raise UserInputError(
            f"uncertainty=bootstrap is not implemented for {what}; fit without uncertainty="
        )
    if spec.history != "none":
        raise UserInputError(f"history={spec.history} is not implemented for {what}")
    if any(f.forcing for f in data.fields):
        raise UserInputError(f"known forcing (forcing=) is not implemented for {what}")
