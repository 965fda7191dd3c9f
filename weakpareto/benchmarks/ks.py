"""Kuramoto–Sivashinsky benchmark and the ETDRK4 pseudo-spectral engine it shares with KdV.

``u_t = -u u_x - u_xx - u_xxxx`` on a periodic domain (ours, beyond the paper: hard, chaotic
dynamics with orders up to 4; docs/method/benchmarks.md#kdv-and-kuramoto-sivashinsky). The equation
is read from the config's ``truth`` block (single source of truth): power-0 terms form the stiff
linear symbol, power-``p`` terms of order 1 are advective fluxes
``coef u^p u_x = coef/(p+1) (u^{p+1})_x``.

Scheme
------
Fourier pseudo-spectral in space (real FFTs) and exponential time differencing RK4 in time
(Cox & Matthews 2002, scheme ETDRK4) for the semi-discrete system ``v' = L v + N(v)`` with a
diagonal ``L``. With ``z = h L`` the step is

    a = e^{z/2} v + Q N(v),          b = e^{z/2} v + Q N(a),
    c = e^{z/2} a + Q (2 N(b) - N(v)),
    v+ = e^{z} v + f1 N(v) + 2 f2 (N(a) + N(b)) + f3 N(c),

    Q  = h (e^{z/2} - 1) / z,
    f1 = h (-4 - z + e^z (4 - 3z + z^2)) / z^3,
    f2 = h ( 2 + z + e^z (z - 2))        / z^3,
    f3 = h (-4 - 3z - z^2 + e^z (4 - z)) / z^3.

These functions are entire but suffer catastrophic cancellation for small ``|z|``; they are
evaluated as the mean of ``f(z + e^{i theta_j})`` over ``M`` equispaced points of the unit circle
centred at ``z`` (Cauchy's integral formula with the trapezoidal rule, Kassam & Trefethen 2005),
accurate to rounding for any ``z``, real (KS) or imaginary (KdV).

Aliasing: the nonlinear flux is formed with the 2/3 rule (``generator.dealias``); modes above
the cut then evolve linearly only, and the Nyquist mode is kept at zero (a real field has no
consistent odd derivative there). With a fine grid that resolves the field (spectral tail far
below rounding before the cut, ``meta['tail']``) the choice does not change the data; the rule
keeps aliasing errors out of the high modes, which the fourth-order term would otherwise amplify.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, cast

import numpy as np

from weakpareto._typing import ComplexArray, FloatArray
from weakpareto.benchmarks.catalogue import (
    Field,
    field_meta,
    get_path,
    harmonics,
    make_grid,
    opt_path,
    pos_float,
    pos_int,
    time_step,
    truth_mode_alpha,
    truth_terms,
)
from weakpareto.numerics.operators import directional_multiplier

#: Contour points of the phi-function evaluation (full circle; error ~ 1/M! for entire f).
N_CONTOUR = 64
_I_POW = (1.0 + 0.0j, 1.0j, -1.0 + 0.0j, -1.0j)


# ---------------------------------------------------------------------------------------
# ETDRK4
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Etdrk4Coefficients:
    """Diagonal ETDRK4 coefficients for step ``h`` and linear symbol ``lin`` (see module doc)."""

    h: float
    e: ComplexArray
    e2: ComplexArray
    q: ComplexArray
    f1: ComplexArray
    f2: ComplexArray
    f3: ComplexArray


def etdrk4_coefficients(
    lin: ComplexArray, h: float, n_contour: int = N_CONTOUR
) -> Etdrk4Coefficients:
    """ETDRK4 coefficients by the contour-integral mean (any complex ``h * lin``)."""
    if not h > 0:
        raise ValueError(f"ETDRK4 step must be positive, got {h!r}")
    if n_contour < 8:
        raise ValueError(f"n_contour must be at least 8, got {n_contour}")
    z = h * np.asarray(lin, dtype=np.complex128)
    roots = np.exp(2j * np.pi * (np.arange(n_contour) + 0.5) / n_contour)
    zc = z[..., None] + roots  # shape lin.shape + (M,)
    ez, ez2 = np.exp(zc), np.exp(0.5 * zc)
    z3 = zc**3
    q = h * np.mean((ez2 - 1.0) / zc, axis=-1)
    f1 = h * np.mean((-4.0 - zc + ez * (4.0 - 3.0 * zc + zc**2)) / z3, axis=-1)
    f2 = h * np.mean((2.0 + zc + ez * (zc - 2.0)) / z3, axis=-1)
    f3 = h * np.mean((-4.0 - 3.0 * zc - zc**2 + ez * (4.0 - zc)) / z3, axis=-1)
    return Etdrk4Coefficients(h, np.exp(z), np.exp(0.5 * z), q, f1, f2, f3)


def etdrk4_step(
    v: ComplexArray, c: Etdrk4Coefficients, nonlin: Callable[[ComplexArray], ComplexArray]
) -> ComplexArray:
    """One ETDRK4 step of ``v' = L v + N(v)`` (Cox & Matthews' four stages)."""
    nv = nonlin(v)
    a = c.e2 * v + c.q * nv
    na = nonlin(a)
    b = c.e2 * v + c.q * na
    nb = nonlin(b)
    cc = c.e2 * a + c.q * (2.0 * nb - nv)
    nc = nonlin(cc)
    return c.e * v + c.f1 * nv + 2.0 * c.f2 * (na + nb) + c.f3 * nc


def integrate_etdrk4(
    v0: ComplexArray,
    lin: ComplexArray,
    nonlin: Callable[[ComplexArray], ComplexArray],
    h: float,
    n_out: int,
    every: int,
    skip: int = 0,
) -> ComplexArray:
    """``n_out`` snapshots ``(n_out,) + v0.shape``, one every ``every`` steps after ``skip``.

    Snapshot 0 is the state after the ``skip`` spin-up steps.
    """
    c = etdrk4_coefficients(lin, h)
    v = np.asarray(v0, dtype=np.complex128).copy()
    for _ in range(skip):
        v = etdrk4_step(v, c, nonlin)
    out = np.empty((n_out,) + v.shape, dtype=np.complex128)
    out[0] = v
    for j in range(1, n_out):
        for _ in range(every):
            v = etdrk4_step(v, c, nonlin)
        out[j] = v
    return out


# ---------------------------------------------------------------------------------------
# semi-discretisation read from the truth block
# ---------------------------------------------------------------------------------------


def integer_directional(kappa: FloatArray, order: float) -> ComplexArray:
    """``(i kappa)^order``; exact powers of ``i`` for integer orders (no rounding in the phase)."""
    if float(order).is_integer() and order >= 0:
        n = int(order)
        return np.asarray(_I_POW[n % 4] * kappa**n, dtype=np.complex128)
    return directional_multiplier(kappa, order)


@dataclass(frozen=True)
class SpectralPDE:
    """``u_t = sum lin_j D^{b_j} u + sum_p a_p u^p u_x`` on ``n`` periodic points of length ``L``.

    ``kappa`` are the real-FFT wavenumbers, ``lin`` the linear symbol, ``fluxes`` the pairs
    ``(p, a_p)`` and ``mask`` the dealiasing mask of the nonlinear term (Nyquist always off).
    """

    n: int
    length: float
    kappa: FloatArray
    lin: ComplexArray
    fluxes: tuple[tuple[int, float], ...]
    mask: FloatArray

    @cached_property
    def _flux_symbols(self) -> tuple[tuple[int, ComplexArray], ...]:
        ikm = 1j * self.kappa * self.mask
        return tuple((p, np.asarray(a / (p + 1.0) * ikm)) for p, a in self.fluxes)

    def nonlinear(self, v: ComplexArray) -> ComplexArray:
        """``sum_p a_p/(p+1) i kappa FFT(u^{p+1})``, 2/3-dealiased; batched over leading axes."""
        u = np.fft.irfft(v, n=self.n, axis=-1)
        out = np.zeros(v.shape, dtype=np.complex128)
        for p, sym in self._flux_symbols:
            out += sym * np.fft.rfft(u * u if p == 1 else u ** (p + 1), axis=-1)
        return out


def spectral_pde(cfg: Mapping[str, Any], n: int, length: float, dealias: float) -> SpectralPDE:
    """Semi-discretisation of the truth equation (integer time, directional operator)."""
    kind = str(get_path(cfg, "generator.kind"))
    if str(get_path(cfg, "truth.operator")) != "directional":
        raise ValueError(f"generator kind '{kind}' needs truth.operator 'directional'")
    mode, _ = truth_mode_alpha(cfg)
    if mode != "int":
        raise ValueError(f"generator kind '{kind}' needs truth.mode 'int'")
    if not 0.0 < dealias <= 1.0:
        raise ValueError(f"generator.dealias must be in (0, 1], got {dealias!r}")
    kappa = cast(FloatArray, 2.0 * np.pi * np.fft.rfftfreq(n, d=length / n))
    lin = np.zeros(kappa.shape, dtype=np.complex128)
    fluxes: list[tuple[int, float]] = []
    for i, term in enumerate(truth_terms(cfg, linear=False)):
        p, order, coef = int(term["power"]), float(term["order"]), float(term["coef"])
        if p == 0:
            lin += coef * integer_directional(kappa, order)
        elif p > 0 and order == 1.0:
            fluxes.append((p, coef))
        else:
            raise ValueError(
                f"generator kind '{kind}' supports linear terms (power 0) and advective terms "
                f"u^p u_x (power p >= 1, order 1); truth.terms[{i}] has power {p}, order {order}"
            )
    mask = (np.abs(kappa) <= dealias * np.max(np.abs(kappa))).astype(np.float64)
    if n % 2 == 0:
        mask[-1] = 0.0
    return SpectralPDE(n, length, kappa, lin, tuple(fluxes), mask)


# ---------------------------------------------------------------------------------------
# shared driver
# ---------------------------------------------------------------------------------------


def solver_setup(cfg: Mapping[str, Any]) -> dict[str, Any]:
    """Output grid, fine grid, semi-discretisation and step counts (shared with the tests)."""
    grid = get_path(cfg, "grid")
    t, x, _ = make_grid(grid)
    if "ny" in grid:
        raise ValueError(f"generator kind '{get_path(cfg, 'generator.kind')}' is 1-D")
    L = pos_float(cfg, "grid.L")
    nx_fine = pos_int(cfg, "generator.nx_fine")
    if nx_fine % x.size:
        raise ValueError(f"generator.nx_fine={nx_fine} must be a multiple of grid.nx={x.size}")
    h = pos_float(cfg, "generator.dt_fine")
    dt_out = time_step(grid)
    every = round(dt_out / h)
    if every < 1 or abs(dt_out / h - every) > 1e-9 * max(1.0, dt_out / h):
        raise ValueError(
            f"output step {dt_out} must be an integer multiple of generator.dt_fine={h}"
        )
    spin = float(opt_path(cfg, "generator.t_spinup", 0.0))
    skip = round(spin / h)
    if spin < 0 or abs(spin / h - skip) > 1e-9 * max(1.0, spin / h):
        raise ValueError(
            f"generator.t_spinup={spin} must be a non-negative multiple of dt_fine={h}"
        )
    pde = spectral_pde(cfg, nx_fine, L, float(get_path(cfg, "generator.dealias")))
    return {
        "t": t,
        "x": x,
        "x_fine": np.arange(nx_fine) * L / nx_fine,
        "pde": pde,
        "h": h,
        "every": every,
        "skip": skip,
        "stride": nx_fine // x.size,
    }


def spectral_tail(v: ComplexArray, mask: FloatArray) -> float:
    """Resolution check: largest ``|v_k|`` over the top tenth of the modes the nonlinear term
    keeps (just below the dealiasing cut), relative to the largest ``|v_k|``."""
    kept = np.nonzero(mask)[0]
    top = kept[-max(1, kept.size // 10) :]
    mag = np.abs(v)
    return float(np.max(mag[..., top]) / np.max(mag))


def solve_spectral(
    cfg: Mapping[str, Any], ic: Callable[[FloatArray], FloatArray]
) -> tuple[dict[str, Any], ComplexArray]:
    """Setup and fine-grid spectra ``(nt, nx_fine//2 + 1)`` from ``u0 = ic(x_fine)``."""
    s = solver_setup(cfg)
    pde: SpectralPDE = s["pde"]
    v0 = np.fft.rfft(ic(s["x_fine"]))
    if pde.n % 2 == 0:
        v0[-1] = 0.0
    snaps = integrate_etdrk4(v0, pde.lin, pde.nonlinear, s["h"], s["t"].size, s["every"], s["skip"])
    return s, snaps


def spectral_field(
    cfg: Mapping[str, Any], seed: int, s: dict[str, Any], snaps: ComplexArray, **extra: Any
) -> Field:
    """Sample the fine-grid spectra onto the data grid; solver settings and checks in meta."""
    u_fine = np.fft.irfft(snaps, n=s["pde"].n, axis=-1)
    mean = u_fine.mean(axis=1)
    meta = field_meta(
        cfg,
        seed,
        False,
        scheme="etdrk4",
        nx_fine=int(s["pde"].n),
        dt_fine=float(s["h"]),
        steps_per_output=int(s["every"]),
        spinup_steps=int(s["skip"]),
        t_offset=float(s["skip"] * s["h"]),  # physical time of the stored t = 0
        dealias=float(get_path(cfg, "generator.dealias")),
        tail=spectral_tail(snaps, s["pde"].mask),
        mean_drift=float(np.max(np.abs(mean - mean[0]))),
        **extra,
    )
    return Field(u_fine[:, :: s["stride"]], s["t"], s["x"], meta=meta)


def generate_ks(cfg: Mapping[str, Any], seed: int) -> Field:
    """Kuramoto–Sivashinsky from a harmonic initial condition (deterministic; seed ignored)."""
    L = pos_float(cfg, "grid.L")
    ic = get_path(cfg, "generator.ic")
    scale = float(ic.get("scale", 1.0))

    def u0(x: FloatArray) -> FloatArray:
        return scale * harmonics((x,), (L,), ic.get("harmonics"))

    s, snaps = solve_spectral(cfg, u0)
    return spectral_field(cfg, seed, s, snaps)
