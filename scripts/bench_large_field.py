"""One fit of a large clean field, for whole-process timings (results/bench/large_fields.md).

The field and the fit are those of ``wp bench large=...``
(:mod:`weakpareto.campaign.bench_large`): the closed form of ``u_t = 0.3 R^1.5 u`` with five
Fourier modes on ``nt x nx`` samples, ``WeakPareto`` with the Riesz family. Prints the
equation, the fit's seconds and the process's peak MiB (time it from outside with
``farm-bench``; one BLAS thread by the environment).

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python scripts/bench_large_field.py 2400 4096
"""

from __future__ import annotations

import argparse

from weakpareto.campaign.bench_large import fit_once


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("nt", type=int)
    parser.add_argument("nx", type=int)
    parser.add_argument("method", nargs="?", default="weak_pareto_exact")
    args = parser.parse_args()
    out = fit_once(args.nt, args.nx, args.method)
    print(out["equation"], f"{out['fit_s']:.2f} s", f"{out['peak_mib']:.0f} MiB")


if __name__ == "__main__":
    main()
