"""Tests for weakpareto.benchmarks.noise (docs/method/benchmarks.md#noise-laws)."""

from __future__ import annotations

from importlib import resources

import numpy as np
import pytest
from omegaconf import OmegaConf

from weakpareto.benchmarks.noise import NOISE_LAWS, add_noise, list_noise_laws


@pytest.fixture
def field() -> np.ndarray:
    t = np.linspace(0.0, 1.0, 30)[:, None]
    x = np.linspace(0.0, 2.0 * np.pi, 40, endpoint=False)[None, :]
    return 2.0 + np.sin(x - t) * np.exp(-t)


def test_multiplicative_reproduces_default_rng_draw(field: np.ndarray) -> None:
    zeta = np.random.default_rng(3).uniform(-1.0, 1.0, size=field.shape)
    expected = field * (1.0 + 0.1 * zeta)
    got = add_noise(field, "multiplicative", 0.1, 3)
    np.testing.assert_array_equal(got, expected)


def test_additive_gaussian_reproduces_default_rng_draw(field: np.ndarray) -> None:
    z = np.random.default_rng(4).standard_normal(field.shape)
    expected = field + 0.1 * np.std(field) * z  # population std of the whole clean field
    got = add_noise(field, "additive_gaussian", 0.1, 4)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("law", ["multiplicative", "additive_gaussian"])
def test_shared_realisation_and_seed_dependence(field: np.ndarray, law: str) -> None:
    a = add_noise(field, law, 0.05, 7)
    b = add_noise(field.copy(), law, 0.05, 7)
    np.testing.assert_array_equal(a, b)  # weak and strong banks see the identical field
    c = add_noise(field, law, 0.05, 8)
    assert np.max(np.abs(a - c)) > 1e-3


@pytest.mark.parametrize("law", ["multiplicative", "additive_gaussian"])
def test_zero_level_is_exact_copy(field: np.ndarray, law: str) -> None:
    out = add_noise(field, law, 0.0, 0)
    np.testing.assert_array_equal(out, field)
    assert out is not field and not np.shares_memory(out, field)
    out[0, 0] = -99.0
    assert field[0, 0] != -99.0


@pytest.mark.parametrize("law", ["multiplicative", "additive_gaussian"])
def test_input_not_modified(field: np.ndarray, law: str) -> None:
    before = field.copy()
    add_noise(field, law, 0.2, 1)
    np.testing.assert_array_equal(field, before)


def test_multiplicative_statistics() -> None:
    u = np.full((300, 400), 3.0)
    rho = 0.2
    zeta = (add_noise(u, "multiplicative", rho, 11) / u - 1.0) / rho
    n = zeta.size
    assert zeta.min() >= -1.0 and zeta.max() <= 1.0
    assert zeta.min() < -0.999 and zeta.max() > 0.999
    assert abs(zeta.mean()) < 4.0 * np.sqrt(1.0 / 3.0 / n)
    assert abs(zeta.var() - 1.0 / 3.0) < 0.01  # Var U[-1,1] = 1/3


def test_additive_statistics() -> None:
    rng = np.random.default_rng(0)
    u = 5.0 + 2.0 * rng.standard_normal((300, 400))
    rho = 0.1
    z = (add_noise(u, "additive_gaussian", rho, 12) - u) / (rho * np.std(u))
    assert abs(z.mean()) < 4.0 / np.sqrt(z.size)
    assert abs(z.std() - 1.0) < 0.01
    # the noise amplitude scales with the field's std, not its mean
    z2 = (add_noise(u + 100.0, "additive_gaussian", rho, 12) - (u + 100.0)) / (rho * np.std(u))
    np.testing.assert_allclose(z2, z, atol=1e-9)


def test_level_is_a_fraction(field: np.ndarray) -> None:
    # 10 % multiplicative noise: |u~ - u| <= 0.1 |u|
    out = add_noise(field, "multiplicative", 0.1, 5)
    assert np.all(np.abs(out - field) <= 0.1 * np.abs(field) + 1e-15)
    assert np.max(np.abs(out - field) / np.abs(field)) > 0.099


def test_unknown_law_lists_valid_names(field: np.ndarray) -> None:
    with pytest.raises(ValueError, match="additive_gaussian, multiplicative"):
        add_noise(field, "uniform", 0.1, 0)


@pytest.mark.parametrize("level", [-0.1, float("nan"), float("inf"), "0.1", None, True])
def test_bad_level(field: np.ndarray, level: object) -> None:
    with pytest.raises(ValueError, match="level"):
        add_noise(field, "multiplicative", level, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [1.5, 2.0, "3", None, -1, True])
def test_bad_seed(field: np.ndarray, seed: object) -> None:
    with pytest.raises(ValueError, match="seed"):
        add_noise(field, "multiplicative", 0.1, seed)  # type: ignore[arg-type]


def test_numpy_integer_seed_accepted(field: np.ndarray) -> None:
    np.testing.assert_array_equal(
        add_noise(field, "multiplicative", 0.1, np.int64(2)),
        add_noise(field, "multiplicative", 0.1, 2),
    )


def test_registry_matches_configs() -> None:
    assert list_noise_laws() == sorted(NOISE_LAWS) == ["additive_gaussian", "multiplicative"]
    root = resources.files("weakpareto.conf") / "noise_law"
    names = set()
    for p in root.iterdir():
        if p.name.endswith(".yaml"):
            cfg = OmegaConf.create(p.read_text())
            assert cfg.name == p.name[: -len(".yaml")]
            assert isinstance(cfg.description, str) and cfg.description
            names.add(cfg.name)
    assert names == set(NOISE_LAWS)
