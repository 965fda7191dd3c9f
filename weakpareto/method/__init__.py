"""Algorithm 1 of the paper and what it needs (docs/method/search.md).

``settings`` (the typed settings with conf/'s defaults), ``discovery`` (sweep, selection, prune,
polish, refit; ``discovery_2d``), ``search`` and ``lockstep_de`` (continuous-order search,
SciPy-exact DE), ``selection`` (elbow, AIC/BIC, gain), ``noise_correction``, ``uncertainty``
(block bootstrap engine) and ``intervals`` (bootstrap of an equation, calibration,
identifiability criteria), ``kelvin`` (the fractional Kelvin creep fit of ``wp kelvin``).
"""
