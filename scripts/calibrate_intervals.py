"""Interval calibration fitted on one set of equations and judged on another (tab_calibration).

The split is fixed in ``scripts/calibration_split.yaml``: paper benchmarks and some exact
Mittag-Leffler equations calibrate, other exact equations are held out. Every run fits one noisy
field with ``WeakPareto(..., uncertainty="bootstrap")`` (default method) and records, for a run
whose selected support and branch equal the truth's, the raw percentile interval of every
parameter (:mod:`weakpareto.reporting.interval_calibration`). The factor and floor per quantity
are fitted on the calibration set only; the table sets in-sample coverage beside out-of-sample
coverage with Clopper-Pearson bounds and median widths. Runs are appended to
``<out-dir>/calibration_runs.jsonl`` as they finish, so an interrupted run resumes.

Writes ``<out-dir>/tab_calibration.csv``, ``calibration_records.csv``, ``calibration_runs.csv``,
``calibration_fit.json`` and the sidecar ``tab_calibration.json`` (the split and the constants);
``tab_calibration.md`` is rendered from those files
(:mod:`weakpareto.reporting.studies.uncertainty`, also by ``wp report``).
``--write-package-data`` also writes the fitted constants to
``weakpareto/data/interval_calibration.json``, ``--test-data PATH`` the held-out records (the
coverage test's data)::

    python scripts/calibrate_intervals.py [--out-dir results/uncertainty] [--workers 2]
        [--write-package-data] [--test-data tests/data/interval_calibration_heldout.csv]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml
from threadpoolctl import threadpool_limits

from weakpareto import WeakPareto
from weakpareto.benchmarks.catalogue import load_benchmark, plain_config
from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.campaign.compute import NUMERICAL_FAILURES
from weakpareto.errors import UserInputError
from weakpareto.evaluation.metrics import Metrics, score, truth_equation
from weakpareto.fit.run import bootstrap_fit, fit
from weakpareto.io import write_csv_atomic, write_json_atomic
from weakpareto.method.intervals import (
    CALIBRATION,
    CALIBRATION_FILE,
    RAW,
    Calibration,
    parse_calibration,
    read_calibration_file,
)
from weakpareto.records import Equation
from weakpareto.reporting.interval_calibration import (
    RECORD_COLUMNS,
    IntervalRecord,
    coverage_summary,
    covered,
    describe,
    fit_calibration,
    records_frame,
    target_met,
)
from weakpareto.reporting.studies.common import write_notes
from weakpareto.reporting.studies.registry import write_study
from weakpareto.reporting.studies.uncertainty import CALIBRATION_STEM as STEM
from weakpareto.reporting.studies.uncertainty import calibration_notes
from weakpareto.user.checked_data import check_data
from weakpareto.user.experiments import dimensionless_fields, fit_data
from weakpareto.user.uncertainty_report import Uncertainty, report_uncertainty
from weakpareto.user.validation import check_params

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SPLIT = HERE / "calibration_split.yaml"
CASES = HERE / "independent_cases.yaml"
PACKAGE_FILE = HERE.parent / "weakpareto" / "data" / CALIBRATION_FILE
#: Orders at most this far from 0 are the identity term (no order interval).
IDENTITY_TOL = 1e-12
UNCALIBRATED = {"alpha": RAW, "beta": RAW, "xi": RAW}


# -- the split ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    """One equation of the split: its field's config and the search settings a user would give."""

    set: str
    name: str
    config: dict[str, Any] = field(hash=False)
    operator: str
    alpha_range: tuple[float, float]
    beta_range: tuple[float, float]
    powers: tuple[int, ...]


@dataclass(frozen=True)
class RunSpec:
    """One run: a case, a noise level and a noise seed, and the bootstrap's settings."""

    case: Case
    noise: float
    seed: int
    noise_law: str
    n_boot: int
    level: float

    def key(self) -> str:
        return f"{self.case.set}/{self.case.name}/{self.noise:g}/{self.seed}"

    def digest(self) -> str:
        """Hash of everything the run's result depends on (a changed split reruns it)."""
        payload = {
            "config": self.case.config,
            "settings": [self.case.operator, self.case.alpha_range, self.case.beta_range,
                         self.case.powers],
            "run": [self.noise, self.seed, self.noise_law, self.n_boot, self.level],
        }  # fmt: skip
        text = json.dumps(payload, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def exact_case(set_name: str, name: str, suite: Mapping[str, Any]) -> Case:
    """An exact Mittag-Leffler equation of the independent suite, as the suite builds it."""
    (entry,) = [c for c in suite["exact"] if c["name"] == name]
    alpha = float(entry["alpha"])
    mode = "int" if alpha == 1.0 else ("sub" if alpha < 1 else "sup")
    terms = [{"power": p, "order": b, "coef": c} for p, b, c in entry["terms"]]
    cfg = {
        "name": name,
        "generator": {"kind": "mittag_leffler", "ic": {"harmonics": suite["ic"]}},
        "grid": dict(suite["grid"]),
        "truth": {"mode": mode, "alpha": alpha, "operator": entry["operator"], "terms": terms},
    }
    s = suite["settings"]
    return Case(
        set_name,
        name,
        cfg,
        str(entry["operator"]),
        (float(s["alpha_range"][0]), float(s["alpha_range"][1])),
        (float(s["beta_range"][0]), float(s["beta_range"][1])),
        tuple(int(p) for p in s["powers"]),
    )


def benchmark_case(set_name: str, name: str) -> Case:
    """A benchmark of ``conf/benchmark``: its field, its search ranges, its truth's operator
    family (the estimator offers ``directional`` and ``riesz``)."""
    cfg = plain_config(load_benchmark(name))
    lib = cfg["library"]
    return Case(
        set_name,
        name,
        cfg,
        str(cfg["truth"]["operator"]),
        (float(lib["alpha_range"][0]), float(lib["alpha_range"][1])),
        (float(lib["beta_range"][0]), float(lib["beta_range"][1])),
        tuple(int(p) for p in lib["powers"]),
    )


def load_split(path: Path = SPLIT, cases: Path = CASES) -> tuple[list[RunSpec], dict[str, Any]]:
    """Every run of the split file, and the file's content."""
    split = yaml.safe_load(path.read_text())
    suite = yaml.safe_load(cases.read_text())
    runs = []
    for set_name in ("calibration", "held_out", "outside_scope"):
        block = split.get(set_name) or {}
        found = [benchmark_case(set_name, b) for b in block.get("benchmarks", [])]
        found += [exact_case(set_name, e, suite) for e in block.get("exact", [])]
        for case in found:
            for noise in split["noise"]:
                for seed in block["seeds"]:
                    runs.append(RunSpec(case, float(noise), int(seed), str(split["noise_law"]),
                                        int(split["n_boot"]), float(split["level"])))  # fmt: skip
    check_disjoint([r.case for r in runs])
    return runs, split


def check_disjoint(cases: Sequence[Case]) -> None:
    """``ValueError`` when one equation (by name or by its true equation) is in two sets."""
    sets: dict[str, set[str]] = {}
    for c in cases:
        truth = truth_equation(c.config)
        for key in (c.name, truth.text()):
            sets.setdefault(key, set()).add(c.set)
    shared = sorted(k for k, v in sets.items() if len(v) > 1)
    if shared:
        raise ValueError(f"in two sets of the split: {', '.join(shared)}")


# -- one run --------------------------------------------------------------------------------------
def fit_raw(
    model: WeakPareto, u: np.ndarray, t: np.ndarray, x: np.ndarray
) -> tuple[Equation, Uncertainty]:
    """The estimator's fit of one 1-D field (as :meth:`WeakPareto.fit`: validated, made
    dimensionless, fitted) and its bootstrap reported in the data's units with the **raw**
    percentile intervals; the equation in the data's units."""
    spec = model.fit_spec()
    params = check_params(model.get_params())
    checked = check_data(params, u, t, x)
    scales, unitless = dimensionless_fields((checked,))
    outcome = fit(fit_data(unitless, False), spec, rescaled=True)
    physical, _ = scales.result(outcome.result)
    eb = bootstrap_fit(outcome, int(model.n_boot), float(model.level))
    operator = outcome.spec.discovery.operator
    unc = report_uncertainty(eb, outcome.result, scales, operator, False, UNCALIBRATED)
    return physical.final, unc


def interval_records(
    spec: RunSpec, unc: Uncertainty, truth: Equation, metrics: Metrics
) -> list[IntervalRecord]:
    """The records of a run whose support and branch are the truth's (module docstring of
    :mod:`weakpareto.reporting.interval_calibration`)."""
    nan = (math.nan, math.nan)
    meta = (spec.case.set, spec.case.name, spec.noise, spec.seed)
    out = []
    if unc.alpha_interval is not None:
        out.append(IntervalRecord(*meta, "alpha", 0, float(truth.alpha), unc.alpha,
                                  *unc.alpha_interval))  # fmt: skip
    n_beta = 0
    for j, (t, i) in enumerate(zip(truth.terms, metrics.matching)):
        assert i is not None  # support recovered: every true term is matched
        est = unc.terms[i]
        if abs(t.order) > IDENTITY_TOL:
            n_beta += 1
            lo, hi = est.order_interval or nan
            out.append(IntervalRecord(*meta, "beta", n_beta, float(t.order), est.order, lo, hi))
        lo, hi = est.coef_interval
        out.append(IntervalRecord(*meta, "xi", j + 1, float(t.coef), est.coef, lo, hi))
    return out


@lru_cache(maxsize=4)
def clean_field(config_json: str) -> Any:
    """The noise-free field of a benchmark config (JSON text, so that it can be cached)."""
    return generate(json.loads(config_json), 0)


def run_one(spec: RunSpec) -> dict[str, Any]:
    """Fit and bootstrap one run; its row (the records only when it is not excluded)."""
    row: dict[str, Any] = {
        "key": spec.key(), "digest": spec.digest(), "set": spec.case.set,
        "equation": spec.case.name, "noise": spec.noise, "seed": spec.seed,
        "n_boot": spec.n_boot, "excluded": "", "estimate": "", "error": "", "records": [],
    }  # fmt: skip
    t0 = time.perf_counter()
    with threadpool_limits(1):
        clean = clean_field(json.dumps(spec.case.config, sort_keys=True))
        u = add_noise(clean.u, spec.noise_law, spec.noise, spec.seed)
        model = WeakPareto(
            operator=spec.case.operator,
            alpha_range=spec.case.alpha_range,
            beta_range=spec.case.beta_range,
            powers=spec.case.powers,
            uncertainty="bootstrap",
            n_boot=spec.n_boot,
            level=spec.level,
        )
        truth = truth_equation(spec.case.config)
        try:
            eq, unc = fit_raw(model, u, clean.t, clean.x)
        except (*NUMERICAL_FAILURES, UserInputError) as err:
            row.update(excluded="failed", error=f"{type(err).__name__}: {err}")
            return row
    m = score(eq, truth)
    row.update(
        estimate=eq.text(sig_digits=4), support_ok=bool(m.support_ok),
        branch_ok=bool(m.branch_ok), seconds=round(time.perf_counter() - t0, 2),
    )  # fmt: skip
    if not m.support_ok:
        row["excluded"] = "support"
    elif not m.branch_ok:
        row["excluded"] = "branch"
    else:
        row["records"] = [r.as_row() for r in interval_records(spec, unc, truth, m)]
    return row


# -- the study ------------------------------------------------------------------------------------
def stored_rows(path: Path) -> dict[str, dict[str, Any]]:
    """The finished runs of the runs file by key (the last line of a key counts)."""
    out: dict[str, dict[str, Any]] = {}
    if not path.is_file():
        return out
    for line in path.read_text().splitlines():
        if line.strip():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:  # a line cut by an interrupted write
                continue
            out[row["key"]] = row
    return out


def run_all(runs: Sequence[RunSpec], path: Path, workers: int) -> list[dict[str, Any]]:
    """Every run's row: stored ones of the same digest reused, the others computed and appended
    to ``path`` as they finish."""
    done = stored_rows(path)
    todo = [r for r in runs if done.get(r.key(), {}).get("digest") != r.digest()]
    print(f"{len(runs) - len(todo)} runs stored, {len(todo)} to compute", flush=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        for row in _computed(todo, workers):
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            done[row["key"]] = row
            print(f"  {row['key']:<42} {row['excluded'] or 'ok':8s} {row['estimate']}", flush=True)
    return [done[r.key()] for r in runs]


def _computed(todo: Sequence[RunSpec], workers: int) -> Iterator[dict[str, Any]]:
    if workers <= 1:
        yield from (run_one(r) for r in todo)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(run_one, r) for r in todo]
        for f in as_completed(futures):
            yield f.result()


def previous_calibration(fitted: Mapping[str, Calibration]) -> dict[str, Calibration]:
    """The constants the fitted ones are compared with: the package's, or — once the package
    holds the fitted ones — those they replaced."""
    if dict(CALIBRATION) != dict(fitted):
        return dict(CALIBRATION)
    replaced = read_calibration_file().get("replaced")
    return parse_calibration(replaced) if replaced else dict(CALIBRATION)


def calibration_payload(
    fitted: Mapping[str, Calibration], split: Mapping[str, Any], summary: pd.DataFrame
) -> dict[str, Any]:
    """The content of the package's calibration file for the fitted constants."""
    held = summary[(summary["set"] == "held_out") & (summary["term"] == "all")]
    payload: dict[str, Any] = {
        "level": float(split["level"]),
        "quantities": {
            q: {"factor": c.factor, "floor": c.floor, "relative": c.relative}
            for q, c in fitted.items()
        },
        "provenance": {
            "script": "scripts/calibrate_intervals.py",
            "split": "scripts/calibration_split.yaml",
            "calibration_set": _set_names(split["calibration"]),
            "held_out_set": _set_names(split["held_out"]),
            "criterion": "per quantity the (factor, floor) of smallest mean width with coverage "
            "at the level at every noise level of the calibration set, equations weighted alike",
            "n_boot": int(split["n_boot"]),
            "held_out_coverage": {
                str(r["quantity"]): round(float(r["coverage_fitted"]), 4)
                for _, r in held.iterrows()
            },
            "table": "results/uncertainty/tab_calibration.md",
            "date": datetime.now(UTC).date().isoformat(),
        },
    }
    current = read_calibration_file()
    if dict(CALIBRATION) != dict(fitted):
        payload["replaced"] = {k: current[k] for k in ("quantities", "provenance")}
    elif "replaced" in current:
        payload["replaced"] = current["replaced"]
    return payload


def _set_names(block: Mapping[str, Any]) -> list[str]:
    return [*block.get("benchmarks", []), *block.get("exact", [])]


def with_coverage(frame: pd.DataFrame, cal: Mapping[str, Calibration]) -> pd.DataFrame:
    """The records with whether each raw and each calibrated (by ``cal``) interval holds the
    truth."""
    out = frame.loc[:, RECORD_COLUMNS].copy()
    out["covered_raw"] = covered(frame, RAW)
    out["covered_calibrated"] = False
    for q, c in cal.items():
        rows = frame["quantity"] == q
        out.loc[rows, "covered_calibrated"] = covered(frame[rows], c)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", default=str(SPLIT))
    ap.add_argument("--out-dir", default="results/uncertainty")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--write-package-data", action="store_true")
    ap.add_argument("--test-data", default=None, help="write the held-out records here")
    args = ap.parse_args()
    runs, split = load_split(Path(args.split))
    out = Path(args.out_dir)
    t0 = time.perf_counter()
    rows = run_all(runs, out / "calibration_runs.jsonl", args.workers)
    records = [rec for r in rows for rec in r["records"]]
    frame = records_frame(pd.DataFrame(records, columns=RECORD_COLUMNS))
    level = float(split["level"])
    fitted = fit_calibration(frame[frame["set"] == "calibration"], level)
    cals = {"previous": previous_calibration(fitted), "fitted": fitted}
    summary = coverage_summary(frame, cals)
    by_noise = coverage_summary(frame, cals, by_noise=True)
    write_csv_atomic(with_coverage(frame, fitted), out / "calibration_records.csv")
    write_csv_atomic(pd.DataFrame(rows).drop(columns="records"), out / "calibration_runs.csv")
    table = pd.concat([summary.assign(by="position"), by_noise.assign(by="noise")])
    write_csv_atomic(table, out / f"{STEM}.csv")
    package = "fitted" if args.write_package_data or cals["previous"] == fitted else "previous"
    split_file = Path(args.split).resolve()
    shown = (
        split_file.relative_to(ROOT).as_posix()
        if split_file.is_relative_to(ROOT)
        else str(split_file)
    )
    write_notes(out, STEM, calibration_notes(split, cals, package, shown))
    write_study(STEM, out)
    payload = calibration_payload(fitted, split, summary)
    write_json_atomic(out / "calibration_fit.json", payload)
    if args.write_package_data:
        write_json_atomic(PACKAGE_FILE, payload)
    if args.test_data:
        held = frame.loc[frame["set"] == "held_out", RECORD_COLUMNS]
        write_csv_atomic(held, Path(args.test_data))
    print(f"fitted: {describe(fitted)}; previous: {describe(cals['previous'])}")
    print(f"target {'met' if target_met(summary, 'fitted') else 'missed'}; "
          f"{time.perf_counter() - t0:.0f} s; {out / 'tab_calibration.md'}")  # fmt: skip


if __name__ == "__main__":
    main()
