"""weakpareto: weak-form, continuous-order Pareto discovery of fractional PDEs.

The public API is loaded lazily (PEP 562) so that ``import weakpareto.cli`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from weakpareto.user.estimator import WeakPareto

__all__ = ["WeakPareto", "__version__"]


def __getattr__(name: str) -> Any:
    if name == "WeakPareto":
        from weakpareto.user.estimator import WeakPareto

        return WeakPareto
    raise AttributeError(f"module 'weakpareto' has no attribute {name!r}")
