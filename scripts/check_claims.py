"""Recompute every registered performance claim from the committed result files.

Reads ``docs/claims.yaml`` (format: docs/claims.md) and prints one line per claim whose written
number no longer matches its source, or whose snippet is gone from its file; exit code 1 then.
Usage::

    python scripts/check_claims.py [docs/claims.yaml] [repository root]
"""

from __future__ import annotations

import sys

from weakpareto.reporting.claims import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
