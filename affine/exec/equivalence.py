"""Equivalence checking: two functions run on the same inputs, every written output
compared (exactly for integers, within a reordering tolerance for floats)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from affine.exec.elements import FLOAT_TYPES, ElementInfo, element_info, is_float_dtype
from affine.exec.inputs import random_inputs, resolve_function, signature
from affine.exec.memory import MemRef
from affine.exec.running import run
from affine.ir.core import Module, Operation
from affine.ir.types import (
    MemRefType,
    Type,
)

if TYPE_CHECKING:
    import numpy as np


TOLERANCES = {16: 2e-2, 32: 1e-4, 64: 1e-9}


def default_rtol(info: ElementInfo) -> float:
    """The :func:`compare_arrays` tolerance for a float type: :data:`TOLERANCES` for f16,
    f32 and f64, 1e-12 for f80, and 20 ulps of 1 for the encoded types."""
    if info.format is not None:
        return 20.0 * 2.0 ** -max(info.format.mantissa, 1)
    return TOLERANCES.get(info.width, 1e-12)


def _dtype_info(dtype: Any) -> ElementInfo:
    """The float type whose storage is ``dtype`` (f32 for float32)."""
    import numpy as np

    dtype = np.dtype(dtype)
    if dtype == np.longdouble:
        return FLOAT_TYPES["f80"]
    return next(i for i in FLOAT_TYPES.values() if i.numpy == dtype.name)


@dataclass(frozen=True)
class Mismatch:
    """Argument ``arg`` differs: largest error, the tolerance, and the first bad index."""

    arg: int
    max_error: float
    tolerance: float
    index: tuple[int, ...]
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return (
            f"argument #{self.arg} differs at {list(self.index)}: {self.expected!r} vs {self.actual!r} "
            f"(largest error {self.max_error:.3g}, tolerance {self.tolerance:.3g})"
        )


@dataclass(frozen=True)
class Equivalence:
    """Outcome of :func:`check_equivalent`; true when every output agreed."""

    mismatches: tuple[Mismatch, ...]
    results: tuple[Any, Any]

    def __bool__(self) -> bool:
        return not self.mismatches

    def __str__(self) -> str:
        if not self.mismatches:
            return "equivalent"
        return "not equivalent: " + "; ".join(map(str, self.mismatches))


def compare_arrays(
    expected: np.ndarray, actual: np.ndarray, arg: int = 0, rtol: float | None = None
) -> Mismatch | None:
    """None when ``actual`` matches ``expected``: exactly for integers; for floats within
    ``rtol * max(1, max|expected|)`` (a normwise bound that tolerates reassociation), with
    NaN matching NaN."""
    import numpy as np

    if expected.shape != actual.shape:
        return Mismatch(arg, float("inf"), 0.0, (), expected.shape, actual.shape)
    if is_float_dtype(expected.dtype):
        e = expected.astype(np.float64)
        a = actual.astype(np.float64)
        if rtol is None:
            rtol = default_rtol(_dtype_info(expected.dtype))
        finite = np.isfinite(e)
        scale = max(1.0, float(np.max(np.abs(e[finite]))) if finite.any() else 1.0)
        tolerance = rtol * scale
        with np.errstate(invalid="ignore"):
            error = np.where(
                finite, np.abs(e - a), np.where((e == a) | (np.isnan(e) & np.isnan(a)), 0.0, np.inf)
            )
        error = np.where(np.isnan(error), np.inf, error)
        bad = error > tolerance
        max_error = float(error.max()) if error.size else 0.0
    else:
        bad = expected != actual
        tolerance = 0.0
        max_error = (
            float(np.max(np.abs(expected.astype(np.float64) - actual.astype(np.float64))))
            if bad.any()
            else 0.0
        )
    if not bad.any():
        return None
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    return Mismatch(arg, max_error, tolerance, index, expected[index].item(), actual[index].item())


def check_equivalent(
    f: Operation | Module,
    g: Operation | Module,
    *args: Any,
    backend: str = "interp",
    seed: int = 0,
    rtol: float | None = None,
    f_entry: str | None = None,
    g_entry: str | None = None,
    layout_symbols: dict[int, Sequence[int]] | None = None,
    sizes: dict[int, Sequence[int]] | None = None,
) -> Equivalence:
    """Run ``f`` and ``g`` on the same inputs (``args``, or random arrays from ``seed`` when
    none are given) and compare every memref argument and every result afterwards."""
    import numpy as np

    first = resolve_function(f, f_entry)
    second = resolve_function(g, g_entry)
    inputs = list(args) if args else random_inputs(first, seed, sizes)
    copies_f = [a.copy() if isinstance(a, np.ndarray) else a for a in inputs]
    copies_g = [a.copy() if isinstance(a, np.ndarray) else a for a in inputs]
    result_f = run(first, *copies_f, backend=backend, layout_symbols=layout_symbols)
    result_g = run(second, *copies_g, backend=backend, layout_symbols=layout_symbols)
    arg_types, result_types = signature(first)

    def tolerance(t: Type) -> float | None:
        """The element type's tolerance (tf32 is stored as float32 but is far coarser)."""
        element = t.element_type if isinstance(t, MemRefType) else t
        info = element_info(element)
        return rtol if rtol is not None or info.kind != "float" else default_rtol(info)

    mismatches = []
    for a, (x, y) in enumerate(zip(copies_f, copies_g)):
        if isinstance(x, np.ndarray):
            m = compare_arrays(x, y, a, tolerance(arg_types[a]))
            if m is not None:
                mismatches.append(m)
    rf = result_f if isinstance(result_f, tuple) else (result_f,)
    rg = result_g if isinstance(result_g, tuple) else (result_g,)
    for k, (x, y, t) in enumerate(zip(rf, rg, result_types)):
        x, y = (v.to_array() if isinstance(v, MemRef) else np.asarray(v) for v in (x, y))
        m = compare_arrays(x, y, -1 - k, tolerance(t))
        if m is not None:
            mismatches.append(m)
    return Equivalence(tuple(mismatches), (result_f, result_g))


# -- the mlir-runner harness ------------------------------------------------------------------------
