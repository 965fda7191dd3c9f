"""Notes on a fit of irregular or incomplete samples (:mod:`weakpareto.library.weighted_time`).

One ``info`` line says how the samples were integrated and what was left out: temporal tests
with too few samples in their support, weak equations mostly on gaps.
"""

from __future__ import annotations

from weakpareto.fit.context import FitWarning
from weakpareto.library.gram import FeatureSource
from weakpareto.library.weighted_time import MAX_GAP_SHARE, MIN_SAMPLES_PER_TEST


def sampled_record(source: FeatureSource | None) -> dict[str, object]:
    """The ``record`` of a sampled library (operator=auto: its first family's; they share the
    tests); empty for any other source."""
    parts = getattr(source, "parts", None)
    first = parts[0] if parts else source
    return dict(getattr(first, "record", {}))


def sampling_notes(source: FeatureSource | None) -> list[FitWarning]:
    """The note of a sampled fit (none for complete uniform data)."""
    rec = sampled_record(source)
    if not rec:
        return []
    times = "irregular time samples" if rec.get("irregular_t") else "uniform time samples"
    text = (
        f"{times} with the sampled quadrature: {rec['temporal_tests']} temporal tests (at least "
        f"{rec['min_samples_per_test']} samples each; {rec['temporal_tests_dropped']} dropped "
        f"with fewer than {MIN_SAMPLES_PER_TEST})"
    )
    if rec.get("rows_dropped"):
        text += (
            f", {rec['rows_dropped']} weak equations dropped (more than {MAX_GAP_SHARE:.0%} of "
            "their test weight on missing samples)"
        )
    return [FitWarning("sampling", text, "info")]
