"""`wp compact`: concurrent writers, de-duplication, atomic merges, the older layout moved in."""

from __future__ import annotations

import multiprocessing
import os
import time

import pandas as pd
import pytest

from weakpareto.campaign import compact, dataset
from weakpareto.campaign import store as res
from weakpareto.campaign.synthetic import grid_keys, synthetic_seed

WRITERS, PER_WRITER, REWRITTEN = 4, 50, 5


def _writer(root: str, w: int) -> None:
    """Write keys w*50 .. w*50+49, then the first 5 of them again (runtime 2.0: the newer)."""
    keys = grid_keys(WRITERS * PER_WRITER)[w * PER_WRITER : (w + 1) * PER_WRITER]
    for key in keys:
        row, fronts = synthetic_seed(key)
        dataset.write_seed(root, key, row, fronts)
    for key in keys[:REWRITTEN]:
        row, fronts = synthetic_seed(key)
        row["runtime_s"] = 2.0
        dataset.write_seed(root, key, row, fronts)


def _physical_rows(root) -> int:
    return dataset.read_tree(root, dataset.RUNS).num_rows


def test_four_concurrent_writers_and_compactions_give_exactly_200_rows(tmp_path):
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_writer, args=(str(tmp_path), w)) for w in range(WRITERS)]
    for p in procs:
        p.start()
    rounds = 0
    while any(p.is_alive() for p in procs):  # compact while they write
        compact.compact(tmp_path)
        res.load_runs(tmp_path)  # a reader during compactions never fails
        rounds += 1
    for p in procs:
        p.join()
        assert p.exitcode == 0
    compact.compact(tmp_path)
    runs = res.load_runs(tmp_path)
    assert rounds >= 1
    assert len(runs) == WRITERS * PER_WRITER == 200
    assert not runs.duplicated(subset=list(res.RUN_KEY)).any()
    assert _physical_rows(tmp_path) == 200  # duplicates are gone from disk, not only hidden
    assert (runs["runtime_s"] == 2.0).sum() == WRITERS * REWRITTEN  # the newer rows won
    parts = compact.partitions(tmp_path, dataset.RUNS)
    assert parts and all(len(dataset.data_files(p)) == 1 for p in parts)
    assert len(res.load_fronts(tmp_path)) == 2 * 200
    assert compact.compaction_hint(tmp_path) == ""
    again = compact.compact(tmp_path)  # idempotent: nothing left to merge
    assert again.partitions == 0 and _physical_rows(tmp_path) == 200


def _compact_then_die(root: str) -> None:
    """Compact, but the process dies (SIGKILL-like) right after writing the first merged file."""
    from pathlib import Path

    real = Path.unlink

    def die(self, missing_ok=False):
        if self.name.endswith(".parquet"):
            os._exit(9)
        real(self, missing_ok=missing_ok)

    Path.unlink = die  # type: ignore[method-assign]
    compact.compact(root)


def test_compaction_killed_after_the_merge_leaves_only_duplicates(tmp_path):
    for key in grid_keys(6)[:3]:
        row, fronts = synthetic_seed(key)
        dataset.write_seed(tmp_path, key, row, fronts)
        dataset.write_seed(tmp_path, key, row, fronts)
    before = res.load_runs(tmp_path)
    proc = multiprocessing.get_context("fork").Process(target=_compact_then_die, args=(tmp_path,))
    proc.start()
    proc.join()
    assert proc.exitcode == 9
    assert _physical_rows(tmp_path) == 7  # 6 written + 1 merged: duplicates only
    pd.testing.assert_frame_equal(res.load_runs(tmp_path), before)
    compact.compact(tmp_path)  # the dead compaction's lock is stale: broken
    pd.testing.assert_frame_equal(res.load_runs(tmp_path), before)
    assert _physical_rows(tmp_path) == 3


def test_a_partition_locked_by_another_compaction_is_skipped(tmp_path):
    key = grid_keys(1)[0]
    row, fronts = synthetic_seed(key)
    dataset.write_seed(tmp_path, key, row, fronts)
    dataset.write_seed(tmp_path, key, row, fronts)
    directory = dataset.partition_dir(tmp_path, dataset.RUNS, key)
    from weakpareto.campaign import seed_claims

    with seed_claims.claimed(directory / compact.LOCK_NAME):  # held by this (live) process
        assert compact.compact_partition(directory, dataset.RUNS).skipped == 1
    assert compact.compact_partition(directory, dataset.RUNS).partitions == 1


def test_stale_temporary_files_are_removed(tmp_path):
    key = grid_keys(1)[0]
    row, fronts = synthetic_seed(key)
    dataset.write_seed(tmp_path, key, row, fronts)
    directory = dataset.partition_dir(tmp_path, dataset.RUNS, key)
    old, fresh = directory / ".x.parquet.abc.tmp", directory / ".y.parquet.def.tmp"
    old.write_bytes(b"half")
    fresh.write_bytes(b"half")
    past = time.time() - 2 * compact.STALE_TMP_S
    os.utime(old, (past, past))
    compact.compact(tmp_path)
    assert not old.exists() and fresh.exists()


def test_report_suggests_compaction_for_many_small_files(tmp_path, monkeypatch):
    monkeypatch.setattr(compact, "MANY_FILES_PER_PARTITION", 2)
    for key in grid_keys(1) * 3:
        row, fronts = synthetic_seed(key)
        dataset.write_seed(tmp_path, key, row, fronts)
    assert compact.compaction_hint(tmp_path).startswith("3 result files in 1 partitions")
    compact.compact(tmp_path)
    assert compact.compaction_hint(tmp_path) == ""


def test_legacy_files_move_into_the_dataset_with_the_same_rows(tmp_path):
    keys = grid_keys(8)
    for key in keys:
        row, fronts = synthetic_seed(key)
        res.write_front_and_run(res.run_path(tmp_path, key), row, fronts)
    runs, fronts_df = res.load_runs(tmp_path), res.load_fronts(tmp_path)
    assert compact.compact(tmp_path).moved == 0  # only with legacy=true
    done = compact.compact(tmp_path, legacy=True)
    assert done.moved == 8 and compact.legacy_run_files(tmp_path) == []
    assert not list(tmp_path.glob("fade/*.parquet"))
    pd.testing.assert_frame_equal(res.load_runs(tmp_path), runs)
    pd.testing.assert_frame_equal(res.load_fronts(tmp_path), fronts_df)


def test_compact_command_options(tmp_path, capsys):
    from weakpareto.errors import UserInputError

    with pytest.raises(UserInputError, match="unknown compact option"):
        compact.compact_command([f"results_dir={tmp_path}", "colour=red"])
    with pytest.raises(UserInputError, match="legacy=maybe must be true or false"):
        compact.compact_command([f"results_dir={tmp_path}", "legacy=maybe"])
    with pytest.raises(UserInputError, match="does not exist"):
        compact.compact_command([f"results_dir={tmp_path / 'nope'}"])
    compact.compact_command([f"results_dir={tmp_path}"])
    assert "compacted 0 partition(s)" in capsys.readouterr().out
