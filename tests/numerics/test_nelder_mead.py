"""Batched bounded Nelder–Mead (numerics/nelder_mead.py) against SciPy's, problem by problem."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize

from weakpareto.numerics.nelder_mead import minimize_batched


def _problems(n: int, d: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rotated, shifted quartic-plus-quadratic bowls with a per-problem centre and scaling;
    some centres outside the box, so the bounds and the reflections are used."""
    rng = np.random.default_rng(seed)
    centres = rng.uniform(-1.5, 1.5, (n, d))
    scales = rng.uniform(0.2, 5.0, (n, d))
    starts = rng.uniform(-1.0, 1.0, (n, d))
    starts[0] = 0.0  # zero coordinates take the absolute initial step
    return centres, scales, starts


def _value(x: np.ndarray, centre: np.ndarray, scale: np.ndarray) -> np.ndarray:
    z = (x - centre) * scale
    return np.sum(z * z, axis=-1) + 0.3 * np.sum(z, axis=-1) ** 4 + 0.1 * z[..., 0] * z[..., -1]


@pytest.mark.parametrize("d", [1, 2, 3])
def test_every_problem_follows_scipys_trajectory(d):
    """Same best point, value, iterations and evaluations as SciPy's bounded Nelder–Mead."""
    centres, scales, starts = _problems(40, d, seed=d)
    lower, upper = np.full(d, -1.0), np.full(d, 1.2)
    options = {"maxiter": 10 * d, "xatol": 1e-5, "fatol": 1e-9}

    def batch(points, problems):
        return _value(points, centres[problems], scales[problems])

    got = minimize_batched(batch, starts, lower, upper, **options)
    for i in range(len(starts)):
        ref = minimize(
            lambda v, i=i: float(_value(v, centres[i], scales[i])),
            starts[i],
            method="Nelder-Mead",
            bounds=list(zip(lower, upper)),
            options=options,
        )
        assert np.array_equal(got.x[i], ref.x)
        assert got.fun[i] == ref.fun
        assert (got.nit[i], got.nfev[i]) == (ref.nit, ref.nfev)
    assert np.any(got.nit == options["maxiter"])  # the iteration limit is exercised too


def test_a_problem_alone_equals_the_problem_in_a_batch():
    centres, scales, starts = _problems(12, 2, seed=7)
    lower, upper = np.full(2, -1.0), np.full(2, 1.2)

    def batch(points, problems):
        return _value(points, centres[problems], scales[problems])

    together = minimize_batched(batch, starts, lower, upper, maxiter=80, xatol=1e-4, fatol=1e-8)
    alone = minimize_batched(
        lambda p, k: batch(p, k + 5), starts[5:6], lower, upper, maxiter=80, xatol=1e-4, fatol=1e-8
    )
    assert np.array_equal(alone.x[0], together.x[5]) and alone.nfev[0] == together.nfev[5]


def test_no_free_parameter_evaluates_each_start_once():
    calls = []

    def batch(points, problems):
        calls.append(points.shape)
        return np.zeros(points.shape[0])

    out = minimize_batched(batch, np.zeros((3, 0)), np.zeros(0), np.zeros(0), maxiter=5,
                           xatol=1e-4, fatol=1e-7)  # fmt: skip
    assert out.x.shape == (3, 0) and calls == [(3, 0)]
