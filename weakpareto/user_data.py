"""``wp discover``: discover an equation in your own data file.

``wp discover data=<file> [operator=directional|riesz] [alpha_range=[lo,hi]]
[beta_range=[lo,hi]] [powers=[0,1,2]] [period=<L>] [power_mode=auto|raw|positive] [seed=<int>]
[max_terms=<int>] ... out=<result.json>``

Inputs: ``.npz`` with arrays ``u`` (nt x nx), ``t`` (nt), ``x`` (nx); or ``.csv`` / ``.parquet``
in long form (columns ``t``, ``x``, ``u``; one row per grid point), pivoted to the grid. All
parameters, the output path and the data are validated before any computation
(:mod:`weakpareto.validation`); bad input raises :class:`UserInputError`, which the ``wp``
dispatcher prints as one line with exit code 2. The result is written atomically (temporary
file + ``os.replace``) as JSON::

    {"equation": "<text>", "mode": "sub"|"int"|"sup", "alpha": float,
     "terms": [{"power": int, "order": float, "coef": float}, ...],
     "pareto_front": [{"size": int, "val_error": float, "train_error": float, ...}, ...], ...}

An identity term has ``"order": 0.0``. The file is also a complete
:meth:`weakpareto.estimator.WeakPareto.to_dict` record (``WeakPareto.from_dict`` reloads it).
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import numpy as np

from weakpareto.atomic import write_text_atomic
from weakpareto.config import UserInputError
from weakpareto.estimator import WeakPareto
from weakpareto.validation import (
    check_data_path,
    check_field,
    check_out_path,
    long_table_to_grid,
    one_line,
)

#: Keys taken verbatim as strings (paths and names are never parsed as numbers).
STRING_KEYS = ("data", "out", "operator", "power_mode", "test_functions", "updating", "selection")
NPZ_ARRAYS = ("u", "t", "x")


def valid_keys() -> list[str]:
    return ["data", "out", "period"] + [
        k for k in inspect.signature(WeakPareto.__init__).parameters if k != "self"
    ]


def usage() -> str:
    defaults = WeakPareto().get_params()
    opts = " ".join(f"[{k}={_show(v)}]" for k, v in defaults.items())
    return (
        "wp discover data=<file.npz|.csv|.parquet> out=<result.json> [period=<L>] " + opts + "\n"
        "  .npz: arrays u (nt x nx), t (nt), x (nx); .csv/.parquet: long form, columns t, x, u\n"
        "  example: wp discover data=f.npz operator=directional alpha_range=[0.6,1.05] "
        "beta_range=[0.5,2.0] out=r.json"
    )


def _show(v: Any) -> str:
    if isinstance(v, tuple | list):
        return "[" + ",".join(str(i) for i in v) + "]"
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


# -- argument parsing -------------------------------------------------------------------------
def _scalar(text: str) -> Any:
    s = text.strip()
    low = s.lower()
    if low in ("null", "none", "~"):
        return None
    if low == "true":
        return True
    if low == "false":
        return False
    try:
        return int(s)
    except ValueError:
        pass
    try:
        return float(s)
    except ValueError:
        return s


def parse_value(text: str) -> Any:
    """``[a,b]`` / ``(a,b)`` -> list of numbers; numbers, true/false, null; else the string."""
    s = text.strip()
    if len(s) >= 2 and s[0] + s[-1] in ("[]", "()"):
        inner = s[1:-1].strip()
        return [] if not inner else [_scalar(item) for item in inner.split(",")]
    return _scalar(s)


def parse_args(args: list[str]) -> dict[str, Any]:
    """``key=value`` tokens -> dict; unknown, repeated or malformed keys raise."""
    keys = valid_keys()
    out: dict[str, Any] = {}
    for tok in args:
        if tok.startswith("-"):
            raise UserInputError(f"unknown flag {tok!r}; use key=value arguments (wp discover -h)")
        if "=" not in tok:
            raise UserInputError(
                f"argument {tok!r} is not key=value; e.g. data=f.npz out=r.json "
                f"(valid keys: {', '.join(keys)})"
            )
        key, value = tok.split("=", 1)
        key = key.strip()
        if key not in keys:
            raise UserInputError(f"unknown key {key!r}; valid keys: {', '.join(keys)}")
        if key in out:
            raise UserInputError(f"{key}= is given twice; keep one")
        out[key] = value if key in STRING_KEYS else parse_value(value)
    return out


# -- data loading -----------------------------------------------------------------------------
def load_data(path: Path) -> tuple[Any, Any, Any]:
    """Read ``(u, t, x)`` from ``.npz`` or a long-form ``.csv`` / ``.parquet`` table."""
    suffix = path.suffix.lower()
    if suffix == ".npz":
        try:
            with np.load(path, allow_pickle=False) as npz:
                present = list(npz.files)
                missing = [k for k in NPZ_ARRAYS if k not in present]
                if missing:
                    raise UserInputError(
                        f"data={path} lacks array(s) {', '.join(missing)} (found: "
                        f"{', '.join(present) or 'none'}); save u (nt x nx), t (nt) and x (nx), "
                        "e.g. np.savez(f, u=u, t=t, x=x)"
                    )
                return npz["u"], npz["t"], npz["x"]
        except UserInputError:
            raise
        except Exception as err:  # corrupt zip, pickled object arrays, ...
            raise UserInputError(
                f"cannot read data={path} as .npz ({one_line(err)}); save it with "
                "np.savez(f, u=u, t=t, x=x)"
            ) from None
    import pandas as pd

    try:
        if suffix == ".csv":
            table = pd.read_csv(path)
        else:
            table = pd.read_parquet(path)
    except Exception as err:  # empty file, parser errors, not a parquet file, ...
        raise UserInputError(
            f"cannot read data={path} as {suffix[1:]} ({one_line(err)}); write a long table "
            "with columns t, x, u"
        ) from None
    u, t, x = long_table_to_grid(table, source=f"data={path}")
    return u, t, x


# -- output -----------------------------------------------------------------------------------
def write_json_atomic(path: Path, payload: dict[str, Any]) -> None:
    """Write JSON to a temporary file beside ``path``, then rename (never half-written)."""
    text = json.dumps(payload, indent=2, allow_nan=False) + "\n"
    write_text_atomic(path, text)


def discover_command(args: list[str]) -> None:
    """Entry point of ``wp discover`` (called by :mod:`weakpareto.cli`)."""
    if any(a in ("-h", "--help", "help") for a in args):
        print(usage())
        return
    if not args:
        raise UserInputError(
            "data= and out= are required, e.g. wp discover data=f.npz out=r.json "
            "(wp discover --help lists every key)"
        )
    opts = parse_args(args)
    params = {k: v for k, v in opts.items() if k not in ("data", "out", "period")}
    model = WeakPareto().set_params(**params)
    cfg = model.discovery_config()  # validates every parameter
    out = check_out_path(opts.get("out"), ".json")
    data = check_data_path(opts.get("data"))
    u, t, x = load_data(data)
    field = check_field(u, t, x, opts.get("period"))
    nt, nx = field.shape
    note = ", repeated endpoint column dropped" if field.dropped_endpoint else ""
    print(
        f"data={data}: u {nt} x {nx} (t x x), t in [{field.t[0]:g}, {field.t[-1]:g}] "
        f"dt {field.dt:g}, x in [{field.x[0]:g}, {field.x[-1]:g}] dx {field.dx:g}, "
        f"period {field.period:g}{note}"
    )
    model._fit_checked(field, cfg)
    g = model.grid_
    print(
        f"operator {cfg.operator}, alpha_range {list(cfg.alpha_range)}, beta_range "
        f"{list(cfg.beta_range)}, powers {list(cfg.powers)} ({g['power_mode']} power mode), "
        f"{g['test_counts'][0]} x {g['test_counts'][1]} test functions"
    )
    model.print()
    payload = model.to_dict()
    payload["data"] = str(data)
    write_json_atomic(out, payload)
    print(f"wrote {out}")
