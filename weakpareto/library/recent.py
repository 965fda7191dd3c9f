"""The latest values of a pure function, kept by key up to a fixed count.

The polish of the search asks for a handful of orders again and again (a Nelder–Mead simplex
revisits its vertices, clipped to its box): the libraries keep what one order costs (the adjoint
tests of a spatial order, the target weights of a time order, the noise covariance's sums) and
the discovery its exact fits. Every kept value is what the function returns for its key, so
keeping one changes no bit of a result, only how often it is computed.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class RecentValues(Generic[K, V]):
    """At most ``size`` values by key; a value asked for becomes the latest, and the least
    recently asked for is dropped when a new one would exceed ``size``."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"size must be >= 1, got {size}")
        self.size = int(size)
        self._values: OrderedDict[K, V] = OrderedDict()

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def get(self, key: K, compute: Callable[[], V]) -> V:
        """The value kept for ``key``, else ``compute()`` (then kept)."""
        if key in self._values:
            self._values.move_to_end(key)
            return self._values[key]
        value = self._values[key] = compute()
        while len(self._values) > self.size:
            self._values.popitem(last=False)
        return value
