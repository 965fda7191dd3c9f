"""The paper's figures: fig:robustness from a hand-made runs table, fig:burgers from margins."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pandas as pd
import pytest

from weakpareto.reporting import figures as figures

matplotlib.use("Agg", force=True)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
NAN = float("nan")


def _row(benchmark, method, noise, seed, support, e_xi, *, variant="default", created=0):
    return {
        "benchmark": benchmark,
        "noise_law": "multiplicative",
        "noise": noise,
        "seed": seed,
        "method": method,
        "variant": variant,
        "status": "ok",
        "support_ok": support,
        "operator_ok": support,
        "branch_ok": True,
        "e_alpha": 0.0,
        "e_beta_max": 0.01 if support else NAN,
        "e_xi_max": e_xi,
        "e_xi_2": e_xi,
        "fit_error": 0.1,
        "created_utc": pd.Timestamp("2026-01-01", tz="UTC") + pd.Timedelta(seconds=created),
    }


# hand numbers: (benchmark, method, noise) -> per-seed (support_ok, e_xi_max)
CELLS = {
    ("fade", "weak_pareto", 0.0): [(True, 0.02), (True, 0.04), (True, 0.03)],
    # a support failure carries a (meaningless) e_xi that must NOT enter the conditioned mean
    ("fade", "weak_pareto", 0.10): [(True, 0.1), (True, 0.3), (False, 9.0)],
    ("fade", "weak_pareto", 0.20): [(True, 0.5), (True, 1.0), (True, 0.6)],
    ("fade", "strong_pareto", 0.0): [(True, 0.05), (True, 0.03), (True, 0.04)],
    ("fade", "strong_pareto", 0.05): [(True, 1.2), (False, NAN), (True, 1.0)],
    ("fade", "strong_pareto", 0.10): [(False, NAN), (False, NAN), (False, NAN)],
    ("burgers", "weak_pareto", 0.0): [(True, 0.002), (True, 0.004)],
    ("burgers", "weak_pareto", 0.05): [(True, 0.003), (True, 0.006)],
    ("burgers", "strong_pareto", 0.0): [(True, 0.001), (True, 0.003)],
    ("burgers", "strong_pareto", 0.05): [(False, NAN), (False, NAN)],
}


@pytest.fixture()
def runs() -> pd.DataFrame:
    rows = [
        _row(b, m, n, s, sup, e)
        for (b, m, n), seeds in CELLS.items()
        for s, (sup, e) in enumerate(seeds)
    ]
    # noise that must be ignored: other variant, other law, and an older duplicate of a seed
    rows.append(_row("fade", "weak_pareto", 0.0, 0, True, 5.0, variant="p0"))
    rows.append({**_row("fade", "weak_pareto", 0.0, 1, True, 5.0), "noise_law": "gaussian"})
    rows.append(_row("fade", "weak_pareto", 0.10, 0, True, 7.0, created=-10))  # superseded
    return pd.DataFrame(rows)


def test_weak_series_is_the_conditioned_mean_with_min_max(runs):
    data = figures.robustness_data(runs)
    fade = data["fade"]["weak"]
    assert [p.noise_pct for p in fade] == [0.0, 10.0, 20.0]  # levels without runs omitted
    # by hand: mean(0.02, 0.04, 0.03) = 0.03; mean(0.1, 0.3) = 0.2; mean(0.5, 1.0, 0.6) = 0.7
    assert [p.mean for p in fade] == pytest.approx([0.03, 0.2, 0.7])
    assert [p.lo for p in fade] == pytest.approx([0.02, 0.1, 0.5])
    assert [p.hi for p in fade] == pytest.approx([0.04, 0.3, 1.0])
    assert [(p.n_support, p.n) for p in fade] == [(3, 3), (2, 3), (3, 3)]

    strong = data["fade"]["strong"]
    assert [p.noise_pct for p in strong] == [0.0, 5.0, 10.0]
    assert strong[0].mean == pytest.approx(0.04) and strong[1].mean == pytest.approx(1.1)
    assert (strong[1].n_support, strong[1].n) == (2, 3)
    assert strong[2].n_support == 0 and math.isnan(strong[2].mean)

    burgers = data["burgers"]
    assert [p.mean for p in burgers["weak"]] == pytest.approx([0.003, 0.0045])
    assert [p.mean for p in burgers["strong"]][0] == pytest.approx(0.002)


def test_plotted_artists_carry_the_series(runs, tmp_path, monkeypatch):
    import matplotlib.pyplot as plt

    captured = []
    real_close = plt.close
    monkeypatch.setattr(plt, "close", lambda fig=None: (captured.append(fig), real_close(fig)))
    figures.robustness_figure(runs, tmp_path / "fig")
    (fig,) = captured
    ax_fade, ax_burgers = fig.axes
    assert ax_fade.get_yscale() == "log" and ax_burgers.get_yscale() == "log"

    def solid(ax):
        return [ln for ln in ax.lines if ln.get_linestyle() == "-"]

    (weak,) = solid(ax_fade)
    np.testing.assert_allclose(weak.get_xdata(), [0, 10, 20])
    np.testing.assert_allclose(weak.get_ydata(), [0.03, 0.2, 0.7])
    # strong-form: dotted horizontal lines at the recovered levels only (0 % and 5 % on FADE)
    dotted = sorted(ln.get_ydata()[0] for ln in ax_fade.lines if ln.get_linestyle() == ":")
    np.testing.assert_allclose(dotted, [0.04, 1.1])
    dotted_b = [ln.get_ydata()[0] for ln in ax_burgers.lines if ln.get_linestyle() == ":"]
    np.testing.assert_allclose(dotted_b, [0.002])
    (band,) = ax_fade.collections  # min/max band
    verts = band.get_paths()[0].vertices
    assert verts[:, 1].min() == pytest.approx(0.02) and verts[:, 1].max() == pytest.approx(1.0)


def test_files_written_png_and_pdf(runs, tmp_path):
    paths = figures.robustness_figure(runs, tmp_path / "out" / "fig_robustness")
    assert [p.name for p in paths] == ["fig_robustness.png", "fig_robustness.pdf"]
    png, pdf = paths
    assert png.read_bytes()[:8] == PNG_MAGIC and png.stat().st_size > 10_000
    assert pdf.read_bytes()[:5] == b"%PDF-" and pdf.stat().st_size > 1_000
    # atomic write: no temporary files left behind
    assert sorted(p.name for p in png.parent.iterdir()) == sorted(p.name for p in paths)


def test_no_runs_raises_and_other_benchmarks_ignored(tmp_path):
    other = pd.DataFrame([_row("rd_space", "weak_pareto", 0.0, 0, True, 0.1)])
    with pytest.raises(ValueError, match="no FADE or Burgers"):
        figures.robustness_figure(other, tmp_path / "fig")
    assert list(tmp_path.iterdir()) == []


def test_one_panel_only_and_zero_errors_still_plot(tmp_path):
    df = pd.DataFrame(
        [_row("fade", "weak_pareto", 0.0, s, True, e) for s, e in enumerate((0.0, 0.02))]
    )
    paths = figures.robustness_figure(df, tmp_path / "fig")  # burgers panel empty
    assert all(p.stat().st_size > 0 for p in paths)
    (pt,) = figures.robustness_data(df)["fade"]["weak"]
    assert (pt.mean, pt.lo, pt.hi) == pytest.approx((0.01, 0.0, 0.02))


def test_structure_mathtext():
    assert figures.structure_mathtext("{u u_x, D^1.7 u}") == r"$u\,u_x,\ D_x^{1.7}u$"
    assert figures.structure_mathtext("{u^2 u_x, u_xx}") == r"$u^{2}u_x,\ u_{xx}$"


def _margins() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "noise": [0.1, 0.0, 0.25],
            "true_structure": ["{u u_x, D^1.7 u}"] * 3,
            "true_residual": [0.04, 0.001, 0.09],
            "competitor": ["{u u_x, u_xx}"] * 3,
            "competitor_residual": [0.3, 0.3, 0.3],
        }
    )


def test_burgers_figure_panels_and_files(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt

    captured = []
    real_close = plt.close
    monkeypatch.setattr(plt, "close", lambda fig=None: (captured.append(fig), real_close(fig)))
    u = np.outer(np.linspace(0, 1, 4), np.ones(5))
    monkeypatch.setattr(figures, "burgers_field", lambda: (u, np.arange(4.0), np.arange(5.0)))
    paths = figures.burgers_figure(_margins(), tmp_path / "fig_burgers")
    assert [p.name for p in paths] == ["fig_burgers.png", "fig_burgers.pdf"]
    assert paths[0].read_bytes()[:8] == PNG_MAGIC and paths[1].read_bytes()[:5] == b"%PDF-"
    (fig,) = captured
    field_ax, resid_ax = fig.axes[:2]
    assert field_ax.get_title() == "(a) Fractional Burgers field"
    true_line, comp_line = resid_ax.lines
    np.testing.assert_allclose(true_line.get_xdata(), [0, 10, 25])  # sorted by noise
    np.testing.assert_allclose(true_line.get_ydata(), [0.001, 0.04, 0.09])
    assert "closest competitor" in comp_line.get_label()


def test_burgers_figure_without_field_has_one_panel(tmp_path, monkeypatch):
    monkeypatch.setattr(figures, "burgers_field", lambda: None)
    paths = figures.burgers_figure(_margins(), tmp_path / "fig", formats=("png",))
    assert [p.name for p in paths] == ["fig.png"]
