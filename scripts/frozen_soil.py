"""tab:frozen-soil: fractional Kelvin fits of the clay and silt creep records you supply.

Paper Sec. subsec:frozen-soil, docs/method/kelvin.md. The records (Yu et al.) are third-party and
not redistributed. Each record is checked like ``wp kelvin`` input (columns/arrays ``t`` and
``strain``, other names via ``--t-key`` / ``--strain-key``; one-line error and exit code 2 on bad
input), then fitted by the paper's recipe and by ours (:mod:`weakpareto.kelvin.model`), and the
table is written as ``<out-dir>/tab_frozen_soil.tex`` + ``tab_frozen_soil_paper_vs_ours.md``
(reference rows transcribed from the paper). Usage::

    python scripts/frozen_soil.py --clay clay.csv --silt silt.csv [--out-dir results/frozen_soil]
    make reproduce-frozen-soil CLAY=creep.mat SILT=silt.mat STRAIN_KEY=ex
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from weakpareto.errors import UserInputError
from weakpareto.kelvin.model import KelvinFit, fit_kelvin
from weakpareto.reporting.output import write_table_files
from weakpareto.reporting.paper_values import paper_table
from weakpareto.reporting.tables.frozen_soil import LABEL, SOILS, frozen_soil_table, loads
from weakpareto.user.kelvin_command import check_creep_path, check_load, load_record

DEFAULT_OUT = Path("results/frozen_soil")


def fit_record(path: str, load: float, t_key: str, strain_key: str) -> dict[str, KelvinFit]:
    """Both recipes' fits of one checked record."""
    data = check_creep_path(path)
    t, strain = load_record(data, t_key, strain_key)
    return {recipe: fit_kelvin(t, strain, load, recipe=recipe) for recipe in ("paper", "ours")}


def main(argv: list[str] | None = None) -> int:
    paper_loads = loads()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for soil, _ in SOILS:
        parser.add_argument(f"--{soil}", help=f"{soil} creep record (.csv/.parquet/.npz/.mat)")
        parser.add_argument(
            f"--{soil}-load",
            type=float,
            default=paper_loads[soil],
            help=f"constant load of the {soil} test in MPa (default {paper_loads[soil]})",
        )
    parser.add_argument("--t-key", default="t", help="time column/array (default t)")
    parser.add_argument(
        "--strain-key", default="strain", help="strain column/array (default strain)"
    )
    parser.add_argument("--out-dir", type=Path, default=DEFAULT_OUT, help=f"default {DEFAULT_OUT}")
    args = parser.parse_args(argv)
    try:
        given = {soil: getattr(args, soil) for soil, _ in SOILS if getattr(args, soil)}
        if not given:
            raise UserInputError(
                "give at least one record: --clay <file> and/or --silt <file> (make "
                "reproduce-frozen-soil CLAY=... SILT=...)"
            )
        fits = {
            soil: fit_record(
                path,
                check_load(getattr(args, f"{soil}_load")),
                args.t_key,
                args.strain_key,
            )
            for soil, path in given.items()
        }
    except UserInputError as err:
        print(f"frozen_soil: error: {err}", file=sys.stderr)
        return 2
    table = frozen_soil_table(fits)
    stem = paper_table(LABEL).layout.stem
    for soil, by_recipe in fits.items():
        for recipe, f in by_recipe.items():
            print(
                f"{soil:5s} {recipe:5s} alpha {f.alpha:.4f}  eta_K {f.eta_k:.4f}  E {f.modulus:.4f}"
                f"  t_ret {f.t_ret:.4f}  residual {f.residual:.4f}"
            )
    for path in write_table_files(args.out_dir, stem, table):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
