"""tab_uncertainty and tab_calibration: coverage of the bootstrap intervals and their calibration.

Both live in ``results/uncertainty``.

* tab_uncertainty (``scripts/uncertainty_table.py``): ``tab_uncertainty.csv`` is
  :func:`weakpareto.reporting.uncertainty_table.coverage_table`; its sidecar holds the
  calibration of the calibrated columns, the benchmarks the comparison pair was fitted on and
  that pair. Rendered by :mod:`weakpareto.reporting.uncertainty_table` (Markdown and LaTeX).
* tab_calibration (``scripts/calibrate_intervals.py``): ``tab_calibration.csv`` is the coverage
  summary (:func:`weakpareto.reporting.interval_calibration.coverage_summary`, per position and,
  column ``by``, per noise level), ``calibration_runs.csv`` one row per run (the exclusions),
  ``calibration_records.csv`` one row per record with its coverage under the fitted constants
  (the per-equation table); the sidecar holds the split (level, bootstrap size, noise, seeds,
  the equations of each set) and the previous and fitted constants. Markdown only.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from weakpareto.method.intervals import Calibration, parse_calibration
from weakpareto.reporting.interval_calibration import (
    MIN_RUNS,
    TARGET,
    describe,
    markdown_rows,
    per_equation,
    per_equation_rows,
    records_frame,
    target_met,
)
from weakpareto.reporting.studies.common import csv_path, read_notes, read_table
from weakpareto.reporting.uncertainty_table import render_latex, render_markdown

UNCERTAINTY_STEM = "tab_uncertainty"
CALIBRATION_STEM = "tab_calibration"
#: The other CSVs of tab_calibration, beside ``tab_calibration.csv``.
CALIBRATION_RUNS = "calibration_runs"
CALIBRATION_RECORDS = "calibration_records"
#: Calibrations of tab_calibration's columns, in their order.
CALIBRATION_NAMES = ("previous", "fitted")
EXCLUSION_REASONS = (
    ("support", "with other selected terms than the truth's"),
    ("branch", "with the right terms on another temporal branch"),
    ("failed", "failed fits"),
)


def constants(cal: Mapping[str, Calibration]) -> dict[str, dict[str, Any]]:
    """Per quantity ``factor``, ``floor``, ``relative`` (the sidecars' form of a calibration)."""
    return {
        q: {"factor": c.factor, "floor": c.floor, "relative": c.relative} for q, c in cal.items()
    }


def _calibration(block: Mapping[str, Any]) -> dict[str, Calibration]:
    return parse_calibration({"quantities": block})


# -- tab_uncertainty ------------------------------------------------------------------------------
def uncertainty_notes(
    cal: Mapping[str, Calibration], fit: Sequence[str], refit: Mapping[str, Calibration]
) -> dict[str, Any]:
    """The sidecar of tab_uncertainty: ``cal`` calibrates the table's columns, ``refit`` is the
    pair these runs give on the ``fit`` benchmarks."""
    return {"calibration": constants(cal), "fit": list(fit), "refit": constants(refit)}


def render_uncertainty(directory: str | os.PathLike) -> dict[str, str]:
    """``{".md": ..., ".tex": ...}`` from ``tab_uncertainty.csv`` and ``.json``."""
    table = read_table(csv_path(directory, UNCERTAINTY_STEM))
    info = read_notes(directory, UNCERTAINTY_STEM)
    cal, refit = _calibration(info["calibration"]), _calibration(info["refit"])
    level = float(table["level"].iloc[0])
    return {
        ".md": render_markdown(table, cal, refit, list(info["fit"]), level),
        ".tex": render_latex(table, cal, level),
    }


# -- tab_calibration ------------------------------------------------------------------------------
#: The split of ``make reproduce-calibration``.
DEFAULT_SPLIT = "scripts/calibration_split.yaml"


def calibration_notes(
    split: Mapping[str, Any],
    cals: Mapping[str, Mapping[str, Calibration]],
    package: str | None = None,
    split_file: str = DEFAULT_SPLIT,
) -> dict[str, Any]:
    """The sidecar of tab_calibration from the split (the content of ``split_file``), the
    ``previous`` and ``fitted`` constants and, when given, which of them the package holds
    (``"previous"`` when the fitted ones were not written to it). A split other than the
    default one also records its file and the held-out noise seeds (fresh seeds, say)."""
    sets = {
        name: [*split[name].get("benchmarks", []), *split[name].get("exact", [])]
        for name in ("calibration", "held_out", "outside_scope")
    }
    return {
        "split": {
            "level": float(split["level"]),
            "n_boot": int(split["n_boot"]),
            "noise_law": str(split["noise_law"]),
            "noise": [float(n) for n in split["noise"]],
            "seeds": len(split["calibration"]["seeds"]),
            "sets": sets,
            **(
                {}
                if split_file == DEFAULT_SPLIT
                else {"file": split_file, "held_out_seeds": list(split["held_out"]["seeds"])}
            ),
        },
        "calibrations": {name: constants(cals[name]) for name in CALIBRATION_NAMES},
        **({} if package is None else {"package": package}),
    }


def exclusion_lines(runs: pd.DataFrame) -> list[str]:
    """Per set: runs, runs kept (``excluded`` empty), runs excluded by reason."""
    lines = []
    for s, g in runs.groupby("set", sort=False):
        reasons = g["excluded"].value_counts()
        parts = [f"{int(reasons.get(k, 0))} {what}" for k, what in EXCLUSION_REASONS
                 if reasons.get(k, 0)]  # fmt: skip
        kept = int((g["excluded"] == "").sum())
        why = "; excluded: " + ", ".join(parts) if parts else ""
        lines.append(f"- {s}: {len(g)} runs, {kept} kept{why}")
    return lines


def calibration_markdown(
    summary: pd.DataFrame,
    runs: pd.DataFrame,
    records: pd.DataFrame,
    info: Mapping[str, Any],
) -> str:
    """tab_calibration: the split, the exclusions, the constants, the target's verdict, the
    coverage per position and per noise level, and the coverage per equation."""
    split = info["split"]
    cals = {name: _calibration(info["calibrations"][name]) for name in CALIBRATION_NAMES}
    by_position = summary[summary["by"] == "position"]
    by_noise = summary[summary["by"] == "noise"]
    level = float(split["level"])
    met = target_met(by_position, "fitted")
    sets = split["sets"]
    names = list(CALIBRATION_NAMES)
    lines = [
        "# tab_calibration: bootstrap intervals calibrated on some equations, judged on others",
        "",
        f'{100 * level:g} % intervals of `WeakPareto(uncertainty="bootstrap", '
        f"n_boot={split['n_boot']})` (default method), "
        + (
            f"`python scripts/calibrate_intervals.py --split {split['file']}`"
            if "file" in split
            else "`make reproduce-calibration` (scripts/calibrate_intervals.py, split "
            f"{DEFAULT_SPLIT})"
        )
        + ". Noise "
        f"{', '.join(f'{100 * n:g} %' for n in split['noise'])} ({split['noise_law']}), "
        f"{split['seeds']} noise seeds per equation and level"
        + (
            f"; held-out noise seeds {', '.join(str(s) for s in split['held_out_seeds'])}."
            if "held_out_seeds" in split
            else "."
        ),
        "",
        f"- calibration set: {', '.join(sets['calibration'])}",
        f"- held-out set: {', '.join(sets['held_out'])}",
        f"- outside scope (reported only): {', '.join(sets['outside_scope'])}",
        "",
        "Only runs whose selected terms and temporal branch equal the truth's count (the "
        "intervals are conditional on both):",
        "",
        *exclusion_lines(runs),
        "",
        f"Fitted on the calibration set only: **{describe(cals['fitted'])}** (each side's "
        "distance from the estimate × factor + floor; ξ's floor relative to |ξ|). Previous: "
        f"{describe(cals['previous'])}. Coverage: records whose calibrated interval holds "
        "the truth; 95 % bounds: exact binomial (Clopper-Pearson) of the fitted column. "
        "Widths: medians, ξ relative to |ξ|. α counts fractional-branch runs; β_j is the "
        "truth's j-th non-identity order, ξ_j its j-th coefficient.",
        "",
        f"Target (held-out, every parameter): fitted coverage ≥ {100 * TARGET:g} % over ≥ "
        f"{MIN_RUNS} runs — **{'met' if met else 'missed'}**.",
        *_package_lines(info.get("package"), by_position),
        "",
        *markdown_rows(by_position, names),
        "",
        "Per noise level (pooled over positions):",
        "",
        *markdown_rows(by_noise, names),
        "",
        "Per equation (fitted constants; positions and noise levels pooled):",
        "",
        *per_equation_rows(per_equation(records_frame(records), cals["fitted"])),
    ]
    return "\n".join(lines) + "\n"


def calibration_inputs(directory: str | os.PathLike) -> list[Path]:
    """The CSVs tab_calibration is rendered from, beside its sidecar."""
    return [csv_path(directory, s) for s in (CALIBRATION_RUNS, CALIBRATION_RECORDS)]


def render_calibration(directory: str | os.PathLike) -> dict[str, str]:
    """``{".md": ...}`` from ``tab_calibration.csv``, ``calibration_runs.csv``,
    ``calibration_records.csv`` and ``tab_calibration.json``."""
    summary = read_table(csv_path(directory, CALIBRATION_STEM))
    runs = read_table(csv_path(directory, CALIBRATION_RUNS), text=("excluded",))
    records = read_table(csv_path(directory, CALIBRATION_RECORDS))
    info = read_notes(directory, CALIBRATION_STEM)
    return {".md": calibration_markdown(summary, runs, records, info)}


def _package_lines(package: str | None, by_position: pd.DataFrame) -> list[str]:
    """The constants the package keeps when they are not the fitted ones, with their verdict."""
    if package != "previous":
        return []
    met = target_met(by_position, "previous")
    return [
        "",
        "The package keeps the previous constants (weakpareto/data/interval_calibration.json); "
        f"held-out coverage with them ≥ {100 * TARGET:g} % over ≥ {MIN_RUNS} runs for every "
        f"parameter — **{'met' if met else 'missed'}** (column 'Coverage (previous)').",
    ]
