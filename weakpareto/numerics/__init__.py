"""numpy/scipy only: operators and their adjoints (L1 Caputo, super-unit, Riesz, directional,
Grünwald–Letnikov), test functions and widths, order grids and branches, exact weak Caputo
derivatives on bumps, Mittag-Leffler (docs/method/operators.md, test-functions.md)."""
