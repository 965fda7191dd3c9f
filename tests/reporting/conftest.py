"""Shared inputs of the reporting tests: a small Parquet results tree and hand-made run frames."""

from __future__ import annotations

import pandas as pd
import pytest

from weakpareto.campaign import store as res
from weakpareto.evaluation.metrics import Metrics
from weakpareto.records import DiscoveryResult, Equation, FrontPoint, Term

FADE = Equation("sub", 0.8, (Term(0, 1.0, -1.0), Term(0, 1.7, 0.5)))
NAN = float("nan")


def _write_run(
    root,
    benchmark,
    seed,
    noise,
    metrics,
    fit,
    *,
    method="weak_pareto",
    variant="default",
    eq=FADE,
    front=None,
    selected=2,
):
    front = front or (FrontPoint(len(eq.terms), 1e-3, 1e-3, -3.0, 0.0, 0.0, eq),)
    result = DiscoveryResult(front, tuple(fp.size for fp in front), selected, eq, eq, fit, {})
    key = res.RunKey(
        benchmark=benchmark,
        method=method,
        variant=variant,
        noise_law="multiplicative",
        noise=noise,
        seed=seed,
        config_hash="feedbeef00",
    )
    row = res.run_record(result, metrics, key, runtime=1.0)
    res.write_front_and_run(res.run_path(root, key), row, res.front_records(result, key))


def _m(support=True, operator=True, e_alpha=0.0, e_beta=0.0, e_xi=0.0, e_xi2=0.0):
    if not support:
        return Metrics(False, False, True, e_alpha, NAN, NAN, NAN)
    return Metrics(True, operator, True, e_alpha, e_beta, e_xi, e_xi2)


@pytest.fixture()
def results_dir(tmp_path):
    """FADE 10 % (cells equal to the paper's), RD space 10 % (3/5 support), FADE 5 % fronts."""
    root = tmp_path / "runs"
    # FADE 10 %: chosen so that every cell equals the paper's (tab:main row 1)
    e_alpha = [0.000, 0.001, 0.002, 0.003, 0.004]  # 0.002 +- 0.0016
    e_beta = [0.03, 0.07, 0.11, 0.07, 0.07]  # 0.07 +- 0.028
    e_xi = [0.00, 0.12, 0.25, 0.12, 0.11]  # 0.12 +- 0.089
    e_xi2 = [0.01, 0.08, 0.15, 0.10, 0.06]  # 0.08 +- 0.051
    fit = [0.021, 0.022, 0.023, 0.022, 0.022]  # 0.022 +- 0.0007
    for s in range(5):
        _write_run(
            root, "fade", s, 0.1, _m(True, True, e_alpha[s], e_beta[s], e_xi[s], e_xi2[s]), fit[s]
        )
    # RD space 10 %: 3/5 support, no operator; two support failures with their own E_fit
    for s, (sup, ea, eb, fe) in enumerate(
        [
            (True, 0.2, 0.2, 0.6),
            (True, 0.2, 0.4, 0.7),
            (True, 0.2, 0.6, 0.8),
            (False, 0.3, 0, 0.5),
            (False, 0.25, 0, 0.9),
        ]
    ):
        _write_run(root, "rd_space", s, 0.1, _m(sup, False, ea, eb, 1.0, 0.5), fe)
    # FADE 5 %, seed 0: the support-size sweep of tab:progress
    eqs = [
        Equation("sub", 0.8, FADE.terms[:1]),
        FADE,
        Equation("sub", 0.8, (*FADE.terms, Term(1, 1.0, 0.01))),
    ]
    front = tuple(
        FrontPoint(c, tr, va, 0.0, 0.0, 0.0, eq)
        for c, tr, va, eq in zip(
            (1, 2, 3), (5.94e-3, 1.21e-4, 1.05e-4), (5.49e-3, 1.16e-4, 9.40e-5), eqs
        )
    )
    _write_run(root, "fade", 0, 0.05, _m(), 0.011, front=front, selected=2)
    return root


def runs_frame(rows):
    """A runs table from partial rows (defaults: Weak-Pareto default variant, 10 % multiplicative,
    exact results)."""
    base = dict(
        method="weak_pareto",
        variant="default",
        noise_law="multiplicative",
        noise=0.1,
        status="ok",
        operator_ok=True,
        e_alpha=0.0,
        e_beta_max=0.0,
        e_xi_max=0.0,
        fit_error=0.01,
        n_rows=NAN,
        created_utc="2026-01-01T00:00:00",
    )
    return pd.DataFrame([{**base, **r} for r in rows])


@pytest.fixture()
def ksens_runs():
    """K15x21 with a support failure, K44x60 with a wrong K and an old duplicate, a default run."""
    rows = []
    # K15x21: one support failure whose e_alpha still enters the all-seed mean (tab:ksens)
    e_alpha = [0.000, 0.001, 0.002, 0.003, 0.004]  # 0.002 +- 0.0016
    e_beta = [0.01, 0.03, 0.05, 0.07, NAN]  # 0.04 +- 0.026 (NaN skipped)
    e_xi = [0.04, 0.05, 0.05, 0.06, NAN]  # mean 0.05
    fit = [0.008, 0.009, 0.009, 0.010, 0.009]  # mean 0.009
    for s in range(5):
        rows.append(
            dict(
                benchmark="fade",
                variant="K15x21",
                seed=s,
                support_ok=s < 4,
                operator_ok=s < 3,
                e_alpha=e_alpha[s],
                e_beta_max=e_beta[s],
                e_xi_max=e_xi[s],
                fit_error=fit[s],
                n_rows=315,
            )
        )
    # K44x60: two seeds, a wrong stored K (noted) and an older duplicate of seed 0 (ignored)
    rows.append(
        dict(
            benchmark="fade",
            variant="K44x60",
            seed=0,
            support_ok=False,
            operator_ok=False,
            e_alpha=0.9,
            e_beta_max=NAN,
            e_xi_max=NAN,
            fit_error=0.9,
            n_rows=2640,
            created_utc="2025-01-01T00:00:00",
        )
    )
    for s, (ea, eb, ex, fe) in enumerate([(0.001, 0.05, 0.1, 0.02), (0.003, 0.09, 0.14, 0.024)]):
        rows.append(
            dict(
                benchmark="fade",
                variant="K44x60",
                seed=s,
                support_ok=True,
                e_alpha=ea,
                e_beta_max=eb,
                e_xi_max=ex,
                fit_error=fe,
                n_rows=2641,
            )
        )
    rows.append(dict(benchmark="fade", variant="default", seed=0, support_ok=True))  # not ksens
    return runs_frame(rows)


def _front_rows(benchmark, variant, seed, e1, e2, created="2026-01-01T00:00:00", ch="aa"):
    rows = []
    for size, e in ((1, e1), (2, e2), (3, 0.9 * (e2 or e1))):
        if e is not None:
            rows.append(
                dict(
                    benchmark=benchmark,
                    method="weak_pareto",
                    variant=variant,
                    noise_law="multiplicative",
                    noise=0.1,
                    seed=seed,
                    config_hash=ch,
                    size=size,
                    train_error=e,
                    val_error=e,
                    created_utc=created,
                )
            )
    return rows


@pytest.fixture()
def elbow_frames():
    """(runs, fronts) of the elbow-margin audit: FADE m0.15 + m0.1 fronts, RD space fallback."""
    fr, runs = [], []
    # FADE (m0.15 fronts): Delta_12 = 0.12, 0.17, 0.25, 0.105, 0.30
    for s, d in enumerate([0.12, 0.17, 0.25, 0.105, 0.30]):
        fr += _front_rows("fade", "m0.15", s, 1e-3 * 10**d, 1e-3, ch="new")
    fr += _front_rows("fade", "m0.15", 0, 1.0, 1e-3, created="2025-01-01", ch="old")  # ignored
    for s, d in enumerate([0.12, 0.17, 0.25, 0.105, 0.31]):  # m0.1 fronts: seed 4 differs
        fr += _front_rows("fade", "m0.1", s, 1e-3 * 10**d, 1e-3)
    # RD space: only the m0.2 fronts (fallback), seed 2 without a c = 2 model
    for s, d in enumerate([0.107, 0.267, None, 0.126, 0.175]):
        fr += _front_rows("rd_space", "m0.2", s, 0.3, None if d is None else 0.3 / 10**d)
    # RD space full-selector reruns: support 5/5, 3/5, 1/5 (paper text), operator 0/5
    for m, k in (("m0.1", 5), ("m0.15", 3), ("m0.2", 1)):
        for s in range(5):
            runs.append(
                dict(benchmark="rd_space", variant=m, seed=s, support_ok=s < k, operator_ok=False)
            )
    runs.append(dict(benchmark="fade", variant="m0.15", seed=0, support_ok=True))
    return runs_frame(runs), pd.DataFrame(fr)


@pytest.fixture()
def make_runs():
    """:func:`runs_frame` as a fixture (test modules cannot import this conftest)."""
    return runs_frame
