"""Failed runs behind a table: counted, printed by ``wp report`` and listed beside the table.

A run that met a numerical failure (singular fit, no feasible candidate, non-finite objective;
:mod:`weakpareto.campaign.compute`) is stored as a ``failed`` row and counts as not recovered in
every count of the tables. ``wp report`` records which runs each table reads
(:func:`weakpareto.campaign.store.recording_cells`), prints how many of them failed and appends a
"Failed runs" section to the table's paper-vs-ours file when there are any — a table without
failed runs is written exactly as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

from weakpareto.campaign.store import RUN_KEY
from weakpareto.reporting.latex import noise_pct

#: Failed runs listed per table (the count is always complete).
MAX_LISTED = 50


@dataclass(frozen=True)
class Failures:
    """The runs behind one table (``total``), those of them that failed (``failed`` rows) and the
    number of runs per code hash (``""``: rows written before code hashes)."""

    total: int
    failed: pd.DataFrame
    code_hashes: Mapping[str, int] = field(default_factory=dict)  # runs per code hash

    @property
    def count(self) -> int:
        return len(self.failed)

    def reasons(self) -> dict[str, int]:
        """Failed runs per reason (the text before the first ``:`` of the stored error)."""
        out: dict[str, int] = {}
        for err in self.failed["error"] if self.count else []:
            out[reason_of(err)] = out.get(reason_of(err), 0) + 1
        return dict(sorted(out.items()))

    def summary(self, label: str) -> str:
        """``tab:main: 2 of 20 runs failed (singular fit 2)``."""
        reasons = ", ".join(f"{r} {n}" for r, n in self.reasons().items())
        return f"{label}: {self.count} of {self.total} runs failed ({reasons})"

    def markdown(self) -> list[str]:
        """The "Failed runs" section (nothing when no run failed)."""
        if not self.count:
            return []
        lines = [
            "",
            "## Failed runs",
            "",
            f"{self.count} of {self.total} runs behind this table failed; they count as not "
            "recovered in the counts above (errors are over the recovered runs). `wp run` "
            "computes a failed seed again.",
            "",
            "| Benchmark | Method | Variant | Noise law | Noise % | Seed | Reason |",
            "|---|---|---|---|---|---|---|",
        ]
        for _, r in self.failed.head(MAX_LISTED).iterrows():
            first = first_line(r["error"]).replace("|", r"\|")
            lines.append(
                f"| {r['benchmark']} | {r['method']} | {r['variant']} | {r['noise_law']} | "
                f"{noise_pct(float(r['noise']))} | {int(r['seed'])} | {first} |"
            )
        if self.count > MAX_LISTED:
            lines.append(f"| ... | | | | | | {self.count - MAX_LISTED} more |")
        return lines


def first_line(error: object) -> str:
    text = str(error or "").strip()
    return text.splitlines()[0] if text else "(no reason stored)"


def reason_of(error: object) -> str:
    """``singular fit`` of ``singular fit: LinAlgError: Singular matrix`` (older rows: the
    exception name)."""
    return first_line(error).split(":", 1)[0].strip()


def _runs(cells: Sequence[pd.DataFrame]) -> pd.DataFrame:
    frames = [c for c in cells if not c.empty]
    if not frames:
        return pd.DataFrame(columns=[*RUN_KEY, "status", "error"])
    df = pd.concat(frames, ignore_index=True)
    key = [c for c in RUN_KEY if c in df.columns]
    return df.drop_duplicates(subset=key).sort_values(key, kind="stable")


def failures_of(cells: Sequence[pd.DataFrame]) -> Failures:
    """The runs of the recorded cells (each run once), the failed ones among them and the runs
    per code hash."""
    runs = _runs(cells)
    failed = runs[runs["status"].astype(str) != "ok"] if len(runs) else runs
    hashes: dict[str, int] = {}
    if "code_hash" in runs.columns:
        for h in runs["code_hash"]:
            key = "" if pd.isna(h) else str(h)
            hashes[key] = hashes.get(key, 0) + 1
    return Failures(len(runs), failed.reset_index(drop=True), hashes)


def with_failures(markdown: str, failures: Failures | None) -> str:
    """``markdown`` with the "Failed runs" section appended (unchanged without failures)."""
    if failures is None or not failures.count:
        return markdown
    return markdown.rstrip("\n") + "\n" + "\n".join(failures.markdown()) + "\n"


def run_count(cells: Sequence[pd.DataFrame]) -> int:
    """Distinct runs among recorded cells (several tables may read the same run)."""
    return len(_runs(cells))
