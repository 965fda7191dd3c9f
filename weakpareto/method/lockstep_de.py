"""Lock-step differential evolution: many independent SciPy DE runs, one batched call per step.

:func:`lockstep_differential_evolution` runs ``P`` independent differential-evolution problems
side by side and reproduces, for every one of them, the trajectory of SciPy 1.17.1's
``scipy.optimize.differential_evolution(func, bounds, strategy="best1bin",
init="latinhypercube", updating="immediate" | "deferred", polish=False, workers=1,
constraints=(), integrality=None, ...)`` bit for bit: same ``x``, ``fun``, ``nit``,
``success``/``message``, final population and population energies, and ``nfev`` (SciPy's
vectorised mode counts calls instead of points) (``tests/method/test_lockstep_de.py`` checks this
with ``np.array_equal`` against SciPy itself; ``tests/method/test_search_lockstep.py`` on the
method's own objectives). The search (:func:`weakpareto.method.search.optimise_size`) runs every
(power pattern, temporal branch) problem of one support size through it.

Why: with immediate updating each trial vector of one problem must be scored before the next is
built, so a single problem cannot be batched. Independent problems can: at each step every
running problem builds its next trial vector from its *own* random stream, exactly as SciPy
would, and one user callback scores all of those trial vectors together. The initial
populations of all problems are scored in one call as well.

The SciPy path reproduced here (read from ``scipy/optimize/_differentialevolution.py``):

* random stream: ``seed=`` goes through ``check_random_state`` (an int gives a fresh
  ``np.random.RandomState``), ``rng=`` through ``np.random.default_rng`` (a ``Generator``);
* population size ``max(5, popsize * max(1, N - #equal bounds))``; the population lives in the
  unit cube, parameters are ``mid + (u - 0.5) * |hi - lo|``;
* Latin hypercube: one ``uniform(size=(S, N))`` draw offset by the segment starts, then one
  ``permutation`` per parameter, in parameter order;
* ``x0`` (unit-scaled, rejected outside ``[0, 1]``) replaces member 0 before anything is scored;
* the whole population is scored, then the lowest energy is swapped to index 0 (first
  ``argmin``); a population whose energies are *all* infinite is scored again at the start of
  every generation (SciPy does so; it only shows in ``nfev``);
* each generation first draws the dithered mutation factor ``F ~ U(lo, hi)`` (once per
  generation), then for every member ``c`` in order: ``fill = integers(N)``; a persistent index
  array is shuffled in place and ``r0, r1`` are its first two entries other than ``c``;
  ``cross = uniform(size=N) < recombination`` with ``cross[fill] = True``;
  ``trial = where(cross, best + F * (pop[r0] - pop[r1]), pop[c])``; entries outside ``[0, 1]``
  are redrawn with one ``uniform(size=#outside)``; the trial replaces ``c`` if its energy is
  ``<=``, and if it is also ``<=`` the best energy the lowest energy is swapped to index 0;
* deferred updating instead: per generation the dither draw, one shuffle per member (``r0,
  r1``), one ``integers(N, size=S)`` draw of fill points, one ``uniform(size=(S, N))`` crossover
  draw, one redraw of the entries outside ``[0, 1]`` (row-major); then every trial is scored,
  kept where ``<=`` its member, and the lowest energy swapped to index 0;
* after every generation: converged iff no energy is infinite and
  ``std(E) <= atol + tol * |mean(E)|``; stop when converged (success) or after ``maxiter``
  generations (not a success).

All arithmetic on trial vectors is elementwise IEEE double arithmetic in SciPy's operation order,
so doing it for all problems at once on padded arrays gives the same bits; reductions
(``std``, ``mean``) are computed per problem on its own 1-D energy vector, as in SciPy.

Bit-identity with SciPy also needs a row-wise reproducible objective: the callback's value for a
row must equal the scalar objective SciPy would call on that row (beware of BLAS kernels whose
rounding depends on the batch shape).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from weakpareto._typing import BoolArray, FloatArray, IntArray

RandomStream = np.random.RandomState | np.random.Generator

#: ``batch_objective(problem_ids, X) -> energies``: ``X`` has one row per entry of
#: ``problem_ids`` (shape ``(m, max_dim)``); row ``i`` is a point of problem ``problem_ids[i]``
#: in its first ``dim`` columns, the remaining columns are NaN. Returns ``m`` energies.
BatchObjective = Callable[[IntArray, FloatArray], ArrayLike]

MESSAGE_SUCCESS = "Optimization terminated successfully."
MESSAGE_MAXITER = "Maximum number of iterations has been exceeded."


@dataclass(frozen=True, eq=False)
class LockstepProblem:
    """One DE problem; the fields mirror ``differential_evolution``'s keywords.

    Give exactly one of ``seed`` (SciPy's legacy keyword: an int makes a ``RandomState``) and
    ``rng`` (an int/SeedSequence makes a ``Generator`` via ``np.random.default_rng``). A
    ``RandomState``/``Generator`` instance is consumed in place, as SciPy would; two problems
    may not share one. SciPy's unseeded default (the global ``RandomState``) is not offered:
    problems stepped in lock-step would interleave their draws on it.
    """

    bounds: Sequence[tuple[float, float]]
    seed: int | np.integer | RandomStream | None = None
    rng: int | np.integer | np.random.SeedSequence | np.random.Generator | None = None
    x0: ArrayLike | None = None
    maxiter: int = 1000
    popsize: int = 15
    tol: float = 0.01
    atol: float = 0.0
    mutation: float | tuple[float, float] = (0.5, 1)
    recombination: float = 0.7


@dataclass(frozen=True, eq=False)
class LockstepResult:
    """The fields of SciPy's ``OptimizeResult`` that an unpolished, unconstrained run fills."""

    x: FloatArray
    fun: float
    nit: int
    nfev: int
    success: bool
    message: str
    population: FloatArray  # (S, N) in parameter space, best first
    population_energies: FloatArray  # (S,)


@dataclass(frozen=True, eq=False)
class _Prepared:
    """A validated problem: its random stream, scaling and initial unit-cube population."""

    rng: RandomStream
    mid: FloatArray  # 0.5 * (lo + hi)
    span: FloatArray  # |hi - lo|
    population: FloatArray  # (S, N) in [0, 1]
    dither: tuple[float, float] | None
    factor: float  # the mutation constant when there is no dither
    recombination: float
    tol: float
    atol: float
    maxiter: int

    @property
    def dim(self) -> int:
        return int(self.mid.shape[0])

    @property
    def size(self) -> int:
        return int(self.population.shape[0])


def _random_stream(problem: LockstepProblem) -> RandomStream:
    """SciPy's seeding: ``seed`` -> ``check_random_state``, ``rng`` -> ``default_rng``."""
    if problem.seed is not None and problem.rng is not None:
        raise TypeError("give one of `seed` and `rng`, not both")
    if problem.rng is not None:
        return np.random.default_rng(problem.rng)
    seed = problem.seed
    if isinstance(seed, np.random.RandomState | np.random.Generator):
        return seed
    if isinstance(seed, numbers.Integral | np.integer):
        return np.random.RandomState(seed)
    raise ValueError(
        "each lock-step problem needs its own random stream: pass `seed` (int, RandomState or "
        "Generator) or `rng`"
    )


def _draw_index(rng: RandomStream, high: int) -> int:
    """One integer in ``[0, high)``, drawn as ``scipy._lib._util.rng_integers`` draws it."""
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(high, high=None, size=None, dtype="int64", endpoint=False))
    return int(rng.randint(high, high=None, size=None, dtype="int64"))


def _draw_indices(rng: RandomStream, high: int, size: int) -> IntArray:
    """``size`` integers in ``[0, high)`` in one draw, as ``rng_integers(rng, high, size=size)``."""
    if isinstance(rng, np.random.Generator):
        return rng.integers(high, high=None, size=size, dtype="int64", endpoint=False)
    return rng.randint(high, high=None, size=size, dtype="int64")


def _latin_hypercube(rng: RandomStream, size: int, dim: int) -> FloatArray:
    """``size`` points in ``[0, 1)^dim``, one per segment and parameter, in SciPy's draw order."""
    starts = np.linspace(0.0, 1.0, size, endpoint=False)[:, np.newaxis]
    samples = (1.0 / size) * rng.uniform(size=(size, dim)) + starts
    columns = [samples[rng.permutation(size), j] for j in range(dim)]
    return np.column_stack(columns) if columns else np.zeros((size, 0))


def _mutation_settings(
    mutation: float | tuple[float, float],
) -> tuple[tuple[float, float] | None, float]:
    values = np.atleast_1d(np.asarray(mutation, dtype=float))
    if not np.all(np.isfinite(values)) or np.any(values >= 2) or np.any(values < 0):
        raise ValueError(
            "The mutation constant must be a float in U[0, 2), or specified as a "
            "tuple(min, max) where min < max and min, max are in U[0, 2)."
        )
    if isinstance(mutation, Sequence | np.ndarray):
        if len(mutation) > 1:  # SciPy dithers between the first two entries, sorted
            lo, hi = sorted((mutation[0], mutation[1]))
            return (lo, hi), float("nan")
        return None, float(mutation[0])
    return None, mutation


def _prepare(problem: LockstepProblem) -> _Prepared:
    limits = np.array(problem.bounds, dtype=float).T
    if limits.ndim != 2 or limits.shape[0] != 2 or not np.all(np.isfinite(limits)):
        raise ValueError(
            "bounds should be a sequence containing finite real valued (min, max) pairs for "
            "each value in x"
        )
    if limits.shape[1] == 0:
        raise ValueError("a problem needs at least one parameter")
    lo, hi = limits
    mid, span = 0.5 * (lo + hi), np.fabs(lo - hi)
    dither, factor = _mutation_settings(problem.mutation)
    rng = _random_stream(problem)  # created before the draws below, as in SciPy's __init__
    varying = max(1, int(limits.shape[1] - np.count_nonzero(lo == hi)))
    population = _latin_hypercube(rng, max(5, problem.popsize * varying), limits.shape[1])
    if problem.x0 is not None:
        with np.errstate(divide="ignore"):
            inv_span = 1 / span
        inv_span[~np.isfinite(inv_span)] = 0
        x0_unit = (np.asarray(problem.x0) - mid) * inv_span + 0.5
        if ((x0_unit > 1.0) | (x0_unit < 0.0)).any():
            raise ValueError("Some entries in x0 lay outside the specified bounds")
        population[0] = x0_unit
    return _Prepared(
        rng=rng,
        mid=mid,
        span=span,
        population=population,
        dither=dither,
        factor=factor,
        recombination=problem.recombination,
        tol=problem.tol,
        atol=problem.atol,
        maxiter=int(problem.maxiter),
    )


def _first_two_others(head: IntArray) -> tuple[IntArray, IntArray]:
    """Row ``c`` of ``head``: the first two entries other than ``c`` (SciPy's ``r0, r1``)."""
    member = np.arange(head.shape[0])
    r0 = np.where(head[:, 0] == member, head[:, 1], head[:, 0])
    r1 = np.where((head[:, 0] == member) | (head[:, 1] == member), head[:, 2], head[:, 1])
    return r0, r1


class _Lockstep:
    """The state of all problems on padded arrays: ``(P, S_max, N_max)`` unit populations."""

    def __init__(self, prepared: Sequence[_Prepared], batch_objective: BatchObjective) -> None:
        self.prepared = prepared
        self.batch_objective = batch_objective
        n_prob = len(prepared)
        self.dims = np.array([p.dim for p in prepared], dtype=np.intp)
        self.sizes = np.array([p.size for p in prepared], dtype=np.intp)
        n_dim, n_pop = int(self.dims.max()), int(self.sizes.max())
        self.in_dim: BoolArray = np.arange(n_dim)[np.newaxis, :] < self.dims[:, np.newaxis]
        self.mid = np.zeros((n_prob, n_dim))
        self.span = np.zeros((n_prob, n_dim))
        self.pop = np.zeros((n_prob, n_pop, n_dim))  # padding stays 0: never out of bounds
        self.energies = np.full((n_prob, n_pop), np.inf)  # padding stays +inf
        for k, p in enumerate(prepared):
            self.mid[k, : p.dim], self.span[k, : p.dim] = p.mid, p.span
            self.pop[k, : p.size, : p.dim] = p.population
        self.factor = np.array([p.factor for p in prepared])
        self.recombination = np.array([p.recombination for p in prepared])
        self.rngs = [p.rng for p in prepared]
        self.dim_list = self.dims.tolist()
        self.order = [np.arange(p.size) for p in prepared]  # SciPy's persistent shuffle buffer
        self.member = np.zeros(n_prob, dtype=np.intp)  # the member the next trial challenges
        self.nit = np.zeros(n_prob, dtype=np.intp)
        self.nfev = np.zeros(n_prob, dtype=np.intp)
        self.results: dict[int, LockstepResult] = {}

    # -- evaluation ---------------------------------------------------------------------------
    def _to_parameters(self, ids: IntArray, unit: FloatArray) -> FloatArray:
        """``mid + (u - 0.5) * span`` row by row; columns beyond a problem's dimension are NaN."""
        x = self.mid[ids] + (unit - 0.5) * self.span[ids]
        x[~self.in_dim[ids]] = np.nan
        return x

    def _score(self, ids: IntArray, unit: FloatArray) -> FloatArray:
        energies = np.asarray(
            self.batch_objective(ids.copy(), self._to_parameters(ids, unit)), dtype=np.float64
        ).ravel()
        if energies.shape != ids.shape:
            raise ValueError(
                f"batch_objective returned {energies.size} values for {ids.size} points"
            )
        return energies

    def _promote(self, ids: IntArray) -> None:
        """Swap each problem's lowest energy (first ``argmin``; padding is +inf) to index 0."""
        if ids.size == 0:
            return
        best = np.argmin(self.energies[ids], axis=1)
        for arr in (self.energies, self.pop):
            lowest = arr[ids, best].copy()
            arr[ids, best] = arr[ids, 0]
            arr[ids, 0] = lowest

    def score_populations(self, ids: IntArray) -> None:
        """Score whole populations (one call for all ``ids``), then promote the best."""
        if ids.size == 0:
            return
        owner = np.repeat(ids, self.sizes[ids])
        member = np.concatenate([np.arange(self.sizes[k]) for k in ids])
        self.energies[owner, member] = self._score(owner, self.pop[owner, member])
        self.nfev[ids] += self.sizes[ids]
        self._promote(ids)

    # -- one lock-step step -------------------------------------------------------------------
    def _start_generations(self, active: IntArray) -> None:
        starting = active[self.member[active] == 0]
        stale = [k for k in starting if np.all(np.isinf(self.energies[k, : self.sizes[k]]))]
        self.score_populations(np.array(stale, dtype=np.intp))
        for k in starting:
            dither = self.prepared[k].dither
            if dither is not None:
                self.factor[k] = self.prepared[k].rng.uniform(dither[0], dither[1])

    def _draw(self, active: IntArray) -> tuple[IntArray, IntArray, BoolArray]:
        """Per problem, in SciPy's order: fill point, shuffle, crossover draws."""
        n = active.size
        fill = np.empty(n, dtype=np.intp)
        r0 = np.empty(n, dtype=np.intp)
        r1 = np.empty(n, dtype=np.intp)
        draws = np.ones((n, self.pop.shape[2]))  # padding 1.0: never crosses over
        rngs, dims, orders, members = self.rngs, self.dim_list, self.order, self.member
        for i, k in enumerate(active.tolist()):
            rng, dim, member = rngs[k], dims[k], members[k]
            fill[i] = _draw_index(rng, dim)
            order = orders[k]
            rng.shuffle(order)
            r0[i], r1[i] = [j for j in order[:3].tolist() if j != member][:2]
            # SciPy draws uniform(size=dim) = 0.0 + 1.0 * U: the same doubles as random(dim)
            draws[i, :dim] = rng.random(dim)
        cross = draws < self.recombination[active, np.newaxis]
        cross[np.arange(n), fill] = True
        return r0, r1, cross

    def _redraw_outside(self, active: IntArray, trial: FloatArray) -> None:
        outside = (trial > 1) | (trial < 0)
        for i in np.flatnonzero(outside.any(axis=1)):
            mask = outside[i]
            trial[i, mask] = self.rngs[active[i]].uniform(size=int(mask.sum()))

    def step(self, active: IntArray) -> IntArray:
        """One trial vector per active problem, scored together; returns the still-active."""
        self._start_generations(active)
        r0, r1, cross = self._draw(active)
        member = self.member[active]
        best = self.pop[active, 0]
        mutant = best + self.factor[active, np.newaxis] * (
            self.pop[active, r0] - self.pop[active, r1]
        )
        trial = np.where(cross, mutant, self.pop[active, member])
        self._redraw_outside(active, trial)
        energy = self._score(active, trial)
        self.nfev[active] += 1

        accept = energy <= self.energies[active, member]
        won, won_member = active[accept], member[accept]
        self.pop[won, won_member] = trial[accept]
        self.energies[won, won_member] = energy[accept]
        self._promote(won[energy[accept] <= self.energies[won, 0]])

        self.member[active] += 1
        ended = active[self.member[active] == self.sizes[active]]
        self.member[ended] = 0
        self.nit[ended] += 1
        return self._end_generations(ended, active)

    def generation(self, active: IntArray) -> IntArray:
        """One deferred-updating generation of every active problem, all trials scored together.

        SciPy's ``updating="deferred"`` order per problem: dither draw, one shuffle per member
        (``r0, r1``), one vector of fill points, one ``(S, N)`` crossover draw, one redraw of the
        entries outside ``[0, 1]`` (row-major), then all trials scored, each kept if ``<=`` its
        member, and the lowest energy swapped to index 0.
        """
        self._start_generations(active)
        trials: list[FloatArray] = []
        for k in active.tolist():
            rng, dim, size = self.rngs[k], self.dim_list[k], int(self.sizes[k])
            order = self.order[k]
            head = np.empty((size, 3), dtype=np.intp)  # first three entries after each shuffle
            for c in range(size):
                rng.shuffle(order)
                head[c] = order[:3]
            r0, r1 = _first_two_others(head)
            fill = _draw_indices(rng, dim, size)
            cross = rng.uniform(size=(size, dim)) < self.prepared[k].recombination
            cross[np.arange(size), fill] = True
            pop = self.pop[k, :size, :dim]
            mutant = pop[0] + self.factor[k] * (pop[r0] - pop[r1])
            trial = np.where(cross, mutant, pop)
            outside = (trial > 1) | (trial < 0)
            if n_out := int(np.count_nonzero(outside)):
                trial[outside] = rng.uniform(size=n_out)
            padded = np.zeros((size, self.pop.shape[2]))
            padded[:, :dim] = trial
            trials.append(padded)
        owner = np.repeat(active, self.sizes[active])
        energy = self._score(owner, np.concatenate(trials))
        start = 0
        for k, trial in zip(active.tolist(), trials):
            size = int(self.sizes[k])
            e = energy[start : start + size]
            start += size
            accept = e <= self.energies[k, :size]
            self.pop[k, :size] = np.where(accept[:, np.newaxis], trial, self.pop[k, :size])
            self.energies[k, :size] = np.where(accept, e, self.energies[k, :size])
        self.nfev[active] += self.sizes[active]
        self._promote(active)
        self.nit[active] += 1
        return self._end_generations(active, active)

    def _end_generations(self, ended: IntArray, active: IntArray) -> IntArray:
        """SciPy's test after a generation of each ``ended`` problem (converged, or ``maxiter``
        generations run); returns the ``active`` problems still running."""
        converged = self._converged(ended)
        for k, done in zip(ended.tolist(), converged.tolist()):
            if done:
                self.finish(k, success=True)
            elif self.nit[k] >= self.prepared[k].maxiter:
                self.finish(k, success=False)
        return np.array([k for k in active.tolist() if k not in self.results], dtype=np.intp)

    def _converged(self, ids: IntArray) -> BoolArray:
        """SciPy's convergence test after a generation, on each problem's own energies: not
        converged while any is infinite, else ``std <= atol + tol |mean|``. The problems of one
        population size are tested together: ``np.std``/``np.mean`` along the rows of a C-ordered
        block give each row the bits they give the row alone (the same pairwise sums)."""
        out = np.zeros(ids.size, dtype=bool)
        sizes = self.sizes[ids]
        for size in np.unique(sizes).tolist():
            rows = np.flatnonzero(sizes == size)
            ks = ids[rows]
            energies = np.ascontiguousarray(self.energies[ks, :size])
            tol = np.array([self.prepared[k].tol for k in ks.tolist()])
            atol = np.array([self.prepared[k].atol for k in ks.tolist()])
            with np.errstate(invalid="ignore"):  # rows with +inf are not converged (below)
                spread = np.std(energies, axis=1)
                level = atol + tol * np.abs(np.mean(energies, axis=1))
            out[rows] = ~np.isinf(energies).any(axis=1) & (spread <= level)
        return out

    def finish(self, k: int, *, success: bool) -> None:
        size, dim = int(self.sizes[k]), int(self.dims[k])
        mid, span = self.mid[k, :dim], self.span[k, :dim]
        population = mid + (self.pop[k, :size, :dim] - 0.5) * span
        self.results[k] = LockstepResult(
            x=mid + (self.pop[k, 0, :dim] - 0.5) * span,
            fun=self.energies[k, 0],
            nit=int(self.nit[k]),
            nfev=int(self.nfev[k]),
            success=success,
            message=MESSAGE_SUCCESS if success else MESSAGE_MAXITER,
            population=population,
            population_energies=self.energies[k, :size].copy(),
        )


def lockstep_differential_evolution(
    problems: Sequence[LockstepProblem],
    batch_objective: BatchObjective,
    updating: str = "immediate",
) -> list[LockstepResult]:
    """Run every problem as SciPy 1.17.1's ``best1bin`` DE would, in lock-step.

    ``updating="immediate"`` (SciPy's default, the paper's runs) or ``"deferred"`` (SciPy's
    ``updating="deferred"``, with or without ``vectorized=True``: the draws do not depend on it).

    ``batch_objective(problem_ids, X)`` scores row ``X[i, :dim]`` for problem ``problem_ids[i]``
    (columns beyond that problem's dimension are NaN) and returns one energy per row. It is
    called once for all initial populations (ids repeat, each population in member order) and
    then once per step with one trial vector for every problem still running (deferred: once
    per generation with every member's trial of every running problem), in increasing problem
    order; a problem stops after converging or after ``maxiter`` generations. Returns one
    :class:`LockstepResult` per problem, in input order.
    """
    if updating not in ("immediate", "deferred"):
        raise ValueError(f"updating={updating!r}: use 'immediate' or 'deferred'")
    prepared = [_prepare(p) for p in problems]
    if not prepared:
        return []
    streams = [id(p.rng) for p in prepared]
    if len(set(streams)) != len(streams):
        raise ValueError("two problems share one random stream; give each its own")
    state = _Lockstep(prepared, batch_objective)
    state.score_populations(np.arange(len(prepared), dtype=np.intp))
    for k, p in enumerate(prepared):
        if p.maxiter < 1:
            state.finish(k, success=False)  # SciPy: no generation run, maxiter message
    active = np.array([k for k in range(len(prepared)) if k not in state.results], dtype=np.intp)
    advance = state.step if updating == "immediate" else state.generation
    while active.size:
        active = advance(active)
    return [state.results[k] for k in range(len(prepared))]


__all__ = [
    "BatchObjective",
    "LockstepProblem",
    "LockstepResult",
    "lockstep_differential_evolution",
]
