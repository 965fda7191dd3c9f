"""Hydra composition of the ``wp`` config for given overrides, with one-line errors.

Hydra has no subcommands, so ``wp`` pops the subcommand and composes the primary config
(``weakpareto.conf/config.yaml``) itself: for ``wp generate`` and ``wp bench`` that composed
config is used directly, for ``wp run`` every point of a ``-m`` sweep is composed and validated
before Hydra takes over. Any composition failure (unknown group option, unknown key, bad
interpolation, unparsable override) becomes a :class:`UserInputError` naming the fix.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import cast

from hydra import compose, initialize_config_module
from hydra.core.global_hydra import GlobalHydra
from hydra.core.override_parser.overrides_parser import OverridesParser
from omegaconf import DictConfig, OmegaConf

from weakpareto.campaign.config import CONFIG_MODULE, available_options, validate_run
from weakpareto.errors import UserInputError

#: Config groups of the primary config (``conf/<group>/*.yaml``).
GROUPS = ("benchmark", "noise_law", "method", "search", "selection", "experiment")
#: Largest ``-m`` sweep ``wp run`` accepts in one call.
MAX_SWEEP_JOBS = 2000


def _friendly_compose_error(err: Exception) -> str:
    text = str(err).strip()
    msg = text.splitlines()[0] if text else type(err).__name__
    for group in GROUPS:
        if f"'{group}/" in msg or f"{group}=" in msg:
            try:
                opts = available_options(group)
            except OSError:
                opts = []
            return f"{msg} — valid {group} options: {', '.join(opts)}"
    return f"{msg} — check the spelling of the override (key=value)"


def compose_config(overrides: Sequence[str]) -> DictConfig:
    """Compose and resolve the primary config with ``overrides``; UserInputError on failure."""
    GlobalHydra.instance().clear()
    try:
        with initialize_config_module(config_module=CONFIG_MODULE, version_base="1.3"):
            cfg = compose(config_name="config", overrides=list(overrides))
            OmegaConf.resolve(cfg)  # interpolation errors surface here, as bad input
            return cfg
    except UserInputError:
        raise
    except Exception as err:  # hydra/omegaconf composition errors of many types
        raise UserInputError(_friendly_compose_error(err)) from None
    finally:
        GlobalHydra.instance().clear()


def expand_sweep(overrides: Sequence[str]) -> list[list[str]]:
    """All override combinations of a ``-m`` sweep (Hydra's basic-sweeper grammar)."""
    try:
        parsed = OverridesParser.create().parse_overrides(list(overrides))
    except Exception as err:
        raise UserInputError(f"cannot parse overrides: {str(err).splitlines()[0]}") from None
    axes: list[list[str]] = []
    for ov in parsed:
        key = ov.get_key_element()
        if ov.is_sweep_override():
            axes.append([f"{key}={v}" for v in ov.sweep_string_iterator()])
        else:
            axes.append([cast(str, ov.input_line)])  # set by the parser for every override
    return [list(c) for c in itertools.product(*axes)] if axes else [[]]


def user_overrides(overrides: Sequence[str]) -> list[str]:
    """The overrides that define the computation (``hydra.*`` / ``hydra/...`` dropped)."""
    return [o for o in overrides if not o.lstrip("+~").startswith("hydra")]


def validate_run_overrides(overrides: Sequence[str], multirun: bool) -> int:
    """Compose and validate every job of ``wp run`` (each point of a sweep); return the count."""
    mine = user_overrides(overrides)
    combos = expand_sweep(mine) if multirun else [mine]
    if len(combos) > MAX_SWEEP_JOBS:
        raise UserInputError(f"the sweep has {len(combos)} jobs; split it into smaller sweeps")
    for combo in combos:
        validate_run(compose_config(combo))
    return len(combos)
