"""`wp run -m ... hydra/launcher=local|slurm`: chunked sweeps through Hydra's submitit launcher.

No cluster is needed: ``local`` runs submitit's local executor end to end, and ``slurm`` runs
against a stand-in for sbatch / srun / sacct (``fake_slurm.py``) that records the rendered
submission and runs the array tasks on this machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from weakpareto.campaign import chunks, dataset
from weakpareto.campaign import runner as runner
from weakpareto.campaign import store as res
from weakpareto.campaign.compose import compose_config

pytest.importorskip("hydra_plugins.hydra_submitit_launcher")  # the `.[cluster]` extra
pytest.importorskip("submitit")

WP = Path(sys.executable).with_name("wp")
TINY = [
    "search.popsize=1",
    "search.maxiter=1",
    "search.c_max=2",
    "search.test_budget=smoke",
    "progress=false",
]
#: Columns that differ between two computations of the same seed (clock, paths).
VOLATILE = ["created_utc", "runtime_s", "timings_json", "config_json", "git_commit"]


def run_wp(args: list[str], cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONWARNINGS": "ignore", "OMP_NUM_THREADS": "1", **(env or {})}
    return subprocess.run(
        [str(WP), *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=300
    )


def _rows(root: Path) -> pd.DataFrame:
    return res.load_runs(root).drop(columns=VOLATILE).reset_index(drop=True)


def test_local_launcher_runs_chunks_end_to_end_with_the_rows_of_the_default_path(tmp_path):
    sweep = ["noise=0,0.05", "seeds=2", *TINY]
    for noise in (0, 0.05):  # the default path, in this process: one Hydra job per point
        runner.run_config(
            compose_config([f"noise={noise}", "seeds=2", *TINY, f"results_dir={tmp_path / 'a'}"])
        )
    args = ["run", "-m", *sweep, f"results_dir={tmp_path / 'b'}", "hydra/launcher=local"]
    chunked = run_wp([*args, "chunk_size=3"], tmp_path)
    assert chunked.returncode == 0, chunked.stderr
    assert "4 seeds in 2 job(s) of <= 3 (0 already done)" in chunked.stdout
    assert "total: done 4, failed 0, missing 0 of 4" in chunked.stdout
    assert "wp compact: compacted 4 partition(s): 8 files -> 4" in chunked.stdout
    # every seed in the dataset, none in the per-seed layout; the same rows as without chunks
    assert not list((tmp_path / "b").glob("fade/*.parquet"))
    assert dataset.read_tree(tmp_path / "b", dataset.RUNS).num_rows == 4  # compacted: 1 file each
    pd.testing.assert_frame_equal(_rows(tmp_path / "a"), _rows(tmp_path / "b"))
    pd.testing.assert_frame_equal(
        res.load_fronts(tmp_path / "a").drop(columns=["created_utc"]),
        res.load_fronts(tmp_path / "b").drop(columns=["created_utc"]),
    )
    # submitit's logs and Hydra's record stay under the results directory
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]
    assert list((tmp_path / "b" / ".multirun").glob("*/.submitit"))
    # a rerun has nothing to submit
    plan, done = chunks.plan_sweep([*sweep, f"results_dir={tmp_path / 'b'}"], chunk_size=3)
    assert plan.pairs == () and done == 4


def _fake_slurm(tmp_path: Path) -> tuple[Path, dict]:
    bin_dir, record = tmp_path / "bin", tmp_path / "slurm"
    bin_dir.mkdir()
    record.mkdir()
    fake = Path(__file__).with_name("fake_slurm.py")
    for cmd in ("sbatch", "srun", "sacct", "squeue", "scancel"):
        wrapper = bin_dir / cmd
        wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{fake}" {cmd} "$@"\n')
        wrapper.chmod(0o755)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "FAKE_SLURM_DIR": str(record)}
    return record, env


def test_slurm_submission_is_rendered_from_the_launcher_config(tmp_path):
    record, env = _fake_slurm(tmp_path)
    out = run_wp(
        [
            "run",
            "-m",
            "noise=0,0.05",
            "seeds=1",
            *TINY,
            f"results_dir={tmp_path / 'r'}",
            "hydra/launcher=slurm",
            "chunk_size=1",
            "hydra.launcher.partition=debugq",
            "hydra.launcher.timeout_min=7",
            "hydra.launcher.array_parallelism=1",
            "hydra.launcher.cpus_per_task=2",
            "hydra.launcher.mem_gb=3",
        ],
        tmp_path,
        env,
    )
    assert out.returncode == 0, out.stderr + out.stdout
    (script_file,) = record.glob("sbatch_*.sh")
    script = script_file.read_text()
    for line in (
        "#SBATCH --partition=debugq",
        "#SBATCH --time=7",
        "#SBATCH --array=0-1%1",  # 2 chunks of one seed, one at a time
        "#SBATCH --cpus-per-task=2",
        "#SBATCH --mem=3GB",
        "#SBATCH --job-name=wp",
    ):
        assert line in script.splitlines(), f"{line!r} not in\n{script}"
    assert "submitit.core._submit" in script
    assert json.loads(script_file.with_suffix(".json").read_text())["args"][-1].endswith(".sh")
    assert "total: done 2, failed 0, missing 0 of 2" in out.stdout
    runs = res.load_runs(tmp_path / "r")
    assert sorted(runs["noise"].tolist()) == [0.0, 0.05] and (runs["status"] == "ok").all()
    log = (record / "tasks_0.log").read_text()  # what the array tasks printed
    assert log.count("computed (ok)") == 2
    assert log.count("1 seed(s), 2 BLAS thread(s)") == 2  # threads = cpus per task


@pytest.mark.slow
def test_a_paper_table_through_the_local_launcher_renders_byte_identical_tables(tmp_path):
    """`make reproduce-main LAUNCHER=local` against `make reproduce-main` (tiny budget)."""
    tiny = ["search.popsize=1", "search.maxiter=2", "seeds=2", *TINY[2:]]
    for name, launcher in (("a", []), ("b", ["hydra/launcher=local"])):
        runs = tmp_path / name / "runs"
        out = run_wp(
            ["run", "-m", "+experiment=main", f"results_dir={runs}", *tiny, *launcher], tmp_path
        )
        assert out.returncode == 0, out.stderr
        report = run_wp(
            ["report", f"results_dir={runs}", f"out_dir={tmp_path / name / 'tables'}"], tmp_path
        )
        assert report.returncode == 0, report.stderr
    a, b = tmp_path / "a" / "tables", tmp_path / "b" / "tables"
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir()) and "tab_main.tex" in names
    for n in names:
        if n.endswith((".tex", ".md")):
            assert (a / n).read_bytes() == (b / n).read_bytes(), n
