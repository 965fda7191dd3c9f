"""The columns of stored results: the Parquet schemas of runs and fronts, and :class:`RunKey`.

Shared by the per-seed file layout (:mod:`weakpareto.campaign.store`) and the partitioned dataset
(:mod:`weakpareto.campaign.dataset`). Every file is written through an explicit ``pa.schema``
(so strings stay ``string``, not ``large_string``, and files of different runs always merge).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

from weakpareto.campaign.interval_columns import UNCERTAINTY_FIELDS
from weakpareto.io import atomic_path

if TYPE_CHECKING:
    import pandas as pd

SCHEMA_VERSION = "4"  # 2: code_hash, git_commit; 3: uncertainty; 4: calibrated intervals
SCHEMA_METADATA = {"weakpareto.schema_version": SCHEMA_VERSION}
FRONT_SUFFIX = ".front.parquet"

#: Columns identifying one run (one row of the runs table).
RUN_KEY = (
    "benchmark",
    "noise_law",
    "noise",
    "seed",
    "method",
    "variant",
    "config_hash",
    "code_hash",
)

_KEY_FIELDS = [
    pa.field("benchmark", pa.string(), nullable=False),
    pa.field("noise_law", pa.string(), nullable=False),
    pa.field("noise", pa.float64(), nullable=False),  # a fraction: 0.1 = 10 %
    pa.field("seed", pa.int64(), nullable=False),
    pa.field("method", pa.string(), nullable=False),
    pa.field("variant", pa.string(), nullable=False),
    pa.field("config_hash", pa.string(), nullable=False),
    pa.field("code_hash", pa.string()),  # null in rows written before code hashes
]

RUNS_SCHEMA = pa.schema(
    [
        *_KEY_FIELDS[:1],
        pa.field("label", pa.string()),
        *_KEY_FIELDS[1:6],
        pa.field("experiment", pa.string()),
        *_KEY_FIELDS[6:],
        pa.field("status", pa.string(), nullable=False),  # "ok" | "failed"
        pa.field("error", pa.string()),
        pa.field("runtime_s", pa.float64()),
        pa.field("mode", pa.string()),  # "sub" | "int" | "sup"; "" when failed
        pa.field("alpha", pa.float64()),
        pa.field("operator", pa.string()),  # "directional" | "riesz" | "gl_left"
        pa.field("n_terms", pa.int64()),
        pa.field("powers", pa.list_(pa.int64())),
        pa.field("orders", pa.list_(pa.float64())),
        pa.field("coefs", pa.list_(pa.float64())),
        pa.field("equation", pa.string()),
        pa.field("equation_latex", pa.string()),
        pa.field("truth_equation", pa.string()),
        pa.field("selected_size", pa.int64()),  # null when failed
        pa.field("fit_error", pa.float64()),
        pa.field("support_ok", pa.bool_()),
        pa.field("operator_ok", pa.bool_()),
        pa.field("branch_ok", pa.bool_()),
        pa.field("e_alpha", pa.float64()),
        pa.field("e_beta_max", pa.float64()),
        pa.field("e_xi_max", pa.float64()),
        pa.field("e_xi_2", pa.float64()),
        pa.field("n_rows", pa.int64()),  # null when unknown
        pa.field("n_evals", pa.int64()),  # null when unknown
        pa.field("timings_json", pa.string()),
        pa.field("config_json", pa.string()),
        pa.field("created_utc", pa.string()),  # ISO 8601, UTC
        pa.field("weakpareto_version", pa.string()),
        # per-term spatial direction ("x" | "y") of multi-dimensional models; [] in 1-D
        pa.field("directions", pa.list_(pa.string())),
        # HEAD of the checkout that ran it (+dirty), informational; "" when unknown
        pa.field("git_commit", pa.string()),
        # wp run uncertainty=bootstrap (weakpareto.campaign.interval_columns); null when off
        *UNCERTAINTY_FIELDS,
    ],
    metadata=SCHEMA_METADATA,
)

FRONT_SCHEMA = pa.schema(
    [
        *_KEY_FIELDS,
        pa.field("size", pa.int64(), nullable=False),
        pa.field("train_error", pa.float64()),
        pa.field("val_error", pa.float64()),
        pa.field("objective", pa.float64()),
        pa.field("aic", pa.float64()),
        pa.field("bic", pa.float64()),
        pa.field("on_front", pa.bool_()),
        pa.field("selected", pa.bool_()),
        pa.field("equation", pa.string()),
        pa.field("created_utc", pa.string()),
    ],
    metadata=SCHEMA_METADATA,
)

#: Integer columns that may be missing; read back as pandas nullable ``Int64``.
NULLABLE_INT_COLUMNS = ("selected_size", "n_rows", "n_evals", "n_boot")


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


# -- rows ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RunKey:
    """What identifies one stored run: the cell (benchmark, method, variant, noise law and level),
    the seed, the hash of the composed config and the hash of the code that computes it
    (:mod:`weakpareto.campaign.provenance`; ``""`` = unknown, as in rows written before code
    hashes). The one signature of every path and row."""

    benchmark: str
    method: str
    variant: str
    noise_law: str
    noise: float
    seed: int
    config_hash: str
    code_hash: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The key columns of a run or front row (schema column order)."""
        return {
            "benchmark": str(self.benchmark),
            "noise_law": str(self.noise_law),
            "noise": float(self.noise),
            "seed": int(self.seed),
            "method": str(self.method),
            "variant": str(self.variant),
            "config_hash": str(self.config_hash),
            "code_hash": str(self.code_hash) or None,
        }

    def config_stem(self) -> str:
        """``<method>__<variant>__<noise_law>__<noise:g>__seed<seed>__<cfg8>`` (any code)."""
        return (
            f"{self.method}__{self.variant}__{self.noise_law}__{float(self.noise):g}"
            f"__seed{int(self.seed)}__{self.config_hash[:8]}"
        )

    def stem(self) -> str:
        """:meth:`config_stem` plus ``__<code8>`` (nothing when the code hash is unknown)."""
        code = f"__{self.code_hash[:8]}" if self.code_hash else ""
        return self.config_stem() + code


def rows_table(rows: Sequence[Mapping[str, Any]], schema: pa.Schema) -> pa.Table:
    """Rows (one mapping each) as a table of ``schema``, with the cells a DataFrame of the same
    rows gives (pyarrow's ``from_pandas`` semantics: NaN is null, also inside lists) but without
    building one: a key missing from a row is null, a key outside the schema an error."""
    extra = list(dict.fromkeys(k for r in rows for k in r if k not in schema.names))
    if extra:
        raise ValueError(f"columns not in the schema: {extra}")
    columns = [
        pa.array([r.get(f.name) for r in rows], type=f.type, from_pandas=True) for f in schema
    ]
    return pa.Table.from_arrays(columns, schema=schema)


def to_table(df: pd.DataFrame, schema: pa.Schema) -> pa.Table:
    """Convert with the explicit schema (column order and types) and keep its metadata."""
    extra = [c for c in df.columns if c not in schema.names]
    if extra:
        raise ValueError(f"columns not in the schema: {extra}")
    df = df.reindex(columns=schema.names)
    table = pa.Table.from_pandas(df, schema=schema, preserve_index=False)
    meta = dict(table.schema.metadata or {})  # pandas metadata + the schema version
    meta.update(schema.metadata or {})
    return table.replace_schema_metadata(meta)


def empty_table(schema: pa.Schema) -> pa.Table:
    """A table of no rows (``schema.empty_table()`` imports pandas)."""
    return pa.Table.from_batches([], schema=schema)


def write_parquet(table: pa.Table, path: str | os.PathLike) -> Path:
    """Write ``table`` as Parquet to ``path`` atomically (a temporary file, then os.replace)."""
    with atomic_path(path, make_parents=True) as tmp:
        pq.write_table(table, tmp)
    return Path(path)


def read_parquet(path: str | os.PathLike) -> pa.Table:
    """One Parquet file as a table, the file closed after reading (``pq.read_table`` would go
    through pyarrow's dataset machinery, which imports pandas: 0.2 s of ``wp run``)."""
    with pq.ParquetFile(path) as f:
        return f.read()


def conform(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """Select/cast to ``schema``; columns absent from an (older) file become nulls."""
    cols = []
    for f in schema:
        if f.name in table.column_names:
            cols.append(table.column(f.name).cast(f.type))
        else:
            cols.append(pa.nulls(table.num_rows, type=f.type))
    return pa.Table.from_arrays(cols, schema=schema)
