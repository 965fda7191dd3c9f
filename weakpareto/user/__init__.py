"""The users' door: ``WeakPareto`` (``estimator``), ``wp discover``, ``wp kelvin``.

Input loading and checks (``loading``, ``validation``, ``checked_data``, ``limits``, ``paths``;
several experiments of one equation: ``experiments``),
unit scaling (``scaling``), the report of a fit in the data's units (``uncertainty``,
``serialise``, ``long_tables``, ``front_plot``). The fit itself is ``weakpareto.fit``.
"""
