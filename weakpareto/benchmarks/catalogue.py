"""Benchmark catalogue: the frozen :class:`Field` record, benchmark configs and shipped data.

Every benchmark is one YAML file ``conf/benchmark/<name>.yaml``; its ``truth`` block is the single
source of truth for the generating equation (read here by the generators and by the metrics).
"""

from __future__ import annotations

import copy
import hashlib
import io
import numbers
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, cast

import numpy as np
from omegaconf import DictConfig, OmegaConf

from weakpareto._typing import FloatArray

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


def plain_config(bench: Mapping[str, Any] | DictConfig) -> dict[str, Any]:
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


def get_path(cfg: Mapping[str, Any], path: str) -> Any:
    node: Any = cfg
    for key in path.split("."):
        if not isinstance(node, Mapping) or key not in node:
            raise ValueError(f"benchmark config is missing required key '{path}'")
        node = node[key]
    return node


def opt_path(cfg: Mapping[str, Any], path: str, default: Any) -> Any:
    try:
        return get_path(cfg, path)
    except ValueError:
        return default


def pos_int(cfg: Mapping[str, Any], path: str) -> int:
    val = get_path(cfg, path)
    if isinstance(val, bool) or not isinstance(val, numbers.Integral) or val <= 0:
        raise ValueError(f"'{path}' must be a positive integer, got {val!r}")
    return int(val)


def pos_float(cfg: Mapping[str, Any], path: str) -> float:
    val = get_path(cfg, path)
    # cast: typeshed's numbers.Real declares no __gt__; `not val > 0` also rejects NaN
    if isinstance(val, bool) or not isinstance(val, numbers.Real) or not cast(float, val) > 0:
        raise ValueError(f"'{path}' must be a positive number, got {val!r}")
    return float(val)


def bench_name(cfg: Mapping[str, Any]) -> str:
    return str(opt_path(cfg, "name", "<unnamed>"))


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
    nt, nx = pos_int(g, "grid.nt"), pos_int(g, "grid.nx")
    T, L = pos_float(g, "grid.T"), pos_float(g, "grid.L")
    if bool(opt_path(g, "grid.t_endpoint", False)):
        t = np.linspace(0.0, T, nt)
    else:
        t = np.arange(nt) * T / nt
    x = np.arange(nx) * L / nx
    y = None
    if "ny" in grid:
        ny, Ly = pos_int(g, "grid.ny"), pos_float(g, "grid.Ly")
        y = np.arange(ny) * Ly / ny
    return t, x, y


def time_step(grid: Mapping[str, Any]) -> float:
    g = {"grid": grid}
    nt, T = pos_int(g, "grid.nt"), pos_float(g, "grid.T")
    if nt < 2:
        raise ValueError("'grid.nt' must be at least 2 for a time-stepping generator")
    return T / (nt - 1) if bool(opt_path(g, "grid.t_endpoint", False)) else T / nt


# ---------------------------------------------------------------------------------------
def truth_terms(cfg: Mapping[str, Any], *, linear: bool = True) -> list[dict[str, Any]]:
    terms = get_path(cfg, "truth.terms")
    if not isinstance(terms, list) or not terms:
        raise ValueError("'truth.terms' must be a non-empty list of {power, order, coef}")
    out = []
    for i, term in enumerate(terms):
        for key in ("power", "order", "coef"):
            if key not in term:
                raise ValueError(f"'truth.terms[{i}]' is missing '{key}'")
        if linear and int(term["power"]) != 0:
            raise ValueError(
                f"benchmark '{bench_name(cfg)}': generator kind "
                f"'{get_path(cfg, 'generator.kind')}' is linear and needs power 0 in every truth "
                f"term; truth.terms[{i}] has power {term['power']}"
            )
        out.append(dict(term))
    return out


def truth_mode_alpha(cfg: Mapping[str, Any]) -> tuple[str, float]:
    mode = str(get_path(cfg, "truth.mode"))
    alpha = float(get_path(cfg, "truth.alpha"))
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


def field_meta(
    cfg: Mapping[str, Any], seed: int, seed_dependent: bool, **extra: Any
) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "benchmark": bench_name(cfg),
        "label": str(opt_path(cfg, "label", bench_name(cfg))),
        "kind": str(get_path(cfg, "generator.kind")),
        "seed": int(seed),
        "seed_dependent": bool(seed_dependent),
    }
    meta.update(extra)
    return meta


# ---------------------------------------------------------------------------------------


def harmonics(coords: tuple[FloatArray, ...], lengths: tuple[float, ...], spec: Any) -> FloatArray:
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
