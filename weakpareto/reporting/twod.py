"""Paper tab:twod from the Parquet results: LaTeX in the paper's layout plus paper-vs-ours notes.

``table_twod(runs)`` aggregates the 2-D directional runs (``wp run -m +experiment=twod``:
benchmarks ``twod_a``/``twod_b``, multiplicative noise 0/1/5/10/20 %, seeds 0-4) into the
paper's table (Benchmark, Active terms, Support/direction, Operator; counts over all 25
noise-seed runs, failed runs count as not recovered) and a Markdown comparison that also lists
the paper's 20 % errors ``(e_alpha, e_beta^max, e_xi^max)`` from the text of Sec.
subsec:twod (mean ± sample SD over support/direction-recovered runs, spec §9/§12), a
per-noise breakdown and the per-seed runtime. :func:`write_twod` writes ``tab_twod.tex`` and
``tab_twod_paper_vs_ours.md``.

Our runs use the paper's method (branch-aware search with the exact integer branch, anchors,
stopping, trust-region polishing; see :mod:`weakpareto.library.weak_2d`), not the reference 2-D
script's shortcuts, so identical counts are expected but errors need not match digit by digit.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from weakpareto.campaign.store import select_cell
from weakpareto.evaluation.metrics import EMPTY, fmt_pm, mean_sd, summarise

LABEL = "tab:twod"
STEM = "tab_twod"

#: (benchmark name, row label as in the paper).
TWOD_BENCHMARKS: tuple[tuple[str, str], ...] = (
    ("twod_a", "A: anisotropic diffusion"),
    ("twod_b", "B: advection--diffusion"),
)
TWOD_NOISES: tuple[float, ...] = (0.0, 0.01, 0.05, 0.10, 0.20)
ERROR_NOISE = 0.20

#: Cells of paper tab:twod, verbatim.
PAPER_TWOD: dict[str, dict[str, str]] = {
    "twod_a": {"active": "2", "support": "$25/25$", "operator": "$25/25$"},
    "twod_b": {"active": "3", "support": "$25/25$", "operator": "$25/25$"},
}
#: 20 % errors from the paper's text after tab:twod: (mean, SD) strings as printed.
PAPER_TWOD_ERRORS: dict[str, dict[str, tuple[str, str]]] = {
    "twod_a": {
        "e_alpha": ("0.00081", "0.00054"),
        "e_beta_max": ("0.00217", "0.00140"),
        "e_xi_max": ("0.0111", "0.0023"),
    },
    "twod_b": {
        "e_alpha": ("0.00207", "0.00133"),
        "e_beta_max": ("0.01221", "0.00259"),
        "e_xi_max": ("0.04798", "0.00890"),
    },
}
ERROR_NAMES = (("e_alpha", "e_alpha"), ("e_beta_max", "e_beta^max"), ("e_xi_max", "e_xi^max"))

CAPTION = (
    r"Two-dimensional directional discovery over five seeds and five noise levels ($25$ runs "
    r"per benchmark). Support/direction recovery requires the correct support size and "
    r"direction multiset; complete operator recovery additionally requires all orders to "
    r"satisfy the protocol of Section~\ref{subsec:setup} (reproduction)."
)
HEADER = r"Benchmark & Active terms & Support/direction & Operator \\"


def select_twod(
    runs: pd.DataFrame,
    benchmark: str,
    noises: Sequence[float] = TWOD_NOISES,
    method: str = "weak_pareto",
    variant: str = "default",
    noise_law: str = "multiplicative",
) -> pd.DataFrame:
    """Runs of one benchmark over the noise sweep; one row per (noise, seed), latest wins."""
    if runs.empty:
        return runs
    cells = [select_cell(runs, benchmark, n, method, variant, noise_law) for n in noises]
    cells = [c for c in cells if not c.empty]
    if not cells:
        return runs.iloc[0:0]
    df = pd.concat(cells)
    return df.sort_values(["noise", "seed"], kind="stable")


def active_terms(benchmark: str) -> str:
    """Number of terms of the benchmark's true equation (from its config)."""
    try:
        from weakpareto.benchmarks.generators import load_benchmark

        return str(len(load_benchmark(benchmark).truth.terms))
    except Exception:  # config unavailable: fall back to the paper's value
        return PAPER_TWOD[benchmark]["active"]


def _count(df: pd.DataFrame, which: str) -> str:
    if df.empty:
        return EMPTY
    return f"${summarise(df).count(which)}$"


def _cells(df: pd.DataFrame, benchmark: str) -> dict[str, str]:
    return {
        "active": active_terms(benchmark),
        "support": _count(df, "support"),
        "operator": _count(df, "operator"),
    }


def _plain(cell: str) -> str:
    return cell.replace("$", "").replace(r"\pm", " ± ").strip()


def _pm_at(values: Sequence[float], decimals: int) -> str:
    ms = mean_sd(values)
    if ms is None:
        return EMPTY
    return f"{ms[0]:.{decimals}f} ± {ms[1]:.{decimals}f}"


def _runtime(df: pd.DataFrame) -> str:
    ms = mean_sd(df["runtime_s"]) if not df.empty else None
    return EMPTY if ms is None else f"{ms[0]:.1f} ± {ms[1]:.1f}"


def table_twod(runs: pd.DataFrame) -> tuple[str, str]:
    """``(latex, paper_vs_ours_markdown)`` of paper tab:twod from a runs DataFrame.

    ``runs`` is :func:`weakpareto.campaign.store.load_runs` output (other benchmarks are ignored).
    Benchmarks without runs get ``--`` cells and a note.
    """
    body, notes = [], []
    per_bench: dict[str, pd.DataFrame] = {}
    cells: dict[str, dict[str, str]] = {}
    for b, name in TWOD_BENCHMARKS:
        df = select_twod(runs, b)
        per_bench[b] = df
        n_expected = len(TWOD_NOISES) * 5
        if df.empty:
            notes.append(f"{LABEL}: no runs for {b}")
        elif len(df) != n_expected:
            notes.append(f"{LABEL}: {b} has {len(df)} runs, the paper's table has {n_expected}")
        cells[b] = _cells(df, b)
        body.append(
            f"{name} & {cells[b]['active']} & {cells[b]['support']} & {cells[b]['operator']} \\\\"
        )
    latex = "\n".join(
        [
            "% Generated by weakpareto.report_twod (paper tab:twod); needs booktabs.",
            r"\begin{table}[t]",
            r"\centering",
            rf"\caption{{{CAPTION}}}\label{{{LABEL}}}",
            r"\footnotesize",
            r"\setlength{\tabcolsep}{5pt}",
            r"\begin{tabular*}{\textwidth}{@{\extracolsep\fill}lccc}",
            r"\toprule",
            HEADER,
            r"\midrule",
            *body,
            r"\bottomrule",
            r"\end{tabular*}",
            r"\end{table}",
        ]
    )
    return latex + "\n", _markdown(per_bench, cells, notes)


def _markdown(
    per_bench: dict[str, pd.DataFrame], cells: dict[str, dict[str, str]], notes: list[str]
) -> str:
    lines = [f"# {LABEL}: paper vs ours", ""]
    lines += ["| Row | Column | Paper | Ours | Same at paper precision |", "|---|---|---|---|---|"]
    for b, name in TWOD_BENCHMARKS:
        for cid, cname in (
            ("active", "Active terms"),
            ("support", "Support/direction"),
            ("operator", "Operator"),
        ):
            p, o = PAPER_TWOD[b][cid], cells[b][cid]
            same = "yes" if p == o else "no"
            lines.append(f"| {name} | {cname} | {_plain(p)} | {_plain(o)} | {same} |")
    lines += [
        "",
        f"## Errors at {100 * ERROR_NOISE:g} % noise (paper text after tab:twod)",
        "",
        "Mean ± sample SD over support/direction-recovered seeds; ours at the paper's decimals.",
        "",
        "| Row | Error | Paper | Ours | Same at paper precision |",
        "|---|---|---|---|---|",
    ]
    for b, name in TWOD_BENCHMARKS:
        df = per_bench[b]
        df20 = df[np.isclose(df["noise"].astype(float), ERROR_NOISE)] if not df.empty else df
        sup = df20[df20["support_ok"].fillna(False).astype(bool)] if not df20.empty else df20
        for col, cname in ERROR_NAMES:
            pm, psd = PAPER_TWOD_ERRORS[b][col]
            dec = len(pm.split(".")[1])
            ours = _pm_at(sup[col].tolist() if not sup.empty else [], dec)
            paper = f"{pm} ± {psd}"
            lines.append(
                f"| {name} | {cname} | {paper} | {ours} | {'yes' if ours == paper else 'no'} |"
            )
    lines += [
        "",
        "## Per noise level (ours)",
        "",
        "| Benchmark | Noise % | Runs | Support/direction | Operator | e_alpha | e_beta^max | "
        "e_xi^max | E_fit | Runtime per seed (s) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for b, name in TWOD_BENCHMARKS:
        df = per_bench[b]
        for noise in TWOD_NOISES:
            d = df[np.isclose(df["noise"].astype(float), noise)] if not df.empty else df
            if d.empty:
                lines.append(f"| {name} | {100 * noise:g} | 0 | -- | -- | -- | -- | -- | -- | -- |")
                continue
            s = summarise(d)
            errs = [_plain(fmt_pm(s.conditioned[c], 5)) for c, _ in ERROR_NAMES]
            fit = _plain(fmt_pm(s.fit_error, 4))
            lines.append(
                f"| {name} | {100 * noise:g} | {s.n} | {s.count('support')} | "
                f"{s.count('operator')} | {' | '.join(errs)} | {fit} | {_runtime(d)} |"
            )
    all_runs = pd.concat([df for df in per_bench.values() if not df.empty] or [pd.DataFrame()])
    lines += [
        "",
        "Notes:",
        "- Method: the paper's Weak-Pareto unchanged from 1-D (subunit / exact integer / "
        "superunit branches searched separately, anchors, paper DE budget, plateau and "
        "selection-stability stopping, elbow, pruning, trust-region polishing of the full-row "
        "residual, exact refit), not the reference 2-D script's shortcuts (single alpha grid "
        "across 1, Sobol DE initialisation, no stopping, validation-objective polishing).",
        "- Elbow and stability stop as the paper words them (selection.stability=paper, "
        "selection.elbow_points=all): the "
        "elbow uses the best models of all evaluated sizes, and the stability stop needs the "
        "elbow below c and unchanged. With the 1-D code's dominance-filtered front and "
        "'elbow < c' stop, B's convex validation curve (knee at the last front point c = 3) "
        "would select c = 1.",
        "- Operator recovery also checks the temporal branch (paper protocol); the reference "
        "2-D scorer does not. E_fit is the full-row relative residual (1-D definition), not the "
        "reference 2-D script's variance-normalised MSE.",
    ]
    if not all_runs.empty:
        lines.append(f"- Runtime per seed over all 2-D runs: {_runtime(all_runs)} s.")
    lines += [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"


def has_twod_runs(runs: pd.DataFrame) -> bool:
    """True when ``runs`` contains at least one run of a 2-D benchmark."""
    if runs.empty:
        return False
    return bool(runs["benchmark"].isin([b for b, _ in TWOD_BENCHMARKS]).any())


def write_twod(runs: pd.DataFrame, out_dir: str | os.PathLike) -> list[Path]:
    """Write ``tab_twod.tex`` and ``tab_twod_paper_vs_ours.md``; nothing when no 2-D runs."""
    if not has_twod_runs(runs):
        return []
    latex, md = table_twod(runs)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in ((f"{STEM}.tex", latex), (f"{STEM}_paper_vs_ours.md", md)):
        path = out / name
        tmp = path.with_name(f".{name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
        paths.append(path)
    return paths
