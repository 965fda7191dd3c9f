"""tab:main recovery with deferred (vectorised, our default) vs immediate (paper) DE updating.

Reads results/runs (variant "default" = deferred, variant "immediate" from
`wp run -m +experiment=main search.updating=immediate search.vectorized=false variant=immediate`)
and writes results/bench/updating_comparison.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from weakpareto.campaign.store import load_runs

BENCHES = ["fade", "rd_space", "rd_timespace", "burgers"]


def _pm(v) -> str:
    v = np.asarray([x for x in v if np.isfinite(x)], dtype=float)
    if v.size == 0:
        return "--"
    return f"{v.mean():.3f} ± {(v.std(ddof=1) if v.size > 1 else 0.0):.3f}"


def main(results_dir: str = "results/runs", out: str = "results/bench/updating_comparison.md"):
    runs = load_runs(results_dir)
    runs = runs[
        (runs.method == "weak_pareto")
        & (np.isclose(runs.noise, 0.1))
        & (runs.noise_law == "multiplicative")
    ]
    lines = [
        "# tab:main: deferred (vectorised) vs immediate DE updating, 10 % noise, seeds 0-4",
        "",
        "| benchmark | updating | support | operator | e_beta^max | e_xi,2 | E_fit | "
        "mean s/seed | same equation as other mode |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for b in BENCHES:
        d = runs[(runs.benchmark == b) & (runs.variant == "default")].sort_values("seed")
        i = runs[(runs.benchmark == b) & (runs.variant == "immediate")].sort_values("seed")
        same = sum(x == y for x, y in zip(d.equation, i.equation))
        for name, df in (("deferred", d), ("immediate", i)):
            sup = df[df.support_ok]
            lines.append(
                f"| {b} | {name} | {int(df.support_ok.sum())}/{len(df)} | "
                f"{int(df.operator_ok.sum())}/{len(df)} | {_pm(sup.e_beta_max)} | "
                f"{_pm(sup.e_xi_2)} | {_pm(df.fit_error)} | {df.runtime_s.mean():.2f} | "
                f"{same}/{min(len(d), len(i))} |"
            )
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main(*sys.argv[1:])
