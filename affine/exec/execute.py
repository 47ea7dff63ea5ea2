"""Running kernels: the memory model both backends share, and ``run`` / ``time_kernel`` /
``check_equivalent``.

**Memory model.**  A memref value at run time is a :class:`MemRef`: one flat *physical*
buffer plus the numbers its type leaves open (dynamic sizes, layout symbols).  The physical
position of the logical index ``x`` is ``sum_k r_k(x) * P_k`` where ``r`` is the type's
layout map (identity when there is none; a strided layout is its linear map) with its
symbols bound, and ``P`` are the row-major strides of the *physical extents*
``E_k = max r_k + 1`` over the logical index box.  For a single-result map (strided
layouts, linear maps) ``P = (1,)``: the map is the offset itself.  :func:`offset_map`
gives this formula as one affine map, so the interpreter and the C backend evaluate the
same expression.

**Arrays.**  ``run`` takes numpy arrays of the *logical* shape and updates them in place;
arrays whose type has a non-identity layout are packed into a physical buffer and unpacked
after the call.  Layout symbols of function arguments are bound by the caller
(``layout_symbols={arg: (values...)}``); unbound ``?`` strides of a strided layout default
to the row-major strides of the logical shape and an unbound ``?`` offset to 0.

**Deterministic inputs** (:func:`deterministic_inputs`, the ``poly-opt --run`` inputs and the
mlir-runner harness): element ``i`` (row-major logical order) of memref argument ``a`` is
``((7*i + 13*a) mod 17) / 17`` rounded to a float element type (through f32 for the types
with a :class:`FloatFormat`, see :func:`float_values`), or ``(7*i + 13*a) mod 17`` wrapped
to an integer element type.

**Element types** (:func:`element_info`): index, i1..i64 and the floats of one table shared
by both backends: f16, f32, f64, f80 (numpy.longdouble / long double, when they are the x87
format) and, held in their own encoding and computed in f32, bf16, tf32 and the f8/f6/f4
types (ml_dtypes dtypes; tf32 as float32 on the tf32 grid).  f128 has no numpy type and is
refused.

numpy and the C toolchain are imported lazily, so ``import affine`` stays light.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from affine.ir.core import Module, Operation
from affine.ir.diagnostics import DiagnosticError, Location
from affine.ir.types import (
    DYNAMIC,
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    StridedLayout,
    Type,
)
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr, constant, symbol

if TYPE_CHECKING:
    import numpy as np

    from affine.ir.attributes import FloatAttr


# The arith casts both backends implement (one conversion function each, see interp/c_backend).
ARITH_CASTS = (
    "index_cast",
    "index_castui",
    "sitofp",
    "uitofp",
    "fptosi",
    "fptoui",
    "extf",
    "truncf",
    "extsi",
    "extui",
    "trunci",
    "bitcast",
)


class ExecutionError(DiagnosticError):
    """A kernel that cannot be run or failed while running (located at the op when known)."""


# -- element types --------------------------------------------------------------------------------


@dataclass(frozen=True)
class FloatFormat:
    """The encoding of a float type narrower than f32 other than f16 (bf16, tf32, f8, f6,
    f4): both backends hold its values in this encoding and compute every op in f32.

    ``exponent`` and ``mantissa`` are the field widths and ``bias`` the exponent bias;
    ``special`` says how the type spells what IEEE spells with an all-ones exponent:
    ``ieee`` (infinities and NaNs), ``fn`` (no infinities; all ones is NaN), ``fnuz`` (no
    infinities, no -0; the sign bit alone is NaN), ``finite`` (neither: overflow saturates)
    or ``e8m0`` (unsigned powers of two; all ones is NaN).  The encoding sits ``shift`` bits
    up in its storage word (tf32 is stored as the f32 of the same value)."""

    exponent: int
    mantissa: int
    bias: int
    special: str
    shift: int = 0

    @property
    def bits(self) -> int:
        return (self.special != "e8m0") + self.exponent + self.mantissa


@dataclass(frozen=True)
class ElementInfo:
    """How values of one MLIR scalar type are held: ``kind`` is ``float``, ``int`` (two's
    complement, canonically signed: signless and ``siN``; ``i1`` true is -1), ``uint``
    (``uiN``) or ``index`` (unbounded in the interpreter, int64 in C).  Floats carry their
    MLIR ``name``, and a ``format`` when they are held encoded (see :class:`FloatFormat`)."""

    kind: str
    width: int
    numpy: str  # storage dtype name
    c: str  # C storage type
    name: str = ""
    format: FloatFormat | None = None


def _encoded(name: str, numpy: str, c: str, fmt: FloatFormat) -> ElementInfo:
    return ElementInfo("float", fmt.bits, numpy, c, name, fmt)


# The one table of float types both backends run: MLIR name, numpy (ml_dtypes) dtype, C type.
_FLOATS = {
    "f16": ElementInfo("float", 16, "float16", "_Float16", "f16"),
    "f32": ElementInfo("float", 32, "float32", "float", "f32"),
    "f64": ElementInfo("float", 64, "float64", "double", "f64"),
    "f80": ElementInfo("float", 80, "longdouble", "long double", "f80"),
    "bf16": _encoded("bf16", "bfloat16", "uint16_t", FloatFormat(8, 7, 127, "ieee")),
    "tf32": _encoded("tf32", "float32", "uint32_t", FloatFormat(8, 10, 127, "ieee", 13)),
    "f8E5M2": _encoded("f8E5M2", "float8_e5m2", "uint8_t", FloatFormat(5, 2, 15, "ieee")),
    "f8E4M3": _encoded("f8E4M3", "float8_e4m3", "uint8_t", FloatFormat(4, 3, 7, "ieee")),
    "f8E3M4": _encoded("f8E3M4", "float8_e3m4", "uint8_t", FloatFormat(3, 4, 3, "ieee")),
    "f8E4M3FN": _encoded("f8E4M3FN", "float8_e4m3fn", "uint8_t", FloatFormat(4, 3, 7, "fn")),
    "f8E4M3FNUZ": _encoded(
        "f8E4M3FNUZ", "float8_e4m3fnuz", "uint8_t", FloatFormat(4, 3, 8, "fnuz")
    ),
    "f8E5M2FNUZ": _encoded(
        "f8E5M2FNUZ", "float8_e5m2fnuz", "uint8_t", FloatFormat(5, 2, 16, "fnuz")
    ),
    "f8E4M3B11FNUZ": _encoded(
        "f8E4M3B11FNUZ", "float8_e4m3b11fnuz", "uint8_t", FloatFormat(4, 3, 11, "fnuz")
    ),
    "f8E8M0FNU": _encoded("f8E8M0FNU", "float8_e8m0fnu", "uint8_t", FloatFormat(8, 0, 127, "e8m0")),
    "f4E2M1FN": _encoded("f4E2M1FN", "float4_e2m1fn", "uint8_t", FloatFormat(2, 1, 1, "finite")),
    "f6E2M3FN": _encoded("f6E2M3FN", "float6_e2m3fn", "uint8_t", FloatFormat(2, 3, 1, "finite")),
    "f6E3M2FN": _encoded("f6E3M2FN", "float6_e3m2fn", "uint8_t", FloatFormat(3, 2, 3, "finite")),
}

_SUPPORTED = "index, i1..i64, " + ", ".join(_FLOATS)


def element_info(t: Type, loc: Location | None = None) -> ElementInfo:
    """Storage facts of a scalar type; :class:`ExecutionError` for types no backend runs."""
    if isinstance(t, IndexType):
        return ElementInfo("index", 64, "int64", "int64_t")
    if isinstance(t, FloatType) and t.name in _FLOATS:
        info = _FLOATS[t.name]
        if info.name == "f80":
            _check_x87(loc)
        elif info.numpy not in ("float16", "float32", "float64"):
            _import_ml_dtypes(t, loc)
        return info
    if isinstance(t, IntegerType) and 1 <= t.width <= 64:
        if t.width == 1:
            return ElementInfo("int", 1, "bool", "uint8_t")
        storage = next(w for w in (8, 16, 32, 64) if t.width <= w)
        if t.signedness == "u":
            return ElementInfo("uint", t.width, f"uint{storage}", f"uint{storage}_t")
        return ElementInfo("int", t.width, f"int{storage}", f"int{storage}_t")
    why = " (no numpy type holds IEEE quad precision)" if str(t) == "f128" else ""
    raise ExecutionError(
        f"values of type '{t}' cannot be executed{why}; supported: {_SUPPORTED}", loc
    )


def _check_x87(loc: Location | None) -> None:
    """f80 runs as numpy.longdouble / C long double, which must be the x87 80-bit format."""
    import numpy as np

    fi = np.finfo(np.longdouble)
    if (fi.nmant, fi.nexp) != (63, 15):
        raise ExecutionError(
            f"values of type 'f80' cannot be executed here: numpy.longdouble is not the x87 "
            f"80-bit format on this platform ({fi.nmant + 1}-bit significand, {fi.nexp}-bit "
            "exponent)",
            loc,
        )


def _import_ml_dtypes(t: Type, loc: Location | None) -> None:
    """Register the ml_dtypes dtypes (bfloat16, float8_*...) with numpy."""
    try:
        import ml_dtypes  # noqa: F401
    except ImportError:
        raise ExecutionError(
            f"values of type '{t}' need the ml_dtypes package (pip install ml_dtypes)", loc
        ) from None


def is_float_dtype(dtype: Any) -> bool:
    """Is ``dtype`` the storage of a float element type (numpy or ml_dtypes)?"""
    import numpy as np

    dtype = np.dtype(dtype)
    return dtype.kind == "f" or any(
        dtype.name == i.numpy for i in _FLOATS.values() if i.format is not None
    )


# -- float values ---------------------------------------------------------------------------------

F32 = _FLOATS["f32"]
F64 = _FLOATS["f64"]


def float_values(values: Any, info: ElementInfo) -> Any:
    """Float ``values`` (a number or an array) as run-time values of the float type ``info``,
    rounded to nearest even as both backends convert: types with a :class:`FloatFormat`
    through f32 first (as LLVM converts to bf16), the others directly."""
    import numpy as np

    array = np.asarray(values)
    with np.errstate(over="ignore", invalid="ignore"):
        if info.format is None:
            out = array.astype(info.numpy)
        else:
            out = encode_f32(array.astype(np.float32), info)
    return out if out.ndim else out[()]


def encode_f32(x: np.ndarray, info: ElementInfo) -> np.ndarray:
    """f32 values rounded to the encoded type ``info`` (ml_dtypes' conversion; tf32 rounds
    the f32 encoding to its top 19 bits, NaNs becoming the quiet NaN of their sign)."""
    import numpy as np

    fmt = info.format
    assert fmt is not None
    if not fmt.shift:
        with np.errstate(over="ignore", invalid="ignore"):
            return x.astype(info.numpy)
    u = np.array(x, dtype=np.float32).view(np.uint32)
    magnitude = u & np.uint32(0x7FFFFFFF)
    drop = fmt.shift
    rounded = (
        magnitude
        + ((magnitude >> np.uint32(drop)) & np.uint32(1))
        + np.uint32((1 << (drop - 1)) - 1)
    ) & np.uint32(~((1 << drop) - 1) & 0xFFFFFFFF)
    rounded = np.where(magnitude > np.uint32(0x7F800000), np.uint32(0x7FC00000), rounded)
    return (rounded.astype(np.uint32) | (u & np.uint32(0x80000000))).view(np.float32)


def storage_word(value: Any, info: ElementInfo) -> int:
    """The bits of a float value as stored in memory (an unsigned integer)."""
    import numpy as np

    stored = np.asarray(value, dtype=info.numpy).reshape(1)
    if info.name == "f80":
        return int.from_bytes(stored.tobytes()[:10], "little")
    return int(stored.view(f"uint{stored.itemsize * 8}")[0])


def float_bits(value: Any, info: ElementInfo) -> int:
    """The encoding of a float value (what ``arith.bitcast`` sees): ``info.width`` bits."""
    shift = info.format.shift if info.format is not None else 0
    return storage_word(value, info) >> shift


def float_from_bits(bits: int, info: ElementInfo) -> Any:
    """The float value of type ``info`` with encoding ``bits`` (inverse of :func:`float_bits`)."""
    import numpy as np

    bits &= (1 << info.width) - 1
    dtype = np.dtype(info.numpy)
    if info.name == "f80":
        raw = bits.to_bytes(10, "little") + bytes(dtype.itemsize - 10)
        return np.frombuffer(raw, dtype=dtype)[0]
    shift = info.format.shift if info.format is not None else 0
    word = np.array([bits << shift], dtype=f"uint{dtype.itemsize * 8}")
    return word.view(dtype)[0]


def float_attr_value(attr: FloatAttr, info: ElementInfo) -> Any:
    """The run-time value of a float constant: its exact encoding ``attr.bits``."""
    return float_from_bits(attr.bits, info)


# -- layouts ----------------------------------------------------------------------------------------


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
    strides = [1] * len(extents)
    for k in range(len(extents) - 2, -1, -1):
        strides[k] = strides[k + 1] * extents[k + 1]
    return tuple(strides)


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
    row_major = [1] * len(sizes)
    for k in range(len(sizes) - 2, -1, -1):
        row_major[k] = row_major[k + 1] * sizes[k + 1]
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
    expected = 1
    for size, stride in zip(reversed(t.shape), reversed(t.layout.strides)):
        if stride != expected or size == DYNAMIC:
            return False
        expected *= size
    return True


def strided_form(
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
    form = strided_form(source, symbols, pstrides)
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
    from affine.dialects.common import segments

    lists = []
    for k, name in enumerate(("static_offsets", "static_sizes", "static_strides")):
        dynamic = iter(segments(op, k + 1))
        values = op.properties[name].values  # type: ignore[attr-defined]
        lists.append([next(dynamic) if v in (DYNAMIC, -(1 << 63)) else v for v in values])
    return lists[0], lists[1], lists[2]


class MemRef:
    """A memref at run time: ``data`` (a flat numpy array, the physical buffer), the logical
    ``sizes``, the layout ``symbols`` and the physical strides ``pstrides``."""

    __slots__ = ("data", "pstrides", "sizes", "symbols", "type")

    def __init__(
        self,
        t: MemRefType,
        data: np.ndarray,
        sizes: tuple[int, ...],
        symbols: tuple[int, ...],
        pstrides: tuple[int, ...],
    ) -> None:
        self.type = t
        self.data = data
        self.sizes = sizes
        self.symbols = symbols
        self.pstrides = pstrides

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


def deterministic_values(element: Type, count: int, arg: int) -> np.ndarray:
    """Element ``i`` = ``((7*i + 13*arg) mod 17) / 17`` (floats: the f64 quotient rounded to
    the type by :func:`float_values`) or ``(7*i + 13*arg) mod 17`` wrapped to the width
    (integers)."""
    import numpy as np

    info = element_info(element)
    raw = (np.arange(count, dtype=np.int64) * 7 + 13 * arg) % 17
    if info.kind == "float":
        return float_values(raw.astype(np.float64) / 17.0, info)
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
    from affine.ops import function_type_of

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
    func: Operation, sizes: dict[int, Sequence[int]] | None = None
) -> list[np.ndarray]:
    """One array per memref argument, filled as the module docstring states."""
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
        arrays.append(deterministic_values(t.element_type, count, a).reshape(shape))
    return arrays


def random_inputs(
    func: Operation, seed: int = 0, sizes: dict[int, Sequence[int]] | None = None
) -> list[Any]:
    """One value per argument: for a memref an array with floats uniform in [-1, 1) (in
    (0, 1] for the unsigned f8E8M0FNU) and integers in [0, 17); for a scalar one such value
    (an ``index`` scalar, often a size, is in [1, 9))."""
    import numpy as np

    rng = np.random.default_rng(seed)
    arrays = []
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
            arrays.append(float_values(values, info))
        else:
            arrays.append(wrap_array(rng.integers(0, 17, shape), info).astype(info.numpy))
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
    from affine.ops import DmaStartOp, MemRefDmaStart

    args = func.regions[0].blocks[0].arguments
    root: dict[Any, int] = {a: i for i, a in enumerate(args) if isinstance(a.type, MemRefType)}
    written: set[int] = set()
    reads_only = {
        "affine.load",
        "memref.load",
        "affine.vector_load",
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
        if op.name in ("affine.store", "memref.store", "affine.vector_store"):
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


BACKENDS = ("c", "interp")


@dataclass
class Prepared:
    """Arguments converted for a backend: memrefs, scalars, and how to copy results back."""

    values: list[Any]
    write_back: list[tuple[MemRef, Any]] = field(default_factory=list)

    def finish(self) -> None:
        for memref, array in self.write_back:
            array[...] = memref.to_array()


def prepare_arguments(
    func: Operation, args: Sequence[Any], layout_symbols: dict[int, Sequence[int]] | None = None
) -> Prepared:
    """Check ``args`` against the signature of ``func`` and build the run-time values."""
    import numpy as np

    inputs, _ = signature(func)
    if len(args) != len(inputs):
        raise ExecutionError(
            f"@{function_name(func)} takes {len(inputs)} arguments, {len(args)} given"
        )
    prepared = Prepared([])
    for a, (t, value) in enumerate(zip(inputs, args)):
        if isinstance(t, MemRefType):
            if isinstance(value, MemRef):
                prepared.values.append(value)
                continue
            memref = memref_from_array(t, value, (layout_symbols or {}).get(a), a)
            prepared.values.append(memref)
            if not np.may_share_memory(memref.data, value):  # a packed copy
                prepared.write_back.append((memref, value))
        else:
            prepared.values.append(scalar_argument(t, value, a))
    return prepared


def scalar_argument(t: Type, value: Any, arg: int = 0) -> Any:
    """A Python scalar as the backends hold values of type ``t``."""
    import numpy as np

    info = element_info(t)
    if info.kind == "float":
        return float_values(value, info)
    if isinstance(value, (bool, np.bool_)):
        value = int(value)
    if not isinstance(value, (int, np.integer)):
        raise ExecutionError(
            f"argument #{arg} of type '{t}' must be an integer, got {type(value).__name__}"
        )
    return int(wrap_array(np.int64(value), info)) if info.kind != "index" else int(value)


def run(
    func: Operation | Module,
    *args: Any,
    backend: str = "c",
    entry: str | None = None,
    layout_symbols: dict[int, Sequence[int]] | None = None,
    **options: Any,
) -> Any:
    """Run ``func`` on ``args`` (numpy arrays for memrefs, updated in place; Python numbers
    for scalars) and return its results (None, one value, or a tuple).

    ``backend`` is ``"c"`` (compiled, see :mod:`affine.exec.c_backend`; ``options`` go to
    :func:`affine.exec.c_backend.compile_function`) or ``"interp"`` (:mod:`affine.exec.interp`).
    """
    kernel = load_kernel(func, backend, entry, **options)
    return kernel(*args, layout_symbols=layout_symbols)


def load_kernel(
    func: Operation | Module, backend: str = "c", entry: str | None = None, **options: Any
) -> Kernel:
    """A :class:`Kernel` for repeated runs (compiled once)."""
    return Kernel(resolve_function(func, entry), backend, **options)


class Kernel:
    """A function ready to run on one backend: ``kernel(*args, layout_symbols=None)``.

    A call converts the arguments (:meth:`prepare`), runs the backend on the run-time
    values (:meth:`invoke`) and writes packed arrays back.  ``interpreter`` (interp) or
    ``compiled`` (c) is the backend object."""

    def __init__(self, func: Operation, backend: str = "c", **options: Any) -> None:
        self.func = func
        self.backend = backend
        self.interpreter = None
        self.compiled = None
        if backend == "interp":
            from affine.exec.interp import Interpreter

            if options:
                raise ExecutionError(
                    f"the interpreter takes no options ({', '.join(options)} given)"
                )
            self.interpreter = Interpreter(module_of(func))
            self.interpreter.function(function_name(func))
        elif backend == "c":
            from affine.exec.c_backend import compile_function

            self.compiled = compile_function(func, **options)
        else:
            raise ExecutionError(f"unknown backend '{backend}' (choose from {', '.join(BACKENDS)})")

    def prepare(
        self, args: Sequence[Any], layout_symbols: dict[int, Sequence[int]] | None = None
    ) -> Prepared:
        return prepare_arguments(self.func, args, layout_symbols)

    def invoke(self, values: Sequence[Any]) -> list[Any]:
        """Run on run-time values (MemRef, int, numpy scalar); returns the raw results."""
        if self.interpreter is not None:
            return self.interpreter.call(function_name(self.func), values)
        assert self.compiled is not None
        return self.compiled(values)

    def __call__(self, *args: Any, layout_symbols: dict[int, Sequence[int]] | None = None) -> Any:
        prepared = self.prepare(args, layout_symbols)
        results = self.invoke(prepared.values)
        prepared.finish()
        return _pack_results(self.func, results)


def _pack_results(func: Operation, results: Sequence[Any]) -> Any:
    """None, one value or a tuple; ``i1`` results become bools."""
    types = signature(func)[1]
    values = [
        bool(v) if isinstance(t, IntegerType) and t.width == 1 else v
        for t, v in zip(types, results)
    ]
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return tuple(values)


@dataclass(frozen=True)
class Timing:
    """Wall-clock times of repeated kernel calls, in seconds (inputs reset before each)."""

    times: tuple[float, ...]

    @property
    def min(self) -> float:
        return min(self.times)

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    def __str__(self) -> str:
        return f"min {format_seconds(self.min)}, median {format_seconds(self.median)} over {len(self.times)} runs"


def format_seconds(seconds: float) -> str:
    if seconds >= 1.0:
        return f"{seconds:.3f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds * 1e6:.1f} us"


def time_kernel(
    func: Operation | Module,
    *args: Any,
    backend: str = "c",
    repeats: int = 5,
    warmup: int = 1,
    entry: str | None = None,
    layout_symbols: dict[int, Sequence[int]] | None = None,
    **options: Any,
) -> Timing:
    """Time ``repeats`` calls of the kernel itself (after ``warmup`` untimed ones), each on
    the given inputs: arguments are converted once, and the buffers are restored before
    each call outside the timed region.  The arrays hold the result of one call afterwards."""
    import numpy as np

    if repeats < 1:
        raise ExecutionError("time_kernel needs at least one repeat")
    kernel = load_kernel(func, backend, entry, **options)
    prepared = kernel.prepare(args, layout_symbols)
    buffers = [v.data for v in prepared.values if isinstance(v, MemRef)]
    originals = [b.copy() for b in buffers]
    times = []
    for i in range(warmup + repeats):
        for buffer, original in zip(buffers, originals):
            np.copyto(buffer, original)
        start = time.perf_counter()
        kernel.invoke(prepared.values)
        elapsed = time.perf_counter() - start
        if i >= warmup:
            times.append(elapsed)
    prepared.finish()
    return Timing(tuple(times))


# -- equivalence -------------------------------------------------------------------------------------


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
        return _FLOATS["f80"]
    return next(i for i in _FLOATS.values() if i.numpy == dtype.name)


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
        m = compare_arrays(np.asarray(x), np.asarray(y), -1 - k, tolerance(t))
        if m is not None:
            mismatches.append(m)
    return Equivalence(tuple(mismatches), (result_f, result_g))


# -- the mlir-runner harness ------------------------------------------------------------------------

MLIR_LOWERING = (
    "-normalize-memrefs",
    "-lower-affine",
    "-convert-scf-to-cf",
    "-convert-math-to-funcs",
    "-convert-math-to-llvm",
    "-convert-math-to-libm",
    "-convert-vector-to-llvm",
    "-finalize-memref-to-llvm",
    "-convert-arith-to-llvm",
    "-convert-cf-to-llvm",
    "-convert-func-to-llvm",
    "-reconcile-unrealized-casts",
)


def mlir_harness(func: Operation, repeats: int = 1) -> str:
    """The module of ``func`` plus a ``@main`` that, ``repeats`` times, fills every memref
    argument with the deterministic inputs and times one call of ``func`` with ``rtclock``
    (printing each time), then prints the :func:`checksums` of every argument.

    Every number is printed with ``vector.print`` as the i64 bit pattern of an f64.  The
    kernel gets ``passthrough = ["noinline"]`` so that the timed call stays a call."""
    from affine.ir.attributes import ArrayAttr, StringAttr
    from affine.syntax.printer import print_module

    name = function_name(func)
    inputs, results = signature(func)
    if results:
        raise ExecutionError(
            f"@{name} returns values; the mlir-runner harness runs kernels returning nothing"
        )
    dma = next((op for op in module_of(func).walk() if op.name.endswith(".dma_start")), None)
    if dma is not None:
        raise ExecutionError(
            f"mlir-runner cannot run '{dma.name}': MLIR 22 has no LLVM lowering for DMA ops",
            dma.loc,
        )
    module = Module(module_of(func)).clone()
    target = module.function(name)
    target.attributes["passthrough"] = ArrayAttr([StringAttr("noinline")])
    lines = ["func.func private @rtclock() -> f64", "func.func @main() {"]
    body = _HarnessWriter(lines)
    args = []
    for a, t in enumerate(inputs):
        if not isinstance(t, MemRefType) or not t.has_static_shape:
            raise ExecutionError(
                f"argument #{a} of @{name} has type '{t}'; the harness needs memrefs of static shape"
            )
        args.append(body.allocate(t))
    body.emit("%c0 = arith.constant 0 : index")
    body.emit("%c1 = arith.constant 1 : index")
    body.emit(f"%repeats = arith.constant {repeats} : index")
    body.emit("scf.for %rep = %c0 to %repeats step %c1 {")
    for a, (t, v) in enumerate(zip(inputs, args)):
        body.fill(v, t, a)
    types = ", ".join(str(t) for t in inputs)
    body.emit("%t0 = func.call @rtclock() : () -> f64")
    body.emit(f"func.call @{name}({', '.join(args)}) : ({types}) -> ()")
    body.emit("%t1 = func.call @rtclock() : () -> f64")
    body.emit("%dt = arith.subf %t1, %t0 : f64")
    body.print_f64("%dt")
    body.emit("}")
    for t, v in zip(inputs, args):
        body.checksum(v, t)
    lines.append("  return")
    lines.append("}")
    text = print_module(module).rstrip()
    if not text.endswith("}"):
        raise ExecutionError("unexpected module text")
    return text[:-1] + "\n".join("  " + line for line in lines) + "\n}\n"


class _HarnessWriter:
    """Writes the body of the harness ``@main`` (fresh SSA names, nested loops)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.count = 0
        self.depth = 1

    def fresh(self) -> str:
        self.count += 1
        return f"%h{self.count}"

    def emit(self, text: str) -> None:
        if text.startswith("}"):
            self.depth -= 1
        self.lines.append("  " * self.depth + text)
        if text.endswith("{"):
            self.depth += 1

    def allocate(self, t: MemRefType) -> str:
        v = self.fresh()
        if isinstance(t.layout, StridedLayout):
            symbols = default_layout_symbols(t, t.shape) or ()
            extents = physical_extents(t, t.shape, symbols)
            buffer = self.fresh()
            self.emit(f"{buffer} = memref.alloc() : memref<{extents[0]}x{t.element_type}>")
            offset, strides = t.layout.offset, t.layout.strides
            self.emit(
                f"{v} = memref.reinterpret_cast {buffer} to offset: [{offset}], sizes: [{', '.join(map(str, t.shape))}], "
                f"strides: [{', '.join(map(str, strides))}] : memref<{extents[0]}x{t.element_type}> to {t}"
            )
        else:
            self.emit(f"{v} = memref.alloc() : {t}")
        return v

    def nest(self, t: MemRefType) -> tuple[list[str], str]:
        """Open loops over the logical index space; returns the ivs and the linear index."""
        ivs = []
        for size in t.shape:
            iv = self.fresh()
            self.emit(f"affine.for {iv} = 0 to {size} {{")
            ivs.append(iv)
        linear = self.fresh()
        expr = "0"
        for k, size in enumerate(t.shape):
            expr = f"({expr}) * {size} + d{k}" if k else f"d{k}"
        dims = ", ".join(f"d{k}" for k in range(len(ivs)))
        self.emit(f"{linear} = affine.apply affine_map<({dims}) -> ({expr})>({', '.join(ivs)})")
        return ivs, linear

    def fill(self, v: str, t: MemRefType, arg: int) -> None:
        info = element_info(t.element_type)
        ivs, linear = self.nest(t)
        raw = self.fresh()
        self.emit(
            f"{raw} = affine.apply affine_map<(d0) -> ((d0 * 7 + {13 * arg}) mod 17)>({linear})"
        )
        value = raw
        if info.kind != "index":
            as_i64 = self.fresh()
            self.emit(f"{as_i64} = arith.index_cast {raw} : index to i64")
            value = as_i64
            if info.kind == "float":
                as_f64, seventeen, scaled = self.fresh(), self.fresh(), self.fresh()
                self.emit(f"{as_f64} = arith.sitofp {as_i64} : i64 to f64")
                self.emit(f"{seventeen} = arith.constant 17.0 : f64")
                self.emit(f"{scaled} = arith.divf {as_f64}, {seventeen} : f64")
                value = self.convert_float(scaled, "f64", info)
            elif info.width != 64:
                value = self.fresh()
                self.emit(f"{value} = arith.trunci {as_i64} : i64 to {t.element_type}")
        self.emit(f"affine.store {value}, {v}[{', '.join(ivs)}] : {t}")
        for _ in ivs:
            self.emit("}")

    def checksum(self, v: str, t: MemRefType) -> None:
        info = element_info(t.element_type)
        zero = self.fresh()
        self.emit(f"{zero} = arith.constant 0.0 : f64")
        outer: list[str] = []
        sums = (zero, zero)
        ivs = []
        for size in t.shape:
            iv, a, b, result = self.fresh(), self.fresh(), self.fresh(), self.fresh()
            self.emit(
                f"{result}:2 = affine.for {iv} = 0 to {size} iter_args({a} = {sums[0]}, {b} = {sums[1]}) -> (f64, f64) {{"
            )
            outer.append(result)
            ivs.append(iv)
            sums = (a, b)
        linear = self.fresh()
        expr = "0"
        for k, size in enumerate(t.shape):
            expr = f"({expr}) * {size} + d{k}" if k else f"d{k}"
        dims = ", ".join(f"d{k}" for k in range(len(ivs)))
        self.emit(
            f"{linear} = affine.apply affine_map<({dims}) -> (({expr}) mod 7 + 1)>({', '.join(ivs)})"
            if ivs
            else f"{linear} = arith.constant 1 : index"
        )
        element = self.fresh()
        self.emit(f"{element} = affine.load {v}[{', '.join(ivs)}] : {t}")
        x = element
        if info.kind == "float":
            x = self.convert_float(element, info.name, F64)
        else:
            as_int = element
            if info.kind == "index":
                as_int = self.fresh()
                self.emit(f"{as_int} = arith.index_cast {element} : index to i64")
            x = self.fresh()
            unsigned = info.kind == "uint" or info.width == 1
            self.emit(
                f"{x} = arith.{'uitofp' if unsigned else 'sitofp'} {as_int} : {'i64' if info.kind == 'index' else t.element_type} to f64"
            )
        w_int, w = self.fresh(), self.fresh()
        self.emit(f"{w_int} = arith.index_cast {linear} : index to i64")
        self.emit(f"{w} = arith.sitofp {w_int} : i64 to f64")
        s1, p, s2 = self.fresh(), self.fresh(), self.fresh()
        self.emit(f"{s1} = arith.addf {sums[0]}, {x} : f64")
        self.emit(f"{p} = arith.mulf {x}, {w} : f64")
        self.emit(f"{s2} = arith.addf {sums[1]}, {p} : f64")
        if not ivs:
            self.print_f64(s1)
            self.print_f64(s2)
            return
        self.emit(f"affine.yield {s1}, {s2} : f64, f64")
        for k in range(len(ivs) - 1, 0, -1):
            self.emit("}")
            self.emit(f"affine.yield {outer[k]}#0, {outer[k]}#1 : f64, f64")
        self.emit("}")
        self.print_f64(f"{outer[0]}#0")
        self.print_f64(f"{outer[0]}#1")

    def convert_float(self, value: str, source: str, target: ElementInfo) -> str:
        """``value`` of float type ``source`` converted to ``target`` as the backends do
        (types with a :class:`FloatFormat` through f32)."""
        steps = [source]
        if target.format is not None or _FLOATS[source].format is not None:
            steps.append("f32")
        steps.append(target.name)
        for a, b in itertools.pairwise(steps):
            if a != b:
                wider = _FLOATS[b].width > _FLOATS[a].width
                converted = self.fresh()
                self.emit(
                    f"{converted} = arith.{'extf' if wider else 'truncf'} {value} : {a} to {b}"
                )
                value = converted
        return value

    def print_f64(self, value: str) -> None:
        bits = self.fresh()
        self.emit(f"{bits} = arith.bitcast {value} : f64 to i64")
        self.emit(f"vector.print {bits} : i64")


@dataclass(frozen=True)
class MlirRun:
    """What the mlir-runner harness printed: kernel times (s) and per-argument checksums."""

    times: tuple[float, ...]
    checksums: tuple[tuple[float, float], ...]


def run_mlir_runner(
    func: Operation,
    mlir_opt: str,
    mlir_runner: str,
    repeats: int = 1,
    opt_level: str = "-O3",
    timeout: float = 600,
) -> MlirRun:
    """Lower :func:`mlir_harness` with :data:`MLIR_LOWERING` and run it with mlir-runner
    (runtime libraries next to the tools, in ``../lib``)."""
    import glob
    import os
    import struct
    import subprocess

    text = mlir_harness(func, repeats)
    lowered = subprocess.run(
        [mlir_opt, *MLIR_LOWERING, "-"], input=text, capture_output=True, text=True, timeout=timeout
    )
    if lowered.returncode != 0:
        raise ExecutionError(
            f"mlir-opt could not lower the harness of @{function_name(func)}:\n{lowered.stderr.strip()}"
        )
    libdir = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(mlir_runner))), "lib")
    libraries = sorted(glob.glob(os.path.join(libdir, "libmlir_c_runner_utils.so*")))
    if not libraries:
        raise ExecutionError(f"libmlir_c_runner_utils.so not found in {libdir}")
    command = [
        mlir_runner,
        opt_level,
        "-e",
        "main",
        "-entry-point-result=void",
        f"-shared-libs={libraries[0]}",
    ]
    ran = subprocess.run(
        command, input=lowered.stdout, capture_output=True, text=True, timeout=timeout
    )
    if ran.returncode != 0:
        raise ExecutionError(f"mlir-runner failed on @{function_name(func)}:\n{ran.stderr.strip()}")
    numbers = [struct.unpack("<d", struct.pack("<q", int(line)))[0] for line in ran.stdout.split()]
    times = tuple(numbers[:repeats])
    rest = numbers[repeats:]
    return MlirRun(times, tuple((rest[k], rest[k + 1]) for k in range(0, len(rest), 2)))


__all__ = [
    "ExecutionError",
    "MemRef",
    "Timing",
    "check_equivalent",
    "checksums",
    "deterministic_inputs",
    "load_kernel",
    "offset_map",
    "random_inputs",
    "run",
    "time_kernel",
]
