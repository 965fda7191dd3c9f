"""One fit of a large clean 2-D field, for whole-process timings (results/bench/large_fields.md).

The field is the closed form of ``u_t = 0.3 R_x^1.7 u + 0.2 R_y^1.4 u`` with five Fourier modes
on ``nt x nx x ny`` samples of ``[0, 1] x [0, 2 pi)^2``, fitted by ``WeakPareto`` with the
Riesz family and linear terms only (``powers=(0,)``).

    python scripts/bench_large_field_2d.py 128 256 256
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np
from threadpoolctl import threadpool_limits

from weakpareto import WeakPareto

MODES = ((1, 0, 1.0), (0, 1, 0.7), (1, 1, 0.5), (2, 1, 0.3), (1, 2, 0.2))


def five_mode_field_2d(nt: int, nx: int, ny: int) -> tuple[np.ndarray, ...]:
    """``sum a exp(-(0.3 |kx|^1.7 + 0.2 |ky|^1.4) t) cos(kx x + ky y + 0.3)``: the exact
    solution of ``u_t = 0.3 R_x^1.7 u + 0.2 R_y^1.4 u``; returns ``u, t, x, y``."""
    x = np.arange(nx) * 2.0 * np.pi / nx
    y = np.arange(ny) * 2.0 * np.pi / ny
    t = np.linspace(0.0, 1.0, nt)
    u = np.zeros((nt, nx, ny))
    for kx, ky, a in MODES:
        rate = 0.3 * kx**1.7 + 0.2 * ky**1.4
        phase = np.cos(kx * x[:, None] + ky * y[None, :] + 0.3)
        u += a * np.exp(-rate * t)[:, None, None] * phase[None]
    return u, t, x, y


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("nt", "nx", "ny"):
        parser.add_argument(name, type=int)
    args = parser.parse_args()
    u, t, x, y = five_mode_field_2d(args.nt, args.nx, args.ny)
    with threadpool_limits(1):
        start = time.perf_counter()
        model = WeakPareto(
            operator="riesz", alpha_range=(0.6, 1.2), beta_range=(0.5, 2.5), powers=(0,)
        )
        model.fit(u, t, x, y=y)
        seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(model.equation_, f"{seconds:.2f} s", f"{peak:.0f} MiB")


if __name__ == "__main__":
    main()
