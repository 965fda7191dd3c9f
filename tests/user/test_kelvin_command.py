"""``wp kelvin``: end to end on synthetic creep records (CSV, Parquet, .npz), the JSON written,
and every input check as one line with exit code 2 before anything is computed."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from weakpareto import cli
from weakpareto.cli import main
from weakpareto.kelvin.model import exact_creep
from weakpareto.user.kelvin_command import USAGE

ALPHA, ETA, E, LOAD = 0.562, 0.0744, 0.430, 1.14  # the paper's silt fit


def record(seed: int = 0, n: int = 56) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    t = 30 * (ETA / E) ** (1 / ALPHA) * np.sort(rng.uniform(0, 1, n)) ** 2
    return t, exact_creep(t, ALPHA, ETA, E, LOAD) * (1 + 0.01 * rng.uniform(-1, 1, n))


@pytest.fixture()
def csv(tmp_path):
    t, eps = record()
    rows = pd.DataFrame({"t": t, "strain": eps}).sample(frac=1.0, random_state=2)  # unsorted
    path = tmp_path / "creep.csv"
    rows.to_csv(path, index=False)
    return path


def _fail(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(["kelvin", *args])
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert err.startswith("wp: error: ") and err.count("\n") == 1, err
    return err


def test_csv_end_to_end(csv, tmp_path, capsys):
    out = tmp_path / "r.json"
    main(["kelvin", f"data={csv}", f"load={LOAD}", f"out={out}"])
    printed = capsys.readouterr().out
    r = json.loads(out.read_text())
    assert abs(r["alpha"] - ALPHA) < 0.02 and abs(r["E"] / E - 1) < 0.05
    assert r["t_ret"] == pytest.approx((r["eta_K"] / r["E"]) ** (1 / r["alpha"]))
    assert r["n_raw"] == 56 and r["anchored"] and r["recipe"] == "ours" and r["warnings"] == []
    assert 0 < r["residual"] < 0.03
    assert "alpha" in printed and f"wrote {out}" in printed


def test_parquet_npz_and_keys_give_the_same_fit(csv, tmp_path, capsys):
    table = pd.read_csv(csv)
    table.rename(columns={"t": "hours", "strain": "ex"}).to_parquet(tmp_path / "c.parquet")
    np.savez(tmp_path / "c.npz", t=table["t"].to_numpy(), strain=table["strain"].to_numpy())
    fits = []
    for data, keys in (
        (csv, []),
        (tmp_path / "c.parquet", ["t_key=hours", "strain_key=ex"]),
        (tmp_path / "c.npz", []),
    ):
        out = tmp_path / f"{data.suffix[1:]}.json"
        main(["kelvin", f"data={data}", f"load={LOAD}", *keys, f"out={out}"])
        fits.append(json.loads(out.read_text())["alpha"])
    capsys.readouterr()
    assert fits[0] == pytest.approx(fits[1], abs=1e-12) == pytest.approx(fits[2], abs=1e-12)


def test_repeated_timestamps_are_averaged(tmp_path, capsys):
    t, eps = record(1)
    t = np.concatenate([t, t[20:21]])
    eps = np.concatenate([eps, eps[20:21] * 1.002])
    pd.DataFrame({"t": t, "strain": eps}).to_csv(tmp_path / "c.csv", index=False)
    out = tmp_path / "r.json"
    main(["kelvin", f"data={tmp_path / 'c.csv'}", f"load={LOAD}", f"out={out}"])
    assert "1 repeated timestamp(s) averaged" in capsys.readouterr().out
    r = json.loads(out.read_text())
    assert (r["n_raw"], r["n_unique"], r["n_averaged"]) == (57, 56, 1)


def test_paper_recipe_and_bound_warning(csv, tmp_path, capsys):
    out = tmp_path / "r.json"
    main(
        [
            "kelvin",
            f"data={csv}",
            f"load={LOAD}",
            "recipe=paper",
            "alpha_range=[0.7,0.9]",
            f"out={out}",
        ]
    )
    printed = capsys.readouterr().out
    r = json.loads(out.read_text())
    assert r["recipe"] == "paper" and r["n_rows"] == 399 and r["at_bound"]
    assert "warning: [alpha_at_bound]" in printed
    assert r["warnings"][0]["code"] == "alpha_at_bound"


def test_help_is_static_and_matches(capsys):
    assert cli.kelvin_help() == USAGE
    main(["kelvin", "--help"])
    assert capsys.readouterr().out.strip() == USAGE


def _table(tmp_path, name, **cols):
    path = tmp_path / name
    pd.DataFrame(cols).to_csv(path, index=False)
    return path


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        ([], "data=, load= and out= are required"),
        (["data=c.csv", "out=r.json"], "load= is required"),
        (["load=-1", "out=r.json"], "load=-1 must be a finite stress > 0"),
        (["load=abc", "out=r.json"], "load='abc' must be a finite stress > 0"),
        (["load=1", "out=r.txt"], "must end in .json"),
        (["load=1", "out=r.json", "alpha_range=[0.5,1.2]"], "0 < lo < hi < 1"),
        (["load=1", "out=r.json", "alpha_range=0.5"], "must be two numbers"),
        (["load=1", "out=r.json", "recipe=spline"], "recipe='spline' is not one of ours, paper"),
        (["load=1", "out=r.json", "bogus=1"], "unknown key 'bogus'"),
        (["load=1", "load=2"], "load= is given twice"),
        (["load"], "is not key=value"),
        (["--fast"], "unknown flag"),
        (["load=1", "out=r.json", "data=nope.csv"], "does not exist"),
        (["load=1", "out=r.json", "data=c.txt"], "unsupported extension"),
    ],
)
def test_argument_errors(args, needle, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert needle in _fail(capsys, *args)


def test_record_errors(tmp_path, capsys):
    t, eps = record()
    ok = {"load": f"load={LOAD}", "out": f"out={tmp_path / 'r.json'}"}

    def fail_on(path, *extra):
        return _fail(capsys, f"data={path}", ok["load"], ok["out"], *extra)

    assert "no column 'strain' (columns: eps, t); name the strain column with strain_key=" in (
        fail_on(_table(tmp_path, "a.csv", t=t, eps=eps))
    )
    bad = eps.astype(object)
    bad[4] = "abc"
    assert "non-numeric value 'abc' (row 4)" in fail_on(_table(tmp_path, "b.csv", t=t, strain=bad))
    nan = eps.copy()
    nan[[3, 7]] = np.nan
    assert "2 missing or non-finite value(s) (first at row 3)" in fail_on(
        _table(tmp_path, "c.csv", t=t, strain=nan)
    )
    neg = t.copy()
    neg[5] = -1.0
    assert "negative time -1 (row 5)" in fail_on(_table(tmp_path, "d.csv", t=neg, strain=eps))
    assert "3 distinct time(s); the fit needs at least 8" in fail_on(
        _table(tmp_path, "e.csv", t=[1.0, 2.0, 3.0, 3.0], strain=[0.1, 0.2, 0.3, 0.3])
    )
    assert "is constant" in fail_on(_table(tmp_path, "f.csv", t=t, strain=np.ones_like(t)))
    assert "does not grow under the load" in fail_on(_table(tmp_path, "g.csv", t=t, strain=-eps))
    assert "both 't'" in fail_on(_table(tmp_path, "h.csv", t=t, strain=eps), "strain_key=t")
    empty = tmp_path / "i.csv"
    empty.write_text("")
    assert "cannot read data=" in fail_on(empty)
    np.savez(tmp_path / "j.npz", t=t, strain=eps[:-1])
    assert "t has 56 values but strain has 55" in fail_on(tmp_path / "j.npz")
    assert not (tmp_path / "r.json").exists()
