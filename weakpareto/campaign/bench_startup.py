"""Start-up of the ``wp`` command: whole-process wall time of commands that compute little.

:func:`startup_times` starts every command of :data:`COMMANDS` as a fresh interpreter
(``sys.executable``, the way the ``wp`` script starts: ``from weakpareto.cli import main``),
once to warm up and then ``repeats`` times, and keeps the median, min and max wall time. It
first writes the package's bytecode caches (``__pycache__``, as an installed package has them):
under ``PYTHONDONTWRITEBYTECODE`` no start would write them, and every start would compile every
changed module again (0.1-0.25 s of ``wp discover`` here). The ``bytecode_cache`` column says
whether they were there. For the commands that fit (a one-seed ``wp run`` and
the README's ``wp discover`` example on a generated FADE field) the fit's own time is read back
from what they wrote — the Parquet row's ``runtime_s``, the result JSON's stage timings — and
``startup_s`` is wall minus fit: interpreter, imports, composing and checking the config, code
hash, loading and writing. Nothing here asserts a time; :func:`write_startup` writes
``startup.csv`` (docs/performance.md#start-up reads it).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from weakpareto.io import write_csv_atomic

STEM = "startup"
#: ``python -c`` program that runs ``wp`` as its console script does (argv after it).
WP = "import sys; from weakpareto.cli import main; sys.argv[0] = 'wp'; main()"
#: (label, arguments of ``wp``; ``{dir}`` is a scratch directory). ``None``: import only.
COMMANDS: tuple[tuple[str, tuple[str, ...] | None], ...] = (
    ("import weakpareto.cli", None),
    ("wp --help", ("--help",)),
    ("wp discover --help", ("discover", "--help")),
    ("wp status", ("status", "benchmark=fade", "noise=0.1", "seeds=1", "results_dir={dir}/runs")),
    (
        "wp run (1 seed)",
        ("run", "benchmark=fade", "noise=0.1", "seeds=1", "results_dir={dir}/runs")
        + ("overwrite=true", "progress=false"),
    ),
    (  # the README's example: one operator family, the FADE ranges
        "wp discover (README example)",
        ("discover", "data={dir}/fade.npz", "operator=directional", "alpha_range=[0.6,1.05]")
        + ("beta_range=[0.5,2.0]", "out={dir}/fit.json"),
    ),
)
#: The stages of ``wp discover``'s result timings that are the fit.
FIT_STAGES = ("banks", "search", "refine")


def bytecode_cache() -> bool:
    """Whether the started interpreters write and read ``__pycache__`` (they inherit this
    environment)."""
    return not (sys.dont_write_bytecode or os.environ.get("PYTHONDONTWRITEBYTECODE"))


def compile_package() -> bool:
    """Write the bytecode caches of every module of the package (started interpreters read them
    even where they would not write them); False when that failed (e.g. a read-only install)."""
    import compileall

    import weakpareto

    return bool(compileall.compile_dir(Path(weakpareto.__file__).parent, quiet=1))


def _argv(args: tuple[str, ...] | None, scratch: Path) -> list[str]:
    if args is None:
        return [sys.executable, "-c", "import weakpareto.cli"]
    return [sys.executable, "-c", WP, *(a.replace("{dir}", str(scratch)) for a in args)]


def _fit_seconds(label: str, scratch: Path) -> float | None:
    """The fit's own time of the command that just ran (None: it fits nothing)."""
    if label.startswith("wp run"):
        from weakpareto.campaign.store import load_runs

        runs = load_runs(scratch / "runs")
        return float(runs.sort_values("created_utc")["runtime_s"].iloc[-1])
    if label.startswith("wp discover (") and (scratch / "fit.json").is_file():
        timings = json.loads((scratch / "fit.json").read_text())["result"]["timings"]
        return float(sum(timings[k] for k in FIT_STAGES))
    return None


def _run(argv: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def startup_times(
    repeats: int = 5, commands: Sequence[tuple[str, tuple[str, ...] | None]] = COMMANDS
) -> pd.DataFrame:
    """One row per command: median/min/max wall seconds over ``repeats`` starts (after one
    warm-up), the median fit seconds and ``startup_s`` (median of wall - fit) where it fits."""
    rows: list[dict[str, Any]] = []
    compiled = compile_package() or bytecode_cache()
    with tempfile.TemporaryDirectory(prefix="wp-startup-") as tmp:
        scratch = Path(tmp)
        (scratch / "runs").mkdir()
        gen = ("generate", "benchmark=fade", "noise=0.05", "out={dir}/fade.npz")
        _run(_argv(gen, scratch))
        for label, args in commands:
            argv = _argv(args, scratch)
            _run(argv)  # warm-up: bytecode caches, the code-hash cache, the OS file cache
            walls, fits = [], []
            for _ in range(max(1, int(repeats))):
                walls.append(_run(argv))
                fit = _fit_seconds(label, scratch)
                if fit is not None:
                    fits.append(fit)
            row: dict[str, Any] = {
                "command": label,
                "repeats": len(walls),
                "wall_s": statistics.median(walls),
                "min_s": min(walls),
                "max_s": max(walls),
                "fit_s": statistics.median(fits) if fits else None,
                "startup_s": (
                    statistics.median(w - f for w, f in zip(walls, fits, strict=True))
                    if fits
                    else statistics.median(walls)
                ),
                "bytecode_cache": compiled,
            }
            rows.append(row)
            fit_text = f", fit {row['fit_s']:.2f} s" if fits else ""
            print(
                f"start-up {label:<30} wall {row['wall_s']:.2f} s{fit_text} -> start-up "
                f"{row['startup_s']:.2f} s"
            )
    return pd.DataFrame(rows)


def write_startup(out_dir: str | Path, df: pd.DataFrame) -> Path:
    """Write ``out_dir/startup.csv`` atomically."""
    return write_csv_atomic(df, Path(out_dir) / f"{STEM}.csv")
