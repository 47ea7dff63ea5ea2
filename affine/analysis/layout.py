"""Memref layouts: compositions, strided forms, and the identity-layout type a layout
normalises to (the IR rewrite that uses it is :mod:`transforms.memref_normalization`).

Invariant: normalisation never changes which element an access touches.  A memref of type
``T`` with layout ``L`` (the composition of its index maps and layout map) becomes a memref
with the identity layout whose shape holds every ``L(i)`` for ``i`` in ``T``'s index space,
and each access ``A[f(x)]`` becomes ``A'[L(f(x))]``.  A layout is normalised only when that
is sound: ``L`` affine (semi-affine after binding its symbols to constants), one-to-one on
the index space (the seed specification requires it), and never negative there.

This follows ``-normalize-memrefs`` (mlir/lib/Dialect/MemRef/Transforms/NormalizeMemRefs.cpp,
``normalizeMemRefType`` in mlir/lib/Dialect/Affine/Utils/Utils.cpp): the new size of each
dimension is the largest value of the layout result over the index space, plus one.  It
differs where mlir-opt 22 is unsound (research/mlir-affine.md §2.10): a layout with negative
values (``(d0) -> (d0 - 2)``) is refused rather than given out-of-range subscripts; a
``memref.dim`` of a normalised memref is replaced by the old constant size instead of reading
the new shape; ``memref.load/store`` get their indices through the whole layout; vector
accesses are rewritten only when each vector stays contiguous, and DMA transfers of
elements under a layout are refused.  Alloc symbols bound to constants are specialised.

Bounds and the one-to-one test are exact.  Without a solver they come from branch and bound
over the index space (:class:`BoxOracle`); :mod:`poly.layout` answers them with ISL.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from affine.errors import PolyError
from affine.ir.strides import row_major_strides, strided_from_map
from affine.ir.types import DYNAMIC, MemRefType, StridedLayout
from affine.math.affine_map import AffineMap
from affine.math.algebra import provably_one_to_one, specialize_symbols
from affine.math.expr import (
    ADD,
    CEILDIV,
    CONST,
    DIM,
    FLOORDIV,
    MOD,
    MUL,
    AffineExpr,
    ceil_div,
    constant,
    dim,
    floor_div,
    mod,
)
from affine.math.simplify import (
    Bound,
    dim_ranges,
    flat_result,
    simplify_map,
)
from affine.math.symbolic import latex_map

# -- compositions and strided forms -------------------------------------------------------------


def composed_layout(t: MemRefType, within_shape: bool = True) -> AffineMap:
    """The layout composition of ``t`` as one simplified map (identity for no layout).

    With ``within_shape``, simplification may use ``0 <= i_k < shape[k]`` (accesses outside
    the shape are undefined anyway): ``(d0 mod 64)`` on a 64-element memref is ``d0``.
    """
    ranges = shape_ranges(t.shape) if within_shape else None
    return simplify_map(t.layout_map(), ranges)


def strided_form(t: MemRefType, oracle: LayoutOracle | None = None) -> StridedLayout | None:
    """The strided form of ``t``'s layout (MLIR's ``getStridesAndOffset``): row-major
    strides for the identity layout of a static shape, the layout itself when strided, and
    for an affine layout the strides of the normalised memref it stands for, when linear."""
    if isinstance(t.layout, StridedLayout):
        return t.layout
    if t.has_identity_layout:
        if not t.has_static_shape:
            return None
        return strided_from_map(AffineMap.get(t.rank, 0, [_row_major(t.shape)]))
    try:
        new_type, layout = normalize_memref_type(t, oracle=oracle)
    except LayoutNotNormalizable:
        return strided_from_map(composed_layout(t))
    linear = AffineMap.get(new_type.rank, 0, [_row_major(new_type.shape)]).compose(layout)
    return strided_from_map(simplify_map(linear, shape_ranges(t.shape)))


def _row_major(shape: Sequence[int]) -> AffineExpr:
    """The linear position of ``(d0, ..)`` in a row-major array of ``shape``."""
    expr: AffineExpr = constant(0)
    for k, stride in enumerate(row_major_strides(shape)):
        expr = expr + dim(k) * stride
    return expr


# -- exact bounds and one-to-one without a solver ---------------------------------------------------

Interval = tuple[int, int]
Box = tuple[Interval, ...]


def interval(e: AffineExpr, box: Box) -> Interval:
    """Bounds of ``e`` over the integer box (exact for each node given its operands' ranges
    are dense; sound always)."""
    kind = e.kind
    if kind == CONST:
        return e.value, e.value
    if kind == DIM:
        return box[e.value]
    if kind not in (ADD, MUL, FLOORDIV, CEILDIV, MOD):
        raise ValueError(f"{e} uses symbols")
    lo, hi = interval(e.lhs, box)
    if kind == ADD:
        lo2, hi2 = interval(e.rhs, box)
        return lo + lo2, hi + hi2
    if e.rhs.kind != CONST:
        raise ValueError(f"{e} is semi-affine")
    q = e.rhs.value
    if kind == MUL:
        return (lo * q, hi * q) if q >= 0 else (hi * q, lo * q)
    if kind == FLOORDIV:
        a, b = floor_div(lo, q), floor_div(hi, q)
        return min(a, b), max(a, b)
    if kind == CEILDIV:
        a, b = ceil_div(lo, q), ceil_div(hi, q)
        return min(a, b), max(a, b)
    if hi - lo + 1 >= abs(q) or floor_div(lo, q) != floor_div(hi, q):
        return (0, q - 1) if q > 0 else (q + 1, 0)
    return min(mod(lo, q), mod(hi, q)), max(mod(lo, q), mod(hi, q))


def _maximum(e: AffineExpr, box: Box, max_boxes: int) -> int:
    """The exact maximum of ``e`` over an integer box, by best-first branch and bound."""
    centre = [(lo + hi) // 2 for lo, hi in box]
    best = max(
        e.evaluate(centre), e.evaluate([lo for lo, _ in box]), e.evaluate([hi for _, hi in box])
    )
    heap = [(-interval(e, box)[1], box)]
    explored = 0
    while heap:
        negative_bound, current = heapq.heappop(heap)
        if -negative_bound <= best:
            break
        explored += 1
        if explored > max_boxes:
            raise LayoutNotNormalizable(
                f"the bounds of {e} were not found within {max_boxes} steps; "
                "poly.layout computes them with ISL"
            )
        widest = max(range(len(current)), key=lambda k: current[k][1] - current[k][0])
        lo, hi = current[widest]
        if lo == hi:
            best = max(best, e.evaluate([lo for lo, _ in current]))
            continue
        middle = (lo + hi) // 2
        for part in ((lo, middle), (middle + 1, hi)):
            sub = current[:widest] + (part,) + current[widest + 1 :]
            best = max(best, e.evaluate([(a + b) // 2 for a, b in sub]))
            bound = interval(e, sub)[1]
            if bound > best:
                heapq.heappush(heap, (-bound, sub))
    return best


class LayoutOracle(Protocol):
    """Exact answers about a symbol-free pure affine map on the box ``0 <= d_k < shape[k]``."""

    def result_bounds(self, m: AffineMap, shape: Sequence[int]) -> list[Interval]:
        """Least and greatest value of each result."""
        ...

    def one_to_one(self, m: AffineMap, shape: Sequence[int]) -> bool:
        """Whether distinct points of the box have distinct images."""
        ...


@dataclass(frozen=True)
class BoxOracle:
    """Solver-free exact answers: bounds by branch and bound over the box; one-to-one by a
    proof from the map's form (dims recovered linearly, or mixed-radix strides) or, for boxes
    of at most ``max_points`` points, by enumeration."""

    max_boxes: int = 100_000
    max_points: int = 1 << 16

    def result_bounds(self, m: AffineMap, shape: Sequence[int]) -> list[Interval]:
        box = tuple((0, size - 1) for size in shape)
        return [
            (-_maximum(-r, box, self.max_boxes), _maximum(r, box, self.max_boxes))
            for r in m.results
        ]

    def one_to_one(self, m: AffineMap, shape: Sequence[int]) -> bool:
        if provably_one_to_one(m) or _mixed_radix(m, shape):
            return True
        points = 1
        for size in shape:
            points *= size
        if points > self.max_points:
            raise LayoutNotNormalizable(
                f"{m} is not shown one-to-one on {list(shape)} without a solver; "
                "poly.layout decides it with ISL"
            )
        seen: set[tuple[int, ...]] = set()
        for point in itertools.product(*(range(size) for size in shape)):
            image = tuple(m.evaluate(point))
            if image in seen:
                return False
            seen.add(image)
        return True


def _mixed_radix(m: AffineMap, shape: Sequence[int]) -> bool:
    """One result ``sum(c_k * d_k) + c`` whose coefficients, sorted, each exceed the span of
    the smaller terms: distinct points give distinct sums (like digits of a number)."""
    flat = flat_result(m)
    if flat is None:
        return False
    terms = []
    for monomial, c in flat.terms:
        if monomial == ():
            continue
        atom = monomial[0] if len(monomial) == 1 else None
        if not isinstance(atom, AffineExpr) or atom.kind != DIM:
            return False
        terms.append((abs(c), shape[atom.value]))
    if len(terms) < sum(1 for size in shape if size > 1):
        return False  # a dimension that varies but is not used
    span = 0
    for c, size in sorted(terms):
        if c <= span:
            return False
        span += c * (size - 1)
    return True


BOX_ORACLE = BoxOracle()


# -- normalisation of a type -----------------------------------------------------------------------


class LayoutNotNormalizable(PolyError, ValueError):
    """A layout that cannot be turned into an identity layout (the message says why)."""


def normalize_memref_type(
    t: MemRefType,
    symbol_values: Mapping[int, int] | None = None,
    oracle: LayoutOracle | None = None,
) -> tuple[MemRefType, AffineMap]:
    """The identity-layout type holding ``t`` and the map from old to new indices.

    The new size of dimension ``k`` is the greatest value of layout result ``k`` over the
    index space, plus one (a 64x64 memref with 16x16 tiles
    ``(d0 floordiv 16, d1 floordiv 16, d0 mod 16, d1 mod 16)`` becomes 4x4x16x16).
    ``symbol_values`` binds layout symbols (the alloc's symbol operands) to constants. A
    memref with no elements becomes one of size 0 in each result. Raises
    :class:`LayoutNotNormalizable` for dynamic shapes, unbound symbols, semi-affine
    layouts, layouts that are not one-to-one, and negative layout values.
    """
    oracle = oracle or BOX_ORACLE
    if t.has_identity_layout or t.rank == 0:
        return t, AffineMap.identity(t.rank)
    if not t.has_static_shape:
        raise LayoutNotNormalizable(f"{t} has dynamic sizes")
    layout = t.layout_map()
    if symbol_values:
        layout = specialize_symbols(layout, symbol_values)
    if layout.num_symbols:
        raise LayoutNotNormalizable(
            f"the layout of {t} has symbols that are not bound to constants"
        )
    layout = simplify_map(layout, shape_ranges(t.shape))
    if not layout.is_pure_affine():
        raise LayoutNotNormalizable(f"the layout of {t} is semi-affine")
    if layout.num_dims != t.rank:
        raise LayoutNotNormalizable(f"the layout of {t} does not take {t.rank} indices")
    if 0 in t.shape:  # no index to map: as empty, with the layout's rank
        empty = [0] * layout.num_results
        return MemRefType(empty, t.element_type, None, t.memory_space), layout
    if not oracle.one_to_one(layout, t.shape):
        raise LayoutNotNormalizable(
            f"the layout of {t} is not one-to-one on its index space (the seed "
            "specification requires it)"
        )
    bounds = oracle.result_bounds(layout, t.shape)
    for k, (low, _) in enumerate(bounds):
        if low < 0:
            raise LayoutNotNormalizable(f"layout result {k} of {t} takes the negative value {low}")
    new_type = MemRefType([high + 1 for _, high in bounds], t.element_type, None, t.memory_space)
    return new_type, layout


def shape_ranges(shape: Iterable[int]) -> dict[AffineExpr, Bound]:
    """``0 <= d_i < shape[i]`` for a static memref shape (dynamic sizes: ``d_i >= 0``)."""
    return dim_ranges([(0, None if size == DYNAMIC else size - 1) for size in shape])


def latex_layout(t: MemRefType) -> str:
    """A memref type: its shape and element type, and each map of its layout composition
    (index maps, then the layout map), or the strided form."""
    shape = " \\times ".join("?" if s == DYNAMIC else str(s) for s in t.shape)
    text = f"\\mathtt{{memref}}\\langle {shape} \\times \\mathtt{{{t.element_type}}} \\rangle"
    if isinstance(t.layout, StridedLayout):
        strides = ", ".join("?" if s == DYNAMIC else str(s) for s in t.layout.strides)
        offset = "?" if t.layout.offset == DYNAMIC else str(t.layout.offset)
        return text + f",\\ \\mathrm{{strides}} = [{strides}],\\ \\mathrm{{offset}} = {offset}"
    for m in t.layout:
        text += ",\\ " + latex_map(m)
    return text
