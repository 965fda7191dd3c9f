"""Shared fixture of the benchmark tests: every benchmark's seed-0 field (generated once)."""

from __future__ import annotations

import pytest

from weakpareto.benchmarks.catalogue import Field, list_benchmarks, load_benchmark
from weakpareto.benchmarks.generators import generate


def _generated(name: str) -> Field | None:
    try:
        return generate(load_benchmark(name), seed=0)
    except ImportError:  # a generator of an optional extra (pycaputo) that is not installed
        return None


@pytest.fixture(scope="session")
def fields() -> dict[str, Field]:
    made = {name: _generated(name) for name in list_benchmarks()}
    return {name: f for name, f in made.items() if f is not None}
