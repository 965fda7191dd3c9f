"""The `wp` command: installed script from any directory, generate, run, bad input → exit 2.

Also: help paths import nothing heavy, and every option the README documents is in the help.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from weakpareto import cli
from weakpareto.cli import main

README = Path(__file__).parents[1] / "README.md"
#: Modules the help paths must not load (each costs 0.1-0.4 s of start-up).
HEAVY = ("scipy.optimize", "pandas", "matplotlib", "hydra", "omegaconf")

WP = Path(sys.executable).with_name("wp")


def run_wp(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    return subprocess.run(
        [str(WP), *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=300
    )


def expect_exit2(args: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("wp: error:") and "\n" not in err and "Traceback" not in err
    return err


def test_help_lists_subcommands(tmp_path):
    out = run_wp(["--help"], tmp_path)
    assert out.returncode == 0
    for sub in ("generate", "run", "report", "discover", "bench"):
        assert sub in out.stdout


def test_no_arguments_prints_usage_to_stderr_and_exits_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main([])
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("usage: wp <subcommand>")
    assert all(sub in err for sub in cli.SUBCOMMANDS)
    installed = run_wp([], tmp_path)
    assert installed.returncode == 2 and installed.stdout == ""
    assert installed.stderr.startswith("usage: wp <subcommand>")


def test_unknown_subcommand_installed_is_one_line(tmp_path):
    out = run_wp(["fly", "benchmark=fade"], tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "'fly'" in out.stderr and "generate" in out.stderr


@pytest.mark.parametrize(
    "args, needle",
    [
        (["help", "fly"], "'fly'"),
        (["run", "--fast", "benchmark=fade"], "--fast"),
        (["generate", "-x", "out=f.npz"], "-x"),
        (["report", "color=red"], "color"),
        (["report", "tables"], "key=value"),
        (["bench", "--quick"], "--quick"),
    ],
)
def test_bad_flags_and_options(args, needle, capsys):
    assert needle in expect_exit2(args, capsys)


def _modules_after(argv: list[str]) -> tuple[list[str], str]:
    """Heavy modules loaded by a fresh interpreter that imports the CLI and runs ``argv``."""
    code = (
        "import json, sys\n"
        f"sys.argv = ['wp', *{argv!r}]\n"
        "import weakpareto.cli as cli\n"
        "if len(sys.argv) > 1:\n"
        "    try:\n"
        "        cli.main()\n"
        "    except SystemExit as exc:\n"
        "        assert exc.code in (None, 0), exc.code\n"
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    *text, last = out.stdout.rstrip("\n").split("\n")
    return json.loads(last), "\n".join(text)


@pytest.mark.parametrize(
    "argv",
    [
        [],  # plain `import weakpareto.cli`
        ["--help"],
        ["help", "run"],
        ["run", "--help"],
        ["run", "-m", "benchmark=fade,burgers", "-h"],
        ["discover", "--help"],
        ["generate", "--help"],
        ["report", "--help"],
        ["bench", "--help"],
    ],
)
def test_help_paths_import_nothing_heavy(argv):
    loaded, text = _modules_after(argv)
    assert loaded == []
    if argv:
        assert text.startswith("usage: wp")


def _code_spans(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def _keys(snippets: list[str]) -> set[str]:
    """``key`` of every ``key=value`` token (``hydra/launcher=``, ``search.maxiter=`` too)."""
    found: set[str] = set()
    for snip in snippets:
        found.update(re.findall(r"(?:^|\s)\+?([a-z_][a-z0-9_./]*)=", snip))
    return found


def readme_documented_keys() -> dict[str, set[str]]:
    """The ``key=`` options the README and the guides document for wp generate / run / discover:
    the README's command table and shell lines, docs/cluster.md's ``wp run`` options and
    docs/user-guide.md's options table."""
    docs = README.parent / "docs"
    readme = README.read_text(encoding="utf-8")
    cluster = (docs / "cluster.md").read_text(encoding="utf-8")
    guide = (docs / "user-guide.md").read_text(encoding="utf-8")
    rows = [ln for ln in readme.splitlines() if ln.startswith("| `wp ")]
    run_options = cluster.split("## `wp run` options", 1)[1].split("\n## ", 1)[0]
    options = guide.split("\n## Options", 1)[1].split("\n## ", 1)[0]
    table_keys = [ln.split("|")[1] for ln in options.splitlines() if ln.startswith("| `")]
    shell = [
        ln.strip()
        for text in (readme, cluster, guide)
        for ln in text.splitlines()
        if ln.strip().startswith("wp ")
    ]
    keys = {
        sub: _keys([s for r in rows if r.startswith(f"| `wp {sub}") for s in _code_spans(r)])
        | _keys([ln for ln in shell if ln.startswith(f"wp {sub} ")])
        for sub in ("generate", "run", "discover")
    }
    keys["run"] |= _keys(_code_spans(run_options))
    keys["discover"] |= _keys(_code_spans(" ".join(table_keys)))
    return keys


def test_readme_parser_finds_the_documented_options():
    keys = readme_documented_keys()
    assert {"benchmark", "noise", "seed", "out"} <= keys["generate"]
    assert {"seed", "seeds", "workers", "results_dir", "overwrite", "method"} <= keys["run"]
    assert {"noise_law", "search.maxiter", "selection.margin", "hydra/launcher"} <= keys["run"]
    assert {"data", "out", "period_y", "test_counts", "margin", "polish"} <= keys["discover"]
    assert len(keys["discover"]) >= 20


@pytest.mark.parametrize("sub", ["generate", "run", "discover"])
def test_help_lists_every_option_the_readme_documents(sub):
    text = cli.HELP[sub]()
    missing = [
        k
        for k in sorted(readme_documented_keys()[sub])
        if not re.search(rf"(?<![\w.]){re.escape(k)}=", text)
    ]
    assert missing == [], f"wp {sub} --help lacks {missing}"


def _help_entries(text: str) -> dict[str, str]:
    """``key`` -> its option entry (continuation lines joined) of a help text."""
    entries: dict[str, str] = {}
    for block in re.split(r"\n(?=  \S)", text):
        m = re.match(r"  ([\w.]+)=", block)
        if m:
            entries[m.group(1)] = " ".join(block.split())
    return entries


def test_run_and_generate_help_show_the_config_defaults():
    from weakpareto.campaign.compose import compose_config

    cfg = compose_config([])
    defaults = {
        "benchmark": cfg.benchmark.name,
        "noise_law": cfg.noise_law.name,
        "method": cfg.method.name,
        **{k: cfg[k] for k in ("noise", "seed", "seeds", "workers", "results_dir")},
        **{k: str(cfg[k]).lower() for k in ("overwrite", "progress")},
    }
    for sub, keys in (
        ("run", list(defaults)),
        ("generate", ["benchmark", "noise", "noise_law", "seed"]),
    ):
        entries = _help_entries(cli.HELP[sub]())
        for key in keys:
            assert entries[key].endswith(f"({defaults[key]})"), (sub, entries[key])


def test_discover_help_matches_the_discover_keys_and_defaults():
    from weakpareto.user import discover_command as dc

    entries = _help_entries(cli.discover_help())
    assert sorted(entries) == sorted(dc.valid_keys())
    shown = re.findall(r"\[(\w+)=(\[[^\]]*\]|[^\]\s]*)\]", dc.usage())
    assert len(shown) >= len(dc.valid_keys()) - 2
    for key, value in shown:
        if not value.startswith("<"):  # placeholders such as period=<L>
            assert entries[key].startswith(f"{key}={value} "), entries[key]


def test_bench_and_report_help_list_their_options():
    from weakpareto.campaign.bench import OPTIONS

    for key, default in OPTIONS.items():
        if default:
            assert f"[{key}={default}]" in cli.bench_help()
        else:
            assert f"[{key}=" in cli.bench_help()
    for key, default in cli.REPORT_OPTIONS.items():
        assert f"[{key}={default}]" in cli.report_help()


def test_installed_generate_from_temp_dir(tmp_path):
    out = run_wp(["generate", "benchmark=fade", "noise=0.1", "seed=3", "out=f.npz"], tmp_path)
    assert out.returncode == 0, out.stderr
    assert "FADE" in out.stdout and "D_t^0.8000 u" in out.stdout and "150 x 120" in out.stdout
    data = np.load(tmp_path / "f.npz")
    clean = np.loadtxt(Path(__file__).parents[1] / "weakpareto" / "data" / "fade_tsfade_fft.dat")
    zeta = np.random.default_rng(3).uniform(-1, 1, clean.shape)  # the shared noise realisation
    np.testing.assert_allclose(data["u"], clean * (1 + 0.1 * zeta), rtol=1e-13)
    np.testing.assert_allclose(data["t"], 0.1 * np.arange(150))
    np.testing.assert_allclose(data["x"], 0.25 * np.arange(120))
    meta = json.loads(str(data["meta"]))
    assert meta["truth"]["alpha"] == 0.8 and len(meta["truth"]["terms"]) == 2
    assert not [p for p in tmp_path.iterdir() if p.name not in ("f.npz",)]  # no Hydra litter


def test_non_editable_install_finds_configs(tmp_path):
    """A regular wheel install carries conf/ (as weakpareto.conf) and the data files."""
    root = Path(__file__).parents[1]
    wheel_dir, site = tmp_path / "wheel", tmp_path / "site"
    # the environment's setuptools builds the wheel when it has one (a build-isolation venv
    # costs ~10 s of the suite); the check is what the wheel holds, not the build's resolution
    isolation = [] if importlib.util.find_spec("setuptools") is None else ["--no-build-isolation"]
    command = ["pip", "wheel", "-v", "--no-deps", *isolation, "-w", str(wheel_dir), str(root)]
    build = subprocess.run(
        [sys.executable, "-m", *command],
        check=True,
        capture_output=True,
        text=True,
    )
    # every package and data folder is declared: setuptools has nothing to warn about
    log = build.stdout + build.stderr
    assert not re.findall(r"absent from|BuildBackendWarning|SetuptoolsDeprecationWarning", log)
    wheel = next(wheel_dir.glob("weakpareto-*.whl"))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(site),
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    code = "import sys; from weakpareto.cli import main; main(sys.argv[1:])"
    env = {**os.environ, "PYTHONPATH": str(site)}
    out = subprocess.run(
        [sys.executable, "-c", code, "generate", "benchmark=burgers", "out=b.npz"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    )
    assert out.returncode == 0, out.stderr
    assert (
        str(site)
        in subprocess.run(
            [sys.executable, "-c", "import weakpareto; print(weakpareto.__file__)"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env=env,
        ).stdout
    )
    assert np.load(tmp_path / "b.npz")["u"].shape == (150, 120)
    tiny = ["search.maxiter=1", "search.popsize=1", "search.c_max=1", "search.test_budget=smoke"]
    out = subprocess.run(
        [sys.executable, "-c", code, "run", "-m", "noise=0,0.1", "seeds=1", "results_dir=r", *tiny],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    )
    assert out.returncode == 0, out.stderr
    assert len(list((tmp_path / "r" / "fade").glob("*.front.parquet"))) == 2


def test_packaging_declares_every_folder_that_ships_files():
    """pyproject lists each folder with data (conf/<group>/, data/, reporting/paper/) as a
    package with patterns matching all its files; a new folder must be added there."""
    import tomllib

    root = Path(__file__).parents[1]
    tool = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    packages, data = set(tool["packages"]), tool["package-data"]
    mapping = {"weakpareto.conf": root / "conf", "weakpareto": root / "weakpareto"}
    for top, base in mapping.items():
        for folder in [base, *(d for d in base.rglob("*") if d.is_dir())]:
            if folder.name == "__pycache__" or (top == "weakpareto" and folder.name == "conf"):
                continue
            files = [f for f in folder.iterdir() if f.is_file() and f.suffix not in (".py", ".pyc")]
            rel = folder.relative_to(base).parts
            name = ".".join([top, *rel])
            if not files and not (folder / "__init__.py").exists():
                continue
            assert name in packages, f"{folder} ships files but {name} is not a package"
            for f in files:
                assert any(f.match(pat) for pat in data.get(name, [])), f"{f} not in package-data"


def test_output_into_a_closed_pipe_is_quiet(tmp_path):
    """`wp run ... | head`: the reader leaves; no traceback, exit 141 (128 + SIGPIPE)."""
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    tiny = ["search.maxiter=1", "search.popsize=1", "search.c_max=1", "search.test_budget=smoke"]
    args = [str(WP), "run", "seeds=1", "progress=false", f"results_dir={tmp_path}", *tiny]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # nobody reads the summary
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141 and "Traceback" not in err, err


#: Every bad input tried on `wp run` / `wp generate` / `wp report` (the README's table): each is
#: one line on stderr, exit code 2, nothing computed and no file left behind. ``FILE`` is an
#: existing plain file, ``DIR.npz`` an existing directory.
BAD_INPUT: list[tuple[str, list[str], str]] = [
    ("run", ["benchmark=nope"], "valid benchmark options: ade, burgers"),
    ("run", ["method=magic"], "weak_pareto"),
    ("run", ["noise=-0.1"], "noise"),
    ("run", ["noise=abc"], "noise"),
    ("run", ["noise=nan"], "noise"),
    ("run", ["noise_law=pink"], "multiplicative"),
    ("run", ["seed=-1"], "seed"),
    ("run", ["seed=1.5"], "seed"),
    ("run", ["seeds=0"], "seeds"),
    ("run", ["seeds=-2"], "seeds"),
    ("run", ["seeds=1.5"], "seeds"),
    ("run", ["seed=4294967295"], "2**32"),
    ("run", ["seeds=5000000000"], "2**32"),
    ("run", ["workers=0"], "workers"),
    ("run", ["workers=abc"], "workers"),
    ("run", ["workers=100000"], "workers"),
    ("run", ["overwrite=maybe"], "true or false"),
    ("run", ["progress=yes"], "true or false"),
    ("run", ["nosuchkey=1"], "nosuchkey"),
    ("run", ["+foo=1"], "unknown key foo"),
    ("run", ["++search.foo=1"], "unknown key search.foo"),
    ("run", ["~search.ridge"], "removed"),
    ("run", ["experiment=foo"], "+experiment"),
    ("run", ["noise=[0,"], "noise"),
    ("run", ["seeds=${nope}"], "nope"),
    ("run", ["selection.margin=abc"], "selection.margin"),
    ("run", ["selection.margin=nan"], "selection.margin"),
    ("run", ["selection.margin=-0.1"], "selection.margin"),
    ("run", ["selection.rule=best"], "elbow"),
    ("run", ["search.updating=fast"], "deferred"),
    ("run", ["search.maxiter=0"], "search.maxiter"),
    ("run", ["search.popsize=2.5"], "search.popsize"),
    ("run", ["search.test_counts=[10]"], "K_t"),
    ("run", ["search.vectorized=true", "search.updating=immediate"], "deferred"),
    ("run", ["benchmark.library.alpha_range=[1.0,0.5]"], "alpha_range"),
    ("run", ["benchmark.library.alpha_range=[0.5,2.5]"], "(0, 2)"),
    ("run", ["benchmark.library.alpha_range=[0.9992,0.9998]"], "no temporal branch"),
    ("run", ["benchmark.library.beta_range=[2.0,0.5]"], "beta_range"),
    ("run", ["benchmark.library.powers=[0,-1]"], "powers"),
    ("run", ["benchmark=twod_a", "method=strong_pareto"], "2-D"),
    ("run", ["benchmark=twod_a", "benchmark.library.powers=[0,1]"], "2-D"),
    ("run", ["results_dir=FILE"], "is a file"),
    ("run", ["results_dir=FILE/sub"], "cannot create"),
    ("run", ["results_dir=/proc/nope"], "cannot create"),
    ("run", ["-m", "noise=0,0.1,-1"], "noise"),
    ("run", ["--fast"], "--fast"),
    ("run", ["benchmark=burgers", "benchmark=fade"], "benchmark= is given twice"),
    ("run", ["out=f.npz"], "not read by wp run"),
    ("run", ["n_boot=50"], "read only with uncertainty=bootstrap"),
    ("generate", ["benchmark=nope"], "fade"),
    ("generate", ["noise=-0.1"], "noise"),
    ("generate", ["noise=nan"], "noise"),
    ("generate", ["noise_law=pink"], "multiplicative"),
    ("generate", ["seed=abc"], "seed"),
    ("generate", ["seed=1.5"], "seed"),
    ("generate", ["out=f.txt"], ".npz"),
    ("generate", ["out=/nonexistent/dir/f.npz"], "does not exist"),
    ("generate", ["out=DIR.npz"], "is a directory"),
    ("generate", ["out=/proc/f.npz"], "not writable"),
    ("generate", ["nosuchkey=1"], "nosuchkey"),
    ("generate", ["+foo=1"], "unknown key foo"),
    ("generate", ["benchmark.grid.nt=abc"], "benchmark.grid.nt"),
    ("generate", ["-x"], "-x"),
    ("generate", ["seeds=3"], "not read by wp generate"),
    ("generate", ["noise=1e308"], "<= 10"),
    ("report", ["color=red"], "color"),
    ("report", ["tables"], "key=value"),
    ("report", ["results_dir=nope"], "does not exist"),
    ("report", ["results_dir=FILE"], "is a file"),
    ("report", ["out_dir=FILE"], "is a file"),
    ("report", ["out_dir=/proc/nope"], "cannot create"),
    ("report", ["html_dir=FILE"], "is a file"),
]
BASE = {
    "run": ["benchmark=fade", "results_dir=res", "seeds=2", "progress=false"],
    "generate": ["benchmark=fade", "out=f.npz"],
    "report": ["results_dir=runs", "out_dir=tables"],
}


def _bad_input_dir(tmp_path: Path) -> Path:
    (tmp_path / "FILE").write_text("a file, not a directory\n")
    (tmp_path / "DIR.npz").mkdir()
    (tmp_path / "runs").mkdir()
    return tmp_path


def _hint(err: str) -> str | None:
    """The ``key=value`` an error message suggests (``e.g. key=value``), if any."""
    m = re.search(r"e\.g\. (\S+=\S*?)[;,)]?(?:\s|$)", err)
    return m.group(1) if m else None


def _key(arg: str) -> str:
    return arg.lstrip("+~").split("=", 1)[0]


@pytest.mark.parametrize("sub, args, needle", BAD_INPUT)
def test_bad_input_is_one_line_exit_2_and_its_hint_is_accepted(
    sub, args, needle, tmp_path, capsys, monkeypatch
):
    """One line, exit 2, no file left; the value the message suggests is itself accepted."""
    from weakpareto.campaign import runner
    from weakpareto.campaign.compose import validate_run_overrides
    from weakpareto.campaign.generate import generate_command

    monkeypatch.chdir(_bad_input_dir(tmp_path))
    monkeypatch.setattr(runner, "run_config", lambda cfg: pytest.fail("computed"))
    before = sorted(p.name for p in tmp_path.rglob("*"))
    flags = [a for a in args if a.startswith("-") and not a.startswith("--") and a != "-x"]
    given = [a for a in args if a not in flags]
    base = [a for a in BASE[sub] if _key(a) not in {_key(g) for g in given}]  # a key once
    err = expect_exit2([sub, *flags, *base, *given], capsys)
    assert needle in err, err
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # nothing left behind
    hint = _hint(err)
    if hint is None:
        return
    fixed = [a for a in [*base, *given] if _key(a) != _key(hint)] + [hint]
    if sub == "run":
        validate_run_overrides(fixed, multirun=bool(flags))
    elif sub == "generate":
        generate_command(fixed)


def test_bad_input_table_covers_every_validation_path():
    """The table above exercises every kind of check (compose, schema, run, path, flags)."""
    subs = {sub for sub, _, _ in BAD_INPUT}
    assert subs == {"run", "generate", "report"} and len(BAD_INPUT) >= 60


def test_unknown_subcommand(capsys):
    assert "generate" in expect_exit2(["fly"], capsys)


def test_sweep_points_are_all_validated(tmp_path, capsys):
    """A bad value anywhere in a -m sweep is rejected before any job runs."""
    err = expect_exit2(
        ["run", "-m", "benchmark=fade", "noise=0,0.1,-1", f"results_dir={tmp_path}"], capsys
    )
    assert "noise" in err
    assert not any(tmp_path.rglob("*.parquet"))


def test_multirun_sweep_writes_one_result_per_point(tmp_path):
    out = run_wp(
        [
            "run",
            "-m",
            "benchmark=fade",
            "noise=0,0.05",
            "seeds=1",
            "search.popsize=4",
            "search.maxiter=4",
            "progress=false",
            f"results_dir={tmp_path / 'r'}",
        ],
        tmp_path,
    )
    assert out.returncode == 0, out.stderr
    files = sorted(
        p.name
        for p in (tmp_path / "r" / "fade").glob("*.parquet")
        if not p.name.endswith(".front.parquet")
    )
    assert len(files) == 2 and "__0__" in files[0] + files[1] and "__0.05__" in "".join(files)
    # Hydra's sweep record goes under the results directory, nothing into the current one
    assert [p.name for p in tmp_path.iterdir()] == ["r"]
    (record,) = (tmp_path / "r" / ".multirun").glob("*/multirun.yaml")
    assert sorted(p.name for p in record.parent.iterdir()) == ["multirun.yaml"]


def test_multirun_with_joblib_launcher(tmp_path):
    pytest.importorskip("hydra_plugins.hydra_joblib_launcher")  # optional extra `.[joblib]`
    out = run_wp(
        [
            "run",
            "-m",
            "hydra/launcher=joblib",
            "hydra.launcher.n_jobs=2",
            "benchmark=fade",
            "noise=0,0.05",
            "seeds=1",
            "search.popsize=4",
            "search.maxiter=4",
            "progress=false",
            f"results_dir={tmp_path / 'r'}",
        ],
        tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert len(list((tmp_path / "r" / "fade").glob("*.front.parquet"))) == 2
    assert [p.name for p in tmp_path.iterdir()] == ["r"]  # no outputs/multirun/ here


def test_generate_2d_uses_the_run_noise_realisation(tmp_path, monkeypatch):
    """`wp generate` and `wp run` share one noisy field; 2-D draws from default_rng(700 + seed)."""
    from weakpareto.benchmarks.generators import generate
    from weakpareto.benchmarks.noise import add_noise

    monkeypatch.chdir(tmp_path)
    main(["generate", "benchmark=twod_a", "noise=0.05", "seed=2", "out=a.npz"])
    u = np.load(tmp_path / "a.npz")["u"]
    field = generate("twod_a", 2)
    np.testing.assert_array_equal(u, add_noise(field.u, "multiplicative", 0.05, 702))
    assert u.shape == (90, 80, 80)


def test_light_option_lists_agree_with_the_campaign_config():
    """cli reads group options without omegaconf; they must equal campaign.config's."""
    from weakpareto.campaign import compose, config

    assert cli.GROUPS == compose.GROUPS and cli.CONFIG_PACKAGE == config.CONFIG_MODULE
    for group in cli.GROUPS:
        assert cli.config_options(group) == config.available_options(group) != []


def test_wp_bench_renders_its_study_tables_through_the_one_writer(tmp_path, monkeypatch):
    """``wp bench`` writes CSVs; the ones that are study tables (uncertainty_cost) get their
    markdown from reporting/studies, as ``wp report`` renders it; the others stay CSV only."""
    import pandas as pd

    import weakpareto.campaign.bench as bench_module
    from weakpareto.reporting.studies.bench import render_uncertainty_cost

    cost = pd.DataFrame(
        {"benchmark": ["fade"], "noise": [0.1], "n_boot": [100], "repeats": [1], "fit_s": [0.4]}
    ).assign(bootstrap_s=0.8, ratio=3.0, target=3.0)
    stages = pd.DataFrame({"benchmark": ["fade"], "seconds": [1.0]})

    def fake_bench(args):
        cost.to_csv(tmp_path / "uncertainty_cost.csv", index=False)
        stages.to_csv(tmp_path / "stages.csv", index=False)
        return tmp_path, {"stages": stages, "uncertainty_cost": cost}

    monkeypatch.setattr(bench_module, "bench_command", fake_bench)
    main(["bench", f"out_dir={tmp_path}"])
    md = (tmp_path / "uncertainty_cost.md").read_text()
    assert md == render_uncertainty_cost(tmp_path)[".md"]
    assert "| fade | 10 | 100 | 1 | 0.40 | 0.80 | 3.00 | <= 3 (met) |" in md
    assert not (tmp_path / "stages.md").exists()
