"""Writing a table's two files."""

from __future__ import annotations

from weakpareto.reporting.output import TableOutput, write_table_files


def test_write_table_files_creates_the_directory_atomically(tmp_path):
    out = tmp_path / "a" / "b"
    latex, md = table = TableOutput("tex\n", "md\n")
    paths = write_table_files(out, "tab_x", table)
    assert [p.name for p in paths] == ["tab_x.tex", "tab_x_paper_vs_ours.md"]
    assert [p.read_text() for p in paths] == [latex, md]
    assert sorted(p.name for p in out.iterdir()) == ["tab_x.tex", "tab_x_paper_vs_ours.md"]
