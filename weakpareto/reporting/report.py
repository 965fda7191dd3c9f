"""The paper's result tables from the Parquet results: booktabs LaTeX plus paper-vs-ours notes.

``render_all(results_dir, out_dir)`` writes, for every table whose runs exist, ``<stem>.tex``
(the paper's column layout and number formats, ``\\toprule/\\midrule/\\bottomrule``) and
``<stem>_paper_vs_ours.md`` listing each cell's paper value beside ours. Tables without any
matching runs are skipped with a note on stderr. Aggregation follows spec §9 (see
:mod:`weakpareto.evaluation.metrics`).

The paper's reference values (:data:`PAPER`), layouts (:data:`LAYOUT`) and number formats
(:data:`DECIMALS`) are plain data transcribed from ``weak_pareto.tex``; LaTeX cell strings are
kept verbatim so that a reproduced cell can be compared with the paper's character by
character. Preamble needs ``booktabs``, ``multirow`` and ``amssymb`` (``\\checkmark``).
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd

from weakpareto.campaign.store import select_cell as select
from weakpareto.evaluation.metrics import (
    EMPTY,
    finite,
    fmt_fixed,
    fmt_mean,
    fmt_pm,
    fmt_sci,
    fmt_sci_mean,
    summarise,
)
from weakpareto.io import write_text_atomic
from weakpareto.records import IDENTITY_TOL

# =================================================================================================
# Paper data (transcribed from weak_pareto.tex; cells verbatim)
# =================================================================================================

#: Row names as typeset in the paper, by benchmark key.
BENCH_TEX = {
    "fade": "FADE",
    "rd_space": r"\shortstack[l]{Frac. RD\\(space)}",
    "rd_timespace": r"\shortstack[l]{Frac. RD\\(time--space)}",
    "burgers": "Burgers",
    "ade": "ADE",
    "riesz2": r"\shortstack[l]{Two-term\\Riesz}",
}
#: Plain names for the Markdown notes.
BENCH_PLAIN = {
    "fade": "FADE",
    "rd_space": "Frac. RD (space)",
    "rd_timespace": "Frac. RD (time-space)",
    "burgers": "Frac. Burgers",
    "ade": "ADE",
    "riesz2": "Two-term Riesz",
    "superunit": "Superunit",
}
#: Spatial operator of each benchmark (used when a row does not store it).
BENCH_OPERATOR = {"rd_space": "riesz", "rd_timespace": "riesz", "riesz2": "riesz"}

MAIN_BENCHMARKS = ("fade", "rd_space", "rd_timespace", "burgers")
RD_BENCHMARKS = ("rd_space", "rd_timespace")
RD_NOISES = (0.0, 0.02, 0.05, 0.10)
ROBUST_NOISES = (0.0, 0.01, 0.05, 0.10, 0.20)
SUPERUNIT_NOISES = ((0.0, "0"), (0.005, "0.5"), (0.01, "1.0"))
EQUATION_CASES = (
    ("fade", 0.0),
    ("fade", 0.10),
    ("rd_space", 0.0),
    ("rd_space", 0.05),
    ("rd_timespace", 0.0),
    ("rd_timespace", 0.05),
    ("burgers", 0.0),
    ("burgers", 0.10),
)
ABLATION_METHODS = (  # (method, LaTeX name, weak, continuous, polish)
    ("strong_pareto", r"\shortstack[l]{Strong-\\Pareto}", "no", "yes", "no"),
    ("weak_grid_stridge", r"\shortstack[l]{Weak Grid-\\STRidge}", "yes", "no", "no"),
    ("weak_pareto_nopolish", r"\shortstack[l]{Weak-Pareto\\(no polish)}", "yes", "yes", "no"),
    ("weak_pareto", r"\shortstack[l]{Full\\Weak-Pareto}", "yes", "yes", "yes"),
)
APPENDIX_CASES = (  # (benchmark, variant, LaTeX setting)
    ("ade", "default", "default"),
    ("ade", "p0", r"$p\in\{0\}$"),
    ("riesz2", "default", "default"),
    ("riesz2", "p0_aic", r"$p\in\{0\}$, AIC-type"),
)
GAUSSIAN_CASES = (  # (benchmark, LaTeX name, method, LaTeX method)
    ("fade", "FADE", "weak_pareto", "Weak"),
    ("fade", "FADE", "strong_pareto", "Strong"),
    ("burgers", "Frac. Burgers", "weak_pareto", "Weak"),
    ("burgers", "Frac. Burgers", "strong_pareto", "Strong"),
)
SUPERUNIT_METHODS = (("weak_pareto", "Weak-Pareto"), ("strong_pareto", "Strong-Pareto"))

#: Truth lines of tab:equations (paper derivative shorthand), by benchmark.
EQUATION_TRUTH = {
    "fade": (r"\emph{FADE}", r"$D_t^{0.80}u=-1.00\,u_x+0.50\,D_x^{1.70}u$", "FADE"),
    "rd_space": (
        r"\emph{Frac. RD (space)}",
        r"$\partial_tu=0.04\,u+0.18\,\mathcal R_{1.65}u$",
        r"\shortstack[l]{Frac. RD\\(space)}",
    ),
    "rd_timespace": (
        r"\emph{Frac. RD (time--space)}",
        r"$D_t^{0.82}u=0.03\,u+0.12\,\mathcal R_{1.55}u$",
        r"\shortstack[l]{Frac. RD\\(time--space)}",
    ),
    "burgers": (
        r"\emph{Frac. Burgers}",
        r"$\partial_tu=0.25\,D_x^{1.70}u-1.00\,u\,u_x$",
        "Frac. Burgers",
    ),
}

#: Decimal places per table/row/column (mean and SD use the same precision), as in the paper.
DECIMALS: dict[str, dict[str, dict[str, int]]] = {
    "tab:main": {
        "fade": {"e_alpha": 3, "e_beta_max": 2, "e_xi_max": 2, "e_xi_2": 2, "fit_error": 3},
        "rd_space": {"e_alpha": 2, "e_beta_max": 2, "e_xi_max": 2, "e_xi_2": 2, "fit_error": 2},
        "rd_timespace": {"e_alpha": 2, "e_beta_max": 2, "e_xi_max": 2, "e_xi_2": 2, "fit_error": 2},
        "burgers": {"e_alpha": 3, "e_beta_max": 3, "e_xi_max": 3, "e_xi_2": 3, "fit_error": 3},
    },
    # tab:rdnoise: 4 decimals in the clean rows, 2 in the noisy rows.
    "tab:rdnoise": {
        "clean": {"e_alpha": 4, "e_beta_max": 4, "e_xi_max": 4, "fit_error": 4},
        "noisy": {"e_alpha": 2, "e_beta_max": 2, "e_xi_max": 2, "fit_error": 2},
    },
    "tab:ablation": {"*": {"e_beta_max": 2, "e_xi_max": 2, "fit_error": 3}},
    "tab:gaussian-noise": {"*": {"e_beta_max": 3, "e_xi_max": 3, "fit_error": 3}},
    "tab:appendix": {"*": {"e_beta_max": 2, "e_xi_max": 2, "fit_error": 3}},
    # conditioned mean e_xi (fixed) and mean E_fit (scientific mantissa digits)
    "tab:robustness": {"*": {"e_xi_max": 2, "fit_error_sci": 1}},
    "tab:progress": {"*": {"train_error_sci": 2, "val_error_sci": 2}},
    "tab:conditioning": {"*": {"spacing": 2, "coherence": 3, "condition_sci": 1}},
    # e_alpha/e_beta mean +- SD (fixed); e_xi and E_fit plain means (scientific); cond_2 fixed
    "tab:ksens": {
        "*": {"e_alpha": 3, "e_beta_max": 2, "e_xi_max_sci": 1, "fit_error_sci": 1, "condition": 2}
    },
    "tab:elbow-margin-sensitivity": {"*": {"delta": 3}},
}

#: Reference values: table label -> row id -> column id -> LaTeX cell as printed in the paper.
PAPER: dict[str, dict[str, dict[str, str]]] = {
    "tab:main": {
        "fade": {
            "support": "5/5",
            "operator": "5/5",
            "e_alpha": r"$0.002\pm0.002$",
            "e_beta_max": r"$0.07\pm0.03$",
            "e_xi_max": r"$0.12\pm0.09$",
            "e_xi_2": r"$0.08\pm0.05$",
            "fit_error": r"$0.022\pm0.001$",
        },
        "rd_space": {
            "support": "3/5",
            "operator": "0/5",
            "e_alpha": r"$0.20\pm0.00$",
            "e_beta_max": r"$0.37\pm0.15$",
            "e_xi_max": r"$2.56\pm1.97$",
            "e_xi_2": r"$0.60\pm0.43$",
            "fit_error": r"$0.67\pm0.09$",
        },
        "rd_timespace": {
            "support": "5/5",
            "operator": "0/5",
            "e_alpha": r"$0.17\pm0.01$",
            "e_beta_max": r"$0.54\pm0.38$",
            "e_xi_max": r"$3.00\pm2.45$",
            "e_xi_2": r"$0.94\pm0.76$",
            "fit_error": r"$0.39\pm0.04$",
        },
        "burgers": {
            "support": "5/5",
            "operator": "5/5",
            "e_alpha": r"$0.000\pm0.000$",
            "e_beta_max": r"$0.003\pm0.002$",
            "e_xi_max": r"$0.005\pm0.004$",
            "e_xi_2": r"$0.002\pm0.002$",
            "fit_error": r"$0.051\pm0.007$",
        },
    },
    "tab:rdnoise": {
        "rd_space@0": {
            "support": "5/5",
            "operator": "5/5",
            "e_alpha": r"$0.0000\pm0.0000$",
            "e_beta_max": r"$0.0006\pm0.0001$",
            "e_xi_max": r"$0.0060\pm0.0001$",
            "fit_error": r"$0.0042\pm0.0001$",
        },
        "rd_space@2": {
            "support": "5/5",
            "operator": "0/5",
            "e_alpha": r"$0.19\pm0.01$",
            "e_beta_max": r"$0.19\pm0.12$",
            "e_xi_max": r"$1.58\pm1.36$",
            "fit_error": r"$0.18\pm0.02$",
        },
        "rd_space@5": {
            "support": "5/5",
            "operator": "0/5",
            "e_alpha": r"$0.20\pm0.00$",
            "e_beta_max": r"$0.30\pm0.15$",
            "e_xi_max": r"$2.03\pm1.79$",
            "fit_error": r"$0.37\pm0.04$",
        },
        "rd_space@10": {
            "support": "3/5",
            "operator": "0/5",
            "e_alpha": r"$0.20\pm0.00$",
            "e_beta_max": r"$0.37\pm0.15$",
            "e_xi_max": r"$2.56\pm1.97$",
            "fit_error": r"$0.67\pm0.09$",
        },
        "rd_timespace@0": {
            "support": "5/5",
            "operator": "5/5",
            "e_alpha": r"$0.0008\pm0.0000$",
            "e_beta_max": r"$0.0010\pm0.0001$",
            "e_xi_max": r"$0.0077\pm0.0001$",
            "fit_error": r"$0.0052\pm0.0001$",
        },
        "rd_timespace@2": {
            "support": "5/5",
            "operator": "2/5",
            "e_alpha": r"$0.07\pm0.03$",
            "e_beta_max": r"$0.11\pm0.11$",
            "e_xi_max": r"$1.42\pm1.21$",
            "fit_error": r"$0.10\pm0.01$",
        },
        "rd_timespace@5": {
            "support": "5/5",
            "operator": "0/5",
            "e_alpha": r"$0.15\pm0.03$",
            "e_beta_max": r"$0.34\pm0.21$",
            "e_xi_max": r"$2.57\pm1.38$",
            "fit_error": r"$0.22\pm0.02$",
        },
        "rd_timespace@10": {
            "support": "5/5",
            "operator": "0/5",
            "e_alpha": r"$0.17\pm0.01$",
            "e_beta_max": r"$0.54\pm0.38$",
            "e_xi_max": r"$3.00\pm2.45$",
            "fit_error": r"$0.39\pm0.04$",
        },
    },
    "tab:progress": {
        "1": {
            "train_error": r"$5.94{\times}10^{-3}$",
            "val_error": r"$5.49{\times}10^{-3}$",
            "selected": "",
        },
        "2": {
            "train_error": r"$1.21{\times}10^{-4}$",
            "val_error": r"$1.16{\times}10^{-4}$",
            "selected": r"$\checkmark$",
        },
        "3": {
            "train_error": r"$1.05{\times}10^{-4}$",
            "val_error": r"$9.40{\times}10^{-5}$",
            "selected": "",
        },
    },
    # "seed" is the representative seed of the reference run (spec §14), not a printed column.
    "tab:equations": {
        "fade@0": {
            "equation": r"$D_t^{0.7990}u=-0.99\,D_x^{1.00}u+0.49\,D_x^{1.73}u$",
            "seed": "4",
        },
        "fade@10": {
            "equation": r"$D_t^{0.8038}u=-1.11\,D_x^{1.03}u+0.63\,D_x^{1.61}u$",
            "seed": "1",
        },
        "rd_space@0": {"equation": r"$\partial_tu=0.04\,u+0.18\,\mathcal R_{1.65}u$", "seed": "2"},
        "rd_space@5": {
            "equation": r"$D_t^{0.8000}u=-0.06\,\mathcal R_{0.27}u+0.20\,"
            r"\mathcal R_{1.53}u$\textsuperscript{\(\dagger\)}",
            "seed": "1",
        },
        "rd_timespace@0": {
            "equation": r"$D_t^{0.8208}u=0.03\,u+0.12\,\mathcal R_{1.55}u$",
            "seed": "1",
        },
        "rd_timespace@5": {
            "equation": r"$D_t^{0.6500}u=-0.06\,\mathcal R_{0.29}u+0.16\,"
            r"\mathcal R_{1.44}u$\textsuperscript{\(\dagger\)}",
            "seed": "3",
        },
        "burgers@0": {
            "equation": r"$\partial_tu=0.25\,D_x^{1.70}u-1.00\,u\,D_x^{1.00}u$",
            "seed": "3",
        },
        "burgers@10": {
            "equation": r"$\partial_tu=0.25\,D_x^{1.70}u-1.00\,u\,D_x^{1.00}u$",
            "seed": "4",
        },
    },
    "tab:robustness": {
        "0": {
            "weak_support": "5/5",
            "weak_e_xi_max": "0.03",
            "weak_fit_error": r"$1.5{\times}10^{-3}$",
            "strong_support": "5/5",
            "strong_e_xi_max": "0.04",
            "strong_fit_error": r"$2.7{\times}10^{-3}$",
        },
        "1": {
            "weak_support": "5/5",
            "weak_e_xi_max": "0.02",
            "weak_fit_error": r"$2.7{\times}10^{-3}$",
            "strong_support": "0/5",
            "strong_e_xi_max": "--",
            "strong_fit_error": r"$2.7{\times}10^{-1}$",
        },
        "5": {
            "weak_support": "5/5",
            "weak_e_xi_max": "0.03",
            "weak_fit_error": r"$1.1{\times}10^{-2}$",
            "strong_support": "4/5",
            "strong_e_xi_max": "1.13",
            "strong_fit_error": r"$6.3{\times}10^{-1}$",
        },
        "10": {
            "weak_support": "5/5",
            "weak_e_xi_max": "0.12",
            "weak_fit_error": r"$2.2{\times}10^{-2}$",
            "strong_support": "0/5",
            "strong_e_xi_max": "--",
            "strong_fit_error": r"$8.4{\times}10^{-1}$",
        },
        "20": {
            "weak_support": "5/5",
            "weak_e_xi_max": "0.69",
            "weak_fit_error": r"$4.3{\times}10^{-2}$",
            "strong_support": "0/5",
            "strong_e_xi_max": "--",
            "strong_fit_error": r"$8.2{\times}10^{-1}$",
        },
    },
    # The paper tabulates FADE only; Burgers appears in Fig. 2 (no cell values).
    "tab:robustness-burgers": {},
    "tab:ablation": {
        "strong_pareto": {
            "support": "0/5",
            "operator": "0/5",
            "e_beta_max": "--",
            "e_xi_max": "--",
            "fit_error": r"$0.842\pm0.002$",
        },
        "weak_grid_stridge": {
            "support": "0/5",
            "operator": "0/5",
            "e_beta_max": "--",
            "e_xi_max": "--",
            "fit_error": r"$0.014\pm0.001$",
        },
        "weak_pareto_nopolish": {
            "support": "5/5",
            "operator": "5/5",
            "e_beta_max": r"$0.08\pm0.03$",
            "e_xi_max": r"$0.13\pm0.06$",
            "fit_error": r"$0.022\pm0.001$",
        },
        "weak_pareto": {
            "support": "5/5",
            "operator": "5/5",
            "e_beta_max": r"$0.07\pm0.03$",
            "e_xi_max": r"$0.12\pm0.09$",
            "fit_error": r"$0.022\pm0.001$",
        },
    },
    "tab:superunit": {
        "weak_pareto@0": {"branch": "5/5", "operator": "5/5"},
        "weak_pareto@0.5": {"branch": "5/5", "operator": "5/5"},
        "weak_pareto@1.0": {"branch": "5/5", "operator": "1/5"},
        "strong_pareto@0": {"branch": "5/5", "operator": "5/5"},
        "strong_pareto@0.5": {"branch": "0/5", "operator": "0/5"},
        "strong_pareto@1.0": {"branch": "0/5", "operator": "0/5"},
    },
    "tab:gaussian-noise": {
        "fade/weak_pareto": {
            "support": "5/5",
            "operator": "4/5",
            "e_beta_max": r"$0.134\pm0.033$",
            "e_xi_max": r"$0.245\pm0.123$",
            "fit_error": r"$0.030\pm0.003$",
        },
        "fade/strong_pareto": {
            "support": "0/5",
            "operator": "0/5",
            "e_beta_max": "--",
            "e_xi_max": "--",
            "fit_error": r"$0.838\pm0.001$",
        },
        "burgers/weak_pareto": {
            "support": "5/5",
            "operator": "4/5",
            "e_beta_max": r"$0.004\pm0.003$",
            "e_xi_max": r"$0.017\pm0.011$",
            "fit_error": r"$0.080\pm0.004$",
        },
        "burgers/strong_pareto": {
            "support": "0/5",
            "operator": "0/5",
            "e_beta_max": "--",
            "e_xi_max": "--",
            "fit_error": r"$0.831\pm0.001$",
        },
    },
    "tab:appendix": {
        "ade/default": {
            "support": "0/5",
            "operator": "0/5",
            "e_beta_max": "--",
            "e_xi_max": "--",
            "fit_error": r"$0.031\pm0.008$",
        },
        "ade/p0": {
            "support": "4/5",
            "operator": "0/5",
            "e_beta_max": r"$0.17\pm0.21$",
            "e_xi_max": r"$0.46\pm0.19$",
            "fit_error": r"$0.037\pm0.004$",
        },
        "riesz2/default": {
            "support": "0/5",
            "operator": "0/5",
            "e_beta_max": "--",
            "e_xi_max": "--",
            "fit_error": r"$0.238\pm0.014$",
        },
        "riesz2/p0_aic": {
            "support": "5/5",
            "operator": "0/5",
            "e_beta_max": r"$0.21\pm0.14$",
            "e_xi_max": r"$0.38\pm0.11$",
            "fit_error": r"$0.236\pm0.013$",
        },
    },
    "tab:conditioning": {
        "0.50": {"columns": "6", "coherence": "0.722", "condition": r"$3.2{\times}10^{2}$"},
        "0.25": {"columns": "12", "coherence": "0.921", "condition": r"$2.6{\times}10^{9}$"},
        "0.10": {"columns": "30", "coherence": "0.987", "condition": r"$8.4{\times}10^{15}$"},
        "0.05": {"columns": "59", "coherence": "0.997", "condition": r"$1.3{\times}10^{16}$"},
    },
    # App. "Sensitivity to the number of weak rows"; row id = run variant (test counts).
    "tab:ksens": {
        "K15x21": {
            "K": "315",
            "support": "5/5",
            "operator": "5/5",
            "e_alpha": r"$0.002\pm0.002$",
            "e_beta_max": r"$0.04\pm0.03$",
            "e_xi_max": r"$4.7{\times}10^{-2}$",
            "fit_error": r"$8.6{\times}10^{-3}$",
            "condition": r"$1.60$",
        },
        "K22x30": {
            "K": "660",
            "support": "5/5",
            "operator": "5/5",
            "e_alpha": r"$0.002\pm0.002$",
            "e_beta_max": r"$0.04\pm0.03$",
            "e_xi_max": r"$5.0{\times}10^{-2}$",
            "fit_error": r"$9.9{\times}10^{-3}$",
            "condition": r"$1.60$",
        },
        "K31x43": {
            "K": "1333",
            "support": "5/5",
            "operator": "5/5",
            "e_alpha": r"$0.002\pm0.002$",
            "e_beta_max": r"$0.03\pm0.03$",
            "e_xi_max": r"$5.4{\times}10^{-2}$",
            "fit_error": r"$1.4{\times}10^{-2}$",
            "condition": r"$1.59$",
        },
        "K44x60": {
            "K": "2640",
            "support": "5/5",
            "operator": "5/5",
            "e_alpha": r"$0.002\pm0.002$",
            "e_beta_max": r"$0.07\pm0.03$",
            "e_xi_max": r"$1.2{\times}10^{-1}$",
            "fit_error": r"$2.2{\times}10^{-2}$",
            "condition": r"$1.59$",
        },
        "K62x85": {
            "K": "5270",
            "support": "5/5",
            "operator": "1/5",
            "e_alpha": r"$0.002\pm0.001$",
            "e_beta_max": r"$0.22\pm0.07$",
            "e_xi_max": r"$6.3{\times}10^{-1}$",
            "fit_error": r"$3.4{\times}10^{-2}$",
            "condition": r"$1.59$",
        },
    },
    # App. E.1. The table has the c=1,2 audit; "full_support"/"full_operator" are the
    # full-selector reruns at m2 = 0.10/0.15/0.20 quoted in the text (RD space only).
    "tab:elbow-margin-sensitivity": {
        "fade": {
            "range": r"$0.971$--$1.124$",
            "m0.1": "$5/5$",
            "m0.15": "$5/5$",
            "m0.2": "$5/5$",
        },
        "burgers": {
            "range": r"$2.019$--$2.269$",
            "m0.1": "$5/5$",
            "m0.15": "$5/5$",
            "m0.2": "$5/5$",
        },
        "rd_space": {
            "range": r"$0.107$--$0.267$",
            "m0.1": "$5/5$",
            "m0.15": "$3/5$",
            "m0.2": "$1/5$",
            "full_support": "$5/5$, $3/5$, $1/5$",
            "full_operator": "$0/5$, $0/5$, $0/5$",
        },
        "rd_timespace": {
            "range": r"$0.384$--$0.663$",
            "m0.1": "$5/5$",
            "m0.15": "$5/5$",
            "m0.2": "$5/5$",
        },
    },
}

_SUPPORT = r"\shortstack{Support/\\power}"
_OPERATOR = r"\shortstack{Operator\\structure}"
_EFIT = r"$\mathcal E_{\mathrm{fit}}$"

#: LaTeX layout per table (header rows verbatim from the paper; \botrule -> \bottomrule).
LAYOUT: dict[str, dict[str, Any]] = {
    "tab:main": {
        "stem": "tab_main",
        "size": r"\footnotesize",
        "tabcolsep": "0pt",
        "colspec": r"@{\extracolsep\fill}lccccccc",
        "header": [
            rf"Benchmark & {_SUPPORT} & {_OPERATOR} & $e_\alpha$ & $e_\beta^{{\max}}$ & "
            rf"$e_\xi^{{\max}}$ & $e_{{\xi,2}}$ & {_EFIT} \\"
        ],
        "caption": r"Weak-Pareto on the four main benchmarks at $10\%$ multiplicative noise "
        r"(reproduction).",
    },
    "tab:rdnoise": {
        "stem": "tab_rdnoise",
        "size": r"\footnotesize",
        "tabcolsep": "0pt",
        "colspec": r"@{\extracolsep\fill}lccccccc",
        "header": [
            rf"Benchmark & Noise (\%) & {_SUPPORT} & {_OPERATOR} & $e_\alpha$ & "
            rf"$e_\beta^{{\max}}$ & $e_\xi^{{\max}}$ & {_EFIT} \\"
        ],
        "caption": "Order identifiability of the two Riesz reaction--diffusion benchmarks versus "
        "noise (reproduction).",
    },
    "tab:progress": {
        "stem": "tab_progress",
        "size": None,
        "tabcolsep": None,
        "colspec": r"@{\extracolsep\fill}lccc",
        "header": [r"Support size $c$ & Training error & Validation error & Selected \\"],
        "caption": r"Support-size progress on FADE ($5\%$ noise, seed 0): training and "
        r"validation error of the best model at each support size (reproduction).",
    },
    "tab:equations": {
        "stem": "tab_equations",
        "size": r"\footnotesize",
        "tabcolsep": "3pt",
        "colspec": r"@{\extracolsep\fill}lll",
        "header": [r"Benchmark & Noise & Discovered equation (representative seed) \\"],
        "caption": r"Representative discovered equations versus ground truth (reproduction); "
        r"a dagger marks an unrecovered operator structure.",
    },
    "tab:robustness": {
        "stem": "tab_robustness",
        "size": None,
        "tabcolsep": None,
        "colspec": r"@{\extracolsep\fill}lcccccc",
        "header": [
            r"& \multicolumn{3}{@{}c@{}}{Weak (proposed)} & \multicolumn{3}{@{}c@{}}"
            r"{Strong-form} \\\cmidrule{2-4}\cmidrule{5-7}",
            rf"Noise (\%) & Support/power & $e_\xi^{{\max}}$ & {_EFIT} & Support/power & "
            rf"$e_\xi^{{\max}}$ & {_EFIT} \\",
        ],
        "caption": "Weak-Pareto versus the strong-form pointwise library under the same "
        "best-subset selector on FADE (reproduction).",
    },
    "tab:robustness-burgers": {
        "stem": "tab_robustness_burgers",
        "size": None,
        "tabcolsep": None,
        "colspec": r"@{\extracolsep\fill}lcccccc",
        "header": [
            r"& \multicolumn{3}{@{}c@{}}{Weak (proposed)} & \multicolumn{3}{@{}c@{}}"
            r"{Strong-form} \\\cmidrule{2-4}\cmidrule{5-7}",
            rf"Noise (\%) & Support/power & $e_\xi^{{\max}}$ & {_EFIT} & Support/power & "
            rf"$e_\xi^{{\max}}$ & {_EFIT} \\",
        ],
        "caption": "Weak-Pareto versus the strong-form pointwise library under the same "
        "best-subset selector on fractional Burgers (reproduction of Fig. 2b).",
    },
    "tab:ablation": {
        "stem": "tab_ablation",
        "size": r"\footnotesize",
        "tabcolsep": "0.4pt",
        "colspec": r"@{\extracolsep\fill}lcccccccc",
        "header": [
            r"Method & Weak & Cont. & Polish & \shortstack{Supp./\\pow.} & "
            r"\shortstack{Oper./\\struct.} & $e_\beta^{\max}$ & $e_\xi^{\max}$ & "
            rf"{_EFIT} \\"
        ],
        "caption": r"Component ablation on FADE at $10\%$ noise (reproduction).",
    },
    "tab:superunit": {
        "stem": "tab_superunit",
        "size": r"\footnotesize",
        "tabcolsep": "5pt",
        "colspec": r"@{\extracolsep\fill}lccc",
        "header": [r"Method & Noise (\%) & Branch recovery & Operator recovery \\"],
        "caption": "Fixed-support superunit diagnostic under multiplicative-uniform noise "
        "(reproduction).",
    },
    "tab:gaussian-noise": {
        "stem": "tab_gaussian_noise",
        "size": r"\footnotesize",
        "tabcolsep": "0.5pt",
        "colspec": r"@{\extracolsep\fill}llccccc",
        "header": [
            r"Benchmark & Method & Supp. & Op. & $e_\beta^{\max}$ & $e_\xi^{\max}$ & "
            rf"{_EFIT} \\"
        ],
        "caption": r"Additive-Gaussian robustness at $10\%$ of the clean-field standard "
        r"deviation (reproduction).",
    },
    "tab:appendix": {
        "stem": "tab_appendix",
        "size": r"\footnotesize",
        "tabcolsep": "0.2pt",
        "colspec": r"@{\extracolsep\fill}llccccc",
        "header": [
            rf"Benchmark & Setting & {_SUPPORT} & {_OPERATOR} & $e_\beta^{{\max}}$ & "
            rf"$e_\xi^{{\max}}$ & {_EFIT} \\"
        ],
        "caption": r"Challenging cases under defaults versus case-specific adjustments at "
        r"$10\%$ noise (reproduction).",
    },
    "tab:conditioning": {
        "stem": "tab_conditioning",
        "size": None,
        "tabcolsep": None,
        "colspec": r"@{\extracolsep\fill}lccc",
        "header": [
            r"Order spacing $\Delta\beta$ & Columns & Mutual coherence & "
            r"Condition number \\"
        ],
        "caption": "Conditioning of a fixed dense fractional dictionary as the order spacing "
        "shrinks (reproduction).",
    },
    "tab:ksens": {
        "stem": "tab_ksens",
        "size": r"\footnotesize",
        "tabcolsep": "0pt",
        "colspec": r"@{\extracolsep\fill}lcccccccc",
        # paper macro \Tmat expanded to \Theta and \operatorname{cond} typeset as \mathrm{cond}
        # so that the table needs no amsmath or paper preamble
        "header": [
            r" Test grid & $K$ & \shortstack{Supp./\\pow.} & \shortstack{Oper./\\struct.} & "
            r"$e_\alpha$ & $e_\beta^{\max}$ & $e_\xi^{\max}$ & "
            rf"{_EFIT} & $\mathrm{{cond}}_2(\widetilde\Theta)$ \\"
        ],
        "caption": r"Sensitivity to the number of weak rows $K=n_t^{\mathrm{test}}\times "
        r"n_x^{\mathrm{test}}$ on FADE at $10\%$ noise (reproduction; mean $\pm$ sample SD "
        r"over all seeds; $\mathrm{cond}_2$ of the column-normalised exact "
        r"true-structure library on the seed-0 field).",
    },
    "tab:elbow-margin-sensitivity": {
        "stem": "tab_elbow_margin",
        "size": r"\footnotesize",
        "tabcolsep": "4pt",
        "colspec": r"@{\extracolsep\fill}lccccc",
        "header": [
            r"Benchmark & Range of $\Delta_{12}$ & $m_2=0.10$ & $m_2=0.15$ & $m_2=0.20$ & "
            r"\shortstack{Full-selector supp.\\($m_2=0.10$, $0.15$, $0.20$)} \\"
        ],
        "caption": r"Sensitivity of the two-point elbow decision at $10\%$ multiplicative "
        r"noise (reproduction). $\Delta_{12}=\log_{10}(\mathcal E_1^\star/\mathcal E_2^\star)$ "
        r"from the $c=1,2$ fronts; the margin columns count seeds with $\Delta_{12}>m_2$; the "
        r"last column gives the support/power recovery of full-selector reruns at each margin.",
    },
}

# =================================================================================================
# Rendering machinery
# =================================================================================================


@dataclass
class Rendered:
    """One rendered table: its LaTeX and, per row, our cell strings for the comparison notes."""

    label: str
    latex: str
    rows: list[tuple[str, str, dict[str, str]]]  # (row id, plain row name, {column id: cell})
    columns: list[tuple[str, str]]  # (column id, plain column name)
    notes: list[str] = field(default_factory=list)
    raw_cells: bool = False  # show cells verbatim (equations) in the Markdown

    @property
    def stem(self) -> str:
        return LAYOUT[self.label]["stem"]


def _line(cells: Sequence[str]) -> str:
    return " & ".join(cells) + r" \\"


def latex_table(label: str, body: Sequence[str]) -> str:
    """A ``table`` float in the paper's ``tabular*`` layout with booktabs rules."""
    lay = LAYOUT[label]
    out = [r"\begin{table}[t]", r"\centering", rf"\caption{{{lay['caption']}}}\label{{{label}}}"]
    if lay.get("size"):
        out.append(lay["size"])
    if lay.get("tabcolsep"):
        out.append(rf"\setlength{{\tabcolsep}}{{{lay['tabcolsep']}}}")
    out += [
        rf"\begin{{tabular*}}{{\textwidth}}{{{lay['colspec']}}}",
        r"\toprule",
        *lay["header"],
        r"\midrule",
        *body,
        r"\bottomrule",
        r"\end{tabular*}",
        r"\end{table}",
    ]
    return (
        "% Generated by `wp report` (weakpareto.report); needs booktabs, multirow, amssymb.\n"
        + "\n".join(out)
        + "\n"
    )


def _noise_pct(noise: float) -> str:
    return f"{100 * noise:g}"


def _count(df: pd.DataFrame, which: str) -> str:
    return EMPTY if df.empty else summarise(df).count(which)


def _pm(df: pd.DataFrame, column: str, decimals: int) -> str:
    return EMPTY if df.empty else summarise(df).pm(column, decimals)


def _group_cells(df: pd.DataFrame, columns: Sequence[str], decimals: dict[str, int]) -> dict:
    cells = {}
    for c in columns:
        if c in ("support", "operator", "branch"):
            cells[c] = _count(df, c)
        else:
            cells[c] = _pm(df, c, decimals[c])
    return cells


def _missing_note(label: str, what: str) -> str:
    return f"{label}: no runs for {what}"


# -- tab:main ------------------------------------------------------------------------------------
MAIN_COLUMNS = (
    ("support", "Support/power"),
    ("operator", "Operator structure"),
    ("e_alpha", "e_alpha"),
    ("e_beta_max", "e_beta^max"),
    ("e_xi_max", "e_xi^max"),
    ("e_xi_2", "e_xi,2"),
    ("fit_error", "E_fit"),
)


def table_main(runs: pd.DataFrame) -> Rendered | None:
    label = "tab:main"
    rows, body, notes = [], [], []
    for b in MAIN_BENCHMARKS:
        df = select(runs, b, 0.10)
        if df.empty:
            notes.append(_missing_note(label, f"{b} at 10 %"))
        cells = _group_cells(df, [c for c, _ in MAIN_COLUMNS], DECIMALS[label][b])
        rows.append((b, BENCH_PLAIN[b], cells))
        body.append(_line([BENCH_TEX[b], *(cells[c] for c, _ in MAIN_COLUMNS)]))
    if len(notes) == len(MAIN_BENCHMARKS):
        return None
    return Rendered(label, latex_table(label, body), rows, list(MAIN_COLUMNS), notes)


# -- tab:rdnoise ---------------------------------------------------------------------------------
RDNOISE_COLUMNS = (
    ("support", "Support/power"),
    ("operator", "Operator structure"),
    ("e_alpha", "e_alpha"),
    ("e_beta_max", "e_beta^max"),
    ("e_xi_max", "e_xi^max"),
    ("fit_error", "E_fit"),
)


def table_rdnoise(runs: pd.DataFrame) -> Rendered | None:
    label = "tab:rdnoise"
    rows, body, notes = [], [], []
    for bi, b in enumerate(RD_BENCHMARKS):
        if bi:
            body.append(r"\midrule")
        for i, noise in enumerate(RD_NOISES):
            df = select(runs, b, noise)
            if df.empty:
                notes.append(_missing_note(label, f"{b} at {_noise_pct(noise)} %"))
            dec = DECIMALS[label]["clean" if noise == 0 else "noisy"]
            cells = _group_cells(df, [c for c, _ in RDNOISE_COLUMNS], dec)
            rid = f"{b}@{_noise_pct(noise)}"
            rows.append((rid, f"{BENCH_PLAIN[b]}, {_noise_pct(noise)} %", cells))
            name = rf"\multirow{{{len(RD_NOISES)}}}{{*}}{{{BENCH_TEX[b]}}}" if i == 0 else ""
            body.append(_line([name, _noise_pct(noise), *(cells[c] for c, _ in RDNOISE_COLUMNS)]))
    if len(notes) == len(RD_BENCHMARKS) * len(RD_NOISES):
        return None
    return Rendered(label, latex_table(label, body), rows, list(RDNOISE_COLUMNS), notes)


# -- tab:progress --------------------------------------------------------------------------------
PROGRESS_COLUMNS = (
    ("train_error", "Training error"),
    ("val_error", "Validation error"),
    ("selected", "Selected"),
)


def table_progress(
    fronts: pd.DataFrame, benchmark: str = "fade", noise: float = 0.05, seed: int = 0
) -> Rendered | None:
    label = "tab:progress"
    if fronts.empty:
        return None
    m = (
        (fronts["benchmark"] == benchmark)
        & (fronts["method"] == "weak_pareto")
        & (fronts["variant"] == "default")
        & (fronts["noise_law"] == "multiplicative")
        & (fronts["seed"] == seed)
        & np.isclose(fronts["noise"].astype(float), noise, rtol=0.0, atol=1e-9)
    )
    df = fronts.loc[m]
    if df.empty:
        return None
    latest = df.sort_values("created_utc", kind="stable").iloc[-1]["config_hash"]
    df = df[df["config_hash"] == latest].sort_values("size")
    dec = DECIMALS[label]["*"]
    rows, body = [], []
    for r in df.itertuples(index=False):
        cells = {
            "train_error": fmt_sci(r.train_error, dec["train_error_sci"]),
            "val_error": fmt_sci(r.val_error, dec["val_error_sci"]),
            "selected": r"$\checkmark$" if bool(r.selected) else "",
        }
        rows.append((str(int(r.size)), f"c = {int(r.size)}", cells))
        body.append(_line([str(int(r.size)), *(cells[c] for c, _ in PROGRESS_COLUMNS)]))
    return Rendered(label, latex_table(label, body), rows, list(PROGRESS_COLUMNS))


# -- tab:equations -------------------------------------------------------------------------------
def representative_seed(df: pd.DataFrame) -> pd.Series | None:
    """Median run after sorting the seeds by (e_beta_max, e_xi_max), NaN -> 1e9 (spec §10.6)."""
    if df.empty:
        return None
    key = df.assign(
        _b=df["e_beta_max"].astype(float).fillna(1e9),
        _x=df["e_xi_max"].astype(float).fillna(1e9),
    ).sort_values(["_b", "_x", "seed"], kind="stable")
    return key.iloc[(len(key) - 1) // 2]


def _term_latex(power: int, order: float, operator: str) -> str:
    if abs(order) <= IDENTITY_TOL:
        return "u" if power == 0 else f"u^{{{power + 1}}}"
    op = rf"\mathcal R_{{{order:.2f}}}u" if operator == "riesz" else rf"D_x^{{{order:.2f}}}u"
    if power == 0:
        return op
    return (r"u\," if power == 1 else rf"u^{{{power}}}\,") + op


def equation_latex(
    mode: str,
    alpha: float,
    powers: Sequence[int],
    orders: Sequence[float],
    coefs: Sequence[float],
    operator: str,
) -> str:
    """Equation in the paper's tab:equations typography, terms in canonical order."""
    lhs = r"\partial_tu" if mode == "int" else rf"D_t^{{{alpha:.4f}}}u"
    terms = sorted(
        zip((int(p) for p in powers), (float(o) for o in orders), (float(c) for c in coefs))
    )
    rhs = ""
    for i, (p, o, c) in enumerate(terms):
        sign = "-" if c < 0 else ("" if i == 0 else "+")
        rhs += rf"{sign}{abs(c):.2f}\,{_term_latex(p, o, operator)}"
    return f"${lhs}={rhs or '0'}$"


def _row_equation(row: pd.Series) -> str:
    if row["status"] != "ok":
        return EMPTY
    operator = row.get("operator")
    if not isinstance(operator, str) or not operator:  # older rows without the column
        operator = BENCH_OPERATOR.get(row["benchmark"], "directional")
    eq = equation_latex(
        row["mode"],
        float(row["alpha"]),
        list(row["powers"]),
        list(row["orders"]),
        list(row["coefs"]),
        str(operator),
    )
    return eq if bool(row["operator_ok"]) else eq + r"\textsuperscript{\(\dagger\)}"


def table_equations(runs: pd.DataFrame) -> Rendered | None:
    label = "tab:equations"
    rows, body, notes = [], [], []
    benches = list(dict.fromkeys(b for b, _ in EQUATION_CASES))
    for bi, b in enumerate(benches):
        group, truth, name = EQUATION_TRUTH[b]
        if bi:
            body.append(r"\midrule")
        body.append(rf"\multicolumn{{3}}{{l}}{{{group} --- true: {truth}}} \\")
        cases = [n for bb, n in EQUATION_CASES if bb == b]
        for i, noise in enumerate(cases):
            df = select(runs, b, noise)
            rep = representative_seed(df)
            if rep is None:
                notes.append(_missing_note(label, f"{b} at {_noise_pct(noise)} %"))
            cells = {
                "equation": EMPTY if rep is None else _row_equation(rep),
                "seed": EMPTY if rep is None else str(int(rep["seed"])),
            }
            rows.append(
                (f"{b}@{_noise_pct(noise)}", f"{BENCH_PLAIN[b]}, {_noise_pct(noise)} %", cells)
            )
            lead = rf"\multirow{{{len(cases)}}}{{*}}{{{name}}}" if i == 0 else ""
            body.append(_line([lead, rf"{_noise_pct(noise)}\%", cells["equation"]]))
    if len(notes) == len(EQUATION_CASES):
        return None
    cols = [("equation", "Discovered equation"), ("seed", "Representative seed")]
    return Rendered(label, latex_table(label, body), rows, cols, notes, raw_cells=True)


# -- tab:robustness ------------------------------------------------------------------------------
ROBUST_COLUMNS = (
    ("weak_support", "Weak support/power"),
    ("weak_e_xi_max", "Weak e_xi^max"),
    ("weak_fit_error", "Weak E_fit"),
    ("strong_support", "Strong support/power"),
    ("strong_e_xi_max", "Strong e_xi^max"),
    ("strong_fit_error", "Strong E_fit"),
)


def table_robustness(runs: pd.DataFrame, benchmark: str = "fade") -> Rendered | None:
    label = "tab:robustness" if benchmark == "fade" else f"tab:robustness-{benchmark}"
    dec = DECIMALS["tab:robustness"]["*"]
    rows, body, notes = [], [], []
    for noise in ROBUST_NOISES:
        cells: dict[str, str] = {}
        for tag, method in (("weak", "weak_pareto"), ("strong", "strong_pareto")):
            df = select(runs, benchmark, noise, method=method)
            if df.empty:
                notes.append(_missing_note(label, f"{method} at {_noise_pct(noise)} %"))
                cells.update(
                    {f"{tag}_support": EMPTY, f"{tag}_e_xi_max": EMPTY, f"{tag}_fit_error": EMPTY}
                )
                continue
            s = summarise(df)
            cells[f"{tag}_support"] = s.count("support")
            cells[f"{tag}_e_xi_max"] = fmt_mean(s.conditioned["e_xi_max"], dec["e_xi_max"])
            cells[f"{tag}_fit_error"] = fmt_sci_mean(s.fit_error, dec["fit_error_sci"])
        rows.append((_noise_pct(noise), f"{_noise_pct(noise)} %", cells))
        body.append(_line([_noise_pct(noise), *(cells[c] for c, _ in ROBUST_COLUMNS)]))
    if len(notes) == 2 * len(ROBUST_NOISES):
        return None
    return Rendered(label, latex_table(label, body), rows, list(ROBUST_COLUMNS), notes)


# -- tab:ablation --------------------------------------------------------------------------------
ABLATION_COLUMNS = (
    ("support", "Supp./pow."),
    ("operator", "Oper./struct."),
    ("e_beta_max", "e_beta^max"),
    ("e_xi_max", "e_xi^max"),
    ("fit_error", "E_fit"),
)


def table_ablation(runs: pd.DataFrame) -> Rendered | None:
    label = "tab:ablation"
    dec = DECIMALS[label]["*"]
    rows, body, notes = [], [], []
    for method, name, weak, cont, polish in ABLATION_METHODS:
        df = select(runs, "fade", 0.10, method=method)
        if df.empty:
            notes.append(_missing_note(label, f"{method} on fade at 10 %"))
        cells = _group_cells(df, [c for c, _ in ABLATION_COLUMNS], dec)
        rows.append((method, method, cells))
        body.append(_line([name, weak, cont, polish, *(cells[c] for c, _ in ABLATION_COLUMNS)]))
    if len(notes) == len(ABLATION_METHODS):
        return None
    return Rendered(label, latex_table(label, body), rows, list(ABLATION_COLUMNS), notes)


# -- tab:superunit -------------------------------------------------------------------------------
def table_superunit(runs: pd.DataFrame) -> Rendered | None:
    label = "tab:superunit"
    rows, body, notes = [], [], []
    for mi, (method, name) in enumerate(SUPERUNIT_METHODS):
        if mi:
            body.append(r"\midrule")
        for i, (noise, shown) in enumerate(SUPERUNIT_NOISES):
            df = select(runs, "superunit", noise, method=method)
            if df.empty:
                notes.append(_missing_note(label, f"{method} at {shown} %"))
            cells = {"branch": _count(df, "branch"), "operator": _count(df, "operator")}
            rows.append((f"{method}@{shown}", f"{name}, {shown} %", cells))
            lead = rf"\multirow{{{len(SUPERUNIT_NOISES)}}}{{*}}{{{name}}}" if i == 0 else ""
            body.append(_line([lead, shown, cells["branch"], cells["operator"]]))
    if len(notes) == len(SUPERUNIT_METHODS) * len(SUPERUNIT_NOISES):
        return None
    cols = [("branch", "Branch recovery"), ("operator", "Operator recovery")]
    return Rendered(label, latex_table(label, body), rows, cols, notes)


# -- tab:gaussian-noise --------------------------------------------------------------------------
def table_gaussian(runs: pd.DataFrame) -> Rendered | None:
    label = "tab:gaussian-noise"
    dec = DECIMALS[label]["*"]
    rows, body, notes = [], [], []
    shown: set[str] = set()
    for b, name, method, mname in GAUSSIAN_CASES:
        df = select(runs, b, 0.10, method=method, noise_law="additive_gaussian")
        if df.empty:
            notes.append(_missing_note(label, f"{method} on {b}"))
        cells = _group_cells(df, [c for c, _ in ABLATION_COLUMNS], dec)
        rows.append((f"{b}/{method}", f"{BENCH_PLAIN[b]}, {mname}", cells))
        lead = "" if b in shown else rf"\multirow{{2}}{{*}}{{{name}}}"
        shown.add(b)
        body.append(_line([lead, mname, *(cells[c] for c, _ in ABLATION_COLUMNS)]))
    if len(notes) == len(GAUSSIAN_CASES):
        return None
    cols = [("support", "Supp."), ("operator", "Op."), *ABLATION_COLUMNS[2:]]
    return Rendered(label, latex_table(label, body), rows, cols, notes)


# -- tab:appendix --------------------------------------------------------------------------------
def table_appendix(runs: pd.DataFrame) -> Rendered | None:
    label = "tab:appendix"
    dec = DECIMALS[label]["*"]
    rows, body, notes = [], [], []
    shown: set[str] = set()
    for b, variant, setting in APPENDIX_CASES:
        df = select(runs, b, 0.10, variant=variant)
        if df.empty:
            notes.append(_missing_note(label, f"{b} variant {variant}"))
        cells = _group_cells(df, [c for c, _ in ABLATION_COLUMNS], dec)
        rows.append((f"{b}/{variant}", f"{BENCH_PLAIN[b]}, {variant}", cells))
        lead = "" if b in shown else rf"\multirow{{2}}{{*}}{{{BENCH_TEX[b]}}}"
        shown.add(b)
        body.append(_line([lead, setting, *(cells[c] for c, _ in ABLATION_COLUMNS)]))
    if len(notes) == len(APPENDIX_CASES):
        return None
    cols = [("support", "Support/power"), ("operator", "Operator structure"), *ABLATION_COLUMNS[2:]]
    return Rendered(label, latex_table(label, body), rows, cols, notes)


# -- tab:conditioning ----------------------------------------------------------------------------
#: Condition numbers this large are rounding-dominated (sigma_min ~ eps * sigma_max).
CONDITION_FLOOR = 1e15


def table_conditioning(csv_path: str | os.PathLike) -> Rendered | None:
    """From ``conditioning.csv`` (columns spacing, columns, coherence, condition)."""
    label = "tab:conditioning"
    path = Path(csv_path)
    if not path.is_file():
        return None
    df = pd.read_csv(path)
    need = {"spacing", "columns", "coherence", "condition"}
    if df.empty or not need <= set(df.columns):
        return None
    dec = DECIMALS[label]["*"]
    rows, body = [], []
    for r in df.sort_values("spacing", ascending=False).itertuples(index=False):
        sp = fmt_fixed(r.spacing, dec["spacing"])
        cells = {
            "columns": str(int(cast(float, r.columns))),
            "coherence": fmt_fixed(r.coherence, dec["coherence"]),
            "condition": fmt_sci(r.condition, dec["condition_sci"]),
        }
        rows.append((sp, f"spacing {sp}", cells))
        body.append(_line([sp, cells["columns"], cells["coherence"], cells["condition"]]))
    cols = [
        ("columns", "Columns"),
        ("coherence", "Mutual coherence"),
        ("condition", "Condition number"),
    ]
    notes = []
    if (df["condition"].astype(float) >= CONDITION_FLOOR).any():
        notes.append(
            f"{label}: condition numbers >= {CONDITION_FLOOR:.0e} have sigma_min at the "
            "double-precision floor (about sigma_max * 1e-16); their leading digit depends on "
            "the BLAS/LAPACK rounding, only the order of magnitude is reproducible"
        )
    return Rendered(label, latex_table(label, body), rows, cols, notes)


# -- tab:ksens -----------------------------------------------------------------------------------
#: (K_t, K_x) of the K sweep: round(s * (44, 60)) for s = 0.35 ... 1.41 (spec §10 item 3).
KSENS_COUNTS = ((15, 21), (22, 30), (31, 43), (44, 60), (62, 85))
KSENS_COLUMNS = (
    ("K", "K"),
    ("support", "Supp./pow."),
    ("operator", "Oper./struct."),
    ("e_alpha", "e_alpha"),
    ("e_beta_max", "e_beta^max"),
    ("e_xi_max", "e_xi^max"),
    ("fit_error", "E_fit"),
    ("condition", "cond_2"),
)
#: Spatial orders of FADE's true structure (power 0, alpha = 0.8) for the condition number.
KSENS_TRUE_ORDERS = (1.0, 1.7)


def ksens_variant(kt: int, kx: int) -> str:
    """Run variant of one K-sweep point (``conf/experiment/ksens.yaml``), e.g. ``K44x60``."""
    return f"K{kt}x{kx}"


@functools.lru_cache(maxsize=1)
def _ksens_field() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The seed-0 10 %-noise FADE field (multiplicative law) and its grid."""
    from weakpareto.benchmarks.generators import generate
    from weakpareto.benchmarks.noise import add_noise

    f = generate("fade")
    return add_noise(f.u, "multiplicative", 0.10, 0), np.asarray(f.t), np.asarray(f.x)


def ksens_condition(kt: int, kx: int) -> float:
    """``cond_2`` (sigma_max/sigma_min) of the column-normalised exact true-structure library.

    Spec §10 item 3: FADE's columns at beta = 1 and 1.7 (power 0; the alpha = 0.8 target is not a
    column) on the seed-0 10 %-noise field with ``(kt, kx)`` Gaussian tests.
    """
    from weakpareto.library.weak import weak_library

    u, t, x = _ksens_field()
    lib = weak_library(u, t, x, operator="directional", power_mode="positive", test_counts=(kt, kx))
    a = np.column_stack([lib.columns(0, np.array([b]))[0] for b in KSENS_TRUE_ORDERS])
    a = a / np.linalg.norm(a, axis=0)
    return float(np.linalg.cond(a))


def _ksens_k(df: pd.DataFrame, kt: int, kx: int, label: str, notes: list[str]) -> str:
    """K from the runs' ``n_rows`` (the design value ``kt * kx`` when there are none)."""
    design = kt * kx
    if df.empty or "n_rows" not in df:
        return str(design)
    ks = sorted({int(v) for v in finite(df["n_rows"])})
    if not ks:
        return str(design)
    if ks != [design]:
        notes.append(f"{label}: runs of {ksens_variant(kt, kx)} have K = {ks}, expected {design}")
    return "/".join(str(k) for k in ks)


def table_ksens(
    runs: pd.DataFrame, condition: Callable[[int, int], float] | None = ksens_condition
) -> Rendered | None:
    """Paper tab:ksens: FADE at 10 % noise per test grid; every error over all seeds (spec §9).

    ``condition(kt, kx)`` gives the ``cond_2`` column (default :func:`ksens_condition`; ``None``
    leaves it empty).
    """
    label = "tab:ksens"
    dec = DECIMALS[label]["*"]
    groups = [
        (kt, kx, select(runs, "fade", 0.10, variant=ksens_variant(kt, kx)))
        for kt, kx in KSENS_COUNTS
    ]
    if all(df.empty for _, _, df in groups):
        return None
    rows, body, notes = [], [], []
    for kt, kx, df in groups:
        vid = ksens_variant(kt, kx)
        if df.empty:
            notes.append(_missing_note(label, f"fade at 10 % with test counts {kt}x{kx} ({vid})"))
            cells = {c: EMPTY for c, _ in KSENS_COLUMNS}
        else:
            cells = {
                "support": _count(df, "support"),
                "operator": _count(df, "operator"),
                "e_alpha": fmt_pm(df["e_alpha"], dec["e_alpha"]),
                "e_beta_max": fmt_pm(df["e_beta_max"], dec["e_beta_max"]),
                "e_xi_max": fmt_sci_mean(df["e_xi_max"], dec["e_xi_max_sci"]),
                "fit_error": fmt_sci_mean(df["fit_error"], dec["fit_error_sci"]),
            }
        cells["K"] = _ksens_k(df, kt, kx, label, notes)
        cells["condition"] = EMPTY
        if condition is not None:
            try:
                kappa = fmt_fixed(condition(kt, kx), dec["condition"])
            except (OSError, ValueError, RuntimeError, KeyError, np.linalg.LinAlgError) as exc:
                notes.append(f"{label}: condition number for {kt}x{kx} unavailable ({exc})")
            else:
                cells["condition"] = EMPTY if kappa == EMPTY else f"${kappa}$"
        grid = rf"${kt}{{\times}}{kx}$"
        rows.append((vid, f"{kt}x{kx}", cells))
        body.append(_line([grid, *(cells[c] for c, _ in KSENS_COLUMNS)]))
    return Rendered(label, latex_table(label, body), rows, list(KSENS_COLUMNS), notes)


# -- tab:elbow-margin-sensitivity ----------------------------------------------------------------
#: Paper row order and row names.
ELBOW_BENCHMARKS = ("fade", "burgers", "rd_space", "rd_timespace")
ELBOW_TEX = {
    "fade": "FADE",
    "burgers": r"Frac.\ Burgers",
    "rd_space": r"Frac.\ RD (space)",
    "rd_timespace": r"Frac.\ RD (time--space)",
}
#: Two-point margins m2 of the audit; the default's fronts give Delta_12.
ELBOW_MARGINS = (0.10, 0.15, 0.20)
ELBOW_DEFAULT_MARGIN = 0.15
#: Agreement expected between the c = 1, 2 fronts of the margin variants (the search up to c = 2
#: does not depend on the margin).
ELBOW_DELTA_TOL = 1e-9


def margin_variant(margin: float) -> str:
    """Run variant of a margin rerun (``conf/experiment/margin.yaml``), e.g. ``m0.15``."""
    return f"m{margin:g}"


def two_point_deltas(
    fronts: pd.DataFrame,
    benchmark: str,
    variant: str,
    noise: float = 0.10,
    method: str = "weak_pareto",
    noise_law: str = "multiplicative",
) -> pd.Series:
    """``Delta_12 = log10(E_1*/E_2*)`` (validation errors) per seed, from each seed's latest front.

    NaN for a seed whose front lacks a finite positive ``E`` at ``c = 1`` or ``c = 2``; an empty
    Series when there are no fronts.
    """
    if fronts.empty:
        return pd.Series(dtype=float)
    m = (
        (fronts["benchmark"] == benchmark)
        & (fronts["method"] == method)
        & (fronts["variant"] == variant)
        & (fronts["noise_law"] == noise_law)
        & np.isclose(fronts["noise"].astype(float), noise, rtol=0.0, atol=1e-9)
    )
    out: dict[int, float] = {}
    for seed, g in fronts.loc[m].groupby("seed", sort=True):
        g = g.sort_values("created_utc", kind="stable", na_position="first")
        g = g[g["config_hash"] == g.iloc[-1]["config_hash"]]
        err = {int(s): float(e) for s, e in zip(g["size"], g["val_error"])}
        e1, e2 = err.get(1, np.nan), err.get(2, np.nan)
        ok = np.isfinite(e1) and np.isfinite(e2) and e1 > 0 and e2 > 0
        out[int(cast(int, seed))] = float(np.log10(e1 / e2)) if ok else np.nan
    return pd.Series(out, dtype=float)


def _counts_over(deltas: pd.Series, margin: float) -> str:
    """``$k/n$``: seeds whose Delta_12 clears ``margin`` (strictly, as the selector), of all."""
    if deltas.empty:
        return EMPTY
    k = int((deltas.to_numpy(dtype=float) > margin).sum())  # NaN never clears
    return f"${k}/{deltas.size}$"


def _delta_range(deltas: pd.Series, decimals: int) -> str:
    v = finite(deltas)
    if v.size == 0:
        return EMPTY
    return f"${fmt_fixed(v.min(), decimals)}$--${fmt_fixed(v.max(), decimals)}$"


def table_elbow_margin(runs: pd.DataFrame, fronts: pd.DataFrame) -> Rendered | None:
    """Paper tab:elbow-margin-sensitivity (App. E.1; spec §11 elbow-margin audit).

    ``Delta_12`` comes from the c = 1, 2 fronts of the default-margin (``m0.15``) reruns (another
    margin's fronts when those are missing, with a note); the margin columns count seeds with
    ``Delta_12 > m2``. The extra column lists the support/power recovery of the full-selector
    reruns at m2 = 0.10, 0.15, 0.20 (the paper quotes these in the text, RD space only).
    """
    label = "tab:elbow-margin-sensitivity"
    dec = DECIMALS[label]["*"]
    order = (ELBOW_DEFAULT_MARGIN, *(m for m in ELBOW_MARGINS if m != ELBOW_DEFAULT_MARGIN))
    rows, body, notes = [], [], []
    have_any = False
    for b in ELBOW_BENCHMARKS:
        per_margin = {m: two_point_deltas(fronts, b, margin_variant(m)) for m in ELBOW_MARGINS}
        source = next((m for m in order if not per_margin[m].empty), None)
        deltas = pd.Series(dtype=float) if source is None else per_margin[source]
        if source is None:
            notes.append(_missing_note(label, f"c = 1, 2 fronts of {b} at 10 %"))
        else:
            if source != ELBOW_DEFAULT_MARGIN:
                notes.append(
                    f"{label}: {b}: Delta_12 from the {margin_variant(source)} fronts "
                    f"({margin_variant(ELBOW_DEFAULT_MARGIN)} fronts missing)"
                )
            bad = sorted(int(s) for s in deltas.index[~np.isfinite(deltas.to_numpy(float))])
            if bad:
                notes.append(
                    f"{label}: {b}: no finite c = 1, 2 validation errors for seeds {bad} "
                    "(counted as not clearing any margin)"
                )
            for m, other in per_margin.items():
                common = deltas.index.intersection(other.index)
                if m == source or common.empty:
                    continue
                diff = np.nanmax(np.abs(deltas[common].to_numpy() - other[common].to_numpy()))
                if np.isfinite(diff) and diff > ELBOW_DELTA_TOL:
                    notes.append(
                        f"{label}: {b}: Delta_12 of the {margin_variant(m)} fronts differs from "
                        f"the {margin_variant(source)} fronts by up to {diff:.3g}"
                    )
        full = {m: select(runs, b, 0.10, variant=margin_variant(m)) for m in ELBOW_MARGINS}
        for m, df in full.items():
            if df.empty:
                notes.append(_missing_note(label, f"{b} full-selector rerun {margin_variant(m)}"))
        have_any = have_any or source is not None or any(not df.empty for df in full.values())
        full_cells = {}
        for which in ("support", "operator"):
            counts = [EMPTY if df.empty else f"${_count(df, which)}$" for df in full.values()]
            full_cells[f"full_{which}"] = (
                EMPTY if all(c == EMPTY for c in counts) else ", ".join(counts)
            )
        cells = {
            "range": _delta_range(deltas, dec["delta"]),
            **{margin_variant(m): _counts_over(deltas, m) for m in ELBOW_MARGINS},
            **full_cells,
        }
        rows.append((b, BENCH_PLAIN[b], cells))
        latex_cols = ("range", *(margin_variant(m) for m in ELBOW_MARGINS), "full_support")
        body.append(_line([ELBOW_TEX[b], *(cells[c] for c in latex_cols)]))
    if not have_any:
        return None
    cols = [
        ("range", "Range of Delta_12"),
        *((margin_variant(m), f"m2 = {m:.2f}") for m in ELBOW_MARGINS),
        ("full_support", "Full-selector supp./pow. (m2 = 0.10, 0.15, 0.20)"),
        (
            "full_operator",
            "Full-selector oper./struct. (m2 = 0.10, 0.15, 0.20; text, not tabulated)",
        ),
    ]
    return Rendered(label, latex_table(label, body), rows, cols, notes)


# =================================================================================================
# Paper-vs-ours notes and driver
# =================================================================================================


def plain(cell: str) -> str:
    """A LaTeX number cell as readable text (``$0.07\\pm0.03$`` -> ``0.07 ± 0.03``)."""
    s = cell.replace(r"{\times}", "×").replace(r"\pm", " ± ").replace(r"\checkmark", "✓")
    s = re.sub(r"10\^\{(-?\d+)\}", r"10^\1", s)
    return s.replace("$", "").strip()


def _md_cell(cell: str | None, raw: bool) -> str:
    if cell is None:
        return "(not in paper)"
    if cell == "":
        return ""
    text = f"`{cell}`" if raw else plain(cell)
    return text.replace("|", r"\|")


def paper_vs_ours(rt: Rendered) -> str:
    """Markdown table: every cell's paper value beside ours (and whether they agree)."""
    paper = PAPER.get(rt.label, {})
    lines = [f"# {rt.label}: paper vs ours", ""]
    if not paper:
        lines += ["The paper reports no cell values for this table.", ""]
    lines += ["| Row | Column | Paper | Ours | Same at paper precision |", "|---|---|---|---|---|"]
    seen = set()
    for rid, rname, cells in rt.rows:
        seen.add(rid)
        for cid, cname in rt.columns:
            p = paper.get(rid, {}).get(cid)
            o = cells.get(cid, EMPTY)
            same = "" if p is None else ("yes" if p == o else "no")
            lines.append(
                f"| {rname} | {cname} | {_md_cell(p, rt.raw_cells)} | "
                f"{_md_cell(o, rt.raw_cells)} | {same} |"
            )
    for rid, pcells in paper.items():  # paper rows we have no data for
        if rid in seen:
            continue
        for cid, cname in rt.columns:
            if cid in pcells:
                lines.append(
                    f"| {rid} | {cname} | {_md_cell(pcells[cid], rt.raw_cells)} | (no row) | no |"
                )
    if rt.notes:
        lines += ["", "Notes:", *(f"- {n}" for n in rt.notes)]
    return "\n".join(lines) + "\n"


def _write_text(path: Path, text: str) -> None:
    write_text_atomic(path, text)


def write_rendered(rt: Rendered, out_dir: str | os.PathLike) -> list[Path]:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tex = out / f"{rt.stem}.tex"
    md = out / f"{rt.stem}_paper_vs_ours.md"
    _write_text(tex, rt.latex)
    _write_text(md, paper_vs_ours(rt))
    return [tex, md]


def build_tables(
    runs: pd.DataFrame,
    fronts: pd.DataFrame,
    conditioning_csv: str | os.PathLike | None = None,
) -> tuple[list[Rendered], list[str]]:
    """Every table with data, plus notes for the skipped ones."""
    builders: list[tuple[str, Callable[[], Rendered | None]]] = [
        ("tab:main", lambda: table_main(runs)),
        ("tab:rdnoise", lambda: table_rdnoise(runs)),
        ("tab:progress", lambda: table_progress(fronts)),
        ("tab:equations", lambda: table_equations(runs)),
        ("tab:robustness", lambda: table_robustness(runs, "fade")),
        ("tab:robustness-burgers", lambda: table_robustness(runs, "burgers")),
        ("tab:ablation", lambda: table_ablation(runs)),
        ("tab:superunit", lambda: table_superunit(runs)),
        ("tab:gaussian-noise", lambda: table_gaussian(runs)),
        ("tab:appendix", lambda: table_appendix(runs)),
        (
            "tab:conditioning",
            lambda: table_conditioning(conditioning_csv) if conditioning_csv else None,
        ),
        ("tab:ksens", lambda: table_ksens(runs, ksens_condition)),
        ("tab:elbow-margin-sensitivity", lambda: table_elbow_margin(runs, fronts)),
    ]
    tables, notes = [], []
    for label, build in builders:
        rt = build()
        if rt is None:
            notes.append(f"{label}: skipped (no matching results)")
        else:
            tables.append(rt)
            notes.extend(rt.notes)
    return tables, notes


#: Stem (without suffix) of the robustness figure in ``out_dir``.
FIGURE_STEM = "fig_robustness"


def _render_figures(runs: pd.DataFrame, out_dir: str | os.PathLike, notes: list[str]) -> list[Path]:
    """Paper Fig. 2 (PNG + PDF) when FADE/Burgers robustness runs exist; else a note."""
    from weakpareto.reporting.figures import robustness_figure

    try:
        return robustness_figure(runs, Path(out_dir) / FIGURE_STEM)
    except ValueError as exc:  # no matching runs
        notes.append(f"fig:robustness: skipped ({exc})")
        return []


def render_all(
    results_dir: str | os.PathLike = "results/runs",
    out_dir: str | os.PathLike = "results/tables",
    conditioning_csv: str | os.PathLike | None = None,
) -> list[Path]:
    """Render every table that has results, and the robustness figure; returns the paths.

    ``conditioning_csv`` defaults to ``<results_dir>/../diagnostics/conditioning.csv``
    (``results/diagnostics/conditioning.csv`` for ``results/runs``, written by
    ``scripts/conditioning.py``). The robustness figure (paper Fig. 2) goes to
    ``<out_dir>/fig_robustness.png`` and ``.pdf``. Skipped tables/figures and missing cells are
    reported on stderr (not errors).
    """
    from weakpareto.campaign.store import load_fronts, load_runs

    if conditioning_csv is None:
        conditioning_csv = Path(results_dir).resolve().parent / "diagnostics" / "conditioning.csv"
    runs = load_runs(results_dir)
    tables, notes = build_tables(runs, load_fronts(results_dir), conditioning_csv)
    paths: list[Path] = []
    for rt in tables:
        paths += write_rendered(rt, out_dir)
    paths += _render_figures(runs, out_dir, notes)
    from weakpareto.reporting import twod as report_twod

    paths += report_twod.write_twod(runs, out_dir)  # [] when there are no 2-D runs
    from weakpareto.reporting import twod_extra as report_twod_extra

    paths += report_twod_extra.write_twod_extra(runs, out_dir)  # width / resolution studies
    from weakpareto.reporting import forward as report_forward

    diagnostics = Path(results_dir).resolve().parent / "diagnostics"
    paths += report_forward.write_forward(out_dir, diagnostics)  # [] without forward.csv
    from weakpareto.reporting import diagnostics as report_diagnostics

    paths += report_diagnostics.write_diagnostics(out_dir, diagnostics)  # tab:burgers, S_beta
    from weakpareto.reporting import runtime as report_runtime

    bench_dir = Path(results_dir).resolve().parent / "bench"
    paths += report_runtime.write_runtime(out_dir, bench_dir)  # tab:runtime from `wp bench`
    for n in notes:
        print(f"wp report: {n}", file=sys.stderr)
    return paths
