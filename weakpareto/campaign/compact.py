"""``wp compact``: merge the small files of each dataset partition into one, de-duplicated.

Per partition directory (:mod:`weakpareto.campaign.dataset`) of the runs and the fronts tree:
take the partition's compaction lock (a claim file, :mod:`weakpareto.campaign.seed_claims`; a second
``wp compact`` skips a locked partition), list its files, keep the latest rows per key
(:func:`weakpareto.campaign.dataset.latest`), write them to one ``part-<token>.parquet``
atomically, then remove exactly the listed files. Safe while jobs write: a file written after
the listing is neither read nor removed (every file name is unique, no file is rewritten), a
reader that lists a file removed meanwhile reads again, and a compaction killed between the write
and the removals leaves duplicates only, which every reader and the next compaction drop.

``legacy=true`` first moves the per-seed files of the older layout (:mod:`weakpareto.campaign.
store`, written by ``wp run`` without a cluster launcher) into the dataset, so that a results
directory becomes one dataset. A file replaced while it is moved is left in place.

A file that cannot be read (corrupt, truncated, not Parquet) is neither merged nor moved nor
removed: ``wp compact`` names it in a warning on stderr and goes on (exit code 0, as ``wp status``,
``wp report`` and ``wp run`` do when they skip it).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from weakpareto.campaign import dataset, seed_claims
from weakpareto.campaign import store as res
from weakpareto.campaign.columns import RunKey
from weakpareto.campaign.paths import readable_dir
from weakpareto.errors import UserInputError

#: A temporary file older than this was left by a writer that was killed: removed.
STALE_TMP_S = 3600.0
LOCK_NAME = "_compact.parquet"  # its claim file, ``._compact.claim``, is the partition lock
COMPACT_OPTIONS = {"results_dir": "results/runs", "legacy": "false"}


@dataclass(frozen=True)
class Compacted:
    """What one ``wp compact`` did."""

    partitions: int = 0  # partitions rewritten
    files_in: int = 0  # files merged (and removed)
    files_out: int = 0  # files written
    rows: int = 0  # run rows in the rewritten run partitions
    duplicates: int = 0  # run rows dropped as duplicates (an older row of the same key)
    skipped: int = 0  # partitions locked by another compaction
    moved: int = 0  # per-seed files of the older layout moved into the dataset
    unreadable: tuple[dataset.Unreadable, ...] = ()  # files that cannot be read: left in place

    def __add__(self, other: Compacted) -> Compacted:
        parts, f_in, f_out, rows, dups, skipped, moved = (
            a + b for a, b in zip(_values(self), _values(other))
        )
        bad = self.unreadable + other.unreadable
        return Compacted(parts, f_in, f_out, rows, dups, skipped, moved, bad)

    def describe(self) -> str:
        """One line for the user."""
        text = (
            f"compacted {self.partitions} partition(s): {self.files_in} files -> "
            f"{self.files_out}, {self.rows} runs ({self.duplicates} duplicate rows dropped)"
        )
        if self.moved:
            text += f"; {self.moved} per-seed result(s) moved into the dataset"
        if self.skipped:
            text += f"; {self.skipped} partition(s) skipped (another wp compact holds them)"
        if self.unreadable:
            text += f"; {len(self.unreadable)} unreadable file(s) skipped and left in place"
        return text

    def warnings(self) -> list[str]:
        """One line per unreadable file (``wp compact`` prints them on stderr)."""
        return [
            f"wp compact: skipping unreadable {u.path} ({u.reason}); left in place"
            for u in self.unreadable
        ]


def _values(c: Compacted) -> tuple[int, ...]:
    return (c.partitions, c.files_in, c.files_out, c.rows, c.duplicates, c.skipped, c.moved)


def partitions(results_dir: str | os.PathLike, kind: str) -> list[Path]:
    """The partition directories of one tree (``benchmark=/method=/noise=``), sorted."""
    return dataset.partition_dirs(results_dir, kind)


def _remove_stale_tmp(directory: Path) -> None:
    now = time.time()
    for p in directory.glob(".*.tmp"):
        try:
            if now - p.stat().st_mtime > STALE_TMP_S:
                p.unlink()
        except FileNotFoundError:
            pass


def compact_partition(directory: Path, kind: str) -> Compacted:
    """Merge the files of one partition (module docstring); nothing to do for one file. A file
    that cannot be read is neither merged nor removed (:attr:`Compacted.unreadable`)."""
    _remove_stale_tmp(directory)
    with seed_claims.claimed(directory / LOCK_NAME) as lock:
        if isinstance(lock, seed_claims.Holder):
            return Compacted(skipped=1)
        files = dataset.data_files(directory)
        if len(files) <= 1:
            return Compacted()
        table, bad = dataset.read_readable(files, kind, directory)
        skip = {u.path for u in bad}
        files = [f for f in files if f not in skip]
        if len(files) <= 1:
            return Compacted(unreadable=bad)
        rows = res.to_pandas(table)
        kept = dataset.latest(rows, kind)
        target = directory / f"{dataset.PART_PREFIX}{dataset.new_token()}.parquet"
        with seed_claims.deferred_signals():  # the merged file, then the removals
            dataset.write_table(kept, kind, target)
            for f in files:
                f.unlink(missing_ok=True)
    runs = kind == dataset.RUNS
    return Compacted(
        partitions=1,
        files_in=len(files),
        files_out=1,
        rows=len(kept) if runs else 0,
        duplicates=len(rows) - len(kept) if runs else 0,
        unreadable=bad,
    )


def _stat_id(path: Path) -> tuple[int, int, int]:
    st = path.stat()
    return st.st_ino, st.st_mtime_ns, st.st_size


def _remove_if_unchanged(path: Path, seen: tuple[int, int, int]) -> bool:
    """Remove ``path`` unless it was replaced since it was read (then leave the new file)."""
    aside = path.with_name(f".{path.name}.{os.getpid()}.moved")
    try:
        os.rename(path, aside)
    except FileNotFoundError:
        return False
    try:
        if _stat_id(aside) != seen:  # replaced meanwhile: put the newer file back
            try:
                os.link(aside, path)
            except FileExistsError:
                pass  # an even newer file is there
            return False
        return True
    finally:
        aside.unlink(missing_ok=True)


def _key_of(row: dict) -> RunKey:
    return RunKey(
        benchmark=str(row["benchmark"]),
        method=str(row["method"]),
        variant=str(row["variant"]),
        noise_law=str(row["noise_law"]),
        noise=float(row["noise"]),
        seed=int(row["seed"]),
        config_hash=str(row["config_hash"]),
        code_hash=str(row.get("code_hash") or ""),
    )


def _read_legacy(run_file: Path) -> tuple[dict | None, pa.Table | None, Compacted]:
    """The row and front table of a per-seed file; an unreadable run or front file is reported
    in the returned :class:`Compacted` (row None), a vanished one gives None silently."""
    front_file = res.front_path(run_file)
    try:
        row = res.read_run_row(run_file)
    except res.UnreadableResult as err:
        bad = dataset.Unreadable(run_file, dataset.error_line(err, run_file))
        return None, None, Compacted(unreadable=(bad,))
    try:
        fronts = pq.read_table(front_file) if front_file.is_file() else None
    except FileNotFoundError:
        return None, None, Compacted()
    except (OSError, pa.ArrowException) as err:
        bad = dataset.Unreadable(front_file, dataset.error_line(err, front_file))
        return None, None, Compacted(unreadable=(bad,))
    return row, fronts, Compacted()


def move_legacy_file(results_dir: str | os.PathLike, run_file: Path) -> Compacted:
    """Move one per-seed run file (and its front file) into the dataset (``moved=1``); it stays
    when it was replaced meanwhile, or cannot be read (then in :attr:`Compacted.unreadable`)."""
    front_file = res.front_path(run_file)
    try:
        seen = _stat_id(run_file)
    except OSError:
        return Compacted()
    row, fronts, problem = _read_legacy(run_file)
    if row is None:
        return problem
    key = _key_of(row)
    token = dataset.new_token()
    front_df = pd.DataFrame(
        [] if fronts is None else fronts.to_pylist(), columns=res.FRONT_SCHEMA.names
    )
    run_df = pd.DataFrame([row], columns=res.RUNS_SCHEMA.names)
    with seed_claims.deferred_signals():
        dataset.write_table(
            front_df, dataset.FRONTS, dataset.seed_file(results_dir, dataset.FRONTS, key, token)
        )
        dataset.write_table(
            run_df, dataset.RUNS, dataset.seed_file(results_dir, dataset.RUNS, key, token)
        )
        if _remove_if_unchanged(run_file, seen):
            front_file.unlink(missing_ok=True)
            return Compacted(moved=1)
    return Compacted()


def legacy_run_files(results_dir: str | os.PathLike) -> list[Path]:
    """The per-seed run files of the older layout (``<results_dir>/<benchmark>/*.parquet``)."""
    root = Path(results_dir)
    return sorted(
        p
        for p in root.glob("*/*.parquet")
        if p.parent.name != dataset.DATASET_DIR
        and not p.name.startswith(".")
        and not p.name.endswith(res.FRONT_SUFFIX)
    )


def compact(results_dir: str | os.PathLike, legacy: bool = False) -> Compacted:
    """Compact every partition of both trees (after moving older per-seed files, ``legacy``)."""
    total = Compacted()
    for run_file in legacy_run_files(results_dir) if legacy else []:
        total = total + move_legacy_file(results_dir, run_file)
    for kind in (dataset.RUNS, dataset.FRONTS):
        for directory in partitions(results_dir, kind):
            total = total + compact_partition(directory, kind)
    return total


#: More files than this per partition on average: ``wp report`` suggests ``wp compact``.
MANY_FILES_PER_PARTITION = 50


def compaction_hint(results_dir: str | os.PathLike) -> str:
    """One line suggesting ``wp compact`` when the dataset is many small files, else ``""``."""
    parts = partitions(results_dir, dataset.RUNS)
    files = sum(len(dataset.data_files(p)) for p in parts)
    if not parts or files <= MANY_FILES_PER_PARTITION * len(parts):
        return ""
    return (
        f"{files} result files in {len(parts)} partitions of {results_dir}/dataset; "
        f"`wp compact results_dir={results_dir}` makes reading them many times faster"
    )


def _options(overrides: Sequence[str]) -> dict[str, str]:
    if any("=" not in o for o in overrides):
        raise UserInputError(f"wp compact takes key=value options {sorted(COMPACT_OPTIONS)}")
    opts = dict(o.split("=", 1) for o in overrides)
    bad = sorted(set(opts) - set(COMPACT_OPTIONS))
    if bad:
        raise UserInputError(f"unknown compact option(s) {bad}; use results_dir=, legacy=")
    opts = {**COMPACT_OPTIONS, **opts}
    if opts["legacy"] not in ("true", "false"):
        raise UserInputError(f"legacy={opts['legacy']} must be true or false; e.g. legacy=false")
    return opts


def compact_command(overrides: Sequence[str]) -> Compacted:
    """``wp compact [results_dir=results/runs] [legacy=false]``: compact, print one line."""
    opts = _options(overrides)
    readable_dir(opts["results_dir"], "results_dir")
    done = compact(opts["results_dir"], legacy=opts["legacy"] == "true")
    for line in done.warnings():
        print(line, file=sys.stderr)
    print(f"wp compact: {done.describe()} in {opts['results_dir']}")
    return done
