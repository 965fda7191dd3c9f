"""Paper tab:main and tab:rdnoise from a small Parquet results tree."""

from __future__ import annotations

from weakpareto.campaign import store as res
from weakpareto.reporting.tables.main_results import table_main, table_rdnoise


def test_main_cells_over_all_and_over_recovered_seeds(results_dir):
    rt = table_main(res.load_runs(results_dir))
    assert rt is not None and rt.stem == "tab_main" and rt.label == "tab:main"
    lines = rt.latex.splitlines()
    assert (
        r"FADE & 5/5 & 5/5 & $0.002\pm0.002$ & $0.07\pm0.03$ & $0.12\pm0.09$ & "
        r"$0.08\pm0.05$ & $0.022\pm0.001$ \\"
    ) in lines
    # 3/5 support; e_* over the three recovered runs, E_fit over all five
    assert (
        r"\shortstack[l]{Frac. RD\\(space)} & 3/5 & 0/5 & $0.20\pm0.00$ & $0.40\pm0.20$ & "
        r"$1.00\pm0.00$ & $0.50\pm0.00$ & $0.70\pm0.16$ \\"
    ) in lines
    assert r"Burgers & -- & -- & -- & -- & -- & -- & -- \\" in lines
    assert rt.notes == ["tab:main: no runs for rd_timespace at 10 %",
                        "tab:main: no runs for burgers at 10 %"]  # fmt: skip


def test_rdnoise_rows_and_skipping(results_dir):
    runs = res.load_runs(results_dir)
    rd = table_rdnoise(runs)
    assert rd is not None
    lines = rd.latex.splitlines()
    assert (
        r"\multirow{4}{*}{\shortstack[l]{Frac. RD\\(space)}} & 0 & -- & -- & -- & -- & -- "
        r"& -- \\"
    ) in lines
    assert (
        r" & 10 & 3/5 & 0/5 & $0.20\pm0.00$ & $0.40\pm0.20$ & $1.00\pm0.00$ & $0.70\pm0.16$ \\"
        in lines
    )
    assert lines.count(r"\midrule") == 2  # after the header and between the benchmarks
    assert table_rdnoise(runs.iloc[:0]) is None and table_main(runs.iloc[:0]) is None
