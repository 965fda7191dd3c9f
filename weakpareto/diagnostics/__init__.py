"""Studies beside discovery: conditioning of the weak system, forward validation of discovered
equations, local identifiability (S_beta), verification of the paper's appendix checks, the
temporal profile (docs/method/diagnostics.md), and the one-step mode regression that bounds what a
particle density can tell (docs/independent-suite.md#how-much-a-particle-density-can-tell)."""
