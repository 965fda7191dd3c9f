"""What a record is, as ``WeakPareto`` / ``wp discover`` options (ours): where it starts
(``history=``), what its noise is (``noise_kind=``), and which estimate of a selected model is
reported (``refit=``).

``history``: ``none`` (default), the record's first sample is the process's onset; ``unknown``,
the process started earlier and the memory of the unobserved past is modelled
(:mod:`weakpareto.library.history`, :mod:`weakpareto.fit.history`; ``method=weak_pareto_exact``).
``noise_kind``: ``measurement`` (default), noise added by the measurement; ``intrinsic``,
fluctuations that obey the dynamics (densities of moving particles,
:mod:`weakpareto.fit.intrinsic`).
``refit``: ``auto`` (default), a linear model on a periodic 1-D field is refitted to the
samples' trajectory (:mod:`weakpareto.fit.trajectory`); ``weak``, the weak estimate;
``trajectory``, the refit or a one-line refusal.
"""

from __future__ import annotations

import dataclasses
from typing import Any, cast

from weakpareto.errors import check_choice
from weakpareto.fit.intrinsic import check_noise_kind
from weakpareto.fit.spec import FitSpec
from weakpareto.fit.trajectory import check_refit
from weakpareto.library.history import HISTORY_MODELS, HistoryModel


def check_history(value: Any) -> HistoryModel:
    """The validated ``history=`` value."""
    hint = "unknown: the record starts after the process's onset"
    return cast(HistoryModel, check_choice("history", value, HISTORY_MODELS, hint))


def with_history(spec: FitSpec, value: Any) -> FitSpec:
    """The spec with its history model (unchanged for ``none``)."""
    model = check_history(value)
    return spec if model == "none" else dataclasses.replace(spec, history=model)


def with_noise(spec: FitSpec, value: Any) -> FitSpec:
    """The spec with its noise kind (unchanged for ``measurement``): ``intrinsic`` corrects the
    final model for fluctuations that obey the dynamics (:mod:`weakpareto.fit.intrinsic`)."""
    kind = check_noise_kind(value)
    return spec if kind == "measurement" else dataclasses.replace(spec, noise_kind=kind)


def with_refit(spec: FitSpec, value: Any) -> FitSpec:
    """The spec with its final estimate (:mod:`weakpareto.fit.trajectory`)."""
    kind = check_refit(value)
    return spec if kind == spec.refit else dataclasses.replace(spec, refit=kind)
