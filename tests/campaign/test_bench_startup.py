"""`wp bench startup=true` plumbing: whole-process start-up rows (no timing assertions)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from weakpareto.campaign import bench, bench_startup
from weakpareto.campaign.bench import bench_command
from weakpareto.errors import UserInputError

TINY = ("search.popsize=1", "search.maxiter=1", "search.c_max=2", "search.test_budget=smoke")


def test_startup_rows_subtract_the_fit_from_the_whole_process(tmp_path):
    run = next(args for label, args in bench_startup.COMMANDS if label.startswith("wp run"))
    assert run is not None
    commands = (("import weakpareto.cli", None), ("wp --help", ("--help",)), ("wp run", run + TINY))
    df = bench_startup.startup_times(repeats=1, commands=commands)
    assert df["command"].tolist() == ["import weakpareto.cli", "wp --help", "wp run"]
    assert (df["repeats"] == 1).all() and (df["wall_s"] > 0).all()
    assert df["bytecode_cache"].tolist() == [True] * 3  # written first, whatever the environment
    helps, runs = df.iloc[:2], df.iloc[2]
    assert helps["fit_s"].isna().all() and (helps["startup_s"] == helps["wall_s"]).all()
    assert 0 < runs["fit_s"] < runs["wall_s"]
    assert runs["startup_s"] == pytest.approx(runs["wall_s"] - runs["fit_s"])
    path = bench_startup.write_startup(tmp_path, df)
    assert path == tmp_path / "startup.csv"
    assert pd.read_csv(path)["command"].tolist() == df["command"].tolist()


def test_startup_option_is_checked_and_passed(monkeypatch, tmp_path):
    seen = {}

    def fake_run(out_dir, names, repeats, scaling, extra, uncertainty, startup, *large):
        seen.update(startup=startup, uncertainty=uncertainty)

    monkeypatch.setattr(bench, "run_bench", fake_run)
    with pytest.raises(UserInputError, match="startup"):
        bench_command(["startup=maybe"])
    bench_command(["benchmarks=fade", "startup=false", "uncertainty=false", f"out_dir={tmp_path}"])
    assert seen == {"startup": False, "uncertainty": False}


def test_the_package_bytecode_is_written_before_timing(tmp_path, monkeypatch):
    """Started interpreters read ``__pycache__`` even under ``PYTHONDONTWRITEBYTECODE``: the
    bench writes it first, so no timed start compiles the package."""
    import importlib.util

    import weakpareto.campaign.bench_startup as module

    cached = Path(importlib.util.cache_from_source(module.__file__))
    cached.unlink(missing_ok=True)
    assert bench_startup.compile_package()
    assert cached.is_file() and cached.stat().st_mtime >= Path(module.__file__).stat().st_mtime
