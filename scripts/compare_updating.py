"""tab:main recovery with immediate (the paper's DE updating; experiment=main) vs deferred,
vectorised (the fast mode; experiment=main_deferred) DE updating.

Reads results/runs (`make reproduce-main reproduce-main_deferred`: variant "default" = immediate,
variant "deferred" = deferred; each row's stored config is checked to say so) and writes
results/bench/updating_comparison.md. Per seed the latest run of a cell wins
(weakpareto.campaign.store.select_cell), so rows of older configs or code do not mix in.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from weakpareto.campaign.store import load_runs, select_cell

BENCHES = ["fade", "rd_space", "rd_timespace", "burgers"]
#: (updating mode, variant of its rows)
MODES = (("immediate", "default"), ("deferred", "deferred"))


def _pm(v) -> str:
    v = np.asarray([x for x in v if np.isfinite(x)], dtype=float)
    if v.size == 0:
        return "--"
    return f"{v.mean():.3f} ± {(v.std(ddof=1) if v.size > 1 else 0.0):.3f}"


def _updating(config_json: str) -> str:
    return str(json.loads(config_json)["search"]["updating"])


def main(results_dir: str = "results/runs", out: str = "results/bench/updating_comparison.md"):
    runs = load_runs(results_dir)
    lines = [
        "# tab:main: immediate (paper) vs deferred (vectorised) DE updating, 10 % noise, seeds 0-4",
        "",
        "| benchmark | updating | support | operator | e_beta^max | e_xi,2 | E_fit | "
        "mean s/seed | same equation as other mode |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for b in BENCHES:
        cells = {mode: select_cell(runs, b, 0.1, variant=v) for mode, v in MODES}
        for mode, df in cells.items():
            wrong = sorted({_updating(c) for c in df["config_json"]} - {mode}) if len(df) else []
            if wrong:
                raise SystemExit(f"{b}: the {mode} rows ran with updating={wrong}")
        i, d = cells["immediate"], cells["deferred"]
        pairs = i.merge(d, on="seed", suffixes=("_i", "_d"))
        same = int((pairs["equation_i"] == pairs["equation_d"]).sum())
        for mode, df in cells.items():
            sup = df[df.support_ok]
            lines.append(
                f"| {b} | {mode} | {int(df.support_ok.sum())}/{len(df)} | "
                f"{int(df.operator_ok.sum())}/{len(df)} | {_pm(sup.e_beta_max)} | "
                f"{_pm(sup.e_xi_2)} | {_pm(df.fit_error)} | "
                f"{df.runtime_s.mean() if len(df) else float('nan'):.2f} | {same}/{len(pairs)} |"
            )
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main(*sys.argv[1:])
