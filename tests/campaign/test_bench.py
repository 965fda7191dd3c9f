"""`wp bench` plumbing (no timing assertions: performance lives in results/bench/)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pandas as pd
import pytest

from weakpareto.campaign import bench
from weakpareto.campaign.bench import bench_command, fit_exponent, published_per_seed, time_one
from weakpareto.errors import UserInputError

SHARED_SPEC = Path(__file__).parents[3] / "shared" / "spec"


def test_fit_exponent_recovers_power_law():
    xs = [315, 660, 1333, 2640, 5270]
    assert fit_exponent(xs, [3e-6 * x**1.5 for x in xs]) == pytest.approx(1.5, abs=1e-12)


def test_stage_split_sums_to_total():
    r = time_one(["benchmark=rd_space", "noise=0.1", "search.popsize=4", "search.maxiter=4"])
    parts = r["data_s"] + r["banks_s"] + r["search_s"] + r["refine_s"]
    assert 0.9 * r["total_s"] <= parts <= 1.0001 * r["total_s"]
    assert r["n_rows"] == 1440 and r["n_evals"] > 0
    # the DE budget and mode of the timed config (tab:runtime's DE-budget column reads them)
    assert (r["de_popsize"], r["de_maxiter"]) == (4, 4)
    assert (r["de_updating"], r["de_vectorized"]) == ("deferred", True)


@pytest.mark.parametrize(
    "args, needle",
    [
        (["repeats=0"], "repeats"),
        (["repeats=x"], "repeats"),
        (["color=red"], "color"),
        (["fast"], "fast"),
        (["scaling=maybe"], "scaling"),
        (["uncertainty=perhaps"], "uncertainty"),
        (["benchmarks="], "benchmarks"),
        (["benchmarks=fade,nope"], "nope"),
        (["overrides=search.nosuchkey=1"], "nosuchkey"),
    ],
)
def test_bad_options_fail_before_any_timing(args, needle, monkeypatch):
    def no_run(*a, **k):
        raise AssertionError("bad input must be rejected before timing")

    monkeypatch.setattr(bench, "run_bench", no_run)
    with pytest.raises(UserInputError, match=needle):
        bench_command(args)


def test_published_timings_are_the_quiet_machine_per_extra_seed_figures():
    pub = published_per_seed()
    assert {k: v.per_extra_seed_s for k, v in pub.items()} == {
        "fade": 13.0,
        "burgers": 16.4,
        "rd_space": 9.5,
        "rd_timespace": 5.2,
    }
    assert list(pub["fade"].extra_seeds) == [1, 2, 3]  # measured with 4 seeds
    assert list(pub["burgers"].extra_seeds) == [1, 2]  # measured with 3 seeds


def test_packaged_reference_timings_are_the_shared_spec_verbatim():
    data = resources.files("weakpareto") / "data"
    for name in ("reference_timings.csv", "reference_timings.md"):
        shared = SHARED_SPEC / name
        if not shared.is_file():
            pytest.skip(f"{shared} not available")
        assert (data / name).read_bytes() == shared.read_bytes()


CALLS: list[tuple[str, int]] = []


def _fake_time_one(overrides: list[str], seed: int = 0, memory: bool = False) -> dict:
    """Fixed timings: FADE 0.96 s (paper-exact 1.2 s); RD space 0.40 s for seed 0, 1.02 s
    otherwise; strong 0.5 s."""
    name = next(o.split("=")[1] for o in overrides if o.startswith("benchmark="))
    strong = "method=strong_pareto" in overrides
    exact = "search.updating=immediate" in overrides
    CALLS.append((name + (" strong" if strong else "") + (" exact" if exact else ""), seed))
    if strong:
        total = 0.5
    elif name == "fade":
        total = 1.2 if exact else 0.96
    else:
        total = 0.40 if seed == 0 else 1.02
    out = {
        "data_s": 0.01,
        "banks_s": 0.05,
        "search_s": total - 0.16,
        "refine_s": 0.1,
        "total_s": total,
        "n_rows": 2640,
        "n_evals": 100,
        "equation": "D_t^0.8 u = -1.0 D_x^1.0 u",
        "operator_ok": True,
        "de_popsize": 7,
        "de_maxiter": 24,
        "de_updating": "immediate" if exact else "deferred",
        "de_vectorized": not exact,
    }
    if memory:
        out["peak_mb"] = 36.0
    return out


def _fake_machine(monkeypatch) -> None:
    """2 us per objective evaluation, a 0.25 s reference workload, load average 0.5, other
    processes on 30 % of the cores."""
    monkeypatch.setattr(bench, "objective_cost", lambda overrides: 2e-6)
    monkeypatch.setattr(bench, "reference_seconds", lambda repeats=3: 0.25)
    monkeypatch.setattr(bench, "load_average", lambda: 0.5)
    monkeypatch.setattr(bench.OtherLoad, "share", lambda self: 0.3)


def test_bench_compares_with_the_csv_per_seed_timings(tmp_path, monkeypatch, capsys):
    CALLS.clear()
    monkeypatch.setattr(bench, "time_one", _fake_time_one)
    _fake_machine(monkeypatch)
    tables = bench.run_bench(tmp_path / "b", ["fade", "rd_space"], 2, False, [])
    out = capsys.readouterr().out
    assert "seeds 1-3: 0.96 s/seed vs published 13.0 s per extra seed -> 13.5x" in out
    assert "seeds 1-3: 1.20 s/seed vs published 13.0 s per extra seed -> 10.8x" in out
    # RD space: seed 0 is quick (0.40 s), the ratio uses seeds 1-2 like the published figure
    assert "seeds 1-2: 1.02 s/seed vs published 9.5 s per extra seed -> 9.3x" in out
    assert "fade strong" in out and "no published timing" in out
    assert "26.5" not in out and "14.2" not in out  # the busy-machine figures are gone
    assert sorted(s for n, s in CALLS if n == "fade") == [0, 0, 0, 1, 2, 3]  # 2 repeats + memory
    assert sorted(s for n, s in CALLS if n == "rd_space") == [0, 0, 0, 1, 2]
    assert sorted(s for n, s in CALLS if n == "fade exact") == [0, 0, 0, 1, 2, 3]
    stages = pd.read_csv(tmp_path / "b" / "stages.csv").set_index("benchmark")
    assert stages.loc["fade", "published_per_extra_seed_s"] == 13.0
    assert stages.loc["fade", "speedup"] == pytest.approx(13.0 / 0.96)
    assert stages.loc["rd_space", "total_s"] == pytest.approx(0.40)  # seed 0, tab:runtime
    assert stages.loc["rd_space", "ours_per_extra_seed_s"] == pytest.approx(1.02)
    assert stages.loc["rd_space", "speedup"] == pytest.approx(9.5 / 1.02)
    for strong in ("fade (strong)", "rd_space (strong)"):
        assert stages.loc[strong, "total_s"] == 0.5
        assert pd.isna(stages.loc[strong, "published_per_extra_seed_s"])
        assert pd.isna(stages.loc[strong, "speedup"])
    assert list(tables["stages"]["benchmark"]) == list(stages.index)
    assert (
        stages.loc["fade", "de_maxiter"] == 24 and stages.loc["fade", "de_updating"] == "deferred"
    )
    exact = stages.loc["fade (paper-exact)"]
    assert exact["de_updating"] == "immediate" and exact["speedup"] == pytest.approx(13.0 / 1.2)
    assert stages.loc["fade (strong)", "de_popsize"] == 7
    # the search against its floor: 100 evaluations at 2 us = 0.2 ms; FADE's search 0.80 s
    assert stages.loc["fade", "floor_s"] == pytest.approx(100 * 2e-6)
    assert stages.loc["fade", "search_over_floor"] == pytest.approx(0.80 / 2e-4)
    assert stages.loc["fade", "eval_us"] == pytest.approx(2.0)
    assert stages.loc["fade", "other_cpu"] == 0.3
    assert stages.loc["fade", "reference_s"] == 0.25
    assert "search 4000.0x its floor (100 evaluations at 2.00 us); other processes 30 %" in out
    machine = json.loads((tmp_path / "b" / "machine.json").read_text())
    assert machine["cpu_count"] and machine["numpy"]
    assert (machine["reference_s"], machine["load_1m"], machine["other_cpu"]) == (0.25, 0.5, 0.3)
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == ["machine.json", "stages.csv"]


def test_benchmark_without_published_timing_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(bench, "time_one", _fake_time_one)
    _fake_machine(monkeypatch)
    monkeypatch.setattr(bench, "published_per_seed", lambda: {})
    bench.run_bench(tmp_path, ["fade"], 1, False, [])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("fade ") and lines[0].endswith("no published timing")
    assert pd.isna(pd.read_csv(tmp_path / "stages.csv")["speedup"][0])


def test_reference_workload_and_load_are_measured():
    """The reference workload runs SciPy's DE to its generation limit (a time, never asserted
    beyond being one); the load average is the system's own."""
    import os

    assert 0.0 < bench.reference_seconds(repeats=1) < 60.0
    assert bench.load_average() == pytest.approx(os.getloadavg()[0], abs=2.0)


def test_other_processes_share_counts_a_busy_core_and_not_our_own_work():
    """A process spinning on one core beside a sleeping bench is about half of a 2-core
    machine (1/cores in general); the bench's own computing is not counted. On a machine
    already busy with other work the share cannot tell the two apart: skipped there."""
    import os
    import subprocess
    import time

    if not os.path.exists("/proc/stat"):
        pytest.skip("no /proc/stat here")
    cores = os.cpu_count() or 1
    quiet = bench.OtherLoad.start()
    time.sleep(0.5)
    if (background := quiet.share()) > 0.1:
        pytest.skip(f"other processes use {background:.0%} of the cores")
    own = bench.OtherLoad.start()
    sum(i * i for i in range(2_000_000))
    assert own.share() < background + 0.3 / cores
    spinner = subprocess.Popen(["sh", "-c", "while :; do :; done"])
    try:
        time.sleep(0.2)
        busy = bench.OtherLoad.start()
        time.sleep(1.0)
        share = busy.share()
    finally:
        spinner.kill()
    assert 0.6 / cores < share <= 1.0
