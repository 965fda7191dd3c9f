"""``wp generate``: a benchmark field (optionally noisy) written atomically to ``.npz``.

The field is the same realisation ``wp run`` draws for that benchmark, noise and seed; every
input (overrides, seed, noise, output path) is checked before anything is computed, and a field
that is not finite (a noise level that overflows float64) is refused before anything is written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike
from omegaconf import DictConfig, OmegaConf

from weakpareto.benchmarks.generators import Field, generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.campaign.compose import compose_checked
from weakpareto.campaign.compute import noise_seed
from weakpareto.campaign.config import require_generator_packages, require_int, require_noise
from weakpareto.campaign.paths import writable_file
from weakpareto.errors import UserInputError
from weakpareto.evaluation.metrics import truth_equation
from weakpareto.io import atomic_path


def writable_path(out: object, suffix: str) -> Path:
    """Check an output path before computing; raise UserInputError naming the fix."""
    return writable_file(out, suffix, "out")


def save_npz_atomic(path: Path, **arrays: ArrayLike) -> None:
    """Write ``.npz`` to a temp file in the target directory, then rename (never half-written)."""
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        # Any: typed ArrayLike values would be checked against savez's `allow_pickle: bool`
        np.savez(fh, **cast(dict[str, Any], arrays))


def field_summary(name: str, field: Field, cfg: DictConfig, noise: float, law: str) -> str:
    """One-paragraph description: grid, range, truth equation."""
    truth = truth_equation(cfg.benchmark)
    grid = " x ".join(str(s) for s in field.u.shape)
    span = (
        f"t in [{field.t[0]:g}, {field.t[-1]:g}] (dt {field.dt:g}), x in [{field.x[0]:g}, "
        f"{field.x[-1]:g}] (dx {field.dx:g})"
    )
    if field.y is not None:
        span += f", y in [{field.y[0]:g}, {field.y[-1]:g}]"
    lvl = f"{100 * noise:g} % {law} noise" if noise > 0 else "no noise"
    return (
        f"{cfg.benchmark.get('label', name)} ({name}): grid {grid}, {span}; "
        f"u in [{float(np.min(field.u)):.4g}, {float(np.max(field.u)):.4g}]; {lvl} "
        f"(seed {cfg.seed}). Truth ({cfg.benchmark.truth.operator} operator): {truth.text()}"
    )


def check_finite(u: np.ndarray, field: Field, name: str, noise: float, law: str) -> None:
    """Refuse NaN or infinite values before anything is written: the benchmark settings (the
    clean ``field`` or its grid not finite) or the noise level (``u`` overflowed float64)."""
    arrays = (field.u, field.t, field.x) + (() if field.y is None else (field.y,))
    if not all(np.all(np.isfinite(a)) for a in arrays):
        raise UserInputError(
            f"cannot generate {name} with these settings: the field is not finite (NaN or inf); "
            "restore the benchmark constants you changed (wp generate --help)"
        )
    if not np.all(np.isfinite(u)):
        raise UserInputError(
            f"noise={noise:g} makes the {law} noisy {name} field non-finite (float64 overflow); "
            "give a fraction (0.1 means 10 %), e.g. noise=0.1"
        )


def generate_to_file(cfg: DictConfig) -> Path:
    """Validate, generate, add noise, write ``out`` and print the summary."""
    seed = require_int("seed", cfg.seed, 0)
    noise = require_noise(cfg.noise)
    path = writable_path(cfg.out, ".npz")
    law = str(cfg.noise_law.name)
    name = str(cfg.benchmark.name)
    require_generator_packages(cfg.benchmark)
    try:
        field = generate(cfg.benchmark, seed)
    except (ValueError, ArithmeticError) as err:  # benchmark constants the generator rejects
        text = str(err).strip().splitlines() or [type(err).__name__]
        raise UserInputError(f"cannot generate {name} with these settings: {text[0]}") from None
    # same realisation as `wp run` (2-D benchmarks offset the noise seed,
    # docs/method/benchmarks.md#noise-seeds)
    if noise > 0:
        with np.errstate(over="ignore", invalid="ignore"):  # an overflow is refused just below
            u = add_noise(field.u, law, noise, noise_seed(cfg, seed))
    else:
        u = np.array(field.u)
    check_finite(u, field, name, noise, law)
    truth = truth_equation(cfg.benchmark)
    arrays: dict[str, ArrayLike] = {"u": u, "t": field.t, "x": field.x}
    if field.y is not None:
        arrays["y"] = field.y
    meta = {
        "benchmark": name,
        "noise": noise,
        "noise_law": law,
        "seed": seed,
        "period": float(cfg.benchmark.grid.L),
        "truth": truth.to_dict(),
        "benchmark_config": OmegaConf.to_container(cfg.benchmark, resolve=True),
    }
    arrays["meta"] = np.array(json.dumps(meta))
    save_npz_atomic(path, **arrays)
    print(field_summary(name, field, cfg, noise, law))
    print(f"wrote {path}")
    return path


def generate_command(overrides: list[str]) -> Path:
    """Entry point of ``wp generate`` (Hydra overrides such as ``benchmark=fade out=f.npz``)."""
    return generate_to_file(compose_checked(overrides))
