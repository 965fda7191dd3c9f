"""The independent suite: every method on fields the method's discretisations did not make.

Particle densities are also fitted with ``noise_kind="intrinsic"`` (the correction the
``correlated_noise`` warning advises; :mod:`weakpareto.fit.intrinsic`), labelled
``<method>+intrinsic``. Every method is fitted with ``refit="weak"`` (its own estimate); those
of ``refit_methods`` / ``refit_without_operator`` also with ``refit="auto"`` (a selected linear
model refitted to the trajectory, the users' default; :mod:`weakpareto.fit.trajectory`),
labelled ``<method>+trajectory``.

Cases (``scripts/independent_cases.yaml``): exact per-mode Mittag-Leffler solutions of linear
equations of the model class (sub-unit, integer and super-unit alpha, both operator families, one
or two orders, clean and with 1 % / 5 % multiplicative noise), nonlinear equations
``D_t^alpha u = sum c u^p X_beta u`` integrated by pycaputo (method of lines; clean and 1 %) and
densities of wrapped Lévy flights histogrammed from N particles (counting noise only). Each case
is fitted with ``WeakPareto(method=..., operator=<the case's family>, <plain settings of the
YAML>)``, no per-case tuning, and scored against its truth
(:func:`weakpareto.evaluation.metrics.score`); the methods of ``methods_without_operator`` are also
fitted without ``operator`` (each term's family chosen by the data, the users' default), labelled
``<method> (no operator)``, and every row passes only with each term in the truth's family
(:func:`in_family`).

Pass criteria (per case and method): the same terms and branch, and
* clean exact cases: |dalpha|, max |dbeta| <= 0.02, coefficients within 2 %;
* 1 % noise: 0.05 and 5 %; 5 % noise: 0.1 and 10 % (nonlinear pycaputo fields alike);
* particle densities: max |dbeta| <= 0.03 and coefficients within 5 % (N >= 1e5; smaller N are
  reported, not judged).

Writes ``results/independent/tab_independent.csv``; the ``.md`` and ``.tex`` are rendered from it
(:mod:`weakpareto.reporting.studies.independent`, also by ``wp report``)::

    python scripts/independent_suite.py [--out-dir results/independent] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import copy
import time
from pathlib import Path
from typing import Any

import pandas as pd
import yaml
from threadpoolctl import threadpool_limits

from weakpareto import WeakPareto
from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.evaluation.metrics import score, truth_equation
from weakpareto.io import write_csv_atomic
from weakpareto.records import Equation
from weakpareto.reporting.studies.independent import STEM
from weakpareto.reporting.studies.registry import write_study
from weakpareto.user.operator_default import distinct_families

CASES = Path(__file__).with_name("independent_cases.yaml")
NOISE_SEED = 11


def _exact_config(case: dict[str, Any], suite: dict[str, Any]) -> dict[str, Any]:
    alpha = float(case["alpha"])
    mode = "int" if alpha == 1.0 else ("sub" if alpha < 1 else "sup")
    terms = [{"power": p, "order": b, "coef": c} for p, b, c in case["terms"]]
    return {
        "name": case["name"],
        "generator": {"kind": "mittag_leffler", "ic": {"harmonics": suite["ic"]}},
        "grid": dict(suite["grid"]),
        "truth": {"mode": mode, "alpha": alpha, "operator": case["operator"], "terms": terms},
    }


def _nonlinear_config(case: dict[str, Any], block: dict[str, Any]) -> dict[str, Any]:
    config = _exact_config(case, {"ic": [], "grid": block["grid"]})
    config["generator"] = {
        "kind": "pycaputo",
        "substeps": int(block["substeps"]),
        "ic": copy.deepcopy(block["ic"]),
    }
    return config


def _particle_config(case: dict[str, Any], block: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": case["name"],
        "generator": {
            "kind": "levy_flight",
            "particles": int(case["particles"]),
            "ic": copy.deepcopy(block["ic"]),
        },
        "grid": dict(block["grid"]),
        "truth": {
            "mode": "int",
            "alpha": 1.0,
            "operator": "riesz",
            "terms": [{"power": 0, "order": float(case["mu"]), "coef": float(case["K"])}],
        },
    }


def tolerances(kind: str, noise: float, particles: int) -> tuple[float, float, float] | None:
    """(|dalpha|, |dbeta|, relative coefficient error) of a pass; None: reported, not judged."""
    if kind == "particles":
        return (0.02, 0.03, 0.05) if particles >= 100_000 else None
    if noise == 0:
        return 0.02, 0.02, 0.02
    return (0.05, 0.05, 0.05) if noise <= 0.01 else (0.1, 0.1, 0.1)


def judged(m: Any, families: bool, tol: tuple[float, float, float] | None) -> bool | None:
    """Whether a fit scored ``m`` (:func:`weakpareto.evaluation.metrics.score`), with every term
    in the truth's family or not, passes the tolerances ``tol`` (None: not judged)."""
    if tol is None:
        return None
    return bool(
        m.support_ok
        and families
        and m.branch_ok
        and m.e_alpha <= tol[0]
        and m.e_beta_max <= tol[1]
        and m.e_xi_max <= tol[2]
    )


def in_family(eq: Equation, family: str) -> bool:
    """Every term in the truth's ``family``, where the families differ (the identity and order
    2 are the same operator in both: :func:`weakpareto.user.operator_default.distinct_families`)."""
    return distinct_families(eq) <= {family}


def run_case(cfg: dict[str, Any], kind: str, noise: float, suite: dict[str, Any]) -> list[dict]:
    field = generate(cfg, 0)
    u = add_noise(field.u, "multiplicative", noise, NOISE_SEED) if noise > 0 else field.u
    truth = truth_equation(cfg)
    settings = suite["settings"]
    rows = []
    family = str(cfg["truth"]["operator"])
    weak = [(m, "measurement", family, "weak") for m in suite["methods"]]
    runs: list[tuple[str, str, str | None, str]] = weak
    runs += [(m, "measurement", family, "auto") for m in suite.get("refit_methods", [])]
    if kind == "particles":  # what the correlated_noise warning advises on particle densities
        runs += [(m, "intrinsic", family, "weak") for m in suite["particle_methods"]]
    runs += [(m, "measurement", None, "weak") for m in suite.get("methods_without_operator", [])]
    runs += [(m, "measurement", None, "auto") for m in suite.get("refit_without_operator", [])]
    for method, noise_kind, operator, refit in runs:
        model = WeakPareto(
            method=method,
            operator=operator,
            alpha_range=tuple(settings["alpha_range"]),
            beta_range=tuple(settings["beta_range"]),
            powers=tuple(settings["powers"]),
            noise_kind=noise_kind,
            refit=refit,
        )
        label = method if noise_kind == "measurement" else f"{method}+intrinsic"
        label += "+trajectory" if refit != "weak" else ""
        label += "" if operator is not None else " (no operator)"
        t0 = time.perf_counter()
        model.fit(u, field.t, field.x)
        seconds = time.perf_counter() - t0
        m = score(model.equation_, truth)
        n = int(cfg["generator"].get("particles", 0))
        tol = tolerances(kind, noise, n)
        families = in_family(model.equation_, family)
        passed = judged(m, families, tol)
        rows.append(
            {
                "case": cfg["name"],
                "kind": kind,
                "noise": noise,
                "particles": n,
                "method": label,
                "truth": truth.text(),
                "equation": model.equation_.text(sig_digits=4),
                "support": bool(m.support_ok),
                "families": families,
                "e_alpha": m.e_alpha,
                "e_beta_max": m.e_beta_max,
                "e_xi_max": m.e_xi_max,
                "passed": passed,
                "seconds": round(seconds, 2),
                "warnings": " ".join(w.code for w in model.warnings_ if w.level == "warning"),
            }
        )
        print(f"{cfg['name']:20s} {label:30s} {rows[-1]['equation']}  pass={passed}", flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", default="results/independent")
    parser.add_argument("--only", nargs="*", default=None, help="case names to run")
    args = parser.parse_args()
    suite = yaml.safe_load(CASES.read_text())
    jobs = [(_exact_config(c, suite), "exact", float(c.get("noise", 0.0))) for c in suite["exact"]]
    nonlinear = suite["nonlinear"]
    jobs += [
        (_nonlinear_config(c, nonlinear), "nonlinear", float(c.get("noise", 0.0)))
        for c in nonlinear["cases"]
    ]
    block = suite["particles"]
    jobs += [(_particle_config(c, block), "particles", 0.0) for c in block["cases"]]
    if args.only:
        jobs = [j for j in jobs if j[0]["name"] in set(args.only)]
    rows = []
    with threadpool_limits(1):
        for cfg, kind, noise in jobs:
            rows += run_case(cfg, kind, noise, suite)
    df = pd.DataFrame(rows)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    write_csv_atomic(df, out / f"{STEM}.csv")
    write_study(STEM, out)
    print((out / f"{STEM}.md").read_text(encoding="utf-8").split("\n\n")[0])


if __name__ == "__main__":
    main()
