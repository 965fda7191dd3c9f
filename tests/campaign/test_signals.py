"""`wp run` as a process: Ctrl-C and SIGKILL with parallel workers, a million seeds, and two runs
sharing one results directory. Each test starts the installed `wp` (tiny search budgets)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq
import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")

WP = Path(sys.executable).with_name("wp")
#: About 0.3 s per FADE seed; ``SLOWER`` about 1 s (work left when the signal arrives).
TINY = ["search.popsize=1", "search.maxiter=1", "search.c_max=2", "search.test_budget=smoke"]
SLOWER = ["search.popsize=2", "search.maxiter=2"]


def start(args: list[str], cwd: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    return subprocess.Popen(
        [str(WP), "run", "benchmark=fade", "progress=false", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _state(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def alive(pid: int) -> bool:
    return _state(pid) not in (None, "Z")


def children(pid: int) -> list[int]:
    kids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                kids.append(int(d.name))
    return kids


def wait_for(condition: Callable[[], object], timeout: float) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout} s")
        time.sleep(0.05)


def run_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*.parquet") if not p.name.endswith(".front.parquet")]


def assert_clean(root: Path) -> None:
    """No temporary files, no claims; every run file complete and beside its front file."""
    names = [p.name for p in root.rglob("*") if p.is_file()]
    assert not [n for n in names if n.endswith((".tmp", ".claim"))], names
    for p in run_files(root):
        assert pq.read_table(p).num_rows == 1
        assert p.with_name(p.name.replace(".parquet", ".front.parquet")).is_file()


def test_ctrl_c_with_two_workers_stops_within_3_s(tmp_path):
    res = tmp_path / "r"
    proc = start(["seeds=16", "workers=2", f"results_dir={res}", *SLOWER], tmp_path)
    wait_for(lambda: list(res.rglob(".*.claim")), 60)  # both workers are computing
    workers = children(proc.pid)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    elapsed = time.monotonic() - t0
    assert proc.returncode == 130 and elapsed < 3, (proc.returncode, elapsed, err)
    last = err.strip().splitlines()[-1]
    assert last.startswith("wp: interrupted: ") and "of 16 seeds finished" in last
    assert "rerun the same command to resume" in last and "Traceback" not in err
    assert workers and not [w for w in workers if alive(w)]
    assert_clean(res)
    assert len(run_files(res)) < 16


def test_sigkill_of_the_parent_leaves_no_worker_alive(tmp_path):
    res = tmp_path / "r"
    proc = start(["seeds=16", "workers=2", f"results_dir={res}", *SLOWER], tmp_path)
    wait_for(lambda: list(res.rglob(".*.claim")) and len(children(proc.pid)) == 2, 60)
    workers = children(proc.pid)
    proc.kill()
    proc.wait()
    wait_for(lambda: not [w for w in workers if alive(w)], 3)
    assert_clean(res)  # the workers unwound: no half-written file, no claim left


def test_a_million_seeds_start_at_once_and_stop_on_ctrl_c(tmp_path):
    """Bounded submission: results appear within seconds; Ctrl-C still stops the run. (The flat
    parent memory is measured by the slow benchmark test below.)"""
    res = tmp_path / "r"
    proc = start(["seeds=1000000", "workers=2", f"results_dir={res}", *TINY], tmp_path)
    wait_for(lambda: len(run_files(res)) >= 2, 30)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "of 1000000 seeds finished" in err
    assert_clean(res)


def test_two_runs_on_one_results_dir_compute_each_seed_once(tmp_path):
    res = tmp_path / "r"
    tiny = [a for a in TINY if not a.startswith("search.c_max=")]  # a key is given once
    args = ["seeds=8", f"results_dir={res}", *tiny, "search.c_max=3"]
    first, second = start(args, tmp_path), start(args, tmp_path)
    both = [p.communicate(timeout=120) for p in (first, second)]
    outs = [out for out, _ in both]
    assert [first.returncode, second.returncode] == [0, 0], both  # with what each printed
    computed = [
        line.split(":")[0].strip()
        for out in outs
        for line in out.splitlines()
        if line.startswith("  seed ") and "(cached)" not in line and "another process" not in line
    ]
    assert sorted(computed) == sorted(f"seed {s}" for s in range(8)), outs
    assert len(run_files(res)) == 8
    assert_clean(res)


@pytest.mark.slow
def test_parent_memory_stays_flat_with_a_million_seeds(tmp_path):
    """Benchmark: resident memory of the parent over 20 s of `seeds=1000000 workers=2`."""
    res = tmp_path / "r"
    proc = start(["seeds=1000000", "workers=2", f"results_dir={res}", *TINY], tmp_path)

    def rss_kb() -> int:
        for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")

    wait_for(lambda: len(run_files(res)) >= 1, 30)
    first = rss_kb()
    time.sleep(20)
    last, done = rss_kb(), len(run_files(res))
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=30)
    print(f"parent RSS {first} kB -> {last} kB over 20 s, {done} seeds finished")
    assert last - first < 20_000 and done > 10
