"""Errors a user can cause: each is reported as one line and exit code 2 by the CLI."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class UserInputError(ValueError):
    """Bad user input: reported as one line (problem and fix) and exit code 2, no traceback."""


def check_choice(name: str, value: Any, choices: Sequence[str], hint: str) -> str:
    """``value`` when it is one of ``choices``, else the one-line error naming them and what
    the less obvious one means (``hint``)."""
    if value not in choices:
        raise UserInputError(f"{name}={value!r} is not one of {', '.join(choices)} ({hint})")
    return str(value)


__all__ = ["UserInputError", "check_choice"]
