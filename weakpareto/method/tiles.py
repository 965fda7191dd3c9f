"""Tiles of the weak equations for the block bootstrap (:mod:`weakpareto.method.bootstrap`).

Block size (:func:`block_lengths`). Along each axis the block length is the larger of

* the **test-overlap length**: 1 + the largest index lag ``L`` at which neighbouring tests still
  overlap, ``mean_l |<phi_l, phi_{l+L}>| >= overlap`` (rows are l2-normalised, so this is their
  cosine; white noise makes two rows correlated by exactly this amount). Gaussian tests of width
  ``w`` spaced ``s`` apart overlap by ``exp(-(L s)^2 / (4 w^2))``, so the block covers
  ``2 w sqrt(ln(1/overlap)) / s`` centres (overlap 0.1: about 3 widths); Fourier tests are
  orthogonal (length 1);
* the **residual correlation length**: 1 + the largest lag at which the autocorrelation of the
  point estimate's weak residual along that axis is ``>= overlap``. It captures dependence the
  tests alone do not show (the Caputo operator's memory, smooth model error).

Each length is capped at half the axis (at least two blocks per axis).

Several experiments (a :class:`weakpareto.library.pooled.PooledSource`): every experiment is
tiled on its own test grid (:func:`tile_layout`, block lengths from its own tests and residual).
With at least :data:`MIN_RESAMPLED_EXPERIMENTS` experiments a resample first draws as many
experiments as there are with replacement, then tiles with replacement inside every drawn copy
(a two-level bootstrap: the spread between experiments enters the intervals); with fewer, tiles
are drawn inside each experiment (stratified), since two experiments are too few to resample.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from weakpareto._typing import Array
from weakpareto.library.gram import FeatureSource
from weakpareto.library.pooled import parts_of

#: Fewest experiments that are themselves resampled (module docstring).
MIN_RESAMPLED_EXPERIMENTS = 3


# -- blocks ---------------------------------------------------------------------------------------
def _lag_profile(corr: Array, max_lag: int) -> Array:
    """``mean |corr[l, l+L]|`` for ``L = 0..max_lag`` of a square matrix."""
    return np.array([float(np.mean(np.abs(np.diagonal(corr, L)))) for L in range(max_lag + 1)])


def _length_from_profile(profile: Array, overlap: float) -> int:
    """1 + the largest lag whose profile value is still ``>= overlap``."""
    strong = np.flatnonzero(profile[1:] >= overlap)
    return 1 + (int(strong[-1]) + 1 if strong.size else 0)


def overlap_block_length(tests: Array, overlap: float) -> int:
    """Test-overlap length of one axis (module docstring); ``tests (K, n)``."""
    t = np.asarray(tests, dtype=float)
    norms = np.linalg.norm(t, axis=1)
    t = t / np.where(norms > 0.0, norms, 1.0)[:, None]
    k = t.shape[0]
    if k < 2:
        return 1
    return min(_length_from_profile(_lag_profile(t @ t.T, k // 2), overlap), max(1, k // 2))


def residual_block_length(resid: Array, axis: int, overlap: float) -> int:
    """Residual correlation length along ``axis`` of a residual on the test grid."""
    r = np.moveaxis(np.asarray(resid, dtype=float), axis, 0)
    k = r.shape[0]
    if k < 2:
        return 1
    r = r.reshape(k, -1)
    r = r - r.mean(axis=0, keepdims=True)
    var = float(np.sum(r * r))
    if not var > 0.0:
        return 1
    acf = np.array([float(np.sum(r[: k - L] * r[L:])) / var for L in range(k // 2 + 1)])
    return min(_length_from_profile(acf, overlap), max(1, k // 2))


def axis_tests(source: FeatureSource) -> list[Array] | None:
    """The 1-D test families of a weak library, one per axis of the test grid (or None)."""
    names = (
        ("temporal_tests", "spatial_tests"),
        ("temporal_tests", "x_tests", "y_tests"),
    )
    for group in names:
        if all(hasattr(source, n) for n in group):
            return [np.asarray(getattr(source, n)) for n in group]
    return None


def grid_shape(source: FeatureSource) -> tuple[int, ...]:
    """Shape of the test grid the rows are flattened from (row-major); one axis if unknown."""
    shape = getattr(source, "shape", None)
    if isinstance(shape, tuple) and int(np.prod(shape)) == source.n_rows:
        return tuple(int(k) for k in shape)
    return (int(source.n_rows),)


def block_lengths(
    shape: tuple[int, ...], tests: Sequence[Array] | None, resid: Array | None, overlap: float
) -> tuple[int, ...]:
    """Block length per axis: max(test overlap, residual correlation), capped at half the axis."""
    out = []
    for axis, k in enumerate(shape):
        n = 1
        if tests is not None and axis < len(tests):
            n = max(n, overlap_block_length(tests[axis], overlap))
        if resid is not None:
            n = max(n, residual_block_length(np.reshape(resid, shape), axis, overlap))
        out.append(int(min(n, max(1, k // 2))))
    return tuple(out)


def tile_labels(shape: tuple[int, ...], blocks: tuple[int, ...]) -> NDArray[np.intp]:
    """Tile id of every row (rows flattened row-major from ``shape``): non-overlapping tiles of
    ``blocks`` neighbouring test indices per axis (the last tile of an axis may be shorter)."""
    if len(shape) != len(blocks) or any(b < 1 for b in blocks):
        raise ValueError(f"blocks {blocks} do not match the grid {shape}")
    ids = np.zeros(shape, dtype=np.intp)
    for axis, (k, b) in enumerate(zip(shape, blocks)):
        n_axis = -(-k // b)
        idx = np.arange(k) // b
        view = [1] * len(shape)
        view[axis] = k
        ids = ids * n_axis + idx.reshape(view)
    return ids.reshape(-1)


def resample_counts(n_tiles: int, n_boot: int, seed: int) -> Array:
    """``(n_boot, n_tiles)`` multiplicities: each resample draws ``n_tiles`` tiles with
    replacement (seeded, deterministic)."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, n_tiles, size=(n_boot, n_tiles))
    out = np.zeros((n_boot, n_tiles), dtype=float)
    np.add.at(out, (np.arange(n_boot)[:, None], draws), 1.0)
    return out


def experiment_counts(tiles: tuple[int, ...], n_boot: int, seed: int, whole: bool) -> Array:
    """``(n_boot, sum(tiles))`` multiplicities of tiles grouped by experiment (``tiles[k]``
    tiles of experiment ``k``, numbered in experiment order). ``whole``: each resample draws
    ``len(tiles)`` experiments with replacement and, in every drawn copy, that experiment's
    tiles with replacement; otherwise every experiment's tiles are drawn inside it."""
    rng = np.random.default_rng(seed)
    starts = np.concatenate([[0], np.cumsum(tiles)[:-1]]).astype(int)
    out = np.zeros((n_boot, int(sum(tiles))), dtype=float)
    n_exp = len(tiles)
    for b in range(n_boot):
        drawn = rng.integers(0, n_exp, size=n_exp) if whole else np.arange(n_exp)
        for k in drawn:
            picks = starts[k] + rng.integers(0, tiles[k], size=tiles[k])
            np.add.at(out[b], picks, 1.0)
    return out


@dataclass(frozen=True)
class TileLayout:
    """The tiles of the (pooled) weak rows: per experiment its test grid, its block shape and
    its number of tiles; ``labels`` is the tile of every row, numbered in experiment order."""

    shapes: tuple[tuple[int, ...], ...]
    blocks: tuple[tuple[int, ...], ...]
    tiles: tuple[int, ...]
    labels: NDArray[np.intp]

    @property
    def n_tiles(self) -> int:
        return int(sum(self.tiles))

    @property
    def experiments_resampled(self) -> bool:
        return len(self.tiles) >= MIN_RESAMPLED_EXPERIMENTS

    def resample(self, n_boot: int, seed: int) -> Array:
        """``(n_boot, n_tiles)`` tile multiplicities (module docstring); one experiment is
        :func:`resample_counts`."""
        if len(self.tiles) == 1:
            return resample_counts(self.tiles[0], n_boot, seed)
        return experiment_counts(self.tiles, n_boot, seed, self.experiments_resampled)


def tile_layout(source: FeatureSource, resid: Array | None, overlap: float) -> TileLayout:
    """Tiles of every experiment of ``source`` on its own test grid; ``resid`` is the point
    estimate's residual over all rows (each experiment reads its own slice)."""
    shapes, blocks, tiles, labels = [], [], [], []
    row = tile = 0
    for part in parts_of(source):
        n = int(part.n_rows)
        r = None if resid is None else np.asarray(resid)[row : row + n]
        shape = grid_shape(part)
        blk = block_lengths(shape, axis_tests(part), r, overlap)
        lab = tile_labels(shape, blk)
        k = int(lab.max()) + 1
        shapes.append(shape)
        blocks.append(blk)
        tiles.append(k)
        labels.append(lab + tile)
        row += n
        tile += k
    return TileLayout(tuple(shapes), tuple(blocks), tuple(tiles), np.concatenate(labels))
