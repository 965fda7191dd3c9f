"""The forcing terms' elimination by the gain rule (weakpareto/fit/forcing.py)."""

import numpy as np

from weakpareto.fit.forcing import eliminate_forcing
from weakpareto.method.settings import DiscoveryConfig


def test_keeps_the_needed_forcing_and_drops_the_unrelated_one():
    """y = 2 x + 0.5 f (+ tiny noise): f is kept with its coefficient, an unrelated g dropped."""
    rng = np.random.default_rng(0)
    x, f, g = rng.standard_normal((3, 400))
    y = 2.0 * x + 0.5 * f + 1e-6 * rng.standard_normal(400)
    cfg = DiscoveryConfig((0.5, 1.5), (0.5, 2.0))
    kept, coef, err = eliminate_forcing(
        y, x[:, None], np.column_stack([f, g]), float(np.linalg.norm(y)), cfg, 0.0
    )
    assert kept == [0]
    np.testing.assert_allclose(coef, [2.0, 0.5], rtol=1e-5)
    assert err < 1e-5
    kept, coef, _ = eliminate_forcing(
        2.0 * x, x[:, None], np.column_stack([f, g]), float(np.linalg.norm(2 * x)), cfg, 0.0
    )
    assert kept == [] and np.allclose(coef, [2.0])
