"""``uncertainty="bootstrap"`` on WeakPareto and ``wp discover``: intervals, inclusion, S_beta,
identifiability warnings, JSON round trip; coverage over noise seeds (slow).

Truth of FADE: D_t^0.8 u = -u_x + 0.5 D_x^1.7 u.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.cli import main
from weakpareto.errors import UserInputError
from weakpareto.fit.context import FitWarning
from weakpareto.user.estimator import WeakPareto
from weakpareto.user.uncertainty_report import (
    S_MIN,
    TAU_Q,
    TermUncertainty,
    Uncertainty,
    alpha_edge_warning,
    correlated_noise_warnings,
    identifiability_warnings,
    model_error_warnings,
)

RANGES = {"alpha_range": (0.6, 1.05), "beta_range": (0.5, 2.0)}


@pytest.fixture(scope="module")
def fade5(fade_field):
    u, t, x = fade_field
    noisy = u * (1 + 0.05 * np.random.default_rng(0).uniform(-1, 1, u.shape))
    return noisy, t, x


@pytest.fixture(scope="module")
def fitted(fade5):
    u, t, x = fade5
    return WeakPareto(**RANGES, uncertainty="bootstrap", n_boot=30).fit(u, t, x)


def test_off_by_default_and_validated():
    m = WeakPareto()
    assert m.uncertainty is None and m.n_boot == 200 and m.level == 0.9
    for bad, match in (
        ({"uncertainty": "jackknife"}, "uncertainty"),
        ({"level": 1.5}, "level"),
        ({"level": True}, "level"),
        ({"n_boot": 0}, "n_boot"),
    ):
        with pytest.raises(UserInputError, match=match):
            WeakPareto(**bad).discovery_config()
    WeakPareto(uncertainty="none").discovery_config()  # "none"/"null"/"off" mean off


def test_intervals_inclusion_and_sensitivity(fitted):
    m = fitted
    assert m.equation_.size == 2 and m.mode_ == "sub"
    iv = m.intervals_
    lo, hi = iv["alpha"]
    assert lo <= m.alpha_ <= hi and lo <= 0.8 <= hi
    assert len(iv["orders"]) == len(iv["coef"]) == 2
    for (o_lo, o_hi), (c_lo, c_hi), order, coef in zip(
        iv["orders"], iv["coef"], m.orders_, m.coef_
    ):
        assert o_lo <= order <= o_hi and o_hi - o_lo < TAU_Q
        assert c_lo <= coef <= c_hi
    assert np.all(m.inclusion_ == 1.0)
    sens = [t.sensitivity for t in m.uncertainty_.terms]
    assert all(s is not None and s > S_MIN for s in sens)  # FADE: 0.50 in the paper
    assert not any(w.code in ("identifiability", "unstable_term") for w in m.warnings_)
    assert m.uncertainty_.block[0] > 1  # neighbouring temporal tests are resampled together


def test_print_and_json_round_trip(fitted, capsys):
    fitted.print()
    out = capsys.readouterr().out
    assert "uncertainty (block bootstrap: 30 resamples" in out
    assert "included 100 %" in out and "S_beta" in out
    d = json.loads(fitted.to_json())
    u = d["uncertainty"]
    assert u["method"] == "bootstrap" and u["n_boot"] == 30 and u["level"] == 0.9
    assert len(u["terms"]) == 2 and len(u["alpha_interval"]) == 2
    again = WeakPareto.from_json(fitted.to_json())
    assert again.to_dict() == fitted.to_dict()
    assert again.intervals_ == fitted.intervals_
    assert np.array_equal(again.inclusion_, fitted.inclusion_)


def test_no_uncertainty_key_when_off(fade5):
    u, t, x = fade5
    m = WeakPareto(**RANGES, max_terms=2, maxiter=8).fit(u, t, x)
    assert m.uncertainty_ is None and "uncertainty" not in m.to_dict()
    assert not hasattr(m, "intervals_")


def _report(order_interval, sensitivity, inclusion=1.0, at_bound=0.0) -> Uncertainty:
    term = TermUncertainty(
        "R^1.33 u", 0, 1.33, 0.2, None, order_interval, (0.1, 0.3), inclusion, sensitivity,
        at_bound,
    )  # fmt: skip
    return Uncertainty(
        "bootstrap", 100, 0.9, 0, 0.8, (0.7, 0.98), 0.3, (term,), (), {1: 1.0}, (15, 5),
        (44, 60), 36, 1.0,
    )  # fmt: skip


def test_identifiability_warnings_name_the_cause_and_the_fix():
    found = identifiability_warnings(_report((1.1, 1.6), 0.1, inclusion=0.4, at_bound=0.2))
    codes = [w.code for w in found]
    assert codes.count("identifiability") == 4 and "unstable_term" in codes
    text = " ".join(w.message for w in found)
    assert "wider than 0.15" in text and "S_beta=0.1" in text and "absorbed" in text
    assert "more data" in text and "fixing the order" in text and "beta_range" in text
    # a narrow, sensitive order is quiet; the wide alpha interval (0.28) still warns
    found = identifiability_warnings(_report((1.30, 1.36), 0.5))
    assert [w for w in found if "R^1.33" in w.message] == []
    assert any("alpha=0.8000 is weakly identifiable" in w.message for w in found)


def test_a_misfit_says_the_intervals_hold_no_model_error():
    report = _report((1.30, 1.36), 0.5)
    assert model_error_warnings([FitWarning("noise_level", "x", "info")], report) == []
    (w,) = model_error_warnings([FitWarning("misfit", "E_fit 0.1 ...")], report)
    assert w.code == "model_error" and "lower bounds" in w.message
    assert f"{100 * report.level:g} % intervals" in w.message


def test_time_correlated_noise_names_the_interval_of_the_highest_order():
    report = _report((1.30, 1.36), 0.5)
    assert correlated_noise_warnings([FitWarning("misfit", "x")], report) == []
    (w,) = correlated_noise_warnings([FitWarning("correlated_noise", "x")], report)
    assert w.code == "interval_noise" and "[1.300, 1.360]" in w.message
    assert "R^1.33 u" in w.message and "noise_kind=intrinsic" in w.message


def test_a_particle_density_whose_order_interval_misses_the_truth_says_so(brownian_density):
    """Brownian particles (N = 1e5, u_t = 0.3 R^2 u for the density): the bootstrap interval of
    the order lies below 2; the fit names that interval as too narrow for this noise."""
    u, t, x = brownian_density(100_000, 0)
    settings = {"operator": "riesz", "alpha_range": (0.2, 1.9), "beta_range": (0.0, 3.2)}
    # the weak estimate's interval (a trajectory refit moves the estimate, not the resamples)
    model = WeakPareto(**settings, uncertainty="bootstrap", n_boot=40, refit="weak").fit(u, t, x)
    (lo, hi), *_ = model.intervals_["orders"]
    assert hi < 2.0, (lo, hi)  # the case the warning is for
    (w,) = [w for w in model.warnings_ if w.code == "interval_noise"]
    assert f"[{lo:.3f}, {hi:.3f}]" in w.message and w.level == "warning"


def test_a_model_outside_the_class_carries_the_model_error_warning():
    """Advection plus Riesz dispersion fitted with the Riesz family alone (the class cannot
    hold it: misfit), with the bootstrap on."""
    x = 2 * np.pi * np.arange(64) / 64
    t = np.linspace(0.0, 2.0, 81)
    k = np.fft.fftfreq(64, 1.0 / 64)
    lam = -0.5 * 1j * k - 0.3 * np.abs(k) ** 1.5
    u0 = np.fft.fft(np.sin(x) + 0.5 * np.cos(2 * x + 0.3) + 0.25 * np.sin(3 * x + 1.0))
    u = np.real(np.fft.ifft(np.exp(np.multiply.outer(t, lam)) * u0, axis=-1))
    model = WeakPareto(operator="riesz", alpha_range=(0.6, 1.2), beta_range=(0.5, 2.5))
    model.set_params(uncertainty="bootstrap", n_boot=20, max_terms=2, maxiter=10)
    codes = [w.code for w in model.fit(u, t, x).warnings_]
    assert ("misfit" in codes or "poor_fit" in codes) and "model_error" in codes


def test_wp_discover_writes_the_uncertainty(fade5, tmp_path, capsys):
    u, t, x = fade5
    np.savez(tmp_path / "f.npz", u=u, t=t, x=x)
    out = tmp_path / "r.json"
    main(
        [
            "discover",
            f"data={tmp_path / 'f.npz'}",
            "alpha_range=[0.6,1.05]",
            "beta_range=[0.5,2.0]",
            "max_terms=2",
            "maxiter=8",
            "uncertainty=bootstrap",
            "n_boot=10",
            "level=0.8",
            f"out={out}",
        ]
    )
    printed = capsys.readouterr().out
    assert "uncertainty (block bootstrap: 10 resamples" in printed and "80 % intervals" in printed
    r = json.loads(out.read_text())
    assert r["uncertainty"]["level"] == 0.8 and len(r["uncertainty"]["terms"]) == len(r["terms"])
    model = WeakPareto.from_dict(r)
    assert model.intervals_["alpha"] is not None


# -- slow: calibration and the Riesz warning ------------------------------------------------------
@pytest.mark.slow
def test_coverage_over_noise_seeds_fade_5_percent():
    """10 noise seeds of generated FADE at 5 % noise, n_boot 100. Measured: the 90 % intervals
    contain the truth in 8/10 (alpha, beta_1, both coefficients) and 9/10 (beta_2) seeds;
    median widths alpha 0.005, beta_1 0.017, beta_2 0.081, xi 0.063."""
    truth = (0.8, (1.0, 1.7), (-1.0, 0.5))
    hits = []
    for seed in range(10):
        fld = generate("fade", seed)
        u = add_noise(fld.u, "multiplicative", 0.05, seed)
        m = WeakPareto(**RANGES, power_mode="positive", seed=seed, uncertainty="bootstrap",
                       n_boot=100).fit(u, fld.t, fld.x)  # fmt: skip
        assert m.equation_.size == 2
        iv = m.intervals_
        row = [iv["alpha"][0] <= truth[0] <= iv["alpha"][1]]
        row += [lo <= v <= hi for (lo, hi), v in zip(iv["orders"], truth[1])]
        row += [lo <= v <= hi for (lo, hi), v in zip(iv["coef"], truth[2])]
        hits.append(row)
    coverage = np.mean(hits, axis=0)
    print("coverage alpha, beta_1, beta_2, xi_1, xi_2:", coverage)
    assert np.all(coverage >= 0.7)


@pytest.mark.slow
def test_rd_space_warns_that_the_riesz_order_is_weakly_identifiable():
    """Space-fractional RD at 5 % noise (a weakly identifiable order): S_beta of the Riesz order is
    below S_MIN (paper: 0.118) and the output says the order is weakly identifiable."""
    fld = generate("rd_space", 2)
    u = add_noise(fld.u, "multiplicative", 0.05, 2)
    m = WeakPareto(operator="riesz", alpha_range=(0.8, 1.15), beta_range=(0.0, 2.1),
                   power_mode="raw", seed=2, uncertainty="bootstrap",
                   n_boot=50).fit(u, fld.t, fld.x)  # fmt: skip
    assert any(w.code == "identifiability" for w in m.warnings_)


@pytest.mark.parametrize(
    "alpha, interval, branch_edge",
    [
        (0.993, (0.981, 0.999), True),  # sub branch piled at 1 - eps
        (1.02, (1.001, 1.05), True),  # super-unit branch piled at 1 + eps
        (0.62, (0.600, 0.64), False),  # lower bound of alpha_range
        (1.85, (1.80, 1.899), False),  # upper bound of alpha_range
    ],
)
def test_alpha_edge_warning_names_the_branch_edge_next_to_one(alpha, interval, branch_edge):
    w = alpha_edge_warning(alpha, interval, 0.35)
    assert w.code == "identifiability" and "35 %" in w.message
    assert ("edge next to 1" in w.message) is branch_edge
    assert ("widen alpha_range if" in w.message) is not branch_edge


@pytest.mark.parametrize(
    "kwargs, needle",
    [({"n_boot": 50}, "n_boot=50 configures"), ({"n_boot": 50, "level": 0.8}, "and level=0.8")],
)
def test_bootstrap_settings_without_the_bootstrap_are_refused(kwargs, needle):
    """Python: a non-default n_boot/level with uncertainty off would be silently ignored."""
    with pytest.raises(UserInputError, match=needle):
        WeakPareto(operator="directional", **RANGES, **kwargs).fit_spec()
    WeakPareto(operator="directional", **RANGES, uncertainty="bootstrap", **kwargs).fit_spec()


def test_wp_discover_refuses_level_without_uncertainty(tmp_path, capsys):
    t = np.linspace(0.0, 1.0, 30)
    x = np.linspace(0.0, 2 * np.pi, 32, endpoint=False)
    np.savez(tmp_path / "f.npz", u=np.sin(x)[None] * np.exp(-t)[:, None], t=t, x=x)
    args = ["discover", f"data={tmp_path / 'f.npz'}", "level=0.8", f"out={tmp_path / 'r.json'}"]
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2
    assert "level=0.8 configures the bootstrap" in capsys.readouterr().err
    assert not (tmp_path / "r.json").exists()
