"""The ``wp`` command: a thin dispatcher in front of Hydra.

``wp <subcommand> [key=value ...]``. Hydra has no subcommands, so the subcommand is popped from
``argv`` first; only then is the module implementing it imported. Help texts
(:mod:`weakpareto.cli_help`) need nothing beyond the standard library, so ``wp --help`` and
``wp <subcommand> --help`` start without loading scipy, pandas, matplotlib or Hydra. Bad input
becomes one line on stderr and exit code 2
(before anything is computed or written: overrides, values and output paths are checked first,
and so is a key given twice or one the subcommand would ignore, such as ``out=`` for ``wp run``);
Ctrl-C (or SIGTERM during ``wp run``) one line saying what was saved and exit code 130.

Subcommands: ``generate`` (write a benchmark field), ``run`` (discovery over seeds, Parquet),
``report`` (LaTeX tables and the results page from Parquet), ``discover`` (your own data),
``bench`` (timings), ``kelvin`` (fractional Kelvin creep fit of a creep record).
"""

from __future__ import annotations

import sys

from weakpareto.cli_help import (  # noqa: F401  (re-exported: the help texts)
    CONFIG_PACKAGE,
    GROUPS,
    HELP,
    REPORT_OPTIONS,
    SUBCOMMANDS,
    bench_help,
    compact_help,
    config_options,
    discover_help,
    generate_help,
    kelvin_help,
    report_help,
    run_help,
    status_help,
    usage,
)
from weakpareto.errors import UserInputError

HELP_FLAGS = ("-h", "--help")
SWEEP_FLAGS = ("-m", "--multirun")
#: Keys of the shared config read by `wp run` (and `wp status`, which mirrors it) but not by
#: `wp generate`, and the other way round: given to the other subcommand they would be ignored.
RUN_ONLY_KEYS = (
    "seeds",
    "workers",
    "results_dir",
    "overwrite",
    "progress",
    "variant",
    "experiment",
    "uncertainty",
    "n_boot",
    "level",
    "method",
    "search",
    "selection",
    "hydra",
    "chunk_size",
    "domain",
)
GENERATE_ONLY_KEYS = ("out",)


def fail(message: str) -> None:
    """Print one line to stderr and exit with code 2 (bad user input)."""
    print(f"wp: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def _print(text: str) -> None:
    try:
        print(text)
    except BrokenPipeError:  # e.g. `wp --help | head`
        pass


def _split(argv: list[str]) -> tuple[list[str], list[str]]:
    flags = [a for a in argv if a.startswith("-")]
    overrides = [a for a in argv if not a.startswith("-")]
    return flags, overrides


def _reject_flags(sub: str, flags: list[str], allowed: tuple[str, ...] = ()) -> None:
    bad = [f for f in flags if f not in allowed]
    if bad:
        raise UserInputError(
            f"unknown flag {bad[0]!r} for wp {sub}; options are key=value (wp {sub} --help)"
        )


def _override_key(override: str) -> str:
    """The key of one ``key=value`` override (``+experiment=main`` -> ``experiment``)."""
    return override.lstrip("+~").split("=", 1)[0].split("@", 1)[0]


def reject_repeated_keys(sub: str, overrides: list[str], given: list[str] | None = None) -> None:
    """A key given twice (the last would silently win): one line naming both. ``given``: the
    overrides as typed when ``overrides`` are their translation (one name per setting)."""
    first: dict[str, int] = {}
    typed = overrides if given is None else given
    for i, o in enumerate(overrides):
        key = _override_key(o)
        if key not in first:
            first[key] = i
            continue
        j = first[key]
        if typed[i] != o or typed[j] != overrides[j]:  # two spellings of one setting
            raise UserInputError(f"{typed[j]} and {typed[i]} set the same setting {key}; keep one")
        text = f"{key}= is given twice ({overrides[j]}, {o}); keep one"
        values = [x.split("=", 1)[1] for x in (overrides[j], o) if "=" in x]
        if sub in ("run", "status") and len(values) == 2 and not o.startswith(("+", "~")):
            text += f" (a sweep over both: wp {sub} -m {key}={values[0]},{values[1]})"
        raise UserInputError(text)


def reject_other_subcommand_keys(sub: str, overrides: list[str]) -> None:
    """A key of the shared config that ``sub`` does not read (``out=`` for ``wp run``,
    ``seeds=`` for ``wp generate``): one line naming the subcommand that uses it."""
    for o in overrides:
        key = _override_key(o)
        top = key.split(".", 1)[0].split("/", 1)[0]
        if top in ("forcing", "forcing_coef"):  # the benchmarks are unforced equations
            raise UserInputError(
                f"{key}= (known forcing) is a wp discover / WeakPareto option; the benchmarks of "
                f"wp {sub} have no forcing term: fit forced data with wp discover forcing=<file>"
            )
        if sub in ("run", "status") and top in GENERATE_ONLY_KEYS:
            raise UserInputError(
                f"{key}= is a wp generate option (the .npz file it writes), not read by wp {sub}; "
                "drop it (wp run writes Parquet under results_dir=)"
            )
        if sub == "generate" and top in RUN_ONLY_KEYS:
            hint = "seed= picks its noise realisation" if top == "seeds" else "wp generate --help"
            raise UserInputError(
                f"{key}= is a wp run option, not read by wp generate (it writes one field); "
                f"drop it ({hint})"
            )


def _wants_help(sub: str, args: list[str]) -> bool:
    tokens = HELP_FLAGS + (("help",) if sub in ("discover", "kelvin") else ())
    return any(a in tokens for a in args)


def _report_options(overrides: list[str]) -> dict[str, str]:
    if any("=" not in o for o in overrides):
        raise UserInputError(f"wp report takes key=value options {sorted(REPORT_OPTIONS)}")
    opts = dict(o.split("=", 1) for o in overrides)
    bad = set(opts) - set(REPORT_OPTIONS)
    if bad:
        raise UserInputError(
            f"unknown report option(s) {sorted(bad)}; use results_dir=, out_dir=, html_dir="
        )
    for key, value in opts.items():  # before any directory is created
        if not value.strip():
            raise UserInputError(
                f"{key}= is empty; give a directory, e.g. {key}={REPORT_OPTIONS[key]}"
            )
    return {**REPORT_OPTIONS, **opts}


def dispatch(sub: str, args: list[str]) -> None:
    """Run subcommand ``sub`` with its arguments (help already handled by :func:`main`)."""
    # The one place with function-level imports: each branch imports only the module of the
    # subcommand that runs (and through it Hydra, scipy, pandas or matplotlib), so help and
    # bad-subcommand paths, and every other subcommand, do not pay for them.
    flags, overrides = _split(args)
    if sub not in ("discover", "kelvin"):  # those two check their own keys
        reject_repeated_keys(sub, overrides)
    if sub in ("run", "status"):  # wp discover's names of the search settings
        from weakpareto.campaign.door_names import with_run_keys

        given, overrides = overrides, with_run_keys(overrides)
        if given != overrides:
            reject_repeated_keys(sub, overrides, given)
    if sub in ("run", "status", "generate"):
        reject_other_subcommand_keys(sub, overrides)
    if sub == "generate":
        _reject_flags(sub, flags)
        from weakpareto.campaign.generate import generate_command

        generate_command(overrides)
    elif sub == "run":
        _reject_flags(sub, flags, SWEEP_FLAGS)
        multirun = any(f in SWEEP_FLAGS for f in flags)
        from weakpareto.campaign.launch_options import check_launcher, is_chunked
        from weakpareto.campaign.overrides import check_bootstrap_keys

        check_launcher(overrides)
        check_bootstrap_keys(overrides, multirun)
        if is_chunked(overrides, multirun):  # cluster launchers: chunks of (config, seed)
            from weakpareto.campaign.launch import run_chunked

            run_chunked(overrides)
            return
        from weakpareto.campaign.compose import user_overrides, validate_run_overrides

        composed: list = []  # the job's config when there is one job (no -m)
        validate_run_overrides(overrides, multirun, None if multirun else composed)
        if composed and user_overrides(overrides) == overrides:  # one job, no hydra keys
            from weakpareto.campaign.runner import run_composed

            run_composed(composed[0])  # the config composed above: not composed again
            return
        from weakpareto.campaign.runner import hydra_run_entry

        # Hand over to Hydra (multirun launchers, e.g. joblib, work as usual).
        sys.argv = [sys.argv[0]] + (["-m"] if multirun else []) + overrides
        hydra_run_entry()
    elif sub == "report":
        _reject_flags(sub, flags)
        opts = _report_options(overrides)
        from weakpareto.campaign.paths import not_a_file, readable_dir, writable_dir

        readable_dir(opts["results_dir"], "results_dir")
        not_a_file(opts["html_dir"], "html_dir")  # before out_dir= is created
        writable_dir(opts["out_dir"], "out_dir")
        writable_dir(opts["html_dir"], "html_dir")
        from weakpareto.campaign.compact import compaction_hint

        hint = compaction_hint(opts["results_dir"])
        if hint:
            print(f"wp report: {hint}", file=sys.stderr)
        from weakpareto.reporting.render import render_all

        paths = render_all(opts["results_dir"], opts["out_dir"], html_dir=opts["html_dir"])
        if paths:
            _print("\n".join(str(p) for p in paths))
    elif sub == "discover":
        from weakpareto.user.discover_command import discover_command

        discover_command(args)
    elif sub == "kelvin":
        from weakpareto.user.kelvin_command import kelvin_command

        kelvin_command(args)
    elif sub == "status":
        _reject_flags(sub, flags, SWEEP_FLAGS)
        from weakpareto.campaign.launch_options import split_chunk_size
        from weakpareto.campaign.overrides import check_bootstrap_keys
        from weakpareto.campaign.status import status_command

        multirun = any(f in SWEEP_FLAGS for f in flags)
        rest = split_chunk_size(overrides)[1]
        check_bootstrap_keys(rest, multirun)
        status_command(rest, multirun)
        ignored = [o for o in overrides if o not in rest or o.lstrip("+~").startswith("hydra")]
        if ignored:  # accepted so that a wp run line can be pasted, but said so
            print(f"wp status: ignoring launcher option(s) {' '.join(ignored)}", file=sys.stderr)
    elif sub == "compact":
        _reject_flags(sub, flags)
        from weakpareto.campaign.compact import compact_command

        compact_command(overrides)
    elif sub == "bench":
        _reject_flags(sub, flags)
        from weakpareto.campaign.bench import bench_command
        from weakpareto.reporting.studies.registry import STUDY_BY_STEM, write_study

        out_dir, tables = bench_command(overrides)
        for stem in tables:  # the study tables among them, rendered by the one writer
            if stem in STUDY_BY_STEM:
                write_study(stem, out_dir)
    else:
        raise UserInputError(f"unknown subcommand {sub!r}; valid: {', '.join(SUBCOMMANDS)}")


def main(argv: list[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        print(usage(), file=sys.stderr)
        raise SystemExit(2)
    sub, rest = argv[0], argv[1:]
    if sub in HELP_FLAGS or sub == "help":
        topic = rest[0] if sub == "help" and rest else None
        if topic is not None and topic not in HELP:
            fail(f"unknown subcommand {topic!r}; valid: {', '.join(SUBCOMMANDS)}")
        _print(HELP[topic]() if topic else usage())
        return
    if sub not in SUBCOMMANDS:
        fail(f"unknown subcommand {sub!r}; valid: {', '.join(SUBCOMMANDS)}")
    if _wants_help(sub, rest):
        _print(HELP[sub]())
        return
    try:
        dispatch(sub, rest)
    except UserInputError as err:
        fail(str(err))
    except KeyboardInterrupt as err:  # wp run says how many seeds finished (RunInterrupted)
        text = str(err) or "interrupted; completed results are saved, rerun to resume"
        print(f"wp: {text}", file=sys.stderr)
        raise SystemExit(130) from None


if __name__ == "__main__":  # pragma: no cover
    main()
