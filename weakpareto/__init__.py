"""weakpareto: weak-form, continuous-order Pareto discovery of fractional PDEs."""

__version__ = "0.1.0"

from weakpareto.estimator import WeakPareto  # noqa: E402

__all__ = ["WeakPareto", "__version__"]
