"""Strides and offsets of memref layouts (MLIR's ``getStridesAndOffset``).

Invariant: the one place that decides whether a layout is strided and reads its strides
and offset; ``DYNAMIC`` stands for ``?`` and absorbs arithmetic (saturated operations).
The memref dialect's verifier, the layout analysis, the memory model and the polyhedral
model all read strides through this module.
"""

from __future__ import annotations

from collections.abc import Sequence

from affine.ir.types import DYNAMIC, MemRefType, StridedLayout
from affine.math.affine_map import AffineMap
from affine.math.expr import DIM, AffineExpr
from affine.math.simplify import flat_result, simplify_map


def strided_from_map(m: AffineMap) -> StridedLayout | None:
    """The strided layout equal to a one-result map ``offset + sum(d_i * stride_i)`` whose
    offset and strides are constants or single symbols (``?``), each symbol used once; None
    when ``m`` is not of that form.  ``strided_from_map(s.to_affine_map()) == s``."""
    flat = flat_result(m)
    if flat is None:
        return None
    strides: list[int | None] = [0] * m.num_dims
    offset: int | None = flat.constant_term
    used_symbols: list[int] = []
    for monomial, c in flat.terms:
        if monomial == ():
            continue
        atoms = [a for a in monomial if isinstance(a, AffineExpr)]
        if len(atoms) != len(monomial):
            return None  # a division
        dims = [a for a in atoms if a.kind == DIM]
        syms = [a for a in atoms if a.kind != DIM]
        if len(dims) > 1 or len(syms) > 1 or (syms and c != 1):
            return None
        if syms:
            used_symbols.append(syms[0].value)
        if dims and syms:
            strides[dims[0].value] = None
        elif dims:
            strides[dims[0].value] = c
        else:  # a symbolic offset
            if flat.constant_term:
                return None
            offset = None
    if sorted(used_symbols) != list(range(m.num_symbols)) or len(set(used_symbols)) != len(
        used_symbols
    ):
        return None
    layout = StridedLayout(
        [DYNAMIC if s is None else s for s in strides], DYNAMIC if offset is None else offset
    )
    return layout if layout.to_affine_map() == m else None


def row_major_strides(shape: Sequence[int]) -> list[int]:
    """The strides of a row-major array of ``shape`` (the last dimension contiguous); a
    ``DYNAMIC`` size makes the strides outside it ``DYNAMIC``."""
    strides: list[int] = []
    running = 1
    for size in reversed(shape):
        strides.append(running)
        running = saturated_mul(running, size)
    return strides[::-1]


def strides_and_offset(t: MemRefType) -> tuple[list[int], int] | None:
    """The strides and offset of ``t``'s layout (``DYNAMIC`` for ``?``); None when the
    layout is not strided."""
    if isinstance(t.layout, StridedLayout):
        return list(t.layout.strides), t.layout.offset
    if not t.layout:
        return row_major_strides(t.shape), 0
    maps = t.layout
    if len(maps) != 1 or maps[0].num_results != 1:
        return None  # MLIR extracts strides from a single one-result map only
    layout = strided_from_map(maps[0]) or strided_from_map(simplify_map(maps[0]))
    return (list(layout.strides), layout.offset) if layout is not None else None


def saturated_mul(a: int, b: int) -> int:
    """``a * b`` where ``DYNAMIC`` (``?``) absorbs everything but 0."""
    if a == 0 or b == 0:
        return 0
    if a == DYNAMIC or b == DYNAMIC:
        return DYNAMIC
    return a * b


def saturated_add(a: int, b: int) -> int:
    """``a + b`` where ``DYNAMIC`` (``?``) absorbs everything."""
    return DYNAMIC if DYNAMIC in (a, b) else a + b
