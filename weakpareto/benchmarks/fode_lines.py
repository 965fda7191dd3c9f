"""Nonlinear benchmarks from an independent fractional solver: pycaputo by the method of lines
(ours; docs/independent-suite.md#nonlinear-fields-from-pycaputo).

The field solves ``D_t^alpha u = sum_j c_j u^{p_j} X_{beta_j} u`` (Caputo, ``0 < alpha < 2``) on a
periodic grid. Space is pseudo-spectral — each ``X_beta`` is its Fourier multiplier on the grid
(the same symbols as the linear generators) — so the ``nx`` grid values form a system of
fractional ODEs, which ``pycaputo``'s predictor–corrector (PECE, Diethelm–Ford–Freed, product
integration of the Volterra form; order ``1 + alpha`` for smooth right-hand sides, limited by the
``t^alpha`` start of a Caputo solution) integrates with ``substeps`` steps per output interval.
Nothing here shares a discretisation with the package's weak method (no L1 weights, no weak
form), which is the point: the independent suite fits these fields as data another solver made.

``pycaputo`` is an optional dependency (``pip install 'weakpareto[independent]'``, installed by
``make test``); the convergence in the step is tested against exact Mittag-Leffler modes
(tests/benchmarks/test_fode_lines.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
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
from weakpareto.numerics.operators import (
    directional_multiplier,
    riesz_multiplier,
    wavenumbers,
)

#: Solver steps per output interval when ``generator.substeps`` is not given.
DEFAULT_SUBSTEPS = 4


def _symbol(operator: str, kappa: FloatArray, order: float) -> np.ndarray:
    if operator == "riesz":
        return riesz_multiplier(kappa, order).astype(np.complex128)
    if operator == "directional":
        return directional_multiplier(kappa, order)
    raise ValueError(
        f"the pycaputo generator supports riesz and directional terms, got {operator!r}"
    )


def right_hand_side(
    cfg: Mapping[str, Any], kappa: FloatArray
) -> Callable[[float, np.ndarray], np.ndarray]:
    """``f(t, u) = sum_j c_j u^{p_j} X_{beta_j} u`` on the grid (pseudo-spectral)."""
    operator = str(get_path(cfg, "truth.operator"))
    terms = [
        (
            int(t["power"]),
            float(t["coef"]),
            _symbol(str(t.get("family") or operator), kappa, float(t["order"])),
        )
        for t in truth_terms(cfg, linear=False)
    ]

    def f(_t: float, u: np.ndarray) -> np.ndarray:
        spectrum = np.fft.fft(u)
        out = np.zeros_like(u)
        for power, coef, symbol in terms:
            out += coef * u**power * np.real(np.fft.ifft(symbol * spectrum))
        return out

    return f


def solve_lines(
    f: Callable[[float, np.ndarray], np.ndarray],
    u0: np.ndarray,
    u1: np.ndarray | None,
    alpha: float,
    t: FloatArray,
    substeps: int,
) -> np.ndarray:
    """``u(t_i)`` ``(nt, nx)`` of ``D^alpha u = f(t, u)``, ``u(0) = u0`` (``u'(0) = u1`` for
    ``alpha > 1``) by pycaputo's PECE on a uniform step ``(t_1 - t_0) / substeps``."""
    try:
        from pycaputo.controller import make_fixed_controller
        from pycaputo.derivatives import CaputoDerivative
        from pycaputo.events import StepCompleted
        from pycaputo.fode import caputo
        from pycaputo.stepping import evolve
    except ImportError as exc:  # an optional extra
        raise ImportError(
            "the pycaputo generator needs the optional 'pycaputo' package: "
            "pip install 'weakpareto[independent]'"
        ) from exc
    dt = float(t[1] - t[0]) / substeps
    n_steps = (t.size - 1) * substeps
    y0: tuple[np.ndarray, ...] = (np.asarray(u0, dtype=float),)
    source: Any = f  # pycaputo's StateFunction protocol: (t, y) -> dy, as f is
    if alpha > 1.0:
        y0 = y0 + (np.zeros_like(y0[0]) if u1 is None else np.asarray(u1, dtype=float),)
    method = caputo.PECE(
        ds=tuple(CaputoDerivative(alpha) for _ in range(u0.size)),
        control=make_fixed_controller(dt, tstart=float(t[0]), nsteps=n_steps),
        source=source,
        y0=y0,
        corrector_iterations=max(1, math.ceil(1.0 / min(alpha, 1.0))),
    )
    out = np.full((t.size, u0.size), np.nan)
    out[0] = u0
    for event in evolve(method, dtinit=dt):  # dtinit: else the first step is the solver's guess
        if isinstance(event, StepCompleted) and event.iteration % substeps == 0:
            k = event.iteration // substeps
            if 0 < k < t.size:
                if abs(float(event.t) - float(t[k])) > 1e-8 * float(t[-1] - t[0]):
                    raise RuntimeError(f"pycaputo step {event.iteration}: t={event.t}, not {t[k]}")
                out[k] = event.y
    if not np.all(np.isfinite(out)):
        raise RuntimeError("pycaputo did not reach every output time (or the solution blew up)")
    return out


def fode_lines(cfg: Mapping[str, Any], seed: int) -> Field:
    """Generator ``kind: pycaputo`` (module docstring): initial condition ``generator.ic.offset``
    plus ``generator.ic.harmonics`` (and ``generator.ic.velocity`` above order 1),
    ``generator.substeps`` solver steps per output step; seed-independent."""
    t, x, _ = make_grid(get_path(cfg, "grid"))
    L = pos_float(cfg, "grid.L")
    mode, alpha = truth_mode_alpha(cfg)
    offset = float(opt_path(cfg, "generator.ic.offset", 0.0))  # nonlinear terms need a level
    u0 = offset + harmonics((x,), (L,), get_path(cfg, "generator.ic.harmonics"))
    velocity = opt_path(cfg, "generator.ic.velocity", None)
    if velocity is not None and mode != "sup":
        raise ValueError("generator.ic.velocity needs truth.mode 'sup' (1 < alpha < 2)")
    u1 = None if velocity is None else harmonics((x,), (L,), velocity)
    substeps = int(opt_path(cfg, "generator.substeps", DEFAULT_SUBSTEPS))
    f = right_hand_side(cfg, wavenumbers(x.size, L))
    u = solve_lines(f, u0, u1, 1.0 if mode == "int" else alpha, t, substeps)
    return Field(u, t, x, meta=field_meta(cfg, seed, False, substeps=substeps))
