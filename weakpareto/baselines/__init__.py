"""The paper's comparators, each a method kind of the fit layer (``weakpareto.fit.kinds``).

``grid_stridge`` (Weak Grid-STRidge, the paper's ablation, and its fixed-dictionary stability
variant), ``yu_core`` with ``yu_spline``/``yu_neural`` (Yu et al.'s pipeline on a spline or a
neural reconstruction of the field; docs/method/baselines.md).
"""
