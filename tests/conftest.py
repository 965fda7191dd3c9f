"""Shared fixtures: the shipped FADE field on its grid."""

from __future__ import annotations

from importlib import resources

import numpy as np
import pytest


@pytest.fixture(scope="session")
def fade_field() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    path = resources.files("weakpareto") / "data" / "fade_tsfade_fft.dat"
    u = np.loadtxt(str(path))
    return u, 0.1 * np.arange(u.shape[0]), 0.25 * np.arange(u.shape[1])


@pytest.fixture(scope="session")
def noisy_fade(fade_field):
    u, t, x = fade_field
    rng = np.random.default_rng(0)
    return u * (1 + 0.1 * rng.uniform(-1, 1, u.shape)), t, x
