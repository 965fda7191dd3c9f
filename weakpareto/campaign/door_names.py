"""One name per setting at both doors: ``wp run`` and ``wp status`` accept the names of
``wp discover`` / ``WeakPareto`` for the search settings.

``max_terms=3`` is ``search.c_max=3``, ``operator=riesz`` is ``benchmark.library.operator=riesz``:
the table is :data:`weakpareto.fit.names.PARAMETERS`, the one both doors are built from, with its
``library`` group (a user's data) read as the benchmark's ``benchmark.library`` block
(:func:`weakpareto.fit.names.run_key`). The translation is textual and happens before
composition, so a run given either spelling has the same config, config hash and result files;
sweeps (``max_terms=2,3``) translate the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from weakpareto.fit.names import run_key


def with_run_keys(overrides: Sequence[str]) -> list[str]:
    """``overrides`` with every ``wp discover`` setting name written as its ``wp run`` key."""
    out = []
    for o in overrides:
        name, sep, value = o.partition("=")
        key = run_key(name) if sep else None
        out.append(f"{key}={value}" if key is not None else o)
    return out
