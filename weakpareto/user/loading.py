"""Reading a user's data file: ``.npz``, MATLAB ``.mat``, or a long ``.csv`` / ``.parquet`` table.

Used by ``wp discover`` (:mod:`weakpareto.user.discover_command`) and usable from Python::

    from weakpareto.user.loading import load_field
    data = load_field("kdv.mat")                     # finds usol / tt / x, orients u
    model.fit(data.u, data.t, data.x)

Array files (``.npz``, ``.mat``)
--------------------------------
* Variable names: ``u_key=``, ``t_key=``, ``x_key=`` (2-D: ``y_key=``) name them; without a key
  the first present of :data:`DEFAULT_KEYS` is used (``u``, ``usol``, ``U``, ``uu``; ``t``,
  ``tt``; ``x``, ``xx``; ``y``, ``yy`` — the names of the usual published PDE data sets). A
  ``y`` makes the data two-dimensional.
* Grids stored as ``(n, 1)`` / ``(1, n)`` matrices (MATLAB vectors) are flattened.
* Orientation: ``u`` must be ``(nt, nx)`` (2-D ``(nt, nx, ny)``). A ``u`` stored the other way
  round — MATLAB data sets usually hold ``usol`` as ``nx x nt`` — is transposed when that is
  unambiguous (``nt != nx``; in 2-D exactly one axis permutation matches the grid lengths),
  and the note is printed with the data summary. A square ``u`` is taken as stored.
* MATLAB v4/v5/v7 files are read by :func:`scipy.io.loadmat`. v7.3 files are HDF5: they are
  read with ``h5py`` when it is installed (not a dependency of weakpareto), otherwise a
  one-line error says how to convert them.

Tables: one row per grid point with columns ``t``, ``x`` [, ``y``], ``u``
(:mod:`weakpareto.user.long_tables`); a column ``experiment`` makes a table several experiments
of one equation (:func:`load_experiments`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from weakpareto.errors import UserInputError
from weakpareto.user.long_tables import (
    EXPERIMENT_COLUMN,
    long_table_to_experiments,
    long_table_to_grid,
    long_table_to_grid_2d,
)
from weakpareto.user.sampled_field import with_mask
from weakpareto.user.validation import one_line

#: Names tried, in order, for each array when no ``*_key=`` is given.
DEFAULT_KEYS: dict[str, tuple[str, ...]] = {
    "u": ("u", "usol", "U", "uu"),
    "t": ("t", "tt"),
    "x": ("x", "xx"),
    "y": ("y", "yy"),
}
#: Array of an ``.npz`` / ``.mat`` file flagging missing samples of ``u`` (True = missing).
MASK_KEY = "mask"
#: The ``wp discover`` options that name variables.
KEY_OPTIONS = ("u_key", "t_key", "x_key", "y_key")
ARRAY_SUFFIXES = (".npz", ".mat")
TABLE_SUFFIXES = (".csv", ".parquet")


@dataclass
class LoadedData:
    """Arrays as read (``y`` is None for 1-D data) and what was done to them."""

    u: Any
    t: Any
    x: Any
    y: Any = None
    notes: list[str] = field(default_factory=list)

    @property
    def arrays(self) -> tuple[Any, ...]:
        return (self.u, self.t, self.x) if self.y is None else (self.u, self.t, self.x, self.y)


# -- readers ----------------------------------------------------------------------------------
def _read_npz(path: Path) -> dict[str, Any]:
    try:
        with np.load(path, allow_pickle=False) as npz:
            return {k: npz[k] for k in npz.files}
    except Exception as err:  # corrupt zip, pickled object arrays, ...
        raise UserInputError(
            f"cannot read data={path} as .npz ({one_line(err)}); save it with "
            "np.savez(f, u=u, t=t, x=x)"
        ) from None


def _mat_version(path: Path) -> int:
    from scipy.io.matlab import matfile_version

    try:
        return int(matfile_version(str(path))[0])
    except Exception as err:
        raise UserInputError(
            f"cannot read data={path} as a MATLAB .mat file ({one_line(err)}); save it in "
            "MATLAB with save('f.mat', 'u', 't', 'x', '-v7')"
        ) from None


def _read_hdf5_mat(path: Path) -> dict[str, Any]:
    try:
        import h5py  # optional: only for MATLAB v7.3 files
    except ImportError:
        raise UserInputError(
            f"data={path} is a MATLAB v7.3 (HDF5) file, which is not supported without h5py; "
            "pip install h5py, or re-save it in MATLAB as v7: save('f.mat', 'u', 't', 'x', "
            "'-v7')"
        ) from None
    out: dict[str, Any] = {}
    try:
        with h5py.File(path, "r") as f:
            for name, item in f.items():
                if isinstance(item, h5py.Dataset) and not name.startswith("#"):
                    arr = np.asarray(item[()])
                    if arr.dtype.names and {"real", "imag"} <= set(arr.dtype.names):
                        arr = arr["real"] + 1j * arr["imag"]
                    out[name] = arr.T  # MATLAB is column-major: h5py sees reversed axes
    except Exception as err:
        raise UserInputError(f"cannot read data={path} with h5py ({one_line(err)})") from None
    return out


def _read_mat(path: Path) -> dict[str, Any]:
    if _mat_version(path) == 2:
        return _read_hdf5_mat(path)
    from scipy.io import loadmat

    try:
        raw = loadmat(str(path))
    except Exception as err:
        raise UserInputError(
            f"cannot read data={path} as a MATLAB .mat file ({one_line(err)}); save it in "
            "MATLAB with save('f.mat', 'u', 't', 'x', '-v7')"
        ) from None
    return {k: v for k, v in raw.items() if not k.startswith("__")}


# -- keys and orientation ---------------------------------------------------------------------
def _pick(
    path: Path, found: Mapping[str, Any], name: str, key: str | None, required: bool
) -> tuple[str | None, Any]:
    names = ", ".join(found) or "none"
    if key is not None:
        if key not in found:
            raise UserInputError(
                f"data={path} has no variable {key!r} ({name}_key={key}); found: {names}"
            )
        return key, found[key]
    for cand in DEFAULT_KEYS[name]:
        if cand in found:
            return cand, found[cand]
    if not required:
        return None, None
    tried = "/".join(DEFAULT_KEYS[name])
    raise UserInputError(
        f"data={path} lacks array(s) {name} (tried {tried}; found: {names}); name it with "
        f"{name}_key=<variable>, or save u (nt x nx), t (nt) and x (nx), e.g. "
        "np.savez(f, u=u, t=t, x=x)"
    )


def _length(g: Any) -> int | None:
    """Length of a grid stored as a vector or an (n, 1) / (1, n) matrix; None otherwise."""
    arr = np.asarray(g)
    if arr.ndim == 1 or (arr.ndim == 2 and 1 in arr.shape):
        return int(arr.size)
    return None


def orient(u: Any, grids: tuple[Any, ...]) -> tuple[Any, str | None]:
    """Permute the axes of ``u`` to ``(len(t), len(x)[, len(y)])`` when that is unambiguous.

    Returns ``(u, note)``; ``note`` says what was done (None if nothing). A shape that
    already matches, a square ``u`` and shapes that no permutation matches are left to
    validation.
    """
    arr = np.asarray(u)
    lengths = tuple(_length(g) for g in grids)
    if arr.ndim != len(grids) or any(n is None for n in lengths) or arr.shape == lengths:
        return u, None
    perms = [
        p
        for p in itertools.permutations(range(arr.ndim))
        if tuple(arr.shape[k] for k in p) == lengths
    ]
    if len(perms) != 1:
        return u, None
    perm = perms[0]
    axes = ("t", "x", "y")[: arr.ndim]
    stored = " x ".join(str(n) for n in arr.shape)
    order = ", ".join(axes[perm.index(k)] for k in range(arr.ndim))
    out = arr.T if arr.ndim == 2 else np.transpose(arr, perm)
    what = "transposed" if arr.ndim == 2 else f"axes permuted {perm}"
    return out, f"u stored as {stored} ({order}): {what} to ({', '.join(axes)})"


def load_field(path: str | Path, keys: Mapping[str, str | None] | None = None) -> LoadedData:
    """Read ``(u, t, x[, y])`` from ``.npz``, ``.mat``, ``.csv`` or ``.parquet``.

    ``keys`` maps ``u`` / ``t`` / ``x`` / ``y`` to variable names of an array file (the
    ``*_key=`` options); missing entries use :data:`DEFAULT_KEYS`.
    """
    path = Path(path)
    keys = dict(keys or {})
    suffix = path.suffix.lower()
    if suffix in TABLE_SUFFIXES:
        _no_keys_for_tables(keys)
        return _load_table(path, suffix)
    found = _read_npz(path) if suffix == ".npz" else _read_mat(path)
    picked: dict[str, Any] = {}
    used: dict[str, str] = {}
    for name in ("u", "t", "x", "y"):
        var, value = _pick(path, found, name, keys.get(name), required=name != "y")
        if var is not None:
            picked[name], used[name] = value, var
    notes = []
    renamed = [f"{n}={v}" for n, v in used.items() if v != n]
    if renamed:
        notes.append("variables " + ", ".join(renamed))
    grids = tuple(picked[n] for n in ("t", "x", "y") if n in picked)
    u, note = orient(picked["u"], grids)
    if note:
        notes.append(note)
    if MASK_KEY in found:  # True = missing sample, stored like u (so oriented like it)
        u = with_mask(u, orient(found[MASK_KEY], grids)[0])
        notes.append(f"mask: {int(np.count_nonzero(np.ma.getmaskarray(u)))} missing sample(s)")
    return LoadedData(u, picked["t"], picked["x"], picked.get("y"), notes)


def _read_table(path: Path, suffix: str) -> Any:
    import pandas as pd

    try:
        return pd.read_csv(path) if suffix == ".csv" else pd.read_parquet(path)
    except Exception as err:  # empty file, parser errors, not a parquet file, ...
        raise UserInputError(
            f"cannot read data={path} as {suffix[1:]} ({one_line(err)}); write a long table "
            "with columns t, x, u (2-D: t, x, y, u)"
        ) from None


def load_experiments(
    path: str | Path, keys: Mapping[str, str | None] | None = None
) -> list[LoadedData]:
    """The experiments of one file: a table with a column ``experiment`` gives one
    :class:`LoadedData` per experiment (sorted labels, ``experiment <label>`` in its notes),
    any other file one (:func:`load_field`)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in TABLE_SUFFIXES:
        return [load_field(path, keys)]
    _no_keys_for_tables(keys or {})
    table = _read_table(path, suffix)
    if EXPERIMENT_COLUMN not in [str(c) for c in table.columns]:
        return [_table_grid(table, path)]
    us, ts, xs, ys = long_table_to_experiments(table, source=f"data={path}")
    labels = sorted(table[EXPERIMENT_COLUMN].unique())
    return [
        LoadedData(u, t, x, None if ys is None else ys[k], [f"{EXPERIMENT_COLUMN} {labels[k]}"])
        for k, (u, t, x) in enumerate(zip(us, ts, xs, strict=True))
    ]


def _no_keys_for_tables(keys: Mapping[str, str | None]) -> None:
    given = [f"{k}_key" for k, v in keys.items() if v is not None]
    if given:
        raise UserInputError(
            f"{', '.join(given)} applies to .npz / .mat files; a table needs columns "
            "t, x, u (2-D: t, x, y, u)"
        )


def _load_table(path: Path, suffix: str) -> LoadedData:
    return _table_grid(_read_table(path, suffix), path)


def _table_grid(table: Any, path: Path) -> LoadedData:
    if "y" in [str(c) for c in table.columns]:
        return LoadedData(*long_table_to_grid_2d(table, source=f"data={path}"))
    return LoadedData(*long_table_to_grid(table, source=f"data={path}"))
