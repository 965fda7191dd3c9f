"""The diagnostics of a fit at the users' door: every check of :func:`weakpareto.fit.checks.
diagnose` on the dimensionless result, or a note saying why none could run."""

from __future__ import annotations

from collections.abc import Sequence

from weakpareto.fit.checks import FitContext, FitWarning, diagnose, noise_note
from weakpareto.fit.intrinsic import intrinsic_applied
from weakpareto.fit.run import FitOutcome
from weakpareto.library.noise_level import pooled_noise_level
from weakpareto.records import DiscoveryResult
from weakpareto.user.validation import CheckedField, CheckedField2D


def fit_checks(
    outcome: FitOutcome,
    raw: DiscoveryResult,
    unitless_fields: Sequence[CheckedField | CheckedField2D],
    method: str,
) -> tuple[list[FitWarning], float, float | None]:
    """``(warnings, noise level, noise floor)`` of the dimensionless result ``raw`` of
    ``outcome`` on the dimensionless fields (one per experiment)."""
    level = pooled_noise_level([f.u for f in unitless_fields])
    if outcome.source is None:
        return (
            [
                FitWarning(
                    "no_diagnostics",
                    f"method={method} builds its own features: the fit checks (bounds, "
                    "misfit, noise floor) were not run; compare with method=weak_pareto_robust",
                    "info",
                ),
                noise_note(level),
            ],
            level,
            None,
        )
    cfg = outcome.spec.discovery
    ctx = FitContext(
        source=outcome.source,
        result=raw,
        alpha_range=cfg.alpha_range,
        beta_range=cfg.beta_range,
        powers=tuple(cfg.powers),
        max_terms=cfg.c_max,
        ridge=cfg.search.ridge,
        operator=cfg.operator,
        two_d=isinstance(unitless_fields[0], CheckedField2D),
        u=unitless_fields[0].u,
        seed=cfg.seed,
        fields=tuple(f.u for f in unitless_fields) if len(unitless_fields) > 1 else (),
        noise_kind="intrinsic" if intrinsic_applied(outcome.notes) else "measurement",
    )
    return diagnose(ctx)
