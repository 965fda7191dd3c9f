"""Launch options of ``wp run -m``, read from the raw overrides (standard library only).

Which launcher a sweep names (``hydra/launcher=slurm``), whether it runs in chunks
(:mod:`weakpareto.campaign.chunks`) and the ``chunk_size=`` launch setting: the CLI decides this
before anything heavy is imported, so this module imports neither Hydra nor the method.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence

from weakpareto.errors import UserInputError

#: Launchers (``hydra/launcher=<name>``) whose sweeps run in chunks; the local ones start every
#: chunk at once, so their chunk count is capped at the number of cores.
CHUNKED_LAUNCHERS = ("slurm", "submitit_slurm", "local", "submitit_local")
LOCAL_LAUNCHERS = ("local", "submitit_local")
DEFAULT_CHUNK_SIZE = 20


def launcher_choice(overrides: Sequence[str]) -> str | None:
    """The ``hydra/launcher=<name>`` choice among the overrides (None: Hydra's default)."""
    for o in overrides:
        key, _, value = o.lstrip("+").partition("=")
        if key == "hydra/launcher":
            return value
    return None


#: Launchers that come with Hydra or with an optional extra (the plugin package that has them).
PLUGIN_LAUNCHERS = {
    "basic": "hydra",
    "joblib": "hydra_plugins.hydra_joblib_launcher",
    "submitit_slurm": "hydra_plugins.hydra_submitit_launcher",
    "submitit_local": "hydra_plugins.hydra_submitit_launcher",
    "slurm": "hydra_plugins.hydra_submitit_launcher",
    "local": "hydra_plugins.hydra_submitit_launcher",
}
EXTRAS = {"hydra_plugins.hydra_joblib_launcher": "joblib"}


def check_launcher(overrides: Sequence[str]) -> None:
    """A ``hydra/launcher=`` that Hydra can load (else Hydra prints a many-line error, exit 1)."""
    name = launcher_choice(overrides)
    if name is None:
        return
    if name not in PLUGIN_LAUNCHERS:
        raise UserInputError(
            f"hydra/launcher={name} is not one of {', '.join(PLUGIN_LAUNCHERS)}; e.g. "
            "hydra/launcher=basic (Hydra's default: one job after another)"
        )
    module = PLUGIN_LAUNCHERS[name]
    if importlib.util.find_spec(module.split(".")[0]) is None or (
        "." in module and importlib.util.find_spec(module) is None
    ):
        extra = EXTRAS.get(module, "cluster")
        raise UserInputError(
            f"hydra/launcher={name} needs its Hydra plugin: pip install '.[{extra}]'"
        )


def is_chunked(overrides: Sequence[str], multirun: bool) -> bool:
    """True when ``wp run`` runs this sweep in chunks (a cluster launcher with ``-m``)."""
    return multirun and launcher_choice(overrides) in CHUNKED_LAUNCHERS


def split_chunk_size(overrides: Sequence[str]) -> tuple[int, list[str]]:
    """Pop ``chunk_size=<n>`` (a launch setting, not part of any config) from the overrides."""
    size, rest = DEFAULT_CHUNK_SIZE, []
    for o in overrides:
        if o.split("=", 1)[0] != "chunk_size":
            rest.append(o)
            continue
        text = o.split("=", 1)[1]
        if not text.isdigit() or int(text) < 1:
            raise UserInputError(
                f"chunk_size={text} must be an integer >= 1; e.g. chunk_size={DEFAULT_CHUNK_SIZE}"
            )
        size = int(text)
    return size, rest
