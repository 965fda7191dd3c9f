"""Rows of several experiments in the method: the per-experiment train/validation split and the
bootstrap that resamples whole experiments as well as tiles."""

from __future__ import annotations

import numpy as np

from weakpareto.library.pooled import PooledSource
from weakpareto.library.weak import weak_library
from weakpareto.method.search import MIN_SPLIT_ROWS, experiment_split, train_val_split
from weakpareto.method.tiles import (
    experiment_counts,
    resample_counts,
    tile_layout,
)


def test_one_experiment_split_is_the_paper_split():
    for n in (7, 640, 1320):
        for a, b in zip(experiment_split((n,), 0.2, 5), train_val_split(n, 0.2, 5), strict=True):
            np.testing.assert_array_equal(a, b)


def test_split_per_experiment_mixes_the_validation_rows():
    counts = (640, 300, 500)
    train, val = experiment_split(counts, 0.2, 3)
    starts = np.cumsum((0,) + counts)
    assert np.intersect1d(train, val).size == 0 and train.size + val.size == sum(counts)
    for k, n in enumerate(counts):
        mine = val[(val >= starts[k]) & (val < starts[k + 1])] - starts[k]
        np.testing.assert_array_equal(mine, train_val_split(n, 0.2, 3)[1])  # its own split


def test_split_of_too_small_experiments_is_over_all_rows():
    counts = (MIN_SPLIT_ROWS - 1, 400)
    for a, b in zip(
        experiment_split(counts, 0.2, 0), train_val_split(sum(counts), 0.2, 0), strict=True
    ):
        np.testing.assert_array_equal(a, b)


def test_experiment_counts_resample_experiments_then_tiles():
    tiles = (4, 6, 5)
    whole = experiment_counts(tiles, 300, 1, whole=True)
    starts = np.cumsum((0,) + tiles)
    per_exp = np.stack([whole[:, starts[k] : starts[k + 1]].sum(axis=1) for k in range(3)], 1)
    # every drawn copy of experiment k brings exactly tiles[k] tile draws
    copies = per_exp / np.array(tiles)
    np.testing.assert_array_equal(copies, np.round(copies))
    np.testing.assert_array_equal(copies.sum(axis=1), np.full(300, 3.0))
    assert (copies == 0).any()  # some resamples leave an experiment out
    kept = experiment_counts(tiles, 300, 1, whole=False)
    for k in range(3):  # stratified: each experiment keeps its number of tiles
        np.testing.assert_array_equal(kept[:, starts[k] : starts[k + 1]].sum(axis=1), tiles[k])


def test_tile_layout_of_a_pool_tiles_each_experiment_on_its_own_grid():
    rng = np.random.default_rng(0)
    libs = []
    for nt, nx in ((30, 32), (40, 48), (25, 32)):
        t, x = 0.02 * np.arange(nt), np.arange(nx) * (2 * np.pi / nx)
        u = 1 + np.sin(x)[None] * np.exp(-t)[:, None] + 0.01 * rng.standard_normal((nt, nx))
        libs.append(weak_library(u, t, x, operator="riesz", test_counts=(10, 12)))
    one = tile_layout(libs[0], None, 0.1)
    pooled = tile_layout(PooledSource(tuple(libs)), None, 0.1)
    assert pooled.shapes == ((10, 12),) * 3 and pooled.experiments_resampled
    assert pooled.blocks[0] == one.blocks[0] and pooled.tiles[0] == one.tiles[0]
    np.testing.assert_array_equal(pooled.labels[:120], one.labels)
    assert pooled.labels.size == 360 and pooled.labels.max() + 1 == pooled.n_tiles
    np.testing.assert_array_equal(one.resample(20, 4), resample_counts(one.n_tiles, 20, 4))
    assert not tile_layout(PooledSource(tuple(libs[:2])), None, 0.1).experiments_resampled
