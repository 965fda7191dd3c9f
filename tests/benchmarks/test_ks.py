"""Tests for weakpareto.benchmarks.ks: ETDRK4 and the Kuramoto–Sivashinsky benchmark (ours,
beyond the paper).

References are independent of the module: closed-form phi-function limits, an adaptive DOP853
solve of a separately written right-hand side, and the PDE written out with numpy FFTs.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from omegaconf import OmegaConf
from scipy.integrate import solve_ivp

from weakpareto.benchmarks.catalogue import Field, load_benchmark
from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.ks import etdrk4_coefficients, etdrk4_step, spectral_pde

L_KS = 32.0 * np.pi


def cfg_dict(name: str) -> dict:
    out = OmegaConf.to_container(load_benchmark(name))
    assert isinstance(out, dict)
    return out


def d_dx(u: np.ndarray, length: float, order: int) -> np.ndarray:
    """Spectral x-derivative on the full (non-dealiased) grid, last axis."""
    k = 2.0 * np.pi * np.fft.fftfreq(u.shape[-1], d=length / u.shape[-1])
    return np.real(np.fft.ifft((1j * k) ** order * np.fft.fft(u, axis=-1), axis=-1))


def d_dt(u: np.ndarray, dt: float) -> tuple[np.ndarray, int]:
    """Eighth-order centred time derivative on the interior rows (and the trim per side)."""
    w = (4 / 5, -1 / 5, 4 / 105, -1 / 280)
    m, n = len(w), u.shape[0]
    out = sum(c * (u[m + j : n - m + j] - u[m - j : n - m - j]) for j, c in enumerate(w, 1))
    return np.asarray(out) / dt, m


def ks_residual(f: Field, c2: float = -1.0) -> float:
    """``||u_t - (-u u_x + c2 u_xx - u_xxxx)|| / ||u_t||`` on the interior rows."""
    ut, m = d_dt(f.u, f.dt)
    u = f.u[m:-m]
    rhs = -u * d_dx(u, L_KS, 1) + c2 * d_dx(u, L_KS, 2) - d_dx(u, L_KS, 4)
    return float(np.linalg.norm(ut - rhs) / np.linalg.norm(ut))


# ---------------------------------------------------------------------------------------
# ETDRK4
# ---------------------------------------------------------------------------------------


def phi(k: int, z: np.ndarray) -> np.ndarray:
    """``phi_k(z) = sum_j z^j / (j + k)!`` by its Taylor series (for ``|z| <= 1``)."""
    return np.asarray(sum(z**j / math.factorial(j + k) for j in range(40)))


def test_etdrk4_coefficients_small_and_large_arguments() -> None:
    h = 0.3
    # small |z|: the direct formulas cancel catastrophically; compare with Taylor series of
    # Q = h phi_1(z/2)/2, f1 = h (phi_1 - 3 phi_2 + 4 phi_3), f2 = h (phi_2 - 2 phi_3),
    # f3 = h (-phi_2 + 4 phi_3)
    z = np.array([0.0, 1e-9, -1e-9j, 1e-3, -0.5, 0.7j, -0.6 + 0.6j])
    c = etdrk4_coefficients(z / h, h)
    np.testing.assert_allclose(c.q, h * phi(1, z / 2) / 2, rtol=1e-14)
    np.testing.assert_allclose(c.f1, h * (phi(1, z) - 3 * phi(2, z) + 4 * phi(3, z)), rtol=1e-13)
    np.testing.assert_allclose(c.f2, h * (phi(2, z) - 2 * phi(3, z)), rtol=1e-13)
    np.testing.assert_allclose(c.f3, h * (-phi(2, z) + 4 * phi(3, z)), rtol=1e-13)
    assert abs(c.f1[0] - h / 6) < 1e-15 and abs(c.q[0] - h / 2) < 1e-15
    # away from 0 the direct formulas are accurate: real (KS), imaginary (KdV), complex
    lam = np.array([-1000.0, -20.0, 3.0, 40j, -60j, -5.0 + 7.0j]) / h
    c = etdrk4_coefficients(lam, h)
    z = h * lam
    np.testing.assert_allclose(c.e, np.exp(z), rtol=1e-15)
    np.testing.assert_allclose(c.q, h * (np.exp(z / 2) - 1) / z, rtol=1e-12)
    ez = np.exp(z)
    np.testing.assert_allclose(
        c.f1, h * (-4 - z + ez * (4 - 3 * z + z**2)) / z**3, rtol=1e-11, atol=1e-16
    )
    np.testing.assert_allclose(c.f2, h * (2 + z + ez * (z - 2)) / z**3, rtol=1e-11, atol=1e-16)
    np.testing.assert_allclose(
        c.f3, h * (-4 - 3 * z - z**2 + ez * (4 - z)) / z**3, rtol=1e-11, atol=1e-16
    )


def test_etdrk4_exact_for_constant_forcing() -> None:
    # v' = lam v + g (g constant) has v(h) = e^{h lam} v0 + (e^{h lam} - 1)/lam g; ETDRK4 is
    # exact for it (f1 + 4 f2 + f3 = h phi_1), including lam -> 0 and stiff lam.
    lam = np.array([0.0, 1e-12, -0.7, -3e4, 250j, -2.0 + 1.0j])
    v0 = np.array([1.0, -2.0, 0.5, 3.0, 1.0j, 2.0 - 1.0j])
    g = np.array([0.3, 1.0, -1.0, 2.0, 0.5, 1.0j])
    h = 0.25
    c = etdrk4_coefficients(lam, h)
    got = etdrk4_step(v0, c, lambda _v: g)
    nz = np.where(lam == 0, 1.0, lam)
    phi1 = np.where(lam == 0, h, np.expm1(h * lam) / nz)  # (e^{h lam} - 1)/lam, no cancellation
    np.testing.assert_allclose(got, np.exp(h * lam) * v0 + phi1 * g, rtol=1e-13, atol=1e-15)


def test_etdrk4_fourth_order_on_ks() -> None:
    # same semi-discretisation (128 points, 2/3 rule, Nyquist off) written independently and
    # solved with adaptive DOP853; KS from the classic initial condition over t in [0, 4]
    n, T = 128, 4.0
    x = np.arange(n) * L_KS / n
    k = 2 * np.pi * np.fft.rfftfreq(n, d=L_KS / n)
    mask = (k <= (2 / 3) * k.max()).astype(float)
    mask[-1] = 0.0

    def rhs(_t: float, v: np.ndarray) -> np.ndarray:
        u = np.fft.irfft(v, n=n)
        return (k**2 - k**4) * v - 0.5j * k * mask * np.fft.rfft(u * u)

    v0 = np.fft.rfft(np.cos(x / 16) * (1 + np.sin(x / 16)))
    sol = solve_ivp(rhs, (0.0, T), v0, method="DOP853", rtol=1e-13, atol=1e-13)
    assert sol.success
    ref = np.fft.irfft(sol.y[:, -1], n=n)
    errs = []
    for h in (0.5, 0.25, 0.125, 0.0625):
        cfg = cfg_dict("ks")
        cfg["generator"].update({"nx_fine": n, "dt_fine": h, "t_spinup": 0.0})
        cfg["grid"].update({"nx": n, "nt": 2, "T": 2 * T})
        errs.append(np.abs(generate(cfg).u[1] - ref).max() / np.abs(ref).max())
    ratios = np.array(errs[:-1]) / np.array(errs[1:])
    # measured errors 4.7e-6, 3.5e-7, 2.6e-8, 1.8e-9: ratios 13.7, 13.4, 14.7 (16 = order 4)
    assert np.all((ratios > 12.0) & (ratios < 20.0)), (errs, ratios)
    assert np.log2(ratios[-1]) > 3.7
    assert errs[-1] < 5e-9


# ---------------------------------------------------------------------------------------
# the KS benchmark
# ---------------------------------------------------------------------------------------


def test_truth_symbol_signs() -> None:
    # -u_xx - u_xxxx: (i k)^2 = -k^2 and (i k)^4 = k^4, so the linear symbol is k^2 - k^4
    pde = spectral_pde(cfg_dict("ks"), 64, L_KS, 2 / 3)
    k = 2 * np.pi * np.fft.rfftfreq(64, d=L_KS / 64)
    np.testing.assert_array_equal(pde.lin, k**2 - k**4)
    assert pde.fluxes == ((1, -1.0),)
    assert pde.mask.sum() == 22 and pde.mask[-1] == 0.0  # |k| <= (2/3) k_max: 22 of 33 modes


def test_ks_field_grid_and_meta(fields: dict[str, Field]) -> None:
    f = fields["ks"]
    assert f.u.shape == (300, 256)
    np.testing.assert_allclose(f.t, 0.5 * np.arange(300), atol=1e-12)
    np.testing.assert_allclose(f.x, L_KS / 256 * np.arange(256), atol=1e-12)
    m = f.meta
    assert (m["kind"], m["seed_dependent"], m["nx_fine"], m["steps_per_output"]) == (
        "ks",
        False,
        512,
        16,
    )
    assert m["spinup_steps"] == 1600  # 50 time units at dt 1/32
    assert m["tail"] < 1e-11  # spectrum at the dealiasing cut (measured 3.6e-13)
    # chaotic attractor amplitude, not blown up or decayed (measured max |u| 3.3)
    assert 2.0 < np.abs(f.u).max() < 4.0
    assert np.std(f.u[-50:]) > 0.8


def test_ks_mean_conserved(fields: dict[str, Field]) -> None:
    mean = fields["ks"].u.mean(axis=1)
    np.testing.assert_allclose(mean, 0.0, atol=1e-13)  # IC mean is zero, conserved exactly
    assert fields["ks"].meta["mean_drift"] < 1e-13


def test_ks_pde_residual_fine_output(fields: dict[str, Field]) -> None:
    # the same trajectory stored at every step (dt 1/32) over the first 8 time units
    cfg = cfg_dict("ks")
    cfg["grid"].update({"nt": 256, "T": 8.0})
    f = generate(cfg)
    np.testing.assert_array_equal(f.u[::16], fields["ks"].u[:16])  # same trajectory
    res = ks_residual(f)
    assert res < 2e-4  # measured 6.8e-5 (time-step defect of the stiff modes, ~h^3)
    # the residual is sensitive to the coefficients: -0.99 u_xx instead of -u_xx (2.8e-2)
    assert ks_residual(f, c2=-0.99) > 100 * res


def test_ks_data_grid_residual(fields: dict[str, Field]) -> None:
    # on the stored grid (dt 0.5) the 8th-order time difference dominates; measured 5.3e-4
    assert ks_residual(fields["ks"]) < 1e-3


def test_ks_initial_condition_and_seed() -> None:
    cfg = cfg_dict("ks")
    cfg["generator"].update({"t_spinup": 0.0, "dt_fine": 0.125})
    cfg["grid"].update({"nt": 2, "T": 0.5})
    f = generate(cfg, seed=0)
    np.testing.assert_allclose(f.u[0], np.cos(f.x / 16) * (1 + np.sin(f.x / 16)), atol=1e-14)
    np.testing.assert_array_equal(generate(cfg, seed=7).u, f.u)  # deterministic


def test_ks_is_chaotic() -> None:
    # a 1e-9 perturbation of the initial condition grows exponentially through the window
    cfg = cfg_dict("ks")
    cfg["generator"].update({"dt_fine": 0.125, "nx_fine": 256})
    cfg["grid"]["nx"] = 128
    a = generate(cfg).u
    cfg["generator"]["ic"]["harmonics"].append({"fn": "sin", "m": 3, "amp": 1e-9})
    b = generate(cfg).u
    d = np.linalg.norm(a - b, axis=1) / np.linalg.norm(a, axis=1)
    t = 0.5 * np.arange(d.size)
    assert d[-1] / d[0] > 1e4
    grow = (d > 10 * d[0]) & (d < 1e-2)
    rate = np.polyfit(t[grow], np.log(d[grow]), 1)[0]
    assert 0.05 < rate < 0.3  # measured 0.13 (largest Lyapunov exponent for L = 32 pi)


@pytest.mark.parametrize(
    ("path", "value", "match"),
    [
        ("generator.nx_fine", 300, "multiple of grid.nx"),
        ("generator.dt_fine", 0.3, "integer multiple"),
        ("generator.t_spinup", 0.1, "t_spinup"),
        ("generator.dealias", 1.5, "dealias"),
        ("truth.mode", "sub", "truth.mode 'int'"),
        ("truth.operator", "riesz", "directional"),
    ],
)
def test_ks_config_errors(path: str, value: object, match: str) -> None:
    cfg = cfg_dict("ks")
    block, key = path.split(".")
    cfg[block][key] = value
    if path == "truth.mode":
        cfg["truth"]["alpha"] = 0.9
    with pytest.raises(ValueError, match=match):
        generate(cfg)


def test_ks_unsupported_term() -> None:
    cfg = cfg_dict("ks")
    cfg["truth"]["terms"].append({"power": 1, "order": 2.0, "coef": 0.1})
    with pytest.raises(ValueError, match="u\\^p u_x"):
        generate(cfg)
