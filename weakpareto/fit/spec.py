"""``FitSpec``: everything that defines one fit besides the data, built one way for both doors.

``wp run`` has a composed Hydra config; ``WeakPareto``/``wp discover`` have keyword parameters.
Both become the same four plain config groups (``method``, ``search``, ``selection``,
``library``) and go through :func:`spec_from_groups`, the one translation of settings into the
method's typed records:

* ``wp run``: the groups of the composed config (:func:`groups_of_config`);
* users: the named ``conf/`` options of the method and selector
  (:func:`weakpareto.method.settings.conf_defaults`), then each keyword parameter written into
  its config key through :data:`weakpareto.fit.names.PARAMETERS` (:func:`groups_of_params`).

So a method is its ``conf/method/<name>.yaml`` at both doors (its selector included), and one
parameter has one meaning wherever it is given.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, cast, get_args

from weakpareto.errors import UserInputError
from weakpareto.fit.names import PARAMETERS
from weakpareto.library.history import HistoryModel
from weakpareto.library.noise_level import NoiseModel
from weakpareto.library.weak import SpatialTests
from weakpareto.method.settings import (
    DiscoveryConfig,
    ElbowPoints,
    FeatureSettings,
    IntegerTest,
    RefineSettings,
    SearchSettings,
    SelectionRule,
    SelectionSettings,
    StabilityRule,
    TwinRule,
    Updating,
    conf_defaults,
    method_selector,
)
from weakpareto.numerics.tempered import MAX_TEMPERED_ORDER
from weakpareto.numerics.windows import Budget
from weakpareto.records import ALL_FAMILIES, TEMPERED_FAMILIES, Family, OperatorKind

#: ``operator=auto``: the families searched per term (directional first: it names the equation).
AUTO_FAMILIES: tuple[Family, ...] = ("directional", "riesz")
#: Joins family names into one ``operator=`` value: ``operator=directional+tempered_riesz``
#: searches each term in either family.
FAMILY_JOIN = "+"

#: What a method computes (``method.kind`` in ``conf/method/*.yaml``): the registry keys of
#: :data:`weakpareto.fit.kinds.METHOD_KINDS`.
MethodKindName = Literal["pareto", "grid_stridge", "fixed_stability", "yu_spline", "yu_neural"]
#: The features the Pareto search regresses on (``method.features``).
FeatureKind = Literal["weak", "pointwise"]
#: ``domain=``: periodic (the paper), bounded (a window of a larger system) or decided by data.
DomainRequest = Literal["auto", "periodic", "bounded"]
PowerModeRequest = Literal["auto", "raw", "positive"]


@dataclass(frozen=True)
class Bootstrap:
    """``uncertainty=bootstrap``: ``n_boot`` block resamples, central intervals at ``level``."""

    n_boot: int = 200
    level: float = 0.9


NoiseKind = Literal["measurement", "intrinsic"]
NOISE_KINDS: tuple[NoiseKind, ...] = ("measurement", "intrinsic")

#: The final estimate of a selected model (:mod:`weakpareto.fit.trajectory`).
RefitKind = Literal["auto", "weak", "trajectory"]
REFIT_KINDS: tuple[RefitKind, ...] = ("auto", "weak", "trajectory")


@dataclass(frozen=True)
class FitSpec:
    """One fit's settings (the data's search ranges included), validated on construction."""

    method: str
    kind: MethodKindName
    features: FeatureKind
    discovery: DiscoveryConfig
    feature_settings: FeatureSettings
    power_mode: PowerModeRequest = "raw"
    test_functions: SpatialTests = "gaussian"
    test_counts: tuple[int, ...] | None = None
    test_budget: Budget = "paper"
    domain: DomainRequest = "periodic"
    #: 2-D spatial test width as a fraction of the period (None: the count-to-width rule).
    width_fraction: float | None = None
    #: Samples dropped at each end of t and x by the pointwise (strong-form) features.
    trim: tuple[int, int] = (0, 0)
    uncertainty: Bootstrap | None = None
    #: The method's whole config (the baselines read their own keys from it).
    options: Mapping[str, Any] = field(default_factory=dict)
    #: What the translation could not apply as written (said in the fit's notes, never silent).
    notes: tuple[str, ...] = ()
    #: ``operator=auto``: the operator families each term may take (empty: ``discovery.operator``
    #: for every term).
    families: tuple[Family, ...] = ()
    #: ``unknown``: the record starts after the onset (:mod:`weakpareto.fit.history`).
    history: HistoryModel = "none"
    #: lambda of the tempered families (in the units of the fitted x); None: not given (the
    #: user door estimates it, :mod:`weakpareto.user.tempering`).
    tempering: float | None = None
    #: ``intrinsic``: the noise is fluctuations that obey the dynamics (densities of moving
    #: particles); the final model is corrected for them (:mod:`weakpareto.fit.intrinsic`).
    noise_kind: NoiseKind = "measurement"
    #: ``weak``: the weak estimate (the paper's); ``auto``/``trajectory``: a linear periodic model
    #: refitted to the data's trajectory (:mod:`weakpareto.fit.trajectory`).
    refit: RefitKind = "weak"

    @property
    def tempered(self) -> bool:
        """Whether a searched family is tempered (docs/method/tempered.md)."""
        return any(f in TEMPERED_FAMILIES for f in self.families)

    def __post_init__(self) -> None:
        kinds = get_args(MethodKindName)
        if self.kind not in kinds:
            raise UserInputError(
                f"method.kind={self.kind!r} of method={self.method} is not one of "
                f"{', '.join(kinds)}"
            )
        if self.features not in get_args(FeatureKind):
            raise UserInputError(
                f"method.features={self.features!r} of method={self.method} is not one of "
                f"{', '.join(get_args(FeatureKind))}"
            )

    @property
    def seed(self) -> int:
        return self.discovery.seed


# -- the one translation --------------------------------------------------------------------------
def _float_pair(v: Any) -> tuple[float, float]:
    return float(v[0]), float(v[1])


def _optional_float(v: Any) -> float | None:
    return None if v is None else float(v)


def _counts(v: Any) -> tuple[int, ...] | None:
    return None if v is None else tuple(int(c) for c in v)


def order_floor(
    features: FeatureSettings, beta_range: tuple[float, float]
) -> tuple[float | None, str]:
    """The smallest positive order the search uses, and a note when the method's could not be.

    The method's ``min_positive_order`` applies where the order range starts at the identity
    (0) and reaches above it; a range that ends below it cannot hold it, so the paper's uniform
    grid is used and the note says so."""
    floor = features.min_positive_order
    lo, hi = beta_range
    if floor is None or lo != 0.0:
        return None, ""
    if not 0.0 < floor < hi:
        return None, (
            f"min_positive_order {floor:g} of the method is not below beta_range's upper end "
            f"{hi:g}: the paper's uniform order grid is used"
        )
    return floor, ""


def searched_families(operator: str) -> tuple[str, tuple[Family, ...]]:
    """The run operator and the term families a 1-D search with ``operator`` holds (no
    families: the run operator's one, the paper's search)."""
    if operator == "auto":  # each term's family is chosen by the data
        return AUTO_FAMILIES[0], AUTO_FAMILIES
    if FAMILY_JOIN in operator or operator in TEMPERED_FAMILIES:
        return "directional", operator_families(operator)
    return operator, ()


def spec_from_groups(
    groups: Mapping[str, Mapping[str, Any]],
    seed: int,
    *,
    domain: DomainRequest = "periodic",
    uncertainty: Bootstrap | None = None,
    width_fraction: float | None = None,
    trim: tuple[int, int] = (0, 0),
) -> FitSpec:
    """The :class:`FitSpec` of plain config groups ``method``, ``search``, ``selection`` and
    ``library`` (a benchmark's ``library`` block: ranges, powers, operator, test family)."""
    m, s, sel, lib = groups["method"], groups["search"], groups["selection"], groups["library"]
    features = FeatureSettings.of({str(k): v for k, v in m.items()})
    operator, families = searched_families(str(lib["operator"]))
    beta_range = _float_pair(lib["beta_range"])
    tempering = check_tempering_range(families, beta_range, lib.get("tempering", None))
    floor, note = order_floor(features, beta_range)
    discovery = DiscoveryConfig(
        alpha_range=_float_pair(lib["alpha_range"]),
        beta_range=beta_range,
        powers=tuple(int(p) for p in lib["powers"]),
        c_max=int(s["c_max"]),
        operator=cast(OperatorKind, operator),
        n_alpha_nodes=int(s["n_alpha_nodes"]),
        n_beta_nodes=int(s["n_beta_nodes"]),
        eps_alpha=float(s["eps_alpha"]),
        min_positive_order=floor,
        noise_model=cast(NoiseModel, features.noise_model),
        seed=int(seed),
        search=SearchSettings(
            popsize=int(s["popsize"]),
            maxiter=int(s["maxiter"]),
            tol=float(s["tol"]),
            updating=cast(Updating, str(s["updating"])),
            vectorized=bool(s["vectorized"]),
            ridge=float(s["ridge"]),
            val_fraction=float(s["val_fraction"]),
            anchors=bool(s["anchors"]),
            max_anchors=int(s["max_anchors"]),
            dup_weight=float(s["dup_weight"]),
            dup_gap=float(s["dup_gap"]),
        ),
        selection=SelectionSettings(
            rule=cast(SelectionRule, str(sel["rule"])),
            margin=float(sel["margin"]),
            auto_stop=bool(sel["auto_stop"]),
            min_stop_size=int(sel["min_stop_size"]),
            plateau_tol=float(sel["plateau_tol"]),
            plateau_log_tol=float(sel["plateau_log_tol"]),
            patience=int(sel["patience"]),
            prune_contrib=float(sel["prune_contrib"]),
            prune_abs=float(sel["prune_abs"]),
            stability=cast(StabilityRule, str(sel["stability"])),
            elbow_points=cast(ElbowPoints, str(sel["elbow_points"])),
            explain_floor=_optional_float(sel.get("explain_floor", None)),
            refine_front=bool(sel.get("refine_front", False)),
            gain_floor=float(sel.get("gain_floor", 1e-8)),
        ),
        refine=RefineSettings(
            polish=bool(m["polish"]),
            refit=bool(m["refit"]),
            maxiter=int(m["polish_maxiter"]),
            xatol=float(m["polish_xatol"]),
            fatol=float(m["polish_fatol"]),
            trust_min=float(m["trust_min"]),
            ridge=_optional_float(m.get("refit_ridge", None)),
            integer_test=cast(IntegerTest, str(m.get("integer_test", "bound"))),
            twins=cast(TwinRule, str(m.get("twins", "keep"))),
        ),
    )
    return FitSpec(
        method=str(m["name"]),
        kind=cast(MethodKindName, str(m["kind"])),
        features=cast(FeatureKind, str(m.get("features", "weak"))),
        discovery=discovery,
        feature_settings=features,
        power_mode=cast(PowerModeRequest, str(lib.get("power_mode", "raw"))),
        test_functions=cast(SpatialTests, str(lib.get("spatial_tests", "gaussian"))),
        test_counts=_counts(s.get("test_counts", None)),
        test_budget=cast(Budget, str(s.get("test_budget", "paper"))),
        domain=domain,
        width_fraction=width_fraction,
        trim=trim,
        uncertainty=uncertainty,
        options=MappingProxyType(dict(m)),
        notes=(note,) if note else (),
        families=families,
        tempering=tempering,
    )


def operator_families(operator: str) -> tuple[Family, ...]:
    """The families of ``operator=a+b`` (or of one tempered family), refused when unknown or
    repeated."""
    names = tuple(n.strip() for n in operator.split(FAMILY_JOIN))
    if any(n not in ALL_FAMILIES for n in names) or len(set(names)) != len(names):
        raise UserInputError(
            f"operator={operator!r}: join distinct families among {', '.join(ALL_FAMILIES)} "
            f"with {FAMILY_JOIN!r}, e.g. operator=directional{FAMILY_JOIN}tempered_riesz"
        )
    return cast("tuple[Family, ...]", names)


def check_tempering_range(
    families: tuple[Family, ...], beta_range: tuple[float, float], tempering: Any
) -> float | None:
    """The tempering lambda of a spec (None: to be estimated), refused where it cannot apply:
    given without a tempered family, not > 0, or a ``beta_range`` on which a tempered symbol is
    undefined (above 2) or jumps (the left ``tempered`` family at 1, docs/method/tempered.md)."""
    tempered = [f for f in families if f in TEMPERED_FAMILIES]
    if not tempered:
        if tempering is not None:
            raise UserInputError(
                f"tempering={tempering!r} applies to the tempered families; give "
                "operator=tempered or operator=tempered_riesz, or drop tempering="
            )
        return None
    lo, hi = beta_range
    if hi > MAX_TEMPERED_ORDER:
        raise UserInputError(
            f"beta_range=[{lo:g},{hi:g}]: the tempered families are defined for orders up to "
            f"{MAX_TEMPERED_ORDER:g}; use beta_range with hi <= {MAX_TEMPERED_ORDER:g}"
        )
    if "tempered" in tempered and lo <= 1.0 < hi:
        raise UserInputError(
            f"beta_range=[{lo:g},{hi:g}] straddles 1, where operator family 'tempered' jumps by "
            "an advection term (its drift correction starts above 1): use beta_range within "
            "[0,1] or with lo > 1 (e.g. [1.05,2]), or tempered_riesz, which is continuous"
        )
    if tempering is None:
        return None
    if isinstance(tempering, bool) or not isinstance(tempering, int | float):
        raise UserInputError(f"tempering={tempering!r} must be a number > 0 (lambda, 1/x units)")
    value = float(tempering)
    if not (math.isfinite(value) and value > 0.0):
        raise UserInputError(f"tempering={tempering!r} must be a finite number > 0 (1/x units)")
    return value


# -- the two doors ---------------------------------------------------------------------------------
def groups_of_config(cfg: Any) -> dict[str, dict[str, Any]]:
    """The plain groups of a composed ``wp run`` config (a resolved ``DictConfig``)."""
    from omegaconf import OmegaConf

    def plain(node: Any) -> dict[str, Any]:
        data = OmegaConf.to_container(node, resolve=True)
        assert isinstance(data, dict)
        return {str(k): v for k, v in data.items()}

    return {
        "method": plain(cfg.method),
        "search": plain(cfg.search),
        "selection": plain(cfg.selection),
        "library": plain(cfg.benchmark.library),
    }


def groups_of_params(params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The groups of validated estimator parameters: the ``conf/`` options of ``method`` and of
    ``selection`` (the method's own selector when None), each parameter of :data:`PARAMETERS`
    written into its key. ``updating=immediate`` turns off the batched population (SciPy
    evaluates one trial at a time then). A given ``tempering`` (the tempered families' lambda)
    is ``library.tempering``, a key benchmarks do not have (``wp run``: add it to the benchmark's
    library block)."""
    method = str(params["method"])
    selector = params.get("selection") or method_selector(method)
    groups = copy.deepcopy(conf_defaults(selection=selector, method=method))
    groups["library"] = {}
    for name, key in PARAMETERS.items():
        if name in params:
            group, leaf = key.split(".", 1)
            value = params[name]
            groups[group][leaf] = list(value) if isinstance(value, tuple) else value
    groups["search"]["vectorized"] = groups["search"]["updating"] == "deferred"
    if params.get("tempering") is not None:  # no conf/ key: only runs with tempered families
        groups["library"]["tempering"] = params["tempering"]
    return groups
