"""A small on-disk cache of values that are pure functions of files, keyed by those files' bytes.

Two start-up costs of every ``wp run`` / ``wp status`` are such functions: the code hash
(:func:`weakpareto.campaign.provenance.code_hash`, parsing ~60 modules) and the composed configs
(:func:`weakpareto.campaign.compose.compose_config`: the job's and the schema's reference, a
Hydra composition each, and Hydra's import).
Each is stored under a sha256 of everything it depends on (the files' raw bytes, the versions
that read them), so a stored value is always the value that would be computed: an edit of any
of those files is another key. The cache lives in ``$WEAKPARETO_CACHE_DIR`` (``""`` or ``off``:
no cache), else ``$XDG_CACHE_HOME/weakpareto``, else ``~/.cache/weakpareto``; one JSON file per
kind, the latest :data:`ENTRIES` keys kept. A cache that cannot be read or written is no cache.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from weakpareto.io import write_json_atomic

#: Environment variable naming the cache directory (``""`` or ``off``: no cache).
CACHE_ENV = "WEAKPARETO_CACHE_DIR"
#: Keys kept per cache file (the latest written).
ENTRIES = 16


def cache_dir() -> Path | None:
    """The cache directory (module docstring), or None when the cache is off."""
    env = os.environ.get(CACHE_ENV)
    if env is not None:
        return None if env.strip() in ("", "off") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "weakpareto"


def files_key(header: str, files: Iterable[tuple[str, Path]]) -> str:
    """sha256 over ``header`` and every ``(name, path)``: the name, the length and raw bytes."""
    h = hashlib.sha256(f"{header}\0".encode())
    for name, path in files:
        data = path.read_bytes()
        h.update(f"{name}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def lookup(name: str, key: str) -> Any:
    """The value stored under ``key`` in cache file ``name`` (None: none)."""
    d = cache_dir()
    return None if d is None else _read(d / name).get(key)


def store(name: str, key: str, value: Any) -> None:
    """Store ``value`` (JSON) under ``key`` in cache file ``name``, keeping the latest
    :data:`ENTRIES` keys; silently nothing when the cache is off or not writable."""
    d = cache_dir()
    if d is None:
        return
    kept = [(k, v) for k, v in _read(d / name).items() if k != key][-(ENTRIES - 1) :]
    try:
        write_json_atomic(d / name, dict([*kept, (key, value)]), make_parents=True)
    except (OSError, ValueError):  # unwritable, or a value JSON cannot hold exactly
        pass
