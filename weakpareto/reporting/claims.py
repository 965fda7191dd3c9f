"""Performance claims in the prose, recomputed from the committed result files.

Every number the README, ``docs/*.md`` or a hand-written ``results/**/*.md`` states about this
package's performance (a recovery count, a speed-up, a median time, an error) is registered in a
claims file (``docs/claims.yaml``; format in ``docs/claims.md``). Each entry names where the number
is written (file + a snippet that occurs there exactly once and contains the number), the number
as written, the result file it comes from (:mod:`weakpareto.reporting.claim_sources`) and one of
four generic computations (:data:`KINDS`) plus a format string. :func:`check_claims` recomputes
every entry from the files as they are now, so a number edited without its data, or data
recomputed without its prose, is one failing line naming the file, the snippet, the written and
the recomputed value.

Run it with ``python scripts/check_claims.py`` (``tests/reporting/test_claims.py`` runs it on the
committed files).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, localcontext
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from weakpareto.reporting.claim_sources import ClaimSourceError, read_source, select

#: The computations a claim may use.
#: ``count``: rows matching ``where``; ``fraction``: ``hits/rows`` — rows matching ``where`` and
#: also ``hit``, over rows matching ``where``; ``value``: one aggregate (:data:`AGGREGATES`) of a
#: column or column expression over the rows; ``ratio``: ``numerator`` / ``denominator``, each a
#: ``value`` computation.
KINDS = ("count", "fraction", "value", "ratio")
#: Aggregates of a ``value`` computation. ``one``: the cell of the single matching row;
#: ``unique``: the one value every matching row shares.
AGGREGATES = ("one", "unique", "median", "mean", "min", "max", "sum")
#: ``upper``: the written number bounds the computed one from above (a "<= 0.006" claim).
BOUNDS = ("upper", "lower")
#: Default file of claims, relative to the repository root.
DEFAULT_CLAIMS = Path("docs/claims.yaml")
#: Typographic characters the prose uses for ASCII ones; compared as their ASCII spelling.
#: A table cell holding one number, maybe bold and with a unit (``**0.975 s**``).
_NUMBER_CELL = re.compile(r"\**\s*([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*[a-zA-Z%]*\s*\**")
_TYPOGRAPHY = str.maketrans({"\u2212": "-", "\u00d7": "x", "\u2013": "-"})


class ClaimError(ValueError):
    """A claims file entry is malformed."""


@dataclass(frozen=True)
class Measure:
    """One number read from a source: an aggregate of a column over the filtered rows."""

    where: Mapping[str, Any] = field(default_factory=dict)
    column: str | None = None
    agg: str = "one"
    source: str | None = None

    @classmethod
    def parse(cls, raw: Mapping[str, Any]) -> Measure:
        """A measure from its YAML mapping."""
        agg = str(raw.get("agg", "one"))
        if agg not in AGGREGATES:
            raise ClaimError(f"agg {agg!r} is not one of {AGGREGATES}")
        if raw.get("column") is None:
            raise ClaimError("a value needs a column")
        return cls(dict(raw.get("where") or {}), str(raw["column"]), agg, raw.get("source"))


@dataclass(frozen=True)
class Claim:
    """One written number and how to recompute it."""

    file: str
    snippet: str
    value: str
    source: str
    kind: str
    format: str
    where: Mapping[str, Any] = field(default_factory=dict)
    hit: Mapping[str, Any] = field(default_factory=dict)
    measure: Measure | None = None
    denominator: Measure | None = None
    bound: str | None = None

    def label(self) -> str:
        """``file: 'snippet'`` for messages."""
        return f"{self.file}: {self.snippet!r}"


def _format_default(kind: str) -> str:
    return "{}/{}" if kind == "fraction" else "{}"


def parse_claim(raw: Mapping[str, Any]) -> Claim:
    """A claim from its YAML mapping; :class:`ClaimError` names what is missing or wrong."""
    for key in ("file", "snippet", "value", "source", "compute"):
        if raw.get(key) is None:
            raise ClaimError(f"claim {dict(raw)} has no {key!r}")
    kind = str(raw["compute"])
    if kind not in KINDS:
        raise ClaimError(f"compute {kind!r} is not one of {KINDS}")
    bound = raw.get("bound")
    if bound is not None and bound not in BOUNDS:
        raise ClaimError(f"bound {bound!r} is not one of {BOUNDS}")
    measure = denominator = None
    if kind == "value":
        measure = Measure.parse(raw)
    elif kind == "ratio":
        if not isinstance(raw.get("numerator"), Mapping) or not isinstance(
            raw.get("denominator"), Mapping
        ):
            raise ClaimError("a ratio needs numerator and denominator mappings")
        measure = Measure.parse(raw["numerator"])
        denominator = Measure.parse(raw["denominator"])
    return Claim(
        file=str(raw["file"]),
        snippet=str(raw["snippet"]),
        value=str(raw["value"]),
        source=str(raw["source"]),
        kind=kind,
        format=str(raw.get("format", _format_default(kind))),
        where=dict(raw.get("where") or {}),
        hit=dict(raw.get("hit") or {}),
        measure=measure,
        denominator=denominator,
        bound=bound,
    )


def load_claims(path: Path) -> list[Claim]:
    """Every claim of a claims file (a YAML mapping with a ``claims`` list)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, Mapping) or not isinstance(data.get("claims"), list):
        raise ClaimError(f"{path}: expected a mapping with a 'claims' list")
    return [parse_claim(raw) for raw in data["claims"]]


class _Sources:
    """Source tables read once per check (several claims share a file)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._cache: dict[str, pd.DataFrame] = {}

    def rows(self, pattern: str) -> pd.DataFrame:
        if pattern not in self._cache:
            self._cache[pattern] = read_source(self.root, pattern)
        return self._cache[pattern]


def _column(rows: pd.DataFrame, column: str) -> pd.Series:
    """A column by name, else a :meth:`pandas.DataFrame.eval` expression over the columns."""
    if column in rows.columns:
        return rows[column]
    try:
        values = rows.eval(column)
    except Exception as exc:  # pandas raises many types for a bad expression
        raise ClaimSourceError(f"column {column!r}: {exc}") from exc
    return pd.Series(values, index=rows.index)


def _as_number(value: Any) -> Any:
    """A text cell holding one number (``0.975``, ``**0.975 s**``, ``466 MiB``) as a
    :class:`~decimal.Decimal`, so its written digits round half up as a reader would; any other
    value unchanged (``5/5`` stays text)."""
    if isinstance(value, str):
        match = _NUMBER_CELL.fullmatch(value.strip())
        if match:
            return Decimal(match.group(1))
    return value


def measure_value(sources: _Sources, default_source: str, m: Measure) -> Any:
    """The aggregate ``m`` describes."""
    rows = select(sources.rows(m.source or default_source), m.where)
    if rows.empty:
        raise ClaimSourceError(f"no row matches {dict(m.where)}")
    assert m.column is not None  # Measure.parse requires it
    values = _column(rows, m.column)
    if m.agg == "one":
        if len(values) != 1:
            raise ClaimSourceError(f"{len(values)} rows match {dict(m.where)}, expected one")
        return _as_number(values.iloc[0])
    if m.agg == "unique":
        distinct = values.dropna().unique()
        if len(distinct) != 1:
            raise ClaimSourceError(f"{len(distinct)} distinct {m.column} values, expected one")
        return _as_number(distinct[0])
    numbers = pd.to_numeric(values, errors="coerce").dropna()
    if numbers.empty:
        raise ClaimSourceError(f"no numeric {m.column} among {len(values)} rows")
    return float(getattr(numbers, m.agg)())


def compute(claim: Claim, sources: _Sources) -> tuple[Any, ...]:
    """The recomputed number(s) of a claim, the arguments of its format string."""
    if claim.kind in ("count", "fraction"):
        rows = select(sources.rows(claim.source), claim.where)
        if claim.kind == "count":
            return (len(rows),)
        return (len(select(rows, claim.hit)), len(rows))
    assert claim.measure is not None  # parse_claim sets it for value and ratio
    value = measure_value(sources, claim.source, claim.measure)
    if claim.kind == "value":
        return (value,)
    assert claim.denominator is not None
    return (float(value) / float(measure_value(sources, claim.source, claim.denominator)),)


def _normalise(text: str) -> str:
    """Whitespace runs as one space (prose wraps anywhere) and typographic signs as ASCII."""
    return re.sub(r"\s+", " ", text).translate(_TYPOGRAPHY).strip()


def _holds(claim: Claim, numbers: tuple[Any, ...], shown: str) -> bool:
    if claim.bound is None:
        return _normalise(shown) == _normalise(claim.value)
    written = float(_normalise(claim.value))
    value = float(numbers[0])
    return value <= written if claim.bound == "upper" else value >= written


def check_claim(claim: Claim, root: Path, sources: _Sources) -> str | None:
    """``None`` when the claim holds, else one line saying why not."""
    path = root / claim.file
    if not path.is_file():
        return f"{claim.label()}: file not found"
    found = _normalise(path.read_text(encoding="utf-8")).count(_normalise(claim.snippet))
    if found != 1:
        return f"{claim.label()}: snippet found {found} times in the file, expected once"
    if _normalise(claim.value) not in _normalise(claim.snippet):
        return f"{claim.label()}: written value {claim.value!r} is not in the snippet"
    try:
        numbers = compute(claim, sources)
        with localcontext() as ctx:
            ctx.rounding = ROUND_HALF_UP
            shown = claim.format.format(*numbers)
    except (ClaimSourceError, KeyError, ValueError, TypeError, ZeroDivisionError) as exc:
        return (
            f"{claim.label()}: written {claim.value}, not recomputable from {claim.source}: {exc}"
        )
    if _holds(claim, numbers, shown):
        return None
    relation = {"upper": " (written as an upper bound)", "lower": " (written as a lower bound)"}
    return (
        f"{claim.label()}: written {claim.value}, recomputed {shown} from {claim.source}"
        f"{relation.get(claim.bound or '', '')}"
    )


def check_claims(claims: Sequence[Claim], root: Path) -> list[str]:
    """One line per claim that does not hold (empty: every claim matches its data)."""
    sources = _Sources(root)
    return [msg for c in claims if (msg := check_claim(c, root, sources)) is not None]


def main(argv: Sequence[str] | None = None) -> int:
    """``check_claims.py [claims.yaml] [root]``: print the failing claims; 1 when there are any."""
    args = list(argv or [])
    root = Path(args[1]) if len(args) > 1 else Path.cwd()
    claims_path = Path(args[0]) if args else root / DEFAULT_CLAIMS
    claims = load_claims(claims_path)
    failures = check_claims(claims, root)
    for line in failures:
        print(line)
    print(f"{len(claims) - len(failures)} of {len(claims)} claims in {claims_path} hold")
    return 1 if failures else 0
