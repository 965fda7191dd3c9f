"""The ``wp`` command: a thin dispatcher in front of Hydra.

``wp <subcommand> [hydra overrides...]``. Hydra has no subcommands, so the subcommand is popped
from ``argv`` first; overrides are validated by composing the config (for every point of a
``-m`` sweep) before any computation, and bad input becomes one line on stderr and exit code 2.

Subcommands: ``generate`` (write a benchmark field), ``run`` (discovery over seeds, Parquet),
``report`` (LaTeX tables from Parquet), ``discover`` (your own data), ``bench`` (timings).
"""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Callable, Sequence
from typing import cast

from omegaconf import DictConfig

from weakpareto.campaign.config import CONFIG_MODULE, UserInputError, available_options

SUBCOMMANDS: dict[str, str] = {
    "generate": "generate a benchmark field: wp generate benchmark=fade noise=0.1 out=f.npz",
    "run": "discover per seed, print equations, write Parquet: wp run benchmark=fade noise=0.1",
    "report": "render the paper's LaTeX tables from Parquet: wp report",
    "discover": "discover an equation in your own data: wp discover data=f.npz out=r.json",
    "bench": "time the pipeline per stage and write results/bench/*.csv: wp bench",
}

GROUPS = ("benchmark", "noise_law", "method", "search", "selection", "experiment")


def _usage() -> str:
    lines = ["usage: wp <subcommand> [key=value ...] [-m for sweeps]", "", "subcommands:"]
    lines += [f"  {k:<9} {v}" for k, v in SUBCOMMANDS.items()]
    lines += ["", "config groups: " + ", ".join(GROUPS), "options of a group: wp <sub> --help"]
    return "\n".join(lines)


def fail(message: str) -> None:
    """Print one line to stderr and exit with code 2 (bad user input)."""
    print(f"wp: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def _friendly_compose_error(err: Exception) -> str:
    msg = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    for group in GROUPS:
        if f"'{group}/" in msg or f"{group}=" in msg:
            try:
                opts = available_options(group)
            except (FileNotFoundError, OSError):
                opts = []
            return f"{msg} — valid {group} options: {', '.join(opts)}"
    return f"{msg} — check the spelling of the override (key=value)"


def compose_config(overrides: Sequence[str]) -> DictConfig:
    """Compose the primary config with overrides; raise UserInputError on any failure."""
    from hydra import compose, initialize_config_module
    from hydra.core.global_hydra import GlobalHydra

    GlobalHydra.instance().clear()
    try:
        with initialize_config_module(config_module=CONFIG_MODULE, version_base="1.3"):
            cfg = compose(config_name="config", overrides=list(overrides))
            # resolve now so interpolation errors surface as bad input
            from omegaconf import OmegaConf

            OmegaConf.resolve(cfg)
            return cfg
    except UserInputError:
        raise
    except Exception as err:  # hydra/omegaconf composition errors of many types
        raise UserInputError(_friendly_compose_error(err)) from None
    finally:
        GlobalHydra.instance().clear()


def expand_sweep(overrides: Sequence[str]) -> list[list[str]]:
    """All override combinations of a ``-m`` sweep (Hydra's basic-sweeper grammar)."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

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


def _split(argv: list[str]) -> tuple[list[str], list[str]]:
    flags = [a for a in argv if a.startswith("-")]
    overrides = [a for a in argv if not a.startswith("-")]
    return flags, overrides


def _user_overrides(overrides: list[str]) -> list[str]:
    return [o for o in overrides if not o.lstrip("+~").startswith("hydra")]


def main(argv: list[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        try:
            print(_usage())
        except BrokenPipeError:  # e.g. `wp --help | head`
            pass
        return
    sub, rest = argv[0], argv[1:]
    handlers: dict[str, Callable[[list[str]], None]] = {
        "generate": cmd_generate,
        "run": cmd_run,
        "report": cmd_report,
        "discover": cmd_discover,
        "bench": cmd_bench,
    }
    if sub not in handlers:
        fail(f"unknown subcommand {sub!r}; valid: {', '.join(SUBCOMMANDS)}")
    try:
        handlers[sub](rest)
    except UserInputError as err:
        fail(str(err))
    except KeyboardInterrupt:
        print("wp: interrupted; completed results are saved, re-run to resume", file=sys.stderr)
        raise SystemExit(130) from None


# -- generate ------------------------------------------------------------------------------------
def cmd_generate(args: list[str]) -> None:
    flags, overrides = _split(args)
    if "--help" in flags or "-h" in flags:
        print(
            "wp generate benchmark=<name> [noise=<fraction>] [noise_law=<law>] [seed=<int>] "
            "out=<file.npz>\nbenchmarks: " + ", ".join(available_options("benchmark"))
        )
        return
    cfg = compose_config(overrides)
    from weakpareto.campaign.generate import generate_to_file

    generate_to_file(cfg)


# -- run -----------------------------------------------------------------------------------------
def cmd_run(args: list[str]) -> None:
    flags, overrides = _split(args)
    multirun = "-m" in flags or "--multirun" in flags
    if "--help" in flags or "-h" in flags:
        print(
            "wp run benchmark=<name> noise=<fraction> seeds=<n> [method=...] [workers=N] "
            "[-m sweeps]\n" + "\n".join(f"  {g}: {', '.join(available_options(g))}" for g in GROUPS)
        )
        return
    from weakpareto.campaign.config import validate_run

    combos = expand_sweep(_user_overrides(overrides)) if multirun else [_user_overrides(overrides)]
    if len(combos) > 2000:
        raise UserInputError(f"the sweep has {len(combos)} jobs; split it into smaller sweeps")
    for combo in combos:
        validate_run(compose_config(combo))
    # Hand over to Hydra (multirun launchers, e.g. joblib, work as usual).
    sys.argv = [sys.argv[0]] + (["-m"] if multirun else []) + overrides
    from weakpareto.campaign.runner import hydra_run_entry

    hydra_run_entry()


# -- report, discover, bench ---------------------------------------------------------------------
def cmd_report(args: list[str]) -> None:
    flags, overrides = _split(args)
    if "--help" in flags or "-h" in flags:
        print(
            "wp report [results_dir=results/runs] [out_dir=results/tables]: LaTeX tables, "
            "paper-vs-ours files and the robustness figure from the Parquet results"
        )
        return
    opts = dict(o.split("=", 1) for o in overrides if "=" in o)
    bad = set(opts) - {"results_dir", "out_dir"}
    if bad:
        raise UserInputError(f"unknown report option(s) {sorted(bad)}; use results_dir=, out_dir=")
    from weakpareto.reporting.report import render_all

    paths = render_all(
        opts.get("results_dir", "results/runs"), opts.get("out_dir", "results/tables")
    )
    for p in paths:
        print(p)


def cmd_discover(args: list[str]) -> None:
    from weakpareto.user.discover_command import discover_command

    discover_command(args)


def cmd_bench(args: list[str]) -> None:
    from weakpareto.campaign.bench import bench_command

    bench_command(args)


if __name__ == "__main__":  # pragma: no cover
    os.environ.setdefault("HYDRA_FULL_ERROR", "0")
    main()
