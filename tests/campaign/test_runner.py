"""`wp run` orchestration: determinism across workers, resume, failure rows, Parquet output."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.campaign import runner as runner
from weakpareto.campaign.compose import compose_config
from weakpareto.campaign.store import load_fronts, load_runs

FAST = ["search.popsize=4", "search.maxiter=6", "progress=false"]
#: The smallest budget (orchestration tests, not recovery): well under a second per seed.
TINY = ["search.popsize=1", "search.maxiter=1", "search.c_max=2", "search.test_budget=smoke"]


def _cfg(tmp_path, *extra):
    return compose_config(
        ["benchmark=fade", "noise=0.05", "seeds=2", f"results_dir={tmp_path}", *FAST, *extra]
    )


def test_identical_equations_for_any_worker_count(tmp_path):
    a, b = tmp_path / "w1", tmp_path / "w2"
    runner.run_config(_cfg(a, "workers=1"))
    runner.run_config(_cfg(b, "workers=2"))
    ra, rb = load_runs(a).sort_values("seed"), load_runs(b).sort_values("seed")
    assert len(ra) == len(rb) == 2
    assert ra["equation"].tolist() == rb["equation"].tolist()
    np.testing.assert_array_equal(ra["fit_error"].to_numpy(), rb["fit_error"].to_numpy())
    assert (ra["status"] == "ok").all()


def test_resume_skips_done_seeds_and_overwrite_reruns(tmp_path, capsys):
    runner.run_config(_cfg(tmp_path))
    first = load_runs(tmp_path)
    outcomes = runner.run_config(_cfg(tmp_path))
    assert all(o.skipped for o in outcomes)
    assert "(cached)" in capsys.readouterr().out
    outcomes = runner.run_config(_cfg(tmp_path, "overwrite=true"))
    assert not any(o.skipped for o in outcomes)
    again = load_runs(tmp_path)
    assert again["equation"].tolist() == first["equation"].tolist()
    assert len(again) == 2  # deduplicated on the key


def test_failing_seed_is_recorded_and_others_go_on(tmp_path, monkeypatch):
    real = runner.discover_seed

    def flaky(cfg, seed, progress=None):
        if seed == 1:
            raise np.linalg.LinAlgError("synthetic singular matrix")
        return real(cfg, seed, progress)

    monkeypatch.setattr(runner, "discover_seed", flaky)
    runner.run_config(_cfg(tmp_path))
    runs = load_runs(tmp_path).set_index("seed")
    assert runs.loc[0, "status"] == "ok" and runs.loc[1, "status"] == "failed"
    assert runs.loc[1, "error"].startswith("singular fit: LinAlgError: synthetic singular matrix")
    fronts = load_fronts(tmp_path)
    assert set(fronts["seed"]) == {0}


def test_parquet_row_contents(tmp_path):
    runner.run_config(_cfg(tmp_path, "seeds=1"))
    row = load_runs(tmp_path).iloc[0]
    assert row["benchmark"] == "fade" and row["noise"] == pytest.approx(0.05)
    assert row["method"] == "weak_pareto" and row["noise_law"] == "multiplicative"
    assert row["n_rows"] == 2640 and row["n_evals"] > 0
    assert list(row["powers"]) == [0, 0] and len(row["orders"]) == 2
    assert row["equation"].startswith("D_t^") and row["truth_equation"].startswith("D_t^0.8000")
    fronts = load_fronts(tmp_path)
    assert fronts["size"].tolist() == [1, 2, 3] and fronts["selected"].tolist() == [0, 1, 0]


def _files(root):
    return sorted(p.name for p in root.rglob("*") if p.is_file())


def test_failed_seed_is_computed_again_not_served_as_cached(tmp_path, monkeypatch, capsys):
    real = runner.discover_seed

    def broken(cfg, seed, progress=None):
        raise FloatingPointError("transient failure")

    monkeypatch.setattr(runner, "discover_seed", broken)
    runner.run_config(_cfg(tmp_path, "seeds=1", *TINY))
    assert load_runs(tmp_path)["status"].tolist() == ["failed"]
    monkeypatch.setattr(runner, "discover_seed", real)
    capsys.readouterr()
    (outcome,) = runner.run_config(_cfg(tmp_path, "seeds=1", *TINY))
    assert outcome.state == "computed" and outcome.row["status"] == "ok"
    assert "(cached)" not in capsys.readouterr().out
    assert load_runs(tmp_path)["status"].tolist() == ["ok"]


def test_truncated_result_is_reported_once_and_computed_again(tmp_path, capsys):
    runner.run_config(_cfg(tmp_path, "seeds=1", *TINY))
    (path,) = [p for p in tmp_path.rglob("*.parquet") if not p.name.endswith(".front.parquet")]
    path.write_bytes(path.read_bytes()[:100])  # truncated by a crash of some other tool
    capsys.readouterr()
    (outcome,) = runner.run_config(_cfg(tmp_path, "seeds=1", *TINY))
    err = capsys.readouterr().err
    assert outcome.state == "computed" and outcome.row["status"] == "ok"
    assert err.count("unreadable result") == 1 and str(path) in err and "Traceback" not in err
    (again,) = runner.run_config(_cfg(tmp_path, "seeds=1", *TINY))  # repaired: cached now
    assert again.state == "cached"
    assert not [n for n in _files(tmp_path) if n.endswith((".tmp", ".claim"))]


def test_a_seed_claimed_by_a_live_process_is_left_to_it(tmp_path, capsys):
    from weakpareto.campaign import seed_claims, store

    cfg = _cfg(tmp_path, "seeds=2", *TINY)
    claim = seed_claims.try_claim(store.run_path(tmp_path, runner.run_key(cfg, 1)))
    assert isinstance(claim, seed_claims.Claim)  # held by this (live) process
    with claim:
        outcomes = runner.run_config(cfg)
    assert [o.state for o in outcomes] == ["computed", "elsewhere"]
    out = capsys.readouterr().out
    assert "seed 1  : running in another process" in out and "running elsewhere 1" in out
    assert len(load_runs(tmp_path)) == 1


def test_a_dead_holders_claim_on_a_finished_seed_is_removed_when_served_cached(tmp_path):
    """A holder killed after writing the seed's files but before removing its claim."""
    import socket
    import subprocess
    import sys

    from weakpareto.campaign import seed_claims, store

    cfg = _cfg(tmp_path, "seeds=1", *TINY)
    assert [o.state for o in runner.run_config(cfg)] == ["computed"]
    path = seed_claims.claim_path(store.run_path(tmp_path, runner.run_key(cfg, 0)))
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    path.write_text(seed_claims.Holder(dead.pid, socket.gethostname(), None).as_json())
    assert [o.state for o in runner.run_config(cfg)] == ["cached"]
    assert not path.exists()


def test_interrupt_stops_the_serial_run_and_says_what_is_saved(tmp_path, monkeypatch):
    real = runner.discover_seed

    def interrupted_at_seed_1(cfg, seed, progress=None):
        if seed == 1:
            raise KeyboardInterrupt
        return real(cfg, seed, progress)

    monkeypatch.setattr(runner, "discover_seed", interrupted_at_seed_1)
    with pytest.raises(runner.RunInterrupted) as exc:
        runner.run_config(_cfg(tmp_path, "seeds=3", *TINY))
    assert str(exc.value).startswith("interrupted: 1 of 3 seeds finished (0 of them cached)")
    assert "rerun the same command to resume" in str(exc.value)
    assert len(load_runs(tmp_path)) == 1
    assert not [n for n in _files(tmp_path) if n.endswith((".tmp", ".claim"))]
