"""Benchmark data: loaders and forward generators (paper tab:benchmarks; docs/method/benchmarks.md).

Every benchmark is described by one YAML file ``conf/benchmark/<name>.yaml`` (installed as
package data of ``weakpareto.conf``). :func:`generate` reads its ``generator.kind`` and
dispatches to one function of :data:`GENERATORS`; the result is a frozen :class:`Field`.

Single source of truth
----------------------
The generating equation of every synthetic benchmark is read from the config's ``truth``
block (temporal mode and order, operator family, terms and, in 2-D, directions), so the data
and the metrics can never disagree. The ``generator`` block holds only what the truth does
not determine: initial condition, fine grid and step of the Burgers solver, tolerances.

Conventions (docs/method/benchmarks.md#grid-conventions)
--------------------------------------------------------
* Grids: ``t = linspace(0, T, nt)`` if ``grid.t_endpoint`` else ``arange(nt)*T/nt``;
  ``x = arange(nx)*L/nx`` (periodic, endpoint excluded); 2-D adds ``y`` from ``ny, Ly``.
* Wavenumbers ``2*pi*fftfreq(n, d=L/n)``; Riesz symbol ``-|k|**beta``, directional symbol
  ``(i k)**beta`` on the principal branch with the zero mode annihilated
  (docs/method/operators.md#periodic-multipliers); the order-0 term is the identity (reaction).
* Linear benchmarks are propagated mode by mode: ``exp(lambda t)`` (integer time),
  ``E_{alpha,1}(lambda t**alpha)`` (Caputo, 0<alpha<2, zero initial velocity when alpha>1) or the
  implicit L1 recursion (time-space RD, docs/method/benchmarks.md#time-space-fractional-rd); the
  field is the real part of the inverse FFT.
* Seeds: the run seed regenerates the random part of the RD and two-term-Riesz initial conditions
  (docs/method/benchmarks.md#run-seeds-and-data); all other benchmarks are seed-independent.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray
from omegaconf import DictConfig
from scipy.special import gamma as gamma_fn

from weakpareto._typing import ComplexArray, FloatArray
from weakpareto.benchmarks.bounded_fields import cut_window
from weakpareto.benchmarks.burgers import generate_burgers
from weakpareto.benchmarks.catalogue import (
    Field,
    bench_name,
    field_meta,
    get_path,
    harmonics,
    load_benchmark,
    load_data_file,
    make_grid,
    opt_path,
    plain_config,
    pos_float,
    time_step,
    truth_mode_alpha,
    truth_terms,
)
from weakpareto.benchmarks.fode_lines import fode_lines
from weakpareto.benchmarks.kdv import generate_kdv
from weakpareto.benchmarks.ks import generate_ks
from weakpareto.benchmarks.particles import levy_flight_density
from weakpareto.numerics.mittag_leffler import mittag_leffler
from weakpareto.numerics.operators import (
    directional_multiplier,
    directional_right_multiplier,
    riesz_multiplier,
    wavenumbers,
)
from weakpareto.numerics.tempered import TEMPERED_KINDS, tempered_spectral_multiplier

# building blocks
# ---------------------------------------------------------------------------------------


def _multiplier(
    operator: str, kappa: FloatArray, order: float, tempering: float | None = None
) -> ComplexArray:
    """Symbol of one truth term; the tempered families (``tempered``, ``tempered_riesz``,
    :mod:`weakpareto.numerics.tempered`) at ``tempering`` (``generator.tempering``)."""
    if operator in TEMPERED_KINDS:
        if tempering is None:
            raise ValueError(f"a {operator!r} truth term needs generator.tempering (lambda > 0)")
        return np.asarray(
            tempered_spectral_multiplier(operator, kappa, order, tempering), dtype=np.complex128
        )
    if operator == "riesz":
        return riesz_multiplier(kappa, order).astype(np.complex128)
    if operator == "directional":
        return directional_multiplier(kappa, order)
    if operator == "directional_right":
        return directional_right_multiplier(kappa, order)
    raise ValueError(
        "generator symbols support the operators 'riesz', 'directional', "
        f"'directional_right', 'tempered' and 'tempered_riesz', got {operator!r}"
    )


def _linear_symbol(
    cfg: Mapping[str, Any], kx: FloatArray, ky: FloatArray | None = None
) -> ComplexArray:
    """Fourier symbol ``lambda(k) = sum_j coef_j * s_{order_j}(k)`` of the truth equation; in
    1-D a term's optional ``family`` replaces ``truth.operator`` for that term (a model mixing
    families, e.g. advection with Riesz dispersion); a tempered family's lambda is
    ``generator.tempering`` (in the units of x)."""
    operator = str(get_path(cfg, "truth.operator"))
    terms = truth_terms(cfg)
    tempering = opt_path(cfg, "generator.tempering", None)
    if ky is None:
        lam = np.zeros(kx.shape, dtype=np.complex128)
        for term in terms:
            if "direction" in term and term["direction"] != "x":
                raise ValueError("1-D benchmarks accept only direction 'x' in truth terms")
            family = str(term.get("family") or operator)
            lam += float(term["coef"]) * _multiplier(
                family, kx, float(term["order"]), None if tempering is None else float(tempering)
            )
        return lam
    lam = np.zeros((kx.size, ky.size), dtype=np.complex128)
    for i, term in enumerate(terms):
        direction = term.get("direction")
        if direction == "x":
            lam += float(term["coef"]) * _multiplier(operator, kx, float(term["order"]))[:, None]
        elif direction == "y":
            lam += float(term["coef"]) * _multiplier(operator, ky, float(term["order"]))[None, :]
        else:
            raise ValueError(f"2-D truth.terms[{i}] needs direction 'x' or 'y', got {direction!r}")
    return lam


def _smooth_random_ic(x: FloatArray, L: float, ic: Mapping[str, Any], seed: int) -> FloatArray:
    """docs/method/benchmarks.md#smooth-random-initial-condition: harmonics + ``noise_amp * N(0,1)``
    per point, low-passed by
    ``exp(-filter * f**2)`` with ``f = fftfreq(nx)`` in cycles per sample."""
    u0 = harmonics((x,), (L,), ic.get("harmonics"))
    rng = np.random.default_rng(seed)
    u0 = u0 + float(ic.get("noise_amp", 0.0)) * rng.standard_normal(x.size)
    f = np.fft.fftfreq(x.size)
    return np.real(np.fft.ifft(np.fft.fft(u0) * np.exp(-float(ic.get("filter", 0.0)) * f**2)))


def _active(u0_hat: ComplexArray, tol: float) -> NDArray[np.bool_]:
    mag = np.abs(u0_hat)
    return mag > tol * mag.max() if tol > 0 else mag > 0


def _propagate_exponential(u0_hat: ComplexArray, lam: ComplexArray, t: FloatArray) -> ComplexArray:
    return np.exp(np.multiply.outer(t, lam)) * u0_hat


def _propagate_ml(
    u0_hat: ComplexArray, lam: ComplexArray, t: FloatArray, alpha: float, active_tol: float
) -> tuple[ComplexArray, float]:
    """``u_hat(k, t) = u0_hat(k) E_{alpha,1}(lambda(k) t**alpha)`` on the active modes.

    Returns the spectra (shape ``t.shape + u0_hat.shape``) and ``max|lambda| T**alpha`` over
    the active modes.
    """
    act = _active(u0_hat, active_tol)
    out = np.zeros(t.shape + u0_hat.shape, dtype=np.complex128)
    lam_a = lam[act]
    z = np.multiply.outer(t**alpha, lam_a)
    out[:, act] = mittag_leffler(z, alpha, 1.0) * u0_hat[act]
    max_arg = float(np.max(np.abs(lam_a)) * t[-1] ** alpha) if lam_a.size else 0.0
    return out, max_arg


def _propagate_l1(
    u0_hat: ComplexArray, lam: ComplexArray, dt: float, nt: int, alpha: float
) -> ComplexArray:
    """Implicit L1 Caputo recursion per Fourier mode, ``0 < alpha < 1``
    (docs/method/benchmarks.md#time-space-fractional-rd).

    ``c sum_{k=0}^{n-1} w_k (U_{n-k} - U_{n-k-1}) = lambda U_n`` with
    ``c = dt**-alpha / Gamma(2-alpha)``, ``w_k = (k+1)**(1-alpha) - k**(1-alpha)``.
    """
    c = dt ** (-alpha) / gamma_fn(2.0 - alpha)
    j = np.arange(nt, dtype=np.float64)
    w = (j + 1.0) ** (1.0 - alpha) - j ** (1.0 - alpha)
    U = np.zeros((nt,) + u0_hat.shape, dtype=np.complex128)
    dU = np.zeros_like(U)  # dU[m] = U[m] - U[m-1]
    U[0] = u0_hat
    denom = c - lam
    for n in range(1, nt):
        hist = np.tensordot(w[1:n], dU[n - 1 : 0 : -1], axes=1) if n > 1 else 0.0
        U[n] = (c * U[n - 1] - c * hist) / denom
        dU[n] = U[n] - U[n - 1]
    return U


# generators, one per benchmark kind
# ---------------------------------------------------------------------------------------


def _gen_file(cfg: Mapping[str, Any], seed: int) -> Field:
    """FADE / ADE: the shipped data file (paper default for these benchmarks;
    docs/method/benchmarks.md#fade, #ade)."""
    t, x, _ = make_grid(get_path(cfg, "grid"))
    fname = str(get_path(cfg, "generator.file"))
    sha = opt_path(cfg, "generator.sha256", None)
    u = load_data_file(fname, sha)
    if u.shape != (t.size, x.size):
        raise ValueError(
            f"data file {fname!r} has shape {u.shape} but grid is {(t.size, x.size)}; "
            "fix grid.nt / grid.nx"
        )
    return Field(u, t, x, meta=field_meta(cfg, seed, False, file=fname))


def _gen_fade_ml(cfg: Mapping[str, Any], seed: int) -> Field:
    """FADE regenerated semi-analytically from the file's first row
    (docs/method/benchmarks.md#fade-semi-analytic)."""
    t, x, _ = make_grid(get_path(cfg, "grid"))
    L = pos_float(cfg, "grid.L")
    fname = str(get_path(cfg, "generator.file"))
    row = int(opt_path(cfg, "generator.ic_row", 0))
    data = load_data_file(fname, opt_path(cfg, "generator.sha256", None))
    if data.shape[1] != x.size:
        raise ValueError(f"data file {fname!r} has {data.shape[1]} columns but grid.nx={x.size}")
    mode, alpha = truth_mode_alpha(cfg)
    lam = _linear_symbol(cfg, wavenumbers(x.size, L))
    u0_hat = np.fft.fft(data[row])
    tol = float(opt_path(cfg, "generator.active_tol", 0.0))
    if mode == "int":
        spec = _propagate_exponential(u0_hat, lam, t)
        max_arg = float(np.max(np.abs(lam)) * t[-1])
    else:
        spec, max_arg = _propagate_ml(u0_hat, lam, t, alpha, tol)
    u = np.real(np.fft.ifft(spec, axis=-1))
    return Field(u, t, x, meta=field_meta(cfg, seed, False, file=fname, max_abs_z=max_arg))


def _gen_rd_space(cfg: Mapping[str, Any], seed: int) -> Field:
    """Space-fractional RD: exact exponential per mode, seeded smooth IC
    (docs/method/benchmarks.md#space-fractional-rd)."""
    t, x, _ = make_grid(get_path(cfg, "grid"))
    L = pos_float(cfg, "grid.L")
    mode, _ = truth_mode_alpha(cfg)
    if mode != "int":
        raise ValueError("generator kind 'rd_space' needs truth.mode 'int' (exact exponential)")
    u0 = _smooth_random_ic(x, L, get_path(cfg, "generator.ic"), seed)
    lam = _linear_symbol(cfg, wavenumbers(x.size, L))
    u = np.real(np.fft.ifft(_propagate_exponential(np.fft.fft(u0), lam, t), axis=-1))
    return Field(u, t, x, meta=field_meta(cfg, seed, True))


def _gen_rd_timespace(cfg: Mapping[str, Any], seed: int) -> Field:
    """Time-space-fractional RD: implicit L1 per mode, seeded smooth IC
    (docs/method/benchmarks.md#time-space-fractional-rd)."""
    grid = get_path(cfg, "grid")
    t, x, _ = make_grid(grid)
    L = pos_float(cfg, "grid.L")
    mode, alpha = truth_mode_alpha(cfg)
    if mode != "sub":
        raise ValueError("generator kind 'rd_timespace' needs truth.mode 'sub' (L1 scheme)")
    u0 = _smooth_random_ic(x, L, get_path(cfg, "generator.ic"), seed)
    lam = _linear_symbol(cfg, wavenumbers(x.size, L))
    spec = _propagate_l1(np.fft.fft(u0), lam, time_step(grid), t.size, alpha)
    u = np.real(np.fft.ifft(spec, axis=-1))
    return Field(u, t, x, meta=field_meta(cfg, seed, True, dt=time_step(grid)))


def _gen_superunit(cfg: Mapping[str, Any], seed: int) -> Field:
    """Superunit diagnostic: ``E_{alpha,1}`` per mode, zero initial velocity
    (docs/method/benchmarks.md#superunit-diagnostic)."""
    mode, _ = truth_mode_alpha(cfg)
    if mode != "sup":
        raise ValueError("generator kind 'superunit' needs truth.mode 'sup'")
    return _gen_mittag_leffler(cfg, seed)


def _gen_mittag_leffler(cfg: Mapping[str, Any], seed: int) -> Field:
    """Any linear Caputo equation ``D_t^alpha u = L u`` (0 < alpha < 2) from harmonics,
    ``u_hat(k, t) = u_hat(k, 0) E_{alpha,1}(lambda(k) t^alpha)`` (alpha = 1: the exponential;
    alpha > 1: zero initial velocity, or ``generator.ic.velocity`` harmonics ``v_0`` adding
    ``t E_{alpha,2}(lambda t^alpha) v_0_hat``); exact to the Mittag-Leffler evaluation (ours,
    beyond the paper; docs/method/benchmarks.md#time-fractional-benchmarks-of-our-own). An IC with
    ``noise_amp`` is the seeded smooth IC of the RD benchmarks (``rd_timespace_ml``)."""
    t, x, _ = make_grid(get_path(cfg, "grid"))
    L = pos_float(cfg, "grid.L")
    mode, alpha = truth_mode_alpha(cfg)
    ic = get_path(cfg, "generator.ic")
    seeded = "noise_amp" in ic
    if seeded:  # the seeded smooth IC of the RD benchmarks
        u0 = _smooth_random_ic(x, L, ic, seed)
    else:
        u0 = harmonics((x,), (L,), get_path(cfg, "generator.ic.harmonics"))
    lam = _linear_symbol(cfg, wavenumbers(x.size, L))
    if mode == "int":  # E_{1,1}(z) = exp(z): the exact exponential of the same equation
        u = np.real(np.fft.ifft(_propagate_exponential(np.fft.fft(u0), lam, t), axis=-1))
        return Field(u, t, x, meta=field_meta(cfg, seed, seeded))
    tol = float(opt_path(cfg, "generator.active_tol", 1e-9))
    spec, max_arg = _propagate_ml(np.fft.fft(u0), lam, t, alpha, tol)
    velocity = opt_path(cfg, "generator.ic.velocity", None)
    if velocity is not None:  # u_t(0) = v0 (alpha > 1): + t E_{alpha,2}(lambda t^alpha) v0_hat
        if mode != "sup":
            raise ValueError("generator.ic.velocity needs truth.mode 'sup' (1 < alpha < 2)")
        v0_hat = np.fft.fft(harmonics((x,), (L,), velocity))
        z = np.multiply.outer(t**alpha, lam)
        spec = spec + t[:, None] * mittag_leffler(z, alpha, 2.0) * v0_hat
    u = np.real(np.fft.ifft(spec, axis=-1))
    return Field(u, t, x, meta=field_meta(cfg, seed, seeded, max_abs_z=max_arg))


def _gen_riesz2(cfg: Mapping[str, Any], seed: int) -> Field:
    """Two-term Riesz: random-phase power-law IC normalised to unit std
    (docs/method/benchmarks.md#two-term-riesz)."""
    t, x, _ = make_grid(get_path(cfg, "grid"))
    L = pos_float(cfg, "grid.L")
    mode, _ = truth_mode_alpha(cfg)
    if mode != "int":
        raise ValueError("generator kind 'riesz2' needs truth.mode 'int' (exact exponential)")
    ic = get_path(cfg, "generator.ic")
    decay = float(ic.get("decay", 0.35))
    n_modes = max(2, x.size // 2 - int(ic.get("mode_margin", 5)))
    rng = np.random.default_rng(seed)
    u0 = np.zeros(x.size)
    for m in range(1, n_modes):
        phase = rng.uniform(0.0, 2.0 * np.pi)
        u0 += m ** (-decay) * np.sin(2.0 * np.pi * m * x / L + phase)
    u0 = u0 / (np.std(u0) + float(ic.get("std_eps", 1e-14)))
    lam = _linear_symbol(cfg, wavenumbers(x.size, L))
    u = np.real(np.fft.ifft(_propagate_exponential(np.fft.fft(u0), lam, t), axis=-1))
    return Field(u, t, x, meta=field_meta(cfg, seed, True, n_modes=n_modes - 1))


def _gen_twod(cfg: Mapping[str, Any], seed: int) -> Field:
    """2-D directional benchmarks A/B: complex ``E_{alpha,1}`` per active mode
    (docs/method/two-d.md#model)."""
    t, x, y = make_grid(get_path(cfg, "grid"))
    if y is None:
        raise ValueError("generator kind 'twod' needs grid.ny and grid.Ly")
    L, Ly = pos_float(cfg, "grid.L"), pos_float(cfg, "grid.Ly")
    mode, alpha = truth_mode_alpha(cfg)
    if mode == "int":
        raise ValueError("generator kind 'twod' needs a Caputo truth.mode ('sub' or 'sup')")
    u0 = harmonics((x, y), (L, Ly), get_path(cfg, "generator.ic.harmonics"))
    lam = _linear_symbol(cfg, wavenumbers(x.size, L), wavenumbers(y.size, Ly))
    u0_hat = np.fft.fft2(u0)
    tol = float(opt_path(cfg, "generator.active_tol", 1e-9))
    act = _active(u0_hat, tol)
    max_allowed = float(opt_path(cfg, "generator.max_abs_z", 12.0))
    max_arg = float(np.max(np.abs(lam[act])) * t[-1] ** alpha)
    if max_arg > max_allowed:
        raise ValueError(
            f"benchmark '{bench_name(cfg)}': max|lambda| T^alpha = {max_arg:.4g} exceeds "
            f"generator.max_abs_z = {max_allowed:g}; shorten grid.T or reduce the IC modes"
        )
    spec, _ = _propagate_ml(u0_hat, lam, t, alpha, tol)
    field_c = np.fft.ifft2(spec, axes=(1, 2))
    max_imag = float(np.max(np.abs(field_c.imag)))
    imag_tol = float(opt_path(cfg, "generator.imag_tol", 1e-10))
    if max_imag >= imag_tol:
        raise RuntimeError(
            f"benchmark '{bench_name(cfg)}': inverse FFT has imaginary part {max_imag:.3g} >= "
            f"{imag_tol:g}; the symbol is not conjugate-symmetric on the active modes"
        )
    return Field(
        np.real(field_c),
        t,
        x,
        y,
        meta=field_meta(
            cfg,
            seed,
            False,
            max_abs_z=max_arg,
            max_imag=max_imag,
            n_active_modes=int(np.count_nonzero(act)),
        ),
    )


GENERATORS: dict[str, Callable[[Mapping[str, Any], int], Field]] = {
    "file": _gen_file,
    "fade_ml": _gen_fade_ml,
    "rd_space": _gen_rd_space,
    "rd_timespace": _gen_rd_timespace,
    "burgers": generate_burgers,
    "superunit": _gen_superunit,
    "mittag_leffler": _gen_mittag_leffler,
    "riesz2": _gen_riesz2,
    "twod": _gen_twod,
    "ks": generate_ks,
    "kdv": generate_kdv,
    "levy_flight": levy_flight_density,
    "pycaputo": fode_lines,
}


def generate(bench: Mapping[str, Any] | DictConfig | str, seed: int = 0) -> Field:
    """Generate (or load) a benchmark field.

    Parameters
    ----------
    bench
        Benchmark config mapping (``DictConfig`` or ``dict``, schema of
        ``conf/benchmark/*.yaml``) or a benchmark name for :func:`load_benchmark`.
    seed
        Run seed (non-negative integer); it regenerates the random part of the RD and
        two-term-Riesz initial conditions and is ignored by the other benchmarks.
    """
    if isinstance(bench, str):
        bench = load_benchmark(bench)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    cfg = plain_config(bench)
    kind = get_path(cfg, "generator.kind")
    if kind not in GENERATORS:
        raise ValueError(
            f"unknown generator kind {kind!r} in benchmark '{bench_name(cfg)}'; "
            f"valid kinds: {', '.join(sorted(GENERATORS))}"
        )
    out = GENERATORS[kind](cfg, int(seed))
    window = cfg.get("window", None)
    if window is not None:  # a window of the solver's field: no longer periodic
        out = cut_window(out, (float(window["x"][0]), float(window["x"][1])))
    if not np.all(np.isfinite(out.u)):
        raise RuntimeError(f"benchmark '{bench_name(cfg)}' produced non-finite values")
    return out
