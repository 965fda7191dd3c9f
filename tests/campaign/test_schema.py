"""Override schema: keys, strict types, enumerations, ranges, hints, and the seed bound."""

from __future__ import annotations

import pytest
from omegaconf import OmegaConf

import weakpareto.method.discovery as discovery_module
from weakpareto.campaign import runner, schema
from weakpareto.campaign.compose import compose_checked, compose_config
from weakpareto.campaign.config import available_options
from weakpareto.errors import UserInputError


def _leaves(data, prefix=""):
    for k, v in data.items():
        if isinstance(v, dict):
            yield from _leaves(v, f"{prefix}{k}.")
        else:
            yield f"{prefix}{k}", v


@pytest.mark.parametrize(
    "group", ["benchmark", "method", "selection", "noise_law", "search", "experiment"]
)
def test_every_shipped_value_satisfies_its_rule(group):
    """The rules agree with conf/: every default passes, so a default is always a valid hint."""
    for option in available_options(group):
        prefix = "+" if group == "experiment" else ""
        cfg = compose_config([f"{prefix}{group}={option}"])
        data = OmegaConf.to_container(cfg, resolve=True)
        for key, value in _leaves(data):
            schema.check_value(key, value, value)


@pytest.mark.parametrize(
    "overrides, needle, hint",
    [
        (["selection.margin=abc"], "finite number >= 0", "selection.margin=0.15"),
        (["selection.margin=nan"], "finite number", "selection.margin=0.15"),
        (["selection.margin=-1"], ">= 0", "selection.margin=0.15"),
        (["search.maxiter=2.5"], "an integer >= 1", "search.maxiter=24"),
        (["search.maxiter=true"], "an integer", "search.maxiter=24"),
        (["benchmark=superunit", "search.maxiter=0"], ">= 1", "search.maxiter=16"),  # tuning
        (["overwrite=maybe"], "true or false", "overwrite=false"),
        (["progress=1"], "true or false", "progress=true"),
        (["seeds=1.5"], "integer >= 1", "seeds=5"),
        (["workers=abc"], "integer >= 1", "workers=1"),
        (["search.updating=fast"], "immediate, deferred", "search.updating=deferred"),
        (["selection.rule=best"], "elbow", "selection.rule=elbow"),
        (["search.test_counts=[10]"], "[K_t,K_x]", "search.test_counts=null"),
        (["benchmark.library.powers=[0,1.5]"], "integers", "benchmark.library.powers=[0,1,2]"),
        (["benchmark.library.powers=abc"], "a list", "benchmark.library.powers=[0,1,2]"),
        (["results_dir=[a,b]"], "a single value", "results_dir=results/runs"),
        (["search.val_fraction=1"], "< 1", "search.val_fraction=0.25"),
        (["benchmark.grid.nt=1.5"], "integer", "benchmark.grid.nt=150"),
    ],
)
def test_bad_values_are_rejected_with_an_accepted_hint(overrides, needle, hint):
    with pytest.raises(UserInputError) as exc:
        compose_checked(overrides)
    msg = str(exc.value)
    assert needle in msg and msg.endswith(f"e.g. {hint}") and "\n" not in msg
    key = hint.split("=", 1)[0]
    fixed = [o for o in overrides if not o.startswith(f"{key}=")] + [hint]
    compose_checked(fixed)  # the hint is itself accepted


@pytest.mark.parametrize(
    "overrides, needle",
    [
        (["+foo=1"], "unknown key foo"),
        (["++search.foo=1"], "valid search keys: anchors"),
        (["+selection.no_such_key=1"], "unknown key selection.no_such_key"),
        (["~search.ridge"], "search.ridge was removed"),
    ],
)
def test_unknown_and_removed_keys_are_rejected(overrides, needle):
    with pytest.raises(UserInputError, match=needle.replace("+", r"\+")):
        compose_checked(overrides)


def test_values_of_the_right_type_pass():
    cfg = compose_checked(
        [
            "noise=0",  # an int where the default is a float
            "selection.margin=0.2",
            "search.test_counts=[22,30]",
            "results_dir=123",  # a name made of digits is still a directory name
            "overwrite=true",
            "benchmark.library.alpha_range=[0.6,1.0]",
            "variant=x",
            "+experiment=main",
        ]
    )
    assert cfg.selection.margin == 0.2 and cfg.experiment == "main"


def test_seed_offset_is_the_largest_search_seed(monkeypatch):
    """schema.max_seed_offset replicates Discovery.best_of_size's seed rule: check it on a run
    that visits every support size, pattern and branch."""
    seen: list[int] = []
    real = discovery_module.optimise_size

    def record(objectives, beta_range, seeds, settings):
        seen.extend(seeds)
        return real(objectives, beta_range, seeds, settings)

    monkeypatch.setattr(discovery_module, "optimise_size", record)
    cfg = compose_config(
        [
            "benchmark=fade",
            "seed=11",
            "selection.auto_stop=false",  # every size 1..c_max
            "search.maxiter=1",
            "search.popsize=1",
            "search.test_budget=smoke",
            "search.anchors=false",
        ]
    )
    runner.discover_seed(cfg, 11)
    assert max(seen) - 11 == schema.max_seed_offset(cfg) == 35239  # 3 branches, c_max 4


def test_seed_range_rule():
    cfg = compose_config(["benchmark=fade"])
    limit = schema.last_allowed_seed(cfg)
    assert limit == 2**32 - 1 - 35239
    ok = compose_config(["benchmark=fade", f"seed={limit}", "seeds=1"])
    schema.check_seed_range(ok)
    with pytest.raises(UserInputError, match=r"e\.g\. seeds=1$"):
        schema.check_seed_range(compose_config(["benchmark=fade", f"seed={limit}", "seeds=2"]))
    with pytest.raises(UserInputError, match=r"below 2\*\*32.*e\.g\. seed=0$"):
        schema.check_seed_range(compose_config(["seed=4294967295", "seeds=2"]))
    twod = compose_config(["benchmark=twod_a"])  # directions x, y as the search's "powers"
    assert schema.max_seed_offset(twod) == 7919 * 4 + 103 * 5 + 1009 * 2
