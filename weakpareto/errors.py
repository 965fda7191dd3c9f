"""Errors a user can cause: each is reported as one line and exit code 2 by the CLI."""

from __future__ import annotations


class UserInputError(ValueError):
    """Bad user input: reported as one line (problem and fix) and exit code 2, no traceback."""


__all__ = ["UserInputError"]
