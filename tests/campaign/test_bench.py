"""`wp bench` plumbing (no timing assertions: performance lives in results/bench/)."""

import pytest

from weakpareto.campaign.bench import bench_command, fit_exponent, time_one
from weakpareto.campaign.config import UserInputError


def test_fit_exponent_recovers_power_law():
    xs = [315, 660, 1333, 2640, 5270]
    assert fit_exponent(xs, [3e-6 * x**1.5 for x in xs]) == pytest.approx(1.5, abs=1e-12)


def test_stage_split_sums_to_total():
    r = time_one(["benchmark=rd_space", "noise=0.1", "search.popsize=4", "search.maxiter=4"])
    parts = r["data_s"] + r["banks_s"] + r["search_s"] + r["refine_s"]
    assert 0.9 * r["total_s"] <= parts <= 1.0001 * r["total_s"]
    assert r["n_rows"] == 1440 and r["n_evals"] > 0


@pytest.mark.parametrize("args", [["repeats=0"], ["repeats=x"], ["color=red"], ["fast"]])
def test_bad_options(args):
    with pytest.raises(UserInputError):
        bench_command(args)
