"""Feature sources: what a fit regresses on (docs/method/library.md).

``weak`` (Gaussian/Fourier tests, the transposed L1 target; paper Eqs. 9-13), ``weak_exact``
(exact weak Caputo target on polynomial bumps), ``weak_bounded`` (windows of larger systems),
``weak_2d``, ``strong`` (pointwise, the Strong-Pareto comparator), ``gram`` (the interface and
Gram tables), ``noise`` (noise covariance of the weak equations for noise-aware scoring).
"""
