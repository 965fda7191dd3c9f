"""Densities of particle processes: data that share nothing with the method's discretisations.

:func:`levy_flight_density` (``generator.kind: levy_flight``): ``N`` particles start from a
positive density ``u_0(x) = offset + sum of harmonics`` on a period ``L`` and move, every step
``h = dt / substeps`` (``dt`` the output step), by a drift ``v h`` plus an ``mu``-stable jump
(:data:`scipy.stats.levy_stable`, parameterisation S1), wrapped on the period; the field is the
histogram of the positions at the output times.

Generator of the process (Fourier convention ``u_hat(k) = int u e^{-i k x} dx``)
--------------------------------------------------------------------------------
The density is ``u(., t) = u_0 * p_t`` for the law ``p_t`` of a particle's displacement ``X_t``,
so ``u_hat(k, t) = u_hat(k, 0) E[exp(-i k X_t)] = u_hat(k, 0) exp(t lambda(k))``: the
characteristic function of the displacement at ``-k`` is the propagator, and ``lambda`` the
symbol of the equation ``u_t = L u``. An S1 stable jump of index ``mu != 1``, skewness ``b`` and
scale ``sigma`` has ``E[exp(i k X)] = exp(-sigma^mu |k|^mu (1 - i b sgn(k) tan(pi mu / 2)))``
(mean zero for ``mu > 1``). Matching one step ``h`` with the Riesz-Feller generator

    u_t = -v u_x + K [ (1 + s)/2 D_+^mu + (1 - s)/2 D_-^mu ] u,
    lambda(k) = -i v k + K |k|^mu (cos(pi mu / 2) + i s sgn(k) sin(pi mu / 2)),

(``D_+^mu`` symbol ``(i k)^mu``: the ``directional`` family; ``D_-^mu`` ``(-i k)^mu``:
``directional_right``) gives, exactly,

    sigma^mu = -K cos(pi mu / 2) h,      b = s,

so ``K cos(pi mu / 2) < 0`` (``K > 0`` for ``1 < mu < 2``, ``K < 0`` for ``mu < 1``) and
``|s| <= 1``. A symmetric flight ``u_t = K_R R^mu u`` is ``s = 0``, ``sigma^mu = K_R h``.
Stable laws are closed under convolution with these parameters (S1, ``mu != 1``), so the
positions at the output times are those of the Lévy process with this generator **exactly**,
for every ``h``: the only error of the field is the counting noise of ``N`` particles. Wrapping
on the period is exact too: the wrapped density solves the periodic equation at the
wavenumbers ``2 pi m / L``.

Tempered jumps (``generator.tempering: lam > 0``, ``1 < mu < 2``)
----------------------------------------------------------------
Each step draws the stable jump ``X`` above and accepts it with probability ``exp(-lam |X|)``
(exact rejection sampling of the law ``q_h(x) ~ exp(-lam |x|) p_h(x)``), then subtracts the
drift correction: the exact mean of ``q_h`` (:func:`step_mean`, by quadrature of the stable
density), so every step has mean zero like the limit process below. The stable law of a short
step is ``p_h ~ delta + h nu``
with Lévy measure ``nu(dx) = c_+- |x|^(-1-mu) dx`` on ``x >< 0``, ``c_+- Gamma(-mu) =
K (1 +- s)/2``; tempering the step tempers the measure, ``nu_lam = exp(-lam |x|) nu``, and shifts
the mean of a step by ``h m + O(h^(2/mu))``, ``m = int x (e^{-lam |x|} - 1) nu(dx) =
-mu lam^(mu-1) K s``, which the correction removes. (Subtracting ``h m`` alone leaves a drift
error ``O(h^(2/mu - 1))``, slow: at ``mu = 1.5``, ``K = 0.3``, ``s = 0.5``, ``lam = 1``,
``h = 0.02`` the step mean is ``-0.174 h``, not ``m h = -0.225 h``.) With
``int_0^inf (e^{-z x} - 1 + z x) x^(-1-mu) dx =
Gamma(-mu) z^mu`` (``Re z >= 0``) the generator of the limit ``h -> 0`` is

    lambda(k) = -i v k + K (1 + s)/2 [ (lam + i k)^mu - lam^mu - i k mu lam^(mu-1) ]
                       + K (1 - s)/2 [ (lam - i k)^mu - lam^mu + i k mu lam^(mu-1) ],

the tempered Riesz-Feller operator (``exp(-lam x) D_+^mu exp(lam x)`` less its value and slope
at ``k = 0``; ``lam -> 0`` gives the stable symbol). **Approximation:** ``q_h`` is not infinitely
divisible, so the compound process has this generator only as ``h -> 0``: the bulk of a step
(``|x| ~ sigma ~ h^(1/mu)``) is tilted by ``~ lam sigma`` and contributes ``O(h^(2/mu))`` per
step to the log characteristic function, ``O(t h^(2/mu - 1))`` in all, so ``generator.substeps``
refines ``h`` (at ``mu = 1.5``: ``h^(1/3)``). :func:`tempered_bias` states the size for a
configuration by quadrature of the step law. :func:`jump_symbol` is the truth either way.

The field is the histogram of the ``N`` positions in ``nx`` bins divided by ``N dx``: the bin
average of the density, which obeys the same linear equation (a box average commutes with every
Fourier multiplier), plus the counting noise of ``N`` particles (multinomial, variance
``~ u / (N dx)``). Nothing is exact to a grid: the noise is the physics of the data, not a noise
law added afterwards.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from weakpareto._typing import ComplexArray, FloatArray
from weakpareto.benchmarks.catalogue import (
    Field,
    field_meta,
    get_path,
    harmonics,
    make_grid,
    opt_path,
    pos_float,
    truth_mode_alpha,
    truth_terms,
)

#: Candidates drawn per round of the rejection sampling of the initial positions.
REJECTION_BATCH = 1 << 18


def sample_density(
    density: FloatArray, period: float, n: int, rng: np.random.Generator
) -> FloatArray:
    """``n`` positions on ``[0, period)`` distributed like the piecewise-constant ``density``
    (values on ``len(density)`` equal cells), by rejection from the uniform law."""
    if np.any(density < 0) or not np.any(density > 0):
        raise ValueError("a particle density must be nonnegative and not all zero")
    top = float(np.max(density))
    cells = density.size
    out: list[FloatArray] = []
    have = 0
    while have < n:
        x = rng.uniform(0.0, period, REJECTION_BATCH)
        keep = rng.uniform(0.0, top, REJECTION_BATCH) < density[(x / period * cells).astype(int)]
        out.append(x[keep])
        have += int(keep.sum())
    return np.concatenate(out)[:n]


def histogram_density(positions: FloatArray, period: float, nx: int) -> FloatArray:
    """Density of ``positions`` (wrapped on the period) in ``nx`` equal bins starting at 0."""
    idx = (np.mod(positions, period) / period * nx).astype(int) % nx
    return np.bincount(idx, minlength=nx) / (positions.size * period / nx)


#: Orders this close to 1 are the advection (drift) term of a particle truth.
DRIFT_ORDER_TOL = 1e-12


@dataclass(frozen=True)
class JumpLaw:
    """One particle's motion per unit time: drift ``v``, ``mu``-stable jumps of rate
    ``-K cos(pi mu / 2)`` (``sigma^mu`` per unit time) and skewness ``s``, exponential
    tempering ``lam`` (module docstring). A symmetric flight ``K_R R^mu`` has rate ``K_R``."""

    mu: float
    rate: float
    s: float = 0.0
    drift: float = 0.0
    tempering: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 < self.mu <= 2.0 or self.mu == 1.0:
            raise ValueError(f"particle jumps need 0 < mu <= 2, mu != 1; got mu={self.mu}")
        if not self.rate > 0.0 or abs(self.s) > 1.0:
            raise ValueError(
                "particle jumps need K cos(pi mu/2) < 0 and |s| <= 1; "
                f"got rate -K cos(pi mu/2) = {self.rate}, s = {self.s}"
            )
        if self.tempering < 0.0 or (self.tempering > 0.0 and not 1.0 < self.mu < 2.0):
            raise ValueError(f"tempering lam >= 0 needs 1 < mu < 2; got lam={self.tempering}")

    @classmethod
    def riesz_feller(
        cls,
        mu: float,
        K: float,
        s: float = 0.0,
        drift: float = 0.0,
        tempering: float = 0.0,  # noqa: N803
    ) -> JumpLaw:
        """The law of ``u_t = -v u_x + K [(1+s)/2 D_+^mu + (1-s)/2 D_-^mu] u`` (tempered)."""
        return cls(mu, -K * math.cos(0.5 * math.pi * mu), s, drift, tempering)

    @property
    def K(self) -> float:  # noqa: N802  (the equation's symbol)
        """``K = -rate / cos(pi mu / 2)``."""
        return -self.rate / math.cos(0.5 * math.pi * self.mu)

    def stable_scale(self, h: float) -> float:
        """``sigma = (-K cos(pi mu / 2) h)^(1/mu)`` of one step's S1 stable jump."""
        return (self.rate * h) ** (1.0 / self.mu)

    @property
    def mean_shift(self) -> float:
        """Drift correction per unit time of tempered jumps, ``mu lam^(mu-1) K s`` (0 without
        tempering)."""
        lam = self.tempering
        return 0.0 if lam == 0.0 else self.mu * lam ** (self.mu - 1.0) * self.K * self.s


def jump_symbol(law: JumpLaw, kappa: FloatArray) -> ComplexArray:
    """``lambda(k)``: ``u_hat(k, t) = u_hat(k, 0) exp(t lambda(k))`` (module docstring)."""
    k = np.asarray(kappa, dtype=float)
    mu, lam = law.mu, law.tempering
    drift = -1j * law.drift * k
    if lam == 0.0:
        angle = 0.5 * np.pi * mu
        ak = np.abs(k) ** mu
        return drift + law.K * ak * (np.cos(angle) + 1j * law.s * np.sign(k) * np.sin(angle))
    slope = 1j * k * mu * lam ** (mu - 1.0)
    left = (lam + 1j * k) ** mu - lam**mu - slope
    right = (lam - 1j * k) ** mu - lam**mu + slope
    return drift + law.K * (0.5 * (1 + law.s) * left + 0.5 * (1 - law.s) * right)


@functools.lru_cache(maxsize=32)
def step_mean(law: JumpLaw, h: float) -> float:
    """Mean of one tempered step ``q_h ~ exp(-lam |x|) p_h(x)`` without drift, by quadrature of
    the S1 stable density (module docstring); ``-mean_shift * h`` in the limit ``h -> 0``."""
    from scipy.integrate import quad
    from scipy.stats import levy_stable

    scale, lam = law.stable_scale(h), law.tempering

    def moment(power: int) -> float:
        def g(x: float) -> float:
            weight = np.exp(-lam * abs(x)) * levy_stable.pdf(x, law.mu, law.s, 0.0, scale)
            return float(x**power * weight)

        return sum(quad(g, a, b, limit=200)[0] for a, b in ((-np.inf, 0.0), (0.0, np.inf)))

    return moment(1) / moment(0)


def stable_jumps(law: JumpLaw, h: float, n: int, rng: np.random.Generator) -> FloatArray:
    """``n`` displacements of one step ``h``: drift plus an S1 stable jump (rejected with
    probability ``1 - exp(-lam |X|)`` and less its exact mean :func:`step_mean` when
    tempered)."""
    from scipy.stats import levy_stable  # scipy.stats costs ~0.3 s to import: only when drawn

    scale = law.stable_scale(h)
    if law.tempering == 0.0:
        out = levy_stable.rvs(law.mu, law.s, scale=scale, size=n, random_state=rng)
    else:
        out = np.empty(n)
        todo = np.arange(n)
        while todo.size:
            x = levy_stable.rvs(law.mu, law.s, scale=scale, size=todo.size, random_state=rng)
            keep = rng.uniform(size=todo.size) < np.exp(-law.tempering * np.abs(x))
            out[todo[keep]] = x[keep]
            todo = todo[~keep]
        out = out - step_mean(law, h)
    return out + law.drift * h if law.drift != 0.0 else out


def tempered_bias(law: JumpLaw, h: float, kappa: FloatArray, t: float) -> FloatArray:
    """``|log E[e^{-i k X_t}] - t lambda(k)|`` of the compound process of steps ``h`` (exact
    step law by quadrature of the stable density; drift excluded): the finite-step error of the
    tempered generator (module docstring)."""
    from scipy.integrate import quad
    from scipy.stats import levy_stable

    scale = law.stable_scale(h)
    lam = law.tempering

    def moment(f: Any) -> float:
        def g(x: float) -> float:
            return float(f(x) * np.exp(-lam * abs(x)) * levy_stable.pdf(x, law.mu, law.s, 0, scale))

        return sum(quad(g, a, b, limit=400)[0] for a, b in ((-np.inf, 0.0), (0.0, np.inf)))

    z = moment(lambda x: 1.0)
    out = []
    for k in np.atleast_1d(np.asarray(kappa, dtype=float)):
        re = moment(lambda x, k=k: np.cos(k * x)) / z
        im = -moment(lambda x, k=k: np.sin(k * x)) / z
        step = np.log(complex(re, im)) + 1j * k * step_mean(law, h)
        exact = jump_symbol(JumpLaw(law.mu, law.rate, law.s, 0.0, lam), np.array([k]))[0]
        out.append(abs(step * t / h - t * exact))
    return np.array(out)


def particle_truth(cfg: Mapping[str, Any]) -> JumpLaw:
    """The jump law of a ``levy_flight`` config: an advection term (order 1, directional) is the
    drift ``v = -coef``; the other terms share one order ``mu`` in the families riesz
    (``K_R R^mu``), directional (``a D_+^mu``) and directional_right (``b D_-^mu``), which sum to
    ``K [(1+s)/2 D_+ + (1-s)/2 D_-]`` with ``K cos(pi mu/2) = a cos + b cos - K_R`` and
    ``K s = a - b``; ``generator.tempering`` is ``lam``."""
    mode, _ = truth_mode_alpha(cfg)
    operator = str(opt_path(cfg, "truth.operator", "riesz"))
    if mode != "int":
        raise ValueError("generator kind 'levy_flight' needs truth mode int")
    drift, orders = 0.0, set()
    jump_terms = []
    for term in truth_terms(cfg):
        family = str(term.get("family") or operator)
        order, coef = float(term["order"]), float(term["coef"])
        if family == "directional" and abs(order - 1.0) <= DRIFT_ORDER_TOL:
            drift -= coef
            continue
        if family not in ("riesz", "directional", "directional_right"):
            raise ValueError(f"levy_flight truth terms need a 1-D family, got {family!r}")
        orders.add(order)
        jump_terms.append((family, coef))
    if len(orders) != 1:
        raise ValueError("generator kind 'levy_flight' needs its jump terms at one order mu")
    mu = orders.pop()
    if mu == 1.0 or not 0.0 < mu <= 2.0:
        raise ValueError(f"levy_flight needs 0 < mu <= 2, mu != 1; got mu={mu}")
    cos = math.cos(0.5 * math.pi * mu)
    rate, odd = 0.0, 0.0  # rate = -Re(symbol) / |k|^mu; odd = a - b (directional - right)
    for family, coef in jump_terms:
        if family == "riesz":  # K_R R^mu: symbol -K_R |k|^mu
            rate += coef
        else:  # a (+-i k)^mu = a |k|^mu (cos +- i sgn(k) sin)
            rate -= coef * cos
            odd += coef if family == "directional" else -coef
    k_coef = -rate / cos
    skew = 0.0 if odd == 0.0 else odd / k_coef
    lam = float(opt_path(cfg, "generator.tempering", 0.0))
    return JumpLaw(mu, rate, skew, drift, lam)


def levy_flight_density(cfg: Mapping[str, Any], seed: int) -> Field:
    """The histogrammed density of a wrapped Lévy flight (module docstring).

    Config: ``generator.particles`` (N), ``generator.ic.offset`` and ``generator.ic.harmonics``
    (``u_0``, made a probability density), ``generator.oversample`` (initial density resolved on
    ``oversample * nx`` cells), ``generator.substeps`` (jumps per output step, default 1),
    ``generator.tempering`` (``lam``, default 0); the truth block (``mode: int``) holds the
    terms of :func:`particle_truth`. The seed draws the particles.
    """
    t, x, _ = make_grid(get_path(cfg, "grid"))
    period = pos_float(cfg, "grid.L")
    law = particle_truth(cfg)
    n = int(opt_path(cfg, "generator.particles", 100_000))
    substeps = int(opt_path(cfg, "generator.substeps", 1))
    fine = int(opt_path(cfg, "generator.oversample", 16)) * x.size
    xf = (np.arange(fine) + 0.5) * period / fine
    ic = get_path(cfg, "generator.ic")
    u0 = float(ic.get("offset", 1.0)) + harmonics((xf,), (period,), ic["harmonics"])
    rng = np.random.default_rng(seed)
    pos = sample_density(u0, period, n, rng)
    u = np.empty((t.size, x.size))
    u[0] = histogram_density(pos, period, x.size)
    h = float(t[1] - t[0]) / substeps
    for i in range(1, t.size):  # substeps jumps per output step
        for _ in range(substeps):
            pos = pos + stable_jumps(law, h, n, rng)
            pos = np.mod(pos, period)
        u[i] = histogram_density(pos, period, x.size)
    return Field(u, t, x, meta=field_meta(cfg, seed, False, particles=n))


def levy_drift_case(alpha: float = 1.0) -> dict[str, Any]:
    """The shared exact Lévy-drift case, ``D_t^alpha u = -0.5 u_x + 0.3 R^1.5 u`` (package data
    ``weakpareto/data/levy_drift.json``: the exact per-mode generator config), in the integer
    branch at ``alpha = 1`` and the subdiffusive one below."""
    import copy
    import json
    from importlib.resources import files

    text = files("weakpareto.data").joinpath("levy_drift.json").read_text(encoding="utf-8")
    cfg: dict[str, Any] = copy.deepcopy(json.loads(text))
    cfg.pop("_comment", None)
    cfg["truth"]["mode"] = "int" if alpha == 1.0 else "sub"
    cfg["truth"]["alpha"] = float(alpha)
    return cfg
