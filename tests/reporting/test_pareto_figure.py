"""fig:pareto: the stored FADE 5 % seed-0 front, drawn with the selected model and the search
stop; the same drawing for a user's fit (``wp discover ... plot=``)."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib
import numpy as np
import pytest

from weakpareto.campaign.store import load_fronts, load_runs
from weakpareto.cli import main
from weakpareto.reporting.pareto_figure import (
    FrontPlot,
    draw_front,
    draw_on,
    front_from_points,
    front_from_runs,
    pareto_figure,
)

matplotlib.use("Agg", force=True)
import matplotlib.pyplot as plt  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
REPO = Path(__file__).resolve().parents[2]


def _plot(**over) -> FrontPlot:
    base = dict(
        points=[
            {"size": 1, "val_error": 5.49e-3, "on_front": True},
            {"size": 2, "val_error": 1.16e-4, "on_front": True},
            {"size": 3, "val_error": 9.40e-5, "on_front": True},
        ],
        selected=2,
        c_max=4,
        title="FADE, 5 % noise, seed 0",
    )
    base.update(over)
    return front_from_points(**base)


def _elements(fp: FrontPlot):
    fig, ax = plt.subplots()
    try:
        draw_on(ax, fp)
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        texts = [t.get_text() for t in ax.texts]
        spans = [p for p in ax.patches if p.get_width() > 0]
        lines = {ln.get_label(): ln for ln in ax.get_lines()}
        return legend, texts, spans, lines, ax.get_yscale(), ax.get_xlim()
    finally:
        plt.close(fig)


def test_selected_model_and_search_stop_are_drawn():
    legend, texts, spans, lines, yscale, xlim = _elements(_plot())
    assert yscale == "log"
    assert "selected (elbow), c = 2" in legend
    assert "search stopped after c = 3" in legend
    sel = lines["selected (elbow), c = 2"]
    assert list(sel.get_xdata()) == [2] and list(sel.get_ydata()) == [1.16e-4]
    stop = lines["search stopped after c = 3"]
    assert list(stop.get_xdata()) == [3.5, 3.5]
    assert len(spans) == 1  # unexplored sizes 4..c_max shaded
    assert texts == ["not explored\n(c_max = 4)"]
    assert xlim == (0.5, 4.5)


def test_no_stop_marks_when_the_search_reached_c_max():
    legend, texts, spans, _, _, xlim = _elements(_plot(c_max=3))
    assert not any("stopped" in t for t in legend) and texts == [] and spans == []
    assert xlim == (0.5, 3.5)


def test_dominated_points_are_hollow_and_listed():
    pts = [
        {"size": 1, "val_error": 1e-2, "on_front": True},
        {"size": 2, "val_error": 2e-2, "on_front": False},
    ]
    legend, *_ = _elements(front_from_points(pts, 1, None, "t", rule="gain"))
    assert "dominated" in legend and "selected (gain), c = 1" in legend


def test_committed_front_is_the_papers_figure(tmp_path):
    runs_dir = REPO / "results" / "runs"
    if not runs_dir.is_dir():
        pytest.skip("no committed runs")
    fronts, runs = load_fronts(runs_dir), load_runs(runs_dir)
    fp = front_from_runs(fronts, runs)
    assert fp is not None
    assert fp.sizes == (1, 2, 3) and fp.selected == 2 and fp.c_max == 4 and fp.stopped_early
    # tab:progress: paper 5.49e-3, 1.16e-4, 9.40e-5; ours 5.49e-3, 1.15e-4, 9.41e-5 (within 1 %)
    assert np.allclose(fp.val_errors, (5.49e-3, 1.16e-4, 9.40e-5), rtol=1e-2)
    paths = pareto_figure(fronts, runs, tmp_path / "fig_pareto")
    assert [p.name for p in paths] == ["fig_pareto.png", "fig_pareto.pdf"]
    assert paths[0].read_bytes()[:8] == PNG_MAGIC and paths[1].read_bytes()[:5] == b"%PDF-"


def test_fixture_front_and_missing_front(results_dir, tmp_path):
    fronts, runs = load_fronts(results_dir), load_runs(results_dir)
    fp = front_from_runs(fronts, runs)
    assert fp is not None and fp.sizes == (1, 2, 3) and fp.selected == 2
    assert front_from_runs(fronts, runs, noise=0.2) is None
    with pytest.raises(ValueError, match="no FADE"):
        pareto_figure(fronts.iloc[0:0], runs, tmp_path / "x")


def test_draw_front_formats(tmp_path):
    for suffix, magic in ((".png", PNG_MAGIC), (".pdf", b"%PDF-"), (".svg", b"<?xml")):
        out = draw_front(_plot(), tmp_path / f"f{suffix}")
        assert out.read_bytes().startswith(magic)
    with pytest.raises(ValueError, match="must end in"):
        draw_front(_plot(), tmp_path / "f.jpg")


def test_wp_discover_plot(fade_field, tmp_path, capsys):
    u, t, x = fade_field
    noisy = u * (1 + 0.05 * np.random.default_rng(0).uniform(-1, 1, u.shape))
    np.savez(tmp_path / "f.npz", u=noisy, t=t, x=x)
    out, png = tmp_path / "r.json", tmp_path / "front.png"
    main(
        ["discover", f"data={tmp_path / 'f.npz'}", "operator=directional",
         "alpha_range=[0.6,1.05]", "beta_range=[0.5,2.0]", f"out={out}", f"plot={png}"]
    )  # fmt: skip
    printed = capsys.readouterr().out
    assert f"wrote {png}" in printed and png.read_bytes()[:8] == PNG_MAGIC
    r = json.loads(out.read_text())
    assert [p["size"] for p in r["pareto_front"]][:2] == [1, 2] and r["selected_size"] == 2


@pytest.mark.parametrize(
    ("plot", "needle"),
    [
        ("front.jpg", "must end in .png, .pdf, .svg"),
        ("nodir/front.png", "directory nodir does not exist"),
    ],
)
def test_wp_discover_bad_plot_is_one_line(plot, needle, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["discover", "data=f.npz", "out=r.json", f"plot={plot}"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and needle in err and err.count("\n") == 1
