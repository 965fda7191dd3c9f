"""Which code made a run: the package version, a hash of the code that computes results, the commit.

A stored run is identified by its composed config (:func:`weakpareto.campaign.config.config_hash`)
*and* by :func:`code_hash`: sha256 over the package version and every file that decides what a
run computes — :data:`CODE_PACKAGES` (``numerics`` … ``evaluation``, the ``fit`` layer included,
all ``*.py`` but :data:`NOT_CODE`, read as code: comments and docstrings do not count),
:data:`CODE_FILES` (``records.py``; ``campaign/compute.py``, which maps a config to the
method's settings and runs one seed) and :data:`CODE_DATA` (the shipped benchmark fields). The
file list is sorted and each file is hashed with its package-relative path, so the hash is the
same on every machine and checkout. Reporting, the CLI, the runner and the store are not part
of it: changing how results are printed, stored or tabulated keeps cached runs valid; changing a
method constant's default in Python changes the code hash, changing it in ``conf/`` changes the
config hash, and either way ``wp run`` computes the seed again.

The git commit (with ``+dirty`` when the package or ``conf/`` has uncommitted changes) is stored
with every row for information only: it is not part of the key (an installed package has none).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from weakpareto._version import __version__
from weakpareto.campaign import cache

#: The package directory (``weakpareto/``).
PACKAGE_DIR = Path(__file__).resolve().parents[1]
#: Sub-packages whose every ``*.py`` computes results (the method and what it stands on).
CODE_PACKAGES = (
    "numerics",
    "library",
    "method",
    "baselines",
    "fit",
    "benchmarks",
    "evaluation",
)
#: Single modules that compute results.
CODE_FILES = ("records.py", "campaign/compute.py")
#: Modules of those packages that decide what is accepted, not what is computed (the table of
#: setting ranges and names: a setting it lets through enters the config hash).
NOT_CODE = ("fit/rules.py",)
#: Data read by the benchmark generators (the shipped fields).
CODE_DATA = ("data/*.dat",)
#: Length of the stored code hash (hex digits).
HASH_LENGTH = 16
GIT_TIMEOUT_S = 5.0
#: :func:`code_hash`'s file in the cache directory (:mod:`weakpareto.campaign.cache`).
CACHE_FILE = "code_hash.json"


@dataclass(frozen=True)
class CodeIdentity:
    """What a run row records about the code: version and code hash (the key), commit (info)."""

    version: str
    code_hash: str
    git_commit: str = ""

    def short(self) -> str:
        """``code 1a2b3c4d (weakpareto 0.1.0)``."""
        return f"code {self.code_hash[:8]} (weakpareto {self.version})"


def code_files(package_dir: Path = PACKAGE_DIR) -> list[Path]:
    """The files :func:`code_hash` reads, sorted by package-relative path."""
    files: set[Path] = set()
    for sub in CODE_PACKAGES:
        files.update((package_dir / sub).rglob("*.py"))
    for name in CODE_FILES:
        path = package_dir / name
        if path.is_file():
            files.add(path)
    for pattern in CODE_DATA:
        files.update(p for p in package_dir.glob(pattern) if p.is_file())
    files.difference_update(package_dir / name for name in NOT_CODE)
    return sorted(files, key=lambda p: p.relative_to(package_dir).as_posix())


def _without_docstrings(tree: ast.AST) -> ast.AST:
    """``tree`` with the docstring of every module, class and function removed."""
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return tree


def code_text(path: Path) -> bytes:
    """What of a file decides a computation: Python code as the interpreter reads it (comments
    and docstrings dropped, so rewording an explanation keeps cached runs valid); data files
    byte for byte."""
    data = path.read_bytes()
    if path.suffix != ".py":
        return data
    return ast.unparse(_without_docstrings(ast.parse(data))).encode()


def _computed_hash(files: list[Path], package_dir: Path, version: str) -> str:
    h = hashlib.sha256(f"weakpareto {version}\0".encode())
    for path in files:
        rel = path.relative_to(package_dir).as_posix()
        data = code_text(path)
        h.update(f"{rel}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()[:HASH_LENGTH]


def sources_key(files: list[Path], package_dir: Path, version: str) -> str:
    """sha256 over the interpreter (``ast.unparse`` is its own), the version and the *raw* bytes
    of ``files``: the cache key of :func:`code_hash` (a few ms; parsing them is ~0.4 s)."""
    named = ((path.relative_to(package_dir).as_posix(), path) for path in files)
    return cache.files_key(f"{sys.version}\0weakpareto {version}", named)


def code_hash(package_dir: Path = PACKAGE_DIR, version: str = __version__) -> str:
    """sha256 over the version and every :func:`code_files` entry (path and :func:`code_text`).

    Parsing the files is the slow part, so the result is cached (:mod:`weakpareto.campaign.cache`)
    under the sha256 of their raw bytes (:func:`sources_key`): any edit, even of a comment, is
    another key and the hash is computed again, so a cached value is always the one computed here.
    """
    files = code_files(package_dir)
    key = sources_key(files, package_dir, version)
    cached = cache.lookup(CACHE_FILE, key)
    if isinstance(cached, str) and re.fullmatch(f"[0-9a-f]{{{HASH_LENGTH}}}", cached):
        return cached
    value = _computed_hash(files, package_dir, version)
    cache.store(CACHE_FILE, key, value)
    return value


def _git(args: list[str], cwd: Path) -> str | None:
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def git_commit(package_dir: Path = PACKAGE_DIR) -> str:
    """HEAD of the repository the package is checked out in (``+dirty`` with uncommitted
    changes under ``weakpareto/`` or ``conf/``); ``""`` for an installed package or without git."""
    top = _git(["rev-parse", "--show-toplevel"], package_dir)
    if not top or Path(top).resolve() != package_dir.parent:
        return ""  # not a checkout with the package at its root (e.g. site-packages in a venv)
    top_dir = package_dir.parent
    head = _git(["rev-parse", "HEAD"], top_dir)
    if not head:
        return ""
    paths = [package_dir.name, "conf"]
    status = _git(["status", "--porcelain", "--untracked-files=no", "--", *paths], top_dir)
    return head + ("+dirty" if status else "")


@functools.cache
def current() -> CodeIdentity:
    """The identity of the running code (computed once per process)."""
    return CodeIdentity(__version__, code_hash(), git_commit())
