"""Korteweg–de Vries benchmark: soliton interaction by ETDRK4 pseudo-spectral integration.

``u_t = -6 u u_x - u_xxx`` on a periodic domain (ours, beyond the paper: a third-order term;
docs/method/benchmarks.md#kdv-and-kuramoto-sivashinsky). The equation is
read from the ``truth`` block; it must have the KdV form ``u_t = -a u u_x - b u_xxx`` with
``a != 0`` and ``b > 0``, whose solitons of speed ``c > 0`` are

    u(x, t) = (3 c / a) sech^2( sqrt(c / b) (x - x0 - c t) / 2 ).

The initial condition is a sum of such solitons (``generator.ic.solitons``: speed ``c`` and
centre ``x0`` each), every one summed over its periodic images so that it is smooth and
periodic. Solitons of different speeds break the travelling-wave degeneracy of a single
soliton (for which ``u_t``, ``u_x``, ``u u_x`` and ``u_xxx`` are linearly dependent). The stiff
dispersive part ``i b kappa^3`` is integrated exactly by ETDRK4 (:mod:`weakpareto.benchmarks.ks`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from weakpareto._typing import FloatArray
from weakpareto.benchmarks.catalogue import Field, get_path, pos_float, truth_terms
from weakpareto.benchmarks.ks import solve_spectral, spectral_field

#: Periodic images summed on each side of a soliton (tails beyond decay below 1e-16 for the
#: speeds and domains of interest; more images cost nothing and are exact to rounding).
N_IMAGES = 3


def kdv_coefficients(cfg: Mapping[str, Any]) -> tuple[float, float]:
    """``(a, b)`` of ``u_t = -a u u_x - b u_xxx`` from the truth block."""
    terms = truth_terms(cfg, linear=False)
    adv = [t for t in terms if int(t["power"]) == 1 and float(t["order"]) == 1.0]
    disp = [t for t in terms if int(t["power"]) == 0 and float(t["order"]) == 3.0]
    if len(terms) != 2 or len(adv) != 1 or len(disp) != 1:
        raise ValueError(
            "generator kind 'kdv' needs exactly the truth terms {power 1, order 1} (u u_x) and "
            "{power 0, order 3} (u_xxx)"
        )
    a, b = -float(adv[0]["coef"]), -float(disp[0]["coef"])
    if a == 0.0 or not b > 0.0:
        raise ValueError(
            f"generator kind 'kdv' needs u_t = -a u u_x - b u_xxx with a != 0 and b > 0 "
            f"(solitons), got a={a}, b={b}"
        )
    return a, b


def sech2(y: FloatArray) -> FloatArray:
    """``sech(y)^2`` without overflow for large ``|y|``."""
    e = np.exp(-2.0 * np.abs(y))
    return np.asarray(4.0 * e / (1.0 + e) ** 2, dtype=np.float64)


def kdv_soliton(
    x: FloatArray, c: float, x0: float, length: float, a: float = 6.0, b: float = 1.0
) -> FloatArray:
    """Soliton of speed ``c`` centred at ``x0`` on the period ``length`` (images summed)."""
    if not c > 0.0:
        raise ValueError(f"soliton speed c must be positive, got {c!r}")
    xi = np.mod(np.asarray(x, dtype=np.float64) - x0 + 0.5 * length, length) - 0.5 * length
    k = 0.5 * np.sqrt(c / b)
    out = np.zeros_like(xi)
    for m in range(-N_IMAGES, N_IMAGES + 1):
        out += sech2(k * (xi + m * length))
    return (3.0 * c / a) * out


def soliton_sum(
    x: FloatArray, solitons: Any, length: float, a: float = 6.0, b: float = 1.0
) -> FloatArray:
    """Sum of the ``[{c, x0}, ...]`` solitons on ``x``."""
    if not isinstance(solitons, list) or not solitons:
        raise ValueError("'generator.ic.solitons' must be a non-empty list of {c, x0}")
    out = np.zeros(np.shape(x))
    for i, sol in enumerate(solitons):
        if not isinstance(sol, Mapping) or "c" not in sol or "x0" not in sol:
            raise ValueError(f"'generator.ic.solitons[{i}]' needs 'c' (speed) and 'x0' (centre)")
        out += kdv_soliton(x, float(sol["c"]), float(sol["x0"]), length, a, b)
    return out


def generate_kdv(cfg: Mapping[str, Any], seed: int) -> Field:
    """KdV from a sum of solitons (deterministic; the seed is ignored).

    ``meta`` records the relative drift of the invariants ``int u`` and ``int u^2`` over the
    run (the scheme conserves the first to rounding, the second to the time-step error).
    """
    a, b = kdv_coefficients(cfg)
    L = pos_float(cfg, "grid.L")
    solitons = get_path(cfg, "generator.ic.solitons")

    def u0(x: FloatArray) -> FloatArray:
        return soliton_sum(x, solitons, L, a, b)

    s, snaps = solve_spectral(cfg, u0)
    u_fine = np.fft.irfft(snaps, n=s["pde"].n, axis=-1)
    mass = u_fine.sum(axis=1)
    mom = (u_fine**2).sum(axis=1)
    return spectral_field(
        cfg,
        seed,
        s,
        snaps,
        mass_drift=float(np.max(np.abs(mass - mass[0])) / np.abs(u_fine[0]).sum()),
        momentum_drift=float(np.max(np.abs(mom - mom[0])) / mom[0]),
        solitons=[{"c": float(v["c"]), "x0": float(v["x0"])} for v in solitons],
    )
