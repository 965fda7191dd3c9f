"""Every override checked against ``conf/`` before any work: keys, types, enumerations, ranges.

The schema is the shipped config itself. :func:`check_config` compares a composed config with the
*reference* config composed from the same group choices (``benchmark=``, ``method=``,
``+experiment=`` ...) but none of the value overrides:

* a key the reference lacks (``+foo=1``, ``++search.foo=1``) is rejected with the valid keys of
  its level, a key it has but the config lost (``~search.ridge``) is rejected too;
* a changed value must have the type of its default: ``int`` strictly (no ``1.5``, no ``true``),
  ``float`` an int or float and finite, ``bool`` strictly ``true``/``false``, a string a scalar,
  a list a list (element types as the default's); enumerations and ranges come from the one
  table of both doors, :mod:`weakpareto.fit.rules`;
* every message suggests a value that is itself accepted: the reference value when it satisfies
  the rule (the conf default, with the benchmark's tuning), else a value inside the range.

:func:`check_seed_range` bounds the seeds: the search derives its differential-evolution seeds
from the run seed (:meth:`weakpareto.method.discovery.Discovery.best_of_size`), and those must
stay below ``2**32``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from omegaconf import DictConfig, OmegaConf

from weakpareto.errors import UserInputError
from weakpareto.fit.rules import ENUMS, FLOAT, INT, RANGES, Number
from weakpareto.method.discovery import max_seed_offset as search_seed_offset
from weakpareto.method.search import power_patterns
from weakpareto.numerics.orders import temporal_branches

#: Largest seed numpy's legacy RandomState (scipy's differential evolution) accepts.
MAX_DE_SEED = 2**32 - 1

#: ``wp run uncertainty=`` methods (besides null, off).
UNCERTAINTY_METHODS = ("bootstrap",)

#: ``[K_t, K_x]`` (2-D: ``[K_t, K_x, K_y]``) test-function counts, or null for the paper's rule.
COUNT_KEYS = ("search.test_counts", "benchmark.library.test_counts")


#: Config groups whose ``name`` identifies the chosen option (rows, files and truth use it).
NAMED_GROUPS = ("benchmark", "method", "noise_law", "selection")


def literal(v: Any) -> str:
    """``v`` written as an override value (``true``, ``null``, ``[0.6,1.05]``, ``0.15``)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, list | tuple):
        return "[" + ",".join(literal(x) for x in v) + "]"
    return str(v)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _accepts(rule: Number, v: Any) -> bool:
    if v is None:
        return rule.nullable
    if not (_is_int(v) if rule.integer else _is_number(v)):
        return False
    return math.isfinite(float(v)) and rule.inside(float(v))


def _check_number(key: str, value: Any, default: Any, rule: Number) -> None:
    if _accepts(rule, value):
        return
    good = next(
        v for v in (rule.hint, default, rule.example()) if v is not None and _accepts(rule, v)
    )
    what = "an integer" if rule.integer else "a finite number"
    bounds = f" {rule.bounds()}" if rule.bounds() else ""
    null = " (or null)" if rule.nullable else ""
    raise UserInputError(
        f"{key}={literal(value)} must be {what}{bounds}{null}; e.g. {key}={literal(good)}"
    )


def _check_counts(key: str, value: Any) -> None:
    if value is None:
        return
    if (
        isinstance(value, list)
        and len(value) in (2, 3)
        and all(_is_int(k) and k >= 1 for k in value)
    ):
        return
    raise UserInputError(
        f"{key}={literal(value)} must be null (the paper's rule) or positive integers [K_t,K_x] "
        f"(2-D: [K_t,K_x,K_y]); e.g. {key}=null"
    )


def _check_list(key: str, value: Any, default: list) -> None:
    if not isinstance(value, list):
        raise UserInputError(
            f"{key}={literal(value)} must be a list like its default; e.g. {key}={literal(default)}"
        )
    if default and all(_is_int(d) for d in default):
        ok = all(_is_int(v) for v in value)
        what = "integers"
    elif default and all(_is_number(d) for d in default):
        ok = all(_is_number(v) and math.isfinite(float(v)) for v in value)
        what = "finite numbers"
    else:
        return
    if not ok:
        raise UserInputError(
            f"{key}={literal(value)} must hold {what}; e.g. {key}={literal(default)}"
        )


def check_value(key: str, value: Any, default: Any) -> None:
    """One (changed) value against its rule, or the type of its default ``default``."""
    group = key.removesuffix(".name")
    if group in NAMED_GROUPS and group != key and value != default:  # the choice, not a setting
        raise UserInputError(
            f"{key}={literal(value)} would relabel {group}={default} without changing it; "
            f"choose the {group} with {group}=<name>, e.g. {group}={default}"
        )
    if key in COUNT_KEYS:
        _check_counts(key, value)
    elif key == "uncertainty":  # null (off) or a method; the conf default is null
        if value not in (None, *UNCERTAINTY_METHODS):
            raise UserInputError(
                f"uncertainty={literal(value)} is not one of null, "
                f"{', '.join(UNCERTAINTY_METHODS)}; e.g. uncertainty=bootstrap"
            )
    elif key in ENUMS:
        options = ENUMS[key]
        if not (isinstance(value, str) and value in options):
            good = default if default in options else options[0]
            raise UserInputError(
                f"{key}={literal(value)} is not one of {', '.join(options)}; "
                f"e.g. {key}={literal(good)}"
            )
    elif key in RANGES:
        _check_number(key, value, default, RANGES[key])
    elif isinstance(default, bool):
        if not isinstance(value, bool):
            raise UserInputError(
                f"{key}={literal(value)} must be true or false; e.g. {key}={literal(default)}"
            )
    elif _is_int(default):
        _check_number(key, value, default, Number(INT))
    elif isinstance(default, float):
        _check_number(key, value, default, Number(FLOAT))
    elif isinstance(default, str):
        if value is None or isinstance(value, list | dict):
            raise UserInputError(
                f"{key}={literal(value)} must be a single value; e.g. {key}={default}"
            )
    elif isinstance(default, list):
        _check_list(key, value, default)
    elif isinstance(default, dict) and not isinstance(value, dict):
        raise UserInputError(f"{key}={literal(value)} replaces a group of settings; set its keys")


def unknown_key(name: str, valid: Iterable[Any]) -> UserInputError:
    """The error for the dotted key ``name`` that is not among ``valid`` (its level's keys)."""
    parent = name.rsplit(".", 1)[0] if "." in name else ""
    level = f"{parent} keys" if parent else "top-level keys"
    names = ", ".join(sorted(str(k) for k in valid))
    return UserInputError(f"unknown key {name} (nothing reads it); valid {level}: {names}")


def _walk(actual: Mapping, reference: Mapping, prefix: str) -> None:
    for key in actual:
        if key not in reference:
            raise unknown_key(f"{prefix}{key}", reference)
    for key in reference:
        if key not in actual:
            raise UserInputError(
                f"{prefix}{key} was removed (~{prefix}{key}); every key of the config is "
                "needed, drop that override"
            )
    for key, value in actual.items():
        default = reference[key]
        name = f"{prefix}{key}"
        if isinstance(value, dict) and isinstance(default, dict):
            _walk(value, default, f"{name}.")
        elif not (value == default and type(value) is type(default)):
            check_value(name, value, default)


def _plain(cfg: DictConfig) -> dict:
    data = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(data, dict)
    data.pop("hydra", None)
    return data


def check_config(cfg: DictConfig, reference: DictConfig) -> None:
    """Check every key and changed value of ``cfg`` against ``reference`` (module docstring)."""
    _walk(_plain(cfg), _plain(reference), "")


def max_seed_offset(cfg: DictConfig) -> int:
    """Largest ``DE seed - run seed`` of the search for a composed run config."""
    lib, s = cfg.benchmark.library, cfg.search
    powers = tuple(int(p) for p in lib.powers)
    if cfg.benchmark.grid.get("ny") is not None:
        powers = (0, 1)  # 2-D: the search runs over direction indices (method/discovery_2d.py)
    c_max = int(s.c_max)
    branches = temporal_branches(
        (float(lib.alpha_range[0]), float(lib.alpha_range[1])),
        int(s.n_alpha_nodes),
        float(s.eps_alpha),
    )
    patterns = max(len(power_patterns(powers, c)) for c in range(1, c_max + 1))
    return search_seed_offset(c_max, patterns, len(branches))  # method/discovery.search_seed


def last_allowed_seed(cfg: DictConfig) -> int:
    """The largest run seed whose search seeds stay below ``2**32``."""
    return MAX_DE_SEED - max_seed_offset(cfg)


def check_seed_range(cfg: DictConfig) -> None:
    """``seed + seeds - 1`` must not exceed :func:`last_allowed_seed` (after validate_run)."""
    seed, seeds = int(cfg.seed), int(cfg.seeds)
    offset = max_seed_offset(cfg)
    limit = MAX_DE_SEED - offset
    if seed + seeds - 1 <= limit:
        return
    hint = f"seeds={limit - seed + 1}" if seed <= limit else "seed=0"
    raise UserInputError(
        f"seed={seed} seeds={seeds} runs up to seed {seed + seeds - 1}, but the search derives "
        f"differential-evolution seeds up to seed + {offset}, which "
        f"must stay below 2**32: seed + seeds - 1 must be <= {limit}; e.g. {hint}"
    )
