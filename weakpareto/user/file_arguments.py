"""Input and output paths of ``wp discover``, checked before any computation."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from weakpareto.errors import UserInputError

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


def check_out_path(out: Any, suffix: str = ".json") -> Path:
    """A writable output file path with the given suffix (checked before computing)."""
    if out is None or str(out) == "":
        raise UserInputError(f"out= is required, e.g. out=result{suffix}")
    path = Path(str(out)).expanduser()
    if path.suffix.lower() != suffix:
        raise UserInputError(f"out={path} must end in {suffix}, e.g. out=result{suffix}")
    if path.is_dir():
        raise UserInputError(f"out={path} is a directory; give a file name ending in {suffix}")
    parent = path.parent
    if not parent.is_dir():
        raise UserInputError(f"cannot write out={path}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UserInputError(f"cannot write out={path}: directory {parent} is not writable")
    if path.exists() and not os.access(path, os.W_OK):
        raise UserInputError(f"cannot write out={path}: the existing file is read-only")
    return path
