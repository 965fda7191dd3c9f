"""Every override checked against ``conf/`` before any work: keys, types, enumerations, ranges.

The schema is the shipped config itself. :func:`check_config` compares a composed config with the
*reference* config composed from the same group choices (``benchmark=``, ``method=``,
``+experiment=`` ...) but none of the value overrides:

* a key the reference lacks (``+foo=1``, ``++search.foo=1``) is rejected with the valid keys of
  its level, a key it has but the config lost (``~search.ridge``) is rejected too;
* a changed value must have the type of its default: ``int`` strictly (no ``1.5``, no ``true``),
  ``float`` an int or float and finite, ``bool`` strictly ``true``/``false``, a string a scalar,
  a list a list (element types as the default's); enumerations and ranges come from
  :data:`ENUMS` and :data:`RANGES` (enumerations are read from the method's ``Literal`` types);
* every message suggests a value that is itself accepted: the reference value when it satisfies
  the rule (the conf default, with the benchmark's tuning), else a value inside the range.

:func:`check_seed_range` bounds the seeds: the search derives its differential-evolution seeds
from the run seed (:meth:`weakpareto.method.discovery.Discovery.best_of_size`), and those must
stay below ``2**32``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, get_args

from omegaconf import DictConfig, OmegaConf

from weakpareto.errors import UserInputError
from weakpareto.fit.spec import DomainRequest, FeatureKind, MethodKindName
from weakpareto.library.noise_covariance import NoiseModel
from weakpareto.library.weak import PowerMode, SpatialTests
from weakpareto.library.weak_exact import InitialEstimate
from weakpareto.method.discovery import max_seed_offset as search_seed_offset
from weakpareto.method.search import power_patterns
from weakpareto.method.settings import (
    ElbowPoints,
    SelectionRule,
    StabilityRule,
    TwinRule,
    Updating,
)
from weakpareto.numerics.orders import temporal_branches
from weakpareto.numerics.windows import Budget
from weakpareto.records import OperatorKind

#: Largest seed numpy's legacy RandomState (scipy's differential evolution) accepts.
MAX_DE_SEED = 2**32 - 1
#: More parallel seeds than this is a typo (and as many processes).
MAX_WORKERS = max(8, 4 * (os.cpu_count() or 1))


@dataclass(frozen=True)
class Number:
    """A numeric rule: ``integer`` or real, bounds (open or closed), ``null`` allowed or not."""

    integer: bool
    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False
    hi_open: bool = False
    nullable: bool = False
    hint: float | None = None  # a more telling suggestion than the default (noise: 0.1)

    def inside(self, v: float) -> bool:
        if self.lo is not None and (v <= self.lo if self.lo_open else v < self.lo):
            return False
        return not (self.hi is not None and (v >= self.hi if self.hi_open else v > self.hi))

    def bounds(self) -> str:
        parts = []
        if self.lo is not None:
            parts.append(f"{'>' if self.lo_open else '>='} {self.lo:g}")
        if self.hi is not None:
            parts.append(f"{'<' if self.hi_open else '<='} {self.hi:g}")
        return " and ".join(parts)

    def example(self) -> float:
        """A value inside the bounds (for hints when the default does not apply)."""
        if self.lo is None:
            v = 0.0 if self.hi is None or self.inside(0.0) else self.hi - 1
        elif self.hi is not None and self.lo_open:
            v = (self.lo + self.hi) / 2
        else:
            v = self.lo + (1 if self.lo_open else 0)
        return int(v) if self.integer else float(v)


INT, FLOAT = True, False
#: Largest noise level a run or a generated field accepts (a fraction: 10 is 1000 %).
MAX_NOISE = 10.0
POSITIVE_INT = Number(INT, 1)
NON_NEGATIVE = Number(FLOAT, 0.0)
POSITIVE = Number(FLOAT, 0.0, lo_open=True)

#: Ranges of the constants a user is likely to touch (types of all others: their defaults').
RANGES: dict[str, Number] = {
    "seed": Number(INT, 0),
    "seeds": POSITIVE_INT,
    "workers": Number(INT, 1, MAX_WORKERS),
    # a fraction of the signal: above 10 (1000 %) the field is noise, and far above it the noisy
    # field overflows to inf
    "noise": Number(FLOAT, 0.0, MAX_NOISE, hint=0.1),
    "n_boot": Number(INT, 2, 100_000),
    "level": Number(FLOAT, 0.0, 1.0, lo_open=True, hi_open=True, hint=0.9),
    "search.n_alpha_nodes": Number(INT, 2),
    "search.n_beta_nodes": Number(INT, 2),
    "search.eps_alpha": Number(FLOAT, 0.0, 0.5, lo_open=True, hi_open=True),
    "search.ridge": NON_NEGATIVE,
    "search.val_fraction": Number(FLOAT, 0.0, 1.0, lo_open=True, hi_open=True),
    "search.popsize": POSITIVE_INT,
    "search.maxiter": POSITIVE_INT,
    "search.tol": NON_NEGATIVE,
    "search.max_anchors": POSITIVE_INT,
    "search.dup_weight": NON_NEGATIVE,
    "search.dup_gap": POSITIVE,
    "search.c_max": Number(INT, 1, 8),
    "selection.margin": NON_NEGATIVE,
    "selection.min_stop_size": POSITIVE_INT,
    "selection.plateau_tol": NON_NEGATIVE,
    "selection.plateau_log_tol": NON_NEGATIVE,
    "selection.patience": Number(INT, 0),
    "selection.prune_contrib": NON_NEGATIVE,
    "selection.prune_abs": NON_NEGATIVE,
    "selection.explain_floor": Number(FLOAT, 0.0, nullable=True),
    "method.polish_maxiter": POSITIVE_INT,
    "method.polish_xatol": POSITIVE,
    "method.polish_fatol": POSITIVE,
    "method.trust_min": NON_NEGATIVE,
    "method.refit_ridge": Number(FLOAT, 0.0, nullable=True),
    "method.stridge_ridge": NON_NEGATIVE,
    "method.stridge_iterations": POSITIVE_INT,
    "method.max_terms": Number(INT, 1, nullable=True),
    "method.bump_power": Number(INT, 3, 12),
    "method.initial_points": Number(INT, 3),
    "method.min_positive_order": Number(FLOAT, 0.0, nullable=True),
    "benchmark.library.c_max": Number(INT, 1, 8),
    "benchmark.grid.nt": Number(INT, 4),
    "benchmark.grid.nx": Number(INT, 4),
    "benchmark.grid.ny": Number(INT, 4, nullable=True),
    "benchmark.grid.T": POSITIVE,
    "benchmark.grid.L": POSITIVE,
    "benchmark.grid.Ly": POSITIVE,
}

#: Keys with a fixed set of values.
ENUMS: dict[str, tuple[str, ...]] = {
    "search.updating": get_args(Updating),
    "search.test_budget": get_args(Budget),
    "selection.rule": get_args(SelectionRule),
    "selection.stability": get_args(StabilityRule),
    "selection.elbow_points": get_args(ElbowPoints),
    "method.kind": get_args(MethodKindName),
    "method.features": get_args(FeatureKind),
    "domain": get_args(DomainRequest),
    "method.temporal_target": ("l1", "exact"),
    "method.initial": get_args(InitialEstimate),
    "method.test_widths": ("paper", "corner"),
    "method.integer_test": ("bound", "always"),
    "method.twins": get_args(TwinRule),
    "method.noise_model": get_args(NoiseModel),
    "benchmark.library.operator": get_args(OperatorKind),
    "benchmark.library.power_mode": get_args(PowerMode),
    "benchmark.library.spatial_tests": get_args(SpatialTests),
}

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
