"""``wp discover ... report=fit.html``: one self-contained page per fit, checked on its DOM."""

from __future__ import annotations

import base64

import pytest

from weakpareto.errors import UserInputError
from weakpareto.user.discover_command import discover_command
from weakpareto.user.estimator import WeakPareto
from weakpareto.user.fit_page import check_report_path, fit_page

#: A quick fit (small DE budget) with intervals, enough for the page.
QUICK = dict(
    operator="directional",
    alpha_range=(0.6, 1.05),
    beta_range=(0.5, 2.0),
    maxiter=8,
    popsize=5,
    uncertainty="bootstrap",
    n_boot=20,
)
SECTIONS = ("equation-section", "data", "front-section", "residual", "uncertainty",
            "diagnostics", "settings")  # fmt: skip


@pytest.fixture(scope="module")
def fitted(noisy_fade):
    u, t, x = noisy_fade
    model = WeakPareto(**QUICK)
    field = model.validate(u, t, x)
    model.fit(u, t, x)
    return model, field


@pytest.fixture(scope="module")
def page(fitted, parse_page):
    model, field = fitted
    return parse_page(fit_page(model, field, "fade.npz"))


def test_every_section_is_there(page, fitted):
    model, _ = fitted
    ids = [s.attrs["id"] for s in page.iter("section")]
    assert ids == list(SECTIONS)
    assert page.find("p", id="equation").text() == model.equation_.text(sig_digits=4)
    data = page.find("section", id="data").text()
    assert "u 150 x 120 (t x x)" in data and "dt 0.1" in data and "periodic" in data


def test_front_table_marks_the_selected_model(page, fitted):
    model, _ = fitted
    rows = list(page.find("table", id="front").find("tbody").iter("tr"))
    assert len(rows) == len(model.pareto_front_)
    (selected,) = [r for r in rows if "selected" in r.classes]
    assert int(list(selected.iter("td"))[1].text()) == model.selected_size_


def test_intervals_and_warnings(page, fitted):
    model, _ = fitted
    rows = list(page.find("table", id="intervals").find("tbody").iter("tr"))
    assert len(rows) == len(model.equation_.terms)
    assert all("[" in list(r.iter("td"))[2].text() for r in rows)  # coefficient intervals
    warnings = list(page.find("table", id="warnings").find("tbody").iter("tr"))
    assert [list(r.iter("td"))[1].text() for r in warnings] == [w.code for w in model.warnings_]


def test_images_are_embedded_pngs_and_the_page_is_static(page):
    images = list(page.iter("img"))
    assert [i.attrs["alt"] for i in images] == ["the field u", "Pareto front", "weak residual map"]
    for img in images:
        head, data = img.attrs["src"].split(",", 1)
        assert head == "data:image/png;base64"
        assert base64.b64decode(data)[:8] == b"\x89PNG\r\n\x1a\n"
    assert page.find("script") is None and page.find("link") is None


def test_residual_map_caption_gives_its_norm_and_e_fit(page, fitted):
    model, _ = fitted
    caption = page.find("section", id="residual").find("figcaption").text()
    assert "44 x 60" in caption and f"E_fit {model.fit_error_:.4g}" in caption


def test_report_path_is_checked(tmp_path):
    assert check_report_path(None) is None and check_report_path("") is None
    assert check_report_path(tmp_path / "fit.html") == tmp_path / "fit.html"
    with pytest.raises(UserInputError, match=r"must end in \.html, e\.g\. report=fit\.html"):
        check_report_path(tmp_path / "fit.htm")
    with pytest.raises(UserInputError, match="directory .* does not exist"):
        check_report_path(tmp_path / "nope" / "fit.html")
    (tmp_path / "d.html").mkdir()
    with pytest.raises(UserInputError, match="is a directory"):
        check_report_path(tmp_path / "d.html")


def test_wp_discover_refuses_a_bad_report_before_reading_the_data(tmp_path):
    args = [f"data={tmp_path / 'missing.npz'}", f"out={tmp_path / 'r.json'}"]
    with pytest.raises(UserInputError, match="report=") as err:
        discover_command([*args, f"report={tmp_path / 'fit.txt'}"])
    assert "\n" not in str(err.value)
    with pytest.raises(UserInputError, match="does not exist"):
        discover_command([*args, f"report={tmp_path / 'no' / 'fit.html'}"])


def test_wp_discover_writes_the_page(noisy_fade, tmp_path, capsys, parse_page):
    import numpy as np

    u, t, x = noisy_fade
    np.savez(tmp_path / "f.npz", u=u, t=t, x=x)
    report = tmp_path / "fit.html"
    discover_command(
        [f"data={tmp_path / 'f.npz'}", f"out={tmp_path / 'r.json'}", f"report={report}",
         "operator=directional", "alpha_range=[0.6,1.05]", "beta_range=[0.5,2.0]",
         "maxiter=4", "popsize=4"]
    )  # fmt: skip
    assert f"wrote {report}" in capsys.readouterr().out
    dom = parse_page(report.read_text(encoding="utf-8"))
    assert dom.find("title").text() == "weakpareto fit: f.npz"
    assert "Off" in dom.find("section", id="uncertainty").text()
