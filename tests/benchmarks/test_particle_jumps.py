"""Particle jumps with drift, skewness and tempering (benchmarks/particles.py): the empirical
characteristic function of the displacement matches exp(t lambda(k)) of the derived generator,
an independent check of the stable-law parameters and of the tempered symbol."""

from __future__ import annotations

import numpy as np
import pytest

from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.particles import (
    JumpLaw,
    jump_symbol,
    levy_drift_case,
    particle_truth,
    stable_jumps,
)

KAPPA = np.array([0.5, 1.0, 2.0])


def _empirical(law: JumpLaw, h: float, steps: int, n: int, seed: int) -> np.ndarray:
    """E[exp(-i k X_t)] of ``n`` particles after ``steps`` jumps of ``h`` from 0 (no wrap)."""
    rng = np.random.default_rng(seed)
    pos = np.zeros(n)
    for _ in range(steps):
        pos = pos + stable_jumps(law, h, n, rng)
    return np.exp(-1j * np.multiply.outer(KAPPA, pos)).mean(axis=1)


def _sigma(n: int) -> float:
    return 1.0 / np.sqrt(n)  # a bound on the standard error of each part of a mean of e^{i.}


@pytest.mark.parametrize("s", [0.5, -0.5])
def test_drift_and_skewed_stable_jumps_have_the_riesz_feller_generator(s):
    """u_t = -0.5 u_x + 0.3 [(1+s)/2 D_+^1.5 + (1-s)/2 D_-^1.5] u, exact for any step."""
    n, t, steps = 200_000, 1.0, 4
    law = JumpLaw.riesz_feller(1.5, 0.3, s, drift=0.5)
    got = _empirical(law, t / steps, steps, n, 1)
    want = np.exp(t * jump_symbol(law, KAPPA))
    np.testing.assert_allclose(got, want, atol=5 * _sigma(n))
    mirrored = np.exp(t * jump_symbol(JumpLaw.riesz_feller(1.5, 0.3, -s, drift=0.5), KAPPA))
    assert np.max(np.abs(got - mirrored)) > 20 * _sigma(n)  # the skewness is resolved


def test_tempered_jumps_have_the_tempered_generator_as_the_step_shrinks():
    """Rejection exp(-lam |X|) plus the drift correction: lambda(k) = K (1+s)/2 [(lam + ik)^mu
    - lam^mu - ik mu lam^(mu-1)] + K (1-s)/2 [(lam - ik)^mu - lam^mu + ik mu lam^(mu-1)]."""
    n, t, steps = 100_000, 1.0, 50
    law = JumpLaw.riesz_feller(1.5, 0.3, 0.5, tempering=1.0)
    got = _empirical(law, t / steps, steps, n, 2)
    want = np.exp(t * jump_symbol(law, KAPPA))
    untempered = np.exp(t * jump_symbol(JumpLaw.riesz_feller(1.5, 0.3, 0.5), KAPPA))
    np.testing.assert_allclose(got, want, atol=6 * _sigma(n))
    assert np.max(np.abs(got - untempered)) > 20 * _sigma(n)  # tempering is resolved


def test_symbols_and_laws():
    law = JumpLaw.riesz_feller(1.5, 0.3, 0.5, drift=0.5)
    k = np.array([-2.0, 2.0])
    d_plus, d_minus = (1j * k) ** 1.5, (-1j * k) ** 1.5
    np.testing.assert_allclose(
        jump_symbol(law, k), -0.5j * k + 0.3 * (0.75 * d_plus + 0.25 * d_minus), rtol=1e-13
    )
    assert np.all(jump_symbol(law, k).real < 0)  # K > 0 is dissipative at 1 < mu < 2
    tempered = JumpLaw.riesz_feller(1.5, 0.3, 0.5, tempering=1e-12)
    np.testing.assert_allclose(
        jump_symbol(tempered, k), jump_symbol(JumpLaw.riesz_feller(1.5, 0.3, 0.5), k), atol=1e-5
    )
    with pytest.raises(ValueError, match="K cos"):
        JumpLaw.riesz_feller(1.5, -0.3)
    with pytest.raises(ValueError, match="tempering"):
        JumpLaw.riesz_feller(0.8, -0.3, tempering=1.0)


def _particles(terms: list[dict], **generator) -> dict:
    cfg = levy_drift_case(1.0)
    cfg["generator"] = {"kind": "levy_flight", "particles": 20_000,
                        "ic": {"offset": 1.0, "harmonics": [{"fn": "cos", "m": 1, "amp": 0.5}]},
                        **generator}  # fmt: skip
    cfg["grid"] = {"nt": 5, "nx": 32, "T": 0.4, "L": 2 * np.pi, "t_endpoint": True}
    cfg["truth"]["terms"] = terms
    return cfg


def test_particle_truth_reads_drift_riesz_and_skewed_pairs():
    pair = [{"power": 0, "order": 1.0, "coef": -0.5},
            {"power": 0, "order": 1.5, "coef": 0.225},
            {"power": 0, "order": 1.5, "coef": 0.075, "family": "directional_right"}]  # fmt: skip
    law = particle_truth(_particles(pair))
    assert law.drift == 0.5 and law.mu == 1.5
    assert law.K == pytest.approx(0.3, rel=1e-12) and law.s == pytest.approx(0.5, rel=1e-12)
    riesz = particle_truth(levy_drift_case(1.0))
    assert riesz.rate == 0.3 and riesz.s == 0.0 and riesz.drift == 0.5


def test_symmetric_flight_draws_exactly_as_before():
    """The symmetric path draws the same numbers as the original one-jump-per-step loop."""
    from scipy.stats import levy_stable

    terms = [{"power": 0, "order": 1.5, "coef": 0.3, "family": "riesz"}]
    cfg = _particles(terms)
    f = generate(cfg, 4)
    rng = np.random.default_rng(4)
    from weakpareto.benchmarks.catalogue import harmonics
    from weakpareto.benchmarks.particles import histogram_density, sample_density

    xf = (np.arange(16 * 32) + 0.5) * 2 * np.pi / (16 * 32)
    u0 = 1.0 + harmonics((xf,), (2 * np.pi,), cfg["generator"]["ic"]["harmonics"])
    pos = sample_density(u0, 2 * np.pi, 20_000, rng)
    dt = f.t[1] - f.t[0]
    for i in range(1, f.t.size):
        pos = np.mod(pos + levy_stable.rvs(1.5, 0.0, scale=(0.3 * dt) ** (1 / 1.5), size=20_000,
                                           random_state=rng), 2 * np.pi)  # fmt: skip
        np.testing.assert_array_equal(f.u[i], histogram_density(pos, 2 * np.pi, 32))
