"""The `wp` command: installed script from any directory, generate, run, bad input → exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from weakpareto.cli import main

WP = Path(sys.executable).with_name("wp")


def run_wp(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    return subprocess.run(
        [str(WP), *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=300
    )


def expect_exit2(args: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("wp: error:") and "\n" not in err and "Traceback" not in err
    return err


def test_help_lists_subcommands(tmp_path):
    out = run_wp(["--help"], tmp_path)
    assert out.returncode == 0
    for sub in ("generate", "run", "report", "discover", "bench"):
        assert sub in out.stdout


def test_installed_generate_from_temp_dir(tmp_path):
    out = run_wp(["generate", "benchmark=fade", "noise=0.1", "seed=3", "out=f.npz"], tmp_path)
    assert out.returncode == 0, out.stderr
    assert "FADE" in out.stdout and "D_t^0.8000 u" in out.stdout and "150 x 120" in out.stdout
    data = np.load(tmp_path / "f.npz")
    clean = np.loadtxt(Path(__file__).parents[1] / "weakpareto" / "data" / "fade_tsfade_fft.dat")
    zeta = np.random.default_rng(3).uniform(-1, 1, clean.shape)  # spec §2, shared realisation
    np.testing.assert_allclose(data["u"], clean * (1 + 0.1 * zeta), rtol=1e-13)
    np.testing.assert_allclose(data["t"], 0.1 * np.arange(150))
    np.testing.assert_allclose(data["x"], 0.25 * np.arange(120))
    meta = json.loads(str(data["meta"]))
    assert meta["truth"]["alpha"] == 0.8 and len(meta["truth"]["terms"]) == 2
    assert not [p for p in tmp_path.iterdir() if p.name not in ("f.npz",)]  # no Hydra litter


def test_non_editable_install_finds_configs(tmp_path):
    """A regular wheel install carries conf/ (as weakpareto.conf) and the data files."""
    root = Path(__file__).parents[1]
    wheel_dir, site = tmp_path / "wheel", tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheel_dir), str(root)],
        check=True,
        capture_output=True,
    )
    wheel = next(wheel_dir.glob("weakpareto-*.whl"))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(site),
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    code = "import sys; from weakpareto.cli import main; main(sys.argv[1:])"
    env = {**os.environ, "PYTHONPATH": str(site)}
    out = subprocess.run(
        [sys.executable, "-c", code, "generate", "benchmark=burgers", "out=b.npz"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    )
    assert out.returncode == 0, out.stderr
    assert (
        str(site)
        in subprocess.run(
            [sys.executable, "-c", "import weakpareto; print(weakpareto.__file__)"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env=env,
        ).stdout
    )
    assert np.load(tmp_path / "b.npz")["u"].shape == (150, 120)


@pytest.mark.parametrize(
    "args, needle",
    [
        (["benchmark=nope"], "fade"),  # lists the valid names
        (["noise=-0.1"], "noise"),
        (["noise=nan"], "noise"),
        (["noise_law=pink"], "multiplicative"),
        (["out=/nonexistent/dir/f.npz"], "does not exist"),
        (["seed=abc"], "seed"),
        (["seed=1.5"], "seed"),
        (["out=f.txt"], ".npz"),
        (["nosuchkey=1"], "nosuchkey"),
    ],
)
def test_generate_bad_input(args, needle, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    full = ["generate", "benchmark=fade", "out=f.npz", *args]
    err = expect_exit2(full, capsys)
    assert needle in err
    assert not (tmp_path / "f.npz").exists()


@pytest.mark.parametrize(
    "args, needle",
    [
        (["method=magic"], "weak_pareto"),
        (["seeds=0"], "seeds"),
        (["seeds=-2"], "seeds"),
        (["benchmark.library.alpha_range=[1.0,0.5]"], "alpha_range"),
        (["benchmark.library.beta_range=[2.0,0.5]"], "beta_range"),
        (["benchmark.library.alpha_range=[0.9992,0.9998]"], "no temporal branch"),
        (["benchmark.library.powers=[0,-1]"], "powers"),
        (["search.vectorized=true", "search.updating=immediate"], "deferred"),
        (["workers=0"], "workers"),
        (["benchmark=twod_a", "method=strong_pareto"], "2-D"),
    ],
)
def test_run_bad_input(args, needle, tmp_path, capsys):
    err = expect_exit2(["run", "benchmark=fade", f"results_dir={tmp_path}", *args], capsys)
    assert needle in err
    assert not any(tmp_path.rglob("*.parquet"))


def test_unknown_subcommand(capsys):
    assert "generate" in expect_exit2(["fly"], capsys)


def test_sweep_points_are_all_validated(tmp_path, capsys):
    """A bad value anywhere in a -m sweep is rejected before any job runs."""
    err = expect_exit2(
        ["run", "-m", "benchmark=fade", "noise=0,0.1,-1", f"results_dir={tmp_path}"], capsys
    )
    assert "noise" in err
    assert not any(tmp_path.rglob("*.parquet"))


def test_multirun_sweep_writes_one_result_per_point(tmp_path):
    out = run_wp(
        [
            "run",
            "-m",
            "benchmark=fade",
            "noise=0,0.05",
            "seeds=1",
            "search.popsize=4",
            "search.maxiter=4",
            "progress=false",
            f"results_dir={tmp_path / 'r'}",
        ],
        tmp_path,
    )
    assert out.returncode == 0, out.stderr
    files = sorted(
        p.name
        for p in (tmp_path / "r" / "fade").glob("*.parquet")
        if not p.name.endswith(".front.parquet")
    )
    assert len(files) == 2 and "__0__" in files[0] + files[1] and "__0.05__" in "".join(files)


def test_multirun_with_joblib_launcher(tmp_path):
    pytest.importorskip("hydra_plugins.hydra_joblib_launcher")  # optional extra `.[joblib]`
    out = run_wp(
        [
            "run",
            "-m",
            "hydra/launcher=joblib",
            "hydra.launcher.n_jobs=2",
            "benchmark=fade",
            "noise=0,0.05",
            "seeds=1",
            "search.popsize=4",
            "search.maxiter=4",
            "progress=false",
            f"results_dir={tmp_path / 'r'}",
        ],
        tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert len(list((tmp_path / "r" / "fade").glob("*.front.parquet"))) == 2


def test_generate_2d_uses_the_run_noise_realisation(tmp_path, monkeypatch):
    """`wp generate` and `wp run` share one noisy field; 2-D draws from default_rng(700 + seed)."""
    from weakpareto.benchmarks.generators import generate
    from weakpareto.benchmarks.noise import add_noise

    monkeypatch.chdir(tmp_path)
    main(["generate", "benchmark=twod_a", "noise=0.05", "seed=2", "out=a.npz"])
    u = np.load(tmp_path / "a.npz")["u"]
    field = generate("twod_a", 2)
    np.testing.assert_array_equal(u, add_noise(field.u, "multiplicative", 0.05, 702))
    assert u.shape == (90, 80, 80)
