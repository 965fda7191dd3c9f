"""Parquet storage of run results and Pareto fronts.

Layout: one small file per (benchmark, method, variant, noise law, noise, seed, config hash, code
hash)::

    <results_dir>/<benchmark>/<method>__<variant>__<noise_law>__<noise:g>__seed<seed>__<cfg8>__<code8>.parquet
    <results_dir>/<benchmark>/<...same stem...>.front.parquet

The code hash (:mod:`weakpareto.campaign.provenance`) ties a run to the code that computed it:
results of other code are not served as cached. Files written before code hashes existed (schema
version 1) have no ``__<code8>`` part and read back with a null ``code_hash`` and ``git_commit``.

Every file is written through an explicit ``pa.schema`` (so strings stay ``string``, not
``large_string``, and files of different runs always merge) and atomically: a temporary file in
the same directory is renamed over the target with ``os.replace``, so a reader never sees a
half-written file and an interrupted write leaves no target. The run file is written after the
front file and marks the run as done (resume). Readers deduplicate on the key columns, keeping
the row with the latest ``created_utc``; a column missing from an older file reads as null.

Chunked cluster sweeps write the partitioned dataset of :mod:`weakpareto.campaign.dataset`
(``<results_dir>/dataset/``) instead; :func:`load_runs` and :func:`load_fronts` read both
layouts as one. The schemas and :class:`RunKey` live in :mod:`weakpareto.campaign.columns`.
"""

from __future__ import annotations

import glob
import json
import math
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from weakpareto._version import __version__
from weakpareto.campaign import dataset
from weakpareto.campaign.columns import FRONT_SCHEMA as FRONT_SCHEMA
from weakpareto.campaign.columns import FRONT_SUFFIX as FRONT_SUFFIX
from weakpareto.campaign.columns import NULLABLE_INT_COLUMNS as NULLABLE_INT_COLUMNS
from weakpareto.campaign.columns import RUN_KEY as RUN_KEY
from weakpareto.campaign.columns import RUNS_SCHEMA as RUNS_SCHEMA
from weakpareto.campaign.columns import SCHEMA_METADATA as SCHEMA_METADATA
from weakpareto.campaign.columns import SCHEMA_VERSION as SCHEMA_VERSION
from weakpareto.campaign.columns import RunKey as RunKey
from weakpareto.campaign.columns import conform, read_parquet, rows_table, write_parquet
from weakpareto.campaign.columns import to_table as to_table
from weakpareto.campaign.columns import utc_now as utc_now
from weakpareto.evaluation.metrics import Metrics, score
from weakpareto.records import DiscoveryResult, Equation

if TYPE_CHECKING:  # pandas is imported where tables are read into frames (0.2 s of start-up)
    import pandas as pd


def _opt_int(v: Any) -> int | None:
    if v is None:
        return None
    f = float(v)
    return int(f) if math.isfinite(f) else None


def run_record(
    result: DiscoveryResult | None,
    metrics: Metrics | None,
    key: RunKey,
    *,
    runtime: float,
    truth: Equation | None = None,
    label: str = "",
    experiment: str = "",
    error: str | None = None,
    config_json: str = "{}",
    weakpareto_version: str = __version__,
    git_commit: str = "",
    n_rows: int | None = None,
    n_evals: int | None = None,
    created_utc: str | None = None,
) -> dict[str, Any]:
    """One row of :data:`RUNS_SCHEMA`.

    ``result=None`` or ``error`` given makes a ``"failed"`` row: structured fields empty/NaN,
    recovery flags false. When ``metrics`` is None but ``result`` and ``truth`` are given, the
    metrics are computed here. ``n_rows``/``n_evals`` default to ``result.timings["n_rows"]``/
    ``["n_evals"]`` when present there, else null.
    """
    nan = float("nan")
    ok = result is not None and error is None
    row: dict[str, Any] = {
        **key.as_dict(),
        "label": str(label),
        "experiment": str(experiment),
        "status": "ok" if ok else "failed",
        "error": "" if error is None else str(error),
        "runtime_s": float(runtime),
        "truth_equation": truth.text() if truth is not None else "",
        "config_json": str(config_json),
        "created_utc": created_utc or utc_now(),
        "weakpareto_version": str(weakpareto_version),
        "git_commit": str(git_commit),
    }
    if ok:
        assert result is not None
        eq = result.final
        if metrics is None and truth is not None:
            metrics = score(eq, truth)
        timings = dict(result.timings)
        row.update(
            mode=str(eq.mode),
            alpha=float(eq.alpha),
            operator=str(eq.operator),
            n_terms=int(eq.size),
            powers=[int(t.power) for t in eq.terms],
            orders=[float(t.order) for t in eq.terms],
            coefs=[float(t.coef) for t in eq.terms],
            directions=(
                [str(t.direction or "") for t in eq.terms]
                if any(t.direction is not None for t in eq.terms)
                else []
            ),
            equation=eq.text(),
            equation_latex=eq.latex(),
            selected_size=int(result.selected_size),
            fit_error=float(result.fit_error),
            timings_json=json.dumps({k: float(v) for k, v in timings.items()}, sort_keys=True),
            n_rows=_opt_int(n_rows if n_rows is not None else timings.get("n_rows")),
            n_evals=_opt_int(n_evals if n_evals is not None else timings.get("n_evals")),
        )
    else:
        row.update(
            mode="",
            alpha=nan,
            operator="",
            n_terms=0,
            powers=[],
            orders=[],
            coefs=[],
            directions=[],
            equation="",
            equation_latex="",
            selected_size=None,
            fit_error=nan,
            timings_json="{}",
            n_rows=_opt_int(n_rows),
            n_evals=_opt_int(n_evals),
        )
    if ok and metrics is not None:
        row.update(metrics.as_row())
    else:
        row.update(
            support_ok=False,
            operator_ok=False,
            branch_ok=False,
            e_alpha=nan,
            e_beta_max=nan,
            e_xi_max=nan,
            e_xi_2=nan,
        )
    return {name: row.get(name) for name in RUNS_SCHEMA.names}


def front_records(
    result: DiscoveryResult | None,
    key: RunKey,
    *,
    created_utc: str | None = None,
) -> list[dict[str, Any]]:
    """Rows of :data:`FRONT_SCHEMA`: every evaluated support size of the sweep (unpruned)."""
    if result is None:
        return []
    stamp = created_utc or utc_now()
    return [
        {
            **key.as_dict(),
            "size": int(fp.size),
            "train_error": float(fp.train_error),
            "val_error": float(fp.val_error),
            "objective": float(fp.objective),
            "aic": float(fp.aic),
            "bic": float(fp.bic),
            "on_front": fp.size in result.pareto,
            "selected": fp.size == result.selected_size,
            "equation": fp.equation.text(),
            "created_utc": stamp,
        }
        for fp in result.front
    ]


# -- paths ---------------------------------------------------------------------------------------
def run_path(results_dir: str | os.PathLike, key: RunKey) -> Path:
    """``<results_dir>/<benchmark>/<key.stem()>.parquet``."""
    return Path(results_dir) / str(key.benchmark) / f"{key.stem()}.parquet"


def front_path(path: str | os.PathLike) -> Path:
    """The front file beside a run file (``<stem>.front.parquet``)."""
    p = Path(path)
    return p.with_name(p.name.removesuffix(".parquet") + FRONT_SUFFIX)


def exists(results_dir: str | os.PathLike, key: RunKey) -> bool:
    """True when the run file is present (the run completed; used to resume sweeps)."""
    return run_path(results_dir, key).is_file()


def other_code_paths(results_dir: str | os.PathLike, key: RunKey) -> list[Path]:
    """Run files of the same config and seed made by other code (another code hash, or none:
    written before code hashes) — the results a change of the method's code makes stale."""
    folder = Path(results_dir) / str(key.benchmark)
    base = key.config_stem()
    own = run_path(results_dir, key)
    found = [folder / f"{base}.parquet", *folder.glob(f"{glob.escape(base)}__*.parquet")]
    return sorted(
        p for p in found if p.is_file() and p != own and not p.name.endswith(FRONT_SUFFIX)
    )


class UnreadableResult(ValueError):
    """A run file that cannot be read back (truncated, not Parquet, not one row)."""


def read_run_row(path: str | os.PathLike) -> dict[str, Any] | None:
    """The row of one run file, None when there is no file; :class:`UnreadableResult` (one line,
    naming the cause) when it is truncated or otherwise not a run file."""
    p = Path(path)
    if not p.is_file():
        return None
    try:
        rows = read_parquet(p).to_pylist()
    except (OSError, pa.ArrowException) as err:
        text = str(err).strip().splitlines()
        raise UnreadableResult(text[0] if text else type(err).__name__) from None
    if len(rows) != 1:
        raise UnreadableResult(f"{len(rows)} rows instead of 1")
    return rows[0]


# -- writing -------------------------------------------------------------------------------------
def write_table_atomic(df: pd.DataFrame, schema: pa.Schema, path: str | os.PathLike) -> Path:
    """Write ``df`` as Parquet with ``schema`` to ``path`` atomically (temp file, os.replace)."""
    return write_parquet(to_table(df, schema), path)


def write_front_and_run(
    path: str | os.PathLike, row: Mapping[str, Any], fronts: Sequence[Mapping[str, Any]]
) -> Path:
    """Write the front file, then the run file (whose presence marks the run as done)."""
    path = Path(path)
    write_parquet(rows_table(fronts, FRONT_SCHEMA), front_path(path))
    return write_parquet(rows_table([row], RUNS_SCHEMA), path)


# -- reading -------------------------------------------------------------------------------------
def _empty(schema: pa.Schema) -> pd.DataFrame:
    return to_pandas(schema.empty_table())


def to_pandas(table: pa.Table) -> pd.DataFrame:
    df = table.to_pandas()
    for c in NULLABLE_INT_COLUMNS:
        if c in df.columns:
            df[c] = df[c].astype("Int64")
    return df


def _legacy_tables(root: Path, schema: pa.Schema, fronts: bool) -> list[pa.Table]:
    """The per-seed files of the layout above (the dataset tree excluded)."""
    files = sorted(
        p
        for p in root.rglob("*.parquet")
        if p.name.endswith(FRONT_SUFFIX) == fronts
        and not p.name.startswith(".")
        and p.relative_to(root).parts[0] != dataset.DATASET_DIR
    )
    tables = []
    for f in files:
        try:
            tables.append(conform(pq.read_table(f), schema))
        except (OSError, pa.ArrowException) as err:  # unreadable file: report and go on
            print(f"weakpareto.campaign.store: skipping unreadable {f}: {err}", file=sys.stderr)
    return tables


def _load(results_dir: str | os.PathLike, kind: str) -> pd.DataFrame:
    """Rows of both layouts (per-seed files and the dataset), the latest per key, sorted."""
    schema = dataset.schema_of(kind)
    key = list(RUN_KEY) + ([] if kind == dataset.RUNS else ["size"])
    root = Path(results_dir)
    if not root.is_dir():
        return _empty(schema)
    tables = _legacy_tables(root, schema, fronts=kind == dataset.FRONTS)
    stored = dataset.read_tree(root, kind)
    if stored.num_rows:
        tables.append(stored)
    if not tables:
        return _empty(schema)
    df = dataset.latest(to_pandas(pa.concat_tables(tables)), kind)
    return df.sort_values(key, kind="stable").reset_index(drop=True)


def load_runs(results_dir: str | os.PathLike) -> pd.DataFrame:
    """All run rows under ``results_dir``, one per :data:`RUN_KEY` (latest ``created_utc``)."""
    return _load(results_dir, dataset.RUNS)


def load_fronts(results_dir: str | os.PathLike) -> pd.DataFrame:
    """All front rows, one per (:data:`RUN_KEY`, size) (latest ``created_utc``)."""
    return _load(results_dir, dataset.FRONTS)


# -- selecting table cells ------------------------------------------------------------------
_RECORDERS: ContextVar[tuple[list[pd.DataFrame], ...]] = ContextVar(
    "weakpareto_cell_recorders", default=()
)


@contextmanager
def recording_cells() -> Iterator[list[pd.DataFrame]]:
    """Collect every cell :func:`select_cell` returns inside the block (in order; blocks nest,
    an outer block sees the cells of the inner ones too).

    ``wp report`` wraps each table in it to count the failed runs behind that table.
    """
    cells: list[pd.DataFrame] = []
    token = _RECORDERS.set((*_RECORDERS.get(), cells))
    try:
        yield cells
    finally:
        _RECORDERS.reset(token)


def latest_per_seed(df: pd.DataFrame) -> pd.DataFrame:
    """One row per seed: when several configs exist for a cell, the latest run wins."""
    if df.empty:
        return df
    df = df.sort_values("created_utc", kind="stable", na_position="first")
    return df.drop_duplicates(subset=["seed"], keep="last").sort_values("seed")


def select_cell(
    runs: pd.DataFrame,
    benchmark: str,
    noise: float,
    method: str = "weak_pareto",
    variant: str = "default",
    noise_law: str = "multiplicative",
) -> pd.DataFrame:
    """The runs of one table cell group (all seeds, failed ones included)."""
    if runs.empty:
        return runs
    m = (
        (runs["benchmark"] == benchmark)
        & (runs["method"] == method)
        & (runs["variant"] == variant)
        & (runs["noise_law"] == noise_law)
        & np.isclose(runs["noise"].astype(float), noise, rtol=0.0, atol=1e-9)
    )
    cell = latest_per_seed(runs.loc[m])
    for recorder in _RECORDERS.get():
        recorder.append(cell)
    return cell
