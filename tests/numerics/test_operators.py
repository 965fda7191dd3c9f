"""Tests for weakpareto.numerics.operators: discrete adjoints (paper Eq. 12), accuracy (App. B).

The truths used here are independent of the implementation: analytic derivatives of
``sin(3x)`` and ``t**3``, explicit-loop stencils, numpy.fft (the module uses scipy.fft), and
``scipy.special.binom`` for the Grünwald-Letnikov weights.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import binom, gamma

from weakpareto.numerics import operators as op

RNG_SEED = 20240611


def _smooth_periodic(rng: np.random.Generator, x: np.ndarray, length: float, nyquist: bool):
    """Random trigonometric polynomial (low modes), plus a Nyquist component for even n."""
    f = rng.normal()
    for m in range(1, 6):
        a, b = rng.normal(size=2) / m
        f = f + a * np.cos(2 * np.pi * m * x / length) + b * np.sin(2 * np.pi * m * x / length)
    if nyquist:
        f = f + rng.normal() * np.cos(np.pi * np.arange(x.size))
    return f


def _smooth_nonperiodic(rng: np.random.Generator, t: np.ndarray):
    c = rng.normal(size=4)
    return c[0] + c[1] * t + c[2] * np.exp(-t) + c[3] * np.cos(2.3 * t + 0.4)


def _rel_gap(lhs: float, rhs: float) -> float:
    assert abs(lhs) > 1e-6  # the identity is not checked on a vanishing pairing
    return abs(lhs - rhs) / abs(lhs)


# --------------------------------------------------------------------------------------------
# Adjoint identity <A f, phi>_h = <f, A* phi>_h
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "family,param",
    [
        ("D1", None),
        ("L1", 0.2),
        ("L1", 0.55),
        ("L1", 0.95),
        ("sup", 1.3),
        ("sup", 1.8),
        ("glL", 0.6),
        ("glL", 1.7),
        ("glR", 1.4),
    ],
)
def test_matrix_adjoint_identity(family: str, param: float | None) -> None:
    rng = np.random.default_rng(RNG_SEED)
    n, h = 77, 0.013
    t = h * np.arange(n)
    dx = 0.37  # the other factor of <.,.>_h = dt*dx*sum
    if family == "D1":
        a = op.first_derivative_matrix(n, h)
    elif family == "L1":
        a = op.caputo_l1_matrix(n, h, param)
    elif family == "sup":
        a = op.caputo_superunit_matrix(n, h, param)
    elif family == "glL":
        a = op.grunwald_letnikov_left_matrix(n, h, param)
    else:
        a = op.grunwald_letnikov_right_matrix(n, h, param)
    adj = op.discrete_adjoint(a)
    for _ in range(3):
        f, phi = _smooth_nonperiodic(rng, t), _smooth_nonperiodic(rng, t)
        lhs = h * dx * np.sum((a @ f) * phi)
        rhs = h * dx * np.sum(f * (adj @ phi))
        assert _rel_gap(lhs, rhs) <= 1e-12
    # the adjoint is not the operator itself (these families are not symmetric)
    assert np.max(np.abs(adj - a)) > 1e-3 * np.max(np.abs(a))


def test_discrete_adjoint_nonuniform_weights() -> None:
    rng = np.random.default_rng(RNG_SEED + 1)
    n = 41
    a = op.caputo_l1_matrix(n, 0.05, 0.6) + 0.3 * op.grunwald_letnikov_left_matrix(n, 0.05, 1.3)
    w = rng.uniform(0.2, 3.0, size=n)  # positive non-uniform quadrature weights
    adj = op.discrete_adjoint(a, w)
    # reference: W^{-1} A^T W built with dense diagonal matrices
    ref = np.linalg.solve(np.diag(w), a.T @ np.diag(w))
    np.testing.assert_allclose(adj, ref, rtol=1e-13, atol=1e-13 * np.abs(ref).max())
    for _ in range(3):
        f, phi = rng.normal(size=n).cumsum(), rng.normal(size=n).cumsum()
        lhs = np.sum(w * (a @ f) * phi)
        rhs = np.sum(w * f * (adj @ phi))
        assert _rel_gap(lhs, rhs) <= 1e-12
        # the plain transpose is NOT the adjoint for non-uniform weights
        assert abs(lhs - np.sum(w * f * (a.T @ phi))) > 1e-6 * abs(lhs)
    # uniform weights reduce to the transpose; stacks are transposed per matrix
    np.testing.assert_allclose(op.discrete_adjoint(a, np.full(n, 0.7)), a.T, rtol=1e-14)
    stack = np.stack([a, 2 * a])
    np.testing.assert_array_equal(op.discrete_adjoint(stack), np.stack([a.T, 2 * a.T]))


@pytest.mark.parametrize("kind", ["riesz", "directional"])
@pytest.mark.parametrize("n", [63, 64])
@pytest.mark.parametrize("beta", [0.55, 1.0, 1.7, 2.8])
def test_spectral_adjoint_identity(kind: str, n: int, beta: float) -> None:
    rng = np.random.default_rng(RNG_SEED + n)
    length = 7.3
    x = np.linspace(0.0, length, n, endpoint=False)
    dx, dt = length / n, 0.21
    kappa = 2 * np.pi * np.fft.fftfreq(n, d=dx)
    s = op.spectral_multiplier(kind, kappa, beta)
    # independent forward operator: numpy.fft (the module uses scipy.fft)
    fwd = lambda g: np.fft.ifft(s * np.fft.fft(g)).real  # noqa: E731
    for _ in range(3):
        f = _smooth_periodic(rng, x, length, nyquist=(n % 2 == 0))
        phi = _smooth_periodic(rng, x, length, nyquist=(n % 2 == 0))
        ref = fwd(f)
        np.testing.assert_allclose(op.apply_multiplier(f, s), ref, atol=1e-13 * np.abs(ref).max())
        adj_phi = op.spatial_adjoint_apply(kind, phi, x, beta)
        adj_ref = op.apply_multiplier_adjoint(phi, s)
        np.testing.assert_allclose(adj_phi, adj_ref, atol=1e-13 * np.abs(adj_ref).max())
        lhs = dt * dx * np.sum(fwd(f) * phi)
        rhs = dt * dx * np.sum(f * adj_phi)
        assert _rel_gap(lhs, rhs) <= 1e-12
    if kind == "directional" and beta != 2.0:
        # the non-conjugated multiplier is not the adjoint of the directional operator
        # (checked on low modes; the Nyquist bin alone cannot tell the two apart)
        f = _smooth_periodic(rng, x, length, nyquist=False)
        phi = _smooth_periodic(rng, x, length, nyquist=False)
        lhs = dt * dx * np.sum(fwd(f) * phi)
        wrong = dt * dx * np.sum(f * op.apply_multiplier(phi, s))
        assert abs(wrong - lhs) > 1e-3 * abs(lhs)


def test_directional_nyquist_bin_effective_action() -> None:
    """Even n: the single Nyquist bin acts as cos(pi beta/2)|kappa|^beta after Re
    (docs/method/operators.md#periodic-multipliers)."""
    n, length, beta = 32, 2 * np.pi, 1.7
    x = np.linspace(0.0, length, n, endpoint=False)
    alt = np.cos(np.pi * np.arange(n))  # pure Nyquist mode
    out = op.spatial_apply("directional", alt, x, beta)
    expected = np.cos(np.pi * beta / 2) * (n / 2) ** beta * alt
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-12 * (n / 2) ** beta)
    adj = op.spatial_adjoint_apply("directional", alt, x, beta)
    np.testing.assert_allclose(adj, expected, rtol=1e-12, atol=1e-12 * (n / 2) ** beta)


@pytest.mark.parametrize("kind", ["gl_left", "gl_right"])
def test_gl_registry_adjoint_identity(kind: str) -> None:
    rng = np.random.default_rng(RNG_SEED + 7)
    n, dx, beta = 50, 0.1, 1.35
    x = dx * np.arange(n)
    g = (-1.0) ** np.arange(n) * binom(beta, np.arange(n)) * dx**-beta
    f = _smooth_nonperiodic(rng, x)
    phi_rows = np.stack([_smooth_nonperiodic(rng, x) for _ in range(4)])
    # independent forward: explicit convolution sums
    if kind == "gl_left":
        af = np.array([np.sum(g[: i + 1][::-1] * f[: i + 1]) for i in range(n)])
    else:
        af = np.array([np.sum(g[: n - i] * f[i:]) for i in range(n)])
    np.testing.assert_allclose(op.spatial_apply(kind, f, x, beta), af, rtol=1e-11, atol=1e-9)
    adj = op.spatial_adjoint_apply(kind, phi_rows, x, beta)
    assert adj.shape == (4, n)
    for k in range(4):
        lhs = dx * np.sum(af * phi_rows[k])
        rhs = dx * np.sum(f * adj[k])
        assert _rel_gap(lhs, rhs) <= 1e-12


@pytest.mark.parametrize("kind", ["riesz", "directional", "gl_left", "gl_right"])
def test_spatial_bank_and_beta_zero_identity(kind: str) -> None:
    rng = np.random.default_rng(RNG_SEED + 3)
    n, length = 48, 20.0
    grid = op.SpatialGrid.from_length(n, length)
    x = np.linspace(0.0, length, n, endpoint=False)
    phi_rows = rng.normal(size=(5, n))
    betas = np.array([0.0, 0.5, 1.0, 1.7])
    bank = op.spatial_adjoint_bank(kind, phi_rows, grid, betas)
    assert bank.shape == (4, 5, n)
    for g, b in enumerate(betas):
        single = op.spatial_adjoint_apply(kind, phi_rows, x, float(b))
        np.testing.assert_allclose(bank[g], single, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(bank[0], phi_rows, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(op.spatial_apply(kind, phi_rows, grid, 0.0), phi_rows, atol=1e-13)
    assert np.max(np.abs(bank[2] - phi_rows)) > 0.1  # beta=1 is not the identity


def test_registry_contents_and_errors() -> None:
    assert {"riesz", "directional", "gl_left", "gl_right"} <= set(op.SPATIAL_OPERATORS)
    with pytest.raises(ValueError, match="unknown spatial operator"):
        op.spatial_adjoint_apply("nope", np.ones((1, 8)), np.arange(8.0), 1.0)
    with pytest.raises(ValueError):
        op.spectral_multiplier("nope", np.zeros(4), 1.0)  # type: ignore[arg-type]


def test_apply_multiplier_axis_and_broadcast() -> None:
    rng = np.random.default_rng(RNG_SEED + 5)
    nt, nx, length = 6, 40, 2 * np.pi
    u = rng.normal(size=(nx, nt))  # space on axis 0
    s = op.directional_multiplier(op.wavenumbers(nx, length), 1.3)
    out = op.apply_multiplier(u, s, axis=0)
    ref = np.fft.ifft(s[:, None] * np.fft.fft(u, axis=0), axis=0).real
    np.testing.assert_allclose(out, ref, atol=1e-12)
    bank = op.directional_multiplier(op.wavenumbers(nx, length), np.array([0.5, 1.0, 1.5]))
    out3 = op.apply_multiplier_adjoint(u.T, bank[:, None, :])
    assert out3.shape == (3, nt, nx)
    np.testing.assert_allclose(out3[1], op.apply_multiplier_adjoint(u.T, bank[1]), atol=1e-13)


# --------------------------------------------------------------------------------------------
# Continuum accuracy (paper App. B)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [32, 64, 128, 256])
def test_riesz_and_directional_on_sin3x(n: int) -> None:
    x = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
    u = np.sin(3 * x)
    r = op.spatial_apply("riesz", u, x, 1.7)
    exact = -(3.0**1.7) * u
    rel = np.linalg.norm(r - exact) / np.linalg.norm(exact)
    print(f"Riesz beta=1.7 sin(3x) n={n}: rel err {rel:.2e}")
    assert rel < 1e-12
    d = op.spatial_apply("directional", u, x, 1.0)
    np.testing.assert_allclose(d, 3 * np.cos(3 * x), atol=1e-12)
    # directional order 1.7: |k|^b (cos(pi b/2) sin + sin(pi b/2) cos)
    d17 = op.spatial_apply("directional", u, x, 1.7)
    ex17 = 3.0**1.7 * (np.cos(0.85 * np.pi) * u + np.sin(0.85 * np.pi) * np.cos(3 * x))
    np.testing.assert_allclose(d17, ex17, atol=1e-11)


def _rates(errs: list[float]) -> np.ndarray:
    e = np.asarray(errs)
    return np.log(e[:-1] / e[1:]) / np.log(2.0)  # n-1 doubles each step


GRIDS = [65, 129, 257, 513]


def test_caputo_l1_convergence_on_t3() -> None:
    alpha = 0.7
    errs = []
    for n in GRIDS:
        t = np.linspace(0.0, 1.0, n)
        exact = gamma(4.0) * t ** (3 - alpha) / gamma(4 - alpha)
        num = op.caputo_l1_matrix(n, t[1] - t[0], alpha) @ t**3
        errs.append(np.linalg.norm((num - exact)[1:]) / np.linalg.norm(exact[1:]))
    rates = _rates(errs)
    print("L1 alpha=0.7 errors", [f"{e:.3e}" for e in errs], "rates", np.round(rates, 4))
    assert errs[0] == pytest.approx(5.2e-3, rel=0.02)
    assert errs[-1] == pytest.approx(3.6e-4, rel=0.02)
    assert np.all(np.abs(rates - 1.3) < 0.05)


def test_caputo_superunit_convergence_on_t3() -> None:
    alpha = 1.3
    errs = []
    for n in GRIDS:
        t = np.linspace(0.0, 1.0, n)
        exact = gamma(4.0) * t ** (3 - alpha) / gamma(4 - alpha)
        num = op.caputo_matrix(n, t[1] - t[0], alpha) @ t**3
        errs.append(np.linalg.norm((num - exact)[2:]) / np.linalg.norm(exact[2:]))
    rates = _rates(errs)
    print("superunit alpha=1.3 errors", [f"{e:.3e}" for e in errs], "rates", np.round(rates, 4))
    assert errs[0] == pytest.approx(1.20e-2, rel=0.01)
    assert errs[-1] == pytest.approx(9.99e-4, rel=0.01)
    assert np.all((rates >= 1.19) & (rates <= 1.21))


def test_gl_left_first_order_on_t2() -> None:
    """Left GL of t^2 (vanishing at 0 with its derivative) -> Gamma(3) t^(2-g)/Gamma(3-g), O(h)."""
    g = 0.6
    errs = []
    for n in GRIDS:
        t = np.linspace(0.0, 1.0, n)
        num = op.grunwald_letnikov_left_matrix(n, t[1], g) @ t**2
        exact = 2.0 * t ** (2 - g) / gamma(3 - g)
        errs.append(np.max(np.abs(num - exact)))
    rates = _rates(errs)
    assert np.all(np.abs(rates - 1.0) < 0.1)


# --------------------------------------------------------------------------------------------
# Structural properties
# --------------------------------------------------------------------------------------------


def test_l1_matches_loop_formula_and_annihilates_constants() -> None:
    n, h = 23, 0.07
    for alpha in (0.15, 0.5, 0.8):
        c = h**-alpha / gamma(2 - alpha)
        w = lambda k, a=alpha: (k + 1) ** (1 - a) - k ** (1 - a)  # noqa: E731
        ref = np.zeros((n, n))
        for i in range(1, n):
            ref[i, i] = c * w(0)
            ref[i, 0] = -c * w(i - 1)
            for m in range(1, i):
                ref[i, m] = c * (w(i - m) - w(i - m - 1))
        mat = op.caputo_l1_matrix(n, h, alpha)
        np.testing.assert_allclose(mat, ref, rtol=1e-13, atol=1e-13 * c)
        np.testing.assert_allclose(mat @ np.full(n, 3.7), 0.0, atol=1e-10)
        assert np.all(mat[0] == 0.0)


def test_d1_stencils_exact_on_linear() -> None:
    n, h = 9, 0.25
    d = op.first_derivative_matrix(n, h)
    t = 1.5 + h * np.arange(n)
    np.testing.assert_allclose(d @ (2.0 - 3.0 * t), -3.0, rtol=1e-13)
    q = t**2
    assert d[0] @ q == pytest.approx((q[1] - q[0]) / h)
    assert d[4] @ q == pytest.approx((q[5] - q[3]) / (2 * h))
    assert d[-1] @ q == pytest.approx((q[-1] - q[-2]) / h)


def test_caputo_matrix_dispatch_and_modes() -> None:
    n, h = 30, 0.1
    np.testing.assert_array_equal(op.caputo_matrix(n, h, 1.0), op.first_derivative_matrix(n, h))
    np.testing.assert_array_equal(
        op.caputo_matrix(n, h, 1.0, mode="int"), op.first_derivative_matrix(n, h)
    )
    np.testing.assert_array_equal(op.caputo_matrix(n, h, 0.4), op.caputo_l1_matrix(n, h, 0.4))
    np.testing.assert_allclose(
        op.caputo_matrix(n, h, 1.6, mode="sup"),
        op.caputo_l1_matrix(n, h, 0.6) @ op.first_derivative_matrix(n, h),
    )
    assert op.temporal_mode(0.999) == "sub"
    assert op.temporal_mode(1.0 + 1e-12) == "int"
    assert op.temporal_mode(1.001) == "sup"
    for bad in (0.0, -0.5, 2.0, 2.5):
        with pytest.raises(ValueError):
            op.temporal_mode(bad)
    with pytest.raises(ValueError, match="inconsistent"):
        op.caputo_matrix(n, h, 0.8, mode="sup")
    with pytest.raises(ValueError, match="inconsistent"):
        op.caputo_matrix(n, h, 0.999, mode="int")
    with pytest.raises(ValueError, match="inconsistent"):
        op.caputo_matrices(n, h, [0.5, 1.2], mode="sub")


@pytest.mark.parametrize(
    "mode,alphas",
    [("sub", [0.1, 0.45, 0.8, 0.999]), ("sup", [1.001, 1.3, 1.85]), ("int", [1.0, 1.0])],
)
def test_caputo_matrices_bank_equals_single_calls(mode: str, alphas: list[float]) -> None:
    n, h = 40, 0.05
    bank = op.caputo_matrices(n, h, np.array(alphas), mode)  # type: ignore[arg-type]
    assert bank.shape == (len(alphas), n, n)
    for g, a in enumerate(alphas):
        np.testing.assert_allclose(bank[g], op.caputo_matrix(n, h, a, mode=mode), rtol=1e-13)


def test_gl_weights_and_order_one_backward_difference() -> None:
    np.testing.assert_allclose(op.grunwald_letnikov_weights(6, 2.0), [1, -2, 1, 0, 0, 0])
    m = np.arange(30)
    for g in (0.3, 1.7):
        w = op.grunwald_letnikov_weights(30, g)
        np.testing.assert_allclose(w, (-1.0) ** m * binom(g, m), rtol=1e-12, atol=1e-15)
        # partial sums: sum_{m<=N} (-1)^m C(g, m) = (-1)^N C(g-1, N)
        np.testing.assert_allclose(np.cumsum(w), (-1.0) ** m * binom(g - 1, m), atol=1e-13)
    bank = op.grunwald_letnikov_weights(10, np.array([0.3, 1.7]))
    np.testing.assert_allclose(bank[1], op.grunwald_letnikov_weights(10, 1.7))
    n, h = 12, 0.3
    u = np.random.default_rng(1).normal(size=n)
    gl = op.grunwald_letnikov_left_matrix(n, h, 1.0) @ u
    np.testing.assert_allclose(gl[1:], (u[1:] - u[:-1]) / h, rtol=1e-13)
    assert gl[0] == pytest.approx(u[0] / h)
    np.testing.assert_allclose(
        op.grunwald_letnikov_right_matrix(n, h, 0.7), op.grunwald_letnikov_left_matrix(n, h, 0.7).T
    )
    np.testing.assert_array_equal(op.grunwald_letnikov_left_matrix(n, h, 0.0), np.eye(n))


@pytest.mark.parametrize("n", [16, 17])
def test_real_transform_action_keeps_only_the_hermitian_part_of_a_multiplier(n):
    """``Re IFFT(m FFT f) = IRFFT(h RFFT f)`` with ``h`` the Hermitian part of ``m``, for a
    multiplier with no symmetry at all."""
    from scipy import fft as sp_fft

    rng = np.random.default_rng(4)
    f = rng.standard_normal((3, n))
    m = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    direct = op.apply_multiplier(f, m)
    real = op.apply_multiplier_real(sp_fft.rfft(f, axis=-1), m, n)
    np.testing.assert_allclose(real, direct, rtol=0, atol=1e-14)
    h = op.hermitian_half(m)
    assert h[0] == pytest.approx(m[0].real)  # the mean's multiplier acts by its real part
