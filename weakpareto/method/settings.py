"""The method's settings, with ONE set of defaults: the values of the shipped ``conf/``.

``conf/search/paper.yaml``, ``conf/selection/elbow.yaml`` and ``conf/method/weak_pareto.yaml``
hold every constant of the method with its source in the paper (App. C, Secs. 4.2-4.5) or the
spec. The frozen records below take their defaults from those files, resolved without a
benchmark (a benchmark's ``tuning`` block can only override them in ``wp run``), so Python
(:func:`weakpareto.method.discovery.discover`, :class:`weakpareto.WeakPareto`), ``wp run``,
``wp discover``, the diagnostics and the scripts all compute with the same values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal

from omegaconf import OmegaConf

from weakpareto.records import OperatorKind

CONFIG_PACKAGE = "weakpareto.conf"
#: The config group options that make the method's defaults (``conf/config.yaml``'s defaults).
DEFAULT_GROUPS = {"search": "paper", "selection": "elbow", "method": "weak_pareto"}

Updating = Literal["immediate", "deferred"]
SelectionRule = Literal["elbow", "aic", "bic"]
StabilityRule = Literal["reference", "paper"]
ElbowPoints = Literal["front", "all"]


@cache
def conf_defaults() -> dict[str, dict[str, Any]]:
    """The default groups of ``conf/``, resolved with an empty benchmark (no tuning)."""
    root = resources.files(CONFIG_PACKAGE)
    groups = {g: OmegaConf.load(str(root / g / f"{n}.yaml")) for g, n in DEFAULT_GROUPS.items()}
    cfg = OmegaConf.create({"benchmark": {"tuning": {}, "library": {}}, **groups})
    data = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(data, dict)
    return {g: dict(data[g]) for g in DEFAULT_GROUPS}


def _d(group: str, key: str) -> Any:
    return conf_defaults()[group][key]


#: Order grids and the largest support size (``conf/search/paper.yaml``).
DEFAULT_N_ALPHA_NODES: int = _d("search", "n_alpha_nodes")
DEFAULT_N_BETA_NODES: int = _d("search", "n_beta_nodes")
DEFAULT_EPS_ALPHA: float = _d("search", "eps_alpha")
DEFAULT_C_MAX: int = _d("search", "c_max")


@dataclass(frozen=True)
class SearchSettings:
    """Continuous-order search constants (paper Sec. 4.2, App. C; ``conf/search/paper.yaml``)."""

    popsize: int = _d("search", "popsize")
    maxiter: int = _d("search", "maxiter")
    tol: float = _d("search", "tol")
    updating: Updating = _d("search", "updating")
    vectorized: bool = _d("search", "vectorized")  # batched population; needs updating=deferred
    ridge: float = _d("search", "ridge")
    val_fraction: float = _d("search", "val_fraction")
    anchors: bool = _d("search", "anchors")
    max_anchors: int = _d("search", "max_anchors")
    dup_weight: float = _d("search", "dup_weight")
    dup_gap: float = _d("search", "dup_gap")


@dataclass(frozen=True)
class SelectionSettings:
    """Selector, stopping and pruning constants (paper Secs. 4.3-4.4; ``conf/selection/``).

    Two places where the paper's wording and the reference code differ (spec §6.6-6.7):
    ``stability="reference"`` stops when the elbow is below ``c``; ``"paper"`` (Algorithm 1) also
    needs it unchanged from the previous size. ``elbow_points="front"`` takes the elbow on the
    dominance-filtered Pareto front; ``"all"`` on the best model of every evaluated size.
    """

    rule: SelectionRule = _d("selection", "rule")
    margin: float = _d("selection", "margin")  # two-point elbow margin on log10 E_val
    auto_stop: bool = _d("selection", "auto_stop")
    min_stop_size: int = _d("selection", "min_stop_size")  # c_min
    plateau_tol: float = _d("selection", "plateau_tol")  # delta
    plateau_log_tol: float = _d("selection", "plateau_log_tol")  # reference's log10 test
    patience: int = _d("selection", "patience")
    prune_contrib: float = _d("selection", "prune_contrib")  # tau_contrib
    prune_abs: float = _d("selection", "prune_abs")  # tau_abs
    stability: StabilityRule = _d("selection", "stability")
    elbow_points: ElbowPoints = _d("selection", "elbow_points")


@dataclass(frozen=True)
class RefineSettings:
    """Exact-order polishing and refit (paper Sec. 4.5; ``conf/method/weak_pareto.yaml``)."""

    polish: bool = _d("method", "polish")
    refit: bool = _d("method", "refit")
    maxiter: int = _d("method", "polish_maxiter")
    xatol: float = _d("method", "polish_xatol")
    fatol: float = _d("method", "polish_fatol")
    trust_min: float = _d("method", "trust_min")  # delta = max(3 * median spacing, trust_min)


@dataclass(frozen=True)
class DiscoveryConfig:
    """Everything that defines one discovery run besides the data.

    The search ranges, powers and operator are the data's (a benchmark's ``library`` block);
    everything else defaults to ``conf/``.
    """

    alpha_range: tuple[float, float]
    beta_range: tuple[float, float]
    powers: tuple[int, ...] = (0, 1, 2)
    c_max: int = DEFAULT_C_MAX
    operator: OperatorKind = "directional"
    n_alpha_nodes: int = DEFAULT_N_ALPHA_NODES
    n_beta_nodes: int = DEFAULT_N_BETA_NODES
    eps_alpha: float = DEFAULT_EPS_ALPHA
    seed: int = 0
    search: SearchSettings = field(default_factory=SearchSettings)
    selection: SelectionSettings = field(default_factory=SelectionSettings)
    refine: RefineSettings = field(default_factory=RefineSettings)
