"""Seeds in worker processes that stop when asked and never outlive the run.

:func:`run_bounded` keeps at most ``WINDOW_PER_WORKER * workers`` tasks in flight (a million
seeds cost no memory up front, and a Ctrl-C never waits for queued work) and hands each result
to a callback as soon as it arrives (progress bar, summary). On any exception in the parent,
KeyboardInterrupt included, the workers are terminated and queued tasks cancelled: SIGTERM, which
a worker busy with a task turns into an exception so that ``finally`` blocks and the atomic
writers remove their temporary files and claims (an idle worker just dies), then SIGKILL after
:data:`TERM_GRACE_S`.

Workers ignore SIGINT (a terminal's Ctrl-C reaches the whole process group; the parent decides)
and die with their parent even when it is SIGKILLed: on Linux through ``PR_SET_PDEATHSIG``,
everywhere through a watchdog thread that polls the parent every :data:`PARENT_POLL_S`.
"""

from __future__ import annotations

import ctypes
import itertools
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from threadpoolctl import threadpool_limits

#: Tasks in flight per worker: one running, one queued (keeps every worker busy).
WINDOW_PER_WORKER = 2
#: Seconds a terminated worker gets to clean up before SIGKILL.
TERM_GRACE_S = 1.5
#: Seconds to wait for the pool's manager thread after its workers are gone (it then exits at
#: once; left running, its teardown at interpreter exit can print a stray EBADF error).
MANAGER_JOIN_S = 0.5
#: Seconds between two checks of the parent by a worker's watchdog.
PARENT_POLL_S = 0.25
#: Longest wait of the parent between two checks for Ctrl-C.
WAKE_S = 0.5
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


class WorkerTerminated(SystemExit):
    """Raised in a worker by SIGTERM: unwinds (cleanup runs), then the worker exits."""


class WorkerDied(SystemExit):
    """A worker process died unexpectedly (killed, out of memory): one line, exit code 1."""


_terminating = False


def _on_sigterm(signum: int, frame: Any) -> None:
    """SIGTERM during a task: unwind it (its cleanup runs). A second SIGTERM (parent death is
    signalled twice: PR_SET_PDEATHSIG and the watchdog) must not cut the cleanup short; a
    worker that does not finish is killed by the parent or its watchdog after TERM_GRACE_S."""
    global _terminating
    if _terminating:
        return
    _terminating = True
    raise WorkerTerminated(128 + signum)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a killed parent not yet reaped is a zombie: dead for our purpose
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _watch_parent(owner: int, first_ppid: int) -> None:
    while os.getppid() == first_ppid and _pid_alive(owner):
        time.sleep(PARENT_POLL_S)
    if not _terminating:  # PR_SET_PDEATHSIG may have done it already
        os.kill(os.getpid(), signal.SIGTERM)  # unwind in the main thread (cleanup)
    time.sleep(TERM_GRACE_S)
    os._exit(143)  # still busy in C code: leave now


def _die_with_parent(owner: int) -> None:
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)  # the running program's libc
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watchdog below still works
    watch = threading.Thread(
        target=_watch_parent, args=(owner, os.getppid()), name="wp-parent-watch", daemon=True
    )
    # The watchdog must never receive SIGTERM itself: Python runs handlers in the main thread
    # only, and a main thread blocked on the task queue would not notice. A thread inherits
    # its creator's signal mask, so block SIGTERM around the start.
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        watch.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _worker_init(owner: int, init: Callable[..., None] | None, args: tuple) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a task sets its handler (see _call)
    _die_with_parent(owner)
    threadpool_limits(1)  # one BLAS thread per worker: workers x 1 threads in total
    if init is not None:
        init(*args)


def _call(fn: Callable[[Any], Any], item: Any) -> Any:
    """Run one task; SIGTERM unwinds it. Between tasks SIGTERM keeps its default action: an
    idle worker has nothing to clean up, and a Python handler could miss a signal that arrives
    just before the worker blocks on the task queue."""
    try:
        signal.signal(signal.SIGTERM, _on_sigterm)
        try:
            return fn(item)
        finally:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
    except WorkerTerminated as stop:
        os._exit(int(stop.code or 143))  # cleanup has run while unwinding


@contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Hold Ctrl-C while the pool starts a worker: an interrupt between the fork and the pool's
    bookkeeping would leave a worker nobody knows about. The signal is delivered afterwards."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _submit(pool: ProcessPoolExecutor, fn: Callable[[Any], Any], item: Any) -> Future:
    with _sigint_deferred():  # submit() starts the worker processes
        return pool.submit(_call, fn, item)


def _stop(pool: ProcessPoolExecutor, started: list[Any]) -> None:
    """Cancel queued tasks, terminate the workers (SIGTERM, then SIGKILL), reap them.

    ``started``: the multiprocessing children that existed before the pool (not ours).
    """
    try:  # a second Ctrl-C must not interrupt the cleanup
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        previous = None
    try:
        # workers first: closing the pool's pipes under a live worker makes it fail noisily
        procs = list((getattr(pool, "_processes", None) or {}).values())
        procs += [p for p in multiprocessing.active_children() if p not in started + procs]
        for p in procs:
            if p.is_alive():
                p.terminate()
        deadline = time.monotonic() + TERM_GRACE_S
        for p in procs:
            p.join(max(0.0, deadline - time.monotonic()))
        for p in procs:
            if p.is_alive():
                p.kill()
                p.join(1.0)
        manager = getattr(pool, "_executor_manager_thread", None)
        pool.shutdown(wait=False, cancel_futures=True)
        if manager is not None:  # its teardown at exit would use pipes closed by then
            manager.join(MANAGER_JOIN_S)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def run_bounded(
    fn: Callable[[Any], Any],
    items: Iterable[Any],
    workers: int,
    on_result: Callable[[Any], None],
    initializer: Callable[..., None] | None = None,
    initargs: tuple = (),
) -> None:
    """``on_result(fn(item))`` for every item, in ``workers`` processes, as results arrive.

    ``fn`` and ``initializer`` must be picklable (module-level); ``initializer(*initargs)`` runs
    once per worker (e.g. to hold data shared by every task). Results arrive in completion order.
    """
    window = max(1, WINDOW_PER_WORKER * workers)
    todo = iter(items)
    pending: set[Future] = set()
    before = multiprocessing.active_children()
    pool = None
    try:
        pool = ProcessPoolExecutor(
            max_workers=workers,
            initializer=_worker_init,
            initargs=(os.getpid(), initializer, initargs),
        )
        for item in itertools.islice(todo, window):
            pending.add(_submit(pool, fn, item))
        while pending:
            # a timeout: a signal delivered to another thread is still seen within WAKE_S
            done, pending = wait(pending, timeout=WAKE_S, return_when=FIRST_COMPLETED)
            for fut in done:
                on_result(fut.result())
            for item in itertools.islice(todo, window - len(pending)):
                pending.add(_submit(pool, fn, item))
    except BrokenProcessPool:
        if pool is not None:
            _stop(pool, before)
        raise WorkerDied(
            "wp: error: a worker process died unexpectedly (killed, or out of memory); "
            "finished seeds are saved, rerun the same command to resume (fewer workers= "
            "if memory is short)"
        ) from None
    except BaseException:
        if pool is not None:
            _stop(pool, before)
        raise
    pool.shutdown(wait=True)
