"""Densities of particle processes: data that share nothing with the method's discretisations.

:func:`levy_flight_density` (``generator.kind: levy_flight``): ``N`` particles start from a
positive density ``u_0(x) = offset + sum of harmonics`` on a period ``L`` and jump, every output
step ``dt``, by symmetric ``mu``-stable increments of scale ``(K dt)^{1/mu}``
(:data:`scipy.stats.levy_stable`; characteristic function ``exp(-K dt |k|^mu)``), wrapped on the
period. The density of such a process obeys

    u_t = K R^mu u,     R^mu = -(-Delta)^{mu/2}  (Fourier symbol -|k|^mu),

exactly (the characteristic function of an increment is the propagator of one step), for
``0 < mu <= 2`` (``mu = 2``: Brownian motion, ``u_t = K u_xx``). The field is the histogram of
the ``N`` positions in ``nx`` bins divided by ``N dx``: the bin average of the density, which
obeys the same linear equation (a box average commutes with every Fourier multiplier), plus the
counting noise of ``N`` particles (multinomial, variance ``~ u / (N dx)``). Nothing is exact to
a grid: the noise is the physics of the data, not a noise law added afterwards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from weakpareto._typing import FloatArray
from weakpareto.benchmarks.catalogue import (
    Field,
    field_meta,
    get_path,
    harmonics,
    make_grid,
    opt_path,
    pos_float,
    truth_mode_alpha,
    truth_terms,
)

#: Candidates drawn per round of the rejection sampling of the initial positions.
REJECTION_BATCH = 1 << 18


def sample_density(
    density: FloatArray, period: float, n: int, rng: np.random.Generator
) -> FloatArray:
    """``n`` positions on ``[0, period)`` distributed like the piecewise-constant ``density``
    (values on ``len(density)`` equal cells), by rejection from the uniform law."""
    if np.any(density < 0) or not np.any(density > 0):
        raise ValueError("a particle density must be nonnegative and not all zero")
    top = float(np.max(density))
    cells = density.size
    out: list[FloatArray] = []
    have = 0
    while have < n:
        x = rng.uniform(0.0, period, REJECTION_BATCH)
        keep = rng.uniform(0.0, top, REJECTION_BATCH) < density[(x / period * cells).astype(int)]
        out.append(x[keep])
        have += int(keep.sum())
    return np.concatenate(out)[:n]


def histogram_density(positions: FloatArray, period: float, nx: int) -> FloatArray:
    """Density of ``positions`` (wrapped on the period) in ``nx`` equal bins starting at 0."""
    idx = (np.mod(positions, period) / period * nx).astype(int) % nx
    return np.bincount(idx, minlength=nx) / (positions.size * period / nx)


def levy_flight_density(cfg: Mapping[str, Any], seed: int) -> Field:
    """The histogrammed density of a wrapped symmetric Lévy flight (module docstring).

    Config: ``generator.particles`` (N), ``generator.ic.offset`` and ``generator.ic.harmonics``
    (``u_0``, made a probability density), ``generator.oversample`` (initial density resolved on
    ``oversample * nx`` cells); the truth block holds one Riesz term ``K R^mu u`` and
    ``mode: int``. The seed draws the particles.
    """
    from scipy.stats import levy_stable  # scipy.stats costs ~0.3 s to import: only when drawn

    t, x, _ = make_grid(get_path(cfg, "grid"))
    period = pos_float(cfg, "grid.L")
    mode, _ = truth_mode_alpha(cfg)
    terms = truth_terms(cfg)
    operator = str(opt_path(cfg, "truth.operator", "riesz"))
    if mode != "int" or len(terms) != 1 or operator != "riesz":
        raise ValueError("generator kind 'levy_flight' needs truth u_t = K R^mu u (mode int)")
    mu, k_coef = float(terms[0]["order"]), float(terms[0]["coef"])
    if not 0.0 < mu <= 2.0 or not k_coef > 0.0:
        raise ValueError(f"levy_flight needs 0 < mu <= 2 and K > 0, got mu={mu}, K={k_coef}")
    n = int(opt_path(cfg, "generator.particles", 100_000))
    fine = int(opt_path(cfg, "generator.oversample", 16)) * x.size
    xf = (np.arange(fine) + 0.5) * period / fine
    ic = get_path(cfg, "generator.ic")
    u0 = float(ic.get("offset", 1.0)) + harmonics((xf,), (period,), ic["harmonics"])
    rng = np.random.default_rng(seed)
    pos = sample_density(u0, period, n, rng)
    u = np.empty((t.size, x.size))
    u[0] = histogram_density(pos, period, x.size)
    dt = float(t[1] - t[0])
    scale = (k_coef * dt) ** (1.0 / mu)
    for i in range(1, t.size):  # one stable increment per output step
        pos = pos + levy_stable.rvs(mu, 0.0, scale=scale, size=n, random_state=rng)
        pos = np.mod(pos, period)
        u[i] = histogram_density(pos, period, x.size)
    return Field(u, t, x, meta=field_meta(cfg, seed, False, particles=n))
