"""Non-periodic test fields for bounded-domain discovery (ours,
docs/method/extensions.md#bounded-domain).

* :func:`cut_window` cuts a spatial (and temporal) window out of a field, so a window of a
  periodic simulation has an exactly known equation but no periodicity.
* :func:`burgers_window` / :func:`kdv_window`: windows of integer-order Burgers
  (``u_t = -u u_x + nu u_xx``, the package's RK4 pseudospectral solver) and of the KdV
  two-soliton benchmark (``u_t = -6 u u_x - u_xxx``).
* :func:`fractional_ade_dirichlet`: an independent finite-domain solver for the space-fractional
  advection–dispersion equation ``u_t = -v u_x + d D_{0+}^beta u`` on ``[0, L]`` with zero
  Dirichlet data: Crank–Nicolson in time, the shifted Grünwald formula (Meerschaert–Tadjeran)
  for the left Riemann–Liouville derivative with terminal 0 and central differences for the
  advection, on a fine grid, then subsampled.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import linalg

from weakpareto.benchmarks.burgers import generate_burgers
from weakpareto.benchmarks.catalogue import Field, load_benchmark, plain_config
from weakpareto.benchmarks.kdv import generate_kdv
from weakpareto.numerics.operators import grunwald_letnikov_weights


def cut_window(
    field: Field, x_range: tuple[float, float], t_range: tuple[float, float] | None = None
) -> Field:
    """The part of ``field`` with ``x_range[0] <= x <= x_range[1]`` (and ``t`` in ``t_range``)."""
    xm = (field.x >= x_range[0]) & (field.x <= x_range[1])
    tm = np.ones(field.t.size, dtype=bool)
    if t_range is not None:
        tm = (field.t >= t_range[0]) & (field.t <= t_range[1])
    meta = dict(
        field.meta, window_x=list(x_range), window_t=None if t_range is None else list(t_range)
    )
    return Field(field.u[np.ix_(tm, xm)], field.t[tm], field.x[xm], meta=meta)


def burgers_config(nu: float = 0.3) -> dict[str, Any]:
    """The Burgers benchmark's solver with integer diffusion ``nu u_xx`` on a 240-point grid."""
    cfg = plain_config(load_benchmark("burgers"))
    cfg["name"] = "burgers_int"
    cfg["truth"]["terms"] = [
        {"power": 1, "order": 1.0, "coef": -1.0},
        {"power": 0, "order": 2.0, "coef": float(nu)},
    ]
    cfg["generator"]["nx_fine"] = 480
    cfg["generator"]["dt_fine"] = 0.002
    cfg["grid"]["nx"] = 240
    return cfg


def burgers_window(
    nu: float = 0.3, x_range: tuple[float, float] = (6.0, 24.0)
) -> tuple[Field, dict[str, Any]]:
    """Window of integer-order Burgers ``u_t = -u u_x + nu u_xx`` (L = 30) and its truth."""
    full = generate_burgers(burgers_config(nu), 0)
    truth = {"alpha": 1.0, "terms": [(1, 1.0, -1.0), (0, 2.0, float(nu))]}
    return cut_window(full, x_range), truth


def kdv_window(x_range: tuple[float, float] = (8.0, 32.0)) -> tuple[Field, dict[str, Any]]:
    """Window of the KdV two-soliton benchmark ``u_t = -6 u u_x - u_xxx`` (L = 40) and truth."""
    full = generate_kdv(plain_config(load_benchmark("kdv")), 0)
    truth = {"alpha": 1.0, "terms": [(1, 1.0, -6.0), (0, 3.0, -1.0)]}
    return cut_window(full, x_range), truth


def fractional_ade_dirichlet(
    beta: float = 1.6,
    v: float = 0.6,
    d: float = 0.4,
    length: float = 10.0,
    t_end: float = 6.0,
    nx_fine: int = 600,
    stride: int = 5,
    nt: int = 121,
    dt_fine: float = 0.0025,
    centre: float = 2.5,
    width: float = 0.7,
) -> tuple[Field, dict[str, Any]]:
    """``u_t = -v u_x + d D_{0+}^beta u`` on ``[0, L]``, ``u(0) = u(L) = 0``, Gaussian pulse.

    Crank–Nicolson with the shifted Grünwald matrix ``h^-beta g_{i-j+1}`` (Meerschaert–Tadjeran,
    first order in space; fine grid ``nx_fine`` intervals) and central advection; sampled every
    ``stride`` fine points (interior points and the edges) at ``nt`` times in ``[0, t_end]``.
    """
    h = length / nx_fine
    xf = h * np.arange(nx_fine + 1)
    m = nx_fine - 1  # interior unknowns x_1 .. x_{n-1}
    g = grunwald_letnikov_weights(m + 2, beta)
    i = np.arange(m)[:, None]
    j = np.arange(m)[None, :]
    k = i - j + 1
    frac = np.where(k >= 0, np.take(g, np.clip(k, 0, m + 1)), 0.0) * h ** (-beta)
    adv = (np.eye(m, k=1) - np.eye(m, k=-1)) / (2.0 * h)
    op = d * frac - v * adv
    eye = np.eye(m)
    lhs = linalg.lu_factor(eye - 0.5 * dt_fine * op)
    rhs_mat = eye + 0.5 * dt_fine * op
    u = np.exp(-(((xf - centre) / width) ** 2))[1:-1]
    t_out = np.linspace(0.0, t_end, nt)
    every = round((t_out[1] - t_out[0]) / dt_fine)
    if abs(every * dt_fine - (t_out[1] - t_out[0])) > 1e-12:
        raise ValueError("the output step must be a multiple of dt_fine")
    snaps = np.empty((nt, nx_fine + 1))
    snaps[0] = np.concatenate([[0.0], u, [0.0]])
    for step in range(1, (nt - 1) * every + 1):
        u = linalg.lu_solve(lhs, rhs_mat @ u)
        if step % every == 0:
            snaps[step // every] = np.concatenate([[0.0], u, [0.0]])
    x = np.asarray(xf[::stride], dtype=float)
    field = Field(snaps[:, ::stride], t_out, x, meta={"name": "fade_dirichlet"})
    truth = {"alpha": 1.0, "terms": [(0, 1.0, -float(v)), (0, float(beta), float(d))]}
    return field, truth
