"""tab_beyond (ours, beyond the paper; docs/method/extensions.md): the paper, its method as
reproduced here, and weak_pareto_exact.

Reads the committed paper-table runs (``results/runs``: the paper's method, immediate DE) and the
runs of ``conf/experiment/beyond*.yaml`` (``results/beyond/runs``: the new method in the fast
deferred mode, plus the paper's method on our own equations and on the "independent" twins of
the paper's fields: FADE and time-space RD by exact Mittag-Leffler modes, the superunit diagnostic
by pycaputo), on the same seeds and noise realisations. Writes ``results/beyond/tab_beyond.csv``
atomically; the ``.md`` and ``.tex`` are rendered from it
(:mod:`weakpareto.reporting.studies.beyond`, also by ``wp report``).

    python scripts/beyond_table.py [--paper-runs results/runs] [--beyond-runs results/beyond/runs]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from weakpareto.campaign.store import load_runs, select_cell
from weakpareto.io import write_csv_atomic
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.studies.beyond import STEM
from weakpareto.reporting.studies.registry import write_study

NEW = "weak_pareto_exact"
#: (section, benchmark, noise, paper label, paper row key, paper operator column or None)
CELLS: tuple[tuple[str, str, float, str | None, str | None, str | None], ...] = (
    *(("tab:main", b, 0.1, "tab:main", b, "operator") for b in ("fade", "burgers")),
    *(
        ("tab:rdnoise", b, n, "tab:rdnoise", f"{b}@{round(100 * n)}", "operator")
        for b in ("rd_space", "rd_timespace")
        for n in (0.0, 0.02, 0.05, 0.1)
    ),
    *(
        ("tab:superunit", "superunit", n, "tab:superunit", f"weak_pareto@{s}", "operator")
        for n, s in ((0.0, "0"), (0.005, "0.5"), (0.01, "1.0"))
    ),
    *(("tab:appendix", b, 0.1, None, None, None) for b in ("ade", "riesz2")),
    *(
        ("tab:robustness", b, n, None, None, None)
        for b in ("fade", "burgers")
        for n in (0.0, 0.01, 0.05, 0.2)
    ),
    *(
        ("ours", b, n, None, None, None)
        for b in ("tf_riesz", "tf_advection", "tf_reaction")
        for n in (0.0, 0.02)
    ),
)
#: The paper's cells whose field the paper made with the L1 scheme (or whose generator is ours),
#: and their twins generated independently: exact Mittag-Leffler modes, pycaputo's PECE.
INDEPENDENT = {"fade": "fade_ml", "rd_timespace": "rd_timespace_ml", "superunit": "superunit_pc"}
ABLATIONS = ("l1_target", "no_noise_model", "corner_widths", "no_min_order", "integer_at_bound")
ABLATION_CELLS = tuple((b, n) for b in ("rd_space", "rd_timespace") for n in (0.02, 0.05))


def _summary(df: pd.DataFrame) -> dict[str, object]:
    if df.empty:
        return {"n": 0}
    ok = df[df["support_ok"].astype(bool)]

    def mean(col: str) -> float:
        return float(np.nanmean(ok[col])) if len(ok) else float("nan")

    return {
        "n": len(df),
        "support": int(df["support_ok"].sum()),
        "operator": int(df["operator_ok"].sum()),
        "e_alpha": mean("e_alpha"),
        "e_beta_max": mean("e_beta_max"),
        "e_xi_max": mean("e_xi_max"),
        "runtime_s": float(df["runtime_s"].mean()),
    }


def _paper_operator(label: str | None, row: str | None, col: str | None) -> str:
    if label is None or row is None or col is None:
        return "—"
    return paper_table(label).value(row, col).strip("$")


def collect(paper_runs: pd.DataFrame, beyond_runs: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for section, bench, noise, label, key, col in CELLS:
        own = section == "ours"
        base = select_cell(beyond_runs if own else paper_runs, bench, noise, method="weak_pareto")
        new = select_cell(beyond_runs, bench, noise, method=NEW)
        rows.append(
            dict(
                section=section, benchmark=bench, noise=noise, variant="—",
                paper_operator=_paper_operator(label, key, col),
                **{f"paper_method_{k}": v for k, v in _summary(base).items()},
                **{f"new_{k}": v for k, v in _summary(new).items()},
            )
        )  # fmt: skip
    twins = sorted(
        (c for c in CELLS if c[1] in INDEPENDENT and c[0] != "ours"),
        key=lambda c: (list(INDEPENDENT).index(c[1]), c[2]),
    )
    for _, bench, noise, label, key, col in twins:
        twin = INDEPENDENT[bench]
        base = select_cell(beyond_runs, twin, noise, method="weak_pareto")
        new = select_cell(beyond_runs, twin, noise, method=NEW)
        rows.append(
            dict(
                section="independent", benchmark=twin, noise=noise, variant="—",
                paper_operator=_paper_operator(label, key, col),
                **{f"paper_method_{k}": v for k, v in _summary(base).items()},
                **{f"new_{k}": v for k, v in _summary(new).items()},
            )
        )  # fmt: skip
    for bench, noise in ABLATION_CELLS:
        for variant in ABLATIONS:
            new = select_cell(beyond_runs, bench, noise, method=NEW, variant=variant)
            rows.append(
                dict(
                    section="ablation", benchmark=bench, noise=noise, variant=variant,
                    paper_operator="—", **{f"new_{k}": v for k, v in _summary(new).items()},
                )
            )  # fmt: skip
    return pd.DataFrame(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper-runs", default="results/runs")
    ap.add_argument("--beyond-runs", default="results/beyond/runs")
    ap.add_argument("--out-dir", default="results/beyond")
    args = ap.parse_args()
    table = collect(load_runs(args.paper_runs), load_runs(args.beyond_runs))
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    write_csv_atomic(table, out / f"{STEM}.csv")
    write_study(STEM, out)
    print(out / f"{STEM}.md")


if __name__ == "__main__":
    main()
