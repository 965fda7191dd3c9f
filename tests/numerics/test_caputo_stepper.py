"""The implicit-explicit product-trapezoidal stepper (numerics/caputo_stepper.py): convergence
orders on exact Mittag-Leffler modes, a nonlinear closed form at alpha = 1, a published
independent solver on a nonlinear fractional field, and batch independence."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from weakpareto.numerics.caputo_stepper import SpectralBatch, solve, trapezoid_weights
from weakpareto.numerics.mittag_leffler import mittag_leffler
from weakpareto.numerics.operators import directional_multiplier, riesz_multiplier

NX = 16
L = 2 * np.pi
KAPPA = 2 * np.pi * np.fft.rfftfreq(NX, d=L / NX)
NK = KAPPA.size


def _linear(symbol: np.ndarray) -> SpectralBatch:
    rows = symbol.shape[0]
    return SpectralBatch(
        NX, symbol.astype(complex), (), np.zeros((rows, 0, NK)), np.zeros((rows, 0))
    )


def _initial() -> tuple[np.ndarray, np.ndarray]:
    u0 = np.zeros(NK, complex)
    u0[1], u0[3] = NX / 2, 0.3j * NX
    u1 = np.zeros(NK, complex)
    u1[2] = 0.2 * NX
    return u0, u1


@pytest.mark.parametrize("alpha", [0.4, 0.8, 1.0, 1.4, 1.8])
def test_converges_at_its_order_to_exact_mittag_leffler_modes(alpha):
    """u_k(T) = E_alpha(l_k T^alpha) u_k(0) + T E_{alpha,2}(l_k T^alpha) u_k'(0) for the Riesz
    symbol l = -0.5 |k|^1.5 plus a directional drift (complex l): the error falls by
    2^min(1 + alpha, 2) per halving of the step."""
    lam = 0.5 * riesz_multiplier(KAPPA, 1.5) - 0.3 * directional_multiplier(KAPPA, 1.0)
    u0, u1 = _initial()
    velocity = u1 if alpha > 1 else None
    T = 2.0
    z = lam * T**alpha
    exact = mittag_leffler(z, alpha, 1.0) * u0
    if alpha > 1:
        exact = exact + T * mittag_leffler(z, alpha, 2.0) * u1
    errors = []
    for n in (50, 100, 200, 400):
        u = solve(_linear(lam[None]), np.array([alpha]), u0[None],
                  None if velocity is None else velocity[None], T / n, n)[0, -1]  # fmt: skip
        errors.append(np.abs(u - exact).max() / NX)
    rates = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    order = min(1.0 + alpha, 2.0)
    assert np.all(rates > order - 0.1), rates
    assert errors[-1] < 1e-5  # 4e-6 at alpha = 0.4 (order 1.4), 1e-6 above


def test_trapezoid_weights_at_alpha_one_are_the_trapezoidal_rule():
    a0, c = trapezoid_weights(np.array([1.0]), 6)
    assert np.allclose(a0[0, 1:], 1.0) and np.allclose(c[0, 1:], 2.0)


def test_nonlinear_closed_form_at_alpha_one():
    """u_t = -u^3 pointwise (the identity term u^2 X_0 u): u = u0 / sqrt(1 + 2 u0^2 t); the
    nonlinear part is explicit-corrected, and the error still falls at order 2."""
    x = L * np.arange(NX) / NX
    u0 = 1.0 + 0.5 * np.sin(x)
    T = 1.5
    exact = u0 / np.sqrt(1.0 + 2.0 * u0**2 * T)
    batch = SpectralBatch(NX, np.zeros((1, NK), complex), (2,), np.ones((1, 1, NK), complex),
                          np.array([[-1.0]]))  # fmt: skip
    errors = []
    for n in (25, 50, 100, 200):
        spectrum = solve(batch, np.array([1.0]), np.fft.rfft(u0)[None], None, T / n, n)[0, -1]
        errors.append(np.abs(np.fft.irfft(spectrum, n=NX) - exact).max())
    rates = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert np.all(rates > 1.9), rates
    assert errors[-1] < 3e-5  # 1.1e-5 measured at 200 steps (trapezoidal rule)


def test_batch_members_are_solved_independently():
    """Each member of a batch (its own alpha, symbol, nonlinear coefficient and initial data)
    gives what it gives alone."""
    u0, u1 = _initial()
    alphas = np.array([1.3, 1.6, 1.45])
    lin = np.stack(
        [c * riesz_multiplier(KAPPA, b) for c, b in ((0.4, 1.5), (0.2, 2.0), (0.3, 1.2))]
    )
    sym = np.stack([riesz_multiplier(KAPPA, 0.0)[None]] * 3).astype(complex)
    coef = np.array([[-0.3], [0.1], [-0.2]])
    starts = np.stack([u0 * 0.1, u0 * 0.05, u0 * 0.08])
    speeds = np.stack([u1 * 0.1, 0 * u1, u1 * 0.02])
    together = solve(SpectralBatch(NX, lin.astype(complex), (2,), sym, coef), alphas, starts,
                     speeds, 0.02, 60, every=3)  # fmt: skip
    for r in range(3):
        alone = solve(SpectralBatch(NX, lin[r : r + 1].astype(complex), (2,), sym[r : r + 1],
                                    coef[r : r + 1]), alphas[r : r + 1], starts[r : r + 1],
                      speeds[r : r + 1], 0.02, 60, every=3)  # fmt: skip
        assert np.allclose(together[r], alone[0], rtol=0, atol=1e-12 * np.abs(alone).max())


def test_agrees_with_an_independent_solver_on_a_nonlinear_fractional_field():
    """D^0.85 u = -u D_x u + 0.1 u_xx (a fractional Burgers field by pycaputo's PECE, method of
    lines, 16 steps per frame): the stepper at 8 steps per frame agrees to 1e-5 of the field,
    and halving its step moves it towards the other solver's field."""
    pytest.importorskip("pycaputo")  # the [independent] extra, installed by make test
    from weakpareto.benchmarks.generators import generate

    cfg = {
        "name": "burgers",
        "generator": {"kind": "pycaputo", "substeps": 16, "ic": {"offset": 0.5, "harmonics": [
            {"fn": "sin", "m": 1, "amp": 0.3, "phase": 0.3}, {"fn": "cos", "m": 2, "amp": 0.2}]}},
        "grid": {"nt": 41, "nx": 32, "T": 2.0, "L": 4 * np.pi, "t_endpoint": True},
        "truth": {"mode": "sub", "alpha": 0.85, "operator": "directional",
                  "terms": [{"power": 1, "order": 1.0, "coef": -1.0},
                            {"power": 0, "order": 2.0, "coef": 0.1}]},
    }  # fmt: skip
    field = generate(copy.deepcopy(cfg), 0)
    nx = field.u.shape[1]
    kappa = 2 * np.pi * np.fft.rfftfreq(nx, d=4 * np.pi / nx)
    linear = (0.1 * directional_multiplier(kappa, 2.0))[None]
    advection = directional_multiplier(kappa, 1.0)[None, None]
    batch = SpectralBatch(nx, linear, (1,), advection, np.array([[-1.0]]))
    dt = float(field.t[1] - field.t[0])
    misfit = []
    for s in (4, 8):
        spectra = solve(batch, np.array([0.85]), np.fft.rfft(field.u[0])[None], None, dt / s,
                        (field.u.shape[0] - 1) * s, every=s)  # fmt: skip
        misfit.append(np.abs(np.fft.irfft(spectra[0], n=nx, axis=-1) - field.u).max())
    assert misfit[1] < misfit[0]
    assert misfit[1] < 1e-5 * np.abs(field.u).max()
