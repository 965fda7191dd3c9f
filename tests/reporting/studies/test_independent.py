"""tab_independent rendered from its committed CSV."""

from __future__ import annotations

from weakpareto.reporting.studies import independent


def test_committed_table_is_rendered_from_its_csv(results_folder, committed):
    texts = independent.render(results_folder("independent"))
    assert set(texts) == {".md", ".tex"}
    committed("independent", independent.STEM, texts)
