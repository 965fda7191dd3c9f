"""2-D directional discovery end to end, its scoring, records, runner path and tab:twod."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

from weakpareto.benchmarks.catalogue import load_benchmark
from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.campaign import runner as runner
from weakpareto.campaign.compose import compose_config
from weakpareto.campaign.config import discovery_config
from weakpareto.campaign.store import load_fronts, load_runs
from weakpareto.evaluation.metrics import match_terms, score, truth_equation
from weakpareto.library.weak_2d import weak_library_2d
from weakpareto.method.discovery_2d import discover_2d
from weakpareto.method.settings import SearchSettings
from weakpareto.records import Equation, Term
from weakpareto.reporting.tables.twod import table_twod

X, Y = "x", "y"
TRUTH_A = Equation("sub", 0.85, (Term(0, 1.70, 0.30, X), Term(0, 1.40, 0.20, Y)))
TRUTH_B = Equation(
    "sub", 0.85, (Term(0, 1.0, -0.60, X), Term(0, 1.70, 0.30, X), Term(0, 1.40, 0.20, Y))
)
FAST_SEARCH = SearchSettings(popsize=5, maxiter=10, updating="deferred", vectorized=True)


# -- discovery -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def twod_a_result():
    """Benchmark A at 5 % noise, seed 0 (noise RNG 700 + seed), reduced DE budget."""
    cfg = compose_config(["benchmark=twod_a", "noise=0.05", "+experiment=twod"])
    field = generate(cfg.benchmark, 0)
    u = add_noise(field.u, "multiplicative", 0.05, runner.noise_seed(cfg, 0))
    lib = weak_library_2d(u, field.t, field.x, field.y)
    dcfg = dataclasses.replace(discovery_config(cfg, 0), search=FAST_SEARCH)
    return discover_2d(lib, dcfg)


def test_twod_a_recovered_at_5_percent_noise(twod_a_result):
    final = twod_a_result.final
    m = score(final, TRUTH_A)
    assert m.support_ok and m.operator_ok and m.branch_ok, final.text()
    assert final.mode == "sub" and abs(final.alpha - 0.85) <= 0.15
    assert [(t.power, t.direction) for t in final.terms] == [(0, X), (0, Y)]
    assert m.e_beta_max <= 0.15
    assert m.e_xi_max < 0.1
    assert twod_a_result.timings["n_rows"] == 48000


def test_front_equations_carry_directions(twod_a_result):
    for fp in twod_a_result.front:
        assert all(t.power == 0 and t.direction in (X, Y) for t in fp.equation.terms)
    assert twod_a_result.selected_size == 2


# -- scoring ---------------------------------------------------------------------------------------
def test_truth_scores_perfectly_and_yaml_truth_has_directions():
    assert truth_equation(load_benchmark("twod_b")) == TRUTH_B
    assert truth_equation(load_benchmark("twod_a")) == TRUTH_A
    m = score(TRUTH_B, TRUTH_B)
    assert m.support_ok and m.operator_ok and m.branch_ok
    assert m.e_alpha == m.e_beta_max == m.e_xi_max == 0.0


def test_swapped_direction_fails():
    """Orders attached to the wrong axes: same {x, y} multiset (support/direction per the
    paper's definition), but the within-direction orders are off -> operator fails."""
    est = Equation("sub", 0.85, (Term(0, 1.70, 0.30, Y), Term(0, 1.40, 0.20, X)))
    m = score(est, TRUTH_A)
    assert m.support_ok and not m.operator_ok
    assert m.e_beta_max == pytest.approx(0.3)
    # B with the fractional x-term moved to y: direction multiset {x, y, y} != {x, x, y}.
    moved = Equation(
        "sub", 0.85, (Term(0, 1.0, -0.6, X), Term(0, 1.70, 0.30, Y), Term(0, 1.40, 0.20, Y))
    )
    m = score(moved, TRUTH_B)
    assert not m.support_ok and not m.operator_ok and np.isnan(m.e_beta_max)
    both_x = Equation("sub", 0.85, (Term(0, 1.70, 0.30, X), Term(0, 1.40, 0.20, X)))
    assert not score(both_x, TRUTH_A).support_ok


def test_wrong_size_fails_support():
    est = Equation("sub", 0.85, (Term(0, 1.70, 0.30, X),))
    assert not score(est, TRUTH_A).support_ok
    extra = Equation("sub", 0.85, (*TRUTH_A.terms, Term(0, 0.9, 0.01, Y)))
    assert not score(extra, TRUTH_A).support_ok


def test_hungarian_matching_within_a_direction_beats_greedy():
    """Truth x-orders stored as (1.7, 1.0); estimate x-orders (1.5, 2.5).

    Greedy in truth order pairs 1.7-1.5 and 1.0-2.5 (max error 1.5); the optimal assignment
    pairs 1.7-2.5 and 1.0-1.5 (total 1.3 < 1.7, max error 0.8).
    """
    truth = Equation("sub", 0.85, (Term(0, 1.7, 0.3, X), Term(0, 1.0, -0.6, X)))
    est = Equation("sub", 0.85, (Term(0, 1.5, -0.6, X), Term(0, 2.5, 0.3, X)))
    m = score(est, truth)
    assert m.support_ok and not m.operator_ok
    assert m.matching == (1, 0)
    assert m.e_beta_max == pytest.approx(0.8)
    assert m.e_xi_max == pytest.approx(0.0)
    assert match_terms(
        est,
        Equation("sub", 0.85, tuple(dataclasses.replace(t, direction=None) for t in truth.terms)),
    ) == [0, 1]


def test_matching_is_per_direction_in_benchmark_b():
    est = Equation(
        "sub",
        0.86,
        (Term(0, 1.39, 0.21, Y), Term(0, 1.68, 0.31, X), Term(0, 1.02, -0.62, X)),
    )
    m = score(est, TRUTH_B)
    assert m.support_ok and m.operator_ok
    assert m.matching == (2, 1, 0)
    assert m.e_beta_max == pytest.approx(0.02)
    assert m.e_xi_max == pytest.approx(0.05)


@pytest.mark.parametrize(
    "mode, alpha, beta_y, ok",
    [
        ("sub", 0.99, 1.40, True),  # within tau of 0.85
        ("sub", 1.01, 1.40, False),  # not within tau
        ("int", 1.0, 1.40, False),  # wrong temporal branch
        ("sub", 0.85, 1.56, False),  # order outside tau
        ("sub", 0.85, 1.54, True),
    ],
)
def test_operator_rule_branch_alpha_and_orders(mode, alpha, beta_y, ok):
    est = Equation(mode, alpha, (Term(0, 1.70, 0.30, X), Term(0, beta_y, 0.20, Y)))
    m = score(est, TRUTH_A)
    assert m.support_ok and m.operator_ok is ok


# -- records ---------------------------------------------------------------------------------------
def test_direction_printing_and_dict_round_trip():
    assert TRUTH_B.text() == (
        "D_t^0.8500 u = -0.6000 D_x^1.0000 u + 0.3000 D_x^1.7000 u + 0.2000 D_y^1.4000 u"
    )
    assert "D_y^{1.40}u" in TRUTH_B.latex() and "D_x^{1.70}u" in TRUTH_B.latex()
    d = TRUTH_B.to_dict()
    assert [t["direction"] for t in d["terms"]] == [X, X, Y]
    assert Equation.from_dict(d) == TRUTH_B
    one_d = Equation("sub", 0.8, (Term(0, 1.0, -1.0), Term(0, 1.7, 0.5)))
    assert "direction" not in one_d.to_dict()["terms"][0]
    assert Term(0, 1.7, 0.5) == Term(0, 1.7, 0.5, None)  # positional construction unchanged


def test_canonical_groups_terms_by_direction():
    est = Equation("sub", 0.85, (Term(0, 1.4, 0.2, Y), Term(0, 1.7, 0.3, X), Term(0, 1.0, -1, X)))
    assert [(t.direction, t.order) for t in est.canonical().terms] == [
        (X, 1.0),
        (X, 1.7),
        (Y, 1.4),
    ]


# -- runner and report -----------------------------------------------------------------------------
def test_noise_seed_offset_from_benchmark_tuning():
    cfg2 = compose_config(["benchmark=twod_a"])
    cfg1 = compose_config(["benchmark=fade"])
    assert runner.noise_seed(cfg2, 3) == 703
    assert runner.noise_seed(cfg1, 3) == 3


def test_wp_run_routes_2d_and_writes_directions(tmp_path):
    cfg = compose_config(
        [
            "benchmark=twod_b",
            "noise=0.01",
            "seeds=1",
            "+experiment=twod",
            "search.popsize=3",
            "search.maxiter=3",
            "progress=false",
            f"results_dir={tmp_path}",
        ]
    )
    (outcome,) = runner.run_config(cfg)
    row = load_runs(tmp_path).iloc[0]
    assert row["status"] == "ok", row["error"]
    assert row["experiment"] == "twod" and row["n_rows"] == 48000
    assert list(row["powers"]) == [0] * row["n_terms"]
    assert set(row["directions"]) <= {X, Y} and len(row["directions"]) == row["n_terms"]
    assert row["truth_equation"].endswith("0.2000 D_y^1.4000 u")
    fronts = load_fronts(tmp_path)
    assert fronts["size"].min() == 1 and fronts["selected"].sum() == 1
    assert outcome.row["equation"] == row["equation"]


def test_strong_method_has_no_2d_path(tmp_path):
    cfg = compose_config(
        ["benchmark=twod_a", "method=strong_pareto", "seeds=1", f"results_dir={tmp_path}"]
    )
    with pytest.raises(ValueError, match="pointwise features. is 1-D periodic only"):
        runner.discover_seed(cfg, 0)


def _row(bench, noise, seed, support, operator, **errs):
    base = {
        "benchmark": bench,
        "method": "weak_pareto",
        "variant": "default",
        "noise_law": "multiplicative",
        "noise": noise,
        "seed": seed,
        "status": "ok",
        "support_ok": support,
        "operator_ok": operator,
        "branch_ok": True,
        "e_alpha": 0.001,
        "e_beta_max": 0.002,
        "e_xi_max": 0.01,
        "e_xi_2": 0.01,
        "fit_error": 0.02,
        "runtime_s": 6.0,
        "created_utc": "2025-01-01T00:00:00",
        # the truth the run was scored against (tab:twod's Active terms): A 2 terms, B 3
        "config_json": json.dumps(
            {"benchmark": {"truth": {"terms": [{}] * {"twod_a": 2, "twod_b": 3}.get(bench, 2)}}}
        ),
    }
    base.update(errs)
    return base


def test_table_twod_layout_and_counts():
    rows = [
        _row(b, n, s, True, not (b == "twod_b" and n == 0.2 and s == 4))
        for b in ("twod_a", "twod_b")
        for n in (0.0, 0.01, 0.05, 0.1, 0.2)
        for s in range(5)
    ]
    rows.append(_row("fade", 0.1, 0, False, False))  # other benchmarks are ignored
    latex, md = table_twod(pd.DataFrame(rows))
    assert r"\label{tab:twod}" in latex and r"\toprule" in latex and r"\bottomrule" in latex
    assert r"Benchmark & Active terms & Support/direction & Operator \\" in latex
    assert r"A: anisotropic diffusion & 2 & $25/25$ & $25/25$ \\" in latex
    assert r"B: advection--diffusion & 3 & $25/25$ & $24/25$ \\" in latex
    assert "| A: anisotropic diffusion | Operator | 25/25 | 25/25 | yes |" in md
    assert "| B: advection--diffusion | Operator | 25/25 | 24/25 | no |" in md
    assert (
        "| A: anisotropic diffusion | e_alpha | 0.00081 ± 0.00054 | 0.00100 ± 0.00000 | no |" in md
    )


def test_table_twod_without_runs_has_dashes_and_notes():
    latex, md = table_twod(pd.DataFrame(columns=["benchmark", "noise"]))
    assert r"A: anisotropic diffusion & -- & -- & -- \\" in latex  # no runs, no paper fallback
    assert "no runs for twod_a" in md
