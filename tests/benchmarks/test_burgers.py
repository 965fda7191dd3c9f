"""Tests for weakpareto.benchmarks.burgers: the fractional Burgers solver
(docs/method/benchmarks.md#fractional-burgers)."""

from __future__ import annotations

import numpy as np
from omegaconf import OmegaConf
from scipy.integrate import solve_ivp

from weakpareto.benchmarks.burgers import _burgers_setup, burgers_rhs
from weakpareto.benchmarks.catalogue import Field, load_benchmark
from weakpareto.benchmarks.generators import generate

TWO_PI = 2.0 * np.pi


def cfg_dict(name: str) -> dict:
    out = OmegaConf.to_container(load_benchmark(name))
    assert isinstance(out, dict)
    return out


def rel_l2(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


# ---------------------------------------------------------------------------------------
# Burgers
# ---------------------------------------------------------------------------------------


def test_burgers_ic_and_rhs() -> None:
    s = _burgers_setup(cfg_dict("burgers"))
    x = s["x_fine"]
    u0 = 0.5 * (
        np.sin(TWO_PI * x / 30)
        + 0.5 * np.cos(2 * TWO_PI * x / 30)
        + 0.35 * np.sin(3 * TWO_PI * x / 30 + 0.5)
    )
    np.testing.assert_allclose(np.fft.ifft(s["u0_hat"]).real, u0, atol=1e-14)
    assert s["mask"].sum() == 321 and s["every"] == 20 and s["stride"] == 4
    # rhs against a direct evaluation: -u u_x + 0.25 D^1.7 u on a band-limited u
    k = s["kappa"]
    rhs = burgers_rhs(s["u0_hat"], k, 0.25, 1.7, np.ones(k.size, dtype=bool))
    ux = np.fft.ifft(1j * k * s["u0_hat"]).real
    frac = np.fft.ifft(0.25 * (1j * k) ** 1.7 * s["u0_hat"]).real
    np.testing.assert_allclose(np.fft.ifft(rhs).real, -u0 * ux + frac, atol=1e-12)


def test_burgers_time_step_convergence(fields: dict[str, Field]) -> None:
    cfg = cfg_dict("burgers")
    cfg["generator"]["dt_fine"] = 0.002
    fine = generate(cfg).u
    err = rel_l2(fields["burgers"].u, fine)
    assert err < 1e-6  # measured 2.7e-14


def test_burgers_against_solve_ivp(fields: dict[str, Field]) -> None:
    # Integrates the same semi-discretisation (burgers_rhs) with an independent adaptive
    # integrator; all 150 output times are compared (takes ~0.5 s).
    s = _burgers_setup(cfg_dict("burgers"))
    sol = solve_ivp(
        lambda _t, y: burgers_rhs(y, s["kappa"], s["nu"], s["beta"], s["mask"]),
        (0.0, float(s["t"][-1])),
        s["u0_hat"],
        method="DOP853",
        rtol=1e-11,
        atol=1e-11,
        t_eval=s["t"],
    )
    assert sol.success
    ref = np.fft.ifft(sol.y.T, axis=1).real[:, ::4]
    err = rel_l2(fields["burgers"].u, ref)
    assert err < 1e-6  # measured 1.1e-10
