"""The one atomic-output helper: write to a temporary file beside the target, then ``os.replace``.

A reader (or an interrupted run) never sees a half-written file; the final file gets the usual
permissions (``0o666 & ~umask``), not ``mkstemp``'s owner-only ``0o600``. Every file the package
writes (text, JSON, CSV, ``.npz``, Parquet, figures) goes through :func:`atomic_path`.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_path(path: str | os.PathLike, *, make_parents: bool = False) -> Iterator[Path]:
    """Yield a temporary path in ``path``'s directory; rename it over ``path`` on success.

    On any exception (including KeyboardInterrupt) the temporary file is removed and the
    target is left untouched. ``make_parents`` creates the target's directory first.
    """
    target = Path(path)
    if make_parents:
        target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomic(path: str | os.PathLike, text: str, *, make_parents: bool = False) -> Path:
    """Write a text file atomically (UTF-8)."""
    with atomic_path(path, make_parents=make_parents) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)


def write_json_atomic(path: str | os.PathLike, payload: Any, *, make_parents: bool = False) -> Path:
    """Write ``payload`` as indented JSON (no NaN/inf: strict JSON) atomically."""
    text = json.dumps(payload, indent=2, allow_nan=False) + "\n"
    return write_text_atomic(path, text, make_parents=make_parents)


def write_csv_atomic(frame: Any, path: str | os.PathLike) -> Path:
    """Write a table (anything with pandas' ``to_csv``) as CSV atomically, creating its directory.

    Floats keep their shortest round-trip form, so a re-read gives the same numbers.
    """
    with atomic_path(path, make_parents=True) as tmp:
        frame.to_csv(tmp, index=False)
    return Path(path)
