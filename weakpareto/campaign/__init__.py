"""``wp run``, ``wp generate``, ``wp bench``, ``wp status``, ``wp compact``: the paper's campaign.

Hydra composition and validation (``compose``, ``config``, ``schema``, ``overrides``), the run
config as a fit spec (``compute``, the adapter of the fit layer), seeds, workers and claims
(``runner``, ``pool``, ``seed_claims``, ``chunks``, ``launch``), the Parquet store and provenance
(``store``, ``dataset``, ``columns``, ``compact``, ``provenance``), benchmarks (``bench*``).
"""
