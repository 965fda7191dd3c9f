"""tab:forward: forward-model validation of the representative discovered models.

Paper App. app:forward (Eq. efield, tab:forward),
docs/method/diagnostics.md#forward-model-validation. For FADE and Burgers at 0 % and 10 % and both
fractional RD benchmarks at 0 % and 5 % multiplicative noise, the representative Weak-Pareto run
(median ``e_beta^max`` over the five seeds of the campaign in ``results/runs``) is integrated from
the clean ``U[0]`` of its seed on the data grid (:func:`weakpareto.diagnostics.forward.simulate`)
and compared with the clean field (``e_field``); the true equation is integrated by the same solver
for the numerical discrepancy (``e_field_true``). The ADE control is computed too and flagged
``included=False`` because its true-parameter floor exceeds 5e-2.

Writes ``results/diagnostics/forward.csv`` atomically; ``weakpareto.reporting.tables.forward``
renders it as ``tab_forward.tex`` with its paper-vs-ours file. Usage::

    python scripts/forward_validation.py [--runs DIR] [--out CSV]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from weakpareto.campaign.store import load_runs
from weakpareto.diagnostics.forward import forward_validation
from weakpareto.io import write_text_atomic

DEFAULT_RUNS = Path("results/runs")
DEFAULT_OUT = Path("results/diagnostics/forward.csv")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs",
        type=Path,
        default=DEFAULT_RUNS,
        help=f"results directory (default {DEFAULT_RUNS})",
    )
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"CSV (default {DEFAULT_OUT})"
    )
    args = parser.parse_args(argv)
    df = forward_validation(load_runs(args.runs))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    path = write_text_atomic(args.out, df.to_csv(index=False))
    print(
        f"{'benchmark':13s} {'noise':>5s} {'seed':>4s} {'solver':11s} {'e_field':>10s} "
        f"{'e_field_true':>12s}  equation"
    )
    for r in df.itertuples():
        flag = "" if r.included else "  [excluded: floor > 5e-2]"
        print(
            f"{r.benchmark:13s} {100 * r.noise:4g}% {r.seed:4d} {r.solver or '-':11s} "
            f"{r.e_field:10.3e} {r.e_field_true:12.3e}  {r.equation or r.status}{flag}"
        )
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
