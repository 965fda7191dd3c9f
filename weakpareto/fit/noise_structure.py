"""Is the noise white in time? A check for noise that moves with the dynamics.

The weak form separates signal from noise by smoothness: white measurement noise averages out of
every test integral and its errors-in-variables share can be corrected
(docs/method/extensions.md#noise-aware-scoring). Noise that is correlated in time is not
separable that way. The typical case is a density histogrammed from moving particles: the
counting noise at one frame is carried by the same particles to the next, so the fluctuations
themselves obey the equation (plus a conservative forcing). Stationary fluctuations are
time-reversible, so to a weak fit they look like modes with no dynamics: they inflate the high
spatial-order columns without a matching target, and the highest order comes out low
(docs/independent-suite.md#particle-densities: Brownian particles, N = 1e5, true order 2, fitted
1.79-1.91 over four seeds; the same counting noise drawn independently per frame gives 1.994).

The test compares the noise level read along time with the level read along space. For every
axis the k-th finite difference of white noise of variance ``s^2`` has variance
``C(2k, k) s^2``, so ``v_k = mean((Delta^k u)^2) / C(2k, k)`` is the same for ``k = 2..6``
where the axis is noise-dominated (a resolved signal makes ``v_k`` fall with ``k``, a signal rough
on the grid makes it rise). Where space reads as white noise (its highest-order ``v_k`` agree
within :data:`WHITE_SPREAD`) and the time axis reads a level below :data:`TIME_TO_SPACE` of it, the
noise at one sample is correlated with its neighbours in time: independent noise cannot be
smoother along one axis than the other. Signal along time only raises the time level, so it can
hide the pattern but never fake it. What does read the same way is a clean field that is rough at
the grid scale in x like white noise (a frozen random pattern, a grid that does not resolve it)
and changes slowly in time: for a weak fit that is correlated noise too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from weakpareto._typing import Array
from weakpareto.fit.context import FitWarning
from weakpareto.library.noise_level import DIFFERENCE_ORDERS, difference_levels

#: Finite-difference orders of the per-axis levels.
ORDERS = DIFFERENCE_ORDERS
#: Highest orders whose levels must agree for white noise.
WHITE_ORDERS = 3
#: Largest max/min ratio of the levels ``v_k`` that still reads as white noise along an axis.
WHITE_SPREAD = 1.5
#: Time level below this fraction of the space level: the noise is correlated in time (white
#: noise on both axes gives 1 within a few percent: 0.99-1.05 on the suite's 1 % and 5 % cases;
#: particle densities 0.23-0.65).
TIME_TO_SPACE = 0.8
#: Spatial noise level (relative to std(u)) below which the field counts as clean: the check
#: is about noise that matters.
MIN_LEVEL = 1e-3
#: Samples dropped at both ends of the axes a difference does not run along (half the widest
#: stencil).
EDGE = max(ORDERS) // 2


@dataclass(frozen=True)
class AxisLevels:
    """``v_k`` (k = 2..6) of one axis, relative to ``var(u)``."""

    levels: Array

    @property
    def white(self) -> bool:
        top = self.levels[-WHITE_ORDERS:]  # low orders keep some of a resolved signal
        lo, hi = float(np.min(top)), float(np.max(top))
        return lo > 0.0 and hi / lo <= WHITE_SPREAD

    @property
    def level(self) -> float:
        return float(np.min(self.levels))


def axis_levels(u: Array, axis: int, spread: float) -> AxisLevels | None:
    """Finite-difference noise levels of ``u`` along ``axis`` relative to ``spread`` (the
    field's variance); ``None``: too few samples."""
    v = np.asarray(u, dtype=float)
    if v.shape[axis] <= max(ORDERS) + 1 or not spread > 0.0:
        return None
    levels = difference_levels(v, axis)
    return AxisLevels(np.asarray([levels[k] / spread for k in ORDERS]))


def _interior(u: Array, keep: int) -> Array:
    """``u`` without ``EDGE`` samples at both ends of every axis but ``keep``: the differences
    along ``keep`` are then centred on the same samples as those along any other axis (the
    noise variance of a heteroscedastic law is averaged over the same region)."""
    index = [slice(EDGE, -EDGE) if a != keep else slice(None) for a in range(np.ndim(u))]
    return np.asarray(u, dtype=float)[tuple(index)]


def time_to_space_ratio(u: Array) -> float | None:
    """Noise level along time over the (smallest) white level along space; ``None`` when no
    spatial axis reads as white noise above :data:`MIN_LEVEL`, or an axis is too short."""
    u = np.asarray(u, dtype=float)
    if min(u.shape) <= 2 * EDGE + max(ORDERS) + 1:
        return None
    spread = float(np.var(u))
    time = axis_levels(_interior(u, 0), 0, spread)
    spaces = [axis_levels(_interior(u, a), a, spread) for a in range(1, u.ndim)]
    white = [s for s in spaces if s is not None and s.white and s.level > MIN_LEVEL**2]
    if time is None or not white:
        return None
    return time.level / min(s.level for s in white)


def check_time_correlated_noise(
    fields: Sequence[Array], intrinsic: bool = False, one_step: bool = False
) -> list[FitWarning]:
    """``correlated_noise``: noise smoother along time than along space (module docstring).
    ``intrinsic`` or ``one_step``: the final fit was already corrected for fluctuations that
    obey the dynamics (noise_kind=intrinsic, or the one-step refit of
    :mod:`weakpareto.fit.markov_refit`), so the advice names what is left (more particles,
    averaged repeats) instead of that option."""
    ratios = [r for r in (time_to_space_ratio(u) for u in fields) if r is not None]
    if not ratios or max(ratios) >= TIME_TO_SPACE:
        return []
    ratio = max(ratios)
    if one_step:
        advice = (
            "the final model was refitted frame to frame, which such noise does not bias, among "
            "the search's candidates; more particles or averaged repeats help"
        )
    elif intrinsic:
        advice = (
            "noise_kind=intrinsic corrected the final fit for fluctuations that obey the "
            "dynamics, but not the search that chose its terms; more particles or averaged "
            "repeats help"
        )
    else:
        advice = (
            "for densities of independent particles refit with noise_kind=intrinsic (corrects "
            "for fluctuations that obey the dynamics), else more particles or averaged repeats "
            "help"
        )
    return [
        FitWarning(
            "correlated_noise",
            f"the noise is correlated in time (its finite-difference level along t is "
            f"{ratio:.2f} of the level along x; white noise gives 1), as in densities of moving "
            "particles or filtered sensors: a weak fit reads such noise as dynamics, so the "
            "highest spatial order tends to come out low and intervals are too narrow; " + advice,
        )
    ]
