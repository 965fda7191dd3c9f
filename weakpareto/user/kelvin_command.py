"""``wp kelvin``: fit the fractional Kelvin creep model to your creep record.

``wp kelvin data=<creep.csv|.parquet|.npz|.mat> load=<stress> out=<result.json>
[alpha_range=[0.1,0.9]] [recipe=ours|paper] [t_key=t] [strain_key=strain]``

The record holds a time column/array ``t`` (time since the constant load was applied, any unit,
``>= 0``) and a ``strain`` column/array (other names via ``t_key=`` / ``strain_key=``); times
need not be sorted or distinct (repeated timestamps are averaged). ``load`` is the constant
stress (the unit of ``E``; MPa in the paper). The fit is :func:`weakpareto.kelvin.model.fit_kelvin`
(paper Eq. kelvin-integral; ``recipe=paper`` is the recipe behind tab:frozen-soil,
docs/method/kelvin.md#paper-recipe).

Every argument, the output path and the record are checked before anything is computed; a
problem raises :class:`UserInputError` (one line naming the problem and the fix, exit code 2 in
``wp``). The result is written atomically as JSON::

    {"model": "...", "alpha", "eta_K", "E", "t_ret", "residual", "a0", "a1", "load",
     "alpha_range", "recipe", "n_rows", "at_bound", "n_raw", "n_unique", "n_averaged",
     "anchored", "t_max", "data", "warnings": [{"code", "level", "message"}]}
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from weakpareto.errors import UserInputError
from weakpareto.io import write_json_atomic
from weakpareto.kelvin.model import ALPHA_RANGE, RECIPES, KelvinFit, fit_kelvin
from weakpareto.user.discover_command import parse_key_values
from weakpareto.user.file_arguments import check_data_path, check_out_path
from weakpareto.user.loading import _read_mat, _read_npz
from weakpareto.user.validation import one_line

KEYS = ("data", "load", "out", "alpha_range", "recipe", "t_key", "strain_key")
STRING_KEYS = ("data", "out", "recipe", "t_key", "strain_key")
SUFFIXES = (".csv", ".parquet", ".npz", ".mat")
#: Fewest distinct observation times the two-parameter fit with an order search accepts.
MIN_OBSERVATIONS = 8

USAGE = (
    "usage: wp kelvin data=<creep.csv|.parquet|.npz|.mat> load=<stress> out=<result.json> "
    "[key=value ...]\n"
    "\n"
    "Fits the fractional Kelvin creep model D_t^alpha eps = sigma/eta_K - (E/eta_K) eps in its\n"
    "integral form eps(t) - eps(0) = a0 t^alpha/Gamma(alpha+1) + a1 I^alpha eps(t) (no pointwise\n"
    "derivative; PCHIP interpolation for the quadrature only); reports alpha, eta_K, E,\n"
    "t_ret = (eta_K/E)^(1/alpha) and the relative integral residual.\n"
    "options (default):\n"
    "  data=<file>             table with columns t, strain (.csv/.parquet), or arrays t, strain\n"
    "                          (.npz/.mat); repeated times are averaged (required)\n"
    "  load=<stress>           the constant applied stress, > 0, e.g. load=1.11 (MPa) (required)\n"
    "  out=<result.json>       result file, must end in .json (required)\n"
    "  alpha_range=[0.1,0.9]   bounded search interval of alpha inside (0, 1)\n"
    "  recipe=ours             ours: residual at the observed times, product-trapezoid integral |\n"
    "                          paper: uniform 400-point grid, left-endpoint rule\n"
    "                          (docs/method/kelvin.md#paper-recipe)\n"
    "  t_key=t                 name of the time column/array\n"
    "  strain_key=strain       name of the strain column/array\n"
    "example: wp kelvin data=creep.csv load=1.11 out=r.json"
)


def usage() -> str:
    return USAGE


# -- arguments --------------------------------------------------------------------------------
def parse_args(args: list[str]) -> dict[str, Any]:
    """``wp kelvin``'s ``key=value`` tokens -> dict; unknown, repeated or malformed keys raise."""
    example = "data=creep.csv load=1.11 out=r.json"
    return parse_key_values(args, KEYS, STRING_KEYS, "kelvin", example, strip_values=True)


def check_load(value: Any) -> float:
    """The applied stress: a finite number > 0."""
    if value is None:
        raise UserInputError("load= is required: the constant applied stress, e.g. load=1.11")
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok or not math.isfinite(float(value)) or float(value) <= 0:
        raise UserInputError(
            f"load={value!r} must be a finite stress > 0 (the unit of E), e.g. load=1.11"
        )
    return float(value)


def check_kelvin_alpha_range(value: Any) -> tuple[float, float]:
    """``[lo, hi]`` with ``0 < lo < hi < 1`` (the Kelvin model's order range)."""
    if value is None:
        return ALPHA_RANGE
    example = "alpha_range=[0.1,0.9]"
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise UserInputError(f"alpha_range={value!r} must be two numbers [lo,hi], e.g. {example}")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        raise UserInputError(f"alpha_range={value!r} must be two numbers [lo,hi], e.g. {example}")
    lo, hi = float(value[0]), float(value[1])
    if not (math.isfinite(lo) and math.isfinite(hi)) or not 0.0 < lo < hi < 1.0:
        raise UserInputError(
            f"alpha_range=[{value[0]},{value[1]}] must satisfy 0 < lo < hi < 1 (the Kelvin "
            f"model is fractional, 0 < alpha < 1), e.g. {example}"
        )
    return lo, hi


def check_recipe(value: Any) -> str:
    if value is None:
        return "ours"
    if value not in RECIPES:
        raise UserInputError(
            f"recipe={value!r} is not one of {', '.join(RECIPES)}; e.g. recipe=ours"
        )
    return str(value)


def check_creep_path(data: Any) -> Path:
    """An existing creep-record file with a supported extension."""
    return check_data_path(
        data,
        SUFFIXES,
        example="data=creep.csv (columns t, strain)",
        formats=".csv or .parquet (columns t, strain) or .npz / .mat (arrays t, strain)",
        kind="a creep record",
    )


# -- the record -------------------------------------------------------------------------------
def _read_columns(path: Path, t_key: str, strain_key: str) -> tuple[Any, Any]:
    suffix = path.suffix.lower()
    if suffix in (".csv", ".parquet"):
        import pandas as pd

        try:
            table = pd.read_csv(path) if suffix == ".csv" else pd.read_parquet(path)
        except Exception as err:
            raise UserInputError(
                f"cannot read data={path} as {suffix[1:]} ({one_line(err)}); write a table with "
                "columns t, strain"
            ) from None
        found: dict[str, Any] = {str(c).strip(): table[c].to_numpy() for c in table.columns}
        what, opt = "column", "{}_key=<column>"
    else:
        found = _read_npz(path) if suffix == ".npz" else _read_mat(path)
        what, opt = "array", "{}_key=<name>"
    out = []
    for name, key in (("t", t_key), ("strain", strain_key)):
        if key not in found:
            have = ", ".join(sorted(found)) or "none"
            raise UserInputError(
                f"data={path} has no {what} {key!r} ({what}s: {have}); name the {name} "
                f"{what} with {opt.format(name)}"
            )
        out.append(found[key])
    return out[0], out[1]


def _numeric(path: Path, name: str, values: Any) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim > 1 and 1 in arr.shape:  # MATLAB (n, 1) / (1, n) vectors
        arr = arr.ravel()
    if arr.ndim != 1:
        raise UserInputError(
            f"{name} in data={path} has shape {arr.shape}; give one value per observation"
        )
    if np.iscomplexobj(arr):
        raise UserInputError(f"{name} in data={path} is complex; give real values")
    try:
        out = arr.astype(np.float64)
    except (TypeError, ValueError):
        bad = next((i for i, v in enumerate(arr) if not _is_number(v)), 0)
        raise UserInputError(
            f"{name} in data={path} has a non-numeric value {arr[bad]!r} (row {bad}); "
            "give numbers only"
        ) from None
    bad_rows = np.flatnonzero(~np.isfinite(out))
    if bad_rows.size:
        raise UserInputError(
            f"{name} in data={path} has {bad_rows.size} missing or non-finite value(s) (first "
            f"at row {bad_rows[0]}); remove those rows"
        )
    return out


def _is_number(v: Any) -> bool:
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return True


def load_record(path: Path, t_key: str = "t", strain_key: str = "strain") -> tuple[Any, Any]:
    """``(t, strain)`` of a creep record, checked (one-line :class:`UserInputError` otherwise)."""
    if t_key == strain_key:
        raise UserInputError(f"t_key and strain_key are both {t_key!r}; name two different ones")
    t_raw, e_raw = _read_columns(path, t_key, strain_key)
    t = _numeric(path, t_key, t_raw)
    strain = _numeric(path, strain_key, e_raw)
    if t.size != strain.size:
        raise UserInputError(
            f"data={path}: {t_key} has {t.size} values but {strain_key} has {strain.size}; "
            "give one strain per time"
        )
    if t.size and t.min() < 0:
        i = int(np.argmin(t))
        raise UserInputError(
            f"{t_key} in data={path} has a negative time {t[i]:g} (row {i}); t is the time "
            "since the load was applied (shift the record so the load starts at t = 0)"
        )
    n_unique = np.unique(t).size
    if n_unique < MIN_OBSERVATIONS:
        raise UserInputError(
            f"data={path} has {n_unique} distinct time(s); the fit needs at least "
            f"{MIN_OBSERVATIONS} observations of the creep curve"
        )
    order = np.argsort(t, kind="stable")
    ts, es = t[order], strain[order]
    if np.ptp(es) <= 1e-12 * max(np.abs(es).max(), 1e-300):
        raise UserInputError(
            f"{strain_key} in data={path} is constant; a creep record must show the strain "
            "growing under the load"
        )
    if es[-1] - (0.0 if ts[0] > 0 else es[0]) <= 0:
        raise UserInputError(
            f"{strain_key} in data={path} does not grow under the load (last value "
            f"{es[-1]:g}); if compressive strain is recorded as negative, give its magnitude"
        )
    return t, strain


# -- output -----------------------------------------------------------------------------------
def fit_warnings(fit: KelvinFit) -> list[dict[str, str]]:
    """Diagnostics of a fit (``alpha`` at a bound, non-physical parameters)."""
    out = []
    if fit.at_bound:
        lo, hi = fit.alpha_range
        out.append(
            {
                "code": "alpha_at_bound",
                "level": "warning",
                "message": f"alpha {fit.alpha:.4f} is at the search bound [{lo:g}, {hi:g}]; "
                "widen alpha_range",
            }
        )
    if not (fit.eta_k > 0 and fit.modulus > 0):
        out.append(
            {
                "code": "nonphysical",
                "level": "warning",
                "message": f"eta_K {fit.eta_k:.4g} and E {fit.modulus:.4g} are not both "
                "positive: the record does not follow a Kelvin creep curve",
            }
        )
    return out


def describe(fit: KelvinFit) -> list[str]:
    rec = fit.record
    notes = []
    if rec.n_averaged:
        notes.append(f"{rec.n_averaged} repeated timestamp(s) averaged")
    if rec.anchored:
        notes.append("(0, 0) prepended")
    note = "".join(f", {n}" for n in notes)
    return [
        f"record: {rec.n_raw} observations, {rec.n_unique} distinct times in "
        f"[{rec.t[1 if rec.anchored else 0]:g}, {rec.t[-1]:g}]{note}",
        f"fractional Kelvin fit (integral form, recipe {fit.recipe}, alpha in "
        f"[{fit.alpha_range[0]:g}, {fit.alpha_range[1]:g}], load {fit.load:g}):",
        f"  alpha    {fit.alpha:.4f}",
        f"  eta_K    {fit.eta_k:.4g}   (stress * time^alpha)",
        f"  E        {fit.modulus:.4g}",
        f"  t_ret    {fit.t_ret:.4g}   (eta_K / E)^(1/alpha), time unit of the record",
        f"  residual {fit.residual:.4f}   relative, integral equation, {fit.n_rows} rows",
    ]


def kelvin_command(args: list[str]) -> None:
    """Entry point of ``wp kelvin`` (called by :mod:`weakpareto.cli`)."""
    if any(a in ("-h", "--help", "help") for a in args):
        print(usage())
        return
    if not args:
        raise UserInputError(
            "data=, load= and out= are required, e.g. wp kelvin data=creep.csv load=1.11 "
            "out=r.json (wp kelvin --help lists every key)"
        )
    opts = parse_args(args)
    load = check_load(opts.get("load"))
    alpha_range = check_kelvin_alpha_range(opts.get("alpha_range"))
    recipe = check_recipe(opts.get("recipe"))
    out = check_out_path(opts.get("out"), ".json")
    data = check_creep_path(opts.get("data"))
    t, strain = load_record(data, opts.get("t_key", "t"), opts.get("strain_key", "strain"))
    fit = fit_kelvin(t, strain, load, alpha_range=alpha_range, recipe=recipe)
    for line in describe(fit):
        print(line)
    warnings = fit_warnings(fit)
    for w in warnings:
        print(f"{w['level']}: [{w['code']}] {w['message']}")
    payload = {
        "model": "D_t^alpha eps = sigma/eta_K - (E/eta_K) eps (integral form)",
        **fit.as_dict(),
        "data": str(data),
        "warnings": warnings,
    }
    write_json_atomic(out, payload)
    print(f"wrote {out}")
