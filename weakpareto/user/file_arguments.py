"""Input and output paths of ``wp discover``, checked before any computation."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from weakpareto.errors import UserInputError
from weakpareto.reporting.drawing import PLOT_SUFFIXES

DATA_SUFFIXES = (".npz", ".mat", ".csv", ".parquet")


def check_data_path(
    data: Any,
    suffixes: tuple[str, ...] = DATA_SUFFIXES,
    example: str = "data=field.npz (or .mat / .csv / .parquet)",
    formats: str = ".npz or .mat (arrays u, t, x) or .csv / .parquet (long form, columns t, x, u)",
    kind: str = "a data file",
) -> Path:
    """An existing file with a supported extension (``wp discover``; ``wp kelvin`` passes its
    own suffixes and wording)."""
    if data is None or str(data) == "":
        raise UserInputError(f"data= is required, e.g. {example}")
    path = Path(str(data)).expanduser()
    if path.suffix.lower() not in suffixes:
        raise UserInputError(
            f"data={path} has unsupported extension {path.suffix or '(none)'!r}; use {formats}"
        )
    if not path.exists():
        raise UserInputError(f"data={path} does not exist; check the path")
    if not path.is_file():
        raise UserInputError(f"data={path} is not a file; give the path of {kind}")
    return path


def data_paths(data: Any) -> list[Path]:
    """``data=`` as its files: one path, or the list ``[a.npz,b.npz,...]`` of several
    experiments of one equation (Hydra's list syntax), every file checked by
    :func:`check_data_path`."""
    text = "" if data is None else str(data).strip()
    if len(text) < 2 or text[0] + text[-1] not in ("[]", "()"):
        return [check_data_path(data)]
    items = [item.strip() for item in text[1:-1].split(",")]
    if not any(items):
        raise UserInputError("data=[] names no file; e.g. data=[a.npz,b.npz,c.npz]")
    if "" in items:
        raise UserInputError(f"data={text} has an empty entry; e.g. data=[a.npz,b.npz,c.npz]")
    paths = [check_data_path(item) for item in items]
    seen = [p.resolve() for p in paths]
    for k, p in enumerate(seen):
        if p in seen[:k]:
            raise UserInputError(f"data={text} names {paths[k]} twice; give every experiment once")
    return paths


def check_out_path(
    out: Any, suffix: str = ".json", key: str = "out", example: str = "result"
) -> Path:
    """A writable output file path with the given suffix (checked before computing); ``key``
    names the option in the messages, ``example`` the file stem they suggest."""
    if out is None or str(out) == "":
        raise UserInputError(f"{key}= is required, e.g. {key}={example}{suffix}")
    path = Path(str(out)).expanduser()
    if path.suffix.lower() != suffix:
        raise UserInputError(f"{key}={path} must end in {suffix}, e.g. {key}={example}{suffix}")
    if path.is_dir():
        raise UserInputError(f"{key}={path} is a directory; give a file name ending in {suffix}")
    parent = path.parent
    if not parent.is_dir():
        raise UserInputError(f"cannot write {key}={path}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UserInputError(f"cannot write {key}={path}: directory {parent} is not writable")
    if path.exists() and not os.access(path, os.W_OK):
        raise UserInputError(f"cannot write {key}={path}: the existing file is read-only")
    return path


def check_plot_path(plot: Any) -> Path | None:
    """``None`` (no plot) or a writable path ending in .png, .pdf or .svg."""
    if plot is None or str(plot) == "":
        return None
    suffix = Path(str(plot)).suffix.lower()
    if suffix not in PLOT_SUFFIXES:
        raise UserInputError(
            f"plot={plot} must end in {', '.join(PLOT_SUFFIXES)}, e.g. plot=front.png"
        )
    return check_out_path(plot, suffix, key="plot", example="front")


def check_report_path(report: Any) -> Path | None:
    """``None`` (no page) or a writable ``.html`` path in an existing directory (checked before
    the fit, one-line ``UserInputError`` otherwise)."""
    if report is None or str(report) == "":
        return None
    return check_out_path(report, ".html", key="report", example="fit")
