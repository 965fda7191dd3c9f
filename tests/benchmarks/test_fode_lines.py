"""The pycaputo method-of-lines generator (benchmarks/fode_lines.py): convergence in the step
against exact Mittag-Leffler modes, and its refusals."""

from __future__ import annotations

import copy
from math import gamma

import numpy as np
import pytest

from weakpareto.benchmarks.generators import generate

pytest.importorskip("pycaputo")  # the [independent] extra, installed by make test

LINEAR = {
    "name": "pc",
    "generator": {"kind": "mittag_leffler", "ic": {"harmonics": [
        {"fn": "sin", "m": 1, "amp": 1.0, "phase": 0.3}, {"fn": "cos", "m": 2, "amp": 0.6},
        {"fn": "sin", "m": 3, "amp": 0.35, "phase": 1.1}]}},
    "grid": {"nt": 51, "nx": 32, "T": 2.0, "L": 4 * np.pi, "t_endpoint": True},
    "truth": {"mode": "sub", "alpha": 0.7, "operator": "riesz",
              "terms": [{"power": 0, "order": 1.5, "coef": 0.5}]},
}  # fmt: skip


def _pycaputo(cfg: dict, substeps: int) -> dict:
    out = copy.deepcopy(cfg)
    out["generator"]["kind"] = "pycaputo"
    out["generator"]["substeps"] = substeps
    return out


@pytest.mark.parametrize(("alpha", "order"), [(0.7, 1.7), (1.4, 2.0)])
def test_pece_converges_at_its_order_to_the_exact_modes(alpha, order):
    """PECE (one corrector per 1/alpha) is of order min(1 + alpha, 2) on these smooth modes:
    the maximum error against E_{alpha,1} per mode falls by 2^order per halving of the step."""
    cfg = copy.deepcopy(LINEAR)
    cfg["truth"]["alpha"] = alpha
    cfg["truth"]["mode"] = "sub" if alpha < 1 else "sup"
    exact = generate(cfg, 0).u
    errors = [float(np.abs(generate(_pycaputo(cfg, s), 0).u - exact).max()) for s in (1, 2, 4, 8)]
    rates = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert np.all(rates > order - 0.15), rates
    assert errors[-1] < 2e-5 * float(np.abs(exact).max())


def test_an_initial_velocity_is_the_exact_second_mittag_leffler_term():
    cfg = copy.deepcopy(LINEAR)
    cfg["truth"].update(mode="sup", alpha=1.4)
    cfg["generator"]["ic"]["velocity"] = [{"fn": "cos", "m": 1, "amp": 0.5}]
    exact = generate(cfg, 0).u
    u = generate(_pycaputo(cfg, 8), 0).u
    assert np.abs(u - exact).max() < 1e-5 * np.abs(exact).max()


def test_a_nonlinear_field_solves_its_equation_pointwise():
    """D^0.85 u = -u u_x + 0.1 u_xx: the field's Caputo derivative at the last time by the L1
    formula (another discretisation than the solver's) equals the spectral right-hand side to
    the L1 formula's error (dt^(2-alpha) ~ 2.5 % here)."""
    cfg = copy.deepcopy(LINEAR)
    cfg["truth"] = {
        "mode": "sub",
        "alpha": 0.85,
        "operator": "directional",
        "terms": [
            {"power": 1, "order": 1.0, "coef": -1.0},
            {"power": 0, "order": 2.0, "coef": 0.1},
        ],
    }
    cfg["generator"]["ic"]["offset"] = 0.5
    f = generate(_pycaputo(cfg, 8), 0)
    u, t = f.u, f.t
    dt, alpha = float(t[1] - t[0]), 0.85
    j = np.arange(u.shape[0] - 1)
    b = ((j + 1) ** (1 - alpha) - j ** (1 - alpha)) / (gamma(2 - alpha) * dt**alpha)
    n = u.shape[0] - 1
    d = (b[::-1, None] * np.diff(u, axis=0)).sum(axis=0)  # L1 Caputo derivative at t_n
    k = 2 * np.pi * np.fft.fftfreq(u.shape[1], f.x[1] - f.x[0])
    spec = np.fft.fft(u[n])
    rhs = -u[n] * np.real(np.fft.ifft(1j * k * spec)) + 0.1 * np.real(np.fft.ifft(-(k**2) * spec))
    assert np.abs(d - rhs).max() < 0.02 * np.abs(rhs).max()


def test_refusals():
    cfg = _pycaputo(LINEAR, 2)
    cfg["generator"]["ic"]["velocity"] = [{"fn": "cos", "m": 1, "amp": 0.5}]
    with pytest.raises(ValueError, match="velocity needs truth.mode 'sup'"):
        generate(cfg, 0)
    cfg = _pycaputo(LINEAR, 2)
    cfg["truth"]["operator"] = "tempered"
    with pytest.raises(ValueError, match="riesz and directional"):
        generate(cfg, 0)
