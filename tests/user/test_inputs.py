"""Input kinds: MATLAB files, variable names, orientation, float32 grids, dtypes, memory, seeds."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.io import savemat

from weakpareto.cli import main
from weakpareto.errors import UserInputError
from weakpareto.user.estimator import WeakPareto
from weakpareto.user.limits import SEED_LIMIT, check_memory, library_bytes, max_seed
from weakpareto.user.loading import load_field, orient
from weakpareto.user.validation import check_field, check_field_2d, check_params

NT, NX = 40, 32
QUICK = ["popsize=2", "maxiter=2", "max_terms=2", "polish=false", "powers=[0]"]


def _field(nt: int = NT, nx: int = NX):
    t = 0.05 * np.arange(nt)
    x = np.arange(nx) * (2 * np.pi / nx)
    u = np.sin(x - t[:, None]) * np.exp(-0.2 * t)[:, None] + 0.3 * np.cos(2 * x + t[:, None])
    return u, t, x


def _exit_2_one_line(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err and "Traceback" not in err
    return err


# -- .mat ---------------------------------------------------------------------------------------
def test_mat_file_with_matlab_layout_is_read_and_oriented(tmp_path, capsys):
    """A published-data-set layout: usol (nx x nt), tt (1 x nt), x (nx x 1), v5 file."""
    u, t, x = _field()
    savemat(tmp_path / "d.mat", {"usol": u.T, "tt": t[None, :], "x": x[:, None]})
    data = load_field(tmp_path / "d.mat")
    np.testing.assert_array_equal(data.u, u)
    assert data.notes == [
        "variables u=usol, t=tt",
        "u stored as 32 x 40 (x, t): transposed to (t, x)",
    ]
    out = tmp_path / "r.json"
    main(["discover", f"data={tmp_path / 'd.mat'}", *QUICK, f"out={out}"])
    printed = capsys.readouterr().out
    assert "u stored as 32 x 40 (x, t): transposed to (t, x)" in printed.splitlines()[0]
    assert json.loads(out.read_text())["grid"]["nt"] == NT


def test_npz_with_the_same_data_gives_the_same_equation(tmp_path, capsys):
    u, t, x = _field()
    savemat(tmp_path / "d.mat", {"U": u, "t": t, "x": x}, do_compression=True)  # v5, compressed
    np.savez(tmp_path / "d.npz", u=u, t=t, x=x)
    for name in ("d.mat", "d.npz"):
        main(["discover", f"data={tmp_path / name}", *QUICK, f"out={tmp_path / (name + '.json')}"])
    capsys.readouterr()
    a, b = (json.loads((tmp_path / f"d.{k}.json").read_text()) for k in ("mat", "npz"))
    assert a["equation"] == b["equation"] and a["terms"] == b["terms"]


def test_variable_names_by_key(tmp_path):
    u, t, x = _field()
    savemat(tmp_path / "d.mat", {"field": u, "time": t, "space": x, "t": t[:5]})
    data = load_field(tmp_path / "d.mat", {"u": "field", "t": "time", "x": "space"})
    np.testing.assert_array_equal(data.u, u)
    assert np.asarray(data.t).size == NT
    np.savez(tmp_path / "d.npz", field=u, time=t, space=x)
    args = [f"data={tmp_path / 'd.npz'}", "u_key=field", "t_key=time", "x_key=space"]
    main(["discover", *args, *QUICK, f"out={tmp_path / 'r.json'}"])
    assert json.loads((tmp_path / "r.json").read_text())["grid"]["nx"] == NX


def test_missing_variable_names_the_found_ones(tmp_path, capsys):
    u, t, x = _field()
    savemat(tmp_path / "d.mat", {"field": u, "t": t, "x": x})
    err = _exit_2_one_line(
        ["discover", f"data={tmp_path / 'd.mat'}", f"out={tmp_path / 'r.json'}"], capsys
    )
    assert "lacks array(s) u (tried u/usol/U/uu; found: field, t, x)" in err
    assert "u_key=" in err
    err = _exit_2_one_line(
        ["discover", f"data={tmp_path / 'd.mat'}", "u_key=w", f"out={tmp_path / 'r.json'}"],
        capsys,
    )
    assert "no variable 'w' (u_key=w); found: field, t, x" in err
    assert not (tmp_path / "r.json").exists()


def test_matlab_v73_needs_h5py(tmp_path, capsys):
    try:
        import h5py  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("h5py is installed: v7.3 files are read")
    header = b"MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Mon Jan  1 00:00:00 2024 HDF5"
    raw = header.ljust(116, b" ") + b"\x00" * 8 + b"\x00\x02" + b"IM"
    (tmp_path / "v73.mat").write_bytes(raw + b"\x00" * 512)
    err = _exit_2_one_line(
        ["discover", f"data={tmp_path / 'v73.mat'}", f"out={tmp_path / 'r.json'}"], capsys
    )
    assert "MATLAB v7.3 (HDF5)" in err and "pip install h5py" in err and "-v7" in err


def test_corrupt_mat_is_one_line(tmp_path, capsys):
    (tmp_path / "bad.mat").write_bytes(b"this is not a mat file at all" * 10)
    err = _exit_2_one_line(
        ["discover", f"data={tmp_path / 'bad.mat'}", f"out={tmp_path / 'r.json'}"], capsys
    )
    assert "cannot read data=" in err and ".mat" in err


def test_orientation_only_when_unambiguous():
    u, t, x = _field()
    same, note = orient(u.T, (t, x))
    assert note is not None and same.shape == (NT, NX)
    square = np.zeros((NX, NX))
    assert orient(square, (x, x)) == (square, None)  # square: taken as stored
    u3 = np.zeros((NX, 7, NT))  # (x, y, t) in 2-D
    out, note = orient(u3, (t, x, np.arange(7)))
    assert out.shape == (NT, NX, 7) and "axes permuted (2, 0, 1)" in note
    ambiguous = np.zeros((NX, NX, NT))
    assert orient(ambiguous, (t, x, x))[1] is None  # x/y ambiguous: validation names it


def test_python_api_names_permuted_axes():
    u, t, x = _field()
    y = np.arange(7.0)
    u3 = np.repeat(u[:, :, None], 7, axis=2) * (1 + y)
    with pytest.raises(UserInputError, match=r"pass np.transpose\(u, \(1, 2, 0\)\)"):
        check_field_2d(u3.transpose(2, 0, 1), t, x, y)


# -- grids and dtypes ---------------------------------------------------------------------------
def test_float32_and_column_vector_grids_are_accepted():
    u, t, x = _field()
    t32 = (np.float32(0.05) * np.arange(NT, dtype=np.float32) + np.float32(1000.0)).astype(
        np.float32
    )
    x32 = np.linspace(0, 2 * np.pi, NX, endpoint=False, dtype=np.float32)
    f = check_field(u.astype(np.float32), t32[:, None], x32[None, :])
    assert f.dt == pytest.approx(0.05, rel=1e-5)  # mean step, not the rounded first one
    assert f.period == pytest.approx(2 * np.pi, rel=1e-6)
    with pytest.raises(UserInputError, match="t is not uniform"):
        bad = t32.copy()
        bad[10:] += np.float32(0.01)
        check_field(u, bad, x32)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (lambda u: u > 0, "u is boolean"),
        (lambda u: u.astype(object), "non-numeric dtype object"),
        (lambda u: u + 1j, "u is complex"),
        (lambda u: np.array([list(r) for r in u.astype(str)]), "non-numeric dtype"),
    ],
    ids=["bool", "object", "complex", "strings"],
)
def test_bad_u_dtypes_are_rejected(value, message):
    u, t, x = _field()
    with pytest.raises(UserInputError, match=message) as err:
        WeakPareto().fit(value(u), t, x)
    assert "\n" not in str(err.value)


def test_bool_u_in_a_file_exits_2(tmp_path, capsys):
    u, t, x = _field()
    np.savez(tmp_path / "d.npz", u=u > 0, t=t, x=x)
    err = _exit_2_one_line(
        ["discover", f"data={tmp_path / 'd.npz'}", f"out={tmp_path / 'r.json'}"], capsys
    )
    assert "u is boolean" in err


# -- memory and seeds ---------------------------------------------------------------------------
def test_huge_test_counts_are_rejected_before_allocating(tmp_path, capsys):
    u, t, x = _field()
    np.savez(tmp_path / "d.npz", u=u, t=t, x=x)
    err = _exit_2_one_line(
        [
            "discover",
            f"data={tmp_path / 'd.npz'}",
            "test_counts=[3000,3000]",
            f"out={tmp_path / 'r.json'}",
        ],
        capsys,
    )
    assert "test_counts=[3000, 3000]" in err and "GiB" in err and "budget 4 GiB" in err
    assert "use e.g. test_counts=[" in err
    suggested = [int(k) for k in err.split("use e.g. test_counts=[")[1].split("]")[0].split(",")]
    params = check_params(WeakPareto(test_counts=tuple(suggested)).get_params())
    assert library_bytes(params, (NT, NX)) <= 4 * 1024**3


def test_memory_estimate_and_budget_override(monkeypatch):
    params = check_params(WeakPareto(alpha_range=(0.6, 1.05)).get_params())
    # FADE grid, paper counts 44 x 60: measured peak 36 MiB (tracemalloc), estimate 46 MiB
    assert 36 * 2**20 <= library_bytes(params, (150, 120)) <= 60 * 2**20
    monkeypatch.setenv("WEAKPARETO_MEMORY_GIB", "0.01")
    with pytest.raises(UserInputError, match="subsample the data"):
        check_memory(params, (150, 120))
    monkeypatch.setenv("WEAKPARETO_MEMORY_GIB", "lots")
    with pytest.raises(UserInputError, match="is not a number"):
        check_memory(params, (150, 120))


def test_seed_range(tmp_path, capsys):
    u, t, x = _field()
    np.savez(tmp_path / "d.npz", u=u, t=t, x=x)
    err = _exit_2_one_line(
        ["discover", f"data={tmp_path / 'd.npz'}", "seed=4294967295", f"out={tmp_path / 'r.json'}"],
        capsys,
    )
    assert "seed=4294967295 is too large" in err and "use 0 <= seed <= " in err
    top = int(err.split("use 0 <= seed <= ")[1])
    params = check_params(WeakPareto(max_terms=2, powers=(0,)).get_params())
    assert top == max_seed(check_params(WeakPareto().get_params()))
    assert SEED_LIMIT - 40000 < max_seed(params) < SEED_LIMIT
    # the largest accepted seed runs end to end (every derived DE seed < 2**32)
    top_quick = max_seed(params)
    main(
        [
            "discover",
            f"data={tmp_path / 'd.npz'}",
            *QUICK,
            f"seed={top_quick}",
            "out=" + str(tmp_path / "r.json"),
        ]
    )
    assert json.loads((tmp_path / "r.json").read_text())["params"]["seed"] == top_quick
    with pytest.raises(UserInputError, match="too large"):
        WeakPareto(max_terms=2, powers=(0,), seed=top_quick + 1).fit(u, t, x)
