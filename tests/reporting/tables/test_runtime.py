"""Paper tab:runtime from the `wp bench` stages."""

from __future__ import annotations

import pandas as pd

from weakpareto.reporting.tables.runtime import as_text, runtime_tables, write_runtime


def test_runtime_table_cells(tmp_path):
    stages = pd.DataFrame(
        {
            "benchmark": ["fade", "rd_space", "burgers", "fade (strong)", "burgers (strong)"],
            "total_s": [0.891, 0.332, 1.12, 0.369, 0.5],
            "n_rows": [2640, 1440, 2640, 16800, 16800],
        }
    )
    latex, md = runtime_tables(stages)
    assert r"FADE & 0.89 & 0.37 & $\sim2640$ & $7\times24$ \\" in latex
    assert r"Frac. RD (space) & 0.33 & -- & $\sim1440$" in latex  # no strong run: "--"
    assert "\\toprule" in latex and "\\bottomrule" in latex
    assert r"\centering" not in latex  # the paper's tab:runtime is not centred
    assert "| FADE | Weak time (s) | 7.4 | 0.89 |" in md
    assert "| FADE | Weak rows K | 2640 | 2640 |" in md
    assert "| Frac. Burgers | DE budget | 7x24 | 7x24 |" in md
    stages.to_csv(tmp_path / "stages.csv", index=False)
    paths = write_runtime(tmp_path / "out", tmp_path)
    assert [p.name for p in paths] == ["tab_runtime.tex", "tab_runtime_paper_vs_ours.md"]
    assert write_runtime(tmp_path / "out", tmp_path / "missing") == []


def test_as_text():
    assert as_text(r"$\sim2640$") == "2640" and as_text(r"$7\times24$") == "7x24"
    assert as_text("--") == "--"


def test_de_budget_comes_from_the_timed_config():
    """`wp bench` stores each row's DE budget and mode; the table prints what was timed."""
    stages = pd.DataFrame(
        {
            "benchmark": ["fade", "rd_space", "burgers", "fade (strong)"],
            "total_s": [6.0, 4.0, 7.0, 0.4],
            "n_rows": [2640, 1440, 2640, 16800],
            "de_popsize": [6, 7, 7, 6],
            "de_maxiter": [16, 24, 30, 16],
            "de_updating": ["immediate", "immediate", "deferred", "immediate"],
        }
    )
    latex, md = runtime_tables(stages)
    assert r"FADE & 6.00 & 0.40 & $\sim2640$ & $6\times16$ \\" in latex
    assert r"Frac. Burgers & 7.00 & -- & $\sim2640$ & $7\times30$ \\" in latex
    assert "| FADE | DE budget | 7x24 | 6x16 |" in md
    assert "Our DE updating per row (from the timed config): FADE immediate" in md
    assert "Frac. Burgers deferred." in md


def test_de_budget_of_an_older_stages_csv_is_the_composed_config():
    """A stages.csv from before the DE columns: the benchmark's conf budget, no mode line."""
    old = pd.DataFrame({"benchmark": ["fade"], "total_s": [1.0], "n_rows": [2640]})
    latex, md = runtime_tables(old)
    assert r"FADE & 1.00 & -- & $\sim2640$ & $7\times24$ \\" in latex
    assert "DE updating" not in md
