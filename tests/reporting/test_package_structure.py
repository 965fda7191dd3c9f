"""Structure of weakpareto.reporting: module-level imports (matplotlib is the only lazy one).

Layers and import cycles of the whole tree are checked by tests/test_layering.py; here only the
rules specific to this subpackage.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import weakpareto.reporting

PACKAGE = Path(weakpareto.reporting.__file__).parent
MODULES = sorted(PACKAGE.rglob("*.py"))
#: Heavy optional dependencies that may be imported inside functions.
LAZY_ALLOWED = ("matplotlib",)


def _rel(path: Path) -> str:
    return str(path.relative_to(PACKAGE))


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_only_heavy_optional_imports_are_lazy(path):
    tree = ast.parse(path.read_text())
    lazy = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Import):
                lazy += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                lazy.append(node.module)
    assert [m for m in lazy if not m.startswith(LAZY_ALLOWED)] == []
