"""``wp discover ... forcing=<file or key> [forcing_coef=<c>]``: known forcing from files.

* ``forcing=source.npz`` (or ``.npy``, ``.mat``): a file holding one field of u's shape (an
  ``.npz``/``.mat`` with several arrays: the one named ``f`` or ``forcing``); the term is named
  after the file (``source``).
* ``forcing=inj``: the array ``inj`` of the data file itself (``.npz``/``.mat`` data); the term
  is named after the key.
* ``forcing=[source.npz,inj]``: several fields, each its own candidate term.
* ``forcing_coef=0.5`` (one field) or ``forcing_coef=[source:0.5,inj:1.2]``: known
  coefficients; those terms are fixed, the others estimated (:mod:`weakpareto.user.forcing`).

A field stored transposed (``nx x nt``, not square) is transposed like u (the summary line says
so); everything else is checked by :func:`weakpareto.user.forcing.check_forcing`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from weakpareto.errors import UserInputError
from weakpareto.user.forcing import CheckedForcing, check_forcing
from weakpareto.user.loading import ARRAY_SUFFIXES, _read_mat, _read_npz
from weakpareto.user.validation import CheckedField, CheckedField2D

#: Array names tried in a forcing file holding several arrays.
FORCING_KEYS = ("f", "forcing")
FILE_SUFFIXES = (".npy", *ARRAY_SUFFIXES)


def _items(value: Any) -> list[str]:
    """``forcing=`` as its entries: one, or the list ``[a,b]``."""
    text = "" if value is None else str(value).strip()
    if len(text) >= 2 and text[0] + text[-1] in ("[]", "()"):
        items = [item.strip() for item in text[1:-1].split(",")]
    else:
        items = [text]
    if not all(items):
        raise UserInputError(f"forcing={text} has an empty entry; e.g. forcing=[src.npz,inj]")
    return items


def _read_file(path: Path) -> Any:
    """The one field of a forcing file."""
    if not path.is_file():
        raise UserInputError(f"forcing={path} does not exist; check the path")
    if path.suffix.lower() == ".npy":
        try:
            return np.load(path, allow_pickle=False)
        except Exception as err:
            raise UserInputError(f"cannot read forcing={path} as .npy ({err})") from None
    found = _read_npz(path) if path.suffix.lower() == ".npz" else _read_mat(path)
    fields = {k: v for k, v in found.items() if np.ndim(v) >= 2}
    for key in FORCING_KEYS:
        if key in fields:
            return fields[key]
    if len(fields) == 1:
        return next(iter(fields.values()))
    raise UserInputError(
        f"forcing={path} holds {len(fields)} fields ({', '.join(fields) or 'none'}); store one, "
        f"or name it {' or '.join(FORCING_KEYS)}"
    )


def _from_data(key: str, data: Path) -> Any:
    """The array ``key`` of the data file."""
    suffix = data.suffix.lower()
    if suffix not in ARRAY_SUFFIXES:
        raise UserInputError(
            f"forcing={key} names an array of the data file, but data={data} is a table; give "
            "the forcing as a file, e.g. forcing=source.npz"
        )
    found = _read_npz(data) if suffix == ".npz" else _read_mat(data)
    if key not in found:
        raise UserInputError(
            f"forcing={key}: data={data} has no array {key!r} (found: {', '.join(found)}); give "
            "a key of the data file or a file name ending in .npz, .npy or .mat"
        )
    return found[key]


def _oriented(values: Any, field: CheckedField) -> tuple[Any, str | None]:
    """``values`` transposed when it is u's grid stored ``nx x nt`` (not square)."""
    arr = np.asarray(values)
    given = (field.shape[0], field.shape[1] + int(field.dropped_endpoint))
    if arr.ndim == 2 and arr.shape != given and arr.shape[::-1] == given:
        return arr.T, "transposed"
    return arr, None


def read_forcing(
    opts: dict[str, Any],
    data: Path | list[Path],
    fields: tuple[CheckedField | CheckedField2D, ...],
) -> tuple[CheckedForcing, ...]:
    """The checked forcing of ``wp discover``'s options (empty without ``forcing=``); prints
    one line per field."""
    if opts.get("forcing") is None:
        return check_forcing(fields[0], None, opts.get("forcing_coef"))
    if len(fields) > 1 or isinstance(data, list):
        raise UserInputError("forcing= needs one experiment; fit the experiments one at a time")
    field = fields[0]
    named: dict[str, Any] = {}
    for item in _items(opts["forcing"]):
        path = Path(item).expanduser()
        from_file = path.suffix.lower() in FILE_SUFFIXES
        name = path.stem if from_file else item
        if name in named:
            raise UserInputError(f"forcing= names {name!r} twice; give every field once")
        raw = _read_file(path) if from_file else _from_data(item, data)
        if isinstance(field, CheckedField):
            raw, note = _oriented(raw, field)
        else:
            note = None
        named[name] = raw
        where = str(path) if from_file else f"{data} [{item}]"
        shape = " x ".join(str(n) for n in np.shape(raw))
        print(f"forcing {name}: {where}, {shape}" + (f", {note}" if note else ""))
    return check_forcing(field, named, _coef_option(opts.get("forcing_coef")))


def _coef_option(value: Any) -> Any:
    """``forcing_coef=0.5`` or ``[name:0.5,...]`` as a number or a mapping."""
    if value is None or isinstance(value, int | float):
        return value
    entries = value if isinstance(value, list) else [value]
    out: dict[str, Any] = {}
    for entry in entries:
        name, sep, number = str(entry).partition(":")
        if not sep:
            raise UserInputError(
                f"forcing_coef={value!r}: give a number (one forcing field) or name:value "
                "pairs, e.g. forcing_coef=[source:0.5]"
            )
        try:
            out[name.strip()] = float(number)
        except ValueError:
            raise UserInputError(
                f"forcing_coef entry {entry!r}: {number!r} is not a number"
            ) from None
    return out
