"""Fractional Burgers benchmark: pseudo-spectral RK4 solver on a fine grid (paper Sec. 5.7).

``u_t = -u u_x + nu D_x^beta u`` (docs/method/benchmarks.md#fractional-burgers), integrated with
2/3-dealiased RK4 on the generator's fine grid and sampled onto the data grid.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

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
    truth_mode_alpha,
    truth_terms,
)
from weakpareto.numerics.operators import directional_multiplier, wavenumbers


def _burgers_parts(cfg: Mapping[str, Any]) -> tuple[float, float, float]:
    """(advection coef a, diffusion coef nu, order beta) of ``u_t = a u u_x + nu D^beta u``."""
    if str(get_path(cfg, "truth.operator")) != "directional":
        raise ValueError("generator kind 'burgers' needs truth.operator 'directional'")
    mode, _ = truth_mode_alpha(cfg)
    if mode != "int":
        raise ValueError("generator kind 'burgers' needs truth.mode 'int'")
    adv = [tm for tm in truth_terms(cfg, linear=False) if int(tm["power"]) == 1]
    lin = [tm for tm in truth_terms(cfg, linear=False) if int(tm["power"]) == 0]
    if len(adv) != 1 or float(adv[0]["order"]) != 1.0 or len(lin) != 1:
        raise ValueError(
            "generator kind 'burgers' needs truth terms {power 1, order 1 (u u_x)} and one "
            "{power 0} diffusion term"
        )
    return float(adv[0]["coef"]), float(lin[0]["coef"]), float(lin[0]["order"])


def _burgers_rhs_core(u_hat: ComplexArray, lin: ComplexArray, nl: ComplexArray) -> ComplexArray:
    u = np.real(np.fft.ifft(u_hat, axis=-1))
    return lin * u_hat + nl * np.fft.fft(u * u, axis=-1)


def burgers_rhs(
    u_hat: ComplexArray,
    kappa: FloatArray,
    nu: float,
    beta: float,
    mask: NDArray[np.bool_],
    advection: float = -1.0,
) -> ComplexArray:
    """Semi-discrete right-hand side of ``u_t = advection*u*u_x + nu*D_x^beta u``
    (docs/method/benchmarks.md#fractional-burgers).

    Fourier pseudospectral: linear part ``nu*(i k)**beta * u_hat`` (not dealiased; zero mode
    0), nonlinear part in conservative form ``advection*0.5*i k*FFT(u**2)*mask`` with ``u``
    the real part of the inverse FFT and ``mask`` the 2/3 dealiasing mask. Works on a single
    spectrum or a batch (last axis = modes).
    """
    lin = nu * directional_multiplier(kappa, beta)
    nl = cast(
        ComplexArray, 0.5 * advection * 1j * np.asarray(kappa) * np.asarray(mask, dtype=np.float64)
    )
    return _burgers_rhs_core(np.asarray(u_hat, dtype=np.complex128), lin, nl)


def _burgers_setup(cfg: Mapping[str, Any]) -> dict[str, Any]:
    """Fine grid, symbols and initial spectrum of the Burgers solver (shared with tests)."""
    t, x, _ = make_grid(get_path(cfg, "grid"))
    L = pos_float(cfg, "grid.L")
    nx_fine = pos_int(cfg, "generator.nx_fine")
    if nx_fine % x.size:
        raise ValueError(f"generator.nx_fine={nx_fine} must be a multiple of grid.nx={x.size}")
    dt_fine = pos_float(cfg, "generator.dt_fine")
    dt_out = float(t[1] - t[0])
    every = round(dt_out / dt_fine)
    if every < 1 or abs(dt_out / dt_fine - every) > 1e-9:
        raise ValueError(
            f"output step {dt_out} must be an integer multiple of generator.dt_fine={dt_fine}"
        )
    if bool(opt_path(cfg, "grid.t_endpoint", False)):
        raise ValueError("generator kind 'burgers' expects grid.t_endpoint false (t_j = j*T/nt)")
    adv, nu, beta = _burgers_parts(cfg)
    x_fine = np.arange(nx_fine) * L / nx_fine
    kappa = wavenumbers(nx_fine, L)
    frac = float(get_path(cfg, "generator.dealias"))
    mask = np.abs(kappa) <= frac * np.max(np.abs(kappa))
    ic = get_path(cfg, "generator.ic")
    u0 = float(ic.get("scale", 1.0)) * harmonics((x_fine,), (L,), ic.get("harmonics"))
    return {
        "t": t,
        "x": x,
        "x_fine": x_fine,
        "kappa": kappa,
        "mask": mask,
        "nu": nu,
        "beta": beta,
        "advection": adv,
        "dt_fine": dt_fine,
        "every": every,
        "stride": nx_fine // x.size,
        "u0_hat": np.fft.fft(u0),
    }


def generate_burgers(cfg: Mapping[str, Any], seed: int) -> Field:
    """Fractional Burgers: classic RK4 pseudospectral on the fine grid
    (docs/method/benchmarks.md#fractional-burgers).

    A snapshot is kept every ``round(dt_out/dt_fine)`` steps (t=0 included); the loop stops
    at the last stored output time (later steps of the reference's 3000-step loop do not
    affect any stored snapshot). Space is subsampled by ``nx_fine // nx``.
    """
    s = _burgers_setup(cfg)
    t, x = s["t"], s["x"]
    lin = s["nu"] * directional_multiplier(s["kappa"], s["beta"])
    nl = 0.5 * s["advection"] * 1j * s["kappa"] * s["mask"]
    h = s["dt_fine"]
    every = s["every"]
    u_hat = s["u0_hat"].copy()
    snaps = np.empty((t.size, u_hat.size), dtype=np.complex128)
    snaps[0] = u_hat
    for n in range(1, (t.size - 1) * every + 1):
        k1 = _burgers_rhs_core(u_hat, lin, nl)
        k2 = _burgers_rhs_core(u_hat + 0.5 * h * k1, lin, nl)
        k3 = _burgers_rhs_core(u_hat + 0.5 * h * k2, lin, nl)
        k4 = _burgers_rhs_core(u_hat + h * k3, lin, nl)
        u_hat = u_hat + (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        if n % every == 0:
            snaps[n // every] = u_hat
    u_fine = np.real(np.fft.ifft(snaps, axis=-1))
    u = u_fine[:, :: s["stride"]][:, : x.size]
    return Field(u, t, x, meta=field_meta(cfg, seed, False, dt_fine=h, steps_per_output=every))
