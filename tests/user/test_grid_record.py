"""The grid record of a fit (user/grid_record.py): which estimate the equation is."""

from __future__ import annotations

import numpy as np

from weakpareto.numerics.mittag_leffler import mittag_leffler
from weakpareto.user.estimator import WeakPareto

NX, NT = 48, 60


def subdiffusion(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``D_t^0.7 u = 0.3 R^1.5 u`` per Fourier mode, three harmonics, 1 % noise."""
    x = 2 * np.pi * np.arange(NX) / NX
    t = np.linspace(0.0, 2.0, NT)
    k = np.fft.fftfreq(NX, 1.0 / NX)
    u0 = np.sin(x) + 0.4 * np.cos(2 * x) + 0.2 * np.sin(3 * x + 1.0)
    z = np.multiply.outer(t**0.7, -0.3 * np.abs(k) ** 1.5)
    u = np.real(np.fft.ifft(mittag_leffler(z, 0.7, 1.0) * np.fft.fft(u0), axis=-1))
    return u + 0.01 * np.std(u) * np.random.default_rng(seed).standard_normal(u.shape), t, x


def test_the_json_grid_says_which_estimate_was_reported():
    u, t, x = subdiffusion(0)
    settings = {"operator": "riesz", "alpha_range": (0.4, 0.95), "beta_range": (0.5, 2.5)}
    model = WeakPareto(**settings).fit(u, t, x)
    rec = model.grid_["refit"]
    assert rec["estimate"] == "trajectory" and rec["asked"] == "auto"
    assert rec["modes"] == 3 and rec["frames"] == NT
    assert 0.0 < rec["rms_misfit"] <= rec["rms_misfit_weak"] < 0.05
    assert WeakPareto.from_json(model.to_json()).grid_["refit"] == rec
    weak = WeakPareto(refit="weak", **settings).fit(u, t, x)
    assert weak.grid_["refit"] == {"estimate": "weak", "asked": "weak"}


def test_auto_where_the_refit_is_not_defined_records_what_was_asked():
    """A bounded window admits no trajectory refit: refit=auto keeps the weak estimate, and the
    record says auto was asked."""
    u, t, x = subdiffusion(0)
    model = WeakPareto(operator="riesz", domain="bounded", alpha_range=(0.4, 0.95),
                       beta_range=(0.5, 2.0), max_terms=1).fit(u, t, x)  # fmt: skip
    assert model.grid_["refit"] == {"estimate": "weak", "asked": "auto"}
