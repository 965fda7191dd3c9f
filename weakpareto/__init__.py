"""weakpareto: weak-form, continuous-order Pareto discovery of fractional PDEs."""

__version__ = "0.1.0"
