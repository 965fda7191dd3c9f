"""Hydra composition of the ``wp`` config for given overrides, with one-line errors.

Hydra has no subcommands, so ``wp`` pops the subcommand and composes the primary config
(``weakpareto.conf/config.yaml``) itself: for ``wp generate`` and ``wp bench`` that composed
config is used directly, for ``wp run`` every point of a ``-m`` sweep is composed and validated
before Hydra takes over. Any composition failure (unknown group option, unknown key, bad
interpolation, unparsable override) becomes a :class:`UserInputError` naming the fix, and
:func:`compose_checked` also checks every key and value against the shipped config
(:mod:`weakpareto.campaign.schema`). A ``-m +experiment=<table>`` sweep is expanded with the
table's own ``hydra.sweeper.params``, so every job Hydra will launch is checked up front.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from omegaconf import DictConfig, OmegaConf
from omegaconf import __version__ as omegaconf_version

from weakpareto.campaign import cache
from weakpareto.campaign.config import (
    CONFIG_MODULE,
    available_options,
    config_dir,
    validate_run,
)
from weakpareto.campaign.paths import writable_dir
from weakpareto.campaign.schema import check_config, check_seed_range, unknown_key
from weakpareto.errors import UserInputError

if TYPE_CHECKING:
    from hydra.core.override_parser.types import Override

#: Config groups of the primary config (``conf/<group>/*.yaml``).
GROUPS = ("benchmark", "noise_law", "method", "search", "selection", "experiment")
#: Largest ``-m`` sweep ``wp run`` accepts in one call.
MAX_SWEEP_JOBS = 2000


def _friendly_compose_error(err: Exception) -> str:
    text = str(err).strip()
    msg = text.splitlines()[0] if text else type(err).__name__
    if "override 'experiment'" in msg:  # `experiment=x`: the group needs the + prefix
        return (
            "experiment= selects a paper table's settings and sweep: add it with "
            f"+experiment=<table>, e.g. +experiment=main (tables: "
            f"{', '.join(available_options('experiment'))})"
        )
    for group in GROUPS:
        if f"'{group}/" in msg or f"{group}=" in msg:
            try:
                opts = available_options(group)
            except OSError:
                opts = []
            return f"{msg} — valid {group} options: {', '.join(opts)}"
    return f"{msg} — check the spelling of the override (key=value)"


def parse_overrides(overrides: Sequence[str]) -> list[Override]:
    """Hydra's parse of ``overrides``; a bad one is named in a one-line UserInputError."""
    from hydra.core.override_parser.overrides_parser import OverridesParser  # Hydra: 0.1 s

    parser = OverridesParser.create()
    parsed = []
    for o in overrides:
        try:
            parsed.extend(parser.parse_overrides([o]))
        except Exception as err:  # hydra's OverrideParseException and friends
            text = str(err).strip().splitlines()
            raise UserInputError(
                f"cannot parse {o!r}: {text[0] if text else type(err).__name__}; write "
                "key=value (a list as key=[a,b], a sweep after -m as key=a,b)"
            ) from None
    return parsed


#: :func:`compose_config`'s file in the cache directory (:mod:`weakpareto.campaign.cache`).
CONFIG_CACHE = "composed_configs.json"


def _hydra_files() -> list[tuple[str, Path]]:
    """The file that states the installed Hydra's version (read, not imported)."""
    spec = find_spec("hydra")
    origin = spec.origin if spec is not None else None
    return [("hydra/__init__.py", Path(origin))] if origin else []


def _config_key(overrides: Sequence[str]) -> str | None:
    """sha256 over ``overrides``, OmegaConf's and Hydra's versions and every file of the
    installed ``conf/``; None where the composed config might not be a function of those alone
    (an interpolation in an override may read the environment or the clock)."""
    root = config_dir()
    if not isinstance(root, Path) or any("${" in o for o in overrides):
        return None
    files = sorted(p for p in root.rglob("*.yaml") if "__pycache__" not in p.parts)
    header = json.dumps(["compose", list(overrides), omegaconf_version])
    named = [(p.relative_to(root).as_posix(), p) for p in files]
    return cache.files_key(header, [*named, *_hydra_files()])


def compose_config(overrides: Sequence[str]) -> DictConfig:
    """Compose and resolve the primary config with ``overrides``; UserInputError on failure.

    A pure function of ``conf/``, the overrides and the versions that compose them (no resolver
    of ``conf/`` outside ``hydra:`` reads the clock or the environment), so it is cached
    (:mod:`weakpareto.campaign.cache`) under their sha256 (:func:`_config_key`): a command
    whose config was composed before starts without Hydra. Stored as JSON, which holds its plain
    values exactly, and read back in struct mode, as Hydra returns it."""
    key = _config_key(overrides)
    cached = cache.lookup(CONFIG_CACHE, key) if key else None
    if isinstance(cached, dict):
        cfg = OmegaConf.create(cached)
        OmegaConf.set_struct(cfg, True)
        return cfg
    cfg = _compose(overrides)
    data = OmegaConf.to_container(cfg, resolve=True)
    if key and json.loads(json.dumps(data)) == data:  # JSON holds it exactly (no int keys ...)
        cache.store(CONFIG_CACHE, key, data)
    return cfg


def _compose(overrides: Sequence[str]) -> DictConfig:
    from hydra import compose, initialize_config_module  # Hydra: 0.1 s, on a cache miss only
    from hydra.core.global_hydra import GlobalHydra

    parse_overrides(overrides)
    GlobalHydra.instance().clear()
    try:
        with initialize_config_module(config_module=CONFIG_MODULE, version_base="1.3"):
            cfg = compose(config_name="config", overrides=list(overrides))
            OmegaConf.resolve(cfg)  # interpolation errors surface here, as bad input
            return cfg
    except UserInputError:
        raise
    except Exception as err:  # hydra/omegaconf composition errors of many types
        message = _friendly_compose_error(err)
    finally:
        GlobalHydra.instance().clear()
    unknown = re.match(r"Could not override '([\w.]+)'\.", message)
    if unknown and unknown.group(1) not in GROUPS:  # `nosuchkey=1`: name the valid keys
        key = unknown.group(1)
        parent = key.rsplit(".", 1)[0] if "." in key else ""
        ref = reference_config(group_choices(overrides))
        node = OmegaConf.select(ref, parent, default=None) if parent else ref
        raise unknown_key(key, node.keys() if isinstance(node, DictConfig) else [])
    raise UserInputError(message)


def expand_sweep(overrides: Sequence[str]) -> list[list[str]]:
    """All override combinations of a ``-m`` sweep (Hydra's basic-sweeper grammar)."""
    parsed = parse_overrides(overrides)
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


def _override_key(override: str) -> str:
    return override.lstrip("+~").split("=", 1)[0].split("@", 1)[0]


def group_choices(overrides: Sequence[str]) -> tuple[str, ...]:
    """The config-group choices among ``overrides`` (``benchmark=fade``, ``+experiment=main``)."""
    return tuple(o for o in overrides if _override_key(o) in GROUPS)


@functools.lru_cache(maxsize=32)
def reference_config(choices: tuple[str, ...]) -> DictConfig:
    """The config of the group ``choices`` alone: every key and default a job may have (a
    composition like any other, so read from the cache once composed: ``wp run`` and
    ``wp status`` then compose only the job's config, or nothing)."""
    return compose_config(choices)


def compose_checked(overrides: Sequence[str]) -> DictConfig:
    """:func:`compose_config`, then every key and value checked against the shipped config."""
    cfg = compose_config(overrides)
    check_config(cfg, reference_config(group_choices(overrides)))
    return cfg


def experiment_sweep(overrides: Sequence[str]) -> list[str]:
    """The ``hydra.sweeper.params`` of ``+experiment=<table>`` as overrides (``key=a,b``)."""
    names = [o.split("=", 1)[1] for o in overrides if _override_key(o) == "experiment"]
    params: dict[str, Any] = {}
    for name in names:
        path = config_dir() / "experiment" / f"{name}.yaml"
        if path.is_file():
            node = OmegaConf.create(path.read_text(encoding="utf-8"))
            found = OmegaConf.select(node, "hydra.sweeper.params", default=None)
            if isinstance(found, DictConfig):
                params.update({str(k): v for k, v in found.items()})
    return [f"{k}={v}" for k, v in params.items()]


def sweep_jobs(overrides: Sequence[str], multirun: bool) -> list[list[str]]:
    """The override list of every job Hydra launches for ``wp run [-m] overrides``."""
    mine = user_overrides(overrides)
    if not multirun:
        return [mine]
    given = {_override_key(o) for o in mine}
    table = [p for p in experiment_sweep(mine) if _override_key(p) not in given]
    return expand_sweep([*table, *mine])


def validate_run_overrides(
    overrides: Sequence[str], multirun: bool, configs: list[DictConfig] | None = None
) -> int:
    """Compose and check every job of ``wp run`` (each point of a sweep), then probe that each
    results directory can be written; return the number of jobs. Nothing is computed.

    ``configs``, when given, receives every job's composed config: ``wp run`` without ``-m``
    runs the one it gets (composed once, not again by Hydra)."""
    combos = sweep_jobs(overrides, multirun)
    if len(combos) > MAX_SWEEP_JOBS:
        raise UserInputError(
            f"the sweep has {len(combos)} jobs (at most {MAX_SWEEP_JOBS}); split it into "
            "smaller sweeps"
        )
    results_dirs: dict[str, None] = {}
    for combo in combos:
        cfg = compose_checked(combo)
        validate_run(cfg)
        check_seed_range(cfg)
        results_dirs[str(cfg.results_dir)] = None
        if configs is not None:
            configs.append(cfg)
    for d in results_dirs:  # last: a bad value never leaves a new directory behind
        writable_dir(d, "results_dir")
    return len(combos)
