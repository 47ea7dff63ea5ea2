"""Element types at run time: the one table of element types both backends share (numpy
dtype, C type, float format), float encodings, and the errors of running.

Element types (:func:`element_info`): index, i1..i64 and the floats of one table shared
by both backends: f16, f32, f64, f80 (numpy.longdouble / long double, when they are the x87
format) and, held in their own encoding and computed in f32, bf16, tf32 and the f8/f6/f4
types (ml_dtypes dtypes; tf32 as float32 on the tf32 grid).  f128 has no numpy type and is
refused.  numpy is imported lazily, so ``import affine`` stays light.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from affine.ir.diagnostics import DiagnosticError, Location
from affine.ir.types import (
    FloatType,
    IndexType,
    IntegerType,
    Type,
)

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
FLOAT_TYPES = {
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

_SUPPORTED = "index, i1..i64, " + ", ".join(FLOAT_TYPES)


def element_info(t: Type, loc: Location | None = None) -> ElementInfo:
    """Storage facts of a scalar type; :class:`ExecutionError` for types no backend runs."""
    if isinstance(t, IndexType):
        return ElementInfo("index", 64, "int64", "int64_t")
    if isinstance(t, FloatType) and t.name in FLOAT_TYPES:
        info = FLOAT_TYPES[t.name]
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
        dtype.name == i.numpy for i in FLOAT_TYPES.values() if i.format is not None
    )


# -- float values ---------------------------------------------------------------------------------

F32 = FLOAT_TYPES["f32"]
F64 = FLOAT_TYPES["f64"]


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
