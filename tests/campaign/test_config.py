"""Config composition: benchmark-specific tuning, overrides and the config hash."""

from weakpareto.campaign.compose import compose_config
from weakpareto.campaign.config import config_hash, discovery_config


def test_superunit_tuning_flows_into_search_settings():
    cfg = compose_config(["benchmark=superunit"])
    d = discovery_config(cfg, 0)
    assert (d.search.popsize, d.search.maxiter, d.search.ridge) == (6, 16, 1e-4)
    assert d.c_max == 1 and d.powers == (0,) and not d.selection.auto_stop
    assert list(cfg.search.test_counts) == [24, 32]


def test_paper_defaults_and_cli_override_wins():
    d = discovery_config(compose_config(["benchmark=fade"]), 3)
    assert (d.search.popsize, d.search.maxiter, d.search.ridge, d.c_max) == (7, 24, 1e-3, 4)
    assert d.selection.margin == 0.15 and d.seed == 3
    d2 = discovery_config(compose_config(["benchmark=superunit", "search.maxiter=30"]), 0)
    assert d2.search.maxiter == 30


def test_hash_ignores_labels_and_seeds_but_not_settings():
    base = compose_config(["benchmark=fade", "noise=0.1"])
    same = compose_config(
        [
            "benchmark=fade",
            "noise=0.1",
            "seed=4",
            "seeds=2",
            "workers=2",
            "variant=x",
            "results_dir=/tmp/elsewhere",
        ]
    )
    other = compose_config(["benchmark=fade", "noise=0.1", "selection.margin=0.2"])
    assert config_hash(base) == config_hash(same)
    assert config_hash(base) != config_hash(other)
