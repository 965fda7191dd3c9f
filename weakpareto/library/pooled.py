"""Several experiments of one equation as one feature source: their weak rows stacked.

Measured data often come as several experiments of the same equation (other initial conditions,
lengths or grids). Each experiment has its own weak system ``b_k(m, alpha) = Theta_k(p, beta) xi``
on its own test functions; one equation (shared alpha, orders and coefficients) holds on all of
them, so the pooled system is the row-concatenation

    [b_1; b_2; ...] = [Theta_1; Theta_2; ...] xi

and :class:`PooledSource` evaluates exactly that: ``targets`` and ``columns`` of every part,
concatenated along the row axis in experiment order. Everything built on a feature source (order
banks, Gram tables, exact refits, diagnostics, the bootstrap) then runs unchanged on the pooled
rows; what needs to know which row belongs to which experiment (the per-experiment
train/validation split, the bootstrap's tiles and experiment resampling) reads
:func:`parts_of` and :func:`row_counts`, for which a single source is a pool of one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from weakpareto._typing import Array
from weakpareto.library.gram import FeatureSource
from weakpareto.records import Mode


@dataclass(frozen=True)
class PooledSource:
    """The stacked weak rows of several experiments' feature sources (module docstring).

    Rows ``offsets[k] : offsets[k] + row_counts[k]`` are experiment ``k``'s, in its own order.
    """

    parts: tuple[FeatureSource, ...]

    def __post_init__(self) -> None:
        if len(self.parts) < 2:
            raise ValueError(f"a pooled source needs >= 2 experiments, got {len(self.parts)}")

    @property
    def n_rows(self) -> int:
        return sum(int(p.n_rows) for p in self.parts)

    @property
    def row_counts(self) -> tuple[int, ...]:
        return tuple(int(p.n_rows) for p in self.parts)

    @property
    def offsets(self) -> tuple[int, ...]:
        """First row of every experiment."""
        return tuple(int(v) for v in np.concatenate([[0], np.cumsum(self.row_counts)[:-1]]))

    def experiment_of_rows(self) -> Array:
        """Experiment index (0-based) of every pooled row ``(n_rows,)``."""
        return np.repeat(np.arange(len(self.parts)), self.row_counts)

    def targets(self, alphas: Array, mode: Mode) -> Array:
        """Weak targets of every experiment at each alpha, rows stacked: ``(G, n_rows)``."""
        return np.concatenate([np.asarray(p.targets(alphas, mode)) for p in self.parts], axis=-1)

    def columns(self, power: int, betas: Array) -> Array:
        """Weak columns of every experiment at each beta, rows stacked: ``(G, n_rows)``."""
        return np.concatenate([np.asarray(p.columns(power, betas)) for p in self.parts], axis=-1)

    def profile_rows(self, mode: Mode, alpha: float, vectors: Array) -> Array:
        """Every experiment's rows of ``vectors (G, n_rows)`` profiled by its own source (each
        has its own initial values); ``vectors`` itself where no part profiles."""
        v = np.asarray(vectors, dtype=float)
        bounds = np.cumsum((0,) + self.row_counts)
        out, changed = [], False
        for part, lo, hi in zip(self.parts, bounds[:-1], bounds[1:], strict=True):
            profile = getattr(part, "profile_rows", None)
            block = v[:, lo:hi]
            done = block if profile is None else np.asarray(profile(mode, alpha, block))
            changed = changed or done is not block
            out.append(done)
        return np.concatenate(out, axis=1) if changed else vectors


def parts_of(source: FeatureSource) -> tuple[FeatureSource, ...]:
    """The per-experiment sources of a source: its parts if pooled, else the source itself."""
    return source.parts if isinstance(source, PooledSource) else (source,)


def row_counts(source: FeatureSource) -> tuple[int, ...]:
    """Rows per experiment (one entry for a single source)."""
    return tuple(int(p.n_rows) for p in parts_of(source))
