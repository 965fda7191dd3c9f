"""Benchmark data: generators and shipped files behind ``conf/benchmark/*.yaml``, noise laws.

``generators`` (dispatch on ``generator.kind``; the truth block is the single source of the
equation), ``catalogue`` (configs, grids, the frozen ``Field``), ``burgers``/``kdv``/``ks``
(pseudospectral solvers), ``windows`` (non-periodic windows and a finite-domain solver),
``noise`` (multiplicative and additive Gaussian noise; docs/method/benchmarks.md).
"""
