"""The method's settings, with ONE set of defaults: the values of the shipped ``conf/``.

``conf/search/paper.yaml``, ``conf/selection/elbow.yaml`` and ``conf/method/weak_pareto.yaml``
hold every constant of the method with its source in the paper (App. C, Secs. 4.2-4.5) or the
spec. The frozen records below take their defaults from those files, resolved without a
benchmark (a benchmark's ``tuning`` block can only override them in ``wp run``), so Python
(:func:`weakpareto.method.discovery.discover`, :class:`weakpareto.WeakPareto`), ``wp run``,
``wp discover``, the diagnostics and the scripts all compute with the same values.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal, cast

from omegaconf import DictConfig, OmegaConf

from weakpareto.library.noise_level import NoiseModel
from weakpareto.library.weak_exact import InitialEstimate, StartSlope, TestWidths
from weakpareto.records import OperatorKind

CONFIG_PACKAGE = "weakpareto.conf"
#: The config group options that make the method's defaults (``conf/config.yaml``'s defaults).
DEFAULT_GROUPS = {"search": "paper", "selection": "elbow", "method": "weak_pareto"}

Updating = Literal["immediate", "deferred"]
SelectionRule = Literal["elbow", "aic", "bic", "gain"]
StabilityRule = Literal["reference", "paper"]
ElbowPoints = Literal["front", "all"]


_GLOBAL_PACKAGE = "# @package _global_"


def _is_group_override(entry: Any) -> bool:
    """A defaults entry choosing another group's option (``override /selection: gain``)."""
    return isinstance(entry, dict | DictConfig) and any(
        str(k).startswith("override /") for k in entry
    )


def _load_option(group: str, name: str) -> DictConfig:
    """One option of a config group with its same-group ``defaults`` (e.g. gain -> elbow)."""
    path = resources.files(CONFIG_PACKAGE) / group / f"{name}.yaml"
    if not path.is_file():
        raise ValueError(f"{group}={name} is not an option of conf/{group}/")
    node = OmegaConf.load(str(path))
    assert isinstance(node, DictConfig)
    parents = [p for p in node.pop("defaults", []) if not _is_group_override(p)]
    if _GLOBAL_PACKAGE in path.read_text().splitlines()[:1]:  # the group's node is nested
        node = node[group]
        assert isinstance(node, DictConfig)
    order = parents if "_self_" in parents else [*parents, "_self_"]
    layers = [node if p == "_self_" else _load_option(group, p) for p in order]
    merged = OmegaConf.merge(*layers)
    assert isinstance(merged, DictConfig)
    return merged


@cache
def conf_defaults(
    search: str = DEFAULT_GROUPS["search"],
    selection: str = DEFAULT_GROUPS["selection"],
    method: str = DEFAULT_GROUPS["method"],
) -> dict[str, dict[str, Any]]:
    """Config group options of ``conf/``, resolved with an empty benchmark (no tuning)."""
    names = {"search": search, "selection": selection, "method": method}
    groups = {g: _load_option(g, n) for g, n in names.items()}
    cfg = OmegaConf.create({"benchmark": {"tuning": {}, "library": {}}, **groups})
    data = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(data, dict)
    return {g: dict(data[g]) for g in names}


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

    Two places where the paper's wording and the reference code differ
    (docs/method/reference-differences.md#stability-stop-and-elbow-points):
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
    # No stop while the best E_val exceeds it (None: the paper's sweep; see conf/selection/gain)
    explain_floor: float | None = _d("selection", "explain_floor")
    gain_floor: float = _d("selection", "gain_floor")  # numerical floor of E_val (gain rule)
    # Select on pruned, polished, exact-order models instead of search-stage ones (ours)
    refine_front: bool = _d("selection", "refine_front")


IntegerTest = Literal["bound", "always"]
TwinRule = Literal["keep", "merge"]
TemporalTarget = Literal["l1", "exact"]


@dataclass(frozen=True)
class RefineSettings:
    """Exact-order polishing and refit (paper Sec. 4.5; ``conf/method/weak_pareto.yaml``)."""

    polish: bool = _d("method", "polish")
    refit: bool = _d("method", "refit")
    maxiter: int = _d("method", "polish_maxiter")
    xatol: float = _d("method", "polish_xatol")
    fatol: float = _d("method", "polish_fatol")
    trust_min: float = _d("method", "trust_min")  # delta = max(3 * median spacing, trust_min)
    # ridge of the final refit: None = the search's (paper Eq. 22); 0 = least squares
    ridge: float | None = _d("method", "refit_ridge")
    #: When the refined model is compared with the same support in the integer branch (ours):
    #: "bound" only when the polished fractional order ends on the bound next to 1 (robust
    #: method); "always" for every fractional model, so an order near 1 must earn its parameter.
    integer_test: IntegerTest = "bound"
    #: Two terms of one kind (power, family) whose orders lie within the polishing trust region
    #: and whose coefficients share a sign (ours): "keep" lets the selection margin decide (the
    #: paper); "merge" always replaces them by one re-polished term — within that distance
    #: they are one operator split in two (docs/method/extensions.md#same-sign-twins).
    twins: TwinRule = "keep"


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
    #: Smallest positive spatial order searched when the range includes the identity (beta = 0):
    #: proposals below it snap to the identity (ours, docs/method/extensions.md#minimum-positive-
    #: order; None = the paper's uniform grid).
    min_positive_order: float | None = None
    #: Errors-in-variables correction of the Gram tables and exact fits (ours,
    #: docs/method/extensions.md#noise-aware-scoring):
    #: "none" is the paper; otherwise the noise law to assume ("auto" picks it from the data).
    noise_model: NoiseModel = "none"
    seed: int = 0
    search: SearchSettings = field(default_factory=SearchSettings)
    selection: SelectionSettings = field(default_factory=SelectionSettings)
    refine: RefineSettings = field(default_factory=RefineSettings)


def _fields(cls: type, values: dict[str, Any], rename: dict[str, str] | None = None) -> Any:
    """Build a settings record from a config group's values (only the record's own fields)."""
    rename = rename or {}
    names = {f.name for f in dataclasses.fields(cls)}
    kwargs = {rename.get(k, k): v for k, v in values.items() if rename.get(k, k) in names}
    return cls(**kwargs)


@dataclass(frozen=True)
class FeatureSettings:
    """How the weak features are built and scored (ours,
    docs/method/extensions.md#exact-weak-time-derivative; defaults are the paper's).

    ``temporal_target``/``bump_power``/``initial``/``initial_points``/``test_widths``/``start_slope``
    choose the
    library (:func:`weakpareto.library.weak_exact.exact_time_weak_library` for ``"exact"``);
    ``min_positive_order`` and ``noise_model`` go into :class:`DiscoveryConfig`.
    """

    temporal_target: TemporalTarget = "l1"
    bump_power: int = 4
    initial: InitialEstimate = "sample"
    initial_points: int = 5
    test_widths: TestWidths = "paper"
    start_slope: StartSlope = "estimate"
    min_positive_order: float | None = None
    noise_model: NoiseModel = "none"

    @classmethod
    def of(cls, method: dict[str, Any]) -> FeatureSettings:
        """The settings in a method config (``conf/method/*.yaml``); absent keys: the paper's."""
        return cast(FeatureSettings, _fields(cls, method))

    def library_options(self) -> dict[str, Any]:
        """Keyword arguments of ``exact_time_weak_library`` (``temporal_target="exact"``)."""
        return dict(
            bump_power=self.bump_power,
            initial=self.initial,
            initial_points=self.initial_points,
            widths=self.test_widths,
            start_slope=self.start_slope,
        )


def named_features(method: str) -> FeatureSettings:
    """The feature settings of a named ``conf/method`` option."""
    return FeatureSettings.of(conf_defaults(method=method)["method"])


#: config key -> RefineSettings field
REFINE_KEYS = {
    "polish_maxiter": "maxiter",
    "polish_xatol": "xatol",
    "polish_fatol": "fatol",
    "refit_ridge": "ridge",
}


def named_settings(
    method: str = DEFAULT_GROUPS["method"],
    selection: str = DEFAULT_GROUPS["selection"],
    search: str = DEFAULT_GROUPS["search"],
) -> tuple[SearchSettings, SelectionSettings, RefineSettings]:
    """The settings of named ``conf/`` options (e.g. ``method="weak_pareto_robust"``,
    ``selection="gain"``), exactly as ``wp run method=... selection=...`` composes them for a
    benchmark without tuning."""
    d = conf_defaults(search=search, selection=selection, method=method)
    return (
        _fields(SearchSettings, d["search"]),
        _fields(SelectionSettings, d["selection"]),
        _fields(RefineSettings, d["method"], REFINE_KEYS),
    )


#: The users' default method (``WeakPareto``, ``wp discover``): the paper's search on an exact
#: weak time derivative with noise-aware scoring, the per-term gain selector on refined models
#: and an unbiased final refit (``conf/method/weak_pareto_exact.yaml``; docs/independent-suite.md
#: compares it with the others on data the method did not generate).
DEFAULT_USER_METHOD = "weak_pareto_exact"


def method_names() -> tuple[str, ...]:
    """The options of ``conf/method/`` (every method, at both doors)."""
    folder = resources.files(CONFIG_PACKAGE) / "method"
    return tuple(
        sorted(p.name[: -len(".yaml")] for p in folder.iterdir() if p.name.endswith(".yaml"))
    )


@cache
def method_selector(method: str) -> str:
    """The ``conf/selection`` option a method selects with: its (or its parents')
    ``override /selection: <name>`` defaults entry, else the primary config's."""
    path = resources.files(CONFIG_PACKAGE) / "method" / f"{method}.yaml"
    if not path.is_file():
        raise ValueError(f"method={method} is not an option of conf/method/")
    node = OmegaConf.load(str(path))
    assert isinstance(node, DictConfig)
    parents = []
    for entry in node.get("defaults", []):
        if _is_group_override(entry):
            for key, value in entry.items():
                if str(key) == "override /selection":
                    return str(value)
        elif isinstance(entry, str) and entry != "_self_":
            parents.append(entry)
    for parent in reversed(parents):
        chosen = method_selector(parent)
        if chosen != DEFAULT_GROUPS["selection"]:
            return chosen
    return DEFAULT_GROUPS["selection"]


def method_settings(method: str) -> tuple[SearchSettings, SelectionSettings, RefineSettings]:
    """The settings of a named method with its own selector, as ``wp run method=<name>``
    composes them for a benchmark without tuning."""
    return named_settings(method, method_selector(method))
