"""Array aliases shared by every module (defined once)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
ComplexArray = NDArray[np.complex128]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]

# The historical short name used by most modules for a float array.
Array = FloatArray

__all__ = ["Array", "BoolArray", "ComplexArray", "FloatArray", "IntArray"]
