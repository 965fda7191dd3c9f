"""The grid record of a fit (``WeakPareto.grid_``, the JSON's ``"grid"``) in the data's units.

One field: its grid, power mode, test counts, domain and which estimate the equation is
(``refit``, :func:`refit_record`) (:func:`field_grid`). Several
experiments of one equation: their number, the power mode, the domain and one record per
experiment (:func:`experiment_grids`), each with its 1-based ``experiment`` number and its
number of weak equations ``rows`` (:func:`experiments_grid`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from weakpareto.fit.run import FitOutcome
from weakpareto.fit.sampling import sampled_record
from weakpareto.library.gram import FeatureSource
from weakpareto.library.history import HistorySource
from weakpareto.library.pooled import parts_of
from weakpareto.user.sampled_field import sampling_record
from weakpareto.user.validation import CheckedField, CheckedField2D

Checked = CheckedField | CheckedField2D


def field_grid(field: Checked, outcome: FitOutcome) -> dict[str, Any]:
    """The grid record of a fit of one field in the data's units (``grid_``)."""
    shape = getattr(outcome.source, "shape", None)  # test counts of the weak sources
    counts = [] if shape is None else [int(k) for k in shape]
    if isinstance(field, CheckedField2D):
        nt, nx, ny = field.shape
        grid: dict[str, Any] = {
            "nt": nt,
            "nx": nx,
            "ny": ny,
            "dt": field.dt,
            "dx": field.dx,
            "dy": field.dy,
            "period": field.period,
            "period_y": field.period_y,
            "test_counts": counts,
            "dropped_endpoint": field.dropped_endpoint,
            "dropped_endpoint_y": field.dropped_endpoint_y,
        }
    else:
        grid = {
            "nt": field.shape[0],
            "nx": field.shape[1],
            "dt": field.dt,
            "dx": field.dx,
            "period": field.period,
            "power_mode": outcome.power_mode,
            "test_counts": counts,
            "dropped_endpoint": field.dropped_endpoint,
        }
    grid.update(outcome.domain.to_dict())
    grid["refit"] = refit_record(outcome)
    if isinstance(outcome.source, HistorySource):
        grid["history"] = outcome.source.history_record()
    if isinstance(field, CheckedField) and (field.irregular or field.missing is not None):
        grid["sampling"] = sampling_record(field, sampled_record(outcome.source))
    return grid


def experiment_grids(
    fields: Sequence[Checked], parts: Sequence[FeatureSource]
) -> list[dict[str, Any]]:
    """One grid record per experiment in the data's units: ``experiment`` (1-based), ``rows``
    (its weak equations), ``nt``, ``nx`` [``ny``], steps, time span, periods and the
    ``test_counts`` of its feature source ``parts[k]``."""
    out = []
    for k, (f, part) in enumerate(zip(fields, parts, strict=True)):
        shape = getattr(part, "shape", None)  # test counts of the weak sources
        rec: dict[str, Any] = {
            "experiment": k + 1,
            "rows": int(part.n_rows),
            "nt": int(f.u.shape[0]),
            "nx": int(f.u.shape[1]),
            "dt": float(f.dt),
            "dx": float(f.dx),
            "t0": float(f.t[0]),
            "t_end": float(f.t[-1]),
            "period": float(f.period),
            "test_counts": [] if shape is None else [int(c) for c in shape],
            "dropped_endpoint": bool(f.dropped_endpoint),
        }
        if isinstance(f, CheckedField2D):
            rec.update(
                ny=int(f.u.shape[2]),
                dy=float(f.dy),
                period_y=float(f.period_y),
                dropped_endpoint_y=bool(f.dropped_endpoint_y),
            )
        out.append(rec)
    return out


def experiments_grid(
    fields: tuple[CheckedField | CheckedField2D, ...], outcome: FitOutcome
) -> dict[str, Any]:
    """The grid record of several experiments (``grid_``): their number, the power mode, the
    domain and one record per experiment (:func:`experiment_grids`)."""
    assert outcome.source is not None  # a pooled fit is a weak Pareto fit
    grid: dict[str, Any] = {
        "n_experiments": len(fields),
        "power_mode": outcome.power_mode,
        "experiments": experiment_grids(fields, parts_of(outcome.source)),
    }
    grid.update(outcome.domain.to_dict())
    grid["refit"] = refit_record(outcome)
    return grid


def refit_record(outcome: FitOutcome) -> dict[str, Any]:
    """Which estimate the final equation is (:mod:`weakpareto.fit.trajectory`): ``weak``, or
    ``trajectory`` with the Fourier modes and frames it used and the samples' rms misfit (share
    of their signal) at the weak estimate and after, or ``one_step`` (noise that moves with the
    dynamics: :mod:`weakpareto.fit.markov_refit`) with its modes, frames and chi-square per
    degree of freedom; with ``history=unknown`` the onset's delay
    before the record as a fraction of its duration (:mod:`weakpareto.fit.history_onset`); for
    a nonlinear model the stepper's steps per frame (:mod:`weakpareto.fit.nonlinear_refit`)."""
    timings = outcome.result.timings
    if "trajectory_markov_modes" in timings:
        return {
            "estimate": "one_step",
            "asked": outcome.refit_asked,
            "modes": int(timings["trajectory_markov_modes"]),
            "frames": int(timings["trajectory_markov_frames"]),
            "chi2_per_dof": float(timings["trajectory_markov_chi2"]),
        }
    if "trajectory_modes" not in timings:
        return {"estimate": "weak", "asked": outcome.refit_asked}
    record = {
        "estimate": "trajectory",
        "asked": outcome.refit_asked,
        "modes": int(timings["trajectory_modes"]),
        "frames": int(timings["trajectory_frames"]),
        "rms_misfit_weak": float(np.sqrt(timings["trajectory_residual_start"])),
        "rms_misfit": float(np.sqrt(timings["trajectory_residual"])),
    }
    if "trajectory_onset_delay" in timings:
        record["onset_before_record"] = float(timings["trajectory_onset_delay"])
    if "trajectory_substeps" in timings:  # a nonlinear model, solved by the stepper
        record["stepper_substeps"] = int(timings["trajectory_substeps"])
    return record


def experiment_rows(grid: dict[str, Any]) -> tuple[int, ...]:
    """Weak equations per experiment from a grid record (one experiment: the product of its
    test counts; none for methods without weak equations)."""
    if "experiments" in grid:
        return tuple(int(e["rows"]) for e in grid["experiments"])
    counts = grid.get("test_counts") or []
    return (int(np.prod(counts)),) if counts else ()
