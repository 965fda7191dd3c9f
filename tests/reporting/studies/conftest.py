"""The committed study tables: their folders under results/ and a byte-for-byte check."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

RESULTS = Path(__file__).resolve().parents[3] / "results"


@pytest.fixture()
def committed() -> Callable[[str, str, Mapping[str, str]], None]:
    """``check(folder, stem, texts)``: every rendered ``<stem><suffix>`` has the exact bytes of
    the committed ``results/<folder>/<stem><suffix>``."""

    def check(folder: str, stem: str, texts: Mapping[str, str]) -> None:
        for suffix, text in texts.items():
            path = RESULTS / folder / f"{stem}{suffix}"
            assert text.encode("utf-8") == path.read_bytes(), path

    return check


@pytest.fixture()
def results_folder() -> Callable[[str], Path]:
    """``results/<folder>``, or a skip when the results are not in this checkout."""

    def folder(name: str) -> Path:
        path = RESULTS / name
        if not path.is_dir():
            pytest.skip(f"no committed {path}")
        return path

    return folder
