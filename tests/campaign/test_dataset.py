"""The partitioned results dataset: layout, typed partitions, both layouts read as one."""

from __future__ import annotations

import dataclasses

import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from weakpareto.campaign import dataset
from weakpareto.campaign import store as res
from weakpareto.campaign.synthetic import synthetic_key, synthetic_seed


def _write(root, key, **row_over):
    row, fronts = synthetic_seed(key)
    row.update(row_over)
    return dataset.write_seed(root, key, row, fronts)


def test_layout_is_hive_partitioned_and_files_hold_no_partition_columns(tmp_path):
    key = synthetic_key(3, noise=0.05)
    path = _write(tmp_path, key)
    rel = path.relative_to(tmp_path).parts
    assert rel[:5] == ("dataset", "runs", "benchmark=fade", "method=weak_pareto", "noise=0.05")
    assert path.name.startswith(key.stem() + "__w")
    names = pq.read_schema(path).names
    assert not set(dataset.PARTITIONS) & set(names)
    assert "seed" in names and "config_hash" in names
    front = dataset.partition_dir(tmp_path, dataset.FRONTS, key)
    assert len(dataset.data_files(front)) == 1


@pytest.mark.parametrize("noise", [0.0, 0.05, 0.1, 1e-05, 0.30000000000000004])
def test_partition_types_round_trip(tmp_path, noise):
    """noise=0.05 comes back as the float 0.05 (not '0.05', not 0), through our reader and
    through pyarrow with the declared partition schema."""
    key = synthetic_key(0, noise=noise)
    _write(tmp_path, key)
    runs = res.load_runs(tmp_path)
    assert runs["noise"].dtype == "float64"
    assert runs["noise"].tolist() == [noise] and isinstance(runs["noise"].tolist()[0], float)
    (row,) = dataset.seed_rows(tmp_path, key)
    assert row["noise"] == noise and type(row["noise"]) is float
    table = ds.dataset(
        dataset.tree(tmp_path, dataset.RUNS),
        format="parquet",
        partitioning=ds.partitioning(dataset.PARTITION_SCHEMA, flavor="hive"),
    ).to_table()
    assert table.schema.field("noise").type == "double"
    assert table.column("noise").to_pylist() == [noise]


def test_both_layouts_load_as_one_and_the_latest_row_wins(tmp_path):
    old = synthetic_key(0)
    row, fronts = synthetic_seed(old)
    res.write_front_and_run(res.run_path(tmp_path, old), row, fronts)  # per-seed layout
    _write(tmp_path, synthetic_key(1))
    _write(tmp_path, old, runtime_s=7.0)  # the same key again, later: replaces the first
    runs = res.load_runs(tmp_path)
    assert runs["seed"].tolist() == [0, 1]
    assert runs.set_index("seed").loc[0, "runtime_s"] == 7.0
    fronts_df = res.load_fronts(tmp_path)
    assert len(fronts_df) == 4 and sorted(set(fronts_df["seed"])) == [0, 1]


def test_fronts_of_a_rewritten_seed_are_those_of_the_latest_write(tmp_path):
    key = synthetic_key(0)
    row, fronts = synthetic_seed(key)
    dataset.write_seed(tmp_path, key, row, fronts)
    newer = dict(row, created_utc="9999-01-01T00:00:00+00:00")
    dataset.write_seed(tmp_path, key, newer, [dict(fronts[0], created_utc=newer["created_utc"])])
    loaded = res.load_fronts(tmp_path)
    assert loaded["size"].tolist() == [1]  # size 2 of the older write is gone


def test_seed_rows_match_the_full_key(tmp_path):
    key = synthetic_key(2)
    _write(tmp_path, key)
    _write(tmp_path, dataclasses.replace(key, seed=3))
    other_code = dataclasses.replace(key, code_hash="0000000000000000")
    _write(tmp_path, other_code)
    assert [r["seed"] for r in dataset.seed_rows(tmp_path, key)] == [2]
    assert dataset.seed_rows(tmp_path, dataclasses.replace(key, config_hash="ffff" * 4)) == []
    codes = {r["code_hash"] for r in dataset.seed_rows(tmp_path, key, any_code=True)}
    assert codes == {key.code_hash, other_code.code_hash}


def test_committed_results_still_load(tmp_path):
    """The per-seed files of results/runs (schema v2) read back through the same loader."""
    from pathlib import Path

    runs_dir = Path(__file__).parents[2] / "results" / "runs" / "fade"
    files = sorted(p for p in runs_dir.glob("*.parquet") if not p.name.endswith(".front.parquet"))
    if not files:
        pytest.skip("no committed results here")
    target = tmp_path / "fade"
    target.mkdir()
    for f in files[:3]:
        (target / f.name).write_bytes(f.read_bytes())
        front = res.front_path(f)
        (target / front.name).write_bytes(front.read_bytes())
    runs = res.load_runs(tmp_path)
    assert len(runs) == 3 and (runs["code_hash"].str.len() == 16).all()
    assert len(res.load_fronts(tmp_path)) > 0
