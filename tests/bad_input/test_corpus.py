"""The bad-input corpus (corpus.yaml): every case refused in one line, or accepted with a warning.

Each CLI case runs ``wp <cmd> <args>`` in-process (:func:`weakpareto.cli.main`) in one shared
directory of small input files written once by :func:`make_files`; an ``error`` case must exit
with code 2, print exactly one line on stderr starting ``wp: error:``, compute nothing and leave
the directory as it was. A ``warning`` case runs in a fresh copy of that directory and must
exit 0 with its warning on stderr. Python cases evaluate ``call`` and expect the named exception
with a one-line message. docs/bad-input.md#the-corpus says how to add a case.
"""

from __future__ import annotations

import importlib.util
import shutil
import traceback
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import scipy.io
import yaml

from weakpareto import WeakPareto
from weakpareto.campaign import dataset, runner
from weakpareto.campaign.synthetic import synthetic_key, synthetic_seed
from weakpareto.cli import main
from weakpareto.errors import UserInputError
from weakpareto.user import kelvin_command
from weakpareto.user.estimator import NotFittedError

CORPUS = Path(__file__).with_name("corpus.yaml")
CASES: list[dict[str, Any]] = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))
#: Arguments added to a command when the case does not give that key (a base that is valid).
BASE = {
    "run": ["benchmark=fade", "results_dir=res", "seeds=1", "progress=false"],
    "generate": ["benchmark=fade", "out=g.npz"],
}
EXCEPTIONS: dict[str, type[Exception]] = {
    "UserInputError": UserInputError,
    "ValueError": ValueError,
    "TypeError": TypeError,
    "NotFittedError": NotFittedError,
}
NT, NX = 40, 32


def _field() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    t = np.linspace(0.0, 3.9, NT)
    x = np.arange(NX) * (2 * np.pi / NX)
    return np.exp(-0.2 * t)[:, None] * np.sin(x)[None, :] + 1.5, t, x


def _field_2d() -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(0)
    return rng.random((30, 16, 16)), 0.1 * np.arange(30), np.arange(16.0), np.arange(16.0)


def _arrays(root: Path) -> None:
    """The .npz / .mat inputs: a valid field, and one defect each."""
    u, t, x = _field()
    one = np.arange(u.size).reshape(u.shape) == 5
    spike = np.zeros_like(u)
    spike[10, 5] = 1.0
    npz = {
        "good": {"u": u, "t": t, "x": x},
        "empty": {},
        "wrongkeys": {"a": u, "b": t, "c": x},
        "nan": {"u": np.where(one, np.nan, u), "t": t, "x": x},
        "inf": {"u": np.where(one, np.inf, u), "t": t, "x": x},
        "tnan": {"u": u, "t": np.where(np.arange(NT) == 3, np.nan, t), "x": x},
        "tdup": {"u": u, "t": np.r_[t[:5], t[4], t[6:]], "x": x},
        "tdesc": {"u": u, "t": t[::-1], "x": x},
        "xnonuni": {"u": u, "t": t, "x": x + 0.01 * np.sin(np.arange(NX))},
        "onerow": {"u": u[:1], "t": t[:1], "x": x},
        "onecol": {"u": u[:, :1], "t": t, "x": x[:1]},
        "u1d": {"u": u[0], "t": t, "x": x},
        "u4d": {"u": u[None, None], "t": t, "x": x},
        "shape": {"u": u[:, :20], "t": t, "x": x},
        "str": {"u": u.astype(str), "t": t, "x": x},
        "cplx": {"u": u + 1j, "t": t, "x": x},
        "bool": {"u": u > 1.5, "t": t, "x": x},
        "const": {"u": np.ones_like(u), "t": t, "x": x},
        "zero": {"u": np.zeros_like(u), "t": t, "x": x},
        "spike": {"u": spike, "t": t, "x": x},
        "tscalar": {"u": u, "t": np.float64(1.0), "x": x},
        "t2d": {"u": u, "t": np.tile(t, (2, 1)), "x": x},
        "maskbad": {"u": u, "t": t, "x": x, "mask": np.zeros((3, 3), bool)},
        "maskfloat": {"u": u, "t": t, "x": x, "mask": np.zeros_like(u)},
        "maskall": {"u": u, "t": t, "x": x, "mask": np.ones_like(u, bool)},
        "forcebad": {"f": np.ones((3, 3))},
        "forcegood": {"f": np.ones_like(u)},
        "uobj": {"u": np.array([1, "a", None], dtype=object), "t": t, "x": x},
        "y2du": {"u": u, "t": t, "x": x, "y": np.arange(16.0)},
        "creep_bad": {"t": np.linspace(0, 10, 20), "strain": np.ones(5)},
    }
    for name, arrays in npz.items():
        np.savez(root / f"{name}.npz", **arrays)  # type: ignore[arg-type]
    u2, t2, x2, y2 = _field_2d()
    np.savez(root / "good2d.npz", u=u2, t=t2, x=x2, y=y2)
    scipy.io.savemat(root / "good.mat", {"u": u, "t": t, "x": x})
    scipy.io.savemat(root / "wrong.mat", {"q": u})
    scipy.io.savemat(root / "cell.mat", {"u": np.array([[1, "a"]], dtype=object), "t": t, "x": x})


def _tables(root: Path) -> None:
    """The .csv / .parquet inputs of wp discover and wp kelvin."""
    u, t, x = _field()
    tt, xx = np.meshgrid(t, x, indexing="ij")
    long = pd.DataFrame({"t": tt.ravel(), "x": xx.ravel(), "u": u.ravel()})
    long.to_csv(root / "good.csv", index=False)
    long.iloc[:-3].to_csv(root / "missingrows.csv", index=False)
    pd.concat([long, long.iloc[:1]]).to_csv(root / "duprows.csv", index=False)
    text = long.astype({"u": str})
    text.loc[3, "u"] = "abc"
    text.to_csv(root / "textu.csv", index=False)
    texts = {
        "empty.csv": "",
        "garbage.npz": "not a zip",
        "garbage.mat": "not mat",
        "garbage.parquet": "not parquet",
        "ragged.csv": "t,x,u\n0,0,1\n0,1\n0,2,3,4\n",
        "hdr.csv": "t,x,u\n",
        "cols.csv": "a,b,c\n1,2,3\n",
        "good.txt": "1 2 3\n",
        "FILE": "a file, not a directory\n",
    }
    for name, content in texts.items():
        (root / name).write_text(content)
    times = np.linspace(0, 10, 20)
    creep = {
        "creep": {"t": times, "strain": np.sqrt(times / 10)},
        "short": {"t": [0, 1, 2], "strain": [0, 0.1, 0.2]},
        "nanstrain": {"t": times, "strain": np.nan},
        "negt": {"t": -times, "strain": times / 10},
        "conststrain": {"t": times, "strain": 1.0},
        "othercols": {"time": times, "eps": times / 10},
        "samet": {"t": np.zeros(20), "strain": times / 10},
    }
    for name, columns in creep.items():
        pd.DataFrame(columns).to_csv(root / f"{name}.csv", index=False)


def _corrupt_results(root: Path) -> None:
    """A results directory whose dataset holds one unreadable Parquet file."""
    for seed in range(2):
        key = synthetic_key(seed)
        dataset.write_seed(root, key, *synthetic_seed(key))
    bad = dataset.partition_dir(root, dataset.RUNS, synthetic_key(0)) / "part-corrupt.parquet"
    bad.write_bytes(b"not parquet at all")


def make_files(root: Path) -> Path:
    """Every input file the corpus names, written into ``root``."""
    _arrays(root)
    _tables(root)
    (root / "DIR.npz").mkdir()
    (root / "runs").mkdir()
    _corrupt_results(root / "corrupt")
    return root


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    return make_files(tmp_path_factory.mktemp("bad_input"))


@pytest.fixture
def no_compute(monkeypatch):
    """Fail the case if a run, a discovery or a creep fit starts."""

    def computed(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("bad input must be refused before any computation")

    monkeypatch.setattr(runner, "run_config", computed)
    monkeypatch.setattr(WeakPareto, "_fit_checked", computed)
    monkeypatch.setattr(kelvin_command, "fit_kelvin", computed)


def _key(arg: str) -> str:
    return arg.lstrip("+~").split("=", 1)[0]


def _argv(case: dict[str, Any]) -> list[str]:
    args = [str(a) for a in case["args"]]
    given = {_key(a) for a in args}
    return [case["cmd"], *(a for a in BASE.get(case["cmd"], []) if _key(a) not in given), *args]


def _snapshot(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_mtime_ns for p in root.rglob("*")}


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    """``wp <argv>`` in-process: exit code, stdout, stderr; any other exception is a failure
    with its traceback (the CLI must never show one for bad input)."""
    try:
        main(argv)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    except BaseException as exc:  # noqa: BLE001 - reported with its traceback
        out, err = capsys.readouterr()
        pytest.fail(f"wp {' '.join(argv)} raised:\n{''.join(traceback.format_exception(exc))}")
    out, err = capsys.readouterr()
    return code, out, err


def _label(case: dict[str, Any]) -> str:
    return case.get("call") or " ".join([case["cmd"], *map(str, case["args"])])


CLI = [c for c in CASES if c["cmd"] != "python"]
PY = [c for c in CASES if c["cmd"] == "python"]


@pytest.mark.parametrize("case", [c for c in CLI if c["expect"] == "error"], ids=_label)
def test_bad_cli_input_is_one_line_exit_2_and_nothing_written(
    case, files, capsys, monkeypatch, no_compute
):
    monkeypatch.chdir(files)
    before = _snapshot(files)
    argv = _argv(case)
    code, out, err = _run(argv, capsys)
    assert code == 2, f"wp {' '.join(argv)}: exit {code}, stderr {err!r}"
    assert err.startswith("wp: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err, err
    assert case["says"] in err, err
    assert _snapshot(files) == before, "bad input left a file behind"


@pytest.mark.parametrize("case", [c for c in CLI if c["expect"] == "warning"], ids=_label)
def test_partly_ignored_cli_input_is_accepted_with_a_warning(
    case, files, tmp_path, capsys, monkeypatch
):
    work = tmp_path / "work"
    shutil.copytree(files, work, symlinks=True)
    monkeypatch.chdir(work)
    code, _out, err = _run(_argv(case), capsys)
    assert code == 0, err
    assert "Traceback" not in err and "wp: error" not in err, err
    assert case["says"] in err, err


@pytest.mark.parametrize("case", PY, ids=_label)
def test_bad_python_input_raises_one_line(case, capsys):
    u, t, x = _field()
    u2, t2, x2, y2 = _field_2d()
    names = {"WeakPareto": WeakPareto, "np": np, "u": u, "t": t, "x": x}
    names.update(u2=u2, t2=t2, x2=x2, y2=y2)
    expected = EXCEPTIONS[case["expect"]]
    real_fit = WeakPareto._fit_checked
    try:
        WeakPareto._fit_checked = _computed  # type: ignore[method-assign]
        with pytest.raises(expected) as exc:
            eval(case["call"], names)  # noqa: S307 - the corpus's own expressions
    finally:
        WeakPareto._fit_checked = real_fit  # type: ignore[method-assign]
    message = str(exc.value)
    assert message and "\n" not in message, message
    assert case["says"] in message, message


def _computed(*args: Any, **kwargs: Any) -> None:
    raise AssertionError("bad input must be refused before any computation")


def test_the_corpus_is_large_new_and_well_formed():
    """At least 200 cases over every command, none repeating tests/test_cli.py's table."""
    spec = importlib.util.spec_from_file_location("cli_table", CORPUS.parents[1] / "test_cli.py")
    assert spec is not None and spec.loader is not None
    cli_table = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cli_table)
    table = {(sub, tuple(args)) for sub, args, _ in cli_table.BAD_INPUT}
    assert len(CASES) >= 200
    assert {c["cmd"] for c in CASES} == {
        "run", "generate", "report", "status", "compact", "discover", "kelvin", "python"
    }  # fmt: skip
    for c in CASES:
        assert set(c) <= {"cmd", "args", "call", "expect", "says"} and c.get("says"), c
        assert c["expect"] in ("error", "warning", *EXCEPTIONS), c
    repeated = [c for c in CLI if (c["cmd"], tuple(map(str, c["args"]))) in table]
    assert repeated == []
    labels = [_label(c) for c in CASES]
    assert len(labels) == len(set(labels)), "a case is listed twice"
