"""Monte-Carlo checks of paper App. "Discrete operators and numerical verification".

Two feature-level checks, each with its deterministic prediction next to the Monte-Carlo value:

* :func:`variance_scaling` — Proposition ``prop:variance``
  (docs/method/diagnostics.md#variance-scaling-check). On the unit square with ``n_t = n_x = n``
  points (``h = 1/n``, ``t = x = arange(n) h``) and a *fixed* smooth periodic separable test
  ``phi = rho(t) psi(x)``, ``rho = sin 2 pi t + 0.5 cos 4 pi t``,
  ``psi = cos 2 pi x + 0.3 sin 6 pi x``, and the real multiplier ``|kappa|**beta`` (no sign or
  phase, zero mode 0), standard-Gaussian noise fields ``eta`` give

  - the weak sample ``h**2 sum_ij eta_ij rho_i (A* psi)_j`` with variance ``O(n**-2)``
    (Prop. variance (i): ``h_t h_x ||omega||_h**2``), and
  - the pointwise sample ``(A eta[0, :])_0`` (spectral derivative of the first time row at
    ``x_0``) with variance ``(1/n) sum_l |kappa_l|**(2 beta) ~ n**(2 beta)`` (Prop. variance
    (ii)).

  The slopes of ``log var`` against ``log n`` are fitted by least squares (paper: ``-2.01``
  and ``2.97`` for ``beta = 1.5``; predicted ``-2`` and ``2 beta = 3``). The exact variances
  (the "independent deterministic calculation" of the paper) are reported as well.

* :func:`nonlinear_bias` — Remark ``rem:nonlinear-bias``
  (docs/method/diagnostics.md#nonlinear-bias-check). 1-D periodic directional operator matrix ``A``
  (``L = 2 pi``), weak quadratic feature ``F(u) = h u^T A^T D_phi u`` with ``phi`` the
  (unnormalised) periodic Gaussian centred at ``pi`` with width ``0.7`` and
  ``u* = 1 + 0.25 cos x + 0.15 sin 2x``. Under additive noise ``u = u* + sigma Z`` (``sigma = 0.2``)
  the exact bias is ``sigma**2 h tr(A^T D_phi)``; under multiplicative noise
  ``u = u* (1 + rho zeta)``, ``zeta ~ U[-1, 1]`` (``rho = 0.2``) it is
  ``rho**2 (1/3) h tr(D_u A^T D_phi D_u)``. The Monte-Carlo mean of ``F(u) - F(u*)`` and its
  standard error are reported with the predictions (paper, ``beta = 1.7``, ``n = 64, 128, 256``:
  additive ``-8.39, -27.25, -88.52`` predicted vs ``-8.36, -27.23, -88.60`` observed; multiplicative
  ``-1.85, -6.02, -19.55`` vs ``-1.85, -6.03, -19.58``).

Random streams follow the reference checks: one ``numpy.random.default_rng(seed)`` per check; the
variance check draws, for each ``n`` in order, its fields in batches; the bias check draws, for each
``n`` and then each ``beta``, all additive samples and then all multiplicative samples. Batch sizes
only bound memory: numpy's Generator fills arrays sequentially, so the samples do not depend on
them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from weakpareto._typing import Array
from weakpareto.numerics import operators as ops

#: Paper values (App. "Discrete operators and numerical verification").
PAPER_VARIANCE_SLOPES = {"weak": -2.01, "pointwise": 2.97}
PAPER_BIAS_BETA = 1.7
PAPER_BIAS = {  # n -> (predicted, observed)
    "additive": {64: (-8.39, -8.36), 128: (-27.25, -27.23), 256: (-88.52, -88.60)},
    "multiplicative": {64: (-1.85, -1.85), 128: (-6.02, -6.03), 256: (-19.55, -19.58)},
}

#: Defaults of the two checks (docs/method/diagnostics.md#variance-scaling-check,
#: #nonlinear-bias-check).
VARIANCE_NS: tuple[int, ...] = (24, 32, 48, 64, 96)
VARIANCE_SAMPLES = 2000
BIAS_NS: tuple[int, ...] = (64, 128, 256)
BIAS_BETAS: tuple[float, ...] = (1.0, 1.7)
BIAS_SAMPLES: tuple[int, ...] = (10000, 10000, 5000)
ADDITIVE_SIGMA = 0.2
MULTIPLICATIVE_RHO = 0.2
UNIFORM_VARIANCE = 1.0 / 3.0  # Var(zeta) for zeta ~ U[-1, 1]
GAUSSIAN_CENTRE = np.pi
GAUSSIAN_WIDTH = 0.7
DEFAULT_BATCH = 100


def _batches(total: int, batch: int) -> list[int]:
    if total < 2:
        raise ValueError(f"need at least 2 Monte-Carlo samples, got {total}")
    if batch < 1:
        raise ValueError(f"batch must be positive, got {batch}")
    full, rest = divmod(int(total), int(batch))
    return [batch] * full + ([rest] if rest else [])


def operator_matrix(multiplier: NDArray[np.complex128] | Array) -> Array:
    """Dense matrix of ``f -> Re IFFT(multiplier * FFT f)`` (columns = images of unit vectors)."""
    n = np.asarray(multiplier).shape[-1]
    # apply_multiplier acts along the last axis; rows of the identity give A^T, so transpose.
    return np.ascontiguousarray(ops.apply_multiplier(np.eye(n), multiplier).T)


def loglog_slope(ns: ArrayLike, values: ArrayLike) -> float:
    """Least-squares slope of ``log(values)`` against ``log(ns)``."""
    x, y = np.log(np.asarray(ns, dtype=float)), np.log(np.asarray(values, dtype=float))
    return float(np.polyfit(x, y, 1)[0])


# -- Proposition variance -------------------------------------------------------------------
def _variance_setup(n: int, beta: float) -> tuple[Array, Array, float]:
    """Weak weights ``h**2 rho (x) A* psi`` ``(n, n)``, first row of ``A`` ``(n,)`` and ``h``."""
    h = 1.0 / n
    grid = np.arange(n) * h
    rho = np.sin(2 * np.pi * grid) + 0.5 * np.cos(4 * np.pi * grid)
    psi = np.cos(2 * np.pi * grid) + 0.3 * np.sin(6 * np.pi * grid)
    mult = np.abs(ops.wavenumbers(n, 1.0)) ** float(beta)  # |kappa|^beta, zero mode 0
    adj_psi = ops.apply_multiplier_adjoint(psi, mult)
    weights = h * h * np.outer(rho, adj_psi)
    row0 = operator_matrix(mult)[0]
    return weights, row0, h


def variance_scaling(
    ns: Sequence[int] = VARIANCE_NS,
    n_samples: int = VARIANCE_SAMPLES,
    beta: float = 1.5,
    seed: int = 0,
    batch: int = DEFAULT_BATCH,
) -> pd.DataFrame:
    """Monte-Carlo check of Proposition variance: one row per grid ``n``.

    Columns: ``n``, ``h``, ``beta``, ``n_samples``; Monte-Carlo sample variances (``ddof=1``)
    ``var_weak``, ``var_pointwise``; their exact values ``var_weak_exact`` (``h**4 sum w**2``
    with unit noise variance) and ``var_pointwise_exact`` (``sum_j A_0j**2 = (1/n) sum_l
    |kappa_l|**(2 beta)``); the log-log slopes over all grids ``slope_weak``,
    ``slope_pointwise``, ``slope_weak_exact``, ``slope_pointwise_exact`` (repeated on every row)
    and the predictions ``slope_weak_predicted = -2``, ``slope_pointwise_predicted = 2 beta``.
    """
    ns = [int(n) for n in ns]
    if len(ns) < 2:
        raise ValueError("variance_scaling needs at least two grids to fit a slope")
    rng = np.random.default_rng(seed)
    rows = []
    for n in ns:
        weights, row0, h = _variance_setup(n, beta)
        weak, point = [], []
        for b in _batches(n_samples, batch):
            eta = rng.standard_normal((b, n, n))
            weak.append(np.einsum("sij,ij->s", eta, weights, optimize=True))
            point.append(eta[:, 0, :] @ row0)
        rows.append(
            {
                "n": n,
                "h": h,
                "beta": float(beta),
                "n_samples": int(n_samples),
                "var_weak": float(np.var(np.concatenate(weak), ddof=1)),
                "var_pointwise": float(np.var(np.concatenate(point), ddof=1)),
                "var_weak_exact": float(np.sum(weights**2)),
                "var_pointwise_exact": float(np.sum(row0**2)),
            }
        )
    df = pd.DataFrame(rows)
    for col in ("weak", "pointwise"):
        df[f"slope_{col}"] = loglog_slope(df["n"], df[f"var_{col}"])
        df[f"slope_{col}_exact"] = loglog_slope(df["n"], df[f"var_{col}_exact"])
    df["slope_weak_predicted"] = -2.0
    df["slope_pointwise_predicted"] = 2.0 * float(beta)
    return df


# -- Remark nonlinear-bias ------------------------------------------------------------------
def _bias_setup(n: int, beta: float) -> tuple[Array, Array, Array, float]:
    """``(M = A^T D_phi, u*, phi, h)`` of the quadratic feature ``F(u) = h u^T M u``."""
    length = 2.0 * np.pi
    h = length / n
    x = np.arange(n) * h
    d = (x - GAUSSIAN_CENTRE + 0.5 * length) % length - 0.5 * length  # wrapped to [-L/2, L/2)
    phi = np.exp(-0.5 * (d / GAUSSIAN_WIDTH) ** 2)
    u_star = 1.0 + 0.25 * np.cos(x) + 0.15 * np.sin(2.0 * x)
    a = operator_matrix(ops.directional_multiplier(ops.wavenumbers(n, length), float(beta)))
    return a.T * phi[None, :], u_star, phi, h


def _feature(u: Array, m: Array, h: float) -> Array:
    """``h u^T M u`` for a batch ``u (S, n)``."""
    return h * np.einsum("si,si->s", u @ m.T, u, optimize=True)


def _per_grid(n_samples: int | Sequence[int], count: int) -> list[int]:
    if isinstance(n_samples, int | np.integer):
        return [int(n_samples)] * count
    out = [int(s) for s in n_samples]
    if len(out) != count:
        raise ValueError(f"n_samples has {len(out)} entries for {count} grids")
    return out


def nonlinear_bias(
    ns: Sequence[int] = BIAS_NS,
    betas: Sequence[float] = BIAS_BETAS,
    n_samples: int | Sequence[int] = BIAS_SAMPLES,
    seed: int = 0,
    sigma: float = ADDITIVE_SIGMA,
    rho: float = MULTIPLICATIVE_RHO,
    batch: int = 500,
) -> pd.DataFrame:
    """Monte-Carlo check of Remark nonlinear-bias: one row per (``n``, ``beta``, noise law).

    ``n_samples`` is one count for every grid or one per grid (paper: 10000, 10000, 5000).
    Columns: ``n``, ``h``, ``beta``, ``noise`` (``additive`` / ``multiplicative``), ``level``
    (``sigma`` or ``rho``), ``n_samples``, ``clean_feature`` ``F(u*)``, ``predicted`` (trace
    formula), ``observed`` (mean of ``F(u) - F(u*)``), ``std_error`` (sample SD / sqrt(S)),
    ``z`` = (observed - predicted) / std_error, and ``leading_order`` — the asymptotic
    additive bias ``sigma**2 cos(pi beta/2) pi**beta/(beta+1) h**-beta h sum phi`` of the
    remark (NaN for the multiplicative rows).
    """
    ns = [int(n) for n in ns]
    counts = _per_grid(n_samples, len(ns))
    rng = np.random.default_rng(seed)
    rows = []
    for n, total in zip(ns, counts, strict=True):
        for beta in betas:
            m, u_star, phi, h = _bias_setup(n, float(beta))
            clean = float(_feature(u_star[None], m, h)[0])
            diag = np.diag(m)  # (A^T D_phi)_jj = A_jj phi_j
            predicted = {
                "additive": sigma**2 * h * float(np.sum(diag)),
                "multiplicative": rho**2 * UNIFORM_VARIANCE * h * float(np.sum(diag * u_star**2)),
            }
            leading = (
                sigma**2
                * np.cos(0.5 * np.pi * beta)
                * np.pi**beta
                / (beta + 1.0)
                * h ** (-beta)
                * h
                * float(np.sum(phi))
            )
            for law, level in (("additive", sigma), ("multiplicative", rho)):
                samples = []
                for b in _batches(total, batch):
                    if law == "additive":
                        u = u_star + sigma * rng.standard_normal((b, n))
                    else:
                        u = u_star * (1.0 + rho * rng.uniform(-1.0, 1.0, (b, n)))
                    samples.append(_feature(u, m, h) - clean)
                s = np.concatenate(samples)
                se = float(np.std(s, ddof=1) / np.sqrt(s.size))
                observed = float(np.mean(s))
                rows.append(
                    {
                        "n": n,
                        "h": h,
                        "beta": float(beta),
                        "noise": law,
                        "level": float(level),
                        "n_samples": int(total),
                        "clean_feature": clean,
                        "predicted": predicted[law],
                        "observed": observed,
                        "std_error": se,
                        "z": (observed - predicted[law]) / se if se > 0 else np.nan,
                        "leading_order": float(leading) if law == "additive" else np.nan,
                    }
                )
    return pd.DataFrame(rows)


def compare_with_paper(variance: pd.DataFrame, bias: pd.DataFrame) -> list[str]:
    """Human-readable paper-vs-ours lines (paper precision: 2 decimals)."""
    lines = ["Prop. variance (log-log slopes):"]
    for col in ("weak", "pointwise"):
        ours = float(variance[f"slope_{col}"].iloc[0])
        exact = float(variance[f"slope_{col}_exact"].iloc[0])
        pred = float(variance[f"slope_{col}_predicted"].iloc[0])
        lines.append(
            f"  {col:9s} paper {PAPER_VARIANCE_SLOPES[col]:+.2f}  ours MC {ours:+.2f}  "
            f"exact {exact:+.3f}  predicted {pred:+.0f}"
        )
    lines.append(f"Remark nonlinear-bias (beta = {PAPER_BIAS_BETA}; predicted / observed):")
    for law, per_n in PAPER_BIAS.items():
        for n, (p_pred, p_obs) in per_n.items():
            row = bias[
                (bias["noise"] == law)
                & (bias["n"] == n)
                & np.isclose(bias["beta"], PAPER_BIAS_BETA)
            ]
            if row.empty:
                continue
            r = row.iloc[0]
            lines.append(
                f"  {law:14s} n={n:3d}  paper {p_pred:7.2f} / {p_obs:7.2f}  "
                f"ours {r['predicted']:7.2f} / {r['observed']:7.2f}  (SE {r['std_error']:.2f})"
            )
    return lines
