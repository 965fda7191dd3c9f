"""Checks of ``wp run`` / ``wp status`` overrides that a composed config cannot show.

Hydra composes ``n_boot=`` and ``level=`` into every config, but only a run with
``uncertainty=bootstrap`` reads them: given to a run (or to every point of a ``-m`` sweep) that
has the bootstrap off, they would be silently ignored. :func:`check_bootstrap_keys` refuses that
with one line (UserInputError), before anything is computed. Whether the bootstrap is on is
read from the group choices (``+experiment=uncertainty`` turns it on) and the ``uncertainty=``
override of each job, composed once per distinct pair.
"""

from __future__ import annotations

from collections.abc import Sequence

from weakpareto.campaign.compose import compose_config, group_choices, sweep_jobs, user_overrides
from weakpareto.errors import UserInputError

#: Keys read only when ``uncertainty=bootstrap``.
BOOTSTRAP_KEYS = ("n_boot", "level")


def override_key(override: str) -> str:
    """The config key of one override (``+experiment=main`` -> ``experiment``)."""
    return override.lstrip("+~").split("=", 1)[0].split("@", 1)[0]


def _bootstrap_on(combo: Sequence[str], cache: dict[tuple[str, ...], bool]) -> bool:
    probe = (*group_choices(combo), *(o for o in combo if override_key(o) == "uncertainty"))
    if probe not in cache:
        cache[probe] = compose_config(probe).get("uncertainty", None) is not None
    return cache[probe]


def check_bootstrap_keys(overrides: Sequence[str], multirun: bool) -> None:
    """Refuse ``n_boot=``/``level=`` when no job of ``wp run [-m] overrides`` has
    ``uncertainty=bootstrap`` (they would be ignored)."""
    given = [o for o in user_overrides(overrides) if override_key(o) in BOOTSTRAP_KEYS]
    if not given:
        return
    cache: dict[tuple[str, ...], bool] = {}
    if any(_bootstrap_on(combo, cache) for combo in sweep_jobs(overrides, multirun)):
        return
    keys = ", ".join(f"{override_key(o)}=" for o in given)
    verb = "is" if len(given) == 1 else "are"
    raise UserInputError(
        f"{', '.join(given)} {verb} read only with uncertainty=bootstrap, which is off here; "
        f"add uncertainty=bootstrap or drop {keys}"
    )
