"""One name per setting at both doors: the ``WeakPareto``/``wp discover`` keyword of a search
setting and the ``wp run`` config key it sets (``max_terms`` is ``search.c_max``).

Plain strings and no imports of the method, so that ``wp run`` and ``wp status`` can translate
names before composing a config without loading the library.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

#: Estimator keyword -> the config key it sets (group.key). One table for both doors: a
#: parameter given to ``WeakPareto``/``wp discover`` is written where ``wp run`` reads it.
PARAMETERS: Mapping[str, str] = MappingProxyType(
    {
        "operator": "library.operator",
        "alpha_range": "library.alpha_range",
        "beta_range": "library.beta_range",
        "powers": "library.powers",
        "power_mode": "library.power_mode",
        "test_functions": "library.spatial_tests",
        "test_counts": "search.test_counts",
        "max_terms": "search.c_max",
        "popsize": "search.popsize",
        "maxiter": "search.maxiter",
        "updating": "search.updating",
        "ridge": "search.ridge",
        "margin": "selection.margin",
        "polish": "method.polish",
    }
)

#: Where ``wp run`` keeps each group of :data:`PARAMETERS` (a user's ``library`` group is a
#: benchmark's ``benchmark.library`` block).
RUN_GROUPS: Mapping[str, str] = MappingProxyType({"library": "benchmark.library"})


def run_key(name: str) -> str | None:
    """The ``wp run`` config key of a ``wp discover`` search setting (:data:`PARAMETERS`:
    ``max_terms`` is ``search.c_max``); ``None``: not one."""
    key = PARAMETERS.get(name)
    if key is None:
        return None
    group, leaf = key.split(".", 1)
    return f"{RUN_GROUPS.get(group, group)}.{leaf}"
