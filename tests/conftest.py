"""Shared fixtures: the shipped FADE field on its grid; a parser for the HTML pages and the
headless browser that renders them."""

from __future__ import annotations

import os
import shutil
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from importlib import resources

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from weakpareto.benchmarks.generators import generate

# One BLAS/OpenMP thread in every test process and in the wp processes it starts: the suite runs
# one process per core (pytest-xdist), where more threads only wait on each other (3.5x the CPU
# time of tests/user/test_scaling.py), and the committed results were computed with one thread
# (wp run caps its workers the same way), which fixes their last bits.
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"
threadpool_limits(1)

# A shell starts background jobs with SIGINT ignored, and Python keeps an ignored SIGINT: the
# Ctrl-C tests (their own process and the wp processes they start, which inherit it) would
# then wait forever. Restore Python's handler so they run the same in the foreground and in CI.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def fade_field() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    path = resources.files("weakpareto") / "data" / "fade_tsfade_fft.dat"
    u = np.loadtxt(str(path))
    return u, 0.1 * np.arange(u.shape[0]), 0.25 * np.arange(u.shape[1])


@pytest.fixture(scope="session")
def noisy_fade(fade_field):
    u, t, x = fade_field
    rng = np.random.default_rng(0)
    return u * (1 + 0.1 * rng.uniform(-1, 1, u.shape)), t, x


def _brownian_density(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """N Brownian particles on a 2 pi period, u_t = 0.3 R^2 u for the density, histogrammed."""
    cfg = {
        "name": "brown",
        "generator": {
            "kind": "levy_flight",
            "particles": n,
            "ic": {
                "offset": 1.0,
                "harmonics": [
                    {"fn": "sin", "m": 1, "amp": 0.6, "phase": 0.0},
                    {"fn": "cos", "m": 2, "amp": 0.3, "phase": 0.0},
                    {"fn": "sin", "m": 3, "amp": 0.15, "phase": 0.4},
                ],
            },
        },
        "grid": {"nt": 101, "nx": 64, "T": 2.0, "L": 2 * np.pi, "t_endpoint": True},
        "truth": {"mode": "int", "alpha": 1.0, "operator": "riesz",
                  "terms": [{"power": 0, "order": 2.0, "coef": 0.3}]},
    }  # fmt: skip
    f = generate(cfg, seed)
    return f.u, f.t, f.x


@pytest.fixture(scope="session")
def brownian_density() -> Callable[[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Densities of N Brownian particles (a field the method's discretisations did not make)."""
    return _brownian_density


# -- HTML pages ---------------------------------------------------------------------------------
VOID_TAGS = frozenset({"img", "meta", "br", "hr", "link", "input", "source", "col", "wbr"})


@dataclass
class Node:
    """One element of a parsed page: tag, attributes, children and text."""

    tag: str
    attrs: dict[str, str]
    children: list[Node] = field(default_factory=list)
    parts: list[str | Node] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def text(self) -> str:
        return "".join(p if isinstance(p, str) else p.text() for p in self.parts)

    def iter(self, tag: str | None = None) -> Iterator[Node]:
        for c in self.children:
            if tag is None or c.tag == tag:
                yield c
            yield from c.iter(tag)

    def find(self, tag: str | None = None, **attrs: str) -> Node | None:
        return next(
            (n for n in self.iter(tag) if all(n.attrs.get(k) == v for k, v in attrs.items())), None
        )


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        self.stack[-1].parts.append(node)
        if tag not in VOID_TAGS:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].parts.append(data)


def parse_html(text: str) -> Node:
    """The element tree of an HTML text (standard-library parser)."""
    builder = _TreeBuilder()
    builder.feed(text)
    builder.close()
    return builder.root


@pytest.fixture(scope="session")
def chromium() -> str:
    """The headless browser for the rendered-page tests (skipped without one)."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        exe = shutil.which(name)
        if exe:
            return exe
    pytest.skip(
        "no chromium binary on PATH: install it (Debian: apt-get install chromium; `make test` "
        "does when apt-get is available) to check the pages in a real browser"
    )


@pytest.fixture(scope="session")
def parse_page() -> Callable[[str], Node]:
    """:func:`parse_html`, for the tests of the HTML pages."""
    return parse_html
