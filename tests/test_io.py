import os
import stat

import pytest

from weakpareto.io import atomic_path, write_text_atomic


def test_atomic_write_normal_permissions(tmp_path):
    p = write_text_atomic(tmp_path / "a.txt", "hello")
    assert p.read_text() == "hello"
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(p.stat().st_mode) == 0o666 & ~mask
    assert [q.name for q in tmp_path.iterdir()] == ["a.txt"]


def test_interrupted_write_leaves_target_untouched(tmp_path):
    target = tmp_path / "r.json"
    target.write_text("old")
    with pytest.raises(KeyboardInterrupt), atomic_path(target) as tmp:
        tmp.write_text("half")
        raise KeyboardInterrupt
    assert target.read_text() == "old"
    assert [q.name for q in tmp_path.iterdir()] == ["r.json"]
