"""Parquet results: schema round trip, atomic writes, resume paths and deduplication."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from weakpareto.campaign import store as res
from weakpareto.campaign.columns import rows_table
from weakpareto.evaluation.metrics import score
from weakpareto.records import DiscoveryResult, Equation, FrontPoint, Term

TRUTH = Equation("sub", 0.8, (Term(0, 1.0, -1.0), Term(0, 1.7, 0.5)))
KEY = res.RunKey(
    benchmark="fade",
    noise_law="multiplicative",
    noise=0.1,
    seed=0,
    method="weak_pareto",
    variant="default",
    config_hash="0123456789abcdef",
)


def _result(coef: float = 0.49) -> DiscoveryResult:
    e1 = Equation("sub", 0.79, (Term(0, 1.0, -0.8),))
    e2 = Equation("sub", 0.801, (Term(0, 1.02, -0.99), Term(0, 1.71, coef)))
    front = (
        FrontPoint(1, 5.9e-3, 5.5e-3, -2.2, 10.0, 11.0, e1),
        FrontPoint(2, 1.2e-4, 1.1e-4, -3.9, 5.0, 7.0, e2),
    )
    return DiscoveryResult(front, (1, 2), 2, e2, e2, 0.022, {"banks": 1.5, "search": 2.0})


def _path(root, **over):
    return res.run_path(root, dataclasses.replace(KEY, **over))


def test_run_path_layout_and_exists(tmp_path):
    p = _path(tmp_path)
    assert (
        p
        == tmp_path / "fade" / "weak_pareto__default__multiplicative__0.1__seed0__01234567.parquet"
    )
    assert (
        res.front_path(p).name
        == "weak_pareto__default__multiplicative__0.1__seed0__01234567.front.parquet"
    )
    assert _path(tmp_path, noise=0.005).name.split("__")[3] == "0.005"
    coded = _path(tmp_path, code_hash="fedcba9876543210")  # the code that made it: last part
    assert (
        coded.name == "weak_pareto__default__multiplicative__0.1__seed0__01234567__fedcba98.parquet"
    )
    assert not res.exists(tmp_path, KEY)
    r = _result()
    res.write_front_and_run(
        p, res.run_record(r, None, KEY, truth=TRUTH, runtime=3.0), res.front_records(r, KEY)
    )
    assert res.exists(tmp_path, KEY)
    assert res.front_path(p).is_file()


def test_run_record_fields():
    r = _result()
    row = res.run_record(
        r,
        score(r.final, TRUTH),
        KEY,
        truth=TRUTH,
        runtime=3.0,
        n_rows=2640,
        label="FADE",
        experiment="main",
    )
    assert list(row) == res.RUNS_SCHEMA.names
    assert row["status"] == "ok" and row["error"] == ""
    assert row["powers"] == [0, 0] and row["orders"] == [1.02, 1.71]
    assert row["support_ok"] and row["operator_ok"] and row["branch_ok"]
    assert row["e_beta_max"] == pytest.approx(0.02)
    assert row["n_rows"] == 2640 and row["n_evals"] is None
    assert row["selected_size"] == 2 and row["fit_error"] == 0.022
    failed = res.run_record(None, None, KEY, truth=TRUTH, runtime=0.5, error="ValueError: x")
    assert failed["status"] == "failed" and failed["powers"] == [] and failed["mode"] == ""
    assert not failed["support_ok"] and math.isnan(failed["e_alpha"])
    assert math.isnan(failed["fit_error"]) and failed["selected_size"] is None
    fronts = res.front_records(r, KEY)
    assert [(f["size"], f["on_front"], f["selected"]) for f in fronts] == [
        (1, True, False),
        (2, True, True),
    ]


def test_round_trip_preserves_types(tmp_path):
    r = _result()
    ok = res.run_record(r, None, KEY, truth=TRUTH, runtime=3.0, n_evals=1234)
    bad = res.run_record(
        None, None, dataclasses.replace(KEY, seed=1), truth=TRUTH, runtime=0.1, error="boom"
    )
    res.write_front_and_run(_path(tmp_path), ok, res.front_records(r, KEY))
    res.write_front_and_run(_path(tmp_path, seed=1), bad, [])

    schema = pq.read_schema(_path(tmp_path))
    assert schema.metadata[b"weakpareto.schema_version"] == b"4"
    for name in ("benchmark", "equation", "mode", "created_utc"):
        assert schema.field(name).type == pa.string()  # not large_string
    assert schema.field("powers").type == pa.list_(pa.int64())
    assert schema.field("support_ok").type == pa.bool_()

    df = res.load_runs(tmp_path)
    assert list(df.columns) == res.RUNS_SCHEMA.names and len(df) == 2
    assert df["seed"].dtype == np.int64 and df["noise"].dtype == np.float64
    assert df["support_ok"].dtype == bool and df["n_terms"].dtype == np.int64
    assert str(df["selected_size"].dtype) == "Int64" and str(df["n_evals"].dtype) == "Int64"
    first, second = df.iloc[0], df.iloc[1]
    assert list(first["powers"]) == [0, 0] and list(first["coefs"]) == [-0.99, 0.49]
    assert first["status"] == "ok" and first["n_evals"] == 1234 and pd.isna(first["n_rows"])
    assert second["status"] == "failed" and len(second["powers"]) == 0
    assert pd.isna(second["selected_size"]) and not second["operator_ok"]

    # a loaded frame goes back through the schema unchanged
    again = tmp_path / "again.parquet"
    res.write_table_atomic(df, res.RUNS_SCHEMA, again)
    back = pq.read_table(again).cast(res.RUNS_SCHEMA)
    assert back.schema.equals(res.RUNS_SCHEMA)

    fr = res.load_fronts(tmp_path)
    assert list(fr["size"]) == [1, 2] and fr["selected"].tolist() == [False, True]


def test_atomic_write_leaves_only_the_target(tmp_path):
    p = tmp_path / "x" / "t.parquet"
    df = pd.DataFrame([res.run_record(_result(), None, KEY, truth=TRUTH, runtime=1.0)])
    res.write_table_atomic(df, res.RUNS_SCHEMA, p)
    assert sorted(q.name for q in p.parent.iterdir()) == ["t.parquet"]


def test_interrupted_write_leaves_no_partial_target(tmp_path, monkeypatch):
    p = tmp_path / "t.parquet"
    df = pd.DataFrame([res.run_record(_result(), None, KEY, truth=TRUTH, runtime=1.0)])

    def boom(src, dst):
        raise KeyboardInterrupt("killed before the rename")

    monkeypatch.setattr(res.os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        res.write_table_atomic(df, res.RUNS_SCHEMA, p)
    assert list(tmp_path.iterdir()) == []  # neither target nor temp file
    monkeypatch.undo()

    # an interrupted overwrite keeps the previous complete file
    res.write_table_atomic(df, res.RUNS_SCHEMA, p)
    monkeypatch.setattr(res.os, "replace", boom)
    df2 = df.assign(fit_error=0.5)
    with pytest.raises(KeyboardInterrupt):
        res.write_table_atomic(df2, res.RUNS_SCHEMA, p)
    assert [q.name for q in tmp_path.iterdir()] == ["t.parquet"]
    assert pq.read_table(p).column("fit_error").to_pylist() == [0.022]


def test_dedup_keeps_latest_created(tmp_path):
    old = res.run_record(
        _result(0.40),
        None,
        KEY,
        truth=TRUTH,
        runtime=1.0,
        created_utc="2026-01-01T00:00:00.000000+00:00",
    )
    new = res.run_record(
        _result(0.45),
        None,
        KEY,
        truth=TRUTH,
        runtime=1.0,
        created_utc="2026-02-01T00:00:00.000000+00:00",
    )
    other = res.run_record(
        _result(0.30),
        None,
        dataclasses.replace(KEY, seed=3),
        truth=TRUTH,
        runtime=1.0,
        created_utc="2025-01-01T00:00:00.000000+00:00",
    )
    # the same key in two places (e.g. a copied results tree); newest written first
    res.write_table_atomic(pd.DataFrame([new]), res.RUNS_SCHEMA, tmp_path / "a" / "r.parquet")
    res.write_table_atomic(pd.DataFrame([old]), res.RUNS_SCHEMA, tmp_path / "b" / "r.parquet")
    res.write_table_atomic(pd.DataFrame([other]), res.RUNS_SCHEMA, tmp_path / "b" / "s.parquet")
    df = res.load_runs(tmp_path)
    assert df["seed"].tolist() == [0, 3]
    assert df.loc[df["seed"] == 0, "coefs"].iloc[0][1] == 0.45


def test_empty_results_dir_gives_empty_frames(tmp_path):
    runs = res.load_runs(tmp_path / "missing")
    assert runs.empty and list(runs.columns) == res.RUNS_SCHEMA.names
    fronts = res.load_fronts(tmp_path)
    assert fronts.empty and list(fronts.columns) == res.FRONT_SCHEMA.names


def test_unknown_columns_are_rejected(tmp_path):
    with pytest.raises(ValueError, match="not in the schema"):
        res.write_table_atomic(
            pd.DataFrame([{"benchmark": "x", "bogus": 1}]), res.RUNS_SCHEMA, tmp_path / "t.parquet"
        )


def test_rows_are_stored_as_a_dataframe_of_them_would_be():
    """The writers convert rows without building a DataFrame; the cells equal those of the
    DataFrame conversion (NaN null, also inside lists; a missing key null; ints stay ints)."""
    r = _result()
    ok = res.run_record(r, None, KEY, truth=TRUTH, runtime=3.0, n_evals=1234)
    ok["coefs"] = [float("nan"), 0.5]
    ok["orders"] = np.array([1.0, np.nan])
    failed = res.run_record(None, None, KEY, truth=TRUTH, runtime=0.5, error="ValueError: x")
    for rows, schema in (
        ([ok, failed], res.RUNS_SCHEMA),
        (res.front_records(r, KEY), res.FRONT_SCHEMA),
        ([], res.FRONT_SCHEMA),
    ):
        ours = rows_table(rows, schema)
        theirs = res.to_table(pd.DataFrame(list(rows), columns=schema.names), schema)
        assert ours.schema.equals(schema) and ours.equals(theirs.cast(schema))
        assert [c.null_count for c in ours.columns] == [c.null_count for c in theirs.columns]
    table = rows_table([ok], res.RUNS_SCHEMA)
    assert table.column("coefs").chunk(0).values.null_count == 1
    assert table.column("orders").to_pylist() == [[1.0, None]]
    assert rows_table([{"benchmark": "fade"}], res.RUNS_SCHEMA).column("seed").null_count == 1
    with pytest.raises(ValueError, match=r"columns not in the schema: \['bogus'\]"):
        rows_table([{"benchmark": "x", "bogus": 1}], res.RUNS_SCHEMA)
