"""tab:frozen-soil from user-supplied creep records (scripts/frozen_soil.py, the Makefile's
reproduce-frozen-soil): synthetic records from the exact Mittag-Leffler solution at the paper's
fitted parameters stand in for the third-party clay and silt data."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from weakpareto.kelvin.model import exact_creep, fit_kelvin
from weakpareto.reporting.tables.frozen_soil import frozen_soil_table, loads

REPO = Path(__file__).resolve().parents[2]
#: (alpha, eta_K, E) of the paper's weak-integral fits; loads from the paper (1.11, 1.14 MPa).
PARAMS = {"clay": (0.469, 0.1034, 0.331), "silt": (0.562, 0.0744, 0.430)}


def _script():
    spec = importlib.util.spec_from_file_location(
        "frozen_soil", REPO / "scripts" / "frozen_soil.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _record(soil: str, n: int, seed: int) -> pd.DataFrame:
    alpha, eta, modulus = PARAMS[soil]
    rng = np.random.default_rng(seed)
    t = 30 * (eta / modulus) ** (1 / alpha) * np.sort(rng.uniform(0, 1, n)) ** 2
    eps = exact_creep(t, alpha, eta, modulus, loads()[soil]) * (1 + 0.01 * rng.uniform(-1, 1, n))
    return pd.DataFrame({"t": t, "ex": eps})


def test_loads_are_the_papers():
    assert loads() == {"clay": 1.11, "silt": 1.14}


def test_script_renders_the_table(tmp_path, capsys):
    clay = tmp_path / "clay.csv"
    silt = tmp_path / "silt.parquet"
    _record("clay", 56, 0).to_csv(clay, index=False)
    s = _record("silt", 43, 1)
    pd.concat([s, s.iloc[[10]]]).to_parquet(silt)  # one repeated timestamp, as in the silt data
    out = tmp_path / "out"
    rc = _script().main(
        ["--clay", str(clay), "--silt", str(silt), "--strain-key", "ex", "--out-dir", str(out)]
    )
    assert rc == 0
    tex = (out / "tab_frozen_soil.tex").read_text()
    md = (out / "tab_frozen_soil_paper_vs_ours.md").read_text()
    assert r"\multirow{3}{*}{Clay} & reference & 0.371 & 0.1030 & 0.320 & 0.047 & -- \\" in tex
    assert r"& reference & 0.562 & 0.0778 & 0.442 & 0.045 & -- \\" in tex
    assert r"\label{tab:frozen-soil}" in tex and tex.count(r"weak integral, obs.\ rows") == 3
    # ours by the default recipe: alpha within 0.02 and E within 5 % of the generating values
    for soil, name in (("clay", "Clay"), ("silt", "Silt")):
        alpha, _, modulus = PARAMS[soil]
        row = next(
            ln
            for ln in md.splitlines()
            if ln.startswith(f"| {name}, weak integral, obs. rows | alpha")
        )
        assert abs(float(row.split("|")[4]) - alpha) < 0.02
        e_row = next(
            ln for ln in md.splitlines() if ln.startswith(f"| {name}, weak integral, obs. rows | E")
        )
        assert abs(float(e_row.split("|")[4]) / modulus - 1) < 0.05
    assert "| Silt, weak integral | alpha | 0.562 |" in md
    assert "44 observations, 43 distinct times (1 averaged)" in md
    printed = capsys.readouterr().out
    assert "wrote" in printed and "clay  ours" in printed


def test_one_record_keeps_the_other_reference_row(tmp_path, capsys):
    fits = {"silt": {"ours": fit_kelvin(*_record("silt", 43, 2).to_numpy().T, 1.14)}}
    table = frozen_soil_table(fits)
    assert r"\multirow{1}{*}{Clay} & reference" in table.latex
    assert "no clay record given" in table.markdown
    assert "| clay@weak | alpha | 0.469 | (no row) | no |" in table.markdown


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        ([], "give at least one record"),
        (["--clay", "nope.csv"], "does not exist"),
        (["--clay", "c.csv", "--clay-load", "-1"], "load=-1.0 must be a finite stress > 0"),
    ],
)
def test_script_input_errors(args, needle, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    _record("clay", 56, 0).rename(columns={"ex": "strain"}).to_csv("c.csv", index=False)
    assert _script().main(args) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1
