"""`wp run uncertainty=bootstrap`: interval columns in the run row; rows and config hashes of
runs without it unchanged; one-line errors for bad settings."""

from __future__ import annotations

import json
import math

import pandas as pd
import pyarrow.parquet as pq
import pytest
from omegaconf import OmegaConf

from weakpareto.campaign import runner as runner
from weakpareto.campaign.compose import compose_checked, compose_config
from weakpareto.campaign.config import UNCERTAINTY_KEYS, config_hash
from weakpareto.campaign.interval_columns import UNCERTAINTY_FIELDS
from weakpareto.campaign.store import load_runs
from weakpareto.errors import UserInputError
from weakpareto.method.intervals import CALIBRATION, calibrate

#: The smallest budget (a few seconds per seed with the bootstrap).
TINY = [
    "search.popsize=1",
    "search.maxiter=1",
    "search.c_max=2",
    "search.test_budget=smoke",
    "progress=false",
]


def _cfg(tmp_path, *extra):
    return compose_config(
        ["benchmark=fade", "noise=0.05", "seeds=1", f"results_dir={tmp_path}", *TINY, *extra]
    )


def test_run_with_uncertainty_writes_the_interval_columns(tmp_path, capsys):
    runner.run_config(_cfg(tmp_path, "uncertainty=bootstrap", "n_boot=8", "level=0.8"))
    printed = capsys.readouterr().out
    row = load_runs(tmp_path).iloc[0]
    assert row["status"] == "ok"
    assert (row["uncertainty"], row["n_boot"], row["level"]) == ("bootstrap", 8, 0.8)
    c = int(row["n_terms"])
    for col in ("order_lo", "order_hi", "coef_lo", "coef_hi", "inclusion", "s_beta"):
        assert len(row[col]) == c, col
    assert len(row["truth_orders"]) == len(row["truth_coefs"]) == c
    assert row["truth_alpha"] == pytest.approx(0.8)
    assert row["uncertainty_s"] > 0.0
    for lo, hi in zip(row["coef_lo"], row["coef_hi"]):
        assert lo <= hi
    if row["mode"] != "int":
        assert row["alpha_lo"] <= row["alpha_hi"]
    assert all(0.0 <= v <= 1.0 for v in row["inclusion"])
    extra = json.loads(row["uncertainty_json"])
    assert extra["n_tiles"] >= 2 and len(extra["block"]) == 2
    assert isinstance(list(row["uncertainty_flags"]), list)
    # the calibrated columns are the package's calibration of the raw ones, and are printed
    assert json.loads(row["calibration"]) == {
        q: [c.factor, c.floor, c.relative] for q, c in CALIBRATION.items()
    }
    for j in range(c):
        raw = (row["coef_lo"][j], row["coef_hi"][j])
        cal = calibrate(raw, row["coefs"][j], CALIBRATION["xi"])
        assert (row["coef_cal_lo"][j], row["coef_cal_hi"][j]) == pytest.approx(cal)
        assert cal[0] <= raw[0] and raw[1] <= cal[1]
        if math.isfinite(row["order_lo"][j]):
            cal = calibrate((row["order_lo"][j], row["order_hi"][j]), row["orders"][j],
                            CALIBRATION["beta"])  # fmt: skip
            assert (row["order_cal_lo"][j], row["order_cal_hi"][j]) == pytest.approx(cal)
            assert f"order [{cal[0]:.4f}, {cal[1]:.4f}]" in printed
    if row["mode"] != "int":
        cal = calibrate((row["alpha_lo"], row["alpha_hi"]), row["alpha"], CALIBRATION["alpha"])
        assert (row["alpha_cal_lo"], row["alpha_cal_hi"]) == pytest.approx(cal)
    assert "calibrated 80 % intervals: alpha" in printed
    # a file written before the calibrated columns existed reads them back as null
    (path,) = [p for p in tmp_path.rglob("*.parquet") if not p.name.endswith(".front.parquet")]
    table = pq.read_table(path)
    old = [n for n in table.column_names if "_cal_" not in n and n != "calibration"]
    pq.write_table(table.select(old), path)
    back = load_runs(tmp_path).iloc[0]
    assert back["alpha_lo"] == row["alpha_lo"] or row["mode"] == "int"
    assert list(back["coef_lo"]) == list(row["coef_lo"])
    assert back["coef_cal_lo"] is None and pd.isna(back["calibration"])
    assert pd.isna(back["alpha_cal_lo"])


def test_a_failed_bootstrap_keeps_the_fit_and_says_why(tmp_path, monkeypatch):
    """A numerical failure of the resampling (not of the fit) leaves an ok row without
    intervals whose flags name the failure; the fit's columns are those of a plain run."""

    def singular(*args, **kwargs):
        raise ArithmeticError("resample Gram is singular")

    monkeypatch.setattr(runner, "bootstrap_seed", singular)
    runner.run_config(_cfg(tmp_path / "a", "uncertainty=bootstrap", "n_boot=8"))
    runner.run_config(_cfg(tmp_path / "b"))
    row, plain = load_runs(tmp_path / "a").iloc[0], load_runs(tmp_path / "b").iloc[0]
    assert row["status"] == "ok" and row["equation"] == plain["equation"]
    assert row["uncertainty"] == "bootstrap" and pd.isna(row["alpha_lo"])
    (flag,) = list(row["uncertainty_flags"])
    assert flag.startswith("bootstrap_failed: ") and "resample Gram is singular" in flag


def test_runs_without_uncertainty_keep_their_rows_and_config_hash(tmp_path):
    cfg = _cfg(tmp_path)
    runner.run_config(cfg)
    row = load_runs(tmp_path).iloc[0]
    for f in UNCERTAINTY_FIELDS:  # every uncertainty column is null
        v = row[f.name]
        assert v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)), f.name
    stored = json.loads(row["config_json"])
    assert not set(UNCERTAINTY_KEYS) & set(stored)  # as before the keys existed
    # the config hash is that of the config without the keys (committed runs stay cached) ...
    data = OmegaConf.to_container(compose_config(["benchmark=fade", "noise=0.1"]))
    assert isinstance(data, dict)
    plain = OmegaConf.create({k: v for k, v in data.items() if k not in UNCERTAINTY_KEYS})
    assert config_hash(compose_config(["benchmark=fade", "noise=0.1"])) == config_hash(plain)
    assert config_hash(compose_config(["benchmark=fade", "noise=0.1", "n_boot=50"])) == (
        config_hash(plain)
    )
    # ... and runs with intervals never share it, nor runs with other settings
    on = compose_config(["benchmark=fade", "noise=0.1", "uncertainty=bootstrap"])
    on50 = compose_config(["benchmark=fade", "noise=0.1", "uncertainty=bootstrap", "n_boot=50"])
    assert len({config_hash(plain), config_hash(on), config_hash(on50)}) == 3


@pytest.mark.parametrize(
    "overrides, needle",
    [
        (["uncertainty=jackknife"], "uncertainty=jackknife"),
        (["uncertainty=bootstrap", "n_boot=1"], "n_boot=1"),
        (["uncertainty=bootstrap", "level=1.5"], "level=1.5"),
        (["uncertainty=bootstrap", "method=weak_grid_stridge"], "weak equations"),
    ],
)
def test_bad_uncertainty_settings_fail_with_one_line(overrides, needle):
    with pytest.raises(UserInputError, match=needle.replace(".", r"\.")):
        cfg = compose_checked(["benchmark=fade", *overrides])
        runner.validate_run(cfg)
