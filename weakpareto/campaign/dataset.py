"""The results dataset: hive-partitioned Parquet, one small file per finished seed, compacted later.

Layout under a results directory::

    <results_dir>/dataset/runs/benchmark=<b>/method=<m>/noise=<repr(noise)>/<file>.parquet
    <results_dir>/dataset/fronts/benchmark=<b>/method=<m>/noise=<repr(noise)>/<file>.parquet

A seed writes ``<stem>__w<token>.parquet`` (:meth:`RunKey.stem` plus a unique token) into both
trees, front first, each atomically (temporary file, ``os.replace``): a reader never sees a
half-written file, a file is never rewritten in place (a new result is a new file) and the run
file marks the seed as done. ``wp compact`` (:mod:`weakpareto.campaign.compact`) merges the
files of a partition into one ``part-<token>.parquet``. Rows are idempotent by :data:`RUN_KEY`:
every reader keeps the row with the latest ``created_utc`` per key (per key, the front rows of
the latest write). A file that cannot be read (corrupt, truncated, not Parquet) is skipped by
every reader with a warning naming it (:func:`warn_unreadable`), as the per-seed layout's
readers do, and is never removed.

The partition columns are not stored in the files (standard hive layout, readable by any Parquet
tool) and are typed by :data:`PARTITION_SCHEMA` on reading: ``noise=0.05`` comes back as the
float 0.05, ``noise=0.0`` as 0.0 — never as a string or an int, as type inference would give.
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

import pyarrow as pa

from weakpareto.campaign.columns import (
    FRONT_SCHEMA,
    RUN_KEY,
    RUNS_SCHEMA,
    RunKey,
    conform,
    empty_table,
    rows_table,
    to_table,
    write_parquet,
)

if TYPE_CHECKING:  # both cost 0.2 s of start-up: imported by the readers of whole trees
    import pandas as pd
    import pyarrow.dataset as ds

DATASET_DIR = "dataset"
RUNS, FRONTS = "runs", "fronts"
#: Hive partition columns and their types (the order of the directory levels).
PARTITION_SCHEMA = pa.schema(
    [
        pa.field("benchmark", pa.string()),
        pa.field("method", pa.string()),
        pa.field("noise", pa.float64()),
    ]
)
PARTITIONS = tuple(PARTITION_SCHEMA.names)
PART_PREFIX = "part-"
#: How often a read is retried when ``wp compact`` removes a file between listing and reading.
READ_RETRIES = 8


def schema_of(kind: str) -> pa.Schema:
    """The full schema of the ``runs`` or ``fronts`` tree (partition columns included)."""
    return RUNS_SCHEMA if kind == RUNS else FRONT_SCHEMA


def file_schema(kind: str) -> pa.Schema:
    """The schema of a file of the tree: :func:`schema_of` without the partition columns."""
    schema = schema_of(kind)
    for name in PARTITIONS:
        schema = schema.remove(schema.get_field_index(name))
    return schema


def tree(results_dir: str | os.PathLike, kind: str) -> Path:
    """``<results_dir>/dataset/<kind>``."""
    return Path(results_dir) / DATASET_DIR / kind


def partition_value(value: Any) -> str:
    """The directory text of one partition value: floats as ``repr`` (round trip), strings
    URI-quoted (pyarrow decodes them)."""
    if isinstance(value, float | int) and not isinstance(value, bool):
        return repr(float(value))
    return quote(str(value), safe="")


def partition_dir(results_dir: str | os.PathLike, kind: str, key: RunKey) -> Path:
    """The partition directory of ``key`` in the ``kind`` tree."""
    values = {"benchmark": key.benchmark, "method": key.method, "noise": float(key.noise)}
    parts = [f"{name}={partition_value(values[name])}" for name in PARTITIONS]
    return tree(results_dir, kind).joinpath(*parts)


def new_token() -> str:
    """A unique file token (no two writers, or two writes of one seed, share a file name)."""
    return uuid.uuid4().hex[:16]


def seed_file(results_dir: str | os.PathLike, kind: str, key: RunKey, token: str) -> Path:
    """``<partition>/<key.stem()>__w<token>.parquet``."""
    return partition_dir(results_dir, kind, key) / f"{key.stem()}__w{token}.parquet"


def _strip(df: pd.DataFrame, kind: str) -> pa.Table:
    return to_table(df.drop(columns=list(PARTITIONS)), file_schema(kind))


def write_table(df: pd.DataFrame, kind: str, path: str | os.PathLike) -> Path:
    """Write rows of the ``kind`` tree (partition columns dropped) atomically to ``path``."""
    return write_parquet(_strip(df.reindex(columns=schema_of(kind).names), kind), path)


def _file_rows(rows: Sequence[Mapping[str, Any]], kind: str) -> pa.Table:
    """Rows of the ``kind`` tree as stored in its files (partition columns dropped)."""
    return rows_table(
        [{k: v for k, v in r.items() if k not in PARTITIONS} for r in rows], file_schema(kind)
    )


def write_seed(
    results_dir: str | os.PathLike,
    key: RunKey,
    row: Mapping[str, Any],
    fronts: Sequence[Mapping[str, Any]],
) -> Path:
    """Write one seed's front rows, then its run row (which marks it done); the run file."""
    token = new_token()
    write_parquet(_file_rows(fronts, FRONTS), seed_file(results_dir, FRONTS, key, token))
    return write_parquet(_file_rows([row], RUNS), seed_file(results_dir, RUNS, key, token))


# -- reading -----------------------------------------------------------------------------------
def data_files(directory: Path) -> list[Path]:
    """The Parquet files of one directory (temporary and hidden files excluded), sorted."""
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return []
    return sorted(
        directory / n for n in names if n.endswith(".parquet") and not n.startswith((".", "_"))
    )


def partition_dirs(results_dir: str | os.PathLike, kind: str) -> list[Path]:
    """The partition directories of the ``kind`` tree (``benchmark=/method=/noise=``), sorted."""
    root = tree(results_dir, kind)
    pattern = "/".join(f"{name}=*" for name in PARTITIONS)
    return sorted(
        p
        for p in root.glob(pattern)
        if p.is_dir() and len(p.relative_to(root).parts) == len(PARTITIONS)
    )


def _partitioning() -> ds.Partitioning:
    import pyarrow.dataset as ds

    return ds.partitioning(PARTITION_SCHEMA, flavor="hive")


def _read_once(
    root: Path, kind: str, columns: Sequence[str] | None, filt: ds.Expression | None
) -> pa.Table:
    import pyarrow.dataset as ds

    dataset = ds.dataset(
        root,
        schema=schema_of(kind),
        format="parquet",
        partitioning=_partitioning(),
        ignore_prefixes=[".", "_"],
    )
    return dataset.to_table(columns=list(columns) if columns else None, filter=filt)


def _retrying(read: Any) -> pa.Table:
    """``read()``, again when ``wp compact`` removed a listed file meanwhile."""
    for attempt in range(READ_RETRIES):
        try:
            return read()
        except (OSError, Vanished) as err:  # pyarrow reports a vanished file as an OSError
            if not _vanished(err) or attempt == READ_RETRIES - 1:
                raise
    raise AssertionError("unreachable")


def _read_tree_once(
    results_dir: str | os.PathLike,
    kind: str,
    columns: Sequence[str] | None,
    filt: ds.Expression | None,
) -> pa.Table:
    """The whole tree in one read; when a file cannot be read, partition by partition with the
    unreadable files skipped (:func:`warn_unreadable` names them)."""
    try:
        return _read_once(tree(results_dir, kind), kind, columns, filt)
    except (OSError, pa.ArrowException) as err:
        if _vanished(err):
            raise
    tables = [empty_table(schema_of(kind))]
    for directory in partition_dirs(results_dir, kind):
        table, bad = read_readable(data_files(directory), kind, directory)
        warn_unreadable(bad)
        tables.append(table)
    table = pa.concat_tables(tables)
    if filt is not None:
        table = table.filter(filt)
    return table.select(list(columns)) if columns else table


def read_tree(
    results_dir: str | os.PathLike,
    kind: str,
    columns: Sequence[str] | None = None,
    filt: ds.Expression | None = None,
) -> pa.Table:
    """Every row of the ``kind`` tree (not de-duplicated), typed by its schema; a file that cannot
    be read is skipped with a warning (:func:`warn_unreadable`), not removed."""
    root = tree(results_dir, kind)
    schema = schema_of(kind)
    if not root.is_dir():
        names = list(columns) if columns else schema.names
        return empty_table(pa.schema([schema.field(n) for n in names]))
    return _retrying(lambda: _read_tree_once(results_dir, kind, columns, filt))


def partition_values(directory: Path) -> dict[str, Any]:
    """The typed partition values of a partition directory (``noise`` a float)."""
    values: dict[str, Any] = {}
    for part in directory.parts[-len(PARTITIONS) :]:
        name, _, text = part.partition("=")
        text = unquote(text)
        field = PARTITION_SCHEMA.field(name)
        values[name] = pa.scalar(text).cast(field.type).as_py()
    return values


class Vanished(Exception):
    """A listed file was removed before it was read (``wp compact`` merged it): list again."""


def _vanished(err: BaseException) -> bool:
    return isinstance(err, FileNotFoundError | Vanished) or "No such file" in str(err)


@dataclass(frozen=True)
class Unreadable:
    """A data file that cannot be read as a file of its tree (corrupt, truncated, not Parquet,
    a column of another type), and why (one line)."""

    path: Path
    reason: str


def error_line(err: BaseException, path: Path) -> str:
    """The first line of a read error of ``path``, without pyarrow's repetition of the path."""
    lines = str(err).strip().splitlines()
    text = lines[0] if lines else type(err).__name__
    return text.split(f"'{path}': ", 1)[-1]  # pyarrow repeats the path: keep what follows


def unreadable(path: Path, kind: str) -> Unreadable | None:
    """Why ``path`` cannot be read as a file of the ``kind`` tree, None when it can;
    :class:`Vanished` when it was removed meanwhile."""
    import pyarrow.dataset as ds

    try:
        ds.dataset([str(path)], schema=file_schema(kind), format="parquet").to_table()
    except (OSError, pa.ArrowException) as err:
        if _vanished(err):
            raise Vanished(str(err)) from None
        return Unreadable(path, error_line(err, path))
    return None


_WARNED: set[Path] = set()


def warn_unreadable(found: Iterable[Unreadable]) -> None:
    """One line on stderr per unreadable file, once per file and process (the file is skipped,
    never removed)."""
    for u in found:
        if u.path not in _WARNED:
            _WARNED.add(u.path)
            print(
                f"weakpareto.campaign.dataset: skipping unreadable {u.path}: {u.reason}",
                file=sys.stderr,
            )


def read_files(files: Sequence[Path], kind: str, directory: Path) -> pa.Table:
    """Rows of the given files of one partition directory (read together, in threads), partition
    columns added back; :class:`Vanished` when one was removed meanwhile. No files: no import of
    pyarrow's dataset module (0.2 s with the pandas it loads), e.g. a per-seed layout's run."""
    schema = schema_of(kind)
    if not files:
        return empty_table(schema)
    import pyarrow.dataset as ds

    try:
        table = ds.dataset([str(f) for f in files], schema=file_schema(kind), format="parquet")
        table = table.to_table()
    except (OSError, pa.ArrowException) as err:
        if _vanished(err):
            raise Vanished(str(err)) from None
        raise
    values = partition_values(directory)
    for name in PARTITIONS:
        field = PARTITION_SCHEMA.field(name)
        table = table.append_column(field, pa.array([values[name]] * table.num_rows, field.type))
    return conform(table, schema)


def read_readable(
    files: Sequence[Path], kind: str, directory: Path
) -> tuple[pa.Table, tuple[Unreadable, ...]]:
    """:func:`read_files` of the files that can be read, and the files that cannot, with why."""
    try:
        return read_files(files, kind, directory), ()
    except (OSError, pa.ArrowException):
        pass  # one of them cannot be read (a vanished one raised Vanished): find which
    bad = tuple(u for u in (unreadable(f, kind) for f in files) if u is not None)
    skip = {u.path for u in bad}
    return read_files([f for f in files if f not in skip], kind, directory), bad


def latest(df: pd.DataFrame, kind: str) -> pd.DataFrame:
    """One row per :data:`RUN_KEY` (runs) or the rows of the latest write per key (fronts)."""
    if df.empty:
        return df
    df = df.sort_values("created_utc", kind="stable", na_position="first")
    key = list(RUN_KEY)
    if kind == RUNS:
        return df.drop_duplicates(subset=key, keep="last")
    stamp = df["created_utc"].fillna("")
    newest = stamp.groupby([df[k].fillna("") for k in key], sort=False).transform("max")
    df = df.loc[stamp == newest]
    return df.drop_duplicates(subset=[*key, "size"], keep="last")


def seed_rows(results_dir: str | os.PathLike, key: RunKey, any_code: bool = False) -> list[dict]:
    """Stored run rows of ``key``'s config and seed (of its code only, unless ``any_code``):
    the seed's own files (found by name) and every compacted file of the partition; a file that
    cannot be read is skipped with a warning (:func:`warn_unreadable`)."""
    directory = partition_dir(results_dir, RUNS, key)
    prefix = f"{key.config_stem()}__" if any_code else f"{key.stem()}__w"
    for attempt in range(READ_RETRIES):
        files = [f for f in data_files(directory) if f.name.startswith((prefix, PART_PREFIX))]
        try:
            table, bad = read_readable(files, RUNS, directory)
            break
        except Vanished:
            if attempt == READ_RETRIES - 1:
                raise
    warn_unreadable(bad)
    rows = table.to_pylist()
    want = key.as_dict()
    fields = [k for k in RUN_KEY if not (any_code and k == "code_hash")]
    return [r for r in rows if all(r[k] == want[k] for k in fields)]
