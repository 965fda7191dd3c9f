"""Output paths checked before any computation: a directory that can be written, or a file in one.

The check is a real probe, not :func:`os.access` (which says yes to root and knows nothing of a
read-only mount): the directory is created if missing (it is about to be written anyway) and a
temporary file is created in it and removed. Every failure is a :class:`UserInputError`, i.e. one
line and exit code 2 from the CLI, before a seed or table is computed.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from weakpareto.errors import UserInputError


def _reason(err: OSError) -> str:
    return err.strerror or type(err).__name__


def _probe(directory: Path, what: str) -> None:
    try:
        fd, tmp = tempfile.mkstemp(prefix=".wp-probe-", dir=directory)
    except OSError as err:
        raise UserInputError(
            f"cannot write {what}: directory {directory} is not writable ({_reason(err)}); "
            "choose another directory"
        ) from None
    os.close(fd)
    os.unlink(tmp)


def not_a_file(path: object, key: str) -> None:
    """Refuse a directory ``key=path`` that exists as a plain file (checks without creating, so
    that a command can test all its directories before it creates any)."""
    if path is not None and Path(str(path)).expanduser().is_file():
        raise UserInputError(f"{key}={path} is a file, not a directory; give a directory")
    for parent in [] if path is None else Path(str(path)).expanduser().parents:
        if parent.is_file():
            raise UserInputError(
                f"cannot create {key}={path}: {parent} is a file; choose another directory"
            )


def writable_dir(path: object, key: str) -> Path:
    """Check (creating it if missing) that the directory ``key=path`` can be written; return it."""
    if path is None or str(path).strip() == "":
        raise UserInputError(f"{key}= is empty; give a directory, e.g. {key}=results")
    directory = Path(str(path)).expanduser()
    what = f"{key}={path}"
    if directory.exists() and not directory.is_dir():
        raise UserInputError(f"{what} is a file, not a directory; give a directory")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a parent is a file
        raise UserInputError(f"cannot create {what}: a parent of it is a file") from None
    except OSError as err:
        raise UserInputError(
            f"cannot create {what} ({_reason(err)}); choose another directory"
        ) from None
    _probe(directory, what)
    return directory


def writable_file(out: object, suffix: str, key: str = "out") -> Path:
    """Check an output file ``key=out``: the suffix, an existing writable directory, not a dir."""
    if out is None or str(out) == "":
        raise UserInputError(f"{key}= is required, e.g. {key}=field{suffix}")
    path = Path(str(out)).expanduser()
    if path.suffix != suffix:
        raise UserInputError(f"{key}={path} must end in {suffix}, e.g. {key}=field{suffix}")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise UserInputError(f"cannot write {key}={path}: directory {parent} does not exist")
    if path.is_dir():
        raise UserInputError(f"{key}={path} is a directory; give a file name")
    _probe(parent, f"{key}={path}")
    return path


def readable_dir(path: object, key: str) -> Path:
    """Check that the input directory ``key=path`` exists (e.g. ``wp report results_dir=``)."""
    if path is None or not str(path).strip():  # Path("") is the current directory
        raise UserInputError(f"{key}= is empty; give a directory, e.g. {key}=results/runs")
    directory = Path(str(path)).expanduser()
    if directory.is_dir():
        return directory
    if directory.exists():
        raise UserInputError(f"{key}={path} is a file, not a directory; give a directory")
    raise UserInputError(
        f"{key}={path} does not exist; give the results_dir= your `wp run` wrote to"
    )
