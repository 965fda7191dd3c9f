"""weakpareto: weak-form, continuous-order Pareto discovery of fractional PDEs.

The public API is loaded lazily (PEP 562) so that ``import weakpareto.cli`` stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from weakpareto._version import __version__

if TYPE_CHECKING:
    from weakpareto.user.estimator import WeakPareto
    from weakpareto.user.long_tables import (
        long_table_to_experiments,
        long_table_to_grid,
        long_table_to_grid_2d,
    )

__all__ = [
    "WeakPareto",
    "__version__",
    "long_table_to_experiments",
    "long_table_to_grid",
    "long_table_to_grid_2d",
]

#: public name -> module that defines it (imported on first use)
_LAZY = {
    "WeakPareto": "weakpareto.user.estimator",
    "long_table_to_grid": "weakpareto.user.long_tables",
    "long_table_to_grid_2d": "weakpareto.user.long_tables",
    "long_table_to_experiments": "weakpareto.user.long_tables",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'weakpareto' has no attribute {name!r}")
