"""The interval calibration judged out of sample (weakpareto.reporting.interval_calibration,
scripts/calibrate_intervals.py).

The coverage test reads the committed raw intervals of the held-out runs
(tests/data/interval_calibration_heldout.csv, written by ``scripts/calibrate_intervals.py
--test-data``), widens them with the package's calibration and checks each parameter's coverage
against the nominal level; the slow test recomputes a few of those runs and checks that the
stored intervals are what the code computes."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from weakpareto.method.intervals import (
    CALIBRATION,
    RAW,
    Calibration,
    calibrate,
    parse_calibration,
    read_calibration_file,
)
from weakpareto.reporting.interval_calibration import (
    RECORD_COLUMNS,
    clopper_pearson,
    coverage_summary,
    covered,
    fit_calibration,
    records_frame,
    round_up,
    target_met,
    widths,
)

REPO = Path(__file__).resolve().parents[2]
HELD_OUT = REPO / "tests" / "data" / "interval_calibration_heldout.csv"
LEVEL = 0.9


def _script():
    spec = importlib.util.spec_from_file_location(
        "calibrate_intervals", REPO / "scripts" / "calibrate_intervals.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


def _records(rng: np.random.Generator, n: int) -> pd.DataFrame:
    """Random records: estimates about the truth with intervals of random extent."""
    truth = rng.uniform(0.5, 2.0, n)
    est = truth + rng.normal(0.0, 0.05, n)
    return pd.DataFrame(
        {
            "set": "calibration",
            "equation": rng.choice(["a", "b", "c"], n),
            "noise": rng.choice([0.01, 0.05], n),
            "seed": np.arange(n),
            "quantity": rng.choice(["alpha", "beta", "xi"], n),
            "position": 1,
            "truth": truth,
            "estimate": est,
            "lo": est - rng.uniform(0.0, 0.08, n),
            "hi": est + rng.uniform(0.0, 0.08, n),
        }
    )


# -- the calibrated coverage out of sample --------------------------------------------------------
def test_held_out_coverage_is_within_its_binomial_bound():
    """Every held-out parameter (pooled and per position): the package's calibrated intervals
    cover the truth in k of n records; the nominal 90 % must not lie above the exact 95 %
    binomial (Clopper-Pearson) bounds of k / n — coverage not significantly below nominal — and
    k / n reaches the target over enough runs."""
    frame = records_frame(pd.read_csv(HELD_OUT))
    assert set(frame["set"]) == {"held_out"}
    summary = coverage_summary(frame, {"package": CALIBRATION})
    assert set(summary["quantity"]) == {"alpha", "beta", "xi"}
    for _, r in summary.iterrows():
        k, n = int(r["covered_package"]), int(r["records"])
        lo, hi = clopper_pearson(k, n)
        assert LEVEL <= hi, f"{r['parameter']}: {k}/{n} covered, bounds [{lo:.3f}, {hi:.3f}]"
    assert target_met(summary, "package")
    # the raw percentiles are what the calibration is needed for: the orders' and coefficients'
    # (68 % and 72 % held out); the default method's raw alpha intervals already cover (92 %)
    pooled = summary[summary["term"] == "all"].set_index("quantity")
    assert (pooled.loc[["beta", "xi"], "coverage_raw"] < LEVEL).all()


def test_held_out_records_are_of_other_equations_than_the_calibration_set():
    split = _script().load_split()[1]
    held = set(pd.read_csv(HELD_OUT)["equation"])
    calibration = set(split["calibration"]["benchmarks"]) | set(split["calibration"]["exact"])
    assert held and not held & calibration


@pytest.mark.slow
def test_stored_held_out_records_are_what_the_code_computes():
    """Three held-out runs (three equations) recomputed: the same raw intervals as stored, and
    the package's calibration of them is what ``WeakPareto(uncertainty="bootstrap")`` reports."""
    script = _script()
    stored = pd.read_csv(HELD_OUT)
    runs = {r.key(): r for r in script.load_split()[0] if r.case.set == "held_out"}
    firsts = stored.groupby("equation", sort=True).first().reset_index().iloc[:3]
    for _, first in firsts.iterrows():
        key = f"held_out/{first['equation']}/{first['noise']:g}/{int(first['seed'])}"
        row = script.run_one(runs[key])
        assert row["excluded"] == "", row
        fresh = pd.DataFrame(row["records"], columns=RECORD_COLUMNS)
        old = stored[
            (stored["equation"] == first["equation"])
            & (stored["noise"] == first["noise"])
            & (stored["seed"] == first["seed"])
        ]
        assert len(fresh) == len(old)
        for col in ("truth", "estimate", "lo", "hi"):
            np.testing.assert_allclose(fresh[col], old[col], rtol=1e-6, atol=1e-9, err_msg=col)
    spec = runs[key]
    clean = script.clean_field(json.dumps(spec.case.config, sort_keys=True))
    u = script.add_noise(clean.u, spec.noise_law, spec.noise, spec.seed)
    kwargs = dict(operator=spec.case.operator, alpha_range=spec.case.alpha_range,
                  beta_range=spec.case.beta_range, powers=spec.case.powers,
                  uncertainty="bootstrap", n_boot=spec.n_boot)  # fmt: skip
    _, raw = script.fit_raw(script.WeakPareto(**kwargs), u, clean.t, clean.x)
    reported = script.WeakPareto(**kwargs).fit(u, clean.t, clean.x).uncertainty_
    for mine, theirs in zip(raw.terms, reported.terms):
        got = calibrate(mine.coef_interval, mine.coef, CALIBRATION["xi"])
        np.testing.assert_allclose(got, theirs.coef_interval, rtol=1e-12)


# -- the pieces -----------------------------------------------------------------------------------
def test_clopper_pearson_known_values():
    lo, hi = clopper_pearson(40, 40)
    assert hi == 1.0 and lo == pytest.approx(0.025 ** (1 / 40), rel=1e-9)
    assert clopper_pearson(0, 10)[0] == 0.0
    lo, hi = clopper_pearson(7, 20)
    lo2, hi2 = clopper_pearson(13, 20)
    assert lo == pytest.approx(1 - hi2) and hi == pytest.approx(1 - lo2)
    assert 0.0 < lo < 7 / 20 < hi < 1.0
    assert all(math.isnan(v) for v in clopper_pearson(0, 0))


def test_covered_and_widths_are_those_of_the_calibrated_interval():
    frame = records_frame(_records(np.random.default_rng(1), 300))
    for cal in (RAW, Calibration(1.3, 0.01), Calibration(1.1, 0.05, relative=True)):
        expect, width = [], []
        for _, r in frame.iterrows():
            a, b = calibrate((r["lo"], r["hi"]), r["estimate"], cal)
            expect.append(a <= r["truth"] <= b)
            width.append((b - a) / r["scale"])
        np.testing.assert_array_equal(covered(frame, cal), expect)
        np.testing.assert_allclose(widths(frame, cal), width)


def test_fitted_calibration_covers_at_every_noise_level_with_equations_weighted_alike():
    frame = records_frame(_records(np.random.default_rng(2), 600))
    cal = fit_calibration(frame, LEVEL)
    for q, c in cal.items():
        assert c.relative is (q == "xi")
        fq = frame[frame["quantity"] == q]
        for _, cell in fq.groupby("noise"):
            ok = covered(cell, c)
            share = cell.assign(ok=ok).groupby("equation")["ok"].agg(["sum", "size"])
            weighted = float((share["sum"] / share["size"]).mean())
            assert weighted >= LEVEL - 1e-12
    assert fit_calibration(frame[frame["quantity"] == "beta"], LEVEL)["alpha"] == RAW


def test_round_up_keeps_two_significant_digits_and_never_rounds_down():
    assert round_up(0.012301) == 0.013 and round_up(0.0123) == 0.013
    assert round_up(0.013) == 0.013 and round_up(0.0) == 0.0 and round_up(2.341) == 2.4


def test_package_calibration_file_has_its_constants_and_provenance():
    payload = read_calibration_file()
    assert dict(CALIBRATION) == parse_calibration(payload)
    assert payload["level"] == LEVEL and CALIBRATION["xi"].relative
    prov = payload["provenance"]
    assert (REPO / prov["script"]).is_file() and (REPO / prov["split"]).is_file()
    assert len(prov["date"]) == 10  # ISO date


@pytest.mark.parametrize(
    "bad, needle",
    [
        ({"alpha": {"factor": 1.0, "floor": 0.0}}, "no constants for 'beta'"),
        ({q: {"factor": 0.5, "floor": 0.0} for q in ("alpha", "beta", "xi")}, "factor 0.5"),
        ({q: {"factor": 1.0, "floor": -1.0} for q in ("alpha", "beta", "xi")}, "floor -1.0"),
    ],
)
def test_bad_calibration_constants_are_refused(bad, needle):
    with pytest.raises(ValueError, match=needle):
        parse_calibration({"quantities": bad})
