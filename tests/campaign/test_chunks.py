"""Chunk plans, `wp status` after a killed sweep, and a job killed in the middle of its chunk."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from weakpareto import cli
from weakpareto.campaign import chunks, dataset, provenance, status
from weakpareto.campaign import runner as runner
from weakpareto.campaign import store as res
from weakpareto.campaign.compose import compose_config
from weakpareto.errors import UserInputError

TINY = [
    "search.popsize=1",
    "search.maxiter=1",
    "search.c_max=2",
    "search.test_budget=smoke",
    "progress=false",
]


def _sweep(root, seeds=3):
    return ["noise=0,0.05", f"seeds={seeds}", f"results_dir={root}", *TINY]


def _run_plain(root, noise, seeds=3):
    over = [f"noise={noise}", f"seeds={seeds}", f"results_dir={root}", *TINY]
    return runner.run_config(compose_config(over))


def test_status_after_a_killed_sweep_and_the_rerun_computes_only_failed_and_missing(
    tmp_path, monkeypatch, capsys
):
    real = runner.discover_seed

    def flaky(cfg, seed, progress=None):
        if seed == 1:
            raise np.linalg.LinAlgError("synthetic singular matrix")
        return real(cfg, seed, progress)

    monkeypatch.setattr(runner, "discover_seed", flaky)
    _run_plain(tmp_path, 0)  # point 1: seeds 0, 2 done, seed 1 failed
    # the sweep was killed before point 2 started: all of its seeds are missing
    points = status.sweep_status(_sweep(tmp_path), multirun=True)
    assert [(p.label, p.done, p.failed, p.missing) for p in points] == [
        ("noise=0", (0, 2), (1,), ()),
        ("noise=0.05", (), (), (0, 1, 2)),
    ]
    text = status.report(points)
    assert "total: done 2, failed 1, missing 3 of 6" in text
    assert "failed seeds 1" in text and "missing seeds 0-2" in text

    plan, done = chunks.plan_sweep(_sweep(tmp_path), chunk_size=2)
    assert done == 2 and plan.n_chunks == 2
    assert [(plan.configs[i]["noise"], s) for i, s in plan.pairs] == [
        (0.0, 1),
        (0.05, 0),
        (0.05, 1),
        (0.05, 2),
    ]
    path = chunks.write_plan(plan, tmp_path)
    computed: list[tuple[float, int]] = []

    def counting(cfg, seed, progress=None):
        computed.append((float(cfg.noise), seed))
        return real(cfg, seed, progress)

    monkeypatch.setattr(runner, "discover_seed", counting)
    for index in range(plan.n_chunks):
        chunks.run_chunk(path, index)
    assert sorted(computed) == [(0.0, 1), (0.05, 0), (0.05, 1), (0.05, 2)]
    after = status.sweep_status(_sweep(tmp_path), multirun=True)
    assert all(p.done == (0, 1, 2) for p in after)
    runs = res.load_runs(tmp_path)
    assert len(runs) == 6 and (runs["status"] == "ok").all()
    assert chunks.plan_sweep(_sweep(tmp_path), chunk_size=2)[0].pairs == ()
    capsys.readouterr()
    cli.main(["status", "-m", *_sweep(tmp_path), "hydra/launcher=slurm", "chunk_size=5"])
    assert "total: done 6, failed 0, missing 0 of 6" in capsys.readouterr().out
    cli.main(["compact", f"results_dir={tmp_path}", "legacy=true"])  # plain runs moved in too
    out = capsys.readouterr().out
    # 3 per-seed files of the plain run (seed 1 failed there) + 4 dataset seeds, and fronts
    assert "compacted 4 partition(s): 14 files -> 4, 6 runs (1 duplicate rows dropped)" in out
    assert "3 per-seed result(s) moved into the dataset" in out
    assert (res.load_runs(tmp_path)["status"] == "ok").sum() == 6  # the failed row is gone


def test_status_and_chunked_run_reject_bad_input_in_one_line(tmp_path, capsys):
    for args in (
        ["status", "-m", "noise=0,-1", f"results_dir={tmp_path}"],
        ["run", "-m", "noise=0", "hydra/launcher=local", "chunk_size=x"],
        ["status", "--fast"],
    ):
        with pytest.raises(SystemExit) as exc:
            cli.main(args)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("wp: error: ") and err.count("\n") == 1, err
    assert not list(tmp_path.iterdir())  # nothing planned or written


def test_plan_caps_local_chunks_and_rejects_a_bad_chunk_size(tmp_path):
    plan, _ = chunks.plan_sweep(_sweep(tmp_path, seeds=5), chunk_size=1, max_chunks=3)
    assert len(plan.pairs) == 10 and plan.chunk_size == 4 and plan.n_chunks == 3
    assert chunks.Plan.from_json(plan.as_json()) == plan
    assert all(c["results_dir"] == str(tmp_path.resolve()) for c in plan.configs)
    with pytest.raises(UserInputError, match="chunk_size=0 must be an integer >= 1"):
        chunks.split_chunk_size(["chunk_size=0"])
    assert chunks.split_chunk_size(["noise=0", "chunk_size=7"]) == (7, ["noise=0"])
    assert chunks.is_chunked(["hydra/launcher=slurm"], multirun=True)
    assert not chunks.is_chunked(["hydra/launcher=joblib"], multirun=True)
    assert not chunks.is_chunked(["hydra/launcher=slurm"], multirun=False)


# Seeds 0 and 1 finish; seed 2 holds its claim until the kill, however loaded the machine is.
KILLED_CHUNK = """
import sys, time
from weakpareto.campaign import chunks, runner
real = runner.discover_seed
def stuck_from_seed_2(cfg, seed, progress=None):
    if seed >= 2:
        time.sleep(3600)
    return real(cfg, seed, progress)
runner.discover_seed = stuck_from_seed_2
chunks.run_chunk(sys.argv[1], 0)
"""


def test_a_job_killed_mid_chunk_then_rerun_loses_and_duplicates_nothing(tmp_path):
    plan, _ = chunks.plan_sweep(["noise=0.05", "seeds=6", f"results_dir={tmp_path}", *TINY], 6)
    path = chunks.write_plan(plan, tmp_path)
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONWARNINGS": "ignore"}
    proc = subprocess.Popen([sys.executable, "-c", KILLED_CHUNK, str(path)], env=env)
    runs_dir = dataset.tree(tmp_path, dataset.RUNS)
    claim_of_seed_2 = None
    deadline = time.time() + 300
    while claim_of_seed_2 is None and time.time() < deadline:
        time.sleep(0.05)
        if len(list(runs_dir.rglob("*.parquet"))) >= 2:
            claim_of_seed_2 = next(iter(tmp_path.rglob("*seed2*.claim")), None)
    os.kill(proc.pid, signal.SIGKILL)  # as SLURM does at the time limit after its grace
    proc.wait()
    first = res.load_runs(tmp_path)
    assert claim_of_seed_2 is not None and claim_of_seed_2.exists()
    assert sorted(first["seed"]) == [0, 1]
    provenance.current.cache_clear()  # the code as the killed job saw it (others may edit it)
    outcomes = chunks.run_chunk(path, 0)  # the rerun of the same chunk
    states = {o.seed: o.state for o in outcomes}
    assert all(states[s] == "cached" for s in first["seed"])  # finished seeds are kept
    assert sum(s == "computed" for s in states.values()) == 6 - len(first)
    runs = res.load_runs(tmp_path)
    assert sorted(runs["seed"]) == [0, 1, 2, 3, 4, 5]
    assert dataset.read_tree(tmp_path, dataset.RUNS).num_rows == 6  # no duplicate on disk
    kept = runs.set_index("seed").loc[first["seed"], "created_utc"].tolist()
    assert kept == first["created_utc"].tolist()  # not recomputed
    assert not list(tmp_path.rglob("*.claim"))  # the killed job's claim was broken
