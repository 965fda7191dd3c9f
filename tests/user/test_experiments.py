"""Several experiments of one equation in one fit: ``WeakPareto.fit([u1, u2, u3], ...)`` and
``wp discover data=[a.npz,b.npz,c.npz]``.

Recovery data are exact per-mode Mittag-Leffler solutions (the ``mittag_leffler`` generator,
not the method's L1 discretisation) of D_t^0.7 u = 0.3 R^1.5 u on a 2 pi-periodic domain. Each
experiment is short (25-41 samples) and starts from a different initial condition that excites
one spatial mode k (plus a constant): on one mode R^beta u = -k^beta u, so an experiment alone
fixes only 0.3 k^1.5 and not the order and coefficient separately — fitted alone, each gives a
wrong order without any warning (measured below); the three experiments together (k = 1, 2, 3)
identify the equation.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd
import pytest

from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.cli import main
from weakpareto.errors import UserInputError
from weakpareto.user.estimator import WeakPareto
from weakpareto.user.long_tables import long_table_to_experiments

ALPHA, ORDER, COEF = 0.7, 1.5, 0.3
#: (spatial mode, samples, duration, nx) of each experiment
EXPERIMENTS = ((1, 31, 0.5, 64), (2, 41, 0.8, 48), (3, 25, 0.4, 64))
SETTINGS: dict[str, Any] = dict(operator="riesz", alpha_range=(0.2, 1.9), beta_range=(0.0, 3.2))
RIESZ = ["operator=riesz", "alpha_range=[0.2,1.9]", "beta_range=[0.0,3.2]"]


def _experiment(mode: int, nt: int, duration: float, nx: int) -> tuple[np.ndarray, ...]:
    cfg = {
        "name": f"mode{mode}",
        "generator": {
            "kind": "mittag_leffler",
            "ic": {
                "harmonics": [
                    {"fn": "cos", "m": 0, "amp": 1.0},
                    {"fn": "sin", "m": mode, "amp": 0.8 / mode**0.5, "phase": 0.3 * mode},
                ]
            },
        },
        "grid": {"nt": nt, "nx": nx, "T": duration, "L": 2 * np.pi, "t_endpoint": True},
        "truth": {
            "mode": "sub",
            "alpha": ALPHA,
            "operator": "riesz",
            "terms": [{"power": 0, "order": ORDER, "coef": COEF}],
        },
    }
    f = generate(cfg, 0)
    return f.u, f.t, f.x


@pytest.fixture(scope="module")
def experiments():
    """The three experiments with 1 % multiplicative noise: lists us, ts, xs."""
    fields = [_experiment(*e) for e in EXPERIMENTS]
    us = [add_noise(u, "multiplicative", 0.01, 11 + k) for k, (u, _, _) in enumerate(fields)]
    return us, [f[1] for f in fields], [f[2] for f in fields]


@pytest.fixture(scope="module")
def pooled(experiments):
    return WeakPareto(**SETTINGS).fit(*experiments)


def _errors(model: WeakPareto) -> tuple[float, float, float]:
    """|d alpha|, |d beta| and the relative coefficient error of a one-term model."""
    return (
        abs(model.alpha_ - ALPHA),
        float(np.max(np.abs(model.orders_ - ORDER))),
        float(np.max(np.abs(model.coef_ / COEF - 1.0))),
    )


# -- recovery ---------------------------------------------------------------------------------
def test_each_experiment_alone_gives_a_wrong_order_silently(experiments):
    for u, t, x in zip(*experiments, strict=True):
        alone = WeakPareto(**SETTINGS).fit(u, t, x)
        assert alone.selected_size_ == 1
        assert _errors(alone)[1] > 0.5, alone.equation_  # measured |d beta|: 1.45, 1.45, 0.74
        assert not [w for w in alone.warnings_ if w.level == "warning"]  # and no warning


def test_pooled_experiments_recover_the_equation(pooled):
    assert pooled.mode_ == "sub" and pooled.selected_size_ == 1
    d_alpha, d_beta, d_coef = _errors(pooled)
    assert d_alpha < 0.03 and d_beta < 0.03 and d_coef < 0.03, pooled.equation_
    assert pooled.n_experiments_ == 3 and pooled.experiment_rows_ == (640, 640, 640)
    records = pooled.grid_["experiments"]
    assert [r["experiment"] for r in records] == [1, 2, 3]
    assert [(r["nt"], r["nx"]) for r in records] == [(31, 64), (41, 48), (25, 64)]
    assert pooled.grid_["domain"] == "periodic" and pooled.grid_["n_experiments"] == 3


def test_shared_grids_and_json_round_trip(experiments):
    us, ts, xs = experiments
    # experiments 1 and 3 share x; a single x is used for both
    model = WeakPareto(**SETTINGS).fit([us[0], us[2]], [ts[0], ts[2]], xs[0])
    assert model.n_experiments_ == 2
    again = WeakPareto.from_json(model.to_json())
    assert again.n_experiments_ == 2 and again.experiment_rows_ == model.experiment_rows_
    assert again.equation_ == model.equation_
    assert json.loads(model.to_json())["grid"]["experiments"][1]["experiment"] == 2


# -- one experiment is computed as before -------------------------------------------------------
def test_one_experiment_is_bit_identical_to_a_plain_fit(fade_field):
    """A FADE-like field: ``fit([u], [t], [x])`` and ``fit(u, t, x)`` give the same bits, and
    those of the code before several experiments existed (reprs measured with it)."""
    u, t, x = fade_field
    u = (u * (1 + 0.05 * np.random.default_rng(0).uniform(-1, 1, u.shape)))[::2]
    t = t[::2]
    ranges = dict(
        alpha_range=(0.6, 1.05), beta_range=(0.5, 2.0), method="weak_pareto_robust", refit="weak"
    )
    plain = WeakPareto(**ranges).fit(u, t, x)
    listed = WeakPareto(**ranges).fit([u], [t], [x])
    for m in (plain, listed):
        assert repr(m.coef_.tolist()) == "[-0.9815105227539099, 0.4844931555025182]"
        assert repr(m.orders_.tolist()) == "[0.9931958395836253, 1.7573813677346217]"
        assert repr(m.alpha_) == "0.7986070485131163"
        assert repr(m.fit_error_) == "0.013712251287364237"
        assert m.n_experiments_ == 1 and "experiments" not in m.grid_
    assert listed.to_dict()["grid"] == plain.to_dict()["grid"]
    assert plain.experiment_rows_ == (25 * 60,)  # the paper's rule on 75 x 120: K_t 25, K_x 60


# -- checks -----------------------------------------------------------------------------------
def test_too_short_experiment_is_named_with_the_samples_needed(experiments):
    us, ts, xs = experiments
    with pytest.raises(UserInputError, match=r"^experiment 2: too few grid points.*nt >= 19"):
        WeakPareto(**SETTINGS).fit([us[0], us[1][:12]], [ts[0], ts[1][:12]], [xs[0], xs[1]])


def test_experiments_of_different_dimensions_are_refused(experiments):
    us, ts, xs = experiments
    y = np.arange(16) * (2 * np.pi / 16)
    u2 = us[0][:, :, None] * (1.0 + 0.1 * np.sin(y))[None, None, :]
    with pytest.raises(UserInputError, match="experiment 2 has 2 spatial dimension"):
        WeakPareto(**SETTINGS, powers=(0,)).fit([us[0], u2], ts[0], xs[0], [None, y])


def test_experiments_needing_different_domains_are_named(experiments):
    us, ts, xs = experiments
    window = us[1][:, 5:35]  # a window: its edges are not periodic
    with pytest.raises(UserInputError, match=r"periodic: experiment\(s\) 1; bounded: exp"):
        WeakPareto(**SETTINGS).fit([us[0], window], [ts[0], ts[1]], [xs[0], xs[1][5:35]])


def test_argument_counts_and_methods_are_checked(experiments):
    us, ts, xs = experiments
    with pytest.raises(UserInputError, match="t has 2 entries for 3 experiments"):
        WeakPareto(**SETTINGS).fit(us, ts[:2], xs)
    with pytest.raises(UserInputError, match="experiment 2: period=7 does not match"):
        WeakPareto(**SETTINGS).fit(us[:2], ts[:2], xs[:2], period=[2 * np.pi, 7.0])
    with pytest.raises(UserInputError, match="fits one experiment at a time"):
        WeakPareto(**SETTINGS, method="weak_grid_stridge").fit(*experiments)


def test_bootstrap_resamples_the_experiments(experiments):
    model = WeakPareto(**SETTINGS, uncertainty="bootstrap", n_boot=20).fit(*experiments)
    unc = model.uncertainty_
    assert unc is not None and unc.n_experiments == 3 and unc.experiments_resampled
    assert "the 3 experiments drawn with replacement" in unc.lines()[0]
    d = model.to_dict()["uncertainty"]
    assert d["n_experiments"] == 3 and d["experiments_resampled"] is True
    lo, hi = model.intervals_["coef"][0]
    assert lo <= model.coef_[0] <= hi


# -- tables and the command line ------------------------------------------------------------------
def _long(u: np.ndarray, t: np.ndarray, x: np.ndarray, label: int) -> pd.DataFrame:
    tt, xx = np.meshgrid(t, x, indexing="ij")
    return pd.DataFrame({"experiment": label, "t": tt.ravel(), "x": xx.ravel(), "u": u.ravel()})


def test_long_table_with_an_experiment_column(experiments):
    us, ts, xs = experiments
    table = pd.concat([_long(u, t, x, k + 1) for k, (u, t, x) in enumerate(zip(us, ts, xs))])
    got_u, got_t, got_x, got_y = long_table_to_experiments(table.sample(frac=1.0, random_state=0))
    assert got_y is None and len(got_u) == 3
    for a, b in zip(got_u, us, strict=True):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(got_x, xs, strict=True):
        np.testing.assert_array_equal(a, b)


def test_wp_discover_with_a_list_of_files(experiments, pooled, tmp_path, capsys):
    for k, (u, t, x) in enumerate(zip(*experiments, strict=True)):
        np.savez(tmp_path / f"e{k + 1}.npz", u=u, t=t, x=x)
    data = f"data=[{tmp_path / 'e1.npz'},{tmp_path / 'e2.npz'},{tmp_path / 'e3.npz'}]"
    main(["discover", data, *RIESZ, f"out={tmp_path / 'r.json'}"])
    printed = capsys.readouterr().out
    assert "experiment 3: data=" in printed and "(3 experiments, 1920 weak equations)" in printed
    r = json.loads((tmp_path / "r.json").read_text())
    assert r["equation"] == pooled.equation_.text(sig_digits=4)  # the Python API's equation
    assert r["data"] == [str(tmp_path / f"e{k}.npz") for k in (1, 2, 3)]
    assert [e["experiment"] for e in r["grid"]["experiments"]] == [1, 2, 3]
    # the same experiments as one table with an experiment column
    table = pd.concat([_long(*e, k + 1) for k, e in enumerate(zip(*experiments, strict=True))])
    table.to_csv(tmp_path / "all.csv", index=False)
    main(["discover", f"data={tmp_path / 'all.csv'}", *RIESZ, f"out={tmp_path / 'c.json'}"])
    assert json.loads((tmp_path / "c.json").read_text())["equation"] == r["equation"]


def test_wp_discover_errors_name_the_experiment(experiments, tmp_path, capsys):
    u, t, x = (e[0] for e in experiments)
    np.savez(tmp_path / "a.npz", u=u, t=t, x=x)
    np.savez(tmp_path / "short.npz", u=u[:10], t=t[:10], x=x)
    out = f"out={tmp_path / 'r.json'}"
    for data, expected in [
        (f"[{tmp_path / 'a.npz'},{tmp_path / 'short.npz'}]", "experiment 2 (data="),
        (f"[{tmp_path / 'a.npz'},{tmp_path / 'a.npz'}]", "names"),
        (f"[{tmp_path / 'a.npz'},{tmp_path / 'missing.npz'}]", "does not exist"),
    ]:
        with pytest.raises(SystemExit) as exc:
            main(["discover", f"data={data}", *RIESZ, out])
        assert exc.value.code == 2
        err = capsys.readouterr().err.strip()
        assert expected in err and "\n" not in err, err
    assert "short.npz): too few grid points" in _last_error(tmp_path, capsys)


def _last_error(tmp_path, capsys) -> str:
    with pytest.raises(SystemExit):
        main(
            [
                "discover",
                f"data=[{tmp_path / 'a.npz'},{tmp_path / 'short.npz'}]",
                *RIESZ,
                f"out={tmp_path / 'r.json'}",
            ]
        )
    return capsys.readouterr().err
