"""Claim files: one holder per (config, seed), stale claims of dead processes recovered."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from weakpareto.campaign import seed_claims


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_claim_then_release(tmp_path):
    run = tmp_path / "fade" / "m__v__n__0.1__seed0__abcd.parquet"
    got = seed_claims.try_claim(run)
    assert isinstance(got, seed_claims.Claim)
    path = seed_claims.claim_path(run)
    assert path.name == ".m__v__n__0.1__seed0__abcd.claim" and path.is_file()
    assert seed_claims.Holder.parse(path.read_text()) == seed_claims.Holder.me()
    got.release()
    assert not path.exists()


def test_a_live_claim_is_respected(tmp_path):
    run = tmp_path / "r.parquet"
    with seed_claims.try_claim(run) as first:  # type: ignore[union-attr]
        assert isinstance(first, seed_claims.Claim)
        second = seed_claims.try_claim(run)  # the holder (this process) is alive
        assert isinstance(second, seed_claims.Holder) and second.pid == os.getpid()
        assert second.describe() == f"pid {os.getpid()}"
    assert isinstance(seed_claims.try_claim(run), seed_claims.Claim)


def test_a_claim_of_a_dead_process_is_recovered(tmp_path):
    run = tmp_path / "r.parquet"
    path = seed_claims.claim_path(run)
    path.write_text(seed_claims.Holder(_dead_pid(), socket.gethostname(), None).as_json())
    got = seed_claims.try_claim(run)
    assert isinstance(got, seed_claims.Claim)
    assert seed_claims.Holder.parse(path.read_text()) == seed_claims.Holder.me()
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no leftovers


@pytest.mark.skipif(sys.platform != "linux", reason="process start times from /proc")
def test_a_reused_pid_is_not_the_holder(tmp_path):
    """Same pid, different start time: the pid belongs to a newer process now."""
    me = seed_claims.Holder.me()
    assert me.start is not None
    stale = seed_claims.Holder(me.pid, me.host, me.start - 1)
    assert not stale.alive() and me.alive()


def test_other_hosts_claims_are_respected(tmp_path):
    run = tmp_path / "r.parquet"
    seed_claims.claim_path(run).write_text(
        seed_claims.Holder(_dead_pid(), "elsewhere.example", 1).as_json()
    )
    got = seed_claims.try_claim(run)
    assert isinstance(got, seed_claims.Holder) and got.describe().endswith("on elsewhere.example")


def test_a_claim_of_another_host_without_heartbeat_is_stale(tmp_path):
    """A cluster job killed on another node: its claim stops being refreshed and is broken."""
    run = tmp_path / "r.parquet"
    path = seed_claims.claim_path(run)
    path.write_text(seed_claims.Holder(_dead_pid(), "elsewhere.example", 1).as_json())
    old = time.time() - 2 * seed_claims.REMOTE_STALE_S
    os.utime(path, (old, old))
    got = seed_claims.try_claim(run)
    assert isinstance(got, seed_claims.Claim)
    got.release()


def test_a_held_claim_is_refreshed_by_its_heartbeat(tmp_path, monkeypatch):
    monkeypatch.setattr(seed_claims, "HEARTBEAT_S", 0.05)
    run = tmp_path / "r.parquet"
    with seed_claims.claimed(run) as claim:
        assert isinstance(claim, seed_claims.Claim)
        old = time.time() - 1000
        os.utime(claim.path, (old, old))
        time.sleep(0.3)
        assert time.time() - claim.path.stat().st_mtime < 1
    assert not seed_claims.claim_path(run).exists()


def test_an_empty_claim_is_young_or_stale(tmp_path, monkeypatch):
    run = tmp_path / "r.parquet"
    path = seed_claims.claim_path(run)
    path.write_text("")  # a process between create and write...
    assert seed_claims.try_claim(run) is seed_claims.UNKNOWN
    old = time.time() - 2 * seed_claims.EMPTY_CLAIM_GRACE_S  # ...or one killed right there
    os.utime(path, (old, old))
    assert isinstance(seed_claims.try_claim(run), seed_claims.Claim)


def test_breaking_a_claim_that_was_replaced_restores_it(tmp_path):
    """Two processes recover the same stale claim: the slower one must not remove the fresh
    claim the faster one has created meanwhile."""
    path = tmp_path / ".x.claim"
    fresh = seed_claims.Holder.me().as_json()
    path.write_text(fresh)
    seed_claims._break(path, stale_text='{"pid": 1, "host": "h", "start": null}')
    assert path.read_text() == fresh
    assert [p.name for p in tmp_path.iterdir()] == [".x.claim"]


def test_signals_wait_for_the_end_of_a_deferred_block():
    done = []
    with pytest.raises(KeyboardInterrupt):
        with seed_claims.deferred_signals():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            done.append("the block finished")
    assert done == ["the block finished"]


def test_an_interrupt_right_after_claiming_releases_the_claim(tmp_path):
    run = tmp_path / "r.parquet"
    with pytest.raises(KeyboardInterrupt):
        with seed_claims.claimed(run) as claim:
            assert isinstance(claim, seed_claims.Claim) and seed_claims.claim_path(run).is_file()
            raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_break_if_stale_removes_only_a_dead_holders_claim(tmp_path):
    run = tmp_path / "r.parquet"
    path = seed_claims.claim_path(run)
    assert not seed_claims.break_if_stale(run)  # no claim
    with seed_claims.try_claim(run) as held:  # type: ignore[union-attr]
        assert isinstance(held, seed_claims.Claim)
        assert not seed_claims.break_if_stale(run) and path.exists()  # live holder: kept
    path.write_text(seed_claims.Holder(_dead_pid(), socket.gethostname(), None).as_json())
    assert seed_claims.break_if_stale(run) and not list(tmp_path.iterdir())
