"""Why a reproduced cell differs from the paper's, where the repository records the reason.

Each entry names a table, the rows and columns it covers (regular expressions matched against
the row and column names of the paper-vs-ours files; ``None`` covers all) and the reason, with
the document that records it. A differing cell that no entry covers is shown without a reason:
nothing is guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class KnownDifference:
    """The recorded reason for the differing cells of one table that match ``rows``/``columns``."""

    label: str
    reason: str
    source: str  # the file that records it, relative to the repository
    rows: str | None = None
    columns: str | None = None

    def covers(self, label: str, row: str, column: str) -> bool:
        return (
            label == self.label
            and (self.rows is None or re.search(self.rows, row) is not None)
            and (self.columns is None or re.search(self.columns, column) is not None)
        )


_TWOD = (
    "The 2-D extension runs the paper's method (the 1-D search unchanged), not the reference "
    "2-D script's shortcuts (one alpha grid across 1, Sobol start, no stopping, validation-"
    "objective polishing); counts are expected to agree, error digits need not."
)
_TWOD_SOURCE = "docs/method/reference-differences.md#two-dimensional-search"

KNOWN_DIFFERENCES: tuple[KnownDifference, ...] = (
    KnownDifference(
        "tab:conditioning",
        "Condition numbers of about 1e16 have sigma_min at the double-precision floor: their "
        "leading digit depends on BLAS/LAPACK rounding; only the order of magnitude is "
        "reproducible.",
        "docs/reproducing-the-paper.md#what-differs-from-the-paper",
        columns=r"^Condition number$",
    ),
    KnownDifference("tab:twod", _TWOD, _TWOD_SOURCE, columns=r"^e_"),
    KnownDifference("tab:twod-width", _TWOD, _TWOD_SOURCE, columns=r"^e_"),
    KnownDifference("tab:twod-resolution", _TWOD, _TWOD_SOURCE, columns=r"^e_"),
    KnownDifference(
        "tab:yu",
        "Runtime is the wall time per seed on this machine (one thread per run); the paper's "
        "are from its own CPU, so only their ratios are comparable.",
        "results/tables/tab_yu_paper_vs_ours.md (notes)",
        columns=r"^Runtime",
    ),
    KnownDifference(
        "tab:yu",
        "The Yu et al. rows are this package's implementation from the published description "
        "(their code has no licence and was not used).",
        "results/tables/tab_yu_paper_vs_ours.md (notes)",
        rows=r"^Yu ",
    ),
    KnownDifference(
        "tab:forward",
        "The representative models come from this package's own runs, so the simulated "
        "equations need not coincide with the paper's; e_field agrees at the paper's precision "
        "only where the representative model does.",
        "results/tables/tab_forward_paper_vs_ours.md (notes)",
        columns=r"^e_field$",
    ),
    KnownDifference(
        "tab:forward",
        "RD e_field^true is at double-precision round-off (the generator is the same exact "
        "propagator / L1 recursion); its digits depend on the seed and on FFT rounding.",
        "results/tables/tab_forward_paper_vs_ours.md (notes)",
        columns=r"^e_field\^true$",
    ),
    KnownDifference(
        "tab:local-identifiability",
        "The trial-order grid has a node at 1.7000000000000002, a rounding error away from the "
        "true order 1.7; the package merges it into the true order. Keeping both twins (the CSV "
        "column e_beta_fix_raw) reproduces the paper's Burgers 0 % cell, and the paper's FADE "
        "0 % cell looks like the same artefact.",
        "results/tables/tab_local_identifiability_paper_vs_ours.md (notes)",
        columns=r"^e_beta,fix \(0%\)$",
    ),
    KnownDifference(
        "tab:equations",
        "FADE's data do not depend on the seed at 0 % noise: the five runs select the same "
        "equation (identical at the printed digits), and which seed is the middle one is decided "
        "by error differences of about 1e-8.",
        "docs/method/diagnostics.md#representative-equations",
        rows=r"^FADE, 0 %$",
        columns=r"^Representative seed$",
    ),
    KnownDifference(
        "tab:runtime",
        "Timings of `wp bench` on this machine, not the paper's (published code on an Apple M4 "
        "Pro): shown side by side, not compared.",
        "docs/performance.md",
    ),
)


def reason_for(label: str, row: str, column: str) -> KnownDifference | None:
    """The first recorded reason covering a cell, or ``None``."""
    for k in KNOWN_DIFFERENCES:
        if k.covers(label, row, column):
            return k
    return None
