"""Functions and their inputs: signatures, the function to run, which arguments it writes,
and deterministic or random input arrays with their checksums.

**Deterministic inputs** (:func:`deterministic_inputs`, the ``poly-opt --run`` inputs and the
mlir-runner harness): element ``i`` (row-major logical order) of memref argument ``a`` is
``((7*i + 13*a) mod 17) / 17`` rounded to a float element type (through f32 for the types
with a :class:`~affine.exec.elements.FloatFormat`, see
:func:`~affine.exec.elements.float_values`), or ``(7*i + 13*a) mod 17`` wrapped to an
integer element type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from affine.dialects.affine_dialect import DmaStartOp
from affine.dialects.func import function_type_of
from affine.dialects.memref import MemRefDmaStart
from affine.exec.elements import ElementInfo, ExecutionError, element_info, float_values
from affine.ir.core import Module, Operation
from affine.ir.types import (
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    Type,
)

if TYPE_CHECKING:
    import numpy as np


def deterministic_values(element: Type, count: int, arg: int, nonzero: bool = False) -> np.ndarray:
    """Element ``i`` = ``((7*i + 13*arg) mod 17) / 17`` (floats: the f64 quotient rounded to
    the type by :func:`float_values`) or ``(7*i + 13*arg) mod 17`` wrapped to the width
    (integers); ``nonzero`` adds 1 (floats in [1, 2), integers in [1, 17] before wrapping),
    so that no divisor or diagonal element is 0."""
    import numpy as np

    info = element_info(element)
    raw = (np.arange(count, dtype=np.int64) * 7 + 13 * arg) % 17 + int(nonzero)
    if info.kind == "float":
        return float_values((raw.astype(np.float64) + 16 * int(nonzero)) / 17.0, info)
    return wrap_array(raw, info).astype(info.numpy)


def wrap_array(values: np.ndarray, info: ElementInfo) -> np.ndarray:
    """Integers wrapped to the element width (canonical signed for ``int``, unsigned for ``uint``)."""
    if info.kind == "index" or info.width >= 64:
        return values
    mask = (1 << info.width) - 1
    wrapped = values & mask
    if info.kind == "uint":
        return wrapped
    half = 1 << (info.width - 1)
    return ((wrapped + half) & mask) - half


def signature(func: Operation) -> tuple[list[Type], list[Type]]:
    ftype = function_type_of(func)
    return list(ftype.inputs), list(ftype.results)


def _array_shape(
    t: MemRefType, arg: int, sizes: dict[int, Sequence[int]] | None
) -> tuple[int, ...]:
    if t.has_static_shape:
        return tuple(t.shape)
    given = (sizes or {}).get(arg)
    if given is None:
        raise ExecutionError(
            f"argument #{arg} has the dynamic type '{t}'; give its sizes with sizes={{{arg}: (...)}}"
        )
    return tuple(given)


def deterministic_inputs(
    func: Operation, sizes: dict[int, Sequence[int]] | None = None, nonzero: bool = False
) -> list[np.ndarray]:
    """One array per memref argument, filled by :func:`deterministic_values`."""
    arrays = []
    for a, t in enumerate(signature(func)[0]):
        if not isinstance(t, MemRefType):
            raise ExecutionError(
                f"argument #{a} of @{function_name(func)} has type '{t}'; only memref arguments get deterministic inputs",
                func.loc,
            )
        shape = _array_shape(t, a, sizes)
        count = 1
        for s in shape:
            count *= s
        arrays.append(deterministic_values(t.element_type, count, a, nonzero).reshape(shape))
    return arrays


def random_inputs(
    func: Operation, seed: int = 0, sizes: dict[int, Sequence[int]] | None = None
) -> list[Any]:
    """One value per argument: for a memref an array with floats uniform in [-1, 1) (in
    (0, 1] for the unsigned f8E8M0FNU) and integers in [0, 17); for a scalar one such value
    (an ``index`` scalar, often a size, is in [1, 9))."""
    import numpy as np

    rng = np.random.default_rng(seed)
    arrays: list[Any] = []  # int or float scalars, numpy arrays
    for a, t in enumerate(signature(func)[0]):
        if isinstance(t, IndexType):
            arrays.append(int(rng.integers(1, 9)))
            continue
        if isinstance(t, (IntegerType, FloatType)):
            info = element_info(t)
            if info.kind == "float":
                arrays.append(float(rng.uniform(-1.0, 1.0)))
            else:
                arrays.append(int(rng.integers(0, 17)))
            continue
        if not isinstance(t, MemRefType):
            raise ExecutionError(
                f"argument #{a} of @{function_name(func)} has type '{t}'; pass it explicitly"
            )
        shape = _array_shape(t, a, sizes)
        info = element_info(t.element_type)
        if info.kind == "float":
            values = rng.uniform(-1.0, 1.0, shape)
            if info.format is not None and info.format.special == "e8m0":
                values = 1.0 - np.abs(values)
            array = float_values(values, info)
        else:
            array = wrap_array(rng.integers(0, 17, shape), info).astype(info.numpy)
        arrays.append(np.asarray(array))  # numpy gives a scalar for shape (): 0-d stays an array
    return arrays


def checksums(array: np.ndarray) -> tuple[float, float]:
    """``(sum, weighted sum)`` accumulated in float64 one element after the other in
    row-major logical order (as the mlir-runner harness does); the weight of element ``i``
    is ``1 + i mod 7``, so permutations change the second number."""
    import numpy as np

    flat = np.asarray(array).reshape(-1).astype(np.float64)
    if flat.size == 0:
        return 0.0, 0.0
    weights = 1.0 + (np.arange(flat.size) % 7)
    return float(np.cumsum(flat)[-1]), float(np.cumsum(flat * weights)[-1])


# -- functions and entry points --------------------------------------------------------------------


def function_name(func: Operation) -> str:
    sym = func.properties.get("sym_name")
    return getattr(sym, "value", "?")


def module_of(func: Operation) -> Operation:
    """The outermost op enclosing ``func`` (its module)."""
    op = func
    while op.parent_op is not None:
        op = op.parent_op
    return op


def resolve_function(target: Operation | Module, entry: str | None = None) -> Operation:
    """The ``func.func`` to run: ``target`` itself, or in a module the one named ``entry``
    (default: the only public function with a body)."""
    if isinstance(target, Operation) and target.name == "func.func":
        return target
    module = target if isinstance(target, Module) else Module(target)
    if entry is not None:
        try:
            return module.function(entry)
        except KeyError:
            raise ExecutionError(f"no function named @{entry} in the module") from None
    candidates = [
        f
        for f in module.functions()
        if f.name == "func.func"
        and f.regions[0].blocks
        and getattr(f.properties.get("sym_visibility"), "value", "public") != "private"
    ]
    if len(candidates) != 1:
        names = ", ".join("@" + function_name(f) for f in candidates) or "none"
        raise ExecutionError(f"choose the function to run (public functions: {names})")
    return candidates[0]


def written_arguments(func: Operation) -> list[int]:
    """Indices of memref arguments the function may write (stores, DMA and copy targets,
    calls and unknown ops taking them, through casts and views)."""

    args = func.regions[0].blocks[0].arguments
    root: dict[Any, int] = {a: i for i, a in enumerate(args) if isinstance(a.type, MemRefType)}
    written: set[int] = set()
    reads_only = {
        "affine.load",
        "memref.load",
        "affine.vector_load",
        "vector.transfer_read",
        "memref.dim",
        "memref.dealloc",
        "affine.prefetch",
        "affine.dma_wait",
        "memref.dma_wait",
    }
    views = {
        "memref.cast",
        "memref.subview",
        "memref.reinterpret_cast",
        "memref.expand_shape",
        "memref.collapse_shape",
        "memref.view",
    }
    for op in func.walk():
        if op.name in views and op.operands and op.operands[0] in root:
            root[op.results[0]] = root[op.operands[0]]
            continue
        if op.name in reads_only:
            continue
        if op.name in (
            "affine.store",
            "memref.store",
            "affine.vector_store",
            "vector.transfer_write",
        ):
            targets = [op.operands[1]]
        elif op.name == "affine.dma_start":
            targets = [DmaStartOp(op).dst]
        elif op.name == "memref.dma_start":
            targets = [MemRefDmaStart(op).dst]
        elif op.name == "memref.copy":
            targets = [op.operands[1]]
        else:
            targets = list(op.operands)
        written.update(root[v] for v in targets if v in root)
    return sorted(written)


# -- running ---------------------------------------------------------------------------------------
