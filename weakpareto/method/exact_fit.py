"""Fits at exact orders: the direct target and design of one model (no order interpolation), the
column-normalised ridge and the relative residual (paper Eqs. 20, 22 and Sec. 5.1)."""

from __future__ import annotations

import numpy as np

from weakpareto._typing import Array
from weakpareto.library.gram import EPS_REL, FeatureSource
from weakpareto.records import Mode


def fit_rows(y: Array, x: Array, ridge: float) -> Array:
    """Column-normalised ridge (paper Eqs. 20, 22) on all given rows; ``ridge = 0`` is ordinary
    least squares (solved by SVD, not the normal equations, so it stays accurate when columns
    are nearly collinear)."""
    scale = np.linalg.norm(x, axis=0)
    scale = np.where(scale > 0.0, scale, 1.0)
    xn = x / scale
    if ridge == 0.0:
        return np.linalg.lstsq(xn, y, rcond=None)[0] / scale
    c = x.shape[1]
    return np.linalg.solve(xn.T @ xn + ridge * np.eye(c), xn.T @ y) / scale


def relative_residual(y: Array, x: Array, coef: Array, eps: float = EPS_REL) -> float:
    """``||y - X xi|| / (||y|| + eps)``: the polishing objective and E_fit (paper Sec. 5.1)."""
    return float(np.linalg.norm(y - x @ coef) / (np.linalg.norm(y) + eps))


def exact_system(
    source: FeatureSource, mode: Mode, alpha: float, powers: tuple[int, ...], betas: Array
) -> tuple[Array, Array]:
    """Target and design evaluated directly at the given orders (no interpolation)."""
    y = source.targets(np.array([alpha]), mode)[0]
    x = np.stack([source.columns(p, np.array([b]))[0] for p, b in zip(powers, betas)], axis=1)
    return y, x
