"""Provenance of the report page: which code, the machine of the timings, and which stored runs were
computed by other code than the current one (*stale* runs).

A run is stale when its ``code_hash`` differs from :func:`weakpareto.campaign.provenance.current`
(rows written before code hashes have none and count as stale too): ``wp run`` would compute it
again, and a table that reads it shows what older code computed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from weakpareto.campaign.provenance import CodeIdentity
from weakpareto.reporting.html.page import Cell, Html, element, table
from weakpareto.reporting.latex import noise_pct

#: Stale runs are listed one by one up to this many (more: the marked groups say it).
MAX_STALE_LISTED = 40


def short(code_hash: str) -> str:
    """The first 8 digits of a code hash, ``(none)`` for rows without one."""
    return code_hash[:8] if code_hash else "(none)"


def stale_count(code_hashes: Mapping[str, int], current: str) -> int:
    """Runs among ``{code hash: runs}`` computed by other code than ``current``."""
    return sum(n for h, n in code_hashes.items() if h != current)


def facts(pairs: list[tuple[str, object]]) -> Html:
    """A definition list of (name, value) pairs."""
    items: list[Html] = []
    for name, value in pairs:
        items += [element("dt", name), element("dd", value)]
    return element("dl", items, class_="facts")


def generated_html(code: CodeIdentity) -> Html:
    """The code behind the page. No date, host or machine of the page's own run: the page is a
    function of the committed files, so ``wp report`` rebuilds it byte for byte."""
    return facts(
        [
            ("code hash", element("code", code.code_hash)),
            ("weakpareto", code.version),
            (
                "inputs",
                "the committed tables, runs and result files (the machine of the timings is "
                "below; each run's commit is in the table of stored runs)",
            ),
        ]
    )


def bench_machine_html(path: Path) -> Html:
    """The machine of the committed timings (``results/bench/machine.json``)."""
    if not path.is_file():
        return element("p", f"No {path.name} beside the timings.", class_="missing")
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return element("p", f"{path.name} is not readable JSON.", class_="missing")
    keys = ("platform", "processor", "cpu_count", "python", "numpy", "scipy", "date_utc")
    return facts([(k, str(info[k])) for k in keys if k in info])


def _created(series: pd.Series) -> str:
    values = sorted(str(v)[:19].replace("T", " ") for v in series.dropna())
    if not values:
        return ""
    return values[0] if values[0] == values[-1] else f"{values[0]} – {values[-1]}"


def _hashes(frame: pd.DataFrame) -> pd.Series:
    if "code_hash" not in frame.columns:
        return pd.Series([""] * len(frame), index=frame.index, dtype=object)
    return frame["code_hash"].astype(object).where(frame["code_hash"].notna(), "").astype(str)


def runs_html(runs: pd.DataFrame, current: str) -> Html:
    """Stored runs per experiment, method and code hash (stale groups marked), then the stale
    runs one by one."""
    if runs.empty:
        return element("p", "No stored runs were read.", class_="missing")
    df = runs.copy()
    df["_hash"] = _hashes(df)
    for col in ("experiment", "variant", "git_commit"):
        if col not in df.columns:
            df[col] = ""
    df["experiment"] = df["experiment"].fillna("").astype(str)
    keys = ["experiment", "method", "_hash"]
    rows, classes = [], []
    for (experiment, method, code), g in df.groupby(keys, sort=True, dropna=False):
        stale = code != current
        commits = sorted({str(c) for c in g["git_commit"].dropna() if str(c)})
        rows.append(
            [
                experiment or "(ad hoc)",
                method,
                len(g),
                int((g["status"].astype(str) != "ok").sum()),
                Cell(element("code", short(str(code))), ("stale",) if stale else ()),
                "stale" if stale else "current",
                _created(g["created_utc"]) if "created_utc" in g else "",
                ", ".join(c[:12] + ("+dirty" if c.endswith("+dirty") else "") for c in commits),
            ]
        )
        classes.append("stale" if stale else None)
    n_stale = int((df["_hash"] != current).sum())
    summary = element(
        "p",
        f"{len(df)} stored runs; {n_stale} computed by other code than the current "
        f"{short(current)} (stale, marked)."
        if n_stale
        else f"{len(df)} stored runs, all computed by the current code {short(current)}.",
        class_="summary",
    )
    header = ["experiment", "method", "runs", "failed", "code", "", "written (UTC)", "git commit"]
    parts = [summary, table(header, rows, row_classes=classes, table_id="runs-provenance")]
    stale_rows = df[df["_hash"] != current]
    if len(stale_rows) > MAX_STALE_LISTED:
        parts.append(element("p", "The marked groups above hold the stale runs.", class_="info"))
    elif len(stale_rows):
        listed = stale_rows.sort_values(["benchmark", "method", "noise", "seed"], kind="stable")
        parts.append(element("h3", "Stale runs"))
        parts.append(
            table(
                ["benchmark", "method", "variant", "noise %", "seed", "code", "written (UTC)"],
                [
                    [
                        r["benchmark"],
                        r["method"],
                        r["variant"],
                        noise_pct(float(r["noise"])),
                        int(r["seed"]),
                        element("code", short(str(r["_hash"]))),
                        str(r.get("created_utc", ""))[:19].replace("T", " "),
                    ]
                    for _, r in listed.iterrows()
                ],
                row_classes=["stale"] * len(listed),
                table_id="stale-runs",
            )
        )
    return Html("".join(parts))
