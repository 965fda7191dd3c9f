"""Lock-step DE reproduces SciPy 1.17.1's immediate-updating DE bit for bit, many problems at once.

Every comparison is ``np.array_equal``/``==`` against ``scipy.optimize.differential_evolution``
run one problem at a time with ``updating="immediate", polish=False, workers=1,
vectorized=False``. The benchmark (not a test) is :func:`benchmark`; run it with
``.venv/bin/python tests/method/test_lockstep_de.py``.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pytest
from scipy.optimize import differential_evolution

from weakpareto.method.lockstep_de import (
    LockstepProblem,
    LockstepResult,
    lockstep_differential_evolution,
)

Batched = Callable[[np.ndarray], np.ndarray]  # (m, N) -> (m,)


# -- objectives: row-independent, elementwise arithmetic only (column loops, no reductions) -----
def quadratic(x: np.ndarray) -> np.ndarray:
    out = np.zeros(x.shape[0])
    for j in range(x.shape[1]):
        out = out + (j + 1.0) * (x[:, j] - 0.3 * j) ** 2
    return out


def rosenbrock(x: np.ndarray) -> np.ndarray:
    out = (1.0 - x[:, 0]) ** 2
    for j in range(x.shape[1] - 1):
        out = out + 100.0 * (x[:, j + 1] - x[:, j] ** 2) ** 2 + (1.0 - x[:, j + 1]) ** 2
    return out


def rastrigin(x: np.ndarray) -> np.ndarray:
    out = np.full(x.shape[0], 10.0 * x.shape[1])
    for j in range(x.shape[1]):
        out = out + (x[:, j] ** 2 - 10.0 * np.cos(2.0 * np.pi * x[:, j]))
    return out


OBJECTIVES: tuple[Batched, ...] = (quadratic, rosenbrock, rastrigin)


def scalar(f: Batched) -> Callable[[np.ndarray], float]:
    """The scalar objective SciPy calls: the batched one on a single row."""
    return lambda x: float(f(np.asarray(x, dtype=float)[None])[0])


class Dispatch:
    """A batch objective over several problems that records every call."""

    def __init__(
        self, objectives: list[Batched], dims: list[int], *, row_by_row: bool = True
    ) -> None:
        self.objectives, self.dims, self.row_by_row = objectives, dims, row_by_row
        self.calls: list[np.ndarray] = []

    def __call__(self, ids: np.ndarray, X: np.ndarray) -> np.ndarray:
        self.calls.append(ids.copy())
        out = np.empty(ids.size)
        for k in np.unique(ids):
            rows = np.flatnonzero(ids == k)
            d = self.dims[k]
            assert np.all(np.isnan(X[rows, d:])) and np.all(np.isfinite(X[rows, :d]))
            f = self.objectives[k]
            if self.row_by_row:  # exactly SciPy's scalar calls
                out[rows] = [scalar(f)(X[r, :d]) for r in rows]
            else:  # one vectorised call per problem
                out[rows] = f(X[rows, :d])
        return out


def run_scipy(
    problem: LockstepProblem, f: Batched, updating: str = "immediate", vectorized: bool = False
) -> object:
    kwargs: dict[str, object] = (
        {"seed": problem.seed} if problem.seed is not None else {"rng": problem.rng}
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no silent switch to deferred updating
        return differential_evolution(
            (lambda x: f(np.asarray(x).T)) if vectorized else scalar(f),
            problem.bounds,
            maxiter=problem.maxiter,
            popsize=problem.popsize,
            tol=problem.tol,
            atol=problem.atol,
            mutation=problem.mutation,
            recombination=problem.recombination,
            polish=False,
            updating=updating,
            workers=1,
            vectorized=vectorized,
            x0=problem.x0,
            **kwargs,
        )


def assert_identical(ours: LockstepResult, ref: object, *, calls_as_nfev: bool = False) -> None:
    """Everything equal; ``calls_as_nfev``: SciPy's vectorised mode counts calls, not points."""
    assert np.array_equal(ours.x, ref.x)  # type: ignore[attr-defined]
    assert ours.fun == ref.fun  # type: ignore[attr-defined]
    assert ours.nit == ref.nit  # type: ignore[attr-defined]
    if calls_as_nfev:
        assert ref.nfev == ref.nit + 1  # type: ignore[attr-defined]
        assert ours.nfev == ours.population.shape[0] * (ours.nit + 1)
    else:
        assert ours.nfev == ref.nfev  # type: ignore[attr-defined]
    assert ours.success is ref.success  # type: ignore[attr-defined]
    assert ours.message == ref.message  # type: ignore[attr-defined]
    assert np.array_equal(ours.population, ref.population)  # type: ignore[attr-defined]
    assert np.array_equal(
        ours.population_energies,
        ref.population_energies,  # type: ignore[attr-defined]
    )


def random_problems(n: int, master: int) -> tuple[list[LockstepProblem], list[Batched]]:
    gen = np.random.default_rng(master)
    problems, objectives = [], []
    for i in range(n):
        dim = int(gen.integers(1, 6))
        lo = gen.uniform(-5.0, 1.0, dim)
        hi = lo + gen.uniform(0.1, 6.0, dim)
        bounds = [(float(a), float(b)) for a, b in zip(lo, hi)]
        x0 = gen.uniform(lo, hi) if gen.uniform() < 0.5 else None
        problems.append(
            LockstepProblem(
                bounds=bounds,
                seed=int(gen.integers(0, 2**31)),
                x0=x0,
                maxiter=int(gen.integers(5, 31)),
                popsize=int(gen.integers(3, 9)),
                tol=float(gen.choice([1e-5, 1e-2])),
            )
        )
        objectives.append(OBJECTIVES[i % len(OBJECTIVES)])
    return problems, objectives


def run_both(
    problems: list[LockstepProblem],
    objectives: list[Batched],
    *,
    row_by_row: bool = True,
    updating: str = "immediate",
    vectorized: bool = False,
) -> tuple[list[LockstepResult], Dispatch]:
    refs = [run_scipy(p, f, updating, vectorized) for p, f in zip(problems, objectives)]
    dims = [len(p.bounds) for p in problems]
    dispatch = Dispatch(objectives, dims, row_by_row=row_by_row)
    ours = lockstep_differential_evolution(problems, dispatch, updating)
    assert len(ours) == len(refs)
    for a, b in zip(ours, refs):
        assert_identical(a, b, calls_as_nfev=vectorized)
    return ours, dispatch


# -- the proof --------------------------------------------------------------------------------
def test_bit_identical_to_scipy_on_random_problems() -> None:
    problems, objectives = random_problems(30, master=20260)
    ours, _ = run_both(problems, objectives)
    # both stopping rules, both x0 modes, all dims occur in this draw
    assert {r.success for r in ours} == {True, False}
    assert any(r.success and r.nit < p.maxiter for r, p in zip(ours, problems))
    assert {p.x0 is None for p in problems} == {True, False}
    assert {len(p.bounds) for p in problems} == {1, 2, 3, 4, 5}


@pytest.mark.parametrize("vectorized", [False, True])
def test_deferred_updating_is_bit_identical_to_scipy(vectorized: bool) -> None:
    """SciPy's deferred updating (the fast mode), scalar or vectorised objective: one call per
    generation scores every member's trial of every running problem."""
    problems, objectives = random_problems(24, master=515)
    if vectorized:  # SciPy passes whole populations: row-independent objectives only
        objectives = [quadratic if f is rastrigin else f for f in objectives]
    ours, dispatch = run_both(
        problems, objectives, row_by_row=not vectorized, updating="deferred", vectorized=vectorized
    )
    assert {r.success for r in ours} == {True, False}
    sizes = [r.population.shape[0] for r in ours]
    assert len(dispatch.calls) == 1 + max(r.nit for r in ours)
    for g, ids in enumerate(dispatch.calls[1:]):
        running = [k for k in range(len(ours)) if ours[k].nit > g]
        assert ids.tolist() == np.repeat(running, [sizes[k] for k in running]).tolist()


@pytest.mark.parametrize(
    "change",
    [
        {"mutation": 0.8},
        {"x0": [2.0, 0.5, 3.0], "bounds": [(-1.0, 2.0), (0.5, 0.5), (-3.0, 3.0)]},
        {"rng": 4321, "seed": None},
        {"maxiter": 0},
    ],
)
def test_deferred_options(change: dict[str, object]) -> None:
    base = LockstepProblem(bounds=[(-2.0, 2.0)] * 3, seed=41, maxiter=12, popsize=5)
    other = LockstepProblem(bounds=[(0.0, 1.0)] * 2, seed=8, maxiter=30, popsize=4, tol=0.0)
    run_both(
        [replace(base, **change), other],  # type: ignore[arg-type]
        [rastrigin, rosenbrock],
        updating="deferred",
    )


def test_bit_identical_with_a_vectorised_objective() -> None:
    """Row-independent numpy objectives may be scored a whole batch at a time."""
    problems, objectives = random_problems(12, master=7)
    objectives = [quadratic if f is rastrigin else f for f in objectives]  # no libm calls
    run_both(problems, objectives, row_by_row=False)


@pytest.mark.parametrize(
    "change",
    [
        {"rng": 12345, "seed": None},  # Generator path: scipy `rng=` -> default_rng
        {"mutation": 0.8},  # no dither
        {"mutation": (1.2, 0.4), "recombination": 0.3},  # unsorted dither pair
        {"atol": 5.0, "tol": 0.0},  # converges on atol alone, at the last generation
        {"bounds": [(-1.0, 2.0), (0.5, 0.5), (-3.0, 3.0)]},  # equal bounds shrink the population
        {"x0": [2.0, 0.5, 3.0], "bounds": [(-1.0, 2.0), (0.5, 0.5), (-3.0, 3.0)]},  # x0 on bounds
        {"maxiter": 0},
    ],
)
def test_bit_identical_for_scipy_options(change: dict[str, object]) -> None:
    base = LockstepProblem(bounds=[(-2.0, 2.0)] * 3, seed=99, maxiter=15, popsize=6)
    other = LockstepProblem(bounds=[(0.0, 1.0)] * 2, seed=3, maxiter=9, popsize=4)
    run_both([replace(base, **change), other], [rastrigin, rosenbrock])  # type: ignore[arg-type]


@pytest.mark.parametrize("make", [np.random.RandomState, np.random.default_rng])
def test_random_stream_instances_are_used_as_given(
    make: Callable[[int], np.random.RandomState | np.random.Generator],
) -> None:
    """``seed=<RandomState or Generator>`` is consumed in place, as ``check_random_state`` does."""
    problem = LockstepProblem(bounds=[(-1.0, 3.0)] * 2, seed=make(8), maxiter=10, popsize=5)
    ref = run_scipy(problem, rosenbrock)
    ours = lockstep_differential_evolution(
        [replace(problem, seed=make(8))], Dispatch([rosenbrock], [2])
    )
    assert_identical(ours[0], ref)


def test_all_infinite_energies_are_rescored_each_generation() -> None:
    """SciPy re-scores a population whose energies are all infinite; nfev shows it."""

    def infinite(x: np.ndarray) -> np.ndarray:
        return np.full(x.shape[0], np.inf)

    problems = [
        LockstepProblem(bounds=[(0.0, 1.0)] * 2, seed=5, maxiter=4, popsize=3),
        LockstepProblem(bounds=[(0.0, 1.0)] * 2, seed=6, maxiter=4, popsize=3),
    ]
    ours, _ = run_both(problems, [infinite, quadratic])
    assert ours[0].nfev == 6 + 4 * (6 + 6)


def test_problems_of_different_dimensions_share_each_call() -> None:
    dims = [1, 2, 5, 3]
    problems = [
        LockstepProblem(bounds=[(-2.0, 2.0)] * d, seed=10 + d, maxiter=12, popsize=5, tol=0.0)
        for d in dims
    ]
    objectives: list[Batched] = [rastrigin, rosenbrock, quadratic, rastrigin]
    ours, dispatch = run_both(problems, objectives)
    assert [r.population.shape for r in ours] == [(5, 1), (10, 2), (25, 5), (15, 3)]
    assert set(dispatch.calls[1].tolist()) == {0, 1, 2, 3}  # one trial of every problem


def test_early_convergence_drops_out_while_others_continue() -> None:
    problems = [
        LockstepProblem(bounds=[(-1.0, 1.0)] * 2, seed=1, maxiter=40, popsize=5, tol=0.5),
        LockstepProblem(bounds=[(-5.0, 5.0)] * 3, seed=2, maxiter=40, popsize=5, tol=0.0),
    ]
    ours, dispatch = run_both(problems, [quadratic, rastrigin])
    assert ours[0].success and ours[0].nit < 20
    assert not ours[1].success and ours[1].nit == 40
    steps = dispatch.calls[1:]
    n0 = ours[0].nit * 10
    assert all(c.tolist() == [0, 1] for c in steps[:n0])
    assert all(c.tolist() == [1] for c in steps[n0:])


def test_one_call_per_step_for_all_running_problems() -> None:
    problems, objectives = random_problems(20, master=3)
    ours, dispatch = run_both(problems, objectives)
    sizes = [r.population.shape[0] for r in ours]
    steps = [r.nit * s for r, s in zip(ours, sizes)]
    # one call scores all initial populations, then one call per step
    assert dispatch.calls[0].tolist() == np.repeat(np.arange(20), sizes).tolist()
    assert len(dispatch.calls) == 1 + max(steps) < 1 + sum(steps) / 5
    for s, ids in enumerate(dispatch.calls[1:]):
        assert ids.tolist() == [k for k in range(20) if steps[k] > s]
    assert sum(c.size for c in dispatch.calls) == sum(r.nfev for r in ours)


def test_rejects_what_lockstep_cannot_reproduce() -> None:
    f = Dispatch([quadratic], [2])
    shared = np.random.RandomState(0)
    with pytest.raises(ValueError, match="share"):
        lockstep_differential_evolution(
            [LockstepProblem(bounds=[(0.0, 1.0)] * 2, seed=shared)] * 2, f
        )
    with pytest.raises(ValueError, match="random stream"):
        lockstep_differential_evolution([LockstepProblem(bounds=[(0.0, 1.0)])], f)
    with pytest.raises(ValueError, match="outside"):
        lockstep_differential_evolution(
            [LockstepProblem(bounds=[(0.0, 1.0)] * 2, seed=1, x0=[0.5, 1.5])], f
        )
    with pytest.raises(ValueError, match="values for"):
        lockstep_differential_evolution(
            [LockstepProblem(bounds=[(0.0, 1.0)] * 2, seed=1)], lambda ids, X: np.zeros(3)
        )
    with pytest.raises(ValueError, match="updating"):
        lockstep_differential_evolution([], f, "later")
    assert lockstep_differential_evolution([], f) == []


# -- benchmark (not a test) -------------------------------------------------------------------
def ridge(x: np.ndarray) -> np.ndarray:
    """A costlier, Gram-like objective: per row a ridge solve in an 8-term power basis."""
    t = np.linspace(0.1, 1.0, 64)
    basis = t[np.newaxis, np.newaxis, :] ** (np.arange(8.0)[np.newaxis, :, np.newaxis])
    powers = np.abs(x).sum(axis=1)[:, np.newaxis, np.newaxis]
    a = basis ** (1.0 + 0.1 * powers)  # (m, 8, 64)
    gram = a @ np.swapaxes(a, 1, 2) + 1e-3 * np.eye(8)
    coef = np.linalg.solve(gram, (a @ np.sin(3.0 * t))[..., np.newaxis])[..., 0]
    resid = np.sin(3.0 * t) - np.einsum("mk,mkt->mt", coef, a)
    return np.log10((resid**2).mean(axis=1) + 1e-300)


def benchmark(
    n_problems: int = 12,
    popsize: int = 7,
    maxiter: int = 24,
    repeats: int = 3,
    objective: Batched = quadratic,
) -> dict[str, float]:
    """Wall time of ``n_problems`` sequential SciPy runs vs one lock-step run (best of repeats).

    Problems of dimension 3-5 (cycling), the paper's DE budget (popsize 7, maxiter 24,
    tol 1e-5), a cheap vectorised objective by default; the lock-step run scores each batch
    with one vectorised call per dimension group. Results are checked bit-identical.
    """
    dims = [3 + k % 3 for k in range(n_problems)]
    problems = [
        LockstepProblem(
            bounds=[(-2.0, 2.0)] * d, seed=100 + k, maxiter=maxiter, popsize=popsize, tol=1e-5
        )
        for k, d in enumerate(dims)
    ]

    dim_of = np.array(dims)

    def batch(ids: np.ndarray, X: np.ndarray) -> np.ndarray:
        out = np.empty(ids.size)
        for d in (3, 4, 5):
            rows = np.flatnonzero(dim_of[ids] == d)
            if rows.size:
                out[rows] = objective(X[rows, :d])
        return out

    f = scalar(objective)
    t_scipy, t_lock = np.inf, np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        refs = [
            differential_evolution(
                f, p.bounds, maxiter=maxiter, popsize=popsize, tol=1e-5, polish=False,
                updating="immediate", workers=1, seed=p.seed,
            )
            for p in problems
        ]  # fmt: skip
        t_scipy = min(t_scipy, time.perf_counter() - t0)
        t0 = time.perf_counter()
        ours = lockstep_differential_evolution(problems, batch)
        t_lock = min(t_lock, time.perf_counter() - t0)
    for a, b in zip(ours, refs):
        assert_identical(a, b)
    return {"scipy_sequential_s": t_scipy, "lockstep_s": t_lock, "speedup": t_scipy / t_lock}


if __name__ == "__main__":
    print("quadratic:", benchmark())
    print("ridge:", benchmark(objective=ridge))


def test_convergence_of_many_problems_at_once_is_each_problem_alone() -> None:
    """The test after a generation runs on blocks of problems of one population size; each
    verdict is SciPy's rule on that problem's own energies (infinite or NaN: not converged)."""
    from weakpareto.method.lockstep_de import _Lockstep, _prepare

    rng = np.random.default_rng(11)
    problems = [
        LockstepProblem(bounds=[(-1.0, 1.0)] * int(d), seed=k, tol=float(tol), atol=float(atol))
        for k, (d, tol, atol) in enumerate(
            zip(rng.integers(1, 5, 60), rng.choice([0.0, 1e-3, 0.01, 0.5], 60), [0.0, 1e-6] * 30)
        )
    ]
    state = _Lockstep([_prepare(p) for p in problems], lambda ids, x: np.zeros(ids.size))
    for k, size in enumerate(state.sizes.tolist()):
        scale = 10.0 ** rng.uniform(-9, 1)
        state.energies[k, :size] = 3.0 + scale * rng.standard_normal(size)
        if k % 7 == 0:
            state.energies[k, rng.integers(size)] = np.inf
        if k % 11 == 0:
            state.energies[k, rng.integers(size)] = np.nan
    ids = np.arange(len(problems), dtype=np.intp)
    verdicts = state._converged(ids)
    for k, p in enumerate(problems):
        e = state.energies[k, : state.sizes[k]]
        alone = not np.isinf(e).any() and bool(np.std(e) <= p.atol + p.tol * np.abs(np.mean(e)))
        assert verdicts[k] == alone
    assert 0 < verdicts.sum() < len(problems)
