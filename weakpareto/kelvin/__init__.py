"""The fractional Kelvin creep fit of ``wp kelvin`` (paper Sec. 5.7; docs/method/kelvin.md).

An ODE fit of a strain record that uses nothing of the PDE method: ``model`` (the Kelvin model in
integral form, its exact Mittag-Leffler creep and the order search). Kept out of the packages the
code hash reads, so editing it does not invalidate cached PDE runs; the ``wp kelvin`` door is
``weakpareto.user.kelvin_command``.
"""
