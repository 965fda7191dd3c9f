"""Shared fixture of the benchmark tests: every benchmark's seed-0 field (generated once)."""

from __future__ import annotations

import pytest

from weakpareto.benchmarks.catalogue import Field, list_benchmarks, load_benchmark
from weakpareto.benchmarks.generators import generate


@pytest.fixture(scope="session")
def fields() -> dict[str, Field]:
    return {name: generate(load_benchmark(name), seed=0) for name in list_benchmarks()}
