"""The memory model both backends share.

A memref value at run time is a :class:`MemRef`: one flat *physical* buffer plus the numbers
its type leaves open (dynamic sizes, layout symbols).  The physical position of the logical
index ``x`` is ``sum_k r_k(x) * P_k`` where ``r`` is the type's layout map (identity when
there is none; a strided layout is its linear map) with its symbols bound, and ``P`` are
the row-major strides of the *physical extents* ``E_k = max r_k + 1`` over the logical
index box.  For a single-result map (strided layouts, linear maps) ``P = (1,)``: the map is
the offset itself.  :func:`offset_map` gives this formula as one affine map, so the
interpreter and the C backend evaluate the same expression.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from affine.dialects.common import segments
from affine.exec.elements import ExecutionError, element_info, float_values
from affine.ir.core import Operation
from affine.ir.diagnostics import Location
from affine.ir.strides import row_major_strides
from affine.ir.types import (
    DYNAMIC,
    MemRefType,
    StridedLayout,
)
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr, constant, symbol

if TYPE_CHECKING:
    import numpy as np


def layout_map(t: MemRefType) -> AffineMap:
    """The type's layout as one map from logical indices (and layout symbols) to the
    physical position: the identity, the strided layout's linear map, or the composition."""
    return t.layout_map()


def num_layout_symbols(t: MemRefType) -> int:
    return 0 if t.has_identity_layout else layout_map(t).num_symbols


def expr_range(
    expr: AffineExpr, dims: Sequence[tuple[int, int]], symbols: Sequence[int]
) -> tuple[int, int]:
    """Bounds ``(lo, hi)`` of ``expr`` over the box ``dims`` (inclusive ranges) with symbol
    values ``symbols``: exact for sums of independent terms, sound (wider) otherwise."""
    kind = expr.kind
    if kind == "const":
        return expr.value, expr.value
    if kind == "dim":
        return dims[expr.value]
    if kind == "symbol":
        v = symbols[expr.value]
        return v, v
    lo1, hi1 = expr_range(expr.lhs, dims, symbols)
    lo2, hi2 = expr_range(expr.rhs, dims, symbols)
    if kind == "+":
        return lo1 + lo2, hi1 + hi2
    if kind == "*":
        products = (lo1 * lo2, lo1 * hi2, hi1 * lo2, hi1 * hi2)
        return min(products), max(products)
    c = lo2  # divisors are symbolic or constant: a single value
    if c == 0:
        raise ZeroDivisionError(f"division by zero in {expr}")
    if kind == "floordiv":
        return min(lo1 // c, hi1 // c), max(lo1 // c, hi1 // c)
    if kind == "ceildiv":
        return min(-(-lo1 // c), -(-hi1 // c)), max(-(-lo1 // c), -(-hi1 // c))
    if c > 0 and hi1 - lo1 < c and lo1 % c <= hi1 % c:
        return lo1 % c, hi1 % c
    return (0, c - 1) if c > 0 else (c + 1, 0)


def physical_extents(
    t: MemRefType, sizes: Sequence[int], symbols: Sequence[int]
) -> tuple[int, ...]:
    """``E_k = max r_k + 1`` of each layout result over the logical box (``sizes`` concrete)."""
    if t.has_identity_layout:
        return tuple(sizes)
    m = layout_map(t)
    if any(s == 0 for s in sizes):
        return (0,) * m.num_results
    box = [(0, s - 1) for s in sizes]
    extents = []
    for k, r in enumerate(m.results):
        lo, hi = expr_range(r, box, symbols)
        if lo < 0:
            raise ExecutionError(
                f"layout map result #{k} of '{t}' takes negative values (down to {lo}); "
                "positions in a buffer cannot be negative"
            )
        extents.append(hi + 1)
    return tuple(extents)


def physical_strides(t: MemRefType, extents: Sequence[int]) -> tuple[int, ...]:
    """Row-major strides of the physical extents (``(1,)`` for a single-result map)."""
    return tuple(row_major_strides(extents))


def static_physical_strides(t: MemRefType) -> tuple[int | None, ...]:
    """The physical strides known from the type alone (None where they depend on a dynamic
    size or a layout symbol)."""
    n = len(t.shape) if t.has_identity_layout else layout_map(t).num_results
    if n == 1:
        return (1,)
    extents: list[int | None]
    if t.has_identity_layout:
        extents = [None if s == DYNAMIC else s for s in t.shape]
    else:
        m = layout_map(t)
        box = [(0, s - 1) for s in t.shape]
        extents = []
        for r in m.results:
            static = not r.used_symbols() and all(t.shape[d] != DYNAMIC for d in r.used_dims())
            if not static:
                extents.append(None)
            elif any(s == 0 for s in t.shape):
                extents.append(0)
            else:
                extents.append(expr_range(r, box, ())[1] + 1)
    strides: list[int | None] = [1] * n
    for k in range(n - 2, -1, -1):
        nxt, ext = strides[k + 1], extents[k + 1]
        strides[k] = None if nxt is None or ext is None else nxt * ext
    return tuple(strides)


def offset_map(t: MemRefType) -> AffineMap:
    """``(logical indices)[layout symbols, dynamic physical strides] -> (position)``.

    Physical strides known from the type are folded in as constants; the others follow the
    layout symbols as symbols, in result order (see :func:`static_physical_strides`).
    """
    m = layout_map(t)
    static = static_physical_strides(t)
    n_layout = m.num_symbols if not t.has_identity_layout else 0
    offset: AffineExpr = constant(0)
    next_symbol = n_layout
    for r, p in zip(m.results, static):
        if p is None:
            offset = offset + r * symbol(next_symbol)
            next_symbol += 1
        else:
            offset = offset + r * p
    return AffineMap.get(len(t.shape), next_symbol, [offset])


def offset_symbol_values(
    t: MemRefType, symbols: Sequence[int], pstrides: Sequence[int]
) -> tuple[int, ...]:
    """The symbol values of :func:`offset_map` for a memref with these layout symbols and
    physical strides."""
    static = static_physical_strides(t)
    return tuple(symbols) + tuple(p for p, s in zip(pstrides, static) if s is None)


def default_layout_symbols(t: MemRefType, sizes: Sequence[int]) -> tuple[int, ...] | None:
    """Values for a strided layout's ``?`` entries (row-major strides of the logical shape,
    offset 0); None when the layout has symbols with no natural default."""
    if not isinstance(t.layout, StridedLayout):
        return () if num_layout_symbols(t) == 0 else None
    row_major = row_major_strides(sizes)
    values = [0] if t.layout.offset == DYNAMIC else []
    values += [row_major[k] for k, s in enumerate(t.layout.strides) if s == DYNAMIC]
    return tuple(values)


def is_contiguous_row_major(t: MemRefType) -> bool:
    """Is the physical order the logical row-major order with no gaps (identity layout, or a
    strided layout equal to it)?"""
    if t.has_identity_layout:
        return True
    if not isinstance(t.layout, StridedLayout) or t.layout.offset != 0:
        return False
    if DYNAMIC in t.shape:
        return False
    return list(t.layout.strides) == row_major_strides(t.shape)


def bound_strided_form(
    t: MemRefType, symbols: Sequence[Any], pstrides: Sequence[Any]
) -> tuple[Any, tuple[Any, ...]] | None:
    """``(offset, strides)`` of an identity or strided memref, each entry an int (known from
    the type) or the given symbol / physical stride value; None for other layouts."""
    if t.has_identity_layout:
        return 0, tuple(pstrides)
    if not isinstance(t.layout, StridedLayout):
        return None
    values = iter(symbols)
    offset = next(values) if t.layout.offset == DYNAMIC else t.layout.offset
    strides = tuple(next(values) if s == DYNAMIC else s for s in t.layout.strides)
    return offset, strides


def cast_layout_values(
    source: MemRefType, target: MemRefType, symbols: Sequence[Any], pstrides: Sequence[Any]
) -> tuple[Any, tuple[Any, ...], tuple[Any, ...]]:
    """For a ``memref.cast`` from ``source`` to ``target``: ``(element offset into the
    source buffer, target layout symbols, target physical strides)``, each entry an int or
    a given value (see :func:`strided_view_values`)."""
    if source.layout == target.layout or (
        not isinstance(source.layout, StridedLayout)
        and not isinstance(target.layout, StridedLayout)
        and source.layout_map() == target.layout_map()
    ):
        return 0, tuple(symbols), tuple(pstrides)
    form = bound_strided_form(source, symbols, pstrides)
    if form is None:
        raise ExecutionError(f"'memref.cast' from '{source}' to '{target}' cannot be run")
    return strided_view_values(target, form[0], form[1], "memref.cast")


def strided_view_values(
    target: MemRefType, offset: Any, strides: Sequence[Any], op_name: str
) -> tuple[Any, tuple[Any, ...], tuple[Any, ...]]:
    """How a memref of type ``target`` (identity or strided layout) sees elements at
    ``offset + sum(i_k * strides[k])`` of a buffer: ``(element offset of its data in the
    buffer, layout symbols, physical strides)``, entries ints or the given values.  Known
    entries that contradict the target raise :class:`ExecutionError`; others are not
    checked here."""
    if not (target.has_identity_layout or isinstance(target.layout, StridedLayout)):
        raise ExecutionError(f"'{op_name}' to '{target}' cannot be run (only strided results)")

    def agree(want: int, have: Any, what: str) -> None:
        if isinstance(have, int) and have != want:
            raise ExecutionError(f"'{op_name}': {what} {have} is not that of '{target}'")

    if target.has_identity_layout:
        for want, have in zip(static_physical_strides(target), strides):
            if want is not None:
                agree(want, have, "stride")
        return offset, (), tuple(strides)
    layout = target.layout
    assert isinstance(layout, StridedLayout)
    new_symbols: list[Any] = []
    if layout.offset == DYNAMIC:
        new_symbols.append(offset)
    else:
        agree(layout.offset, offset, "offset")
    for want, have in zip(layout.strides, strides):
        if want == DYNAMIC:
            new_symbols.append(have)
        else:
            agree(want, have, "stride")
    return 0, tuple(new_symbols), (1,)


def view_operands(op: Operation) -> tuple[list[Any], list[Any], list[Any]]:
    """Offsets, sizes and strides of a ``memref.subview`` / ``memref.reinterpret_cast``:
    ints where static, the dynamic operand (a Value) where ``?``."""

    lists = []
    for k, name in enumerate(("static_offsets", "static_sizes", "static_strides")):
        dynamic = iter(segments(op, k + 1))
        values = op.properties[name].values  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
        lists.append([next(dynamic) if v in (DYNAMIC, -(1 << 63)) else v for v in values])
    return lists[0], lists[1], lists[2]


@dataclass(slots=True, eq=False)
class MemRef:
    """A memref at run time: ``data`` (a flat numpy array, the physical buffer), the logical
    ``sizes``, the layout ``symbols`` and the physical strides ``pstrides``."""

    type: MemRefType
    data: np.ndarray
    sizes: tuple[int, ...]
    symbols: tuple[int, ...]
    pstrides: tuple[int, ...]

    @classmethod
    def allocate(
        cls,
        t: MemRefType,
        sizes: Sequence[int],
        symbols: Sequence[int] = (),
        loc: Location | None = None,
    ) -> MemRef:
        """A zero-filled memref of type ``t`` (dynamic sizes and symbols given)."""
        import numpy as np

        info = element_info(t.element_type, loc)
        sizes = tuple(int(s) for s in sizes)
        symbols = tuple(int(s) for s in symbols)
        if any(s < 0 for s in sizes):
            raise ExecutionError(f"negative dimension size in {list(sizes)} for '{t}'", loc)
        try:
            extents = physical_extents(t, sizes, symbols)
        except ExecutionError as e:
            raise ExecutionError(e.message, loc) from None
        pstrides = physical_strides(t, extents)
        size = extents[0] * pstrides[0] if extents else 1
        return cls(t, np.zeros(size, dtype=info.numpy), sizes, symbols, pstrides)

    @property
    def num_elements(self) -> int:
        n = 1
        for s in self.sizes:
            n *= s
        return n

    def offsets(self) -> np.ndarray:
        """Physical position of every logical element, in row-major logical order."""
        import numpy as np

        grids = (
            [g.reshape(-1) for g in np.indices(self.sizes, dtype=np.int64)] if self.sizes else []
        )
        expr = offset_map(self.type).results[0]
        values = offset_symbol_values(self.type, self.symbols, self.pstrides)
        result = expr.evaluate(grids, values)
        return np.broadcast_to(np.asarray(result, dtype=np.int64), (self.num_elements,))

    def to_array(self) -> np.ndarray:
        """A copy of the logical contents as an array of the logical shape."""
        if is_contiguous_row_major(self.type) and self.data.size == self.num_elements:
            return self.data.reshape(self.sizes).copy()
        return self.data[self.offsets()].reshape(self.sizes)

    def store_array(self, array: np.ndarray) -> None:
        """Write ``array`` (logical shape) into the physical buffer."""
        if is_contiguous_row_major(self.type) and self.data.size == self.num_elements:
            self.data[:] = array.reshape(-1)
        else:
            self.data[self.offsets()] = array.reshape(-1)


def memref_from_array(
    t: MemRefType, array: Any, symbols: Sequence[int] | None = None, arg: int = 0
) -> MemRef:
    """The memref of type ``t`` holding ``array``: the array's own memory when the layout is
    contiguous row-major and the dtype matches (so writes land in it), else a packed copy."""
    import numpy as np

    info = element_info(t.element_type)
    if not isinstance(array, np.ndarray):
        raise ExecutionError(
            f"argument #{arg} must be a numpy array for '{t}', got {type(array).__name__}"
        )
    if array.ndim != len(t.shape) or any(
        s != DYNAMIC and s != n for s, n in zip(t.shape, array.shape)
    ):
        raise ExecutionError(f"argument #{arg}: array of shape {array.shape} does not fit '{t}'")
    sizes = tuple(int(n) for n in array.shape)
    if symbols is None:
        symbols = default_layout_symbols(t, sizes)
        if symbols is None:
            raise ExecutionError(
                f"argument #{arg}: the layout of '{t}' has symbols; bind them with layout_symbols={{{arg}: (...)}}"
            )
    if len(symbols) != num_layout_symbols(t):
        raise ExecutionError(
            f"argument #{arg}: '{t}' needs {num_layout_symbols(t)} layout symbol values, got {len(symbols)}"
        )
    if (
        is_contiguous_row_major(t)
        and array.dtype == np.dtype(info.numpy)
        and array.flags.c_contiguous
        and array.flags.writeable
    ):
        pstrides = physical_strides(t, sizes) if t.has_identity_layout else (1,)
        return MemRef(t, array.reshape(-1), sizes, tuple(symbols), pstrides)
    memref = MemRef.allocate(t, sizes, symbols)
    if info.kind == "float" and array.dtype != np.dtype(info.numpy):
        memref.store_array(float_values(array, info))
    else:
        memref.store_array(np.asarray(array).astype(info.numpy, copy=False))
    return memref


# -- deterministic and random inputs -------------------------------------------------------------
