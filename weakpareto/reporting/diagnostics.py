"""Paper tab:burgers, fig:burgers and tab:local-identifiability from the diagnostics CSVs.

``write_diagnostics(out_dir, diagnostics_dir)`` reads

* ``<diagnostics_dir>/burgers_margin.csv`` (``scripts/burgers_margin.py``) and writes
  ``tab_burgers.tex``, ``tab_burgers_paper_vs_ours.md`` and ``fig_burgers.png``/``.pdf``;
* ``<diagnostics_dir>/local_identifiability.csv`` (``scripts/local_identifiability.py``) and
  writes ``tab_local_identifiability.tex`` and ``tab_local_identifiability_paper_vs_ours.md``.

A missing (or unusable) CSV skips its outputs. LaTeX uses the paper's layout and number formats
with booktabs rules; every file is written atomically (:mod:`weakpareto.io`). The figure
uses matplotlib's Agg backend and needs no LaTeX.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import numpy as np
import pandas as pd

from weakpareto.evaluation.metrics import EMPTY, mean_sd
from weakpareto.io import atomic_path, write_text_atomic

BURGERS_CSV = "burgers_margin.csv"
LOCAL_CSV = "local_identifiability.csv"
BURGERS_STEM = "tab_burgers"
LOCAL_STEM = "tab_local_identifiability"
FIGURE_STEM = "fig_burgers"
FORMATS = ("png", "pdf")

# -- paper data (transcribed from weak_pareto.tex; cells verbatim) --------------------------------
BURGERS_LABEL = "tab:burgers"
BURGERS_TABLE_NOISES = (0.0, 0.10, 0.25)
BURGERS_ALL_NOISES = (0.0, 0.05, 0.10, 0.15, 0.20, 0.25)
PAPER_BURGERS: dict[str, dict[str, str]] = {
    "0": {"selected": "yes", "margin": r"$218.3\times$", "e_xi": "0.002"},
    "10": {"selected": "yes", "margin": r"$7.6\times$", "e_xi": "0.007"},
    "25": {"selected": "yes", "margin": r"$3.2\times$", "e_xi": "0.019"},
}
BURGERS_COLUMNS = (
    ("selected", "True structure selected"),
    ("margin", "Residual margin"),
    ("e_xi", "e_xi^max"),
)
BURGERS_CAPTION = (
    "Representative noise levels for nonlinear fractional Burgers. The residual margin is the "
    "smallest residual among the structures that do not match the ground truth, divided by the "
    r"true-structure residual; $e_\xi^{\max}$ is the relative coefficient error of the true "
    "structure (reproduction)."
)
BURGERS_HEADER = (
    r"Noise (\%) & True structure selected & Residual margin to closest competing structure "
    r"& $e_\xi^{\max}$ \\"
)

LOCAL_LABEL = "tab:local-identifiability"
LOCAL_ROWS = (  # (benchmark, LaTeX name, plain name, LaTeX operator)
    ("fade", "FADE", "FADE", "directional"),
    ("rd_space", r"Frac.\ RD (space)", "Frac. RD (space)", "Riesz"),
    ("rd_timespace", r"Frac.\ RD (time--space)", "Frac. RD (time-space)", "Riesz"),
    ("burgers", r"Frac.\ Burgers", "Frac. Burgers", "directional"),
)
LOCAL_TABLE_NOISES = (0.0, 0.10)
PAPER_LOCAL: dict[str, dict[str, str]] = {
    "fade": {"s_beta": "$0.502$", "e0": r"$0.0024\pm0.0054$", "e10": r"$0.0278\pm0.0173$"},
    "rd_space": {"s_beta": "$0.118$", "e0": r"$0.0013\pm0.0009$", "e10": r"$0.2117\pm0.0984$"},
    "rd_timespace": {
        "s_beta": "$0.096$",
        "e0": r"$0.0016\pm0.0010$",
        "e10": r"$0.4253\pm0.3641$",
    },
    "burgers": {
        "s_beta": "$1.610$",
        "e0": r"$(1.3\pm2.1){\times}10^{-5}$",
        "e10": r"$0.0027\pm0.0016$",
    },
}
LOCAL_COLUMNS = (
    ("operator", "Operator"),
    ("s_beta", "S_beta"),
    ("e0", "e_beta,fix (0%)"),
    ("e10", "e_beta,fix (10%)"),
)
LOCAL_CAPTION = (
    r"Support-conditioned local sensitivity $S_\beta$ and fixed-support absolute error "
    r"$e_{\beta,\mathrm{fix}}$ of the principal noninteger linear spatial order (five seeds). "
    r"The complete $0\%$, $2\%$, $5\%$, and $10\%$ profiles and per-seed estimates are in "
    r"\texttt{local\_identifiability.csv} (reproduction)."
)
LOCAL_HEADER = (
    r"Benchmark & Operator & $S_\beta$ & $e_{\beta,\mathrm{fix}}$ ($0\%$) & "
    r"$e_{\beta,\mathrm{fix}}$ ($10\%$) \\"
)
#: Means below this are printed as ``(m \pm s) x 10^e`` (the paper's Burgers 0 % cell).
SCI_BELOW = 1e-4


# =================================================================================================
# Formatting helpers
# =================================================================================================
def _plain(cell: str) -> str:
    return (
        cell.replace("$", "")
        .replace(r"\pm", " ± ")
        .replace(r"{\times}", "×")
        .replace(r"\times", "×")
        .replace("10^{", "10^")
        .replace("}", "")
        .strip()
    )


def _at(df: pd.DataFrame, noise: float) -> pd.DataFrame:
    return df[np.isclose(df["noise"].astype(float), noise, rtol=0.0, atol=1e-9)]


def _pct(noise: float) -> str:
    return f"{100 * noise:g}"


def fmt_error_pm(values: Sequence[float], decimals: int = 4, sci_below: float = SCI_BELOW) -> str:
    """``$m\\pm s$`` at ``decimals`` or ``$(m\\pm s){\\times}10^{e}$`` for tiny means."""
    ms = mean_sd(values)
    if ms is None:
        return EMPTY
    m, s = ms
    if 0.0 < abs(m) < sci_below:
        e = math.floor(math.log10(abs(m)))
        return rf"$({m / 10**e:.1f}\pm{s / 10**e:.1f}){{\times}}10^{{{e}}}$"
    return rf"${m:.{decimals}f}\pm{s:.{decimals}f}$"


def _latex(label: str, caption: str, header: str, body: Sequence[str], local: bool) -> str:
    lines = [
        "% Generated by weakpareto.report_diagnostics; needs booktabs.",
        r"\begin{table}[t]",
        r"\centering",
        rf"\caption{{{caption}}}\label{{{label}}}",
    ]
    if local:
        lines += [r"\footnotesize", r"\setlength{\tabcolsep}{3.0pt}"]
    cols = "llccc" if local else "lccc"
    lines += [
        rf"\begin{{tabular*}}{{\textwidth}}{{@{{\extracolsep\fill}}{cols}}}",
        r"\toprule",
        header,
        r"\midrule",
        *body,
        r"\bottomrule",
        r"\end{tabular*}",
        r"\end{table}",
    ]
    return "\n".join(lines) + "\n"


def _compare_rows(
    rows: Sequence[tuple[str, str, dict[str, str]]],
    columns: Sequence[tuple[str, str]],
    paper: dict[str, dict[str, str]],
) -> list[str]:
    lines = ["| Row | Column | Paper | Ours | Same at paper precision |", "|---|---|---|---|---|"]
    for rid, name, cells in rows:
        for cid, cname in columns:
            p = paper.get(rid, {}).get(cid)
            o = cells.get(cid, EMPTY)
            same = "" if p is None else ("yes" if p == o else "no")
            pv = "" if p is None else _plain(p)
            lines.append(f"| {name} | {cname} | {pv} | {_plain(o)} | {same} |")
    return lines


def _read(path: Path, need: set[str]) -> pd.DataFrame | None:
    if not path.is_file():
        return None
    try:
        df = pd.read_csv(path)
    except (pd.errors.EmptyDataError, pd.errors.ParserError):
        return None
    if df.empty or not need <= set(df.columns):
        return None
    return df


def _as_bool(series: pd.Series) -> pd.Series:
    if series.dtype == bool:
        return series
    return series.astype(str).str.lower().isin(("true", "1", "yes"))


# =================================================================================================
# tab:burgers and fig:burgers
# =================================================================================================
BURGERS_NEED = {
    "noise",
    "true_selected",
    "true_residual",
    "competitor",
    "competitor_residual",
    "margin",
    "e_xi_max",
}


def burgers_cells(row: pd.Series) -> dict[str, str]:
    """Table cells of one noise level (paper formats: margin 1 decimal, ``e_xi^max`` 3)."""
    return {
        "selected": "yes" if bool(row["true_selected"]) else "no",
        "margin": rf"${float(row['margin']):.1f}\times$",
        "e_xi": f"{float(row['e_xi_max']):.3f}",
    }


def burgers_table(df: pd.DataFrame) -> tuple[str, str]:
    """``(latex, markdown)`` of tab:burgers from ``burgers_margin.csv`` rows."""
    df = df.copy()
    df["true_selected"] = _as_bool(df["true_selected"])
    body, rows, notes = [], [], []
    for noise in BURGERS_TABLE_NOISES:
        d = _at(df, noise)
        if d.empty:
            notes.append(f"no row at {_pct(noise)} % noise")
            continue
        cells = burgers_cells(d.iloc[-1])
        rows.append((_pct(noise), _pct(noise) + " %", cells))
        body.append(
            f"{_pct(noise)} & {cells['selected']} & {cells['margin']} & {cells['e_xi']} \\\\"
        )
    latex = _latex(BURGERS_LABEL, BURGERS_CAPTION, BURGERS_HEADER, body, local=False)

    md = [f"# {BURGERS_LABEL}: paper vs ours", ""]
    md += _compare_rows(rows, BURGERS_COLUMNS, PAPER_BURGERS)
    md += [
        "",
        "## All six noise levels (ours; fig:burgers)",
        "",
        "| Noise % | True selected | Selected structure | True residual | Closest competitor | "
        "Competitor residual | Margin | e_xi^max |",
        "|---|---|---|---|---|---|---|---|",
    ]
    full = df.sort_values("noise")
    for r in full.itertuples(index=False):
        sel = getattr(r, "selected", "")
        md.append(
            f"| {_pct(cast(float, r.noise))} | {'yes' if r.true_selected else 'no'} | {sel} | "
            f"{r.true_residual:.3e} | {r.competitor} | {r.competitor_residual:.3e} | "
            f"{r.margin:.1f}× | {r.e_xi_max:.4f} |"
        )
    margins = full["margin"].to_numpy(float)
    checks = [
        (
            "true pair selected at every tested level",
            bool(full["true_selected"].all()),
            f"{int(full['true_selected'].sum())}/{len(full)} levels",
        ),
        (
            "margin decreases monotonically and stays above one (paper: 218× → 3.2×)",
            bool(np.all(np.diff(margins) < 0) and np.all(margins > 1)),
            f"{margins[0]:.1f}× → {margins[-1]:.1f}×" if margins.size else EMPTY,
        ),
        (
            "coefficient error of the true pair below 0.02 at every level",
            bool((full["e_xi_max"] < 0.02).all()),
            f"max {full['e_xi_max'].max():.4f}",
        ),
        (
            "closest competitor is {u u_x, u_xx} at every level",
            bool((full["competitor"] == "{u u_x, u_xx}").all()),
            ", ".join(sorted(set(full["competitor"].astype(str)))),
        ),
    ]
    md += [
        "",
        "## Claims of Sec. subsec:burgersexp",
        "",
        "| Claim | Holds | Ours |",
        "|---|---|---|",
    ]
    md += [f"| {c} | {'yes' if ok else 'no'} | {v} |" for c, ok, v in checks]
    levels = {round(float(n), 9) for n in full["noise"]}
    missing = [_pct(n) for n in BURGERS_ALL_NOISES if round(n, 9) not in levels]
    if missing:
        notes.append(f"fig:burgers levels without a row: {', '.join(missing)} %")
    md += [
        "",
        "Notes:",
        "- Protocol (spec §10 item 2): Burgers field seed 0, multiplicative noise (seed 0), paper "
        "test budget; pool {u_x, u u_x, u^2 u_x, D^1.7 u, u_xx, u D^1.7 u, D^0.5 u}, all 21 "
        "two-term structures at their exact orders, alpha = 1 (integer mode), ridge 1e-3 on "
        "column-normalised features fitted on all rows, full-row relative residual; margin = "
        "lowest non-true residual / (true residual + 1e-18).",
        *(f"- {n}" for n in notes),
    ]
    return latex, "\n".join(md) + "\n"


def _save_figure(fig, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fmt = path.suffix[1:]
    meta = {"CreationDate": None} if fmt == "pdf" else None  # byte-stable re-renders
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=fmt, dpi=200, bbox_inches="tight", metadata=meta)


def structure_mathtext(label: str) -> str:
    """``{u u_x, D^1.7 u}`` -> ``$u\\,u_x,\\ D_x^{1.7}u$`` (matplotlib mathtext legend)."""
    out = []
    for term in (t.strip() for t in label.strip("{}").split(",")):
        if not term:
            continue
        term = re.sub(r"D\^([0-9.]+) u", r"D_x^{\1}u", term)
        term = term.replace("u_xx", "u_{xx}")
        term = re.sub(r"^u\^([0-9]+) ", r"u^{\1}", term)
        term = re.sub(r"^u ", r"u\\,", term)
        out.append(term)
    return "$" + r",\ ".join(out) + "$"


def _burgers_field() -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    try:
        from weakpareto.benchmarks.generators import generate

        f = generate("burgers", 0)
    except Exception:  # the figure falls back to the residual panel only
        return None
    return np.asarray(f.u), np.asarray(f.t), np.asarray(f.x)


def burgers_figure(
    df: pd.DataFrame, out_stem: str | os.PathLike, formats: Sequence[str] = FORMATS
) -> list[Path]:
    """Paper Fig. 4: (a) the Burgers field, (b) true vs closest-competitor residual (log scale)."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    d = df.sort_values("noise")
    pct = 100.0 * d["noise"].to_numpy(float)
    fld = _burgers_field()
    stem = Path(out_stem)
    with plt.rc_context({"font.size": 9, "pdf.fonttype": 42}):
        n_panels = 2 if fld is not None else 1
        fig, axes = plt.subplots(
            1, n_panels, figsize=(4.5 * n_panels, 3.5), constrained_layout=True
        )
        axes = np.atleast_1d(axes)
        try:
            if fld is not None:
                u, t, x = fld
                ax = axes[0]
                mesh = ax.pcolormesh(x, t, u, shading="auto", cmap="RdBu_r", rasterized=True)
                fig.colorbar(mesh, ax=ax, label="$u(t,x)$")
                ax.set_xlabel("$x$")
                ax.set_ylabel("$t$")
                ax.set_title("(a) Fractional Burgers field", fontsize=9)
            ax = axes[-1]
            comp = d["competitor"].astype(str)
            comp_label = "closest competitor"
            if comp.nunique() == 1:
                comp_label += ": " + structure_mathtext(comp.iloc[0])
            true_label = "true structure"
            if "true_structure" in d.columns:
                true_label += ": " + structure_mathtext(str(d["true_structure"].iloc[0]))
            ax.semilogy(pct, d["true_residual"], "o-", color="C0", label=true_label)
            ax.semilogy(pct, d["competitor_residual"], "s--", color="C3", label=comp_label)
            ax.set_xticks(pct)
            ax.set_xlabel("Multiplicative noise (%)")
            ax.set_ylabel("Relative weak residual")
            title = "(b) Weak residual" if fld is not None else "Weak residual"
            ax.set_title(title, fontsize=9)
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(frameon=False, fontsize=8, loc="lower right")
            paths = []
            for fmt in formats:
                path = stem.with_name(f"{stem.name}.{fmt}")
                _save_figure(fig, path)
                paths.append(path)
        finally:
            plt.close(fig)
    return paths


# =================================================================================================
# tab:local-identifiability
# =================================================================================================
LOCAL_NEED = {"benchmark", "noise", "seed", "s_beta", "e_beta_fix", "beta_hat", "beta_true"}


def _s_beta(d: pd.DataFrame) -> float | None:
    """``S_beta`` of the clean field of the smallest seed (RD fields depend on the seed)."""
    if d.empty:
        return None
    return float(d.sort_values("seed")["s_beta"].iloc[0])


def local_cells(df: pd.DataFrame, benchmark: str, operator: str) -> dict[str, str]:
    d = df[df["benchmark"] == benchmark]
    s = _s_beta(d)
    cells = {"operator": operator, "s_beta": EMPTY if s is None else f"${s:.3f}$"}
    for key, noise in (("e0", 0.0), ("e10", 0.10)):
        cells[key] = fmt_error_pm(_at(d, noise)["e_beta_fix"].tolist())
    return cells


def local_table(df: pd.DataFrame) -> tuple[str, str]:
    """``(latex, markdown)`` of tab:local-identifiability from ``local_identifiability.csv``."""
    body, rows, notes = [], [], []
    for b, tex, plain, op in LOCAL_ROWS:
        if not (df["benchmark"] == b).any():
            notes.append(f"no rows for {b}")
        cells = local_cells(df, b, op)
        rows.append((b, plain, cells))
        body.append(f"{tex} & {op} & {cells['s_beta']} & {cells['e0']} & {cells['e10']} \\\\")
    latex = _latex(LOCAL_LABEL, LOCAL_CAPTION, LOCAL_HEADER, body, local=True)

    md = [f"# {LOCAL_LABEL}: paper vs ours", ""]
    md += _compare_rows(rows, LOCAL_COLUMNS, PAPER_LOCAL)
    noises = sorted({round(float(n), 9) for n in df["noise"]})
    md += [
        "",
        "## Fixed-support error at every noise level (ours, mean ± sample SD over seeds)",
        "",
        "| Benchmark | S_beta (per seed) | " + " | ".join(f"{_pct(n)} %" for n in noises) + " |",
        "|---|---|" + "---|" * len(noises),
    ]
    for b, _, plain, _ in LOCAL_ROWS:
        d = df[df["benchmark"] == b]
        if d.empty:
            continue
        s_all = d.drop_duplicates("seed").sort_values("seed")["s_beta"].to_numpy(float)
        s_txt = (
            f"{s_all.min():.3f}"
            if np.ptp(s_all) < 5e-4
            else (f"{s_all.min():.3f}–{s_all.max():.3f}")
        )
        errs = [_plain(fmt_error_pm(_at(d, n)["e_beta_fix"].tolist())) for n in noises]
        md.append(f"| {plain} | {s_txt} | " + " | ".join(errs) + " |")
    md += [
        "",
        "## Per-seed estimates (ours): beta_hat (e_beta,fix)",
        "",
        "| Benchmark | Noise % | beta* | "
        + " | ".join(f"seed {s}" for s in sorted(df["seed"].unique()))
        + " |",
        "|---|---|---|" + "---|" * df["seed"].nunique(),
    ]
    for b, _, plain, _ in LOCAL_ROWS:
        d = df[df["benchmark"] == b]
        for n in noises:
            dn = _at(d, n).sort_values("seed")
            if dn.empty:
                continue
            seed_cells = [f"{r.beta_hat:.5f} ({r.e_beta_fix:.1e})" for r in dn.itertuples()]
            md.append(
                f"| {plain} | {_pct(n)} | {dn['beta_true'].iloc[0]:g} | "
                + " | ".join(seed_cells)
                + " |"
            )

    # claims of the paper text
    s_vals = {b: _s_beta(df[df["benchmark"] == b]) for b, *_ in LOCAL_ROWS}
    e10 = {b: mean_sd(_at(df[df["benchmark"] == b], 0.10)["e_beta_fix"]) for b, *_ in LOCAL_ROWS}
    have = [b for b, *_ in LOCAL_ROWS if s_vals[b] is not None and e10[b] is not None]
    if len(have) >= 2:
        # `have` holds only benchmarks whose s_vals and e10 are not None
        by_s = sorted(have, key=lambda b: -cast(float, s_vals[b]))
        by_e = sorted(have, key=lambda b: cast(tuple[float, float], e10[b])[0])
        md += [
            "",
            "## Claim of Sec. subsec:mainresults",
            "",
            "| Claim | Holds | Ours |",
            "|---|---|---|",
            "| S_beta ordering is the reverse of the 10 % fixed-support error ordering | "
            f"{'yes' if by_s == by_e else 'no'} | S_beta: {' > '.join(by_s)}; "
            f"e_fix(10 %): {' < '.join(by_e)} |",
        ]
    if "e_beta_fix_raw" in df.columns:
        notes += _raw_grid_notes(df, noises)
    md += [
        "",
        "Notes:",
        "- Protocol (paper App. 'Local spatial-order diagnostic', spec §11): S_beta on the "
        "clean field, true support/branch/orders, exact weak features, centred difference step "
        "1e-4, projector onto the true-support design by least squares; the table shows the "
        "seed-0 field (the RD initial conditions depend on the seed). Profile: principal "
        "non-integer linear order only; 61 equally spaced orders over the positive search "
        "interval (FADE/Burgers [0.5, 2.0]; RD from the first positive bank node, "
        "[0.0362, 2.1] and [0.0328, 1.9]) plus the true order; coefficients refit on the "
        "training rows of the seeded 75/25 split with ridge 1e-3; score E_val; bounded Brent "
        "refinement (xatol 1e-5) between the neighbours of the best trial order, kept when it "
        "lowers E_val. Multiplicative noise with noise seed = run seed.",
        *(f"- {n}" for n in notes),
    ]
    return latex, "\n".join(md) + "\n"


def _raw_grid_notes(df: pd.DataFrame, noises: Sequence[float]) -> list[str]:
    """Explain cells that change when the true order is kept beside a rounding-error twin node."""
    changed, matches, default_only = [], [], []
    for b, _, plain, _ in LOCAL_ROWS:
        d = df[df["benchmark"] == b]
        for n in noises:
            dn = _at(d, n).sort_values("seed")
            if dn.empty or np.allclose(dn["e_beta_fix"], dn["e_beta_fix_raw"], atol=1e-12):
                continue
            cell = fmt_error_pm(dn["e_beta_fix_raw"].tolist())
            seeds = ", ".join(f"{v:.1e}" for v in dn["e_beta_fix_raw"])
            changed.append(f"{plain} {_pct(n)} %: {_plain(cell)} (per seed {seeds})")
            key = {0.0: "e0", 0.10: "e10"}.get(round(float(n), 9))
            paper = PAPER_LOCAL.get(b, {}).get(key or "")
            if paper is not None and paper == cell:
                matches.append(f"{plain} {_pct(n)} %")
            elif paper is not None and paper == fmt_error_pm(dn["e_beta_fix"].tolist()):
                default_only.append(f"{plain} {_pct(n)} %")
    if not changed:
        return []
    text = (
        "Refinement bracket at the true order: linspace(0.5, 2.0, 61) has a node at "
        "1.7000000000000002, a rounding error away from the true FADE/Burgers order 1.7. Our "
        "profile merges that node into the true order, so the refinement bracket is the two "
        "neighbouring trial orders (spacing 0.025). If both twins are kept (plain np.unique of "
        "the augmented grid), rounding decides which twin is best, and its bracket ends at the "
        "other twin; in some seeds the refinement then cannot move away from the true order. "
        "That variant (column e_beta_fix_raw of the CSV) gives: " + "; ".join(changed) + "."
    )
    if matches:
        text += " It matches the paper's cell exactly for: " + ", ".join(matches) + "."
    if default_only:
        text += (
            " The paper's cell matches our merged-grid profile, not that variant, for: "
            + ", ".join(default_only)
            + "."
        )
    fade0 = _at(df[df["benchmark"] == "fade"], 0.0)
    if not fade0.empty:
        lo, hi = fade0["beta_hat"].min(), fade0["beta_hat"].max()
        text += (
            f" Without the artefact the clean FADE profile has its E_val minimum at "
            f"beta = {lo:.4f}-{hi:.4f} in every seed, so the paper's FADE 0 % cell, in which "
            "one seed is off by about 0.012 and four sit at the true order, looks like the same "
            "artefact."
        )
    return [text]


# =================================================================================================
# entry point
# =================================================================================================
def write_diagnostics(
    out_dir: str | os.PathLike = "results/tables",
    diagnostics_dir: str | os.PathLike = "results/diagnostics",
) -> list[Path]:
    """Render tab:burgers (+ fig:burgers) and tab:local-identifiability; returns the paths.

    Outputs whose CSV is missing or unusable are skipped (``[]`` when both are).
    """
    out = Path(out_dir)
    diag = Path(diagnostics_dir)
    paths: list[Path] = []
    burgers = _read(diag / BURGERS_CSV, BURGERS_NEED)
    local = _read(diag / LOCAL_CSV, LOCAL_NEED)
    if burgers is None and local is None:
        return paths
    out.mkdir(parents=True, exist_ok=True)
    if burgers is not None:
        latex, md = burgers_table(burgers)
        paths.append(write_text_atomic(out / f"{BURGERS_STEM}.tex", latex))
        paths.append(write_text_atomic(out / f"{BURGERS_STEM}_paper_vs_ours.md", md))
        paths += burgers_figure(burgers, out / FIGURE_STEM)
    if local is not None:
        latex, md = local_table(local)
        paths.append(write_text_atomic(out / f"{LOCAL_STEM}.tex", latex))
        paths.append(write_text_atomic(out / f"{LOCAL_STEM}_paper_vs_ours.md", md))
    return paths
