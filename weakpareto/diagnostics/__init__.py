"""Studies beside discovery: conditioning of the weak system, forward validation of discovered
equations, local identifiability (S_beta), verification of the paper's appendix checks, the
temporal profile (docs/method/diagnostics.md)."""
