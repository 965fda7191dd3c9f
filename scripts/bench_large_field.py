"""One fit of a large clean field, for whole-process timings (results/bench/large_fields.md).

The field is the closed form of ``u_t = 0.3 R^1.5 u`` with five Fourier modes on
``nt x nx`` samples of ``[0, 1] x [0, 2 pi)``; the fit is ``WeakPareto`` with the Riesz family
and ``alpha_range=(0.6, 1.2)``, ``beta_range=(0.5, 2.5)``.

    python scripts/bench_large_field.py 2400 4096 [method]

Prints the equation and the fit's own seconds (time it from outside with ``farm-bench``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from weakpareto import WeakPareto


def five_mode_field(nt: int, nx: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``sum_k a_k exp(-0.3 k^1.5 t) cos(k x + 0.3 k)``: the exact solution of u_t = 0.3 R^1.5 u."""
    x = np.arange(nx) * 2.0 * np.pi / nx
    t = np.linspace(0.0, 1.0, nt)
    u = np.zeros((nt, nx))
    for k, a in zip([1, 2, 3, 4, 5], [1.0, 0.5, 0.3, 0.2, 0.1]):
        u += a * np.exp(-0.3 * k**1.5 * t)[:, None] * np.cos(k * x + 0.3 * k)[None, :]
    return u, t, x


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("nt", type=int)
    parser.add_argument("nx", type=int)
    parser.add_argument("method", nargs="?", default="weak_pareto_exact")
    args = parser.parse_args()
    u, t, x = five_mode_field(args.nt, args.nx)
    start = time.perf_counter()
    model = WeakPareto(
        method=args.method, operator="riesz", alpha_range=(0.6, 1.2), beta_range=(0.5, 2.5)
    )
    model.fit(u, t, x)
    print(model.equation_, f"{time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
