"""Benchmark data: loaders and forward generators (paper tab:benchmarks, Sec. 5.7; spec §1).

Every benchmark is described by one YAML file ``conf/benchmark/<name>.yaml`` (installed as
package data of ``weakpareto.conf``). :func:`generate` reads its ``generator.kind`` and
dispatches to one function of :data:`GENERATORS`; the result is a frozen :class:`Field`.

Single source of truth
----------------------
The generating equation of every synthetic benchmark is read from the config's ``truth``
block (temporal mode and order, operator family, terms and, in 2-D, directions), so the data
and the metrics can never disagree. The ``generator`` block holds only what the truth does
not determine: initial condition, fine grid and step of the Burgers solver, tolerances.

Conventions (spec §1)
---------------------
* Grids: ``t = linspace(0, T, nt)`` if ``grid.t_endpoint`` else ``arange(nt)*T/nt``;
  ``x = arange(nx)*L/nx`` (periodic, endpoint excluded); 2-D adds ``y`` from ``ny, Ly``.
* Wavenumbers ``2*pi*fftfreq(n, d=L/n)``; Riesz symbol ``-|k|**beta``, directional symbol
  ``(i k)**beta`` on the principal branch with the zero mode annihilated (spec §4.4); the
  order-0 term is the identity (reaction).
* Linear benchmarks are propagated mode by mode: ``exp(lambda t)`` (integer time),
  ``E_{alpha,1}(lambda t**alpha)`` (Caputo, 0<alpha<2, zero initial velocity when
  alpha>1) or the implicit L1 recursion (time-space RD, spec §1.5); the field is the real
  part of the inverse FFT.
* Seeds: the run seed regenerates the random part of the RD and two-term-Riesz initial
  conditions (spec §0 step 1, §15.1); all other benchmarks are seed-independent.
"""

from __future__ import annotations

import copy
import hashlib
import io
import numbers
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray
from omegaconf import DictConfig, OmegaConf
from scipy.special import gamma as gamma_fn

from weakpareto.numerics.mittag_leffler import mittag_leffler
from weakpareto.numerics.operators import directional_multiplier, riesz_multiplier, wavenumbers

__all__ = [
    "GENERATORS",
    "Field",
    "burgers_rhs",
    "generate",
    "list_benchmarks",
    "load_benchmark",
    "load_data_file",
    "make_grid",
]

FloatArray = NDArray[np.float64]
ComplexArray = NDArray[np.complex128]

_DATA_PACKAGE = "weakpareto"
_CONF_PACKAGE = "weakpareto.conf"
_NAME_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


# ---------------------------------------------------------------------------------------
# record
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Field:
    """A sampled benchmark field.

    ``u`` has shape ``(nt, nx)`` (1-D) or ``(nt, nx, ny)`` (2-D, ``u[i, j, k] = u(t_i, x_j,
    y_k)``). The arrays are read-only; ``meta`` records the benchmark name, generator kind,
    seed and generator diagnostics (plain Python values only).
    """

    u: FloatArray
    t: FloatArray
    x: FloatArray
    y: FloatArray | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("u", "t", "x", "y"):
            arr = getattr(self, name)
            if arr is None:
                continue
            arr = np.array(arr, dtype=np.float64, copy=True)
            arr.setflags(write=False)
            object.__setattr__(self, name, arr)
        expected = (self.t.size, self.x.size) + (() if self.y is None else (self.y.size,))
        if self.u.shape != expected:
            raise ValueError(
                f"Field.u has shape {self.u.shape}, expected (nt, nx[, ny]) = {expected}"
            )

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.u.shape)

    @property
    def dt(self) -> float:
        return float(self.t[1] - self.t[0])

    @property
    def dx(self) -> float:
        return float(self.x[1] - self.x[0])


# ---------------------------------------------------------------------------------------
# config access
# ---------------------------------------------------------------------------------------


def _plain(bench: Mapping[str, Any] | DictConfig) -> dict[str, Any]:
    if isinstance(bench, DictConfig):
        out = OmegaConf.to_container(bench, resolve=True)
    elif isinstance(bench, Mapping):
        out = copy.deepcopy(dict(bench))
    else:
        raise ValueError(
            f"benchmark config must be a mapping (dict or DictConfig), got {type(bench).__name__}"
        )
    assert isinstance(out, dict)
    return cast(dict[str, Any], out)  # config keys are strings


def _get(cfg: Mapping[str, Any], path: str) -> Any:
    node: Any = cfg
    for key in path.split("."):
        if not isinstance(node, Mapping) or key not in node:
            raise ValueError(f"benchmark config is missing required key '{path}'")
        node = node[key]
    return node


def _opt(cfg: Mapping[str, Any], path: str, default: Any) -> Any:
    try:
        return _get(cfg, path)
    except ValueError:
        return default


def _pos_int(cfg: Mapping[str, Any], path: str) -> int:
    val = _get(cfg, path)
    if isinstance(val, bool) or not isinstance(val, numbers.Integral) or val <= 0:
        raise ValueError(f"'{path}' must be a positive integer, got {val!r}")
    return int(val)


def _pos_float(cfg: Mapping[str, Any], path: str) -> float:
    val = _get(cfg, path)
    # cast: typeshed's numbers.Real declares no __gt__; `not val > 0` also rejects NaN
    if isinstance(val, bool) or not isinstance(val, numbers.Real) or not cast(float, val) > 0:
        raise ValueError(f"'{path}' must be a positive number, got {val!r}")
    return float(val)


def _name(cfg: Mapping[str, Any]) -> str:
    return str(_opt(cfg, "name", "<unnamed>"))


# ---------------------------------------------------------------------------------------
# benchmark configs and data files
# ---------------------------------------------------------------------------------------


def list_benchmarks() -> list[str]:
    """Names of the benchmark configs shipped in ``conf/benchmark/``."""
    root = resources.files(_CONF_PACKAGE) / "benchmark"
    return sorted(
        p.name[: -len(".yaml")] for p in root.iterdir() if p.is_file() and p.name.endswith(".yaml")
    )


def load_benchmark(name: str) -> DictConfig:
    """Load ``conf/benchmark/<name>.yaml`` as an OmegaConf ``DictConfig``."""
    valid = list_benchmarks()
    if not isinstance(name, str) or name not in valid:
        raise ValueError(f"unknown benchmark {name!r}; valid names: {', '.join(valid)}")
    res = resources.files(_CONF_PACKAGE) / "benchmark" / f"{name}.yaml"
    cfg = OmegaConf.create(res.read_text(encoding="utf-8"))
    assert isinstance(cfg, DictConfig)
    return cfg


def load_data_file(filename: str, sha256: str | None = None) -> FloatArray:
    """Read a whitespace-separated float table shipped in ``weakpareto/data/``.

    If ``sha256`` is given, the file's SHA-256 digest must match it.
    """
    if not isinstance(filename, str) or not _NAME_RE.match(filename) or "/" in filename:
        raise ValueError(f"data file name must be a plain file name, got {filename!r}")
    res = resources.files(_DATA_PACKAGE) / "data" / filename
    if not res.is_file():
        shipped = sorted(p.name for p in (resources.files(_DATA_PACKAGE) / "data").iterdir())
        raise ValueError(f"data file {filename!r} not found; shipped files: {', '.join(shipped)}")
    raw = res.read_bytes()
    if sha256 is not None:
        digest = hashlib.sha256(raw).hexdigest()
        if digest != str(sha256).lower():
            raise ValueError(
                f"data file {filename!r} has SHA-256 {digest}, expected {sha256}; "
                "the shipped file is corrupted or was replaced"
            )
    return np.loadtxt(io.StringIO(raw.decode("ascii")), dtype=np.float64, ndmin=2)


def make_grid(grid: Mapping[str, Any]) -> tuple[FloatArray, FloatArray, FloatArray | None]:
    """Sample grid ``(t, x, y)`` from a ``grid`` config block (``y`` is None in 1-D)."""
    g = {"grid": grid}
    nt, nx = _pos_int(g, "grid.nt"), _pos_int(g, "grid.nx")
    T, L = _pos_float(g, "grid.T"), _pos_float(g, "grid.L")
    if bool(_opt(g, "grid.t_endpoint", False)):
        t = np.linspace(0.0, T, nt)
    else:
        t = np.arange(nt) * T / nt
    x = np.arange(nx) * L / nx
    y = None
    if "ny" in grid:
        ny, Ly = _pos_int(g, "grid.ny"), _pos_float(g, "grid.Ly")
        y = np.arange(ny) * Ly / ny
    return t, x, y


def _time_step(grid: Mapping[str, Any]) -> float:
    g = {"grid": grid}
    nt, T = _pos_int(g, "grid.nt"), _pos_float(g, "grid.T")
    if nt < 2:
        raise ValueError("'grid.nt' must be at least 2 for a time-stepping generator")
    return T / (nt - 1) if bool(_opt(g, "grid.t_endpoint", False)) else T / nt


# ---------------------------------------------------------------------------------------
# building blocks
# ---------------------------------------------------------------------------------------


def _truth_terms(cfg: Mapping[str, Any], *, linear: bool = True) -> list[dict[str, Any]]:
    terms = _get(cfg, "truth.terms")
    if not isinstance(terms, list) or not terms:
        raise ValueError("'truth.terms' must be a non-empty list of {power, order, coef}")
    out = []
    for i, term in enumerate(terms):
        for key in ("power", "order", "coef"):
            if key not in term:
                raise ValueError(f"'truth.terms[{i}]' is missing '{key}'")
        if linear and int(term["power"]) != 0:
            raise ValueError(
                f"benchmark '{_name(cfg)}': generator kind "
                f"'{_get(cfg, 'generator.kind')}' is linear and needs power 0 in every truth "
                f"term; truth.terms[{i}] has power {term['power']}"
            )
        out.append(dict(term))
    return out


def _multiplier(operator: str, kappa: FloatArray, order: float) -> ComplexArray:
    if operator == "riesz":
        return riesz_multiplier(kappa, order).astype(np.complex128)
    if operator == "directional":
        return directional_multiplier(kappa, order)
    raise ValueError(
        f"generator symbols support truth.operator 'riesz' or 'directional', got {operator!r}"
    )


def _linear_symbol(
    cfg: Mapping[str, Any], kx: FloatArray, ky: FloatArray | None = None
) -> ComplexArray:
    """Fourier symbol ``lambda(k) = sum_j coef_j * s_{order_j}(k)`` of the truth equation."""
    operator = str(_get(cfg, "truth.operator"))
    terms = _truth_terms(cfg)
    if ky is None:
        lam = np.zeros(kx.shape, dtype=np.complex128)
        for term in terms:
            if "direction" in term and term["direction"] != "x":
                raise ValueError("1-D benchmarks accept only direction 'x' in truth terms")
            lam += float(term["coef"]) * _multiplier(operator, kx, float(term["order"]))
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


def _truth_mode_alpha(cfg: Mapping[str, Any]) -> tuple[str, float]:
    mode = str(_get(cfg, "truth.mode"))
    alpha = float(_get(cfg, "truth.alpha"))
    if mode == "int":
        if alpha != 1.0:
            raise ValueError(f"truth.mode 'int' requires truth.alpha 1.0, got {alpha}")
    elif mode == "sub":
        if not 0.0 < alpha < 1.0:
            raise ValueError(f"truth.mode 'sub' requires 0 < truth.alpha < 1, got {alpha}")
    elif mode == "sup":
        if not 1.0 < alpha < 2.0:
            raise ValueError(f"truth.mode 'sup' requires 1 < truth.alpha < 2, got {alpha}")
    else:
        raise ValueError(f"truth.mode must be one of sub, int, sup; got {mode!r}")
    return mode, alpha


def _harmonics(coords: tuple[FloatArray, ...], lengths: tuple[float, ...], spec: Any) -> FloatArray:
    """Sum of ``amp * fn(2*pi*(m_x x/L_x [+ m_y y/L_y]) + phase)`` on the tensor grid."""
    if not isinstance(spec, list) or not spec:
        raise ValueError("initial-condition 'harmonics' must be a non-empty list")
    mesh = np.meshgrid(*coords, indexing="ij")
    out = np.zeros(mesh[0].shape)
    keys = ("m",) if len(coords) == 1 else ("mx", "my")
    for i, h in enumerate(spec):
        fn_name = h.get("fn", "sin")
        if fn_name not in ("sin", "cos"):
            raise ValueError(f"harmonics[{i}].fn must be 'sin' or 'cos', got {fn_name!r}")
        fn = np.sin if fn_name == "sin" else np.cos
        arg = np.zeros_like(out)
        for key, c, L in zip(keys, mesh, lengths, strict=True):
            if key not in h:
                raise ValueError(f"harmonics[{i}] is missing '{key}'")
            arg = arg + 2.0 * np.pi * float(h[key]) * c / L
        out = out + float(h["amp"]) * fn(arg + float(h.get("phase", 0.0)))
    return out


def _smooth_random_ic(x: FloatArray, L: float, ic: Mapping[str, Any], seed: int) -> FloatArray:
    """Spec §1.3: harmonics + ``noise_amp * N(0,1)`` per point, low-passed by
    ``exp(-filter * f**2)`` with ``f = fftfreq(nx)`` in cycles per sample."""
    u0 = _harmonics((x,), (L,), ic.get("harmonics"))
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
    """Implicit L1 Caputo recursion per Fourier mode (spec §1.5), ``0 < alpha < 1``.

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


def _meta(cfg: Mapping[str, Any], seed: int, seed_dependent: bool, **extra: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "benchmark": _name(cfg),
        "label": str(_opt(cfg, "label", _name(cfg))),
        "kind": str(_get(cfg, "generator.kind")),
        "seed": int(seed),
        "seed_dependent": bool(seed_dependent),
    }
    meta.update(extra)
    return meta


# ---------------------------------------------------------------------------------------
# generators, one per benchmark kind
# ---------------------------------------------------------------------------------------


def _gen_file(cfg: Mapping[str, Any], seed: int) -> Field:
    """FADE / ADE: the shipped data file (paper default for these benchmarks, spec §1.1-1.2)."""
    t, x, _ = make_grid(_get(cfg, "grid"))
    fname = str(_get(cfg, "generator.file"))
    sha = _opt(cfg, "generator.sha256", None)
    u = load_data_file(fname, sha)
    if u.shape != (t.size, x.size):
        raise ValueError(
            f"data file {fname!r} has shape {u.shape} but grid is {(t.size, x.size)}; "
            "fix grid.nt / grid.nx"
        )
    return Field(u, t, x, meta=_meta(cfg, seed, False, file=fname))


def _gen_fade_ml(cfg: Mapping[str, Any], seed: int) -> Field:
    """FADE regenerated semi-analytically from the file's first row (spec README)."""
    t, x, _ = make_grid(_get(cfg, "grid"))
    L = _pos_float(cfg, "grid.L")
    fname = str(_get(cfg, "generator.file"))
    row = int(_opt(cfg, "generator.ic_row", 0))
    data = load_data_file(fname, _opt(cfg, "generator.sha256", None))
    if data.shape[1] != x.size:
        raise ValueError(f"data file {fname!r} has {data.shape[1]} columns but grid.nx={x.size}")
    mode, alpha = _truth_mode_alpha(cfg)
    lam = _linear_symbol(cfg, wavenumbers(x.size, L))
    u0_hat = np.fft.fft(data[row])
    tol = float(_opt(cfg, "generator.active_tol", 0.0))
    if mode == "int":
        spec = _propagate_exponential(u0_hat, lam, t)
        max_arg = float(np.max(np.abs(lam)) * t[-1])
    else:
        spec, max_arg = _propagate_ml(u0_hat, lam, t, alpha, tol)
    u = np.real(np.fft.ifft(spec, axis=-1))
    return Field(u, t, x, meta=_meta(cfg, seed, False, file=fname, max_abs_z=max_arg))


def _gen_rd_space(cfg: Mapping[str, Any], seed: int) -> Field:
    """Space-fractional RD (spec §1.3-1.4): exact exponential per mode, seeded smooth IC."""
    t, x, _ = make_grid(_get(cfg, "grid"))
    L = _pos_float(cfg, "grid.L")
    mode, _ = _truth_mode_alpha(cfg)
    if mode != "int":
        raise ValueError("generator kind 'rd_space' needs truth.mode 'int' (exact exponential)")
    u0 = _smooth_random_ic(x, L, _get(cfg, "generator.ic"), seed)
    lam = _linear_symbol(cfg, wavenumbers(x.size, L))
    u = np.real(np.fft.ifft(_propagate_exponential(np.fft.fft(u0), lam, t), axis=-1))
    return Field(u, t, x, meta=_meta(cfg, seed, True))


def _gen_rd_timespace(cfg: Mapping[str, Any], seed: int) -> Field:
    """Time-space-fractional RD (spec §1.5): implicit L1 per mode, seeded smooth IC."""
    grid = _get(cfg, "grid")
    t, x, _ = make_grid(grid)
    L = _pos_float(cfg, "grid.L")
    mode, alpha = _truth_mode_alpha(cfg)
    if mode != "sub":
        raise ValueError("generator kind 'rd_timespace' needs truth.mode 'sub' (L1 scheme)")
    u0 = _smooth_random_ic(x, L, _get(cfg, "generator.ic"), seed)
    lam = _linear_symbol(cfg, wavenumbers(x.size, L))
    spec = _propagate_l1(np.fft.fft(u0), lam, _time_step(grid), t.size, alpha)
    u = np.real(np.fft.ifft(spec, axis=-1))
    return Field(u, t, x, meta=_meta(cfg, seed, True, dt=_time_step(grid)))


def _burgers_parts(cfg: Mapping[str, Any]) -> tuple[float, float, float]:
    """(advection coef a, diffusion coef nu, order beta) of ``u_t = a u u_x + nu D^beta u``."""
    if str(_get(cfg, "truth.operator")) != "directional":
        raise ValueError("generator kind 'burgers' needs truth.operator 'directional'")
    mode, _ = _truth_mode_alpha(cfg)
    if mode != "int":
        raise ValueError("generator kind 'burgers' needs truth.mode 'int'")
    adv = [tm for tm in _truth_terms(cfg, linear=False) if int(tm["power"]) == 1]
    lin = [tm for tm in _truth_terms(cfg, linear=False) if int(tm["power"]) == 0]
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
    """Semi-discrete right-hand side of ``u_t = advection*u*u_x + nu*D_x^beta u`` (spec §1.6).

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
    t, x, _ = make_grid(_get(cfg, "grid"))
    L = _pos_float(cfg, "grid.L")
    nx_fine = _pos_int(cfg, "generator.nx_fine")
    if nx_fine % x.size:
        raise ValueError(f"generator.nx_fine={nx_fine} must be a multiple of grid.nx={x.size}")
    dt_fine = _pos_float(cfg, "generator.dt_fine")
    dt_out = float(t[1] - t[0])
    every = round(dt_out / dt_fine)
    if every < 1 or abs(dt_out / dt_fine - every) > 1e-9:
        raise ValueError(
            f"output step {dt_out} must be an integer multiple of generator.dt_fine={dt_fine}"
        )
    if bool(_opt(cfg, "grid.t_endpoint", False)):
        raise ValueError("generator kind 'burgers' expects grid.t_endpoint false (t_j = j*T/nt)")
    adv, nu, beta = _burgers_parts(cfg)
    x_fine = np.arange(nx_fine) * L / nx_fine
    kappa = wavenumbers(nx_fine, L)
    frac = float(_get(cfg, "generator.dealias"))
    mask = np.abs(kappa) <= frac * np.max(np.abs(kappa))
    ic = _get(cfg, "generator.ic")
    u0 = float(ic.get("scale", 1.0)) * _harmonics((x_fine,), (L,), ic.get("harmonics"))
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


def _gen_burgers(cfg: Mapping[str, Any], seed: int) -> Field:
    """Fractional Burgers (spec §1.6): classic RK4 pseudospectral on the fine grid.

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
    return Field(u, t, x, meta=_meta(cfg, seed, False, dt_fine=h, steps_per_output=every))


def _gen_superunit(cfg: Mapping[str, Any], seed: int) -> Field:
    """Superunit diagnostic (spec §1.8): ``E_{alpha,1}`` per mode, zero initial velocity."""
    t, x, _ = make_grid(_get(cfg, "grid"))
    L = _pos_float(cfg, "grid.L")
    mode, alpha = _truth_mode_alpha(cfg)
    if mode != "sup":
        raise ValueError("generator kind 'superunit' needs truth.mode 'sup'")
    u0 = _harmonics((x,), (L,), _get(cfg, "generator.ic.harmonics"))
    lam = _linear_symbol(cfg, wavenumbers(x.size, L))
    tol = float(_opt(cfg, "generator.active_tol", 1e-9))
    spec, max_arg = _propagate_ml(np.fft.fft(u0), lam, t, alpha, tol)
    u = np.real(np.fft.ifft(spec, axis=-1))
    return Field(u, t, x, meta=_meta(cfg, seed, False, max_abs_z=max_arg))


def _gen_riesz2(cfg: Mapping[str, Any], seed: int) -> Field:
    """Two-term Riesz (spec §1.7): random-phase power-law IC normalised to unit std."""
    t, x, _ = make_grid(_get(cfg, "grid"))
    L = _pos_float(cfg, "grid.L")
    mode, _ = _truth_mode_alpha(cfg)
    if mode != "int":
        raise ValueError("generator kind 'riesz2' needs truth.mode 'int' (exact exponential)")
    ic = _get(cfg, "generator.ic")
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
    return Field(u, t, x, meta=_meta(cfg, seed, True, n_modes=n_modes - 1))


def _gen_twod(cfg: Mapping[str, Any], seed: int) -> Field:
    """2-D directional benchmarks A/B (spec §1.10): complex ``E_{alpha,1}`` per active mode."""
    t, x, y = make_grid(_get(cfg, "grid"))
    if y is None:
        raise ValueError("generator kind 'twod' needs grid.ny and grid.Ly")
    L, Ly = _pos_float(cfg, "grid.L"), _pos_float(cfg, "grid.Ly")
    mode, alpha = _truth_mode_alpha(cfg)
    if mode == "int":
        raise ValueError("generator kind 'twod' needs a Caputo truth.mode ('sub' or 'sup')")
    u0 = _harmonics((x, y), (L, Ly), _get(cfg, "generator.ic.harmonics"))
    lam = _linear_symbol(cfg, wavenumbers(x.size, L), wavenumbers(y.size, Ly))
    u0_hat = np.fft.fft2(u0)
    tol = float(_opt(cfg, "generator.active_tol", 1e-9))
    act = _active(u0_hat, tol)
    max_allowed = float(_opt(cfg, "generator.max_abs_z", 12.0))
    max_arg = float(np.max(np.abs(lam[act])) * t[-1] ** alpha)
    if max_arg > max_allowed:
        raise ValueError(
            f"benchmark '{_name(cfg)}': max|lambda| T^alpha = {max_arg:.4g} exceeds "
            f"generator.max_abs_z = {max_allowed:g}; shorten grid.T or reduce the IC modes"
        )
    spec, _ = _propagate_ml(u0_hat, lam, t, alpha, tol)
    field_c = np.fft.ifft2(spec, axes=(1, 2))
    max_imag = float(np.max(np.abs(field_c.imag)))
    imag_tol = float(_opt(cfg, "generator.imag_tol", 1e-10))
    if max_imag >= imag_tol:
        raise RuntimeError(
            f"benchmark '{_name(cfg)}': inverse FFT has imaginary part {max_imag:.3g} >= "
            f"{imag_tol:g}; the symbol is not conjugate-symmetric on the active modes"
        )
    return Field(
        np.real(field_c),
        t,
        x,
        y,
        meta=_meta(
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
    "burgers": _gen_burgers,
    "superunit": _gen_superunit,
    "riesz2": _gen_riesz2,
    "twod": _gen_twod,
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
    cfg = _plain(bench)
    kind = _get(cfg, "generator.kind")
    if kind not in GENERATORS:
        raise ValueError(
            f"unknown generator kind {kind!r} in benchmark '{_name(cfg)}'; "
            f"valid kinds: {', '.join(sorted(GENERATORS))}"
        )
    out = GENERATORS[kind](cfg, int(seed))
    if not np.all(np.isfinite(out.u)):
        raise RuntimeError(f"benchmark '{_name(cfg)}' produced non-finite values")
    return out
