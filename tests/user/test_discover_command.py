"""``wp discover`` on FADE with 5 % noise: .npz, CSV and Parquet recover the same equation;
2-D benchmark A with 5 % noise: .npz, a long CSV and the Python API recover the same equation.

The noisy field is built in-test exactly as ``wp generate benchmark=fade noise=0.05`` does:
``u * (1 + 0.05 * default_rng(0).uniform(-1, 1, u.shape))`` on ``t = 0.1 i``, ``x = 0.25 j``.
Truth: D_t^0.8 u = -u_x + 0.5 D_x^1.7 u.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from weakpareto.cli import main
from weakpareto.user.discover_command import parse_args, parse_value
from weakpareto.user.estimator import WeakPareto

RANGES = ["operator=directional", "alpha_range=[0.6,1.05]", "beta_range=[0.5,2.0]"]


@pytest.fixture(scope="module")
def fade5(fade_field):
    u, t, x = fade_field
    noisy = u * (1 + 0.05 * np.random.default_rng(0).uniform(-1, 1, u.shape))
    return noisy, t, x


@pytest.fixture(scope="module")
def files(fade5, tmp_path_factory):
    u, t, x = fade5
    d = tmp_path_factory.mktemp("fade5")
    np.savez(d / "f.npz", u=u, t=t, x=x)
    tt, xx = np.meshgrid(t, x, indexing="ij")
    long = pd.DataFrame({"t": tt.ravel(), "x": xx.ravel(), "u": u.ravel()})
    long = long.sample(frac=1.0, random_state=1)  # row order must not matter
    long.to_csv(d / "f.csv", index=False)
    long.to_parquet(d / "f.parquet")
    return d


def _discover(data, out, capsys, extra=()):
    main(["discover", f"data={data}", *RANGES, *extra, f"out={out}"])
    printed = capsys.readouterr().out
    return json.loads(out.read_text()), printed


@pytest.fixture(scope="module")
def npz_result(files):
    out = files / "r.json"
    main(["discover", f"data={files / 'f.npz'}", *RANGES, f"out={out}"])
    return json.loads(out.read_text())


def test_npz_recovers_fade(npz_result):
    r = npz_result
    assert r["mode"] == "sub"
    assert abs(r["alpha"] - 0.8) < 0.15
    terms = sorted(r["terms"], key=lambda term: term["order"])
    assert [term["power"] for term in terms] == [0, 0]
    assert abs(terms[0]["order"] - 1.0) < 0.15 and terms[0]["coef"] < 0
    assert abs(terms[1]["order"] - 1.7) < 0.15 and terms[1]["coef"] > 0
    assert abs(terms[0]["coef"] + 1.0) < 0.1 and abs(terms[1]["coef"] - 0.5) < 0.1


def test_json_has_the_documented_shape(npz_result):
    r = npz_result
    assert isinstance(r["equation"], str) and r["equation"].startswith("D_t^0.")
    assert r["mode"] in ("sub", "int", "sup") and isinstance(r["alpha"], float)
    for term in r["terms"]:
        assert set(term) >= {"power", "order", "coef"}
        assert isinstance(term["power"], int) and isinstance(term["order"], float)
        assert isinstance(term["coef"], float)
    sizes = [p["size"] for p in r["pareto_front"]]
    assert sizes == sorted(sizes) and sizes[0] == 1 and 2 in sizes
    for p in r["pareto_front"]:
        assert isinstance(p["val_error"], float) and isinstance(p["train_error"], float)
    # the front shows the elbow: size 2 is far better than size 1 (paper fig:pareto)
    err = {p["size"]: p["val_error"] for p in r["pareto_front"]}
    assert np.log10(err[1]) - np.log10(err[2]) > 1.0


def test_readme_example_has_no_warnings_only_the_noise_note(npz_result):
    """FADE with 5 % noise (the README example): diagnostics give information, no warning."""
    found = npz_result["warnings"]
    codes = [(w["code"], w["level"]) for w in found]
    assert codes == [("noise_level", "info"), ("trajectory_refit", "info")]
    assert (
        "apparent noise 3.9 % of std(u)" in found[0]["message"]
    )  # 5 % mult.: 0.05 rms/std/sqrt(3)
    assert 0.035 < npz_result["noise_level"] < 0.045
    assert npz_result["grid"]["scales"]["u"] == pytest.approx(10.199, rel=1e-3)


def test_python_api_gives_the_identical_equation(fade5, npz_result):
    u, t, x = fade5
    model = WeakPareto(operator="directional", alpha_range=(0.6, 1.05), beta_range=(0.5, 2.0))
    assert model.fit(u, t, x) is model
    assert model.equation_.text() == npz_result["equation"]
    assert model.grid_["power_mode"] == "positive"  # auto: the FADE field is nonnegative
    np.testing.assert_array_equal(model.coef_, [term["coef"] for term in npz_result["terms"]])
    # the CLI output is a complete estimator record
    again = WeakPareto.from_dict(npz_result)
    assert again.equation_ == model.equation_


def test_csv_and_parquet_give_the_same_equation(files, npz_result, capsys):
    r_csv, printed = _discover(files / "f.csv", files / "c.json", capsys)
    assert r_csv["equation"] == npz_result["equation"]
    assert r_csv["terms"] == npz_result["terms"]
    assert "Pareto front" in printed and npz_result["equation"] in printed
    assert "wrote" in printed
    assert "info: [noise_level]" in printed and "warning:" not in printed
    r_pq, _ = _discover(files / "f.parquet", files / "p.json", capsys)
    assert r_pq["equation"] == npz_result["equation"]


def test_wp_generate_then_wp_discover(fade5, files, npz_result, capsys):
    """The README round trip: ``wp generate benchmark=fade noise=0.05`` then ``wp discover``."""
    pytest.importorskip("weakpareto.evaluation.metrics")
    gen = files / "g.npz"
    main(["generate", "benchmark=fade", "noise=0.05", f"out={gen}"])
    with np.load(gen) as npz:
        np.testing.assert_array_equal(npz["u"], fade5[0])  # the in-test field is wp's field
        np.testing.assert_allclose(npz["t"], fade5[1], rtol=0, atol=1e-12)
    capsys.readouterr()
    r, _ = _discover(gen, files / "g.json", capsys)
    # wp's t differs from 0.1*arange by float rounding only: the same equation up to rounding
    assert r["mode"] == npz_result["mode"] and abs(r["alpha"] - npz_result["alpha"]) < 1e-3
    assert [t["power"] for t in r["terms"]] == [t["power"] for t in npz_result["terms"]]
    for a, b in zip(r["terms"], npz_result["terms"]):
        assert abs(a["order"] - b["order"]) < 1e-3 and abs(a["coef"] - b["coef"]) < 1e-3


def test_output_is_written_atomically(files, npz_result):
    assert not list(files.glob(".*.tmp"))


def test_help(capsys):
    main(["discover", "--help"])
    out = capsys.readouterr().out
    assert "data=" in out and "alpha_range=[0.5,1.5]" in out


def test_parse_values():
    assert parse_value("[0.6,1.05]") == [0.6, 1.05]
    assert parse_value("[0,1,2]") == [0, 1, 2]
    assert parse_value("(1, 2)") == [1, 2]
    assert parse_value("1e-3") == pytest.approx(1e-3)
    assert parse_value("null") is None and parse_value("true") is True
    assert parse_value("abc") == "abc"
    opts = parse_args(["data=2024.csv", "seed=3", "operator=riesz"])
    assert opts == {"data": "2024.csv", "seed": 3, "operator": "riesz"}


# -- two spatial dimensions (paper Sec. "Extension to two spatial dimensions") ----------------
# ``wp generate benchmark=twod_a noise=0.05``: 90 x 80 x 80, 5 % multiplicative noise.
# Truth: D_t^0.85 u = 0.30 D_x^1.70 u + 0.20 D_y^1.40 u. Paper budget (about 1 s per fit).
RANGES_2D = [
    "operator=directional",
    "alpha_range=[0.55,1.25]",
    "beta_range=[0.5,2.5]",
    "powers=[0]",
]


@pytest.fixture(scope="module")
def twod_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("twod5")
    main(["generate", "benchmark=twod_a", "noise=0.05", f"out={d / 'f.npz'}"])
    with np.load(d / "f.npz") as npz:
        assert set(npz.files) >= {"u", "t", "x", "y"}
        u, t, x, y = npz["u"], npz["t"], npz["x"], npz["y"]
    tt, xx, yy = np.meshgrid(t, x, y, indexing="ij")
    long = pd.DataFrame({"t": tt.ravel(), "x": xx.ravel(), "y": yy.ravel(), "u": u.ravel()})
    long.sample(frac=1.0, random_state=2).to_csv(d / "f.csv", index=False)  # any row order
    return d, (u, t, x, y)


@pytest.fixture(scope="module")
def twod_result(twod_files):
    d, _ = twod_files
    out = d / "r.json"
    main(["discover", f"data={d / 'f.npz'}", *RANGES_2D, f"out={out}"])
    return json.loads(out.read_text())


def test_2d_npz_recovers_twod_a(twod_result):
    r = twod_result
    assert r["mode"] == "sub" and abs(r["alpha"] - 0.85) < 0.05
    assert [t["direction"] for t in r["terms"]] == ["x", "y"]
    assert [t["power"] for t in r["terms"]] == [0, 0]
    for term in r["terms"]:
        assert set(term) == {"power", "order", "coef", "direction"}  # required keys + direction
        assert isinstance(term["order"], float) and isinstance(term["coef"], float)
    tx, ty = r["terms"]
    assert abs(tx["order"] - 1.70) < 0.15 and abs(ty["order"] - 1.40) < 0.15
    assert abs(tx["coef"] - 0.30) < 0.03 and abs(ty["coef"] - 0.20) < 0.03
    assert " D_x^1." in r["equation"] and " D_y^1." in r["equation"]
    assert r["grid"]["test_counts"] == [30, 40, 40]  # the paper rule per axis
    assert r["grid"]["ny"] == 80 and r["params"]["powers"] == [0]
    err = {p["size"]: p["val_error"] for p in r["pareto_front"]}
    assert r["selected_size"] == 2 and np.log10(err[1]) - np.log10(err[2]) > 2.0


def test_2d_python_api_gives_the_identical_equation(twod_files, twod_result):
    _, (u, t, x, y) = twod_files
    model = WeakPareto(
        operator="directional", alpha_range=(0.55, 1.25), beta_range=(0.5, 2.5), powers=(0,)
    )
    assert model.fit(u, t, x, y) is model
    assert model.equation_.text() == twod_result["equation"]
    assert [term.direction for term in model.equation_.terms] == ["x", "y"]
    assert list(model.directions_) == ["x", "y"]
    np.testing.assert_array_equal(model.coef_, [term["coef"] for term in twod_result["terms"]])
    np.testing.assert_array_equal(model.orders_, [term["order"] for term in twod_result["terms"]])
    assert set(model.pareto_front_[0]) == {
        "size",
        "train_error",
        "val_error",
        "on_front",
        "equation",
    }
    again = WeakPareto.from_dict(twod_result)  # the CLI output reloads as a fitted 2-D model
    assert again.equation_ == model.equation_
    assert list(again.directions_) == ["x", "y"]
    assert json.loads(again.to_json())["terms"] == twod_result["terms"]


def test_2d_long_csv_gives_the_same_equation(twod_files, twod_result, capsys):
    d, _ = twod_files
    capsys.readouterr()
    main(["discover", f"data={d / 'f.csv'}", *RANGES_2D, f"out={d / 'c.json'}"])
    printed = capsys.readouterr().out
    r = json.loads((d / "c.json").read_text())
    assert r["equation"] == twod_result["equation"]
    assert r["terms"] == twod_result["terms"]
    assert "u 90 x 80 x 80 (t x x x y)" in printed and "30 x 40 x 40 test functions" in printed


def test_a_bad_forcing_prints_nothing_but_its_one_line_error(tmp_path, capsys):
    """The data summary waits until every input (the forcing too) is valid."""
    t = np.linspace(0.0, 1.0, 40)
    x = np.linspace(0.0, 2 * np.pi, 32, endpoint=False)
    np.savez(tmp_path / "u.npz", u=np.exp(-t)[:, None] * np.sin(x)[None, :], t=t, x=x)
    np.savez(tmp_path / "f.npz", f=np.ones((3, 3)))
    with pytest.raises(SystemExit) as exc:
        main(["discover", f"data={tmp_path / 'u.npz'}", f"forcing={tmp_path / 'f.npz'}",
              f"out={tmp_path / 'r.json'}"])  # fmt: skip
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == ""
    assert err.startswith("wp: error: forcing 'f' has shape 3 x 3") and err.count("\n") == 1
    assert not (tmp_path / "r.json").exists()
