"""Help texts of the ``wp`` subcommands.

They need nothing beyond the standard library (group options are read from the installed
``conf/`` with :mod:`importlib.resources`), so ``wp --help`` and ``wp <subcommand> --help`` start
without loading scipy, pandas, matplotlib or Hydra (:mod:`weakpareto.cli` dispatches).
"""

from __future__ import annotations

import textwrap
from importlib import resources

#: Package holding the YAML configs (``conf/`` of the repository); see campaign.config.
CONFIG_PACKAGE = "weakpareto.conf"
GROUPS = ("benchmark", "noise_law", "method", "search", "selection", "experiment")

SUBCOMMANDS: dict[str, str] = {
    "generate": "generate a benchmark field: wp generate benchmark=fade noise=0.1 out=f.npz",
    "run": "discover per seed, print equations, write Parquet: wp run benchmark=fade noise=0.1",
    "report": "render the paper's LaTeX tables and the results page from Parquet: wp report",
    "discover": "discover an equation in your own data: wp discover data=f.npz out=r.json",
    "bench": "time the pipeline per stage and write results/bench/*.csv: wp bench",
    "status": "done/failed/missing seeds of a sweep: wp status -m <the wp run overrides>",
    "compact": "merge the small result files of each partition: wp compact results_dir=DIR",
    "kelvin": "fractional Kelvin creep fit of a record: wp kelvin data=c.csv load=1.11 out=r.json",
}

REPORT_OPTIONS = {
    "results_dir": "results/runs",
    "out_dir": "results/tables",
    "html_dir": "results/report",
}


def config_options(group: str) -> list[str]:
    """Names of the YAML options of a config group, read without importing omegaconf/Hydra."""
    d = resources.files(CONFIG_PACKAGE) / group
    return sorted(p.name[: -len(".yaml")] for p in d.iterdir() if p.name.endswith(".yaml"))


def _groups_block(indent: str = "  ") -> str:
    return "\n".join(
        textwrap.fill(
            f"{g}: {', '.join(config_options(g))}",
            width=100,
            initial_indent=indent,
            subsequent_indent=indent + "    ",
            break_on_hyphens=False,
        )
        for g in GROUPS
    )


def usage() -> str:
    lines = [
        "usage: wp <subcommand> [key=value ...]      (wp <subcommand> --help: its options)",
        "",
        "subcommands:",
        *(f"  {k:<9} {v}" for k, v in SUBCOMMANDS.items()),
        "",
        "run/generate options are Hydra overrides: benchmark= noise= noise_law= method= seed=",
        "  seeds= workers= results_dir= overwrite= progress= search.<key>= selection.<key>= "
        "(-m: sweeps)",
        "config groups and their options:",
        _groups_block(),
    ]
    return "\n".join(lines)


def generate_help() -> str:
    return "\n".join(
        [
            "usage: wp generate benchmark=<name> out=<file.npz> [noise=<fraction>] "
            "[noise_law=<law>] [seed=<int>]",
            "",
            "Writes u, t, x (and y for 2-D benchmarks) and the truth metadata to out; prints a "
            "summary.",
            "options (default):",
            "  benchmark=<name>       benchmark field to generate (fade)",
            "  out=<file.npz>         output file, must end in .npz (required)",
            "  noise=<fraction>       noise level, 0.1 means 10 % (0.0)",
            "  noise_law=<law>        multiplicative | additive_gaussian (multiplicative)",
            "  seed=<int>             noise seed; the same realisation as `wp run seed=` (0)",
            "  benchmark.<key>=<v>    any benchmark constant, e.g. benchmark.grid.nt=300",
            "",
            "benchmarks: " + ", ".join(config_options("benchmark")),
            "noise laws: " + ", ".join(config_options("noise_law")),
        ]
    )


def run_help() -> str:
    return "\n".join(
        [
            "usage: wp run benchmark=<name> noise=<fraction> [key=value ...]",
            "       wp run -m key=a,b ... [hydra/launcher=joblib]   (sweep: one job per "
            "combination)",
            "",
            "Discovery per seed: prints the equations beside the truth and a summary, writes "
            "Parquet.",
            "options (default):",
            "  benchmark=<name>       benchmark (fade)",
            "  noise=<fraction>       noise level, 0.1 means 10 % (0.0)",
            "  noise_law=<law>        multiplicative | additive_gaussian (multiplicative)",
            "  method=<name>          discovery method, a complete conf/method config with its own",
            "                         selector (weak_pareto)",
            "  selection=<name>       support-size selector, replaces the method's own: "
            + " | ".join(config_options("selection"))
            + " (the method's: elbow for weak_pareto)",
            "  domain=<d>             periodic | bounded (a window of a larger system) | auto (by",
            "                         the data's edges) (the benchmark's: periodic)",
            "  seed=<int>             first seed (0)",
            "  seeds=<n>              number of consecutive seeds from seed= (5)",
            "  workers=<n>            parallel seeds, one BLAS thread each; the results are the "
            "same",
            "                         for any count (1)",
            "  results_dir=<dir>      where the Parquet results go (results/runs)",
            "  overwrite=true|false   re-run finished seeds; otherwise a seed finished with the "
            "same config",
            "                         and the same code is skipped, so an interrupted run "
            "resumes (failed",
            "                         seeds and results of other code run again; seeds another "
            "`wp run`",
            "                         on the same results_dir is computing are left to it) (false)",
            "  progress=true|false    progress bars (true)",
            "  variant=<label>        label stored with every row (default)",
            "  uncertainty=bootstrap  block bootstrap of each seed's weak equations: 90 % "
            "intervals for",
            "                         alpha, orders and coefficients, inclusion, S_beta and "
            "warnings in the",
            "                         Parquet row (raw, calibrated); prints calibrated (null: off)",
            "  n_boot=<n>             resamples of uncertainty=bootstrap (200)",
            "  level=<p>              interval level of uncertainty=bootstrap (0.9)",
            "  search.<key>=<v>       any constant of conf/search/paper.yaml, e.g. "
            "search.maxiter=30",
            "  selection.<key>=<v>    any constant of conf/selection/elbow.yaml, e.g. "
            "selection.margin=0.1",
            "  benchmark.<key>=<v>    any benchmark constant, e.g. "
            "benchmark.library.alpha_range=[0.6,1.05]",
            "  max_terms= margin= operator= alpha_range= beta_range= powers= ...  wp discover's "
            "names of",
            "                         these settings, e.g. max_terms=3 is search.c_max=3 (same "
            "config)",
            "  -m +experiment=<table> a paper table's settings and sweep, e.g. wp run -m "
            "+experiment=main;",
            "                         the table's name is the experiment label of its rows "
            "(adhoc); paper",
            "                         tables use the paper's DE (search.updating=immediate) and "
            "seeds 0-4",
            "  -m hydra/launcher=joblib   run sweep jobs in parallel (pip install '.[joblib]')",
            "  -m hydra/launcher=slurm|local  sweep jobs through submitit (pip install "
            "'.[cluster]'), each",
            "                         running chunk_size=<n> (20) seeds into "
            "<results_dir>/dataset/; a rerun",
            "                         submits only failed and missing seeds (wp status -m ...)",
            "",
            "A numerical failure of a seed (singular fit, no feasible candidate, non-finite "
            "objective) is",
            "stored as a failed row with its reason; a programming error stops the run with "
            "its traceback",
            "(exit code 1).",
            "",
            "config groups and their options:",
            _groups_block(),
        ]
    )


def report_help() -> str:
    return (
        "usage: wp report [results_dir=results/runs] [out_dir=results/tables] "
        "[html_dir=results/report]\n"
        "LaTeX tables, paper-vs-ours files and the robustness figure from the Parquet results;\n"
        "html_dir=: the results page index.html (static: open it from disk, no server).\n"
        "Also re-renders every study table under results/ (independent suite, model class,\n"
        "measurement, uncertainty, tab_beyond, bench) from its CSV and sidecar JSON.\n"
        "Prints (stderr) how many runs behind each table failed — listed in its paper-vs-ours "
        "file —\nand how many compared cells are the same as the paper's at its precision."
    )


def discover_help() -> str:
    # Static so that `wp discover --help` does not import the estimator (scipy); the keys and
    # defaults are checked against weakpareto.user.discover_command by tests/test_cli.py.
    return "\n".join(
        [
            "usage: wp discover data=<file.npz|.mat|.csv|.parquet> out=<result.json> "
            "[key=value ...]",
            "",
            "Discovers an equation in your own field and writes the result JSON atomically.",
            "options (default):",
            "  data=<file>              .npz/.mat with arrays u (nt x nx), t (nt), x (nx), or a "
            ".csv/.parquet",
            "                           long table with columns t, x, u (required); 2-D: also y "
            "(ny) with",
            "                           u (nt x nx x ny), or a column y; linear terms only, "
            "powers=[0];",
            "                           several experiments of one equation: data=[a.npz,b.npz] "
            "or a column experiment",
            "  out=<result.json>        result file, must end in .json (required)",
            "  period=<L>               spatial period (nx*dx); give (nx-1)*dx for a grid that "
            "includes",
            "                           the endpoint",
            "  period_y=<L>             2-D only: the y period (ny*dy)",
            "  plot=<front.png>         also draw the Pareto front (validation error per support "
            "size,",
            "                           selected model and search stop marked; .png/.pdf/.svg)",
            "  report=<fit.html>        also write one self-contained HTML page of the fit: data,",
            "                           front, equation, weak residual map, intervals, warnings",
            "  forcing=<file|key>       known forcing f of u's shape (1-D): a .npz/.npy/.mat file "
            "or an",
            "                           array of the data file; [a.npz,b] for several; each a "
            "term c f",
            "  forcing_coef=<c>         known coefficient (one forcing) or [name:c,...]; the "
            "others are",
            "                           estimated, and dropped when the data do not need them",
            "  u_key=<name>             variable of u in a .npz/.mat (u, usol, U or uu)",
            "  t_key=<name>             variable of t (t or tt)",
            "  x_key=<name>             variable of x (x or xx)",
            "  y_key=<name>             2-D: variable of y (y or yy)",
            "  operator=null            not given: each term's family chosen by the data (auto)",
            "                           where implemented (one-family options: the family an auto",
            "                           fit picks), else directional with an info line;",
            "                           auto; directional ((ik)^beta) or riesz (-|k|^beta): one",
            "                           family; tempered, tempered_riesz (truncated power laws);",
            "                           a+b mixes families",
            "  tempering=null           lambda of the tempered families (1/x units); null: "
            "estimated",
            "  alpha_range=[0.5,1.5]    time-order search interval inside (0, 2)",
            "  beta_range=[0.5,2.0]     space-order interval, lo >= 0 (lo = 0 admits the term u)",
            "  powers=[0,1,2]           powers p of the terms u^p X_beta u",
            "  power_mode=auto          positive: max(u,0)^p | raw: u^p | auto: positive if u >= 0",
            "  max_terms=4              largest support size searched (1-8)",
            "  test_functions=gaussian  gaussian | fourier (1-D only)",
            "  test_counts=null         [Kt,Kx] (2-D: [Kt,Kx,Ky]); null: the paper's rule",
            "  seed=0                   train/validation split and search seed",
            "  method=weak_pareto_exact  weak_pareto_exact (ours: exact weak time derivative,",
            "                           noise-aware scoring, gain selector on refined models) |",
            "                           weak_pareto_robust (ours: the same on the paper's L1 time",
            "                           target, no noise scoring) | weak_pareto (the paper's "
            "Algorithm 1)",
            "  domain=auto              periodic | bounded (a window of a larger system) | auto: "
            "periodic",
            "                           when the edges are consistent with periodicity",
            "  popsize=7                DE population multiplier",
            "  maxiter=24               DE generations",
            "  updating=deferred        DE updating: deferred | immediate",
            "  ridge=0.001              ridge of the least-squares fits",
            "  selection=null           gain | elbow | aic | bic; null: the method's own",
            "  margin=0.15              margin on log10 E_val (per added term for gain)",
            "  polish=true              polish the selected orders and refit",
            "  uncertainty=null         null | bootstrap (ours): intervals for alpha, orders and "
            "coefficients,",
            "                           inclusion frequencies, from block resamples of the weak "
            "equations",
            "  n_boot=200               bootstrap resamples (uncertainty=bootstrap)",
            "  level=0.9                level of the bootstrap intervals",
            "  history=none             none: the record starts at the onset | unknown: it starts",
            "                           later; the missing memory is modelled "
            "(method=weak_pareto_exact)",
            "  noise_kind=measurement   measurement | intrinsic: fluctuations that obey the "
            "dynamics",
            "                           (densities of moving particles; alpha = 1, linear terms)",
            "  refit=auto               auto | weak | trajectory: a linear model on a periodic "
            "1-D field refitted",
            "                           to the samples' trajectory per Fourier mode (auto: where "
            "defined;",
            "                           with history=unknown: an onset before the record fitted "
            "too)",
            "example: wp discover data=f.npz operator=directional alpha_range=[0.6,1.05] "
            "beta_range=[0.5,2.0] out=r.json",
        ]
    )


def bench_help() -> str:
    return (
        "usage: wp bench [benchmarks=fade,burgers,rd_space,rd_timespace] [repeats=3] "
        "[scaling=true]\n"
        "                [uncertainty=true] [startup=true] [large=2400x4096,...] "
        "[large_method=weak_pareto_exact]\n"
        "                [out_dir=results/bench] [overrides='search.maxiter=24;...']\n"
        "Per-stage timings (median of repeats, one BLAS thread) in the fast mode and the paper's "
        "optimiser\nmode (immediate updating), peak memory, scaling in K and grid size, the "
        "cost of uncertainty=bootstrap,\ncompared with the published implementation's time per "
        "extra seed, the whole-process start-up of wp commands, and with large= the time and peak "
        "memory\nof one fit of a large field per size (a fresh process each); writes "
        "out_dir/*.csv."
    )


def kelvin_help() -> str:
    # Static (no numpy/scipy import); tests/user/test_kelvin_command.py checks it equals
    # weakpareto.user.kelvin_command.USAGE.
    return (
        "usage: wp kelvin data=<creep.csv|.parquet|.npz|.mat> load=<stress> out=<result.json> "
        "[key=value ...]\n"
        "\n"
        "Fits the fractional Kelvin creep model D_t^alpha eps = sigma/eta_K - (E/eta_K) eps in "
        "its\n"
        "integral form eps(t) - eps(0) = a0 t^alpha/Gamma(alpha+1) + a1 I^alpha eps(t) (no "
        "pointwise\n"
        "derivative; PCHIP interpolation for the quadrature only); reports alpha, eta_K, E,\n"
        "t_ret = (eta_K/E)^(1/alpha) and the relative integral residual.\n"
        "options (default):\n"
        "  data=<file>             table with columns t, strain (.csv/.parquet), or arrays t, "
        "strain\n"
        "                          (.npz/.mat); repeated times are averaged (required)\n"
        "  load=<stress>           the constant applied stress, > 0, e.g. load=1.11 (MPa) "
        "(required)\n"
        "  out=<result.json>       result file, must end in .json (required)\n"
        "  alpha_range=[0.1,0.9]   bounded search interval of alpha inside (0, 1)\n"
        "  recipe=ours             ours: residual at the observed times, product-trapezoid "
        "integral |\n"
        "                          paper: uniform 400-point grid, left-endpoint rule\n"
        "                          (docs/method/kelvin.md#paper-recipe)\n"
        "  t_key=t                 name of the time column/array\n"
        "  strain_key=strain       name of the strain column/array\n"
        "example: wp kelvin data=creep.csv load=1.11 out=r.json"
    )


def status_help() -> str:
    return (
        "usage: wp status [-m] <the overrides of a wp run>\n"
        "Per sweep point, the seeds done (ok row), failed (failed row) and missing (no row of "
        "this\nconfig and code) in results_dir; rerunning the same wp run computes exactly the "
        "failed and\nmissing seeds. Launcher options (hydra/launcher=, hydra.launcher.*, "
        "chunk_size=) are ignored."
    )


def compact_help() -> str:
    return (
        "usage: wp compact [results_dir=results/runs] [legacy=false]\n"
        "Merges the files of each partition of the results dataset (<results_dir>/dataset/) "
        "into one,\nkeeping the latest row per (config, code, seed); safe while jobs write. "
        "legacy=true first\nmoves per-seed files of plain `wp run` (<results_dir>/<benchmark>/) "
        "into the dataset."
    )


HELP = {
    "generate": generate_help,
    "run": run_help,
    "report": report_help,
    "discover": discover_help,
    "bench": bench_help,
    "status": status_help,
    "compact": compact_help,
    "kelvin": kelvin_help,
}
