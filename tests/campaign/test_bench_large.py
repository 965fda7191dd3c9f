"""`wp bench large=...`: one fit of a large field per size in a fresh process (no timing
assertions: the numbers are the machine's)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from weakpareto.campaign import bench, bench_large
from weakpareto.campaign.bench import bench_command
from weakpareto.errors import UserInputError


def test_the_five_mode_field_solves_its_equation():
    """``u_t = 0.3 R^1.5 u``: the time derivative by a central difference equals 0.3 times the
    spectral ``-|k|^1.5`` applied to ``u`` (to the difference's O(dt^2))."""
    u, t, x = bench_large.five_mode_field(2001, 64)
    dt = t[1] - t[0]
    u_t = (u[2:] - u[:-2]) / (2 * dt)
    k = np.fft.fftfreq(64, 1.0 / 64)
    rhs = np.real(np.fft.ifft(-0.3 * np.abs(k) ** 1.5 * np.fft.fft(u[1:-1], axis=1), axis=1))
    np.testing.assert_allclose(u_t, rhs, atol=1e-5 * np.abs(rhs).max())


@pytest.mark.parametrize(
    ("text", "sizes"),
    [("", []), ("600x1024", [(600, 1024)]), ("[64x64,128x96]", [(64, 64), (128, 96)])],
)
def test_sizes_are_parsed(text, sizes):
    assert bench_large.parse_sizes(text) == sizes


@pytest.mark.parametrize("text", ["600", "600x", "10x1024", "600*1024"])
def test_bad_sizes_are_refused_in_one_line(text):
    with pytest.raises(UserInputError, match="large=.*e.g. large=600x1024"):
        bench_large.parse_sizes(text)


def test_a_fresh_process_fits_the_field_and_reports_its_own_peak(tmp_path):
    df = bench_large.large_field_rows([(48, 64)], "weak_pareto_exact", repeats=1)
    row = df.iloc[0]
    assert (row["nt"], row["nx"], row["method"], row["repeats"]) == (48, 64, "weak_pareto_exact", 1)
    assert row["equation"] == bench_large.TRUTH and row["exact"]
    assert 0 < row["fit_s"] < row["wall_s"]
    assert 30 < row["peak_mib"] < 2000  # an interpreter with numpy/scipy, not the parent's
    path = bench_large.write_large_fields(tmp_path, df)
    assert pd.read_csv(path)["equation"].tolist() == [bench_large.TRUTH]


def test_large_options_are_checked_and_passed(monkeypatch, tmp_path):
    seen = {}

    def fake_run(*args):
        seen["large"], seen["method"] = args[7], args[8]

    monkeypatch.setattr(bench, "run_bench", fake_run)
    with pytest.raises(UserInputError, match="large_method"):
        bench_command(["large=64x64", "large_method=sindy"])
    bench_command(["large=64x64,96x128", "large_method=weak_pareto", f"out_dir={tmp_path}"])
    assert seen == {"large": ((64, 64), (96, 128)), "method": "weak_pareto"}
