"""The fit layer: one path from a field and a :class:`~weakpareto.fit.spec.FitSpec` to a result.

``spec`` (the settings, one translation for both doors), ``sources`` (registry of feature
sources), ``kinds`` (registry of method kinds), ``domain`` (periodic or bounded, integer
snapping), ``run`` (``fit`` and ``bootstrap_fit``), ``checks`` (post-fit diagnostics and the noise
estimate). ``wp run`` and ``WeakPareto``/``wp discover`` are adapters that build a spec and call
:func:`weakpareto.fit.run.fit`; see docs/architecture.md.
"""
