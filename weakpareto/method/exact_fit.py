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
    """Target and design evaluated directly at the given orders (no interpolation), with the
    source's nuisance directions at this order profiled out where it has them
    (:func:`profiled`)."""
    y = source.targets(np.array([alpha]), mode)[0]
    x = np.stack([source.columns(p, np.array([b]))[0] for p, b in zip(powers, betas)], axis=1)
    return profiled_system(source, mode, alpha, y, x)


def profiled_system(
    source: FeatureSource, mode: Mode, alpha: float, y: Array, x: Array
) -> tuple[Array, Array]:
    """A target ``(K,)`` and design ``(K, c)`` of order ``alpha`` profiled as :func:`profiled`."""
    if not hasattr(source, "profile_rows"):
        return y, x
    stacked = np.vstack([np.asarray(y)[None], np.asarray(x).T])
    out = profiled(source, mode, alpha, stacked)
    if out is stacked:  # nothing profiled: the inputs themselves (same bits downstream)
        return y, x
    return out[0], np.ascontiguousarray(out[1:].T)


def profiled(source: FeatureSource, mode: Mode, alpha: float, vectors: Array) -> Array:
    """Weak-row vectors ``(G, K)`` with the source's order-dependent nuisance directions
    removed (the super-unit ``u'(0)`` of an exact-target library,
    :meth:`weakpareto.library.weak_exact.ExactTimeWeakLibrary.profile_rows`); ``vectors``
    itself (the same object) where nothing is profiled."""
    profile = getattr(source, "profile_rows", None)
    return vectors if profile is None else np.asarray(profile(mode, alpha, vectors))
