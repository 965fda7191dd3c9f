"""Both pages in a real browser (headless Chromium): the rendered DOM has every table, every image
loads, and a screenshot is drawn. Skipped only when no chromium binary is installed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
from PIL import Image

from weakpareto.campaign.store import load_runs
from weakpareto.reporting.html.site import write_site
from weakpareto.user.estimator import WeakPareto
from weakpareto.user.fit_page import write_fit_page

RESULTS = Path(__file__).parents[3] / "results"
#: Appended to a copy of a page (the pages have no script): records, once the page has loaded,
#: each image's decoded width, so that the dumped DOM says whether it loaded.
PROBE = """<script>
window.addEventListener("load", () => {
  for (const img of document.images) {
    img.setAttribute("data-natural-width", String(img.naturalWidth));
  }
  document.body.setAttribute("data-loaded", "yes");
});
</script>"""


def _chromium(exe: str, profile: Path, *args: str) -> str:
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           f"--user-data-dir={profile}", *args]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=True)
    return done.stdout


def _check_rendered(exe: str, page: Path, tmp: Path, parse_page) -> None:
    source = parse_page(page.read_text(encoding="utf-8"))
    probe = page.with_name(page.stem + ".probe.html")  # beside it: same relative image paths
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"))
    dom = parse_page(
        _chromium(
            exe, tmp / "profile", "--virtual-time-budget=20000", "--dump-dom", probe.as_uri()
        )  # fmt: skip
    )
    assert dom.find("body").attrs.get("data-loaded") == "yes"
    n_tables = len(list(source.iter("table")))
    assert n_tables > 0 and len(list(dom.iter("table"))) == n_tables
    images = list(dom.iter("img"))
    assert len(images) == len(list(source.iter("img"))) > 0
    for img in images:  # 0 = not loaded (missing file, bad data)
        assert int(img.attrs["data-natural-width"]) > 0, img.attrs["src"][:120]
    shot = tmp / f"{page.stem}.png"
    _chromium(exe, tmp / "profile", f"--screenshot={shot}", "--window-size=1280,2000",
              page.as_uri())  # fmt: skip
    with Image.open(shot) as im:
        assert im.size == (1280, 2000)
        lo, hi = im.convert("L").getextrema()
        assert lo < 100 < hi  # text on a light background, not a blank page


def test_pages_render_in_headless_chromium(chromium, tmp_path, noisy_fade, parse_page):
    (index,) = write_site(
        tmp_path / "report", RESULTS / "tables", RESULTS, runs=load_runs(RESULTS / "runs")
    )
    _check_rendered(chromium, index, tmp_path, parse_page)
    u, t, x = noisy_fade
    model = WeakPareto(alpha_range=(0.6, 1.05), beta_range=(0.5, 2.0), maxiter=4, popsize=4)
    field = model.validate(u, t, x)
    model.fit(u, t, x)
    fit = write_fit_page(model, field, "fade.npz", tmp_path / "fit.html")
    _check_rendered(chromium, fit, tmp_path, parse_page)
    assert np.isfinite(model.fit_error_)
