"""``method=yu_spline``: the optimiser-only Yu et al. variant (paper App. app:yu;
docs/method/baselines.md#field-reconstruction).

The neural field reconstruction of the full framework is replaced by a deterministic quintic
tensor-product interpolating spline of the noisy field (``RectBivariateSpline``, ``kx = ky = 5``,
``s = 0``); its derivatives feed the shared pipeline of :mod:`weakpareto.baselines.yu_core`
(Gauss–Jacobi fractional derivatives, 12-column library, STRidge with tolerance search, DE over
``(alpha, beta)``, Powell polish, exact refit). numpy/scipy only.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from scipy.interpolate import RectBivariateSpline

from weakpareto._typing import Array
from weakpareto.baselines.yu_core import YuSettings, check_domain, run_pipeline
from weakpareto.records import DiscoveryResult

SPLINE_DEGREE = 5


class SplineField:
    """Quintic interpolating tensor-product spline of ``u (nt, nx)`` on the grid ``(t, x)``."""

    def __init__(self, u: Array, t: Array, x: Array, degree: int = SPLINE_DEGREE) -> None:
        self.spline = RectBivariateSpline(
            np.asarray(t, dtype=float),
            np.asarray(x, dtype=float),
            np.asarray(u, dtype=float),
            kx=degree,
            ky=degree,
            s=0,
        )

    def grid(self, t: Array, x: Array, dt: int = 0, dx: int = 0) -> Array:
        """Derivative ``(dt, dx)`` on the tensor grid of sorted ``t`` and ``x``."""
        return np.asarray(self.spline(t, x, dx=int(dt), dy=int(dx), grid=True), dtype=float)


def yu_spline(
    u: Array,
    t: Array,
    x: Array,
    seed: int,
    settings: YuSettings | None = None,
    progress: Callable[[str], None] | None = None,
) -> DiscoveryResult:
    """The optimiser-only Yu et al. variant on a (noisy) field ``u (nt, nx)``."""
    settings = settings or YuSettings()
    check_domain(t, x, settings)
    t0 = time.perf_counter()
    model = SplineField(u, t, x)
    timings = {"reconstruction": time.perf_counter() - t0}
    return run_pipeline(model, seed, settings, timings, progress)
