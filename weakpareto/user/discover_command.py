"""``wp discover``: discover an equation in your own data file.

``wp discover data=<file> [operator=auto|directional|riesz] [alpha_range=[lo,hi]]
[beta_range=[lo,hi]] [powers=[0,1,2]] [period=<L>] [period_y=<L>] [power_mode=auto|raw|positive]
[seed=<int>] [max_terms=<int>] [u_key=<name>] [t_key=<name>] [x_key=<name>] [y_key=<name>]
[uncertainty=bootstrap] [n_boot=200] [level=0.9] [domain=auto|periodic|bounded]
[forcing=<file or key>] [forcing_coef=<c>] ... out=<result.json>`` (``domain``:
:mod:`weakpareto.fit.domain`; the choice and its reason are printed as ``info: [domain] ...``;
known forcing: :mod:`weakpareto.user.forcing_arguments`).

Inputs (:mod:`weakpareto.user.loading`): ``.npz`` or MATLAB ``.mat`` with arrays ``u``
(nt x nx), ``t`` (nt), ``x`` (nx) — other variable names via ``u_key=``, ``t_key=``,
``x_key=`` (defaults also find ``usol``/``U``/``uu``, ``tt``, ``xx``), a ``u`` stored nx x nt is
transposed when unambiguous (the summary line says so); or ``.csv`` / ``.parquet`` in long form
(columns ``t``, ``x``, ``u``; one row per grid point), pivoted to the grid. Two spatial
dimensions: an extra array ``y`` (ny; ``y_key=``) with ``u`` (nt x nx x ny), or an extra column
``y`` (one row per ``(t, x, y)`` triple); 2-D runs the directional discovery of the paper's Sec.
"Extension to two spatial dimensions" (linear terms, ``powers=[0]``, each term with a direction
``x`` or ``y``; ``period_y`` is the y period). All parameters, the output path and the data are
validated before any computation (:mod:`weakpareto.user.validation`); bad input raises
:class:`UserInputError`, which the ``wp`` dispatcher prints as one line with exit code 2. The
discovery runs on the non-dimensionalised field (:mod:`weakpareto.user.scaling`) and reports in
the data's units; its diagnostics (:mod:`weakpareto.fit.checks`) are printed after the
equation (lines ``warning: [code] ...`` / ``info: [code] ...``). The result is written
atomically (temporary file + ``os.replace``) as JSON::

    {"equation": "<text>", "mode": "sub"|"int"|"sup", "alpha": float,
     "terms": [{"power": int, "order": float, "coef": float}, ...],   # 2-D: + "direction"
     "pareto_front": [{"size": int, "val_error": float, "train_error": float, ...}, ...],
     "warnings": [{"code": str, "level": "warning"|"info", "message": str}, ...], ...}

With ``plot=<front.png|.pdf|.svg>`` the Pareto front is also drawn like the paper's fig:pareto
(validation error per support size, selected model circled, sizes the search did not reach up
to ``max_terms`` shaded; :mod:`weakpareto.user.front_plot`).

With ``uncertainty=bootstrap`` (``n_boot=``, ``level=``) the output also prints and stores
``"uncertainty": {"alpha_interval", "terms": [{"order_interval", "coef_interval", "inclusion",
"sensitivity", ...}], "alternatives", ...}`` (:mod:`weakpareto.user.uncertainty_report`).

An identity term has ``"order": 0.0``. The file is also a complete
:meth:`weakpareto.user.estimator.WeakPareto.to_dict` record (``WeakPareto.from_dict`` reloads it).
"""

from __future__ import annotations

import contextlib
import inspect
import io
from pathlib import Path
from typing import Any

import numpy as np

from weakpareto.errors import UserInputError
from weakpareto.io import write_json_atomic
from weakpareto.user.estimator import WeakPareto
from weakpareto.user.experiments import split_experiments
from weakpareto.user.file_arguments import (
    check_out_path,
    check_plot_path,
    check_report_path,
    data_paths,
)
from weakpareto.user.forcing_arguments import read_forcing
from weakpareto.user.loading import KEY_OPTIONS, LoadedData, load_experiments, load_field
from weakpareto.user.validation import CheckedField, CheckedField2D

#: Keys taken verbatim as strings (paths and names are never parsed as numbers).
STRING_KEYS = (
    "data",
    "out",
    "operator",
    "power_mode",
    "test_functions",
    "updating",
    "selection",
    "method",
    "uncertainty",
    "plot",
    "report",
    "domain",
    "forcing",
    "history",
    "noise_kind",
    "refit",
    *KEY_OPTIONS,
)
#: Keys that describe the data, not the estimator (``*_key=`` name variables of array files).
DATA_KEYS = ("data", "out", "period", "period_y", "plot", "report", "forcing", "forcing_coef")


def valid_keys() -> list[str]:
    """Every key ``wp discover`` accepts (and ``wp discover --help`` documents): the data keys,
    the variable-name keys of array files and the estimator parameters."""
    return (
        list(DATA_KEYS)
        + list(KEY_OPTIONS)
        + [k for k in inspect.signature(WeakPareto.__init__).parameters if k != "self"]
    )


def usage() -> str:
    defaults = WeakPareto().get_params()
    opts = " ".join(f"[{k}={_show(v)}]" for k, v in defaults.items())
    return (
        "wp discover data=<file.npz|.mat|.csv|.parquet> out=<result.json> [period=<L>] "
        "[period_y=<L>] [plot=<front.png>] [report=<fit.html>] [forcing=<file|key>] "
        "[forcing_coef=<c>] [u_key=<name>] [t_key=<name>] "
        "[x_key=<name>] [y_key=<name>] " + opts + "\n"
        "  .npz/.mat: arrays u (nt x nx; nx x nt is transposed), t (nt), x (nx), named by\n"
        "  u_key/t_key/x_key (default u|usol|U|uu, t|tt, x|xx); .csv/.parquet: long form, "
        "columns t, x, u\n"
        "  2-D: also y (ny) with u (nt x nx x ny), or a column y; linear terms only, powers=[0]\n"
        "  operator not given: auto (each term's family, directional or riesz, chosen by the data)"
        " where implemented (options that fit one family: the family an auto fit picks), else "
        "directional with an info line\n"
        "  known forcing (1-D): forcing=<f.npz|.npy|.mat or an array of the data file>, a list "
        "[a.npz,b] for several; forcing_coef=<c> or [name:c] fixes coefficients\n"
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
#: Spellings of "no value" (``null``, as in Hydra and YAML).
NULLS = ("null", "none", "~")


def _scalar(text: str) -> Any:
    s = text.strip()
    low = s.lower()
    if low in NULLS:
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


def parse_key_values(
    args: list[str],
    keys: list[str] | tuple[str, ...],
    string_keys: tuple[str, ...],
    command: str,
    example: str,
    strip_values: bool = False,
) -> dict[str, Any]:
    """``key=value`` tokens of ``wp <command>`` -> dict (values of ``string_keys`` kept as text,
    others through :func:`parse_value`); unknown, repeated or malformed keys raise."""
    out: dict[str, Any] = {}
    for tok in args:
        if tok.startswith("-"):
            raise UserInputError(f"unknown flag {tok!r}; use key=value arguments (wp {command} -h)")
        if "=" not in tok:
            raise UserInputError(
                f"argument {tok!r} is not key=value; e.g. {example} (valid keys: {', '.join(keys)})"
            )
        key, value = tok.split("=", 1)
        key = key.strip()
        value = value.strip() if strip_values else value
        if key not in keys:
            raise UserInputError(f"unknown key {key!r}; valid keys: {', '.join(keys)}")
        if key in out:
            raise UserInputError(f"{key}= is given twice; keep one")
        out[key] = value if key in string_keys else parse_value(value)
    return out


def parse_args(args: list[str]) -> dict[str, Any]:
    """``wp discover``'s ``key=value`` tokens -> dict (:func:`parse_key_values`)."""
    opts = parse_key_values(args, valid_keys(), STRING_KEYS, "discover", "data=f.npz out=r.json")
    if "selection" in opts and str(opts["selection"]).lower() in NULLS:  # the method's own
        opts["selection"] = None
    return opts


# -- data loading -----------------------------------------------------------------------------
def load_data(path: Path, keys: dict[str, str | None] | None = None) -> LoadedData:
    """Read ``(u, t, x)`` or ``(u, t, x, y)`` with notes (:func:`loading.load_field`)."""
    return load_field(path, keys)


# -- output -----------------------------------------------------------------------------------


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
    params = {k: v for k, v in opts.items() if k not in (*DATA_KEYS, *KEY_OPTIONS)}
    model = WeakPareto().set_params(**params)
    spec = model.fit_spec()  # validates every parameter
    cfg = spec.discovery
    out = check_out_path(opts.get("out"), ".json")
    plot = check_plot_path(opts.get("plot"))
    report = check_report_path(opts.get("report"))
    # the summary of the data is printed once all of it (forcing included) is valid: a bad
    # input is then one line on stderr and nothing on stdout
    with io.StringIO() as summary, contextlib.redirect_stdout(summary):
        data, fields = _read_data(model, opts)
        forcing = read_forcing(opts, data, fields)
        text = summary.getvalue()
    print(text, end="")
    field = fields[0]
    model._fit_checked(fields if len(fields) > 1 else field, spec, forcing)
    g = model.grid_
    counts = _counts_text(g)
    if isinstance(field, CheckedField2D):
        terms = "linear terms along x and y"
    else:
        terms = f"{g['power_mode']} power mode"
    print(
        f"operator {g['operator']}, alpha_range {list(cfg.alpha_range)}, beta_range "
        f"{list(cfg.beta_range)}, powers {list(cfg.powers)} ({terms}), "
        f"{counts} test functions"
    )
    model.print()
    payload = model.to_dict()
    payload["data"] = str(data) if isinstance(data, Path) else [str(p) for p in data]
    write_json_atomic(out, payload)
    print(f"wrote {out}")
    if plot is not None:  # matplotlib and the page's modules: imported only when asked for
        from weakpareto.user.front_plot import draw_user_front

        print(f"wrote {draw_user_front(model, plot)}")
    if report is not None:
        from weakpareto.user.fit_page import write_fit_page

        print(f"wrote {write_fit_page(model, fields, data, report)}")


def _read_data(
    model: WeakPareto, opts: dict[str, Any]
) -> tuple[Path | list[Path], tuple[CheckedField | CheckedField2D, ...]]:
    """Load and validate ``data=``: one file, or several experiments of one equation (a list
    of files, or a table with a column ``experiment``); prints one line per experiment."""
    paths = data_paths(opts.get("data"))
    keys = {k[0]: opts.get(k) for k in KEY_OPTIONS}
    files = [(p, loaded) for p in paths for loaded in load_experiments(p, keys)]
    if len(files) == 1 and len(paths) == 1:
        data, loaded = files[0]
        if loaded.y is None and opts.get("period_y") is not None:
            kind = "column" if data.suffix.lower() in (".csv", ".parquet") else "array"
            raise UserInputError(
                f"period_y= applies to 2-D data only, but data={data} has no y {kind}; "
                "drop period_y="
            )
        field = model.validate(
            loaded.u,
            loaded.t,
            loaded.x,
            y=loaded.y,
            period=opts.get("period"),
            period_y=opts.get("period_y"),
        )
        print(_describe(data, field, loaded.notes))
        return data, (field,)
    loaded_all = [loaded for _, loaded in files]
    experiments = split_experiments(
        [np.asarray(d.u) for d in loaded_all],
        [d.t for d in loaded_all],
        [d.x for d in loaded_all],
        [d.y for d in loaded_all] if any(d.y is not None for d in loaded_all) else None,
        opts.get("period"),
        opts.get("period_y"),
    )
    assert experiments is not None
    names = [", ".join([str(p), *d.notes[:1]]) if len(files) > len(paths) else str(p)
             for p, d in files]  # fmt: skip
    fields = model.validate_experiments(experiments, names)
    for k, ((p, d), f) in enumerate(zip(files, fields, strict=True)):
        print(f"experiment {k + 1}: {_describe(p, f, d.notes)}")
    return paths, fields


def _counts_text(grid: dict[str, Any]) -> str:
    """Test counts of the fit: ``44 x 60``; several experiments: one per experiment."""
    if "experiments" in grid:
        per = [" x ".join(str(k) for k in e["test_counts"]) for e in grid["experiments"]]
        rows = sum(int(e["rows"]) for e in grid["experiments"])
        return f"{' / '.join(per)} ({len(per)} experiments, {rows} weak equations)"
    return " x ".join(str(k) for k in grid["test_counts"]) or "no weak"


def _describe(
    data: Path, field: CheckedField | CheckedField2D, loaded_notes: list[str] | None = None
) -> str:
    """One line: the grid as read (after dropping a repeated endpoint, reorienting u)."""
    axes = f"x in [{field.x[0]:g}, {field.x[-1]:g}] dx {field.dx:g}, period {field.period:g}"
    notes = list(loaded_notes or [])
    if field.dropped_endpoint:
        notes.append("repeated endpoint column dropped")
    if isinstance(field, CheckedField2D):
        nt, nx, ny = field.shape
        dims = f"u {nt} x {nx} x {ny} (t x x x y)"
        axes += (
            f", y in [{field.y[0]:g}, {field.y[-1]:g}] dy {field.dy:g}, period_y {field.period_y:g}"
        )
        if field.dropped_endpoint_y:
            notes.append("repeated y endpoint dropped")
    else:
        nt, nx = field.shape
        dims = f"u {nt} x {nx} (t x x)"
    note = "".join(f", {n}" for n in notes)
    return (
        f"data={data}: {dims}, t in [{field.t[0]:g}, {field.t[-1]:g}] dt {field.dt:g}, {axes}{note}"
    )
