"""wp run accepts wp discover's names of the search settings (one table for both doors)."""

from __future__ import annotations

import pytest

from weakpareto.campaign.compose import compose_config
from weakpareto.campaign.config import config_hash
from weakpareto.campaign.door_names import with_run_keys
from weakpareto.cli import main
from weakpareto.fit.names import PARAMETERS, run_key

#: A valid value of every setting, written as on the command line.
VALUES = {
    "operator": "riesz",
    "alpha_range": "[0.5,1.1]",
    "beta_range": "[0.4,2.2]",
    "powers": "[0,1]",
    "power_mode": "raw",
    "test_functions": "fourier",
    "test_counts": "[40,50]",
    "max_terms": "3",
    "popsize": "5",
    "maxiter": "10",
    "updating": "immediate",
    "ridge": "0.01",
    "margin": "0.2",
    "polish": "false",
}


def test_every_setting_has_a_value_here():
    assert set(VALUES) == set(PARAMETERS)


@pytest.mark.parametrize("name", sorted(PARAMETERS))
def test_a_discover_name_sets_the_same_config_as_the_run_key(name):
    key = run_key(name)
    assert key is not None
    by_name = compose_config(["benchmark=fade", *with_run_keys([f"{name}={VALUES[name]}"])])
    by_key = compose_config(["benchmark=fade", f"{key}={VALUES[name]}"])
    plain = compose_config(["benchmark=fade"])
    assert config_hash(by_name) == config_hash(by_key) != config_hash(plain)


def test_other_overrides_pass_unchanged():
    given = ["benchmark=fade", "noise=0.1", "+experiment=main", "search.c_max=3", "max_terms"]
    assert with_run_keys(given) == given
    assert with_run_keys(["max_terms=2,3"]) == ["search.c_max=2,3"]


def test_both_spellings_of_one_setting_are_refused(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["run", "benchmark=fade", "max_terms=3", "search.c_max=4"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "wp: error: max_terms=3 and search.c_max=4 set the same setting search.c_max; keep one"
    )
