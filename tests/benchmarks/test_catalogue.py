"""Tests for weakpareto.benchmarks.catalogue: benchmark configs (docs/method/benchmarks.md,
docs/method/experiments.md#per-benchmark-search-configuration, docs/method/metrics.md#truth-terms;
paper tab:benchmarks, tab:searchranges) and the frozen Field record."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from omegaconf import DictConfig, OmegaConf

from weakpareto.benchmarks.catalogue import Field, list_benchmarks, load_benchmark
from weakpareto.benchmarks.generators import GENERATORS

ALL = [
    "ade",
    "burgers",
    "burgers_window",
    "fade",
    "fade_ml",
    "kdv",
    "ks",
    "rd_space",
    "rd_timespace",
    "rd_timespace_ml",
    "riesz2",
    "superunit",
    "superunit_pc",
    "tf_advection",
    "tf_reaction",
    "tf_riesz",
    "twod_a",
    "twod_b",
]


def cfg_dict(name: str) -> dict:
    out = OmegaConf.to_container(load_benchmark(name))
    assert isinstance(out, dict)
    return out


# ---------------------------------------------------------------------------------------
# configs
# ---------------------------------------------------------------------------------------

TOP_KEYS = {
    "name",
    "label",
    "description",
    "generator",
    "grid",
    "truth",
    "library",
    "strong",
    "tuning",
}
#: A window of a solver's field (cut after the solver) and the domain a run fits it on.
OPTIONAL_KEYS = {"window", "domain"}
LIB_KEYS = {
    "alpha_range",
    "beta_range",
    "powers",
    "power_mode",
    "c_max",
    "operator",
    "spatial_tests",
    "test_counts",
}


def test_list_and_load() -> None:
    assert list_benchmarks() == ALL
    cfg = load_benchmark("fade")
    assert isinstance(cfg, DictConfig) and cfg.name == "fade"
    with pytest.raises(ValueError, match="valid names: ade, burgers"):
        load_benchmark("nope")
    with pytest.raises(ValueError, match="valid names"):
        load_benchmark("../config")


@pytest.mark.parametrize("name", ALL)
def test_config_schema(name: str) -> None:
    cfg = cfg_dict(name)
    assert set(cfg) - OPTIONAL_KEYS == TOP_KEYS
    assert cfg["name"] == name
    assert set(cfg["library"]) == LIB_KEYS
    assert set(cfg["strong"]) == {"trim_t", "trim_x"}
    assert cfg["generator"]["kind"] in GENERATORS
    assert set(cfg["truth"]) == {"mode", "alpha", "operator", "terms"}
    for term in cfg["truth"]["terms"]:
        assert set(term) - {"direction"} == {"power", "order", "coef"}


# truth terms in stored order (docs/method/metrics.md#truth-terms) and modes (paper tab:benchmarks,
# App. challenging)
TRUTH = {
    "fade": ("sub", 0.8, "directional", [(0, 1.0, -1.0), (0, 1.7, 0.5)]),
    "fade_ml": ("sub", 0.8, "directional", [(0, 1.0, -1.0), (0, 1.7, 0.5)]),
    "rd_space": ("int", 1.0, "riesz", [(0, 0.0, 0.04), (0, 1.65, 0.18)]),
    "rd_timespace": ("sub", 0.82, "riesz", [(0, 0.0, 0.03), (0, 1.55, 0.12)]),
    "burgers": ("int", 1.0, "directional", [(1, 1.0, -1.0), (0, 1.7, 0.25)]),
    "burgers_window": ("int", 1.0, "directional", [(1, 1.0, -1.0), (0, 2.0, 0.3)]),  # ours
    "ade": ("int", 1.0, "directional", [(0, 1.0, -1.0), (0, 2.0, 0.25)]),
    "riesz2": ("int", 1.0, "riesz", [(0, 0.55, 0.05), (0, 2.8, 0.005)]),
    "superunit": ("sup", 1.65, "directional", [(0, 2.0, 0.12)]),
    "twod_a": ("sub", 0.85, "directional", [(0, 1.7, 0.3, "x"), (0, 1.4, 0.2, "y")]),
    "ks": ("int", 1.0, "directional", [(1, 1.0, -1.0), (0, 2.0, -1.0), (0, 4.0, -1.0)]),
    "kdv": ("int", 1.0, "directional", [(1, 1.0, -6.0), (0, 3.0, -1.0)]),
    # ours, beyond the paper: clean time-fractional equations, exact per Fourier mode
    "tf_riesz": ("sub", 0.75, "riesz", [(0, 1.6, 0.3)]),
    "tf_advection": ("sub", 0.9, "directional", [(0, 1.0, -0.6), (0, 1.8, 0.25)]),
    "tf_reaction": ("sub", 0.65, "riesz", [(0, 0.0, -0.2), (0, 1.4, 0.35)]),
    "twod_b": (
        "sub",
        0.85,
        "directional",
        [(0, 1.0, -0.6, "x"), (0, 1.7, 0.3, "x"), (0, 1.4, 0.2, "y")],
    ),
}

# paper tab:searchranges / docs/method/experiments.md#per-benchmark-search-configuration:
# alpha range, beta range, c_max, powers, power mode,
# weak operator, strong trim
SEARCH = {
    "fade": ((0.60, 1.05), (0.50, 2.00), 4, [0, 1, 2], "positive", "directional", (5, 0)),
    "fade_ml": ((0.60, 1.05), (0.50, 2.00), 4, [0, 1, 2], "positive", "directional", (5, 0)),
    "rd_space": ((0.80, 1.15), (0.00, 2.10), 4, [0, 1, 2], "raw", "riesz", (3, 0)),
    "rd_timespace": ((0.65, 1.00), (0.00, 1.90), 4, [0, 1, 2], "raw", "riesz", (5, 0)),
    "burgers": ((0.85, 1.15), (0.50, 2.00), 4, [0, 1, 2], "raw", "directional", (5, 0)),
    "burgers_window": ((0.85, 1.15), (0.50, 2.50), 4, [0, 1, 2], "raw", "directional", (5, 0)),
    "ade": ((0.80, 1.20), (0.70, 2.00), 4, [0, 1, 2], "positive", "gl_left", (3, 6)),
    "riesz2": ((0.80, 1.15), (0.30, 3.10), 4, [0, 1, 2], "raw", "riesz", (3, 0)),
    "superunit": ((0.65, 1.85), (0.50, 2.50), 1, [0], "raw", "directional", (2, 0)),
    "twod_a": ((0.55, 1.25), (0.50, 2.50), 4, [0], "raw", "directional", (0, 0)),
    "twod_b": ((0.55, 1.25), (0.50, 2.50), 4, [0], "raw", "directional", (0, 0)),
    "ks": ((0.90, 1.10), (0.50, 4.50), 4, [0, 1], "raw", "directional", (5, 0)),  # ours
    "kdv": ((0.90, 1.10), (0.50, 4.50), 4, [0, 1], "raw", "directional", (5, 0)),  # ours
    "tf_riesz": ((0.50, 1.10), (0.00, 2.20), 4, [0, 1, 2], "raw", "riesz", (3, 0)),  # ours
    "tf_advection": ((0.60, 1.10), (0.50, 2.20), 4, [0, 1, 2], "raw", "directional", (3, 0)),
    "tf_reaction": ((0.45, 1.10), (0.00, 2.20), 4, [0, 1, 2], "raw", "riesz", (3, 0)),
}

#: Independent twins (ours): a paper field regenerated by another solver, everything else the same.
TWINS = {"rd_timespace_ml": "rd_timespace", "superunit_pc": "superunit"}
for _twin, _paper in TWINS.items():
    TRUTH[_twin], SEARCH[_twin] = TRUTH[_paper], SEARCH[_paper]


@pytest.mark.parametrize(("twin", "paper"), TWINS.items())
def test_independent_twins_differ_only_in_the_generator(twin: str, paper: str) -> None:
    a, b = cfg_dict(twin), cfg_dict(paper)
    for key in ("name", "label", "description", "generator"):
        a.pop(key), b.pop(key)
    assert a == b


@pytest.mark.parametrize("name", ALL)
def test_truth_and_search_ranges(name: str) -> None:
    cfg = cfg_dict(name)
    mode, alpha, op, terms = TRUTH[name]
    tr = cfg["truth"]
    assert (tr["mode"], tr["alpha"], tr["operator"]) == (mode, alpha, op)
    got = [
        (t["power"], t["order"], t["coef"]) + ((t["direction"],) if "direction" in t else ())
        for t in tr["terms"]
    ]
    assert got == terms
    ar, br, cmax, powers, pmode, wop, trim = SEARCH[name]
    lib = cfg["library"]
    assert tuple(lib["alpha_range"]) == ar and tuple(lib["beta_range"]) == br
    assert (lib["c_max"], lib["powers"], lib["power_mode"], lib["operator"]) == (
        cmax,
        powers,
        pmode,
        wop,
    )
    assert (cfg["strong"]["trim_t"], cfg["strong"]["trim_x"]) == trim
    assert lib["spatial_tests"] == ("fourier" if name == "riesz2" else "gaussian")
    assert lib["test_counts"] == ([24, 32] if name.startswith("superunit") else None)


def test_tuning_blocks() -> None:
    assert cfg_dict("superunit")["tuning"] == {
        "popsize": 6,
        "maxiter": 16,
        "ridge": 1e-4,
        "auto_stop": False,
    }
    assert cfg_dict("riesz2")["tuning"] == {"plateau_tol": 0.02, "plateau_log_tol": 0.015}
    assert cfg_dict("fade")["tuning"] == {}


def test_field_is_frozen(fields: dict[str, Field]) -> None:
    f = fields["fade"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.u = np.zeros(3)  # type: ignore[misc]
    with pytest.raises(ValueError):
        f.u[0, 0] = 1.0
    with pytest.raises(ValueError, match="shape"):
        Field(np.zeros((3, 4)), np.arange(3.0), np.arange(5.0))


def test_a_windowed_benchmark_is_the_window_of_its_solver_field() -> None:
    """burgers_window: the package's integer-Burgers field cut to x in [6, 24] after the solver
    (the same field as :func:`weakpareto.benchmarks.bounded_fields.burgers_window`), fitted on a
    bounded domain."""
    from weakpareto.benchmarks.bounded_fields import burgers_window
    from weakpareto.benchmarks.generators import generate

    field = generate("burgers_window", 0)
    ref, _ = burgers_window()
    np.testing.assert_array_equal(field.u, ref.u)
    assert (field.x[0], field.x[-1], field.u.shape) == (6.0, 24.0, (150, 145))
    assert cfg_dict("burgers_window")["domain"] == "bounded"
