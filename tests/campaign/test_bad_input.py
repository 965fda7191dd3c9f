"""A newcomer's wrong inputs to wp run / generate / status / compact / report: each is either
refused in one line (exit 2, nothing computed or written) or, for a corrupt result file, skipped
with a warning naming it (exit 0, the file left in place)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pyarrow.dataset as ds
import pytest

from weakpareto import cli
from weakpareto.campaign import compact, dataset, runner
from weakpareto.campaign import generate as gen
from weakpareto.campaign import store as res
from weakpareto.campaign.overrides import check_bootstrap_keys
from weakpareto.campaign.synthetic import synthetic_key, synthetic_seed
from weakpareto.cli import main

NOT_PARQUET = "Parquet magic bytes not found in footer. Either the file is corrupted or this is not a parquet file."  # noqa: E501


def exit2(args: list[str], capsys) -> str:
    """``wp <args>``: exit code 2 and one line on stderr, which is returned."""
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("wp: error: ") and "Traceback" not in err
    return err.removeprefix("wp: error: ").rstrip("\n")


@pytest.fixture
def no_compute(monkeypatch):
    """Fail the test if anything is computed."""

    def computed(*a, **k):
        raise AssertionError("bad input must be refused before any computation")

    monkeypatch.setattr(runner, "run_config", computed)
    monkeypatch.setattr(gen, "generate", computed)


# -- 1. a corrupt Parquet file: skipped with a warning, left in place -----------------------------
def _dataset_with_a_corrupt_file(root: Path, seeds: int = 3) -> Path:
    for seed in range(seeds):
        key = synthetic_key(seed)
        row, fronts = synthetic_seed(key)
        dataset.write_seed(root, key, row, fronts)
    bad = dataset.partition_dir(root, dataset.RUNS, synthetic_key(0)) / "part-corrupt.parquet"
    bad.write_bytes(b"not parquet at all")
    return bad


def test_compact_skips_a_corrupt_file_with_a_warning_and_leaves_it(tmp_path, capsys):
    bad = _dataset_with_a_corrupt_file(tmp_path)
    main(["compact", f"results_dir={tmp_path}"])  # returns: exit code 0
    out, err = capsys.readouterr()
    assert err == f"wp compact: skipping unreadable {bad} ({NOT_PARQUET}); left in place\n"
    assert out == (
        "wp compact: compacted 2 partition(s): 6 files -> 2, 3 runs (0 duplicate rows "
        f"dropped); 1 unreadable file(s) skipped and left in place in {tmp_path}\n"
    )
    assert bad.read_bytes() == b"not parquet at all"
    files = dataset.data_files(bad.parent)
    assert len(files) == 2 and bad in files  # the merged file beside the corrupt one
    assert len(res.load_runs(tmp_path)) == 3


def test_compact_of_two_files_one_corrupt_merges_nothing(tmp_path):
    bad = _dataset_with_a_corrupt_file(tmp_path, seeds=1)
    done = compact.compact_partition(bad.parent, dataset.RUNS)
    assert done.partitions == 0 and done.files_in == 0
    assert [u.path for u in done.unreadable] == [bad]
    assert len(dataset.data_files(bad.parent)) == 2


def test_readers_skip_a_corrupt_dataset_file_with_one_warning(tmp_path, capsys):
    bad = _dataset_with_a_corrupt_file(tmp_path)
    warning = f"weakpareto.campaign.dataset: skipping unreadable {bad}: {NOT_PARQUET}\n"
    runs = res.load_runs(tmp_path)  # wp status and wp report read through load_runs
    assert sorted(runs["seed"]) == [0, 1, 2]
    assert capsys.readouterr().err == warning
    (row,) = dataset.seed_rows(tmp_path, synthetic_key(1))  # wp run: is the seed done?
    assert row["seed"] == 1
    assert capsys.readouterr().err == ""  # once per file and process
    table = dataset.read_tree(tmp_path, dataset.RUNS, ["seed"], ds.field("seed") >= 1)
    assert table.column_names == ["seed"] and sorted(table["seed"].to_pylist()) == [1, 2]
    assert bad.exists()


def test_compact_legacy_leaves_unreadable_per_seed_files_with_a_warning(tmp_path, capsys):
    keys = [synthetic_key(s) for s in range(3)]
    for key in keys:
        row, fronts = synthetic_seed(key)
        res.write_front_and_run(res.run_path(tmp_path, key), row, fronts)
    bad_run = res.run_path(tmp_path, keys[0])
    bad_front = res.front_path(res.run_path(tmp_path, keys[1]))
    bad_run.write_bytes(b"truncated")
    bad_front.write_bytes(b"truncated")
    main(["compact", f"results_dir={tmp_path}", "legacy=true"])
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        f"wp compact: skipping unreadable {bad_run} ({NOT_PARQUET}); left in place",
        f"wp compact: skipping unreadable {bad_front} ({NOT_PARQUET}); left in place",
    ]
    assert "1 per-seed result(s) moved into the dataset" in out
    assert "2 unreadable file(s) skipped and left in place" in out
    assert bad_run.exists() and bad_front.exists() and res.run_path(tmp_path, keys[1]).exists()


# -- 2. wp status on a results_dir that is not there ----------------------------------------------
def test_status_refuses_a_missing_results_dir(tmp_path, capsys, no_compute):
    (tmp_path / "f").write_text("a file\n")
    assert exit2(["status", f"results_dir={tmp_path / 'nope'}"], capsys) == (
        f"results_dir={tmp_path / 'nope'} does not exist; give the results_dir= your `wp run` "
        "wrote to"
    )
    assert exit2(["status", f"results_dir={tmp_path / 'f'}"], capsys) == (
        f"results_dir={tmp_path / 'f'} is a file, not a directory; give a directory"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f"]


def test_status_of_an_existing_empty_results_dir_reports_missing(tmp_path, capsys):
    main(["status", "-m", "noise=0,0.1", "seeds=2", f"results_dir={tmp_path}"])
    assert "total: done 0, failed 0, missing 4 of 4" in capsys.readouterr().out


# -- 3. a key given twice ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["run", "benchmark=fade", "benchmark=burgers"],
            "benchmark= is given twice (benchmark=fade, benchmark=burgers); keep one (a sweep "
            "over both: wp run -m benchmark=fade,burgers)",
        ),
        (
            ["run", "-m", "noise=0,0.1", "noise=0.2"],
            "noise= is given twice (noise=0,0.1, noise=0.2); keep one (a sweep over both: "
            "wp run -m noise=0,0.1,0.2)",
        ),
        (
            ["run", "search.maxiter=3", "+search.maxiter=4"],
            "search.maxiter= is given twice (search.maxiter=3, +search.maxiter=4); keep one",
        ),
        (
            ["generate", "noise=0.1", "out=f.npz", "noise=0.2"],
            "noise= is given twice (noise=0.1, noise=0.2); keep one",
        ),
        (
            ["status", "seeds=1", "seeds=2"],
            "seeds= is given twice (seeds=1, seeds=2); keep one (a sweep over both: "
            "wp status -m seeds=1,2)",
        ),
        (
            ["compact", "results_dir=a", "results_dir=b"],
            "results_dir= is given twice (results_dir=a, results_dir=b); keep one",
        ),
        (
            ["report", "out_dir=a", "out_dir=b"],
            "out_dir= is given twice (out_dir=a, out_dir=b); keep one",
        ),
    ],
)
def test_a_repeated_key_is_refused(args, message, tmp_path, monkeypatch, capsys, no_compute):
    monkeypatch.chdir(tmp_path)
    assert exit2(args, capsys) == message
    assert list(tmp_path.iterdir()) == []


def test_a_sweep_value_list_is_one_key():
    cli.reject_repeated_keys("run", ["noise=0,0.1", "benchmark=fade,burgers", "seeds=1"])
    cli.reject_repeated_keys("run", ["benchmark=fade", "benchmark.grid.nt=100"])


# -- 4. a key of the other subcommand ------------------------------------------------------------
@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["run", "out=f.npz"],
            "out= is a wp generate option (the .npz file it writes), not read by wp run; drop "
            "it (wp run writes Parquet under results_dir=)",
        ),
        (
            ["status", "-m", "noise=0,0.1", "out=f.npz"],
            "out= is a wp generate option (the .npz file it writes), not read by wp status; "
            "drop it (wp run writes Parquet under results_dir=)",
        ),
        (
            ["generate", "out=f.npz", "seeds=3"],
            "seeds= is a wp run option, not read by wp generate (it writes one field); drop it "
            "(seed= picks its noise realisation)",
        ),
        (
            ["generate", "out=f.npz", "search.maxiter=3"],
            "search.maxiter= is a wp run option, not read by wp generate (it writes one field); "
            "drop it (wp generate --help)",
        ),
        (
            ["generate", "out=f.npz", "+experiment=main"],
            "experiment= is a wp run option, not read by wp generate (it writes one field); "
            "drop it (wp generate --help)",
        ),
    ],
)
def test_a_key_of_the_other_subcommand_is_refused(
    args, message, tmp_path, monkeypatch, capsys, no_compute
):
    monkeypatch.chdir(tmp_path)
    assert exit2(args, capsys) == message
    assert list(tmp_path.iterdir()) == []


# -- 5. a noise level that would make the field non-finite ---------------------------------------
@pytest.mark.parametrize("law", ["multiplicative", "additive_gaussian"])
def test_generate_refuses_a_noise_level_that_overflows(law, tmp_path, monkeypatch, capsys):
    """Refused by its range (a fraction, at most 10) before the field is made."""
    monkeypatch.chdir(tmp_path)
    assert exit2(["generate", "noise=1e308", f"noise_law={law}", "out=f.npz"], capsys) == (
        "noise=1e+308 must be a finite number >= 0 and <= 10; e.g. noise=0.1"
    )
    assert list(tmp_path.iterdir()) == []


def test_generate_refuses_a_field_that_is_not_finite(tmp_path, monkeypatch, capsys):
    real = gen.generate

    def with_nan(cfg, seed):
        field = real(cfg, seed)
        u = np.array(field.u)
        u[3, 4] = np.nan
        return dataclasses.replace(field, u=u)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(gen, "generate", with_nan)
    assert exit2(["generate", "out=f.npz"], capsys) == (
        "cannot generate fade with these settings: the field is not finite (NaN or inf); "
        "restore the benchmark constants you changed (wp generate --help)"
    )
    assert list(tmp_path.iterdir()) == []


# -- 6. n_boot= / level= without the bootstrap ---------------------------------------------------
@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["run", "n_boot=50"],
            "n_boot=50 is read only with uncertainty=bootstrap, which is off here; add "
            "uncertainty=bootstrap or drop n_boot=",
        ),
        (
            ["run", "uncertainty=null", "n_boot=50", "level=0.8"],
            "n_boot=50, level=0.8 are read only with uncertainty=bootstrap, which is off here; "
            "add uncertainty=bootstrap or drop n_boot=, level=",
        ),
        (
            ["status", "-m", "noise=0,0.1", "level=0.8"],
            "level=0.8 is read only with uncertainty=bootstrap, which is off here; add "
            "uncertainty=bootstrap or drop level=",
        ),
    ],
)
def test_bootstrap_keys_without_the_bootstrap_are_refused(
    args, message, tmp_path, monkeypatch, capsys, no_compute
):
    monkeypatch.chdir(tmp_path)
    assert exit2(args, capsys) == message
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "overrides, multirun",
    [
        (["uncertainty=bootstrap", "n_boot=50", "level=0.8"], False),
        (["+experiment=uncertainty", "n_boot=100"], True),  # the table turns it on
        (["uncertainty=null,bootstrap", "n_boot=50"], True),  # read by half of the sweep
    ],
)
def test_bootstrap_keys_with_the_bootstrap_are_accepted(overrides, multirun):
    check_bootstrap_keys(overrides, multirun)


# -- 7. every selector the help lists is accepted ------------------------------------------------
def test_run_help_lists_exactly_the_selection_options():
    from weakpareto.campaign.compose import compose_checked

    (line,) = [ln for ln in cli.run_help().splitlines() if "selection=<name>" in ln]
    listed = line.split("own:", 1)[1].split("(", 1)[0].split("|")
    names = [n.strip() for n in listed]
    assert names == cli.config_options("selection") and "elbow" in names
    for name in names:
        compose_checked([f"selection={name}"])
