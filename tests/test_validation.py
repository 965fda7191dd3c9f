"""Every bad-input kind of ``wp discover`` / ``WeakPareto.fit``: one line, exit code 2, no output.

The validators run before any computation, so none of these tests runs a discovery.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from weakpareto.cli import main
from weakpareto.config import UserInputError
from weakpareto.estimator import WeakPareto
from weakpareto.validation import (
    MIN_NT,
    MIN_NX,
    check_alpha_range,
    check_beta_range,
    check_field,
    check_powers,
    long_table_to_grid,
)

NT, NX = 30, 24


def _field(nt: int = NT, nx: int = NX):
    t = 0.1 * np.arange(nt)
    x = np.arange(nx) * (2 * np.pi / nx)
    u = 1.5 + np.sin(x)[None, :] * np.exp(-0.3 * t)[:, None] + 0.2 * np.cos(2 * x - t[:, None])
    return u, t, x


def _long(u, t, x) -> pd.DataFrame:
    tt, xx = np.meshgrid(t, x, indexing="ij")
    return pd.DataFrame({"t": tt.ravel(), "x": xx.ravel(), "u": u.ravel()})


def _npz(path, **arrays):
    np.savez(path, **arrays)
    return path


# Each case: (kind, builder(tmp_path) -> list of extra args, expected message fragment).
def _case_npz(mutate):
    def build(tmp):
        u, t, x = _field()
        arrays = mutate(u.copy(), t.copy(), x.copy())
        return [f"data={_npz(tmp / 'd.npz', **arrays)}"]

    return build


def _case_csv(mutate):
    def build(tmp):
        df = mutate(_long(*_field()))
        df.to_csv(tmp / "d.csv", index=False)
        return [f"data={tmp / 'd.csv'}"]

    return build


def _good_npz(*extra):
    def build(tmp):
        u, t, x = _field()
        return [f"data={_npz(tmp / 'd.npz', u=u, t=t, x=x)}", *extra]

    return build


def _set(u, i, j, v):
    u[i, j] = v
    return u


def _shuffle_t(t):
    t[[3, 4]] = t[[4, 3]]
    return t


def _write_bytes(name, content):
    def build(tmp):
        (tmp / name).write_bytes(content)
        return [f"data={tmp / name}"]

    return build


BAD_CASES = [
    ("missing file", lambda tmp: [f"data={tmp / 'nope.npz'}"], "does not exist"),
    ("unknown extension", _write_bytes("d.txt", b"1 2 3"), "unsupported extension"),
    ("data not given", lambda tmp: [], "data= is required"),
    ("corrupt npz", _write_bytes("d.npz", b"not a zip"), "cannot read"),
    ("npz missing array", _case_npz(lambda u, t, x: {"u": u, "t": t}), "lacks array(s) x"),
    ("csv missing column", _case_csv(lambda d: d.drop(columns="x")), "lacks column(s) x"),
    (
        "csv non-numeric column",
        _case_csv(lambda d: d.assign(u=d["u"].astype(str).where(d.index != 5, "oops"))),
        "column u",
    ),
    ("csv duplicate pairs", _case_csv(lambda d: pd.concat([d, d.iloc[[7]]])), "duplicate (t, x)"),
    ("csv missing pairs", _case_csv(lambda d: d.drop(index=[11, 12])), "misses 2 of"),
    ("csv NaN coordinate", _case_csv(lambda d: d.assign(t=d["t"].where(d.index != 3))), "NaN"),
    ("u not 2-D", _case_npz(lambda u, t, x: {"u": u[None], "t": t, "x": x}), "u must be 2-D"),
    ("t not 1-D", _case_npz(lambda u, t, x: {"u": u, "t": t[:, None], "x": x}), "t must be 1-D"),
    ("x not 1-D", _case_npz(lambda u, t, x: {"u": u, "t": t, "x": x[None]}), "x must be 1-D"),
    ("shape mismatch", _case_npz(lambda u, t, x: {"u": u, "t": t[:-1], "x": x}), "shape mismatch"),
    ("transposed u", _case_npz(lambda u, t, x: {"u": u.T, "t": t, "x": x}), "transposed"),
    (
        "non-uniform t",
        _case_npz(lambda u, t, x: {"u": u, "t": t + 1e-3 * (t > 1), "x": x}),
        "t is not uniform",
    ),
    (
        "non-uniform x",
        _case_npz(lambda u, t, x: {"u": u, "t": t, "x": x**1.01}),
        "x is not uniform",
    ),
    (
        "non-increasing t",
        _case_npz(lambda u, t, x: {"u": u, "t": _shuffle_t(t), "x": x}),
        "not strictly increasing",
    ),
    (
        "decreasing x",
        _case_npz(lambda u, t, x: {"u": u, "t": t, "x": x[::-1]}),
        "not strictly increasing",
    ),
    ("NaN in u", _case_npz(lambda u, t, x: {"u": _set(u, 4, 7, np.nan), "t": t, "x": x}), "(4, 7)"),
    (
        "inf in u",
        _case_npz(lambda u, t, x: {"u": _set(u, 2, 1, np.inf), "t": t, "x": x}),
        "NaN/inf",
    ),
    ("all-zero u", _case_npz(lambda u, t, x: {"u": 0 * u, "t": t, "x": x}), "all zero"),
    ("constant u", _case_npz(lambda u, t, x: {"u": 0 * u + 3.0, "t": t, "x": x}), "constant"),
    (
        "static u",
        _case_npz(lambda u, t, x: {"u": np.tile(u[0], (t.size, 1)), "t": t, "x": x}),
        "does not change in time",
    ),
    (
        "spatially uniform u",
        _case_npz(lambda u, t, x: {"u": np.tile(u[:, :1], (1, x.size)), "t": t, "x": x}),
        "uniform in x",
    ),
    (
        "too few times",
        _case_npz(lambda u, t, x: {"u": u[: MIN_NT - 1], "t": t[: MIN_NT - 1], "x": x}),
        f"nt >= {MIN_NT}",
    ),
    (
        "too few spatial points",
        _case_npz(lambda u, t, x: {"u": u[:, : MIN_NX - 1], "t": t, "x": x[: MIN_NX - 1]}),
        f"nx >= {MIN_NX}",
    ),
    ("alpha lo >= hi", _good_npz("alpha_range=[1.0,0.7]"), "needs lo < hi"),
    ("alpha outside (0,2)", _good_npz("alpha_range=[0.5,2.2]"), "inside (0, 2)"),
    ("alpha admits no branch", _good_npz("alpha_range=[0.9992,0.9998]"), "no temporal branch"),
    ("beta negative", _good_npz("beta_range=[-0.5,2.0]"), "negative order"),
    ("beta lo >= hi", _good_npz("beta_range=[2.0,2.0]"), "needs lo < hi"),
    ("range not a pair", _good_npz("beta_range=[0.5,1,2]"), "pair"),
    ("unknown operator", _good_npz("operator=caputo"), "operator='caputo' is unknown"),
    ("fractional power", _good_npz("powers=[0,1.5]"), "non-negative integers"),
    ("negative power", _good_npz("powers=[-1,0]"), "non-negative integers"),
    ("unknown power mode", _good_npz("power_mode=abs"), "power_mode='abs' is unknown"),
    ("negative seed", _good_npz("seed=-1"), "seed=-1 must be >= 0"),
    ("non-integer max_terms", _good_npz("max_terms=two"), "not an integer"),
    ("unknown key", _good_npz("alpha=0.8"), "unknown key 'alpha'"),
    ("not key=value", _good_npz("directional"), "not key=value"),
    ("repeated key", _good_npz("seed=1", "seed=2"), "given twice"),
    ("period <= 0", _good_npz("period=-3"), "must be > 0"),
    ("period below grid span", _good_npz("period=3.0"), "smaller than the grid span"),
    ("period not matching grid", _good_npz("period=7.5"), "does not match the x grid"),
]
OUT_CASES = [
    ("out not .json", "r.txt", "must end in .json"),
    ("out directory missing", "no/such/dir/r.json", "does not exist"),
]


def _run_cli(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["discover", *args])
    err = capsys.readouterr().err
    return exc.value.code, err


def _assert_one_line_error(code, err, fragment):
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("wp: error: ")
    assert "Traceback" not in err
    assert fragment in lines[0], lines[0]


@pytest.mark.parametrize("kind,build,fragment", BAD_CASES, ids=[c[0] for c in BAD_CASES])
def test_bad_input_exit_2_one_line_no_output(kind, build, fragment, tmp_path, capsys):
    out = tmp_path / "r.json"
    code, err = _run_cli([*build(tmp_path), f"out={out}"], capsys)
    _assert_one_line_error(code, err, fragment)
    assert not out.exists()
    assert not list(tmp_path.glob(".r.json*")), "temporary output left behind"


@pytest.mark.parametrize("kind,out,fragment", OUT_CASES, ids=[c[0] for c in OUT_CASES])
def test_bad_out_path(kind, out, fragment, tmp_path, capsys):
    u, t, x = _field()
    data = _npz(tmp_path / "d.npz", u=u, t=t, x=x)
    code, err = _run_cli([f"data={data}", f"out={tmp_path / out}"], capsys)
    _assert_one_line_error(code, err, fragment)
    assert not (tmp_path / out).exists()


def test_out_missing(tmp_path, capsys):
    u, t, x = _field()
    code, err = _run_cli([f"data={_npz(tmp_path / 'd.npz', u=u, t=t, x=x)}"], capsys)
    _assert_one_line_error(code, err, "out= is required")


def test_at_least_15_kinds():
    assert len(BAD_CASES) + len(OUT_CASES) >= 15


# -- the validators directly ------------------------------------------------------------------
def test_nan_message_names_count_and_position():
    u, t, x = _field()
    u[5, 9] = np.nan
    u[6, 0] = np.nan
    with pytest.raises(UserInputError, match=r"2 NaN/inf .* \(5, 9\), \(t, x\) = \(0\.5, "):
        check_field(u, t, x)


def test_uniform_tolerance_is_stated_and_rounding_accepted():
    u, t, x = _field()
    t_round = np.round(t, 12) + 1e-14  # float rounding of a uniform grid is fine
    assert check_field(u, t_round, x).dt == pytest.approx(0.1)
    with pytest.raises(UserInputError, match="tolerance 1e-06 of the step"):
        check_field(u, t * (1 + 1e-4 * (t > 1)), x)


def test_minimum_sizes_are_the_stated_ones():
    u, t, x = _field(MIN_NT, MIN_NX)
    check_field(u, t, x)  # exactly the minimum passes
    with pytest.raises(UserInputError, match="too few grid points"):
        check_field(u[:-1], t[:-1], x)
    with pytest.raises(UserInputError, match="too few grid points"):
        check_field(u[:, :-1], t, x[:-1])


def test_endpoint_included_grid_drops_repeated_column():
    u, t, x = _field()
    dx = x[1] - x[0]
    u_inc = np.concatenate([u, u[:, :1]], axis=1)
    x_inc = np.append(x, x[-1] + dx)
    f = check_field(u_inc, t, x_inc, period=NX * dx)
    assert f.dropped_endpoint and f.u.shape == (NT, NX)
    np.testing.assert_array_equal(f.u, u)
    assert f.period == pytest.approx(NX * dx)
    default = check_field(u, t, x)
    assert not default.dropped_endpoint and default.period == pytest.approx(NX * dx)


def test_range_and_power_validators():
    assert check_alpha_range([0.6, 1.05]) == (0.6, 1.05)
    assert check_beta_range((0, 2)) == (0.0, 2.0)
    assert check_powers([2, 0, 1]) == (0, 1, 2)
    for bad in ([0, 0], [], "012", [True]):
        with pytest.raises(UserInputError):
            check_powers(bad)
    for bad in ([0.0, 1.0], [1.0, 2.0], "0.6,1", [0.6]):
        with pytest.raises(UserInputError):
            check_alpha_range(bad)


def test_long_table_pivot_is_order_independent():
    u, t, x = _field()
    df = _long(u, t, x).sample(frac=1.0, random_state=0)
    u2, t2, x2 = long_table_to_grid(df)
    np.testing.assert_array_equal(u2, u)
    np.testing.assert_array_equal(t2, t)
    np.testing.assert_array_equal(x2, x)


def test_estimator_fit_uses_the_same_validators():
    u, t, x = _field()
    with pytest.raises(UserInputError, match="transposed"):
        WeakPareto().fit(u.T, t, x)
    with pytest.raises(ValueError, match="needs lo < hi"):  # UserInputError is a ValueError
        WeakPareto(alpha_range=(1.2, 0.8)).fit(u, t, x)
    with pytest.raises(UserInputError, match="operator='foo'"):
        WeakPareto(operator="foo").fit(u, t, x)
    with pytest.raises(UserInputError, match="complex"):
        WeakPareto().fit(u + 1j, t, x)
