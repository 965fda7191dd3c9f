"""Fixtures of the campaign tests: a read-only directory (also for root)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest


def _writable(d: Path) -> bool:
    try:
        (d / ".probe").touch()
    except OSError:
        return False
    (d / ".probe").unlink()
    return True


@pytest.fixture
def read_only_dir(tmp_path):
    """A directory nothing can be written to: mode 0o555, or (root ignores modes) a read-only
    bind mount; skipped where neither works."""
    d = tmp_path / "ro"
    d.mkdir()
    d.chmod(0o555)
    mounted = False
    if _writable(d):  # root: modes do not apply
        done = subprocess.run(
            ["mount", "--bind", "-o", "ro", str(d), str(d)], capture_output=True, check=False
        )
        mounted = done.returncode == 0
        if mounted and _writable(d):
            subprocess.run(["mount", "-o", "remount,ro,bind", str(d)], check=False)
        if not mounted or _writable(d):
            if mounted:
                subprocess.run(["umount", str(d)], check=False)
            d.chmod(0o755)
            pytest.skip("no way to make a read-only directory here")
    try:
        yield d
    finally:
        if mounted:
            subprocess.run(["umount", str(d)], check=False)
        if os.path.isdir(d):
            d.chmod(0o755)
