"""Claim files: one process at a time computes a (config, seed), across concurrent ``wp run``.

Before computing a seed, the process creates ``.<run-file stem>.claim`` beside the run file
with ``O_CREAT | O_EXCL`` (atomic on local and NFS v3+ file systems) and writes its pid, host
and process start time into it; the claim is removed when the seed's files are written or the
computation stops (error, Ctrl-C, SIGTERM). A process that finds a live claim leaves the seed to
its holder ("running elsewhere"). A claim whose holder is dead (same host: pid gone, a zombie,
or the pid reused by a newer process) is stale, e.g. after a SIGKILL: it is broken and the seed
is computed. Breaking renames the claim to a private name first and checks it is still the stale
one, so two processes recovering the same claim cannot remove each other's fresh claims.
Claims of another host cannot be checked by pid: a holder refreshes its claim's modification
time every :data:`HEARTBEAT_S` while it computes, and a claim of another host not refreshed for
:data:`REMOTE_STALE_S` is stale (a cluster job killed with SIGKILL on another node, e.g. at its
time limit, does not block the rerun for longer than that).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CLAIM_SUFFIX = ".claim"
#: A claim file still empty after this long was left by a process killed while creating it.
EMPTY_CLAIM_GRACE_S = 10.0
#: Seconds between two refreshes of a held claim's modification time.
HEARTBEAT_S = 30.0
#: A claim of another host not refreshed for this long is stale (its holder is gone).
REMOTE_STALE_S = 10 * HEARTBEAT_S


def claim_path(run_file: str | os.PathLike) -> Path:
    """``<dir>/.<stem>.claim`` for the run file ``<dir>/<stem>.parquet``."""
    p = Path(run_file)
    return p.with_name(f".{p.name.removesuffix('.parquet')}{CLAIM_SUFFIX}")


def _start_time(pid: int) -> int | None:
    """Start time of ``pid`` in clock ticks since boot (Linux ``/proc``), None elsewhere."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[-1].split()  # the command name may contain spaces
    try:
        return int(fields[19])  # field 22 of proc(5); fields[0] is field 3 (state)
    except (IndexError, ValueError):
        return None


def _is_zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


@dataclass(frozen=True)
class Holder:
    """Who holds a claim."""

    pid: int
    host: str
    start: int | None = None  # process start time (Linux), to detect a reused pid

    @classmethod
    def me(cls) -> Holder:
        pid = os.getpid()
        return cls(pid, socket.gethostname(), _start_time(pid))

    def as_json(self) -> str:
        return json.dumps({"pid": self.pid, "host": self.host, "start": self.start})

    @classmethod
    def parse(cls, text: str) -> Holder | None:
        try:
            d: Any = json.loads(text)
            start = None if d["start"] is None else int(d["start"])
            return cls(int(d["pid"]), str(d["host"]), start)
        except (ValueError, KeyError, TypeError):
            return None

    def alive(self, age: float = 0.0) -> bool:
        """False when the holder is certainly gone: on this host by its pid, on another host when
        its claim (``age`` seconds since the last heartbeat) is older than REMOTE_STALE_S."""
        if self.host != socket.gethostname():
            return age < REMOTE_STALE_S
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # exists, owned by another user
            pass
        if _is_zombie(self.pid):
            return False
        now = _start_time(self.pid)
        return self.start is None or now is None or now == self.start

    def describe(self) -> str:
        here = self.host == socket.gethostname()
        return f"pid {self.pid}" + ("" if here else f" on {self.host}")


UNKNOWN = Holder(-1, "?")


@contextmanager
def deferred_signals() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM until the block is done (a claim file, a pair of result files):
    a signal that arrives meanwhile is handled right after it, by its usual handler.

    Python runs signal handlers in the main thread only; elsewhere this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def remember(signum: int, frame: Any) -> None:
        caught.append(signum)

    previous = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        handler = signal.getsignal(sig)
        if handler is not signal.SIG_IGN and handler is not None:
            previous[sig] = signal.signal(sig, remember)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for signum in dict.fromkeys(caught):
            handler = previous[signal.Signals(signum)]
            if callable(handler):
                handler(signum, None)  # e.g. KeyboardInterrupt, or a worker's unwinding
            else:
                signal.raise_signal(signum)  # the default action, now


class Claim:
    """A held claim; :meth:`release` (or leaving the ``with`` block) removes the file.

    While held, a daemon thread refreshes the file's modification time every
    :data:`HEARTBEAT_S` (the holder is alive, for processes on other hosts).
    """

    def __init__(self, path: Path, holder: Holder) -> None:
        self.path, self.holder = path, holder
        self._stop = threading.Event()
        self._beat = threading.Thread(target=self._heartbeat, name="wp-claim", daemon=True)
        # signals go to the main thread, never to this one (its mask is inherited)
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            self._beat.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    def _heartbeat(self) -> None:
        while not self._stop.wait(HEARTBEAT_S):
            try:
                os.utime(self.path)
            except OSError:
                return

    def release(self) -> None:
        self._stop.set()
        with deferred_signals():
            try:
                if Holder.parse(self.path.read_text()) == self.holder:
                    self.path.unlink()
            except OSError:
                pass

    def __enter__(self) -> Claim:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read(path: Path) -> tuple[str, float]:
    """Text of a claim file and its age in seconds (FileNotFoundError when released)."""
    text = path.read_text()
    return text, time.time() - path.stat().st_mtime


def _break(path: Path, stale_text: str) -> None:
    """Remove a stale claim unless it was replaced meanwhile (then put the new one back)."""
    aside = path.with_name(f"{path.name}.{os.getpid()}.stale")
    try:
        os.rename(path, aside)
    except FileNotFoundError:
        return  # someone else broke it first
    try:
        if aside.read_text() != stale_text:  # a fresh claim was renamed: restore it
            try:
                os.link(aside, path)
            except OSError:
                pass
    finally:
        aside.unlink(missing_ok=True)


def try_claim(run_file: str | os.PathLike) -> Claim | Holder:
    """Claim the seed of ``run_file``: a :class:`Claim`, or the live :class:`Holder` of it."""
    path = claim_path(run_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    me = Holder.me()
    for _ in range(5):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            try:
                text, age = _read(path)
            except FileNotFoundError:
                continue  # released meanwhile: try again
            holder = Holder.parse(text)
            if holder is None:  # being written, or left empty by a killed process
                if age < EMPTY_CLAIM_GRACE_S:
                    return UNKNOWN
            elif holder.alive(age):
                return holder
            _break(path, text)
            continue
        try:
            with os.fdopen(fd, "w") as fh:
                fh.write(me.as_json())
        except BaseException:  # interrupted between create and write: leave no empty claim
            path.unlink(missing_ok=True)
            raise
        return Claim(path, me)
    return UNKNOWN


def break_if_stale(run_file: str | os.PathLike) -> bool:
    """Remove the claim of ``run_file`` when its holder is gone; True when one was removed.

    A holder killed after writing the seed's files but before removing its claim leaves a
    claim on a finished seed; a later process serves that seed from the files and calls this,
    so the claim does not outlive it."""
    path = claim_path(run_file)
    try:
        text, age = _read(path)
    except FileNotFoundError:
        return False
    holder = Holder.parse(text)
    if holder is None and age < EMPTY_CLAIM_GRACE_S:
        return False
    if holder is not None and holder.alive(age):
        return False
    _break(path, text)
    return True


@contextmanager
def claimed(run_file: str | os.PathLike) -> Iterator[Claim | Holder]:
    """``with claimed(path) as claim``: the :class:`Claim` of the seed (released when the block
    ends, however it ends) or the live :class:`Holder` of it. Signals wait while the claim file
    is created and removed, so an interrupt never leaves a claim behind."""
    got: Claim | Holder | None = None
    try:
        with deferred_signals():
            got = try_claim(run_file)
        yield got
    finally:
        if isinstance(got, Claim):
            got.release()
