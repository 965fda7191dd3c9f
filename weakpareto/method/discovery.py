"""Algorithm 1 end to end: banks → split → support-size sweep → elbow → prune → polish → refit.

``discover`` takes any feature source (the weak library of :mod:`weakpareto.library.weak`, or a
pointwise library for the strong-form comparator) and returns a
:class:`weakpareto.records.DiscoveryResult`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import cast

import numpy as np

from weakpareto._typing import Array
from weakpareto.library.gram import (
    EPS_REL,
    TINY,
    Evaluation,
    FeatureSource,
    GramTables,
    OrderBanks,
    RowGram,
    build_banks,
    evaluate_direct,
    fit_of_gram,
)
from weakpareto.library.pooled import row_counts
from weakpareto.library.recent import RecentValues
from weakpareto.method.alternatives import (
    cancels,
    close_pairs,
    identity_alternative,
    integer_alternative,
    twin_to_drop,
)
from weakpareto.method.exact_fit import exact_system, fit_rows, relative_residual
from weakpareto.method.noise_correction import NoiseCorrection, noise_ridge
from weakpareto.method.search import (
    Candidate,
    PatternObjective,
    experiment_split,
    optimise_size,
    power_patterns,
)
from weakpareto.method.selection import (
    StoppingState,
    inactive_terms,
    pareto_front,
    select_on_front,
)
from weakpareto.method.settings import (
    DiscoveryConfig,
)
from weakpareto.numerics.orders import beta_nodes, first_positive, temporal_branches
from weakpareto.records import DiscoveryResult, Equation, FrontPoint, Mode, Term

ProgressFn = Callable[[str], None]


#: Seed strides of the search: pattern ``j`` (1-based) of support size ``c`` in admitted branch
#: ``i`` runs differential evolution with ``seed + 7919 c + 103 j + 1009 i``
#: (docs/method/search.md#seeds).
SEED_PER_SIZE, SEED_PER_PATTERN, SEED_PER_BRANCH = 7919, 103, 1009


def search_seed(seed: int, c: int, pattern: int, branch: int) -> int:
    """The differential-evolution seed of one (size, pattern, branch) problem."""
    return seed + SEED_PER_SIZE * c + SEED_PER_PATTERN * pattern + SEED_PER_BRANCH * branch


def max_seed_offset(c_max: int, n_patterns: int, n_branches: int) -> int:
    """Largest ``search_seed(seed, ...) - seed`` of a sweep (numpy needs seeds below 2**32)."""
    return search_seed(0, c_max, n_patterns, n_branches - 1)


#: Exact fits a :class:`Discovery` keeps: a polish's simplex, clipped to its box, revisits ~10 %
#: of its ~100 points.
KEPT_EXACT_FITS = 256


class Discovery:
    """One discovery run on one feature source (stateful helper behind :func:`discover`)."""

    def __init__(self, source: FeatureSource, cfg: DiscoveryConfig) -> None:
        self.source, self.cfg = source, cfg
        self.timings: dict[str, float] = {}
        t0 = time.perf_counter()
        self.branches = temporal_branches(cfg.alpha_range, cfg.n_alpha_nodes, cfg.eps_alpha)
        self.beta_nodes = beta_nodes(cfg.beta_range, cfg.n_beta_nodes, cfg.min_positive_order)
        self.banks: OrderBanks = build_banks(source, self.branches, self.beta_nodes, cfg.powers)
        self.train_rows, self.val_rows = experiment_split(
            row_counts(source), cfg.search.val_fraction, cfg.seed
        )
        self.all_rows = np.concatenate([self.train_rows, self.val_rows])
        self.tables = GramTables.build(self.banks, self.train_rows, self.val_rows)
        self.noise: NoiseCorrection | None = None
        if cfg.noise_model != "none":
            rows = (self.train_rows, self.val_rows)
            self.noise, self.tables = NoiseCorrection.build(
                source, self.banks, self.beta_nodes, rows, cfg.noise_model, self.tables
            )
            # A term must explain more than the noise can: the selection's error floor is at
            # least the noise share of the target (relative squared error scale).
            floor = max(cfg.selection.gain_floor, self.noise.noise_share)
            # ... and the ridge follows the noise: no more shrinkage than the noise calls for
            ridge = noise_ridge(cfg.search.ridge, self.noise.noise_share)
            self.cfg = cfg = replace(
                cfg,
                selection=replace(cfg.selection, gain_floor=floor),
                search=replace(cfg.search, ridge=ridge),
            )
            kept = self.noise.kept_branches(self.branches)
            self.timings["branches_dropped_for_noise"] = float(len(self.branches) - len(kept))
            self.branches = kept
        self.timings["banks"] = time.perf_counter() - t0
        self.n_evals = 0
        self._refined: dict[Candidate, tuple[Equation, float]] = {}
        #: residual noise share per refined model (noise model on; :meth:`residual_noise`)
        self._noise_floor: dict[Candidate, float] = {}
        self._exact_fits: RecentValues[tuple[object, ...], tuple[Array, float]]
        self._exact_fits = RecentValues(KEPT_EXACT_FITS)

    # -- exact systems (noise-aware scoring: method/noise_correction.py) ----------------------
    def _system_tables(
        self, mode: Mode, alpha: float, powers: tuple[int, ...], betas: Array
    ) -> GramTables:
        """Noise-corrected Gram tables of the exact system at the given orders."""
        assert self.noise is not None
        y, x = exact_system(self.source, mode, alpha, powers, betas)
        vectors = np.vstack([y[None], x.T])
        tables = GramTables.build_from_vectors(vectors, self.train_rows, self.val_rows)
        return self.noise.system_tables(tables, mode, alpha, powers, betas)

    def exact_fit(
        self, mode: Mode, alpha: float, powers: tuple[int, ...], betas: Array, ridge: float
    ) -> tuple[Array, float]:
        """Coefficients and all-row relative residual at exact orders (paper Eq. 22, E_fit);
        with a noise model both come from the noise-corrected Gram matrix. The latest
        :data:`KEPT_EXACT_FITS` are kept (a pure function of its arguments: the same bits)."""
        betas = np.asarray(betas, dtype=float)
        key = (mode, float(alpha), tuple(powers), betas.tobytes(), float(ridge))
        return self._exact_fits.get(key, lambda: self._exact_fit(mode, alpha, powers, betas, ridge))

    def _exact_fit(
        self, mode: Mode, alpha: float, powers: tuple[int, ...], betas: Array, ridge: float
    ) -> tuple[Array, float]:
        y, x = exact_system(self.source, mode, alpha, powers, betas)
        if self.noise is None:
            coef = fit_rows(y, x, ridge)
            error = relative_residual(y, x, coef)
        else:  # all rows at once: one covariance instead of the training and validation ones
            vectors = np.vstack([y[None], x.T])[:, self.all_rows]
            gram = RowGram.of(vectors).gram - self.noise.full_system(mode, alpha, powers, betas)
            coef, error = fit_of_gram(gram, ridge)
        coef.flags.writeable = False  # kept by exact_fit and shared
        return coef, error

    def residual_noise(
        self, mode: Mode, alpha: float, powers: tuple[int, ...], betas: Array
    ) -> float:
        """Expected noise energy of one model's exact all-row residual ``y - X xi``, relative to
        the target's corrected energy: ``w^T C w / y^T y`` with ``w = (1, -xi)`` (noise model
        on). The empty model's value is the target's noise share, the floor the search starts
        with; a model with large coefficients on noisy columns carries more."""
        assert self.noise is not None
        y, x = exact_system(self.source, mode, alpha, powers, betas)
        vectors = np.vstack([y[None], x.T])[:, self.all_rows]
        gram = RowGram.of(vectors).gram - self.noise.full_system(mode, alpha, powers, betas)
        coef, _ = fit_of_gram(gram, self.refit_ridge)
        w = np.concatenate([[1.0], -np.asarray(coef, dtype=float)])
        noise = float(w @ self.noise.expected_system(mode, alpha, powers, betas) @ w)
        return noise / max(float(gram[0, 0]), TINY)

    def exact_evaluation(
        self, mode: Mode, alpha: float, powers: tuple[int, ...], betas: Array, ridge: float
    ) -> Evaluation:
        """Train/validation errors at exact orders (paper Eq. 21 on the search's row split)."""
        if self.noise is None:
            y, x = exact_system(self.source, mode, alpha, powers, betas)
            return evaluate_direct(y, x, self.train_rows, self.val_rows, ridge)
        tables = self._system_tables(mode, alpha, powers, betas)
        c = len(powers) + 1
        idx = np.broadcast_to(np.arange(c)[:, None], (1, c, 2)).copy()
        w = np.zeros((1, c, 2))
        w[..., 0] = 1.0  # each slot is one explicit vector (no blending)
        return tables.evaluate(cast(Array, idx), w, ridge)

    # -- search ----------------------------------------------------------------------------
    def objective(self, mode: Mode, powers: tuple[int, ...]) -> PatternObjective:
        return PatternObjective(
            self.banks, self.tables, self.banks.branch(mode), powers, self.cfg.search
        )

    def size_problems(self, c: int) -> tuple[list[PatternObjective], list[int]]:
        """The (pattern, branch) objectives of size ``c`` (pattern-major) and their DE seeds."""
        patterns = power_patterns(self.cfg.powers, c)
        objectives = [self.objective(br.mode, p) for p in patterns for br in self.branches]
        seeds = [
            search_seed(self.cfg.seed, c, j, i)
            for j in range(1, len(patterns) + 1)
            for i in range(len(self.branches))
        ]
        return objectives, seeds

    def best_of_size(self, c: int, progress: ProgressFn | None = None) -> Candidate:
        """Best-by-c over all power patterns and admitted branches
        (docs/method/search.md#pattern-winner-and-best-model-of-a-size).

        All (pattern, branch) problems of the size are optimised together
        (:func:`weakpareto.method.search.optimise_size`: lock-step DE, bit-identical to SciPy
        run problem by problem), then compared pattern by pattern.
        """
        patterns = power_patterns(self.cfg.powers, c)
        objectives, seeds = self.size_problems(c)
        cands = optimise_size(objectives, self.cfg.beta_range, seeds, self.cfg.search)
        self.n_evals += sum(o.n_evals for o in objectives)
        best: Candidate | None = None
        per_pattern = len(self.branches)
        for j, pattern in enumerate(patterns):
            winner: Candidate | None = None
            for cand in cands[j * per_pattern : (j + 1) * per_pattern]:
                if winner is None or (cand.objective, cand.val_error) < (
                    winner.objective,
                    winner.val_error,
                ):
                    winner = cand
            assert winner is not None
            if best is None or winner.val_error < best.val_error:
                best = winner
            if progress is not None:
                progress(f"c={c} pattern {pattern}")
        assert best is not None
        return best

    def sweep(self, progress: ProgressFn | None = None) -> tuple[list[Candidate], int]:
        """Support sizes 1..c_max with plateau and selection-stability stopping
        (docs/method/search.md#support-sweep-and-stopping).

        With ``selection.refine_front`` (ours) every size's best model is pruned, polished and
        refitted at its exact orders before it enters the front, and selection and stopping use
        those exact errors (:meth:`refine`); the returned models are then the refined ones.
        """
        t0 = time.perf_counter()
        sel = self.cfg.selection
        state = StoppingState()
        models: list[Candidate] = []
        chosen = 0
        for c in range(1, self.cfg.c_max + 1):
            best = self.best_of_size(c, progress)
            models.append(self.refine(best)[0] if sel.refine_front else best)
            chosen = self.select(models)
            selected_size = models[chosen].size if c >= 2 else None
            if state.update(c, models[-1].val_error, selected_size, sel) and c < self.cfg.c_max:
                break
        self.timings["search"] = time.perf_counter() - t0
        return models, chosen

    def select(self, models: list[Candidate]) -> int:
        sizes = np.array([m.size for m in models])
        errs = np.array([m.val_error for m in models])
        ics = np.array([m.information_criteria(self.tables.val.n) for m in models])
        floors = None
        if self._noise_floor:
            # noise-aware gain rule: a term must explain more than the noise each compared
            # model's residual carries (the configured floor is that of the empty model)
            base = self.cfg.selection.gain_floor
            floors = np.array([max(base, self._noise_floor.get(m, base)) for m in models])
        return select_on_front(sizes, errs, ics[:, 0], ics[:, 1], self.cfg.selection, floors)

    def selected_floor(self, selected: Candidate) -> float:
        """The gain rule's floor at the selected model (what a reselection compares with)."""
        base = self.cfg.selection.gain_floor
        return max(base, self._noise_floor.get(selected, base))

    # -- post-selection ---------------------------------------------------------------------
    @property
    def refit_ridge(self) -> float:
        """Ridge of the polish and the final refit (the search's unless set, paper Eq. 22)."""
        r = self.cfg.refine.ridge
        return self.cfg.search.ridge if r is None else r

    def interpolated_columns(self, cand: Candidate) -> Array:
        cols = []
        for p, b in zip(cand.powers, cand.betas):
            idx, w = self.banks.column_stencil(p, np.array(b))
            cols.append(self.banks.interpolate(idx, w))
        return np.stack(cols, axis=1)

    def prune(self, cand: Candidate) -> Candidate:
        """Drop numerically inactive terms and refit the reduced structure (paper Sec. 4.4)."""
        sel = self.cfg.selection
        drop = inactive_terms(
            np.array(cand.coef), self.interpolated_columns(cand), sel.prune_contrib, sel.prune_abs
        )
        if not drop.any() or drop.all():
            return cand
        keep = ~drop
        powers = tuple(p for p, k in zip(cand.powers, keep) if k)
        betas = [b for b, k in zip(cand.betas, keep) if k]
        obj = self.objective(cand.mode, powers)
        x = np.array(([cand.alpha] if obj.fractional else []) + betas)
        return obj.candidate(x)

    def trust_radius(self) -> float:
        """Order trust region of the polish: ``max(3 * median node spacing, trust_min)``."""
        spacing = float(np.median(np.diff(self.beta_nodes)))
        return max(3.0 * spacing, self.cfg.refine.trust_min)

    def polish(self, cand: Candidate) -> tuple[float, Array]:
        """Nelder–Mead on the exact full-row relative residual within the branch
        (docs/method/search.md#exact-order-polishing)."""
        from scipy.optimize import minimize  # imported when used (start-up)

        betas = np.array(cand.betas)
        if not self.cfg.refine.polish:
            return cand.alpha, betas
        br = self.banks.branch(cand.mode)
        fractional = not br.is_integer
        has_id = self.beta_nodes[0] == 0.0
        b_pos = first_positive(self.beta_nodes)
        free = np.array([not (has_id and b == 0.0) for b in betas])
        delta = self.trust_radius()
        lo = [br.lo] if fractional else []
        hi = [br.hi] if fractional else []
        lo += [max(b_pos, b - delta) for b in betas[free]]
        hi += [min(self.cfg.beta_range[1], b + delta) for b in betas[free]]
        lo_a, hi_a = np.array(lo), np.array(hi)
        ridge = self.cfg.search.ridge  # the search's ridge (paper); the final refit may differ

        def unpack(v: Array) -> tuple[float, Array]:
            v = np.clip(v, lo_a, hi_a)
            alpha = float(v[0]) if fractional else cand.alpha
            b = betas.copy()
            b[free] = v[1:] if fractional else v
            return alpha, b

        def residual(v: Array) -> float:
            alpha, b = unpack(v)
            return self.exact_fit(cand.mode, alpha, cand.powers, b, ridge)[1]

        v0 = np.array(([cand.alpha] if fractional else []) + list(betas[free]))
        if v0.size == 0:
            return cand.alpha, betas
        try:
            res = minimize(
                residual,
                v0,
                method="Nelder-Mead",
                options={
                    "maxiter": self.cfg.refine.maxiter,
                    "xatol": self.cfg.refine.xatol,
                    "fatol": self.cfg.refine.fatol,
                },
            )
            return unpack(res.x)
        except (ValueError, np.linalg.LinAlgError):
            return cand.alpha, betas

    def refit(self, cand: Candidate, alpha: float, betas: Array) -> tuple[Equation, float]:
        """Exact-order refit on all rows (paper Eq. 22) and E_fit; or keep the search fit."""
        op = self.cfg.operator
        if self.cfg.refine.refit:
            coef, fit = self.exact_fit(cand.mode, alpha, cand.powers, betas, self.refit_ridge)
        else:
            # Strong-Pareto convention: training-row coefficients on interpolated features,
            # E_fit recomputed on all rows (docs/method/search.md#final-exact-refit).
            coef = np.array(cand.coef)
            idx, w = self.banks.target_stencil(cand.mode, np.array(cand.alpha))
            y = self.banks.interpolate(idx, w)
            fit = relative_residual(y, self.interpolated_columns(cand), coef, eps=1e-12)
        terms = tuple(Term(p, float(b), float(c)) for p, b, c in zip(cand.powers, betas, coef))
        return Equation(cand.mode, float(alpha), terms, op).canonical(), fit

    def eliminate(
        self, cand: Candidate, alpha: float, betas: Array
    ) -> tuple[Candidate, float, Array] | None:
        """Backward elimination at exact orders (ours): the reduced model and its polished orders
        when some term does not earn its place, else None.

        Repeatedly drops the term whose removal raises ``log10(E^2 + floor)`` least, while that
        rise stays within the selection margin — the per-term criterion of the gain selector
        applied backwards (``E`` the all-row relative residual, squared to match E_val's scale).
        Removal is scored at the remaining orders; a term with a same-power neighbour inside the
        polishing trust region is scored after re-polishing, since two nearby orders can split
        one operator between them (e.g. D^1.97 and D^2.00 for u_xx) and neither alone fits at
        its split order.
        """
        sel = self.cfg.selection
        delta = self.trust_radius()
        floor = sel.gain_floor
        if self.noise is not None:
            # rises below the noise the full model's residual carries are not evidence
            floor = max(floor, self.residual_noise(cand.mode, alpha, cand.powers, betas))

        def score(c: Candidate, a: float, b: Array) -> float:
            e = self.exact_fit(c.mode, a, c.powers, b, self.refit_ridge)[1]
            return float(np.log10(e**2 + floor))

        def without(c: Candidate, a: float, b: Array, j: int) -> tuple[Candidate, float, Array]:
            powers = c.powers[:j] + c.powers[j + 1 :]
            obj = self.objective(c.mode, powers)
            kept = np.delete(np.asarray(b, dtype=float), j)
            smaller = obj.candidate(np.array(([a] if obj.fractional else []) + list(kept)))
            return smaller, a, kept

        current, reduced = (cand, alpha, np.asarray(betas, dtype=float)), False
        if self.cfg.refine.twins == "merge":
            while (merged := self.merge_twin(*current)) is not None:
                current, reduced = merged, True
        base = score(*current)
        while len(current[0].powers) > 1:
            c, a, b = current
            options = []
            for j in range(len(c.powers)):
                smaller = without(c, a, b, j)
                options.append((score(*smaller), smaller))
                twin = any(
                    k != j and c.powers[k] == c.powers[j] and abs(b[k] - b[j]) <= delta
                    for k in range(len(c.powers))
                )
                if twin:
                    a_p, b_p = self.polish(smaller[0])
                    options.append((score(smaller[0], a_p, b_p), (smaller[0], a_p, b_p)))
            if self.cfg.refine.twins == "merge":
                for pair in self.cancelling_pairs(c, a, b):
                    fewer = self.without_terms(c, a, b, pair)
                    if fewer is not None:
                        a_p, b_p = self.polish(fewer[0])
                        options.append((score(fewer[0], a_p, b_p), (fewer[0], a_p, b_p)))
            rise, best = min(options, key=lambda o: o[0])
            if rise - base > sel.margin:
                break
            base, current, reduced = rise, best, True
        if not reduced:
            return None
        c, _, _ = current
        a_p, b_p = self.polish(c)
        return c, a_p, b_p

    def cancelling_pairs(
        self, cand: Candidate, alpha: float, betas: Array
    ) -> list[tuple[int, int]]:
        """Pairs of terms of one kind with opposite signs that cancel to within
        :data:`CANCELLING` of the larger coefficient (``refine.twins = "merge"``, ours).

        ``c X^b1 - c' X^b2`` with ``c ~ c'`` is a difference of two powers (~ ``c (b1 - b2)
        log|k| X^b``), not two operators of the model class; removing one term alone leaves the
        other uncancelled, so backward elimination scores the pair's removal as one step."""
        if len(cand.powers) < 3 or len(set(cand.powers)) == len(cand.powers):
            return []  # no two terms of one kind: nothing to fit
        b = np.asarray(betas, dtype=float)
        coef = self.exact_fit(cand.mode, alpha, cand.powers, b, self.refit_ridge)[0]
        return [
            (j, k)
            for j in range(len(coef))
            for k in range(j + 1, len(coef))
            if cand.powers[j] == cand.powers[k] and cancels(coef, j, k)
        ]

    def without_terms(
        self, cand: Candidate, alpha: float, betas: Array, drop: tuple[int, ...]
    ) -> tuple[Candidate, float, Array] | None:
        """The model without the terms ``drop`` at the remaining orders (None: nothing left)."""
        keep = [j for j in range(len(cand.powers)) if j not in drop]
        if not keep:
            return None
        powers = tuple(cand.powers[j] for j in keep)
        obj = self.objective(cand.mode, powers)
        kept = np.asarray(betas, dtype=float)[keep]
        return (
            obj.candidate(np.array(([alpha] if obj.fractional else []) + list(kept))),
            alpha,
            kept,
        )

    def merge_twin(
        self, cand: Candidate, alpha: float, betas: Array
    ) -> tuple[Candidate, float, Array] | None:
        """One same-sign twin merged (``refine.twins = "merge"``, ours): of the closest pair of
        terms of one kind whose orders lie within the trust region and whose coefficients share
        a sign, the smaller term is dropped and the rest re-polished; None without such a pair.
        A near-cancelling opposite-sign pair inside the trust region is merged the same way:
        ``c1 X^b1 - c2 X^b2`` with ``b1 ~ b2`` is ``(c1 - c2) X^b`` plus ``c1 (b1 - b2) log|k|
        X^b``, again no operator of the class (e.g. ``+2.09 R^1.5492 - 1.97 R^1.5492`` for
        ``0.12 R^1.55``).

        Two such terms are one operator split in two: ``c1 X^b1 + c2 X^b2`` with
        ``|b1 - b2| <= delta`` is ``(c1 + c2) X^b`` plus a correction of order ``(b1 - b2)^2``
        in ``log|k|`` that no equation of the model class means, yet it lowers E_fit on clean
        data by fitting the data's discretisation (docs/method/extensions.md#same-sign-twins).
        """
        b = np.asarray(betas, dtype=float)
        close = close_pairs(cand.powers, b, self.trust_radius())
        if not close:
            return None  # the signs need a fit only when some pair is close
        coef = self.exact_fit(cand.mode, alpha, cand.powers, b, self.refit_ridge)[0]
        drop = twin_to_drop(close, coef)
        if drop is None:
            return None
        powers = cand.powers[:drop] + cand.powers[drop + 1 :]
        obj = self.objective(cand.mode, powers)
        kept = np.delete(b, drop)
        smaller = obj.candidate(np.array(([alpha] if obj.fractional else []) + list(kept)))
        a_p, b_p = self.polish(smaller)
        return smaller, a_p, b_p

    def refine(self, cand: Candidate) -> tuple[Candidate, Equation, float]:
        """Prune, polish, eliminate and refit one model at its exact orders (paper Secs.
        4.4-4.5; backward elimination is ours, :meth:`eliminate`).

        Returns the refined model as a :class:`Candidate` whose errors are the exact-feature
        train/validation errors (paper Eq. 21 on the same row split, refit ridge), the final
        equation and its all-row relative residual ``E_fit``. A polished fractional order
        sitting on the branch bound next to 1 is compared with the integer branch, and orders on
        the smallest positive order with the identity (:mod:`weakpareto.method.alternatives`);
        the simpler model is kept unless the other lowers ``log10 E_fit`` by more than the
        selection margin (one extra parameter).
        """
        pruned = self.prune(cand)
        alpha, betas = self.polish(pruned)
        reduced = self.eliminate(pruned, alpha, betas)
        if reduced is not None:
            pruned, alpha, betas = reduced
        final, fit = self.refit(pruned, alpha, betas)
        for alternative in (integer_alternative, identity_alternative):
            alt = alternative(self, pruned, alpha, betas)
            if alt is None:
                continue
            a_alt, b_alt = self.polish(alt)
            final_alt, fit_alt = self.refit(alt, a_alt, b_alt)
            if np.log10(fit_alt + EPS_REL) - np.log10(fit + EPS_REL) <= self.cfg.selection.margin:
                pruned, alpha, betas, final, fit = alt, a_alt, b_alt, final_alt, fit_alt
        ev = self.exact_evaluation(pruned.mode, alpha, pruned.powers, betas, self.refit_ridge)
        betas_t = tuple(float(b) for b in betas)
        refined = Candidate.from_evaluation(pruned.mode, float(alpha), pruned.powers, betas_t, ev)
        self._refined[refined] = (final, fit)
        if self.noise is not None:
            self._noise_floor[refined] = self.residual_noise(
                pruned.mode, alpha, pruned.powers, betas
            )
        return refined, final, fit

    def run(self, progress: ProgressFn | None = None) -> DiscoveryResult:
        best_by_c, chosen = self.sweep(progress)
        t0 = time.perf_counter()
        selected = best_by_c[chosen]
        if self.cfg.selection.refine_front:
            final, fit = self._refined[selected]
        else:
            pruned = self.prune(selected)
            alpha, betas = self.polish(pruned)
            final, fit = self.refit(pruned, alpha, betas)
        self.timings["refine"] = time.perf_counter() - t0
        self.timings["n_rows"] = float(self.banks.n_rows)
        self.timings["n_evals"] = float(self.n_evals)
        self.timings["sizes_searched"] = float(len(best_by_c))
        n_val = self.tables.val.n
        # With refine_front a searched size may refine to fewer terms: the front keeps the best
        # refined model per number of terms (for the paper's path this is the identity).
        best_per_size: dict[int, Candidate] = {}
        for m in best_by_c:
            if m.size not in best_per_size or m.val_error < best_per_size[m.size].val_error:
                best_per_size[m.size] = m
        models = [best_per_size[s] for s in sorted(best_per_size)]
        front = []
        for m in models:
            aic, bic = m.information_criteria(n_val)
            front.append(
                FrontPoint(
                    m.size, m.train_error, m.val_error, m.objective, aic, bic,
                    m.equation(self.cfg.operator),
                )
            )  # fmt: skip
        sizes = np.array([m.size for m in models])
        errs = np.array([m.val_error for m in models])
        on_front = tuple(int(sizes[i]) for i in pareto_front(sizes, errs))
        return DiscoveryResult(
            front=tuple(front),
            pareto=on_front,
            selected_size=selected.size,
            selected=selected.equation(self.cfg.operator),
            final=final,
            fit_error=fit,
            timings=dict(self.timings),
            gain_floor=None if self.noise is None else self.selected_floor(selected),
            search_ridge=None if self.noise is None else self.cfg.search.ridge,
        )


def discover(
    source: FeatureSource, cfg: DiscoveryConfig, progress: ProgressFn | None = None
) -> DiscoveryResult:
    """Run Weak-Pareto (Algorithm 1) on a feature source."""
    return Discovery(source, cfg).run(progress)
