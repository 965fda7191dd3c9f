"""The bounded worker pool: a window of tasks, prompt stop, workers that die with their parent."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from weakpareto.campaign import pool


def _gone(pids: set[int]) -> bool:
    """All these processes have exited (a zombie, not yet reaped, counts as gone)."""
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                if fh.read().rsplit(")", 1)[1].split()[0] != "Z":
                    return False
        except OSError:
            pass
    return True


def _new_pids(before: set) -> set[int]:
    return {p.pid for p in multiprocessing.active_children() if p not in before and p.pid}


def _square(x: int) -> int:
    return x * x


def _slow(x: int) -> int:
    time.sleep(0.05)
    return x


def _forever(x: int) -> int:
    while True:
        time.sleep(0.01)


def _boom(x: int) -> int:
    if x == 3:
        raise RuntimeError("task failed")
    return x


def test_every_result_arrives_once():
    got: list[int] = []
    pool.run_bounded(_square, range(20), 2, got.append)
    assert sorted(got) == [x * x for x in range(20)]


def test_at_most_a_window_of_tasks_is_submitted():
    """Items are pulled lazily: never more than 2 x workers ahead of the results."""
    pulled = 0
    ahead: list[int] = []
    done: list[int] = []

    def items():
        nonlocal pulled
        for i in range(30):
            pulled += 1
            ahead.append(pulled - len(done))
            yield i

    pool.run_bounded(_slow, items(), 2, done.append)
    assert sorted(done) == list(range(30))
    assert max(ahead) <= pool.WINDOW_PER_WORKER * 2


def test_an_endless_iterable_is_fine_and_an_exception_stops_the_workers():
    """A million (here: endless) seeds cost nothing up front; an error in the parent's callback
    stops the pool at once, with every worker process gone."""
    seen: list[int] = []

    def stop_after_five(x: int) -> None:
        seen.append(x)
        if len(seen) == 5:
            raise KeyboardInterrupt

    before = set(multiprocessing.active_children())
    workers: set[int] = set()

    def stop_after_five_seen(x: int) -> None:
        workers.update(_new_pids(before))
        stop_after_five(x)

    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        pool.run_bounded(_slow, iter(int, 1), 2, stop_after_five_seen)  # iter(int, 1): endless
    assert time.monotonic() - t0 < 5
    assert workers and _gone(workers)


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_ctrl_c_terminates_tasks_that_never_end():
    before = set(multiprocessing.active_children())
    workers: set[int] = set()

    def interrupt() -> None:
        workers.update(_new_pids(before))
        os.kill(os.getpid(), signal.SIGINT)

    threading.Timer(1.0, interrupt).start()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        pool.run_bounded(_forever, range(4), 2, lambda x: None)
    assert time.monotonic() - t0 < 1.0 + 2.0
    assert len(workers) == 2 and _gone(workers)


def test_task_error_propagates():
    with pytest.raises(RuntimeError, match="task failed"):
        pool.run_bounded(_boom, range(8), 2, lambda x: None)


def test_a_dead_worker_is_one_line_exit_1():
    def kill_a_worker(x: int) -> None:
        children = multiprocessing.active_children()
        for c in children:
            os.kill(c.pid, signal.SIGKILL)

    with pytest.raises(pool.WorkerDied) as exc:
        pool.run_bounded(_slow, range(50), 2, kill_a_worker)
    text = str(exc.value.code)
    assert text.startswith("wp: error: a worker process died") and "\n" not in text


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_watchdog_ends_a_worker_whose_owner_died():
    """Without PR_SET_PDEATHSIG (other systems), the watchdog thread notices the owner's death:
    the worker unwinds (SIGTERM) and exits within a poll interval or two."""
    owner = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.5)"])
    code = (
        "import os, signal, sys, time\n"
        "from weakpareto.campaign import pool\n"
        "signal.signal(signal.SIGTERM, pool._on_sigterm)  # as inside a task (pool._call)\n"
        f"import threading; threading.Thread(target=pool._watch_parent, args=({owner.pid}, "
        "os.getppid()), daemon=True).start()\n"
        "try:\n"
        "    time.sleep(30)\n"
        "finally:\n"
        "    print('cleaned up', flush=True)\n"
    )
    worker = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    owner.wait()  # the owner exits after 0.5 s (reaped here, so not a zombie)
    t0 = time.monotonic()
    out, _ = worker.communicate(timeout=10)
    assert time.monotonic() - t0 < 3
    assert worker.returncode == 128 + signal.SIGTERM and "cleaned up" in out
