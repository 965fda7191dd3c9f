"""Validation of composed Hydra configs, the config hash, and the installed ``conf/``.

Every check here raises :class:`UserInputError` with one line naming the problem and the fix;
the CLI turns it into exit code 2 without a traceback. The typed settings of a run
(:func:`discovery_config`, :func:`noise_seed`) live in :mod:`weakpareto.campaign.compute`, with
the rest of what a run computes, and are re-exported here.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any, get_args

from omegaconf import DictConfig, OmegaConf

from weakpareto.campaign.compute import discovery_config as discovery_config
from weakpareto.campaign.compute import fit_spec
from weakpareto.campaign.compute import noise_seed as noise_seed
from weakpareto.errors import UserInputError
from weakpareto.fit.kinds import check_supported
from weakpareto.fit.spec import DomainRequest
from weakpareto.method.settings import ElbowPoints, SelectionRule, StabilityRule, Updating
from weakpareto.numerics.orders import MAX_SPATIAL_ORDER, temporal_branches

CONFIG_MODULE = "weakpareto.conf"
NON_IDENTITY_KEYS = (
    "seed",
    "seeds",
    "results_dir",
    "overwrite",
    "workers",
    "progress",
    "out",
    "experiment",
    "variant",
    "hydra",
)
#: Keys of ``wp run``'s uncertainty (ours, docs/method/extensions.md#bootstrap-intervals): part
#: of the config hash only when it is on, so runs without it keep the keys (and cached results)
#: they had before the keys existed.
UNCERTAINTY_KEYS = ("uncertainty", "n_boot", "level")


def config_dir():
    """The installed configuration directory (top-level ``conf/`` of the repository)."""
    return resources.files(CONFIG_MODULE)


def available_options(group: str) -> list[str]:
    """Names of the YAML options of a config group (e.g. ``benchmark``)."""
    d = config_dir() / group
    return sorted(p.name[:-5] for p in d.iterdir() if p.name.endswith(".yaml"))


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def require_int(name: str, value: Any, minimum: int | None = None) -> int:
    example = 0 if minimum is None else minimum  # the hint must itself be accepted
    if not _is_int(value):
        raise UserInputError(f"{name}={value!r} is not an integer; e.g. {name}={example}")
    if minimum is not None and value < minimum:
        raise UserInputError(f"{name}={value} must be >= {minimum}; e.g. {name}={example}")
    return int(value)


def require_noise(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise UserInputError(f"noise={value!r} is not a number; pass a fraction, e.g. noise=0.1")
    v = float(value)
    if not math.isfinite(v) or v < 0:
        raise UserInputError(
            f"noise={value!r} must be a finite non-negative fraction (0.1 means 10 %); "
            "e.g. noise=0.1"
        )
    return v


def _range(
    name: str, value: Any, lo_bound: float | None, hi_bound: float | None, example: str
) -> tuple:
    hint = f"e.g. {name}={example}"
    try:
        lo, hi = (float(v) for v in value)
    except (TypeError, ValueError):
        raise UserInputError(f"{name}={value!r} must be a pair [lo, hi]; {hint}") from None
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo >= hi:
        raise UserInputError(f"{name}=[{lo}, {hi}] needs lo < hi; {hint}")
    if lo_bound is not None and lo < lo_bound:
        raise UserInputError(f"{name}=[{lo}, {hi}] must not go below {lo_bound}; {hint}")
    if hi_bound is not None and hi >= hi_bound:
        raise UserInputError(f"{name}=[{lo}, {hi}] must stay below {hi_bound}; {hint}")
    return lo, hi


def validate_library(
    lib: Mapping[str, Any], search: Mapping[str, Any], powers_example: str = "[0,1,2]"
) -> None:
    """Check a benchmark's ``library`` block (search ranges, powers, c_max) under ``search``."""
    key = "benchmark.library"
    alpha_hint = f"e.g. {key}.alpha_range=[0.6,1.05]"
    a_lo, a_hi = _range(f"{key}.alpha_range", lib["alpha_range"], None, None, "[0.6,1.05]")
    if a_lo <= 0 or a_hi >= 2:
        raise UserInputError(
            f"{key}.alpha_range=[{a_lo}, {a_hi}] must lie inside (0, 2); {alpha_hint}"
        )
    b_lo, b_hi = _range(f"{key}.beta_range", lib["beta_range"], 0.0, None, "[0.5,2.0]")
    if b_hi > MAX_SPATIAL_ORDER:
        raise UserInputError(
            f"{key}.beta_range=[{b_lo}, {b_hi}] goes above {MAX_SPATIAL_ORDER:g}, the largest "
            f"spatial order searched (|k|^beta loses all precision); e.g. {key}.beta_range="
            "[0.5,4.5]"
        )
    try:
        temporal_branches((a_lo, a_hi), int(search["n_alpha_nodes"]), float(search["eps_alpha"]))
    except ValueError as err:
        raise UserInputError(f"{err}; {alpha_hint}") from None
    powers = list(lib["powers"])
    if not powers or not all(_is_int(p) and p >= 0 for p in powers):
        raise UserInputError(
            f"{key}.powers={powers!r} must be non-negative integers; e.g. "
            f"{key}.powers={powers_example}"
        )
    if len(set(powers)) != len(powers):
        raise UserInputError(
            f"{key}.powers={powers!r} repeats a power; list each once, e.g. "
            f"{key}.powers={powers_example}"
        )
    require_int(f"{key}.c_max", lib["c_max"], 1)
    if lib.get("operator") not in ("directional", "riesz", "gl_left"):
        raise UserInputError(
            f"{key}.operator={lib.get('operator')!r} is not one of directional, riesz, gl_left; "
            f"e.g. {key}.operator=directional"
        )


def validate_run(cfg: DictConfig) -> None:
    """Validate a composed ``wp run`` config before any computation."""
    require_int("seed", cfg.seed, 0)
    require_int("seeds", cfg.seeds, 1)
    require_int("workers", cfg.workers, 1)
    require_noise(cfg.noise)
    two_d = cfg.benchmark.grid.get("ny") is not None
    validate_library(cfg.benchmark.library, cfg.search, "[0]" if two_d else "[0,1,2]")
    if cfg.method.kind == "yu_neural":  # one line before any work, not a crashed seed
        from weakpareto.baselines.yu_neural import require_torch

        require_torch()
    domain = str(cfg.get("domain", "periodic"))
    if domain not in get_args(DomainRequest):
        raise UserInputError(
            f"domain={domain!r} is not one of {', '.join(get_args(DomainRequest))}; e.g. "
            "domain=periodic"
        )
    validate_uncertainty(cfg)
    require_generator_packages(cfg.benchmark)
    # what the method cannot fit on this benchmark, before any seed runs (auto: decided by data)
    check_supported(fit_spec(cfg, int(cfg.seed)), two_d, "periodic" if domain == "auto" else domain)
    if two_d and list(cfg.benchmark.library.powers) != [0]:
        raise UserInputError(
            f"benchmark.library.powers={list(cfg.benchmark.library.powers)} on a 2-D benchmark: "
            "2-D models are linear; e.g. benchmark.library.powers=[0]"
        )
    check_count_dims(cfg, two_d)
    check_variant(cfg.get("variant", "default"))
    require_int("search.popsize", cfg.search.popsize, 1)
    require_int("search.maxiter", cfg.search.maxiter, 1)
    for name, options, value, example in (
        ("search.updating", get_args(Updating), cfg.search.updating, "deferred"),
        ("selection.rule", get_args(SelectionRule), cfg.selection.rule, "elbow"),
        ("selection.stability", get_args(StabilityRule), cfg.selection.stability, "reference"),
        ("selection.elbow_points", get_args(ElbowPoints), cfg.selection.elbow_points, "front"),
    ):
        if value not in options:
            raise UserInputError(
                f"{name}={value!r} is not one of {', '.join(options)}; e.g. {name}={example}"
            )
    if cfg.search.vectorized and cfg.search.updating != "deferred":
        raise UserInputError(
            "search.vectorized=true needs search.updating=deferred (scipy requirement); "
            "e.g. search.updating=deferred"
        )
    if not float(cfg.search.ridge) >= 0:
        raise UserInputError("search.ridge must be >= 0; e.g. search.ridge=0.001")


#: Generator kinds that need an optional package: kind -> (module, the extra that installs it).
OPTIONAL_GENERATORS: Mapping[str, tuple[str, str]] = {"pycaputo": ("pycaputo", "independent")}


def require_generator_packages(benchmark: DictConfig) -> None:
    """One line before any work when the benchmark's generator needs a package not installed."""
    kind = str(OmegaConf.select(benchmark, "generator.kind", default=""))
    if kind not in OPTIONAL_GENERATORS:
        return
    module, extra = OPTIONAL_GENERATORS[kind]
    if importlib.util.find_spec(module) is None:
        raise UserInputError(
            f"benchmark {benchmark.name} is generated by {module}, which is not installed: "
            f"pip install 'weakpareto[{extra}]' (make install installs it)"
        )


def check_count_dims(cfg: DictConfig, two_d: bool) -> None:
    """Test counts with one entry per axis of the benchmark (t, x and, in 2-D, y)."""
    want, example = (3, "[30,40,40]") if two_d else (2, "[44,60]")
    for key, counts in (
        ("search.test_counts", cfg.search.get("test_counts")),
        ("benchmark.library.test_counts", cfg.benchmark.library.get("test_counts")),
    ):
        if counts is not None and len(counts) != want:
            dims = "two spatial dimensions" if two_d else "one spatial dimension"
            raise UserInputError(
                f"{key}={list(counts)} has {len(counts)} entries but {cfg.benchmark.name} has "
                f"{dims}; give {want} (t and each spatial axis), e.g. {key}={example}, or null"
            )


#: A variant label is part of every result file name, where ``__`` separates the fields.
VARIANT_PATTERN = re.compile(r"[A-Za-z0-9.+-]+(_[A-Za-z0-9.+-]+)*")


def check_variant(variant: Any) -> None:
    """A label that keeps the result file names parseable (no path separator, no ``__``)."""
    if not (isinstance(variant, str) and VARIANT_PATTERN.fullmatch(variant)):
        raise UserInputError(
            f"variant={variant!r} must be a label of letters, digits, '.', '+', '-' and single "
            "'_' (it is part of the result file names); e.g. variant=default"
        )


def without_uncertainty_off(data: dict) -> dict:
    """``data`` (a plain config) without :data:`UNCERTAINTY_KEYS` when uncertainty is off."""
    if data.get("uncertainty") is None:
        return {k: v for k, v in data.items() if k not in UNCERTAINTY_KEYS}
    return data


def uncertainty_settings(cfg: DictConfig) -> tuple[int, float] | None:
    """``(n_boot, level)`` of a run with ``uncertainty=bootstrap``, None when it is off."""
    if cfg.get("uncertainty", None) is None:
        return None
    return int(cfg.n_boot), float(cfg.level)


def validate_uncertainty(cfg: DictConfig) -> None:
    """``uncertainty`` null or ``bootstrap``, ``n_boot >= 2``, ``level`` in (0, 1) (which methods
    can be resampled: :func:`weakpareto.fit.kinds.check_supported`)."""
    method = cfg.get("uncertainty", None)
    if method is None:
        return
    if method != "bootstrap":
        raise UserInputError(
            f"uncertainty={method!r} is not one of bootstrap, null; e.g. uncertainty=bootstrap"
        )
    require_int("n_boot", cfg.n_boot, 2)
    level = cfg.level
    if isinstance(level, bool) or not isinstance(level, int | float) or not 0 < level < 1:
        raise UserInputError(f"level={level!r} must be a number in (0, 1); e.g. level=0.9")


def config_hash(cfg: DictConfig) -> str:
    """Hash of everything that defines the computation (not seeds, paths, labels or workers;
    not the uncertainty keys when it is off)."""
    data = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(data, dict)
    data = without_uncertainty_off(data)
    for k in NON_IDENTITY_KEYS:
        data.pop(k, None)
    blob = json.dumps(data, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:16]
