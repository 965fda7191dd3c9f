"""tab_beyond rendered from its committed CSV."""

from __future__ import annotations

from weakpareto.reporting.studies import beyond


def test_committed_table_is_rendered_from_its_csv(results_folder, committed):
    texts = beyond.render(results_folder("beyond"))
    assert set(texts) == {".md", ".tex"}
    committed("beyond", beyond.STEM, texts)
