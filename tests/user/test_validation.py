"""Every bad-input kind of ``wp discover`` / ``WeakPareto.fit``: one line, exit code 2, no output.

The validators run before any computation, so none of these tests runs a discovery.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from weakpareto.cli import main
from weakpareto.errors import UserInputError
from weakpareto.user.estimator import WeakPareto
from weakpareto.user.long_tables import long_table_to_grid, long_table_to_grid_2d
from weakpareto.user.validation import (
    MIN_NT,
    MIN_NX,
    check_alpha_range,
    check_beta_range,
    check_field,
    check_field_2d,
    check_powers,
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
def _case_npz(mutate, *extra):
    def build(tmp):
        u, t, x = _field()
        arrays = mutate(u.copy(), t.copy(), x.copy())
        return [f"data={_npz(tmp / 'd.npz', **arrays)}", *extra]

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
    ("u not 2-D", _case_npz(lambda u, t, x: {"u": u[None, None], "t": t, "x": x}), "u must be 2-D"),
    (
        "t not 1-D",
        _case_npz(lambda u, t, x: {"u": u, "t": t.reshape(-1, 2), "x": x}),
        "t must be 1-D",
    ),
    (
        "x not 1-D",
        _case_npz(lambda u, t, x: {"u": u, "t": t, "x": x.reshape(2, -1)}),
        "x must be 1-D",
    ),
    ("shape mismatch", _case_npz(lambda u, t, x: {"u": u, "t": t[:-1], "x": x}), "shape mismatch"),
    (
        "square u with mismatched grids",
        _case_npz(lambda u, t, x: {"u": u[:24], "t": t, "x": x}),
        "shape mismatch: u is 24 x 24 but len(t)=30",
    ),
    (
        "non-uniform t",
        # the default method fits irregular samples; the L1 target needs a uniform grid
        _case_npz(
            lambda u, t, x: {"u": u, "t": t + 1e-3 * (t > 1), "x": x}, "method=weak_pareto_robust"
        ),
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
    (
        "NaN in u",  # a gap for the default method, refused by the L1 target
        _case_npz(
            lambda u, t, x: {"u": _set(u, 4, 7, np.nan), "t": t, "x": x},
            "method=weak_pareto_robust",
        ),
        "(4, 7)",
    ),
    (
        "inf in u",
        _case_npz(lambda u, t, x: {"u": _set(u, 2, 1, np.inf), "t": t, "x": x}),
        "NaN/inf",
    ),
    ("all-zero u", _case_npz(lambda u, t, x: {"u": 0 * u, "t": t, "x": x}), "all zero"),
    ("constant u", _case_npz(lambda u, t, x: {"u": 0 * u + 3.0, "t": t, "x": x}), "constant"),
    (
        "one spike on zero",
        _case_npz(lambda u, t, x: {"u": _set(0 * u, 5, 3, 1.0), "t": t, "x": x}),
        "except at 1 of",
    ),
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
    ("period_y on 1-D data", _good_npz("period_y=6.0"), "period_y= applies to 2-D data only"),
    ("2-D test_counts on 1-D data", _good_npz("test_counts=[20,32,32]"), "use [K_t,K_x]"),
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
    with pytest.raises(UserInputError, match="1e-06 of the step plus the grid's rounding"):
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


# -- two spatial dimensions -------------------------------------------------------------------
NY = 18


def _field_2d(nt: int = NT, nx: int = NX, ny: int = NY):
    t = 0.1 * np.arange(nt)
    x = np.arange(nx) * (2 * np.pi / nx)
    y = np.arange(ny) * (2 * np.pi / ny)
    tt, xx, yy = np.meshgrid(t, x, y, indexing="ij")
    u = np.sin(xx + yy) * np.exp(-0.3 * tt) + 0.2 * np.cos(2 * xx - yy - tt)
    return u, t, x, y


def _long_2d(u, t, x, y) -> pd.DataFrame:
    tt, xx, yy = np.meshgrid(t, x, y, indexing="ij")
    return pd.DataFrame({"t": tt.ravel(), "x": xx.ravel(), "y": yy.ravel(), "u": u.ravel()})


def _case_npz_2d(mutate, *extra):
    def build(tmp):
        u, t, x, y = _field_2d()
        arrays = mutate(u.copy(), t.copy(), x.copy(), y.copy())
        return [f"data={_npz(tmp / 'd.npz', **arrays)}", *extra]

    return build


def _good_npz_2d(*extra):
    return _case_npz_2d(lambda u, t, x, y: {"u": u, "t": t, "x": x, "y": y}, *extra)


def _case_csv_2d(mutate, *extra):
    def build(tmp):
        mutate(_long_2d(*_field_2d())).to_csv(tmp / "d.csv", index=False)
        return [f"data={tmp / 'd.csv'}", *extra]

    return build


def _set3(u, i, j, k, v):
    u[i, j, k] = v
    return u


P0 = "powers=[0]"  # a valid 2-D setting, so that each case fails on its own problem only
BAD_CASES_2D = [
    (
        "u 3-D without y",
        _case_npz_2d(lambda u, t, x, y: {"u": u, "t": t, "x": x}, P0),
        "u is 3-D (30, 24, 18) but no y grid is given",
    ),
    (
        "y length mismatch",
        _case_npz_2d(lambda u, t, x, y: {"u": u, "t": t, "x": x, "y": y[:-1]}, P0),
        "shape mismatch: u is 30 x 24 x 18 but len(t)=30, len(x)=24, len(y)=17",
    ),
    (
        "y not 1-D",
        _case_npz_2d(lambda u, t, x, y: {"u": u, "t": t, "x": x, "y": y.reshape(2, -1)}, P0),
        "y must be 1-D",
    ),
    (
        "u 2-D with y",
        _case_npz_2d(lambda u, t, x, y: {"u": u[:, :, 0], "t": t, "x": x, "y": y}, P0),
        "with a y grid u must be 3-D",
    ),
    ("powers [0,1] in 2-D", _good_npz_2d("powers=[0,1]"), "powers=[0, 1] is not supported in 2-D"),
    ("default powers in 2-D", _good_npz_2d(), "pass powers=[0]"),
    ("fourier tests in 2-D", _good_npz_2d(P0, "test_functions=fourier"), "1-D only"),
    ("1-D test_counts in 2-D", _good_npz_2d(P0, "test_counts=[20,32]"), "use [K_t,K_x,K_y]"),
    (
        "NaN in 2-D u",
        _case_npz_2d(
            lambda u, t, x, y: {"u": _set3(u, 4, 7, 2, np.nan), "t": t, "x": x, "y": y}, P0
        ),
        "first at (i, j, k) = (4, 7, 2), (t, x, y) = (0.4, ",
    ),
    (
        "non-uniform y",
        _case_npz_2d(lambda u, t, x, y: {"u": u, "t": t, "x": x, "y": y**1.01}, P0),
        "y is not uniform",
    ),
    (
        "too few y points",
        _case_npz_2d(
            lambda u, t, x, y: {"u": u[:, :, : MIN_NX - 1], "t": t, "x": x, "y": y[: MIN_NX - 1]},
            P0,
        ),
        f"ny >= {MIN_NX}",
    ),
    (
        "uniform in y",
        _case_npz_2d(
            lambda u, t, x, y: {
                "u": np.repeat(u[:, :, :1], y.size, axis=2),
                "t": t,
                "x": x,
                "y": y,
            },
            P0,
        ),
        "u is uniform in y at every (t, x)",
    ),
    ("period_y not matching", _good_npz_2d(P0, "period_y=9"), "does not match the y grid"),
    ("period_y below span", _good_npz_2d(P0, "period_y=2"), "period_y=2 is smaller"),
    (
        "csv duplicate triples",
        _case_csv_2d(lambda d: pd.concat([d, d.iloc[[7]]]), P0),
        "1 duplicate (t, x, y) row(s)",
    ),
    (
        "csv missing triples",
        _case_csv_2d(lambda d: d.drop(index=[11, 12]), P0),
        "misses 2 of 12960 (t, x, y) triples of the 30 x 24 x 18 grid",
    ),
    (
        "csv NaN in u",
        _case_csv_2d(lambda d: d.assign(u=d["u"].where(d.index != 5)), P0),
        "(i, j, k) = (0, 0, 5)",
    ),
]


@pytest.mark.parametrize("kind,build,fragment", BAD_CASES_2D, ids=[c[0] for c in BAD_CASES_2D])
def test_bad_2d_input_exit_2_one_line_no_output(kind, build, fragment, tmp_path, capsys):
    out = tmp_path / "r.json"
    code, err = _run_cli([*build(tmp_path), f"out={out}"], capsys)
    _assert_one_line_error(code, err, fragment)
    assert not out.exists()
    assert not list(tmp_path.glob(".r.json*")), "temporary output left behind"


def test_2d_field_checks_and_endpoints():
    u, t, x, y = _field_2d()
    f = check_field_2d(u, t, x, y)
    assert f.shape == (NT, NX, NY) and f.period_y == pytest.approx(2 * np.pi)
    dy = y[1] - y[0]
    u_inc = np.concatenate([u, u[:, :, :1]], axis=2)  # endpoint-included y grid
    g = check_field_2d(u_inc, t, x, np.append(y, y[-1] + dy), period_y=NY * dy)
    assert g.dropped_endpoint_y and not g.dropped_endpoint and g.shape == (NT, NX, NY)
    np.testing.assert_array_equal(g.u, u)
    u_min, t_min, x_min, y_min = _field_2d(MIN_NT, MIN_NX, MIN_NX)
    check_field_2d(u_min, t_min, x_min, y_min)  # the 1-D minimum sizes, per axis
    with pytest.raises(UserInputError, match="too few grid points"):
        check_field_2d(u_min[:, :-1], t_min, x_min[:-1], y_min)


def test_estimator_fit_2d_uses_the_same_validators():
    u, t, x, y = _field_2d()
    m = WeakPareto(powers=(0,))
    with pytest.raises(UserInputError, match="no y grid"):
        m.fit(u, t, x)
    with pytest.raises(UserInputError, match=r"powers=\[0, 1, 2\] is not supported in 2-D"):
        WeakPareto().fit(u, t, x, y)
    with pytest.raises(UserInputError, match="pass the x period by keyword"):
        m.fit(u[:, :, 0], t, x, 2 * np.pi)  # the old positional period
    with pytest.raises(UserInputError, match="period_y= applies to 2-D data only"):
        m.fit(u[:, :, 0], t, x, period_y=2 * np.pi)
    assert m.validate(u, t, x, y).shape == (NT, NX, NY)  # validates without fitting
    assert not hasattr(m, "equation_")


def test_long_table_pivot_is_order_independent():
    u, t, x = _field()
    df = _long(u, t, x).sample(frac=1.0, random_state=0)
    u2, t2, x2 = long_table_to_grid(df)
    np.testing.assert_array_equal(u2, u)
    np.testing.assert_array_equal(t2, t)
    np.testing.assert_array_equal(x2, x)


def test_long_table_2d_pivot_is_order_independent():
    u, t, x, y = _field_2d()
    df = _long_2d(u, t, x, y).sample(frac=1.0, random_state=0)
    u2, t2, x2, y2 = long_table_to_grid_2d(df)
    np.testing.assert_array_equal(u2, u)
    for a, b in ((t2, t), (x2, x), (y2, y)):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(UserInputError, match="long_table_to_grid_2d"):
        long_table_to_grid(df)  # a y column means 2-D data


def test_period_of_n_minus_one_steps_on_a_grid_without_the_repeated_endpoint_is_refused():
    """``period=(nx-1)*dx`` would drop the last column as a repeat of the first; on a grid that
    excludes the endpoint that column is real data, so the fit is refused (smooth field), while
    a grid that does repeat the endpoint (with 1 % noise on both copies) is accepted."""
    t = np.linspace(0.0, 1.0, 40)
    x = np.linspace(0.0, 2 * np.pi, 48, endpoint=False)
    u = np.sin(x)[None] * np.exp(-t)[:, None] + 0.3 * np.cos(2 * x)[None]
    with pytest.raises(UserInputError, match="it is a real sample"):
        check_field(u, t, x, period=47 * (x[1] - x[0]))
    xi = np.linspace(0.0, 2 * np.pi, 49)
    ui = np.sin(xi)[None] * np.exp(-t)[:, None] + 0.3 * np.cos(2 * xi)[None]
    ui = ui + 0.01 * np.random.default_rng(0).standard_normal(ui.shape)
    checked = check_field(ui, t, xi, period=2 * np.pi)
    assert checked.dropped_endpoint and checked.u.shape == (40, 48)
