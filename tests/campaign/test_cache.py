"""The on-disk cache of start-up work (the schema's reference config; the code hash is tested in
test_provenance.py): a stored value is the computed one, any input file edit is another key."""

from __future__ import annotations

import shutil

import pytest
from omegaconf import OmegaConf

from weakpareto.campaign import cache, compose
from weakpareto.campaign.compose import compose_checked, reference_config

CHOICES = [
    (),
    ("benchmark=fade",),
    ("benchmark=burgers", "method=weak_pareto_robust", "selection=gain"),
    ("benchmark=twod_a",),
    ("+experiment=main",),
    ("+experiment=ksens",),  # interpolated variant (K${search.test_counts.0}x...)
]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    reference_config.cache_clear()
    yield tmp_path / "cache"
    reference_config.cache_clear()


def _plain(cfg):
    return repr(OmegaConf.to_container(cfg, resolve=True))


@pytest.mark.parametrize("choices", CHOICES)
def test_a_cached_reference_is_the_composed_one(cache_dir, choices, monkeypatch):
    composed = reference_config(choices)  # composed and stored
    assert (cache_dir / compose.CONFIG_CACHE).is_file()
    reference_config.cache_clear()

    def no_compose(*a, **k):
        raise AssertionError("a cached reference is not composed again")

    monkeypatch.setattr(compose, "_compose", no_compose)
    assert _plain(reference_config(choices)) == _plain(composed)


def test_checked_configs_and_errors_are_the_same_from_the_cache(cache_dir):
    good = ["benchmark=fade", "noise=0.1", "search.maxiter=3"]
    cold = compose_checked(good)
    with pytest.raises(Exception) as cold_err:
        compose_checked(["benchmark=fade", "search.maxiter=1.5"])
    reference_config.cache_clear()
    assert _plain(compose_checked(good)) == _plain(cold)
    with pytest.raises(type(cold_err.value)) as warm_err:
        compose_checked(["benchmark=fade", "search.maxiter=1.5"])
    assert str(warm_err.value) == str(cold_err.value)


@pytest.mark.parametrize(
    "overrides",
    [
        ["benchmark=fade", "noise=0.1"],
        ["benchmark=burgers", "method=weak_pareto_robust", "search.maxiter=3"],
        ["+experiment=ksens", "benchmark=fade"],
        ["benchmark=twod_a", "seeds=3"],
    ],
)
def test_a_cached_config_is_the_composed_one_without_hydra(cache_dir, overrides, monkeypatch):
    """Composed once and stored; read back equal to the composition, in struct mode as Hydra
    returns it (an unknown key still raises), without composing again."""
    composed = compose.compose_config(overrides)
    assert (cache_dir / compose.CONFIG_CACHE).is_file()

    def no_compose(*a, **k):
        raise AssertionError("a cached config is not composed again")

    monkeypatch.setattr(compose, "_compose", no_compose)
    warm = compose.compose_config(overrides)
    assert warm == composed and _plain(warm) == _plain(composed)
    assert OmegaConf.is_struct(warm) and OmegaConf.is_struct(composed)
    with pytest.raises(Exception, match="nosuchkey"):
        warm.nosuchkey = 1


def test_an_interpolated_override_is_never_cached(cache_dir, monkeypatch):
    """``${...}`` in an override may read the environment or the clock: composed every time."""
    overrides = ["benchmark=fade", "results_dir=${oc.env:WP_TEST_DIR}"]
    monkeypatch.setenv("WP_TEST_DIR", "/tmp/a")
    assert compose._config_key(overrides) is None
    assert compose.compose_config(overrides).results_dir == "/tmp/a"
    monkeypatch.setenv("WP_TEST_DIR", "/tmp/b")
    assert compose.compose_config(overrides).results_dir == "/tmp/b"


def test_any_conf_edit_is_another_config_key(tmp_path, monkeypatch):
    conf = tmp_path / "conf"
    shutil.copytree(compose.config_dir(), conf, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(compose, "config_dir", lambda: conf)
    key = compose._config_key(["benchmark=fade", "noise=0.1"])
    assert key and key != compose._config_key(["benchmark=fade", "noise=0.2"])
    assert key != compose._config_key(["noise=0.1", "benchmark=fade"])  # Hydra's order matters
    yaml = conf / "search" / "paper.yaml"
    yaml.write_text(yaml.read_text() + "\n# a comment\n")
    assert compose._config_key(["benchmark=fade", "noise=0.1"]) != key


def test_cache_off_and_broken_cache_are_no_cache(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.CACHE_ENV, "off")
    assert cache.cache_dir() is None
    cache.store("x.json", "k", 1)
    assert cache.lookup("x.json", "k") is None
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    (tmp_path / "x.json").write_text("{broken")
    assert cache.lookup("x.json", "k") is None
    cache.store("x.json", "k", 1)
    assert cache.lookup("x.json", "k") == 1
    cache.store("x.json", "nan", float("nan"))  # not strict JSON: not stored, no error
    assert cache.lookup("x.json", "nan") is None and cache.lookup("x.json", "k") == 1
    for i in range(2 * cache.ENTRIES):
        cache.store("x.json", f"k{i}", i)
    assert cache.lookup("x.json", "k") is None and cache.lookup(
        "x.json", f"k{2 * cache.ENTRIES - 1}"
    )
