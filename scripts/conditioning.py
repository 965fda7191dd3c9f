"""tab:conditioning: coherence and conditioning of dense fixed fractional dictionaries.

Paper Sec. 5.8 / tab:conditioning, docs/method/diagnostics.md#dictionary-conditioning: clean FADE
(the shipped file, seed 0, no noise), paper test budget (44 x 60 Gaussian tests), directional
spectral adjoint, exact ``p = 0`` weak features at the orders
``round(arange(0.1, 3.0 + 1e-9, Delta beta), 10)`` for ``Delta beta`` in {0.5, 0.25, 0.1, 0.05};
columns normalised to unit 2-norm; mutual coherence and 2-norm condition number.

Writes ``results/diagnostics/conditioning.csv`` atomically (``wp report`` renders it as
``tab_conditioning.tex`` with its paper-vs-ours file). Usage::

    python scripts/conditioning.py [--out results/diagnostics/conditioning.csv]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from weakpareto.benchmarks.catalogue import load_benchmark
from weakpareto.benchmarks.generators import generate
from weakpareto.diagnostics.conditioning import (
    PAPER_SPACINGS,
    dictionary_conditioning,
    write_conditioning_csv,
)
from weakpareto.library.weak import weak_library

DEFAULT_OUT = Path("results/diagnostics/conditioning.csv")


def compute(benchmark: str = "fade") -> list[dict]:
    """Conditioning rows of the clean benchmark field (paper test budget)."""
    cfg = load_benchmark(benchmark)
    lib_cfg = cfg["library"]
    fld = generate(cfg, seed=0)
    lib = weak_library(
        fld.u,
        fld.t,
        fld.x,
        operator=str(lib_cfg["operator"]),
        power_mode=str(lib_cfg["power_mode"]),
        budget="paper",
    )
    print(
        f"{benchmark}: clean field {fld.u.shape}, {lib.shape[0]} x {lib.shape[1]} = "
        f"{lib.n_rows} weak rows (paper test budget)",
        file=sys.stderr,
    )
    return dictionary_conditioning(lib, PAPER_SPACINGS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"CSV (default {DEFAULT_OUT})"
    )
    args = parser.parse_args(argv)
    rows = compute()
    path = write_conditioning_csv(rows, args.out)
    print("spacing  columns  coherence  condition")
    for r in rows:
        print(
            f"{r['spacing']:7.2f}  {r['columns']:7d}  {r['coherence']:9.3f}  {r['condition']:9.2e}"
        )
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
