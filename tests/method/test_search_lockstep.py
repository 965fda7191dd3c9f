"""Lock-step search = SciPy's DE run problem by problem, on the method's real objectives.

:func:`weakpareto.method.search.optimise_size` runs all (pattern, branch) problems of one support
size in lock-step (:mod:`weakpareto.method.lockstep_de`). These tests hold it to SciPy's
``differential_evolution`` called once per problem on :class:`PatternObjective` (the reference
path, ``engine="scipy"``): identical ``x``, ``fun``, population and energies per problem, and
identical discovery results end to end on every benchmark, in the paper's immediate updating
and in the fast deferred mode.
"""

from __future__ import annotations

import dataclasses
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import differential_evolution

import weakpareto.method.discovery as discovery_module
from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.campaign.compose import compose_config
from weakpareto.campaign.compute import build_source, discover_seed, discovery_config
from weakpareto.library.gram import GramTables, OrderBanks, _blend_gram, _rss, ridge_from_gram
from weakpareto.method.discovery import Discovery
from weakpareto.method.lockstep_de import LockstepProblem, lockstep_differential_evolution
from weakpareto.method.search import (
    SizeObjective,
    _anchor_grid,
    _scored_rows,
    _start,
    optimise_size,
    scipy_updating,
)

CONF = Path(__file__).resolve().parents[2] / "conf" / "benchmark"
BENCHMARKS = sorted(p.stem for p in CONF.glob("*.yaml"))
#: A small DE budget and test count keep the per-problem SciPy reference quick.
SMALL = ["search.test_budget=smoke", "search.popsize=4", "search.maxiter=5"]
MODES = {
    "immediate": ["search.updating=immediate", "search.vectorized=false"],
    "deferred": ["search.updating=deferred", "search.vectorized=true"],
}


def _discovery(benchmark: str, mode: str, noise: float = 0.05) -> Discovery:
    cfg = compose_config([f"benchmark={benchmark}", f"noise={noise}", *SMALL, *MODES[mode]])
    field = generate(cfg.benchmark, 0)
    u = add_noise(field.u, str(cfg.noise_law.name), noise, 7)
    return Discovery(build_source(cfg, u, field.t, field.x), discovery_config(cfg, 0))


def test_the_gram_evaluation_does_not_depend_on_the_batch() -> None:
    """A candidate's blended Gram, ridge fit and RSS are the same bits alone and in any batch
    (the lock-step path scores trials of many problems together)."""
    rng = np.random.default_rng(3)
    m = 40
    vectors = rng.standard_normal((m, 300))
    tables = GramTables.build_from_vectors(vectors, np.arange(220), np.arange(220, 300))
    for c in (1, 2, 3, 4, 5):
        idx = rng.integers(0, m, size=(97, c + 1, 2))
        w = rng.uniform(size=(97, c + 1, 2))
        gram, sums = _blend_gram(tables.train, idx, w)
        coef = ridge_from_gram(gram, 1e-3)
        pinv_coef = ridge_from_gram(gram, 0.0)
        rss = _rss(gram, coef)
        for i in range(97):
            g1, s1 = _blend_gram(tables.train, idx[i : i + 1], w[i : i + 1])
            assert np.array_equal(g1[0], gram[i]) and np.array_equal(s1[0], sums[i])
            assert np.array_equal(ridge_from_gram(g1, 1e-3)[0], coef[i])
            assert np.array_equal(ridge_from_gram(g1, 0.0)[0], pinv_coef[i])
            assert _rss(g1, coef[i : i + 1])[0] == rss[i]
        # and the batched values are the quantities they claim to be
        dense = np.einsum("nia,niak->nik", w, vectors[idx][:, :, :, :220])
        exact = dense @ dense.transpose(0, 2, 1)  # entries cancel: absolute tolerance by scale
        np.testing.assert_allclose(gram, exact, rtol=1e-12, atol=1e-12 * np.abs(exact).max())
        resid = dense[:, 0] - np.einsum("ni,nik->nk", coef, dense[:, 1:])
        np.testing.assert_allclose(rss, (resid**2).sum(axis=1), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("benchmark", ["fade", "burgers", "rd_space", "superunit"])
def test_identical_trajectories_on_the_real_objective(benchmark: str, mode: str) -> None:
    """Per problem: x, fun, nit, population and energies equal SciPy's (size 2, all patterns
    and branches of the benchmark)."""
    disc = _discovery(benchmark, mode)
    settings = disc.cfg.search
    objectives, seeds = disc.size_problems(2)
    starts = [_start(o, disc.cfg.beta_range, settings) for o in objectives]
    problems = [
        LockstepProblem(
            bounds=b, seed=s, x0=x0, maxiter=settings.maxiter, popsize=settings.popsize,
            tol=settings.tol,
        )
        for (b, x0, _), s in zip(starts, seeds)
    ]  # fmt: skip
    ours = lockstep_differential_evolution(
        problems, SizeObjective(objectives), scipy_updating(settings)
    )
    assert len(ours) == len(objectives) >= 3
    for o, p, r in zip(objectives, problems, ours):
        if settings.vectorized:
            func = lambda x, o=o: o(np.asarray(x).T)  # noqa: E731
        else:
            func = lambda x, o=o: float(o(np.asarray(x)[None])[0])  # noqa: E731
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            ref = differential_evolution(
                func, p.bounds, maxiter=p.maxiter, popsize=p.popsize, tol=p.tol, polish=False,
                seed=p.seed, updating=settings.updating, workers=1, x0=p.x0,
                vectorized=settings.vectorized,
            )  # fmt: skip
        assert np.array_equal(r.x, ref.x) and r.fun == ref.fun and r.nit == ref.nit
        assert np.array_equal(r.population, ref.population)
        assert np.array_equal(r.population_energies, ref.population_energies)


#: End-to-end pairs of the default suite: every branch kind (sub/integer, super-unit), repeated
#: nonlinear powers, the Riesz family, a 2-D library and both updating modes; the whole
#: benchmark x mode matrix (~80 s of one core) runs with ``-m slow``.
QUICK_PAIRS = {
    ("fade", "immediate"),
    ("fade", "deferred"),
    ("superunit", "immediate"),
    ("burgers", "deferred"),
    ("riesz2", "immediate"),
    ("twod_a", "deferred"),
}
ENGINE_PAIRS = [
    pytest.param(b, m, marks=() if (b, m) in QUICK_PAIRS else pytest.mark.slow, id=f"{b}-{m}")
    for b in BENCHMARKS
    for m in sorted(MODES)
]


@pytest.mark.parametrize(("benchmark", "mode"), ENGINE_PAIRS)
def test_discovery_is_identical_with_either_engine(
    benchmark: str, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """End to end (front, selection, refined equation, evaluation counts) on every benchmark."""
    cfg = compose_config([f"benchmark={benchmark}", "noise=0.02", *SMALL, *MODES[mode]])
    lockstep = discover_seed(cfg, 1)
    real = discovery_module.optimise_size
    monkeypatch.setattr(
        discovery_module,
        "optimise_size",
        lambda objs, br, seeds, st: real(objs, br, seeds, st, engine="scipy"),
    )
    reference = discover_seed(cfg, 1)
    assert lockstep.timings["n_evals"] == reference.timings["n_evals"] > 0
    strip = lambda r: dataclasses.replace(r, timings={})  # noqa: E731
    assert strip(lockstep) == strip(reference)


def test_size_objective_equals_each_pattern_objective() -> None:
    """Mixed problems (fractional and integer branches, repeated powers) in one batch."""
    disc = _discovery("burgers", "immediate")
    objectives, _ = disc.size_problems(3)
    batch = SizeObjective(objectives)
    rng = np.random.default_rng(5)
    ids = rng.integers(0, len(objectives), size=400)
    x = np.full((400, 4), np.nan)
    for i, k in enumerate(ids):
        o = objectives[k]
        lo = [o.branch.lo] * o.fractional + [disc.cfg.beta_range[0]] * 3
        hi = [o.branch.hi] * o.fractional + [disc.cfg.beta_range[1]] * 3
        x[i, : o.dim] = rng.uniform(lo, hi)
        if i % 5 == 0:  # near-duplicate orders exercise the duplicate penalty
            x[i, o.dim - 1] = x[i, o.dim - 2] + 0.01
    values = batch(ids, x)
    single = [objectives[k](x[i : i + 1, : objectives[k].dim])[0] for i, k in enumerate(ids)]
    assert np.array_equal(values, np.array(single))
    assert {o.fractional for o in objectives} == {True, False}


def test_all_problems_scored_in_one_call_equal_each_problem_alone() -> None:
    """The anchors of every problem of a size (and their DE optima) are scored in one call; the
    values equal each problem's own objective bit for bit, problems without points included."""
    disc = _discovery("burgers", "deferred")
    objectives, _ = disc.size_problems(2)
    grids = [_anchor_grid(o, disc.cfg.beta_range, disc.cfg.search) for o in objectives]
    grids[1] = grids[1][:0]  # a problem whose anchors the duplicate penalty all ruled out
    batch = SizeObjective(objectives)
    scored = _scored_rows(batch, grids)
    assert [v.shape[0] for v in scored] == [g.shape[0] for g in grids]
    for o, g, v in zip(objectives, grids, scored):
        assert np.array_equal(v, o(g) if g.shape[0] else np.zeros(0))
    assert batch.counts.tolist() == [g.shape[0] for g in grids]
    assert [v.size for v in _scored_rows(batch, [g[:0] for g in grids])] == [0] * len(grids)


def test_optimise_size_rejects_an_unknown_engine() -> None:
    disc = _discovery("fade", "immediate")
    objectives, seeds = disc.size_problems(1)
    with pytest.raises(ValueError, match="engine"):
        optimise_size(objectives, disc.cfg.beta_range, seeds, disc.cfg.search, engine="fast")
    assert isinstance(disc.banks, OrderBanks)
