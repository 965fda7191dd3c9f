"""The package tree is layered: each folder depends only on the folders before it, no cycles.

Every ``import`` of a ``weakpareto`` module is checked — module-level and inside functions alike
(a lazy import hides a dependency, it does not remove it); only ``if TYPE_CHECKING:`` blocks are
exempt. The facade (``weakpareto/__init__.py``) and the CLI are the top layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import weakpareto

PACKAGE = Path(weakpareto.__file__).parent

#: Layers from the bottom up; a module may import from its own layer or any layer below it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("_typing", "_version", "errors", "io", "records", "conf"),
    ("numerics",),
    ("kelvin",),
    ("library",),
    ("method",),
    ("baselines",),
    ("fit",),
    ("benchmarks",),
    ("evaluation",),
    ("campaign",),
    ("diagnostics",),
    ("reporting",),
    ("user",),
    ("cli", "cli_help", "__init__"),
)
LAYER_OF = {name: i for i, names in enumerate(LAYERS) for name in names}


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]
        out[".".join(["weakpareto", *parts])] = path
    return out


MODULES = _modules()


def _layer(module: str) -> int:
    parts = module.split(".")
    head = parts[1] if len(parts) > 1 else "__init__"
    if head not in LAYER_OF:
        raise AssertionError(f"{module}: folder {head!r} has no layer; add it to LAYERS")
    return LAYER_OF[head]


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def _resolve(name: str) -> str:
    """The longest known module prefix of a dotted name (``a.b.func`` -> ``a.b``)."""
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        cand = ".".join(parts[:k])
        if cand in MODULES:
            return cand
    return name


def imports_in(source: str) -> set[str]:
    """Every weakpareto module imported anywhere in ``source`` (outside TYPE_CHECKING)."""
    tree = ast.parse(source)
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(_resolve(a.name) for a in node.names if a.name.startswith("weakpareto"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("weakpareto"):
                for a in node.names:
                    full = f"{node.module}.{a.name}"
                    found.add(full if full in MODULES else _resolve(node.module))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


GRAPH = {m: imports_in(p.read_text()) - {m} for m, p in MODULES.items()}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_from_a_later_layer(module):
    if module == "weakpareto" or module.endswith(".__init__"):
        pytest.skip("package facade")
    own = _layer(module)
    upward = sorted(m for m in GRAPH[module] if m in MODULES and _layer(m) > own)
    assert not upward, f"{module} (layer {own}) imports from a later layer: {upward}"


MAX_LINES = 600  #: a module longer than this holds more than one idea: split it


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_is_small(module):
    n = len(MODULES[module].read_text().splitlines())
    assert n <= MAX_LINES, f"{module} has {n} lines (> {MAX_LINES}); split it by concept"


def test_no_import_cycles():
    """Tarjan's strongly connected components over module-level and lazy imports alike."""
    graph = {
        m: {d for d in deps if d in MODULES and d != "weakpareto"} for m, deps in GRAPH.items()
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def strongconnect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strongconnect(v)
    assert not cycles, f"import cycles: {cycles}"


def test_the_checker_sees_lazy_and_hidden_imports():
    """Imports inside functions and ``else`` branches count; ``if TYPE_CHECKING:`` does not."""
    src = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from weakpareto.user import estimator\n"
        "def f():\n    from weakpareto.reporting import figures\n    return figures\n"
        "try:\n    pass\nexcept ImportError:\n    import weakpareto.campaign.store\n"
        "from weakpareto.method.settings import SearchSettings\n"
    )
    assert imports_in(src) == {
        "weakpareto.reporting.figures",
        "weakpareto.campaign.store",
        "weakpareto.method.settings",
    }
    assert _layer("weakpareto.method.settings") < _layer("weakpareto.campaign.store")
