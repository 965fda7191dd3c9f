"""Paper tab:equations: equation typography and the representative seed."""

from __future__ import annotations

import pandas as pd

from weakpareto.campaign import store as res
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.equations import (
    equation_latex,
    representative_seed,
    table_equations,
)


def test_equation_typography_matches_paper():
    paper = paper_table("tab:equations")
    burgers = equation_latex("int", 1.0, [1, 0], [1.0, 1.7], [-1.0, 0.25], "directional")
    assert burgers == paper.value("burgers@0", "equation")
    rd = equation_latex("sub", 0.8, [0, 0], [1.53, 0.27], [0.20, -0.06], "riesz")
    assert rd + r"\textsuperscript{\(\dagger\)}" == paper.value("rd_space@5", "equation")
    assert (
        equation_latex("int", 1.0, [0, 1], [0.0, 0.0], [0.04, -0.5], "riesz")
        == r"$\partial_tu=0.04\,u-0.50\,u^{2}$"
    )


def test_representative_seed_puts_nan_last():
    df = pd.DataFrame(
        {
            "seed": range(5),
            "e_beta_max": [0.3, float("nan"), 0.1, 0.2, 0.05],
            "e_xi_max": [0.1, float("nan"), 0.5, 0.1, 0.1],
        }
    )
    assert representative_seed(df)["seed"] == 3  # order 4, 2, 3, 0, 1
    assert representative_seed(df.iloc[:0]) is None


def test_table_equations_from_runs(results_dir):
    rt = table_equations(res.load_runs(results_dir))
    assert rt is not None and rt.raw_cells
    # FADE 10 %: seeds sorted by (e_beta, e_xi): 0 (0.03), then the e_beta ties 0.07 by e_xi:
    # 4 (0.11), 1 (0.12), 3 (0.12, later seed), then 2 (0.11) -> index 2 is seed 1
    cells = {rid: c for rid, _, c in rt.rows}
    assert cells["fade@10"]["seed"] == "1"
    assert cells["fade@10"]["equation"] == r"$D_t^{0.8000}u=-1.00\,D_x^{1.00}u+0.50\,D_x^{1.70}u$"
    assert cells["burgers@0"]["equation"] == "--"
    lines = rt.latex.splitlines()
    assert (
        r"\multicolumn{3}{l}{\emph{FADE} --- true: $D_t^{0.80}u=-1.00\,u_x+0.50\,D_x^{1.70}u$} \\"
        in lines
    )
    assert r"\multirow{2}{*}{FADE} & 0\% & -- \\" in lines
