"""Failures visible: a numerical failure is a failed row with its reason and the run goes on; a
programming error stops the run (serial, in the worker pool, and `wp run -m` as a process) with
its traceback, nothing half-written, and exit code 1."""

from __future__ import annotations

import multiprocessing
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from weakpareto.campaign import compute, runner
from weakpareto.campaign.compose import compose_config
from weakpareto.campaign.store import load_runs
from weakpareto.numerics.mittag_leffler import MittagLefflerOverflowError
from weakpareto.records import DiscoveryResult, Equation, FrontPoint, Term

FADE = Equation("sub", 0.8, (Term(0, 1.0, -1.0), Term(0, 1.7, 0.5)))
TINY = ["search.popsize=1", "search.maxiter=1", "search.c_max=2", "search.test_budget=smoke"]


def _result(eq: Equation = FADE, fit: float = 0.02, val: float = 1e-3) -> DiscoveryResult:
    front = (FrontPoint(eq.size, val, val, -3.0, 0.0, 0.0, eq),)
    return DiscoveryResult(front, (eq.size,), eq.size, eq, eq, fit, {})


def _cfg(root, *extra):
    return compose_config(
        ["benchmark=fade", "noise=0.05", f"results_dir={root}", "progress=false", *TINY, *extra]
    )


def _leftovers(root):
    return [p.name for p in root.rglob("*") if p.name.endswith((".tmp", ".claim"))]


@pytest.mark.parametrize(
    ("err", "reason"),
    [
        (np.linalg.LinAlgError("Singular matrix"), "singular fit"),
        (FloatingPointError("invalid value"), "floating-point failure"),
        (OverflowError("math range error"), "overflow"),
        (ZeroDivisionError("float division by zero"), "division by zero"),
        (MittagLefflerOverflowError("E(z) overflows"), "Mittag-Leffler overflow"),
        (
            compute.NumericalFailure("no feasible candidate: every size NaN"),
            "no feasible candidate",
        ),
    ],
)
def test_numerical_failures_and_their_reasons(err, reason):
    assert isinstance(err, compute.NUMERICAL_FAILURES)
    assert compute.failure_reason(err) == reason


@pytest.mark.parametrize(
    "err",
    [TypeError(), AttributeError(), NameError(), KeyError(), AssertionError(), ImportError(),
     IndexError(), ValueError(), RuntimeError(), NotImplementedError()],
)  # fmt: skip
def test_programming_errors_are_not_numerical_failures(err):
    assert not isinstance(err, compute.NUMERICAL_FAILURES)


def test_check_result_rejects_unusable_models():
    compute.check_result(_result())  # a usable model passes
    with pytest.raises(compute.NumericalFailure, match="^no feasible candidate"):
        compute.check_result(_result(val=float("inf")))
    with pytest.raises(compute.NumericalFailure, match="^non-finite objective"):
        compute.check_result(_result(fit=float("nan")))
    nan_coef = Equation("sub", 0.8, (Term(0, 1.0, float("nan")),))
    with pytest.raises(compute.NumericalFailure, match="^non-finite objective"):
        compute.check_result(_result(nan_coef))


def test_numerical_failures_become_rows_with_a_reason(tmp_path, monkeypatch, capsys):
    def fake(cfg, seed, progress=None):
        if seed == 1:
            raise np.linalg.LinAlgError("Singular matrix")
        if seed == 2:
            return _result(fit=float("nan"))
        return _result()

    monkeypatch.setattr(runner, "discover_seed", fake)
    outcomes = runner.run_config(_cfg(tmp_path, "seeds=3"))
    assert [o.row["status"] for o in outcomes] == ["ok", "failed", "failed"]
    runs = load_runs(tmp_path).set_index("seed")
    assert runs.loc[1, "error"].startswith("singular fit: LinAlgError: Singular matrix\n")
    assert runs.loc[2, "error"].startswith("non-finite objective: NumericalFailure: ")
    out = capsys.readouterr().out
    assert "seed 1  : FAILED singular fit: LinAlgError: Singular matrix" in out
    assert "failed 2" in out


def test_a_programming_error_stops_the_serial_run(tmp_path, monkeypatch):
    def buggy(cfg, seed, progress=None):
        if seed == 1:
            return None.final  # AttributeError: a bug, not a property of the data
        return _result()

    monkeypatch.setattr(runner, "discover_seed", buggy)
    with pytest.raises(runner.SeedCrashed) as exc:
        runner.run_config(_cfg(tmp_path, "seeds=3"))
    crash = exc.value
    assert crash.seed == 1 and "AttributeError" in str(crash)
    assert crash.saved.startswith("1 of 3 seeds finished (0 of them cached) and saved")
    report = crash.report()
    assert report.startswith("Traceback (most recent call last):") and "buggy" in report
    assert "wp: error: seed 1 of fade weak_pareto default 5 % stopped the run" in report
    assert load_runs(tmp_path)["seed"].tolist() == [0]  # seed 2 never ran, seed 1 not stored
    assert not _leftovers(tmp_path)


def _slow_then_bug(cfg, seed, progress=None):
    if seed == 2:
        raise KeyError("missing setting")
    time.sleep(0.3)
    return _result()


def test_a_programming_error_in_a_worker_stops_the_pool(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "discover_seed", _slow_then_bug)  # inherited by forked workers
    if multiprocessing.get_start_method() != "fork":
        pytest.skip("workers do not inherit the monkeypatch")
    t0 = time.perf_counter()
    with pytest.raises(runner.SeedCrashed) as exc:
        runner.run_config(_cfg(tmp_path, "seeds=40", "workers=2"))
    assert time.perf_counter() - t0 < 10  # queued seeds are cancelled, not run
    assert exc.value.seed == 2 and "KeyError: 'missing setting'" in exc.value.trace
    assert len(load_runs(tmp_path)) < 10
    assert not _leftovers(tmp_path)
    deadline = time.monotonic() + 5
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not multiprocessing.active_children()


SCRIPT = textwrap.dedent(
    """
    import sys
    from weakpareto import cli
    from weakpareto.campaign import runner

    CALLS = sys.argv[1]  # wp run hands sys.argv to Hydra

    def buggy(cfg, seed, progress=None):
        with open(CALLS, "a") as fh:
            fh.write(f"{cfg.noise}\\n")
        raise TypeError("synthetic bug")

    runner.discover_seed = buggy
    cli.main(sys.argv[2:])
    """
)


def test_wp_run_sweep_stops_at_a_programming_error_with_exit_code_1(tmp_path):
    calls = tmp_path / "calls.txt"
    args = ["run", "-m", "benchmark=fade", "noise=0.01,0.02", "seeds=2", "progress=false"]
    args += [f"results_dir={tmp_path / 'runs'}", *TINY]
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(calls), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback (most recent call last):" in done.stderr
    assert "TypeError: synthetic bug" in done.stderr
    assert "wp: error: seed 0 of fade weak_pareto default 1 % stopped the run" in done.stderr
    assert calls.read_text().split() == ["0.01"]  # the sweep's second job never started
    assert not (tmp_path / "runs" / "fade").exists() or not list(
        (tmp_path / "runs" / "fade").glob("*.parquet")
    )


def _stubborn_then_bug(cfg, seed, progress=None):
    if seed == 1:
        time.sleep(0.3)
        raise KeyError("missing setting")
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # cannot unwind: killed after the grace period
    time.sleep(30)
    return _result()


def test_a_worker_killed_before_its_cleanup_leaves_no_claim(tmp_path, monkeypatch):
    """A worker that does not unwind within the grace period is SIGKILLed holding its seed's
    claim (what a heavily loaded machine does to a slow unwind); the parent removes that claim."""
    monkeypatch.setattr(runner, "discover_seed", _stubborn_then_bug)
    if multiprocessing.get_start_method() != "fork":
        pytest.skip("workers do not inherit the monkeypatch")
    t0 = time.perf_counter()
    with pytest.raises(runner.SeedCrashed) as exc:
        runner.run_config(_cfg(tmp_path, "seeds=4", "workers=2"))
    assert exc.value.seed == 1
    assert time.perf_counter() - t0 < 10  # the stubborn worker was killed, not waited for
    assert not _leftovers(tmp_path)
