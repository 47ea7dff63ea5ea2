"""C backend: emits C99 for functions of the IR, compiles them into a shared library and calls
them on numpy buffers through ctypes.

Semantics follow the interpreter (:mod:`affine.exec.interp`): index values are int64; integers
are held canonically (signed for signless, unsigned for ``uiN``) and wrap at their width;
floats are computed in their own precision (``-std=c99`` rounds ``_Float16`` per operation,
``-ffp-contract=off`` forbids fused multiply-adds the IR does not ask for; f80 is ``long
double``, checked to be the x87 format); types with a :class:`~affine.exec.elements.FloatFormat`
(bf16, tf32, f8/f6/f4) are held as their stored words (``uint8_t``/``uint16_t``; tf32 as the
``uint32_t`` of its f32) and every op decodes to float, computes and rounds back with the
emitted ``pa_dec_<type>`` / ``pa_enc_<type>`` (ml_dtypes' conversion, bit for bit); floordiv,
ceildiv and mod round as MLIR does for negative values; division by zero is reported (at
the op's location) instead of trapping.  Memory is the model of :mod:`affine.exec.memory`: a
memref is a data pointer plus its dynamic sizes, layout symbols and physical strides, and
every access goes through the type's :func:`~affine.exec.memory.offset_map`.  Loads and stores
are not bounds-checked unless ``checks=True``; DMA and copies always are.

The outermost dimension of an ``affine.parallel`` (not nested in another) becomes
``#pragma omp parallel for``, with declared reductions, when the compiler supports OpenMP
(detected once); inner dimensions stay plain loops.  Compiled libraries are cached by a
hash of the source, compiler and flags in ``$POLYAFFINE_CACHE_DIR`` (default
``$XDG_CACHE_HOME/polyaffine`` or ``~/.cache/polyaffine``).  ``$CC`` chooses the compiler.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from affine.dialects.affine_dialect import DmaStartOp, ForOp, IfOp, ParallelOp
from affine.dialects.arith import CMPF_PREDICATES, CMPI_PREDICATES
from affine.dialects.common import segments
from affine.dialects.func import function_type_of
from affine.dialects.memref import MemRefDmaStart
from affine.exec.elements import (
    ARITH_CASTS,
    F32,
    ElementInfo,
    ExecutionError,
    element_info,
    float_attr_value,
    float_values,
    storage_word,
)
from affine.exec.inputs import function_name, module_of, resolve_function
from affine.exec.memory import (
    MemRef,
    bound_strided_form,
    cast_layout_values,
    is_contiguous_row_major,
    num_layout_symbols,
    offset_map,
    offset_symbol_values,
    physical_extents,
    static_physical_strides,
    strided_view_values,
    view_operands,
)
from affine.exec.op_table import OpTable
from affine.exec.semantics import (
    FLOAT_BINARY_OPS,
    FLOAT_IDENTITIES,
    INT_BINARY_OPS,
    IntOps,
    integer_identity,
    strided_side_is_source,
)
from affine.exec.toolchain import build_library, find_compiler, load_library, openmp_supported
from affine.ir.attributes import DenseElementsAttr, FloatAttr, IntegerAttr, SymbolRefAttr
from affine.ir.core import Block, Module, Operation, Region, Value
from affine.ir.diagnostics import Location
from affine.ir.types import DYNAMIC, FloatType, IndexType, MemRefType, StridedLayout, Type
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr
from affine.math.integer_set import IntegerSet

# -- C types and integer semantics -----------------------------------------------------------------


def value_ctype(info: ElementInfo) -> str:
    """C type of a value (``i1`` values are int8_t -1/0; in memory they are bytes 0/1)."""
    return "int8_t" if info.width == 1 and info.kind == "int" else info.c


def value_dtype(info: ElementInfo) -> str:
    """numpy dtype holding one value of this type for the ctypes boundary."""
    return "int8" if info.width == 1 and info.kind == "int" else info.numpy


def canon_c(expr: str, info: ElementInfo) -> str:
    """C converting a 64-bit integer expression to the canonical value of the type."""
    w = info.width
    if info.kind == "index":
        return f"(int64_t)({expr})"
    if info.kind == "uint":
        if w in (8, 16, 32, 64):
            return f"({info.c})({expr})"
        return f"({info.c})pa_zext((uint64_t)({expr}), {w})"
    if w in (8, 16, 32, 64):
        return f"({info.c})({expr})"
    return f"({value_ctype(info)})pa_sext((uint64_t)({expr}), {w})"


def signed_c(expr: str, info: ElementInfo) -> str:
    """The signed (two's complement) view as int64_t."""
    if info.kind == "uint":
        return f"pa_sext((uint64_t)({expr}), {info.width})"
    return f"(int64_t)({expr})"


def unsigned_c(expr: str, info: ElementInfo) -> str:
    """The unsigned view as uint64_t."""
    if info.kind == "int" and info.width in (8, 16, 32):
        return f"(uint64_t)(uint{info.width}_t)({expr})"
    if info.kind == "int" and info.width < 64:
        return f"pa_zext((uint64_t)({expr}), {info.width})"
    return f"(uint64_t)({expr})"


def float_suffix(info: ElementInfo) -> str:
    return {16: "f16", 32: "f32", 64: "f64", 80: "f80"}[info.width]


def float_literal(value: Any, info: ElementInfo) -> str:
    """C for a run-time value of float type ``info`` (see :mod:`affine.exec.interp`): the stored
    word of an encoded type, an exact hex literal otherwise (NaNs keep their sign only)."""
    if info.format is not None:
        return f"(({info.c}){storage_word(value, info):#x}u)"
    if info.name == "f80":
        return _x87_literal(storage_word(value, info))
    x = float(value)
    sign = "-" if math.copysign(1.0, x) < 0 else ""
    if x != x:
        return f"({sign}({info.c})NAN)"
    if x in (math.inf, -math.inf):
        return f"(({info.c}){sign}INFINITY)"
    return f"(({info.c}){x.hex()})"


def _x87_literal(bits: int) -> str:
    """A ``long double`` literal for the x87 80-bit encoding ``bits``."""
    sign = "-" if bits >> 79 else ""
    exponent, significand = (bits >> 64) & 0x7FFF, bits & ((1 << 64) - 1)
    if exponent == 0x7FFF:
        special = "INFINITY" if significand << 1 == 1 << 64 else "NAN"
        return f"({sign}(long double){special})"
    if significand == 0:
        return f"({sign}0.0L)"
    return f"({sign}0x{significand:X}p{max(exponent, 1) - 16383 - 63}L)"


def dec_c(x: str, info: ElementInfo) -> str:
    """C for the value ops compute on: the f32 value of an encoded type's stored word
    (see :func:`codec_c`), the value itself for other floats."""
    return f"pa_dec_{info.name}({x})" if info.format is not None else x


def enc_c(expr: str, info: ElementInfo) -> str:
    """C rounding an f32 expression to an encoded type (identity for other floats)."""
    return f"pa_enc_{info.name}({expr})" if info.format is not None else expr


def codec_c(info: ElementInfo) -> str:
    """``pa_dec_<name>`` (stored word to its f32 value: ml_dtypes' own table for 8-bit
    types) and ``pa_enc_<name>`` (f32 to stored word, rounding to nearest even with the
    special values, overflow and ties of ml_dtypes' conversion) for an encoded type."""
    import numpy as np

    fmt = info.format
    assert fmt is not None
    name, st = info.name, info.c
    if fmt.shift:
        decode = f"static inline float pa_dec_{name}({st} b) {{ float f; memcpy(&f, &b, sizeof f); return f; }}"
    elif fmt.bits == 16:
        decode = (
            f"static inline float pa_dec_{name}({st} b) {{ uint32_t u = (uint32_t)b << 16; "
            "float f; memcpy(&f, &u, sizeof f); return f; }"
        )
    else:
        import ml_dtypes  # noqa: F401  (registers the dtype names)

        with np.errstate(invalid="ignore"):
            values = np.arange(1 << fmt.bits, dtype=np.uint8).view(info.numpy).astype(np.float32)
        entries = ", ".join(_c_float(float(v)) for v in values)
        decode = (
            f"static const float pa_table_{name}[{len(values)}] = {{{entries}}};\n"
            f"static inline float pa_dec_{name}({st} b) {{ return pa_table_{name}[b & {len(values) - 1:#x}]; }}"
        )
    return decode + "\n" + _encoder_c(info) + "\n"


def _c_float(x: float) -> str:
    """A C float constant (NaNs keep their sign)."""
    sign = "-" if math.copysign(1.0, x) < 0 else ""
    if x != x:
        return f"{sign}NAN"
    if x in (math.inf, -math.inf):
        return f"{sign}INFINITY"
    return x.hex()


def _encoder_c(info: ElementInfo) -> str:
    """``pa_enc_<name>``: ml_dtypes' float-to-narrow conversion (non-saturating) for one
    format, specialised from its :class:`~affine.exec.elements.FloatFormat`."""
    fmt = info.format
    assert fmt is not None
    bits, m_bits, bias, special = fmt.bits, fmt.mantissa, fmt.bias, fmt.special
    sign = 1 << (bits - 1)
    top = ((1 << fmt.exponent) - 1) << m_bits  # the all-ones exponent
    # (positive NaN, infinity and overflow, largest finite) codes
    nan_pos, inf_pos, largest_code = {
        "ieee": (top | (1 << max(m_bits - 1, 0)), top, top - 1),
        "fn": (sign - 1, sign - 1, sign - 2),
        "fnuz": (sign, sign, sign - 1),
        "e8m0": (0xFF, 0xFF, 0xFE),
        "finite": (sign, sign - 1, sign - 1),  # no NaN: ml_dtypes gives -0 (+0 for -NaN)
    }[special]
    nan_neg = 0 if special == "finite" else nan_pos | (sign if special in ("ieee", "fn") else 0)
    inf_neg = inf_pos if special in ("fnuz", "e8m0") else inf_pos | sign
    shift = 23 - m_bits
    st = info.c

    def word(code: str) -> str:
        return f"({st})(({code}) << {fmt.shift})" if fmt.shift else f"({st})({code})"

    lines = [
        f"static inline {st} pa_enc_{info.name}(float x) {{",
        "  uint32_t u; memcpy(&u, &x, sizeof u);",
        "  const uint32_t s = u >> 31, a = u & 0x7FFFFFFFu;",
        "  uint32_t m;",
        f"  if (a > 0x7F800000u) return {word(f's ? {nan_neg:#x}u : {nan_pos:#x}u')};",
        f"  if (a == 0x7F800000u) return {word(f's ? {inf_neg:#x}u : {inf_pos:#x}u')};",
    ]
    if special == "e8m0":  # unsigned; rounds half up, and f32 subnormals to nearest even
        lines += [
            "  if (s || a == 0) return 0xFF;",
            "  m = a < 0x00800000u ? pa_rne(a, 23) >> 23 : (a >> 23) + ((a >> 22) & 1);",
            "  return (uint8_t)(m > 0xFE ? 0xFF : m);",
            "}",
        ]
        return "\n".join(lines)
    lines.append("  if (a == 0) m = 0;")
    if bias < 127:  # results below the smallest normal
        lines += [
            f"  else if ((int)(a >> 23) <= {127 - bias}) {{",
            "    const int e = (int)(a >> 23);",
            "    const uint32_t lead = e > 0;",
            f"    const int sh = {shift} - (e - {127 - bias}) + (int)lead;",
            "    const uint32_t mant = (a & 0x7FFFFFu) | (lead << 23);",
            "    m = sh <= 24 ? pa_rne(mant, sh) >> sh : 0;",
            "  }",
        ]
    rebias = f" - {(127 - bias) << 23:#x}u" if bias != 127 else ""
    lines += [
        "  else {",
        f"    const uint32_t r = (pa_rne(a, {shift}) & ~{(1 << shift) - 1:#x}u){rebias};",
        f"    if (r > {largest_code << shift:#x}u) return {word(f's ? {inf_neg:#x}u : {inf_pos:#x}u')};",
        f"    m = r >> {shift};",
        "  }",
    ]
    signed = f"s && m ? m | {sign:#x}u : m" if special == "fnuz" else f"s ? m | {sign:#x}u : m"
    lines += [f"  return {word(signed)};", "}"]
    return "\n".join(lines)


def int_literal(value: int, info: ElementInfo) -> str:
    if info.kind == "uint":
        return f"(({info.c})UINT64_C({value}))"
    if value == -(1 << 63):
        return f"(({value_ctype(info)})INT64_MIN)"
    return f"(({value_ctype(info)})INT64_C({value}))"


PRELUDE = r"""#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int pa_err;
static void pa_fail(int code) { if (!pa_err) pa_err = code; }
static inline int64_t pa_max(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t pa_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t pa_floordiv(int64_t a, int64_t b) { int64_t q = a / b; return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q; }
static inline int64_t pa_ceildiv(int64_t a, int64_t b) { int64_t q = a / b; return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q; }
static inline int64_t pa_mod(int64_t a, int64_t b) { int64_t r = a % b; return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r; }
static inline int64_t pa_pos(int64_t b, int code) { if (b <= 0) { pa_fail(code); return 1; } return b; }
static inline int64_t pa_sext(uint64_t x, int w) { return w >= 64 ? (int64_t)x : (int64_t)(x << (64 - w)) >> (64 - w); }
static inline uint64_t pa_zext(uint64_t x, int w) { return w >= 64 ? x : x & ((UINT64_C(1) << w) - 1); }
static inline int64_t pa_divs(int64_t a, int64_t b, int code) { if (b == 0) { pa_fail(code); return 0; } if (b == -1) return (int64_t)(0 - (uint64_t)a); return a / b; }
static inline int64_t pa_rems(int64_t a, int64_t b, int code) { if (b == 0) { pa_fail(code); return 0; } if (b == -1) return 0; return a % b; }
static inline int64_t pa_floordivs(int64_t a, int64_t b, int code) { if (b == 0) { pa_fail(code); return 0; } if (b == -1) return (int64_t)(0 - (uint64_t)a); return pa_floordiv(a, b); }
static inline int64_t pa_ceildivs(int64_t a, int64_t b, int code) { if (b == 0) { pa_fail(code); return 0; } if (b == -1) return (int64_t)(0 - (uint64_t)a); return pa_ceildiv(a, b); }
static inline uint64_t pa_divu(uint64_t a, uint64_t b, int code) { if (b == 0) { pa_fail(code); return 0; } return a / b; }
static inline uint64_t pa_remu(uint64_t a, uint64_t b, int code) { if (b == 0) { pa_fail(code); return 0; } return a % b; }
static inline uint64_t pa_ceildivu(uint64_t a, uint64_t b, int code) { if (b == 0) { pa_fail(code); return 0; } return a / b + (a % b != 0); }
#define PA_FLOAT_TO_INT(T, S, LDEXP) \
static inline int64_t pa_fptosi##S(T x, int w) { \
  if (x != x) return 0; \
  T hi = LDEXP(1, w - 1); \
  if (x >= hi) return (int64_t)((UINT64_C(1) << (w - 1)) - 1); \
  if (x <= -hi) return -(int64_t)((UINT64_C(1) << (w - 2)) * 2 - 1) - 1; \
  return (int64_t)x; \
} \
static inline uint64_t pa_fptoui##S(T x, int w) { \
  if (x != x || x <= 0) return 0; \
  if (x >= LDEXP(1, w)) return w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1; \
  return (uint64_t)x; \
}
PA_FLOAT_TO_INT(double, , ldexp)
PA_FLOAT_TO_INT(long double, l, ldexpl)
static inline uint32_t pa_rne(uint32_t b, int n) { return n == 0 ? b : b + ((b >> n) & 1) + ((UINT32_C(1) << (n - 1)) - 1); }
static inline int64_t pa_ipow(int64_t a, int64_t b, int code) {
  if (b < 0) { if (a == 0) { pa_fail(code); return 0; } return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0; }
  uint64_t r = 1, x = (uint64_t)a;
  while (b) { if (b & 1) r *= x; x *= x; b >>= 1; }
  return (int64_t)r;
}
static inline int64_t pa_clz(uint64_t x, int w) { return x == 0 ? w : __builtin_clzll(x) - (64 - w); }
static inline int64_t pa_ctz(uint64_t x, int w) { return x == 0 ? w : __builtin_ctzll(x); }
#define PA_FLOAT_HELPERS(T, S) \
static inline T pa_maximumf_##S(T a, T b) { if (a != a) return a; if (b != b) return b; if (a == b) return signbit((double)a) ? b : a; return a > b ? a : b; } \
static inline T pa_minimumf_##S(T a, T b) { if (a != a) return a; if (b != b) return b; if (a == b) return signbit((double)a) ? a : b; return a < b ? a : b; } \
static inline T pa_maxnumf_##S(T a, T b) { if (a != a) return b; if (b != b) return a; return a >= b ? a : b; } \
static inline T pa_minnumf_##S(T a, T b) { if (a != a) return b; if (b != b) return a; return a <= b ? a : b; }
PA_FLOAT_HELPERS(float, f32)
PA_FLOAT_HELPERS(double, f64)
PA_FLOAT_HELPERS(_Float16, f16)
PA_FLOAT_HELPERS(long double, f80)

typedef struct { void **ptrs; int64_t n, cap; } pa_arena;
static void *pa_alloc(pa_arena *a, int64_t bytes) {
  void *p = calloc(bytes > 0 ? (size_t)bytes : 1, 1);
  if (!p) { pa_fail(-1); return p; }
#ifdef _OPENMP
#pragma omp critical(pa_arena)
#endif
  {
    if (a->n == a->cap) { a->cap = a->cap ? 2 * a->cap : 8; a->ptrs = (void **)realloc(a->ptrs, (size_t)a->cap * sizeof(void *)); }
    a->ptrs[a->n++] = p;
  }
  return p;
}
static void pa_free(pa_arena *a, void *p) {
#ifdef _OPENMP
#pragma omp critical(pa_arena)
#endif
  for (int64_t i = a->n - 1; i >= 0; --i) if (a->ptrs[i] == p) { free(p); a->ptrs[i] = NULL; break; }
}
static void pa_release(pa_arena *a) { for (int64_t i = 0; i < a->n; ++i) free(a->ptrs[i]); free(a->ptrs); }
"""

_FLOAT_MATH = {
    "sqrt": "sqrt{}({})",
    "rsqrt": "1 / sqrt{}({})",
    "cbrt": "cbrt{}({})",
    "exp": "exp{}({})",
    "exp2": "exp2{}({})",
    "expm1": "expm1{}({})",
    "log": "log{}({})",
    "log2": "log2{}({})",
    "log10": "log10{}({})",
    "log1p": "log1p{}({})",
    "sin": "sin{}({})",
    "cos": "cos{}({})",
    "tan": "tan{}({})",
    "asin": "asin{}({})",
    "acos": "acos{}({})",
    "atan": "atan{}({})",
    "sinh": "sinh{}({})",
    "cosh": "cosh{}({})",
    "tanh": "tanh{}({})",
    "asinh": "asinh{}({})",
    "acosh": "acosh{}({})",
    "atanh": "atanh{}({})",
    "absf": "fabs{}({})",
    "ceil": "ceil{}({})",
    "floor": "floor{}({})",
    "round": "round{}({})",
    "roundeven": "rint{}({})",
    "trunc": "trunc{}({})",
    "erf": "erf{}({})",
    "erfc": "erfc{}({})",
}
_FLOAT_MATH2 = {"powf": "pow", "atan2": "atan2", "copysign": "copysign", "remf": "fmod"}

_REDUCTION_OPS = {
    "addf": "addf", "mulf": "mulf", "maximumf": "maximumf", "minimumf": "minimumf",
    "maxnumf": "maxnumf", "minnumf": "minnumf", "addi": "addi", "muli": "muli",
    "andi": "andi", "ori": "ori", "xori": "xori", "maxs": "maxsi", "mins": "minsi",
    "maxu": "maxui", "minu": "minui",
}  # fmt: skip


# -- the emitter ----------------------------------------------------------------------------------------


@dataclass
class CMem:
    """A memref value in C: data pointer expression, size / layout symbol / physical stride
    expressions (ints where the type fixes them)."""

    type: MemRefType
    data: str
    sizes: list[Any]
    symbols: list[Any]
    pstrides: list[Any]


@dataclass
class Param:
    """One slot of an entry wrapper's ``void **args``: ``kind`` is ``data`` (a memref's
    buffer), ``int`` (an int64 memref number: ``what`` is ``size``/``symbol``/``pstride``
    and ``index`` its position), ``scalar`` (pointer to an argument value) or ``result``."""

    kind: str
    arg: int
    what: str = ""
    index: int = 0
    dtype: str = "int64"


@dataclass
class CProgram:
    """C source for a set of functions with one exported wrapper per entry.

    ``pa_entry_<name>(void **args)`` returns 0, or the 1-based index into ``locations``
    of the op that failed (division by zero, an out-of-bounds transfer...); -1 when memory
    ran out."""

    source: str
    entries: dict[str, list[Param]]
    locations: list[tuple[Location | None, str]]
    uses_openmp: bool


class _Emitter:
    """Emits the C functions of one program (functions are emitted once, callees first)."""

    def __init__(self, module: Operation, restrict: bool, openmp: bool, checks: bool) -> None:
        self.module = module
        self.restrict = restrict
        self.openmp = openmp
        self.checks = checks
        self.functions: dict[str, str] = {}
        self.order: list[str] = []
        self.locations: list[tuple[Location | None, str]] = []
        self.declared_reductions: dict[tuple[str, str], str] = {}
        self.reduction_decls: list[str] = []
        self.bitcasts: dict[tuple[str, str], str] = {}
        self.prototypes: dict[str, str] = {}
        self.used_openmp = False
        self.no_restrict: set[str] = set()
        self.floats = float_types(module)

    def error_code(self, op: Operation, message: str) -> int:
        self.locations.append((op.loc, message))
        return len(self.locations)

    def lookup(self, name: str, loc: Location | None) -> Operation:
        for op in self.module.walk():
            if op.name == "func.func" and function_name(op) == name:
                if not op.regions[0].blocks:
                    raise ExecutionError(
                        f"@{name} is an external declaration with no body to compile", loc
                    )
                return op
        raise ExecutionError(f"no function named @{name} in the module", loc)

    def function(self, func: Operation) -> str:
        """The C name of ``func``, emitting it (and its callees) on first use."""
        name = function_name(func)
        cname = "f_" + "".join(ch if ch.isalnum() else "_" for ch in name)
        if name not in self.functions:
            self.functions[name] = ""
            self.functions[name] = _FunctionEmitter(self, func, cname).emit()
            self.order.append(name)
        return cname

    def reduction(self, kind: str, t: Type, loc: Location | None) -> str:
        """An ``omp declare reduction`` identifier for ``kind`` over values of type ``t``."""
        info = element_info(t, loc)
        ctype = value_ctype(info)
        ident = f"pa_{kind}_{info.name if info.format is not None else ctype.replace(' ', '_')}"
        key = (kind, ident)
        if key not in self.declared_reductions:
            combine = binary_c(_REDUCTION_OPS[kind], "omp_out", "omp_in", info, 0)
            init = reduction_identity_c(kind, info)
            self.reduction_decls.append(
                f"#pragma omp declare reduction({ident} : {ctype} : omp_out = {combine}) initializer(omp_priv = {init})"
            )
            self.declared_reductions[key] = ident
        return self.declared_reductions[key]

    def bitcast(self, src: ElementInfo, dst: ElementInfo) -> str:
        key = (value_ctype(src), value_ctype(dst))
        if key not in self.bitcasts:
            name = f"pa_bitcast_{len(self.bitcasts)}"
            self.bitcasts[key] = name
        return self.bitcasts[key]

    def source(self, entries: dict[str, str]) -> str:
        parts = [PRELUDE]
        if "f80" in self.floats:
            parts.append("typedef char pa_f80_is_x87_extended[LDBL_MANT_DIG == 64 ? 1 : -1];\n")
        parts.extend(codec_c(info) for info in self.floats.values() if info.format is not None)
        for (src, dst), name in self.bitcasts.items():
            parts.append(
                f"static inline {dst} {name}({src} x) {{ {dst} r; memcpy(&r, &x, sizeof r); return r; }}\n"
            )
        parts.extend(d + "\n" for d in self.reduction_decls)
        parts.append("".join(p + ";\n" for p in self.prototypes.values()))
        for name in self.order:
            parts.append(self.functions[name])
        parts.extend(entries.values())
        return "\n".join(parts)


def float_types(module: Operation) -> dict[str, ElementInfo]:
    """The runnable float types of the values in ``module`` (memref elements included), by
    name; others are refused where a function that is compiled uses them."""
    found: dict[str, ElementInfo] = {}
    for op in module.walk():
        values = [*op.operands, *op.results]
        values += [a for region in op.regions for block in region.blocks for a in block.arguments]
        for v in values:
            t = v.type.element_type if isinstance(v.type, MemRefType) else v.type
            if isinstance(t, FloatType) and t.name not in found:
                try:
                    found[t.name] = element_info(t, op.loc)
                except ExecutionError:
                    continue
    return dict(sorted(found.items()))


def binary_c(name: str, a: str, b: str, info: ElementInfo, code: int) -> str:
    """C for ``arith.<name>`` on values ``a`` and ``b`` of one integer or float type."""
    if info.format is not None:  # computed in f32
        return enc_c(binary_c(name, dec_c(a, info), dec_c(b, info), F32, code), info)
    if info.kind == "float":
        if name in ("addf", "subf", "mulf", "divf"):
            op = {"addf": "+", "subf": "-", "mulf": "*", "divf": "/"}[name]
            return f"({a} {op} {b})"
        if name in ("maximumf", "minimumf", "maxnumf", "minnumf"):
            return f"pa_{name}_{float_suffix(info)}({a}, {b})"
        fn = _FLOAT_MATH2[name]
        return _float_call(fn, info, [a, b])
    s = lambda x: signed_c(x, info)  # noqa: E731
    u = lambda x: unsigned_c(x, info)  # noqa: E731
    canon = lambda x: canon_c(x, info)  # noqa: E731
    w = info.width
    wide = "uint32_t" if w <= 32 and info.kind != "index" else "uint64_t"  # no int promotion
    table = {
        "addi": lambda: canon(f"({wide}){a} + ({wide}){b}"),
        "subi": lambda: canon(f"({wide}){a} - ({wide}){b}"),
        "muli": lambda: canon(f"({wide}){a} * ({wide}){b}"),
        "andi": lambda: f"({value_ctype(info)})({a} & {b})",
        "ori": lambda: f"({value_ctype(info)})({a} | {b})",
        "xori": lambda: f"({value_ctype(info)})({a} ^ {b})",
        "divsi": lambda: canon(f"pa_divs({s(a)}, {s(b)}, {code})"),
        "divui": lambda: canon(f"pa_divu({u(a)}, {u(b)}, {code})"),
        "remsi": lambda: canon(f"pa_rems({s(a)}, {s(b)}, {code})"),
        "remui": lambda: canon(f"pa_remu({u(a)}, {u(b)}, {code})"),
        "ceildivsi": lambda: canon(f"pa_ceildivs({s(a)}, {s(b)}, {code})"),
        "ceildivui": lambda: canon(f"pa_ceildivu({u(a)}, {u(b)}, {code})"),
        "floordivsi": lambda: canon(f"pa_floordivs({s(a)}, {s(b)}, {code})"),
        "maxsi": lambda: f"({s(a)} >= {s(b)} ? {a} : {b})",
        "minsi": lambda: f"({s(a)} <= {s(b)} ? {a} : {b})",
        "maxui": lambda: f"({u(a)} >= {u(b)} ? {a} : {b})",
        "minui": lambda: f"({u(a)} <= {u(b)} ? {a} : {b})",
        "shli": lambda: f"({u(b)} < {w} ? {canon(f'(uint64_t){a} << {u(b)}')} : 0)",
        "shrsi": lambda: f"({u(b)} < {w} ? {canon(f'{s(a)} >> {u(b)}')} : 0)",
        "shrui": lambda: f"({u(b)} < {w} ? {canon(f'{u(a)} >> {u(b)}')} : 0)",
    }
    return table[name]()


def _float_call(fn: str, info: ElementInfo, args: Sequence[str]) -> str:
    """C calling the libm function ``fn`` in the precision of float type ``info`` (f32 for
    the types narrower than f32, whose result is then rounded)."""
    if info.format is not None:
        return enc_c(f"{fn}f({', '.join(dec_c(x, info) for x in args)})", info)
    if info.width == 16:
        inner = ", ".join(f"(float){x}" for x in args)
        return f"((_Float16){fn}f({inner}))"
    suffix = {32: "f", 64: "", 80: "l"}[info.width]
    return f"{fn}{suffix}({', '.join(args)})"


def reduction_identity_c(kind: str, info: ElementInfo) -> str:
    """C for the neutral element of an ``affine.parallel`` reduction."""
    if info.kind == "float":
        return float_literal(float_values(FLOAT_IDENTITIES[kind], info), info)
    value = integer_identity(kind, info.width)
    return canon_c(f"INT64_C({value})" if value != -(1 << 63) else "INT64_MIN", info)


def _is_nonneg(e: AffineExpr, nonneg: Sequence[bool], num_dims: int) -> bool:
    kind = e.kind
    if kind == "const":
        return e.value >= 0
    if kind == "dim":
        return nonneg[e.value]
    if kind == "symbol":
        return nonneg[num_dims + e.value]
    if kind == "mod":
        return e.rhs.kind == "const" and e.rhs.value > 0
    if kind in ("+", "*"):
        return _is_nonneg(e.lhs, nonneg, num_dims) and _is_nonneg(e.rhs, nonneg, num_dims)
    return e.rhs.kind == "const" and e.rhs.value > 0 and _is_nonneg(e.lhs, nonneg, num_dims)


def affine_c(
    e: AffineExpr, names: Sequence[str], nonneg: Sequence[bool], num_dims: int, code: int
) -> str:
    """C (int64) for ``e`` with MLIR's rounding; plain ``/`` and ``%`` where the dividend
    is provably non-negative and the divisor a positive constant."""
    kind = e.kind
    if kind == "const":
        return str(e.value) if e.value != -(1 << 63) else "INT64_MIN"
    if kind == "dim":
        return names[e.value]
    if kind == "symbol":
        return names[num_dims + e.value]
    a = affine_c(e.lhs, names, nonneg, num_dims, code)
    b = affine_c(e.rhs, names, nonneg, num_dims, code)
    if kind == "+":
        if e.rhs.kind == "const" and e.rhs.value < 0:
            return f"({a} - {-e.rhs.value})"
        return f"({a} + {b})"
    if kind == "*":
        return f"({a} * {b})"
    positive_constant = e.rhs.kind == "const" and e.rhs.value > 0
    if not e.rhs.kind == "const":
        b = f"pa_pos({b}, {code})"
    plain = positive_constant and _is_nonneg(e.lhs, nonneg, num_dims)
    if kind == "floordiv":
        return f"({a} / {b})" if plain else f"pa_floordiv({a}, {b})"
    if kind == "ceildiv":
        return f"(({a} + {e.rhs.value - 1}) / {b})" if plain else f"pa_ceildiv({a}, {b})"
    return f"({a} % {b})" if plain else f"pa_mod({a}, {b})"


CEmit = Callable[["_FunctionEmitter", Operation], None]
_C_OPS: OpTable[CEmit] = OpTable()
_c_op = _C_OPS.register


class _FunctionEmitter:
    """Emits one ``func.func`` as a static C function."""

    def __init__(self, program: _Emitter, func: Operation, cname: str) -> None:
        self.program = program
        self.func = func
        self.cname = cname
        self.names: dict[Value, str] = {}
        self.mems: dict[Value, CMem] = {}
        self.nonneg: set[Value] = set()
        self.lines: list[str] = []
        self.depth = 1
        self.counter = 0
        self.uses_arena = False
        self.parallel_depth = 0
        self.multi_block = len(func.regions[0].blocks) > 1
        self.hoisted: list[str] = []
        self.results: list[str] = []

    # -- output helpers

    def line(self, text: str) -> None:
        self.lines.append("  " * self.depth + text)

    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def info(self, value: Value, loc: Location | None = None) -> ElementInfo:
        return element_info(value.type, loc)

    def local(self, expr: str, ctype: str = "int64_t", prefix: str = "x") -> str:
        """A new variable initialised with ``expr`` (declared at the top of a function of
        several blocks, which jumps between them)."""
        name = self.fresh(prefix)
        if self.multi_block:
            self.hoisted.append(f"{ctype} {name};")
            self.line(f"{name} = {expr};")
        else:
            self.line(f"const {ctype} {name} = {expr};")
        return name

    def define(self, value: Value, expr: str, loc: Location | None = None) -> str:
        """Bind ``value`` to a new variable initialised with ``expr``."""
        name = self.local(expr, value_ctype(self.info(value, loc)), "v")
        self.names[value] = name
        return name

    def declare(self, value: Value, init: str | None = None, loc: Location | None = None) -> str:
        """A mutable variable for ``value`` (loop-carried values, results of regions)."""
        name = self.fresh()
        ctype = value_ctype(self.info(value, loc))
        if self.multi_block:
            self.hoisted.append(f"{ctype} {name};")
            if init is not None:
                self.line(f"{name} = {init};")
        else:
            self.line(f"{ctype} {name}" + (f" = {init};" if init is not None else ";"))
        self.names[value] = name
        return name

    def v(self, value: Value) -> str:
        return self.names[value]

    def mem(self, value: Value) -> CMem:
        return self.mems[value]

    # -- function

    def emit(self) -> str:
        func = self.func

        result_types = list(function_type_of(func).results)
        params = []
        entry = func.regions[0].blocks[0]
        restrict = (
            "restrict "
            if self.program.restrict and function_name(func) not in self.program.no_restrict
            else ""
        )
        for k, arg in enumerate(entry.arguments):
            t = arg.type
            if isinstance(t, MemRefType):
                info = element_info(t.element_type, func.loc)
                data = f"a{k}"
                params.append(f"{info.c} *{restrict}{data}")
                sizes: list[Any] = []
                for d, s in enumerate(t.shape):
                    if s == DYNAMIC:
                        params.append(f"int64_t a{k}_d{d}")
                        sizes.append(f"a{k}_d{d}")
                    else:
                        sizes.append(s)
                symbols: list[Any] = []
                for j in range(num_layout_symbols(t)):
                    params.append(f"int64_t a{k}_s{j}")
                    symbols.append(f"a{k}_s{j}")
                pstrides: list[Any] = []
                for j, p in enumerate(static_physical_strides(t)):
                    if p is None:
                        params.append(f"int64_t a{k}_p{j}")
                        pstrides.append(f"a{k}_p{j}")
                    else:
                        pstrides.append(p)
                self.mems[arg] = CMem(t, data, sizes, symbols, pstrides)
            else:
                info = element_info(t, func.loc)
                params.append(f"{value_ctype(info)} a{k}")
                self.names[arg] = f"a{k}"
        for k, t in enumerate(result_types):
            if isinstance(t, MemRefType):
                raise ExecutionError(
                    f"@{function_name(func)} returns a memref; the C backend only returns scalars",
                    func.loc,
                )
            params.append(f"{value_ctype(element_info(t, func.loc))} *r{k}")
            self.results.append(f"r{k}")
        self.body_region(func.regions[0])
        if self.multi_block:
            self.lines.append("pa_done:;")
            if self.uses_arena:
                self.line("pa_release(&arena);")
        self.program.prototypes[self.cname] = (
            f"static void {self.cname}({', '.join(params) or 'void'})"
        )
        prologue = ["  pa_arena arena = {0, 0, 0};"] if self.uses_arena else []
        prologue += ["  " + h for h in self.hoisted]
        return (
            "\n".join([self.program.prototypes[self.cname] + " {", *prologue, *self.lines, "}"])
            + "\n"
        )

    def body_region(self, region: Region) -> None:
        blocks = region.blocks
        if not self.multi_block:
            self.ops(blocks[0])
            return
        labels = {id(b): f"bb{i}" for i, b in enumerate(blocks)}
        for block in blocks[1:]:
            for a in block.arguments:
                self.declare(a)
        for block in blocks:
            self.lines.append(f"{labels[id(block)]}:;")
            self.ops(block, labels)

    def ops(self, block: Block, labels: dict[int, str] | None = None) -> None:
        for op in block.operations:
            if op.name in ("affine.yield", "scf.yield", "scf.condition"):
                continue
            if op.name == "func.return":
                for r, v in zip(self.results, op.operands):
                    self.line(f"*{r} = {self.v(v)};")
                if self.multi_block:
                    self.line("goto pa_done;")
                elif self.uses_arena:
                    self.line("pa_release(&arena);")
                continue
            if op.name in ("cf.br", "cf.cond_br"):
                self.branch(op, labels or {})
                continue
            emit = _C_OPS.get(op.name)
            if emit is None:
                raise ExecutionError(
                    f"the C backend cannot compile '{op.name}': it has no execution semantics here",
                    op.loc,
                )
            emit(self, op)

    def branch(self, op: Operation, labels: dict[int, str]) -> None:
        def jump(target: Block, args: Sequence[Value]) -> str:
            temps = []
            for a, v in zip(target.arguments, args):
                t = self.fresh("t")
                self.line(f"{value_ctype(self.info(a))} {t} = {self.v(v)};")
                temps.append((a, t))
            for a, t in temps:
                self.line(f"{self.v(a)} = {t};")
            return f"goto {labels[id(target)]};"

        if op.name == "cf.br":
            self.line("{")
            self.depth += 1
            self.line(jump(op.successors[0], op.operands))
            self.depth -= 1
            self.line("}")
            return
        self.line(f"if ({self.v(op.operands[0])}) {{")
        self.depth += 1
        self.line(jump(op.successors[0], segments(op, 1)))
        self.depth -= 1
        self.line("} else {")
        self.depth += 1
        self.line(jump(op.successors[1], segments(op, 2)))
        self.depth -= 1
        self.line("}")

    def block_body(self, block: Block, yield_to: Sequence[str] = ()) -> None:
        """Emit ``block``'s ops and assign its yielded values to ``yield_to``."""
        self.ops(block)
        terminator = block.operations[-1] if block.operations else None
        if yield_to and terminator is not None:
            self.assign(
                yield_to,
                [self.v(v) for v in terminator.operands],
                [self.info(v) for v in terminator.operands],
            )

    def assign(
        self, targets: Sequence[str], values: Sequence[str], infos: Sequence[ElementInfo]
    ) -> None:
        if len(targets) == 1:
            self.line(f"{targets[0]} = {values[0]};")
            return
        temps = []
        for value, info in zip(values, infos):
            t = self.fresh("t")
            self.line(f"const {value_ctype(info)} {t} = {value};")
            temps.append(t)
        for target, t in zip(targets, temps):
            self.line(f"{target} = {t};")

    # -- affine helpers

    def affine(self, e: AffineExpr, operands: Sequence[Value], num_dims: int, code: int) -> str:
        names = [self.v(v) for v in operands]
        flags = [v in self.nonneg for v in operands]
        return affine_c(e, names, flags, num_dims, code)

    def bound(self, m: AffineMap, operands: Sequence[Value], combine: str, op: Operation) -> str:
        code = self.program.error_code(op, "affine division by a non-positive symbol value")
        exprs = [self.affine(r, operands, m.num_dims, code) for r in m.results]
        result = exprs[0]
        for e in exprs[1:]:
            result = f"pa_{combine}({result}, {e})"
        return result

    def map_nonneg(self, m: AffineMap, operands: Sequence[Value], any_result: bool) -> bool:
        flags = [v in self.nonneg for v in operands]
        checks = [_is_nonneg(r, flags, m.num_dims) for r in m.results]
        return any(checks) if any_result else all(checks)

    def position(self, mem: CMem, indices: Sequence[str]) -> str:
        """C for the physical position of logical ``indices`` (assumed in bounds)."""
        om = offset_map(mem.type)
        values = offset_symbol_values(mem.type, mem.symbols, mem.pstrides)
        names = [f"({i})" for i in indices] + [str(v) for v in values]
        flags = [True] * len(indices) + [False] * len(values)
        return affine_c(om.results[0], names, flags, om.num_dims, 0)

    def sizes_c(self, mem: CMem) -> list[str]:
        return [str(s) for s in mem.sizes]

    def check_bounds(self, op: Operation, mem: CMem, indices: Sequence[str], what: str) -> None:
        if not self.program.checks or not indices:
            return
        code = self.program.error_code(op, f"out-of-bounds {what} of '{mem.type}'")
        conds = [f"({i}) < 0 || ({i}) >= {s}" for i, s in zip(indices, self.sizes_c(mem))]
        self.line(f"if ({' || '.join(conds)}) {{ pa_fail({code}); }}")


def _element(mem: CMem, loc: Location | None) -> ElementInfo:
    return element_info(mem.type.element_type, loc)


def _load(e: _FunctionEmitter, op: Operation, memref: Value, indices: list[str]) -> None:
    mem = e.mem(memref)
    info = _element(mem, op.loc)
    e.check_bounds(op, mem, indices, "load")
    access = f"{mem.data}[{e.position(mem, indices)}]"
    if info.width == 1 and info.kind == "int":
        access = f"(int8_t)-(int8_t){access}"
    e.define(op.results[0], access, op.loc)


def _store(
    e: _FunctionEmitter, op: Operation, value: Value, memref: Value, indices: list[str]
) -> None:
    mem = e.mem(memref)
    info = _element(mem, op.loc)
    e.check_bounds(op, mem, indices, "store")
    v = e.v(value)
    if info.width == 1 and info.kind == "int":
        v = f"(uint8_t)({v} & 1)"
    e.line(f"{mem.data}[{e.position(mem, indices)}] = {v};")


def _map_indices(
    e: _FunctionEmitter, op: Operation, m: AffineMap, operands: Sequence[Value]
) -> list[str]:
    code = e.program.error_code(op, "affine division by a non-positive symbol value")
    return [e.affine(r, operands, m.num_dims, code) for r in m.results]


@_c_op("affine.load")
def _c_affine_load(e: _FunctionEmitter, op: Operation) -> None:
    m = op.properties["map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    _load(e, op, op.operands[0], _map_indices(e, op, m, op.operands[1:]))


@_c_op("affine.store")
def _c_affine_store(e: _FunctionEmitter, op: Operation) -> None:
    m = op.properties["map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    _store(e, op, op.operands[0], op.operands[1], _map_indices(e, op, m, op.operands[2:]))


@_c_op("memref.load")
def _c_memref_load(e: _FunctionEmitter, op: Operation) -> None:
    _load(e, op, op.operands[0], [e.v(v) for v in op.operands[1:]])


@_c_op("memref.store")
def _c_memref_store(e: _FunctionEmitter, op: Operation) -> None:
    _store(e, op, op.operands[0], op.operands[1], [e.v(v) for v in op.operands[2:]])


@_c_op("memref.alloc", "memref.alloca")
def _c_alloc(e: _FunctionEmitter, op: Operation) -> None:
    t = op.results[0].type
    assert isinstance(t, MemRefType)
    info = element_info(t.element_type, op.loc)
    dynamic = iter(segments(op, 0))
    sizes: list[Any] = [e.v(next(dynamic)) if s == DYNAMIC else s for s in t.shape]
    symbols: list[Any] = [e.v(v) for v in segments(op, 1)]
    static = static_physical_strides(t)
    pstrides: list[Any]
    offset = ""  # of the data in the allocation, when not 0
    if t.has_identity_layout:
        pstrides = []
        running = "1"
        for k in range(len(sizes) - 1, -1, -1):
            pstrides.insert(0, static[k] if static[k] is not None else running)
            running = f"({running} * {sizes[k]})"
        total = running if sizes else "1"
    elif isinstance(t.layout, StridedLayout):
        pstrides = [1]
        layout = t.layout
        if DYNAMIC in layout.strides or layout.offset == DYNAMIC:
            raise ExecutionError(
                f"cannot allocate '{t}': its layout has '?' entries no operand gives", op.loc
            )
        if any(s < 0 for s in layout.strides) or layout.offset < 0:
            raise ExecutionError(
                f"the C backend cannot allocate '{t}' (negative offset or stride)", op.loc
            )
        extent = " + ".join(f"({s} - 1) * {st}" for s, st in zip(sizes, layout.strides)) or "0"
        nonempty = " && ".join(f"{s} > 0" for s in sizes) or "1"
        total = f"(({nonempty}) ? {layout.offset} + {extent} + 1 : 0)"
    elif any(isinstance(s, str) for s in sizes) or any(
        r.used_symbols() for r in t.layout_map().results
    ):
        pstrides, total, offset = _runtime_extents(e, op, t, sizes, symbols)
    else:
        extents = physical_extents(t, sizes, [0] * len(symbols))
        pstrides = list(static)
        total = str(extents[0] * pstrides[0] if extents else 1)
    e.uses_arena = True
    name = e.fresh("m")
    allocation = f"({info.c} *)pa_alloc(&arena, {total} * (int64_t)sizeof({info.c}))"
    if e.multi_block:
        e.hoisted.append(f"{info.c} *{name};")
        e.line(f"{name} = {allocation};")
    else:
        e.line(f"{info.c} *{name} = {allocation};")
    data = f"({name} + {offset})" if offset else name
    e.mems[op.results[0]] = CMem(t, data, sizes, symbols, pstrides)


def _runtime_extents(
    e: _FunctionEmitter, op: Operation, t: MemRefType, sizes: Sequence[Any], symbols: Sequence[Any]
) -> tuple[list[Any], str, str]:
    """Physical strides, element count and the offset of the data in the allocation, for a
    layout whose extents depend on run-time sizes or symbols: each result ranges over an
    interval found as :func:`affine.exec.memory.expr_range` finds it, and its extent covers
    it. A result that can be negative fails the run as in the interpreter; the data then
    starts past the negative positions, so that no access leaves the allocation."""
    m = t.layout_map()
    code = e.program.error_code(op, "affine division by a non-positive symbol value")
    highs = [f"({s} - 1)" for s in sizes]
    nonempty = e.local(" && ".join(f"{s} > 0" for s in sizes) or "1")
    extents, shifts = [], []
    for k, r in enumerate(m.results):
        lo, hi = _interval_c(e, r, highs, [str(v) for v in symbols], code)
        negative = e.program.error_code(
            op,
            f"layout map result #{k} of '{t}' takes negative values; positions in a buffer "
            "cannot be negative",
        )
        e.line(f"if ({nonempty} && {lo} < 0) {{ pa_fail({negative}); }}")
        shift = e.local(f"{nonempty} && {lo} < 0 ? -({lo}) : 0")
        extents.append(e.local(f"{nonempty} ? {hi} + {shift} + 1 : 0"))
        shifts.append(shift)
    static = static_physical_strides(t)
    pstrides: list[Any] = []
    stride: Any = 1
    for k in range(len(extents) - 1, -1, -1):
        stride = stride if static[k] is None else static[k]
        pstrides.insert(0, stride)
        stride = f"({stride} * {extents[k]})"
    offset = " + ".join(f"{x} * {p}" for x, p in zip(shifts, pstrides))
    return pstrides, str(stride), offset


def _interval_c(
    e: _FunctionEmitter, x: AffineExpr, highs: Sequence[str], symbols: Sequence[str], code: int
) -> tuple[str, str]:
    """C variables holding the least and greatest value of ``x`` when dim ``k`` ranges over
    ``[0, highs[k]]``: exact for sums of independent terms, wider otherwise."""
    kind = x.kind
    if kind == "const":
        return str(x.value), str(x.value)
    if kind == "dim":
        return "0", highs[x.value]
    if kind == "symbol":
        return symbols[x.value], symbols[x.value]
    lo1, hi1 = _interval_c(e, x.lhs, highs, symbols, code)
    lo2, hi2 = _interval_c(e, x.rhs, highs, symbols, code)
    if kind == "+":
        return e.local(f"{lo1} + {lo2}"), e.local(f"{hi1} + {hi2}")
    if kind == "*":
        products = [f"{a} * {b}" for a in (lo1, hi1) for b in (lo2, hi2)]
        least = (
            f"pa_min(pa_min({products[0]}, {products[1]}), pa_min({products[2]}, {products[3]}))"
        )
        most = f"pa_max(pa_max({products[0]}, {products[1]}), pa_max({products[2]}, {products[3]}))"
        return e.local(least), e.local(most)
    divisor = e.local(f"pa_pos({lo2}, {code})")  # a constant or symbolic: one value
    if kind == "mod":
        return "0", e.local(f"{divisor} - 1")
    helper = "pa_floordiv" if kind == "floordiv" else "pa_ceildiv"
    return e.local(f"{helper}({lo1}, {divisor})"), e.local(f"{helper}({hi1}, {divisor})")


@_c_op("memref.dealloc")
def _c_dealloc(e: _FunctionEmitter, op: Operation) -> None:
    mem = e.mem(op.operands[0])
    e.line(f"pa_free(&arena, {mem.data});")


@_c_op("affine.prefetch")
def _c_prefetch(e: _FunctionEmitter, op: Operation) -> None:
    return


@_c_op("memref.dim")
def _c_dim(e: _FunctionEmitter, op: Operation) -> None:
    mem = e.mem(op.operands[0])
    sizes = e.sizes_c(mem)
    index_op = op.operands[1].owner_op
    attr = (
        index_op.properties.get("value")
        if index_op is not None and index_op.name == "arith.constant"
        else None
    )
    if isinstance(attr, IntegerAttr) and 0 <= attr.value < len(sizes):
        e.define(op.results[0], sizes[attr.value])
    else:
        e.define(
            op.results[0],
            f"((const int64_t[]){{{', '.join(sizes) or '0'}}})[{e.v(op.operands[1])}]",
        )
    e.nonneg.add(op.results[0])


@_c_op("memref.cast")
def _c_cast(e: _FunctionEmitter, op: Operation) -> None:
    mem = e.mem(op.operands[0])
    target = op.results[0].type
    if not isinstance(target, MemRefType):
        raise ExecutionError("'memref.cast' to an unranked memref cannot be compiled", op.loc)
    try:
        offset, symbols, pstrides = cast_layout_values(mem.type, target, mem.symbols, mem.pstrides)
    except ExecutionError as err:
        raise ExecutionError(err.message, op.loc) from None
    data = mem.data if offset == 0 else f"({mem.data} + {offset})"
    static = static_physical_strides(target)
    pstrides = (
        tuple(s if s is not None else p for s, p in zip(static, pstrides))
        if target.has_identity_layout
        else pstrides
    )
    e.mems[op.results[0]] = CMem(target, data, list(mem.sizes), list(symbols), list(pstrides))


def _c_add(a: Any, b: Any) -> Any:
    """``a + b`` for ints (folded) or C expressions."""
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    if a == 0:
        return b
    if b == 0:
        return a
    return f"({a} + {b})"


def _c_mul(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    if a == 0 or b == 0:
        return 0
    if a == 1:
        return b
    if b == 1:
        return a
    return f"({a} * {b})"


def _c_view(
    e: _FunctionEmitter,
    op: Operation,
    data: str,
    offset: Any,
    strides: Sequence[Any],
    sizes: Sequence[Any],
) -> None:
    """Bind the result of a view op to ``data`` seen at ``offset + sum(i_k * strides[k])``."""
    target = op.results[0].type
    if not isinstance(target, MemRefType):
        raise ExecutionError(f"'{op.name}' to '{target}' cannot be compiled", op.loc)
    try:
        start, symbols, pstrides = strided_view_values(target, offset, strides, op.name)
    except ExecutionError as err:
        raise ExecutionError(err.message, op.loc) from None
    view = data if start == 0 else f"({data} + {start})"
    if target.has_identity_layout:
        pstrides = tuple(
            s if s is not None else p for s, p in zip(static_physical_strides(target), pstrides)
        )
    e.mems[op.results[0]] = CMem(target, view, list(sizes), list(symbols), list(pstrides))


def _c_view_operands(e: _FunctionEmitter, op: Operation) -> tuple[list[Any], list[Any], list[Any]]:
    lists = view_operands(op)
    return tuple([v if isinstance(v, int) else e.v(v) for v in values] for values in lists)  # type: ignore[return-value]  # a tuple of three lists, built by a generator mypy types as tuple[list, ...]


@_c_op("memref.subview")
def _c_subview(e: _FunctionEmitter, op: Operation) -> None:
    mem = e.mem(op.operands[0])
    offsets, sizes, steps = _c_view_operands(e, op)
    if len(op.results[0].type.shape) != len(mem.type.shape):  # type: ignore[attr-defined]  # memref.subview's verifier checked memref types
        raise ExecutionError("rank-reducing 'memref.subview' cannot be compiled", op.loc)
    form = bound_strided_form(mem.type, mem.symbols, mem.pstrides)
    if form is None:
        raise ExecutionError(
            f"'memref.subview' of '{mem.type}' cannot be compiled (only strided sources)", op.loc
        )
    base, strides = form
    offset = base
    for o, st in zip(offsets, strides):
        offset = _c_add(offset, _c_mul(o, st))
    _c_view(e, op, mem.data, offset, [_c_mul(st, step) for st, step in zip(strides, steps)], sizes)


@_c_op("memref.reinterpret_cast")
def _c_reinterpret_cast(e: _FunctionEmitter, op: Operation) -> None:
    (offset,), sizes, strides = _c_view_operands(e, op)
    _c_view(e, op, e.mem(op.operands[0]).data, offset, strides, sizes)


def _linear_c(indices: Sequence[str], sizes: Sequence[str]) -> str:
    expr = "0"
    for i, s in zip(indices, sizes):
        expr = f"({expr} * {s} + {i})"
    return expr


def _delinearize(e: _FunctionEmitter, linear: str, mem: CMem) -> list[str]:
    names = []
    rest = linear
    sizes = e.sizes_c(mem)
    for k in range(len(sizes) - 1, -1, -1):
        if k == 0:
            names.insert(0, rest)
            break
        names.insert(0, f"({rest} % {sizes[k]})")
        rest = f"({rest} / {sizes[k]})"
    return names


def _numel(e: _FunctionEmitter, mem: CMem) -> str:
    sizes = e.sizes_c(mem)
    return " * ".join(sizes) if sizes else "1"


def _transfer(
    e: _FunctionEmitter,
    op: Operation,
    src: CMem,
    src_idx: Sequence[str],
    dst: CMem,
    dst_idx: Sequence[str],
    tag: CMem | None,
    tag_idx: Sequence[str],
    count: str | None,
    stride: str | None,
    per: str | None,
) -> None:
    """A DMA (``count`` elements from the start indices) or a whole-memref copy (``count``
    None), in logical row-major order, with the checks the interpreter makes."""

    info = _element(src, op.loc)
    code = e.program.error_code(
        op, "out-of-bounds transfer (or a negative element count or stride)"
    )
    e.line("{")
    e.depth += 1
    n = e.fresh("n")
    s0, d0 = e.fresh("s"), e.fresh("d")
    conds = []
    if count is None:
        e.line(f"const int64_t {n} = {_numel(e, src)};")
        e.line(f"const int64_t {s0} = 0, {d0} = 0;")
        conds.extend(f"{a} != {b}" for a, b in zip(e.sizes_c(src), e.sizes_c(dst)))
    else:
        e.line(f"const int64_t {n} = {count};")
        for idx, mem in ((src_idx, src), (dst_idx, dst)) + (
            ((tag_idx, tag),) if tag is not None else ()
        ):
            conds.extend(f"({i}) < 0 || ({i}) >= {s}" for i, s in zip(idx, e.sizes_c(mem)))
        e.line(f"const int64_t {s0} = {_linear_c(src_idx, e.sizes_c(src))};")
        e.line(f"const int64_t {d0} = {_linear_c(dst_idx, e.sizes_c(dst))};")
        conds.append(f"{n} < 0")
    strided_src = strided_side_is_source(src.type, dst.type)
    blocked = None
    if stride is not None and per is not None:
        conds.append(f"{per} <= 0 || {stride} < {per}")
        blocked = f"(({n} - 1) / {per} * {stride} + ({n} - 1) % {per})"
    last_src = f"{s0} + {blocked if blocked and strided_src else f'{n} - 1'}"
    last_dst = f"{d0} + {blocked if blocked and not strided_src else f'{n} - 1'}"
    conds.append(f"{n} > 0 && ({last_src} >= {_numel(e, src)} || {last_dst} >= {_numel(e, dst)})")
    e.line(f"if ({' || '.join(f'({c})' for c in conds)}) {{")
    e.line(f"  pa_fail({code});")
    e.line("} else {")
    e.depth += 1
    contiguous = is_contiguous_row_major(src.type) and is_contiguous_row_major(dst.type)
    if contiguous and blocked is None:
        e.line(f"memmove({dst.data} + {d0}, {src.data} + {s0}, (size_t){n} * sizeof({info.c}));")
    else:
        k = e.fresh("k")
        e.line(f"for (int64_t {k} = 0; {k} < {n}; ++{k}) {{")
        e.depth += 1
        moved = f"({k} / {per} * {stride} + {k} % {per})" if blocked else k
        sl, dl = e.fresh("sl"), e.fresh("dl")
        e.line(f"const int64_t {sl} = {s0} + {moved if strided_src else k};")
        e.line(f"const int64_t {dl} = {d0} + {k if strided_src else moved};")
        src_pos = e.position(src, _delinearize(e, sl, src))
        dst_pos = e.position(dst, _delinearize(e, dl, dst))
        e.line(f"{dst.data}[{dst_pos}] = {src.data}[{src_pos}];")
        e.depth -= 1
        e.line("}")
    e.depth -= 1
    e.line("}")
    e.depth -= 1
    e.line("}")


@_c_op("affine.dma_start")
def _c_affine_dma(e: _FunctionEmitter, op: Operation) -> None:
    d = DmaStartOp(op)
    _transfer(
        e,
        op,
        e.mem(d.src),
        _map_indices(e, op, d.src_map, d.src_indices),
        e.mem(d.dst),
        _map_indices(e, op, d.dst_map, d.dst_indices),
        e.mem(d.tag),
        _map_indices(e, op, d.tag_map, d.tag_indices),
        e.v(d.num_elements),
        e.v(d.stride) if d.stride is not None else None,
        e.v(d.elements_per_stride) if d.elements_per_stride is not None else None,
    )


@_c_op("memref.dma_start")
def _c_memref_dma(e: _FunctionEmitter, op: Operation) -> None:
    d = MemRefDmaStart(op)
    _transfer(
        e,
        op,
        e.mem(d.src),
        [e.v(v) for v in d.src_indices],
        e.mem(d.dst),
        [e.v(v) for v in d.dst_indices],
        e.mem(d.tag),
        [e.v(v) for v in d.tag_indices],
        e.v(d.num_elements),
        e.v(d.stride) if d.stride is not None else None,
        e.v(d.elements_per_stride) if d.elements_per_stride is not None else None,
    )


def _dma_wait(e: _FunctionEmitter, op: Operation, indices: list[str]) -> None:
    tag = e.mem(op.operands[0])
    conds = [f"({i}) < 0 || ({i}) >= {s}" for i, s in zip(indices, e.sizes_c(tag))]
    if conds:
        code = e.program.error_code(op, f"out-of-bounds tag index for '{tag.type}'")
        e.line(f"if ({' || '.join(conds)}) {{ pa_fail({code}); }}")


@_c_op("affine.dma_wait")
def _c_affine_dma_wait(e: _FunctionEmitter, op: Operation) -> None:
    m = op.attributes["tag_map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    _dma_wait(e, op, _map_indices(e, op, m, op.operands[1:-1]))


@_c_op("memref.dma_wait")
def _c_memref_dma_wait(e: _FunctionEmitter, op: Operation) -> None:
    _dma_wait(e, op, [e.v(v) for v in op.operands[1:-1]])


@_c_op("memref.copy")
def _c_copy(e: _FunctionEmitter, op: Operation) -> None:
    _transfer(
        e, op, e.mem(op.operands[0]), [], e.mem(op.operands[1]), [], None, [], None, None, None
    )


# -- control flow ---------------------------------------------------------------------------------------


@_c_op("affine.apply", "affine.min", "affine.max")
def _c_apply(e: _FunctionEmitter, op: Operation) -> None:
    m = op.properties["map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    combine = "min" if op.name == "affine.min" else "max"
    e.define(op.results[0], e.bound(m, op.operands, combine, op))
    if e.map_nonneg(m, op.operands, op.name == "affine.max"):
        e.nonneg.add(op.results[0])


def _loop(
    e: _FunctionEmitter,
    op: Operation,
    iv: Value,
    lower: str,
    upper: str,
    step: str,
    nonneg: bool,
    body: Block,
    inits: Sequence[Value],
    iv_info: ElementInfo | None = None,
) -> None:
    carried = [e.declare(a, e.v(init), op.loc) for a, init in zip(body.arguments[1:], inits)]
    lb, ub = e.fresh("lb"), e.fresh("ub")
    e.line(f"const int64_t {lb} = {lower}, {ub} = {upper};")
    counter = e.fresh("i")
    e.line(f"for (int64_t {counter} = {lb}; {counter} < {ub}; {counter} += {step}) {{")
    e.depth += 1
    if iv_info is None or iv_info.kind == "index":
        e.names[iv] = counter
    else:
        name = e.fresh("iv")
        e.line(f"const {value_ctype(iv_info)} {name} = ({value_ctype(iv_info)}){counter};")
        e.names[iv] = name
    if nonneg:
        e.nonneg.add(iv)
    e.block_body(body, carried)
    e.depth -= 1
    e.line("}")
    for r, name in zip(op.results, carried):
        e.names[r] = name


@_c_op("affine.for")
def _c_affine_for(e: _FunctionEmitter, op: Operation) -> None:
    f = ForOp(op)
    lower = e.bound(f.lower_bound_map, f.lower_bound_operands, "max", op)
    upper = e.bound(f.upper_bound_map, f.upper_bound_operands, "min", op)
    nonneg = e.map_nonneg(f.lower_bound_map, f.lower_bound_operands, True)
    _loop(e, op, f.induction_var, lower, upper, str(f.step), nonneg, f.body, f.inits)


def _set_c(e: _FunctionEmitter, s: IntegerSet, operands: Sequence[Value], op: Operation) -> str:
    code = e.program.error_code(op, "affine division by a non-positive symbol value")
    parts = [
        f"{e.affine(c, operands, s.num_dims, code)} {'==' if eq else '>='} 0"
        for c, eq in zip(s.constraints, s.eq_flags)
    ]
    return " && ".join(parts) or "1"


def _conditional(
    e: _FunctionEmitter, op: Operation, cond: str, then_block: Block, else_block: Block | None
) -> None:
    results = [e.declare(r, None, op.loc) for r in op.results]
    e.line(f"if ({cond}) {{")
    e.depth += 1
    e.block_body(then_block, results)
    e.depth -= 1
    if else_block is not None:
        e.line("} else {")
        e.depth += 1
        e.block_body(else_block, results)
        e.depth -= 1
    e.line("}")


@_c_op("affine.if")
def _c_affine_if(e: _FunctionEmitter, op: Operation) -> None:
    view = IfOp(op)
    _conditional(
        e, op, _set_c(e, view.condition, op.operands, op), view.then_block, view.else_block
    )


@_c_op("affine.parallel")
def _c_affine_parallel(e: _FunctionEmitter, op: Operation) -> None:
    par = ParallelOp(op)
    lm, um = par.lower_bounds_map, par.upper_bounds_map
    bounds = []
    lstart = ustart = 0
    for lsize, usize, step in zip(par.lower_bounds_groups, par.upper_bounds_groups, par.steps):
        lsub = AffineMap.get(lm.num_dims, lm.num_symbols, lm.results[lstart : lstart + lsize])
        usub = AffineMap.get(um.num_dims, um.num_symbols, um.results[ustart : ustart + usize])
        lo, hi = e.fresh("lb"), e.fresh("ub")
        e.line(f"const int64_t {lo} = {e.bound(lsub, par.lower_bounds_operands, 'max', op)};")
        e.line(f"const int64_t {hi} = {e.bound(usub, par.upper_bounds_operands, 'min', op)};")
        bounds.append((lo, hi, step, e.map_nonneg(lsub, par.lower_bounds_operands, True)))
        lstart += lsize
        ustart += usize
    kinds = par.reductions
    if "assign" in kinds:
        raise ExecutionError(
            "'affine.parallel' reduction \"assign\" has no neutral element and cannot be compiled",
            op.loc,
        )
    accs = [
        e.declare(r, reduction_identity_c(k, e.info(r, op.loc)), op.loc)
        for k, r in zip(kinds, op.results)
    ]
    use_omp = e.program.openmp and e.parallel_depth == 0 and not e.multi_block and bounds
    if use_omp:
        clauses = []
        for k, r, acc in zip(kinds, op.results, accs):
            clauses.append(f"reduction({e.program.reduction(k, r.type, op.loc)}:{acc})")
        e.lines.append(f"#pragma omp parallel for schedule(static) {' '.join(clauses)}".rstrip())
        e.program.used_openmp = True
    for iv, (lo, hi, step, nonneg) in zip(par.induction_vars, bounds):
        name = e.fresh("i")
        e.line(f"for (int64_t {name} = {lo}; {name} < {hi}; {name} += {step}) {{")
        e.depth += 1
        e.names[iv] = name
        if nonneg:
            e.nonneg.add(iv)
    e.parallel_depth += 1
    e.ops(par.body)
    e.parallel_depth -= 1
    terminator = par.body.operations[-1]
    for k, r, acc, v in zip(kinds, op.results, accs, terminator.operands):
        info = e.info(r, op.loc)
        e.line(f"{acc} = {binary_c(_REDUCTION_OPS[k], acc, e.v(v), info, 0)};")
    for _ in bounds:
        e.depth -= 1
        e.line("}")


@_c_op("scf.for")
def _c_scf_for(e: _FunctionEmitter, op: Operation) -> None:
    lb, ub, step = op.operands[:3]
    info = e.info(lb, op.loc)
    code = e.program.error_code(op, "loop step is not positive")
    unsigned = "unsignedCmp" in op.attributes or "unsignedCmp" in op.properties
    view = unsigned_c if unsigned else signed_c
    step_name = e.fresh("st")
    e.line(f"const int64_t {step_name} = {view(e.v(step), info)};")
    e.line(f"if ({step_name} <= 0) pa_fail({code});")
    nonneg = lb in e.nonneg or unsigned
    body = op.regions[0].blocks[0]
    iv_info = None if isinstance(lb.type, IndexType) else info
    _loop(
        e,
        op,
        body.arguments[0],
        view(e.v(lb), info),
        f"({step_name} <= 0 ? {view(e.v(lb), info)} : {view(e.v(ub), info)})",
        step_name,
        nonneg,
        body,
        op.operands[3:],
        iv_info,
    )


@_c_op("scf.if")
def _c_scf_if(e: _FunctionEmitter, op: Operation) -> None:
    else_block = op.regions[1].blocks[0] if op.regions[1].blocks else None
    _conditional(e, op, e.v(op.operands[0]), op.regions[0].blocks[0], else_block)


@_c_op("scf.while")
def _c_scf_while(e: _FunctionEmitter, op: Operation) -> None:
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    carried = [e.declare(a, e.v(v), op.loc) for a, v in zip(before.arguments, op.operands)]
    results = [e.declare(r, None, op.loc) for r in op.results]
    e.line("for (;;) {")
    e.depth += 1
    e.ops(before)
    condition = before.operations[-1]
    values = condition.operands[1:]
    e.line(f"if (!{e.v(condition.operands[0])}) {{")
    e.depth += 1
    if results:
        e.assign(results, [e.v(v) for v in values], [e.info(v) for v in values])
    e.line("break;")
    e.depth -= 1
    e.line("}")
    for a, v in zip(after.arguments, values):
        e.define(a, e.v(v), op.loc)
    e.block_body(after, carried)
    e.depth -= 1
    e.line("}")


@_c_op("func.call")
def _c_call(e: _FunctionEmitter, op: Operation) -> None:
    callee = op.properties["callee"]
    assert isinstance(callee, SymbolRefAttr)
    target = e.program.lookup(callee.leaf, op.loc)
    cname = e.program.function(target)
    args = []
    for v in op.operands:
        if isinstance(v.type, MemRefType):
            mem = e.mem(v)
            args.append(mem.data)
            args.extend(str(s) for s, d in zip(mem.sizes, mem.type.shape) if d == DYNAMIC)
            args.extend(str(v) for v in offset_symbol_values(mem.type, mem.symbols, mem.pstrides))
        else:
            args.append(e.v(v))
    results = [e.declare(r, None, op.loc) for r in op.results]
    args.extend(f"&{r}" for r in results)
    e.line(f"{cname}({', '.join(args)});")


# -- arith and math -----------------------------------------------------------------------------------------


@_c_op("arith.constant")
def _c_constant(e: _FunctionEmitter, op: Operation) -> None:
    attr = op.properties["value"]
    if isinstance(attr, DenseElementsAttr):
        raise ExecutionError(
            "vector and tensor constants cannot be compiled (only scalars)", op.loc
        )
    info = e.info(op.results[0], op.loc)
    if isinstance(attr, FloatAttr):
        e.define(op.results[0], float_literal(float_attr_value(attr, info), info))
        return
    assert isinstance(attr, IntegerAttr)

    value = IntOps(info).canon(attr.value) if info.kind != "index" else attr.value
    e.define(op.results[0], int_literal(value, info))
    if value >= 0:
        e.nonneg.add(op.results[0])


@_c_op(
    *(f"arith.{n}" for n in INT_BINARY_OPS + FLOAT_BINARY_OPS),
    "math.powf",
    "math.atan2",
    "math.copysign",
)
def _c_binary(e: _FunctionEmitter, op: Operation) -> None:
    info = e.info(op.operands[0], op.loc)
    name = op.name.split(".", 1)[1]
    code = (
        e.program.error_code(op, f"'{op.name}': division by zero")
        if "div" in name or "rem" in name
        else 0
    )
    e.define(op.results[0], binary_c(name, e.v(op.operands[0]), e.v(op.operands[1]), info, code))


@_c_op("arith.negf", *(f"math.{n}" for n in _FLOAT_MATH))
def _c_float_unary(e: _FunctionEmitter, op: Operation) -> None:
    info = e.info(op.operands[0], op.loc)
    x = e.v(op.operands[0])
    if op.name == "arith.negf":
        e.define(op.results[0], enc_c(f"(-{dec_c(x, info)})", info))
        return
    template = _FLOAT_MATH[op.name[5:]]
    if info.format is not None:
        e.define(op.results[0], enc_c(f"({template.format('f', dec_c(x, info))})", info))
    elif info.width == 16:
        e.define(op.results[0], f"((_Float16)({template.format('f', f'(float){x}')}))")
    else:
        suffix = {32: "f", 64: "", 80: "l"}[info.width]
        e.define(op.results[0], f"({template.format(suffix, x)})")


@_c_op("math.fma")
def _c_fma(e: _FunctionEmitter, op: Operation) -> None:
    info = e.info(op.operands[0], op.loc)
    args = [e.v(v) for v in op.operands]
    if info.name == "f16":  # in double, then rounded to half, as LLVM does on x86
        e.define(op.results[0], f"((_Float16)fma({', '.join(f'(double){x}' for x in args)}))")
        return
    e.define(op.results[0], _float_call("fma", info, args))


@_c_op("math.isnan", "math.isinf", "math.isfinite", "math.isnormal")
def _c_float_class(e: _FunctionEmitter, op: Operation) -> None:
    info = e.info(op.operands[0], op.loc)
    x = e.v(op.operands[0])
    value = x if info.name == "f80" else f"(double){dec_c(x, info)}"
    test = op.name[5:]
    if test == "isnormal":  # against the type's own smallest normal
        cond = f"isfinite({value}) && fabs{'l' if info.name == 'f80' else ''}({value}) >= {_smallest_normal(info)}"
    else:
        cond = f"{test}({value}) != 0"
    e.define(op.results[0], f"(int8_t)-({cond})")


def _smallest_normal(info: ElementInfo) -> str:
    """C literal of the smallest positive normal value of a float type."""
    fmt = info.format
    if fmt is not None:
        return f"0x1p{1 - fmt.bias - (fmt.special == 'e8m0')}"
    return {16: "0x1p-14", 32: "0x1p-126", 64: "0x1p-1022", 80: "0x1p-16382L"}[info.width]


@_c_op("math.absi", "math.ctlz", "math.cttz", "math.ctpop")
def _c_int_unary(e: _FunctionEmitter, op: Operation) -> None:
    info = e.info(op.operands[0], op.loc)
    x = e.v(op.operands[0])
    w = info.width
    exprs = {
        "absi": f"({signed_c(x, info)} < 0 ? 0 - (uint64_t){signed_c(x, info)} : (uint64_t){signed_c(x, info)})",
        "ctlz": f"pa_clz({unsigned_c(x, info)}, {w})",
        "cttz": f"pa_ctz({unsigned_c(x, info)}, {w})",
        "ctpop": f"__builtin_popcountll({unsigned_c(x, info)})",
    }
    e.define(op.results[0], canon_c(exprs[op.name[5:]], info))


@_c_op("math.ipowi")
def _c_ipowi(e: _FunctionEmitter, op: Operation) -> None:
    info = e.info(op.operands[0], op.loc)
    code = e.program.error_code(op, "'math.ipowi': zero to a negative power")
    a, b = (e.v(v) for v in op.operands)
    e.define(
        op.results[0], canon_c(f"pa_ipow({signed_c(a, info)}, {signed_c(b, info)}, {code})", info)
    )


@_c_op("math.fpowi")
def _c_fpowi(e: _FunctionEmitter, op: Operation) -> None:
    info = e.info(op.operands[0], op.loc)
    exp_info = e.info(op.operands[1], op.loc)
    a, b = (e.v(v) for v in op.operands)
    if info.format is not None:
        power = f"powf({dec_c(a, info)}, (float){signed_c(b, exp_info)})"
        e.define(op.results[0], enc_c(power, info))
        return
    e.define(op.results[0], _float_call("pow", info, [a, f"({info.c}){signed_c(b, exp_info)}"]))


_CMPF_C = {
    "false": "0", "oeq": "{a} == {b}", "ogt": "{a} > {b}", "oge": "{a} >= {b}", "olt": "{a} < {b}",
    "ole": "{a} <= {b}", "one": "{a} < {b} || {a} > {b}", "ord": "{a} == {a} && {b} == {b}",
    "ueq": "!({a} < {b} || {a} > {b})", "ugt": "!({a} <= {b})", "uge": "!({a} < {b})",
    "ult": "!({a} >= {b})", "ule": "!({a} > {b})", "une": "{a} != {b}",
    "uno": "{a} != {a} || {b} != {b}", "true": "1",
}  # fmt: skip


@_c_op("arith.cmpf")
def _c_cmpf(e: _FunctionEmitter, op: Operation) -> None:
    pred = CMPF_PREDICATES[op.properties["predicate"].value]  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    info = e.info(op.operands[0], op.loc)
    a, b = (dec_c(e.v(v), info) for v in op.operands)
    e.define(op.results[0], f"(int8_t)-({_CMPF_C[pred].format(a=a, b=b)})")


@_c_op("arith.cmpi")
def _c_cmpi(e: _FunctionEmitter, op: Operation) -> None:
    pred = CMPI_PREDICATES[op.properties["predicate"].value]  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    info = e.info(op.operands[0], op.loc)
    a, b = (e.v(v) for v in op.operands)
    ops = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
    if pred in ("eq", "ne"):
        cond = f"{a} {ops[pred]} {b}"
    else:
        view = signed_c if pred[0] == "s" else unsigned_c
        cond = f"{view(a, info)} {ops[pred[1:]]} {view(b, info)}"
    e.define(op.results[0], f"(int8_t)-({cond})")


@_c_op("arith.select")
def _c_select(e: _FunctionEmitter, op: Operation) -> None:
    c, a, b = (e.v(v) for v in op.operands)
    e.define(op.results[0], f"({c} ? {a} : {b})")


@_c_op(*(f"arith.{n}" for n in ARITH_CASTS))
def _c_cast_scalar(e: _FunctionEmitter, op: Operation) -> None:
    name = op.name[6:]
    src = e.info(op.operands[0], op.loc)
    dst = e.info(op.results[0], op.loc)
    x = e.v(op.operands[0])
    if name == "bitcast":
        if src.width == 1 or src.width != dst.width or "index" in (src.kind, dst.kind):
            raise ExecutionError(
                f"'arith.bitcast' from '{op.operands[0].type}' to '{op.results[0].type}' cannot be compiled",
                op.loc,
            )
        e.define(op.results[0], _from_bits(e, _bits(e, x, src), dst))
        return
    if dst.kind == "float":
        if src.kind == "float":
            value = dec_c(x, src)
        else:
            value = (unsigned_c if name == "uitofp" else signed_c)(x, src)
        if dst.format is not None:  # through f32, as LLVM converts to bf16
            e.define(op.results[0], enc_c(f"(float){value}", dst))
        else:
            e.define(op.results[0], f"({dst.c}){value}")
        return
    if src.kind == "float":
        helper = "pa_fpto" + ("si" if name == "fptosi" else "ui")
        if src.name == "f80":
            e.define(op.results[0], canon_c(f"{helper}l({x}, {dst.width})", dst))
        else:
            e.define(op.results[0], canon_c(f"{helper}((double){dec_c(x, src)}, {dst.width})", dst))
        return
    view = unsigned_c if name in ("extui", "index_castui") else signed_c
    e.define(op.results[0], canon_c(view(x, src), dst))


def _bits(e: _FunctionEmitter, x: str, info: ElementInfo) -> str:
    """C for the encoding of value ``x`` (what ``arith.bitcast`` sees) as a uint64_t."""
    if info.kind != "float":
        return unsigned_c(x, info)
    if info.format is not None:
        return f"((uint64_t){x} >> {info.format.shift})"
    word = ElementInfo("uint", info.width, f"uint{info.width}", f"uint{info.width}_t")
    return f"(uint64_t){e.program.bitcast(info, word)}({x})"


def _from_bits(e: _FunctionEmitter, bits: str, info: ElementInfo) -> str:
    """C for the value of type ``info`` whose encoding is the uint64_t ``bits``."""
    if info.kind != "float":
        return canon_c(bits, info)
    if info.format is not None:
        mask = (1 << info.width) - 1
        return f"({info.c})(({bits} & {mask:#x}u) << {info.format.shift})"
    word = ElementInfo("uint", info.width, f"uint{info.width}", f"uint{info.width}_t")
    return f"{e.program.bitcast(word, info)}((uint{info.width}_t){bits})"


# -- programs, compilation, loading ------------------------------------------------------------------------


def _entry_wrapper(func: Operation, cname: str) -> tuple[str, list[Param]]:
    """``int pa_entry_<name>(void **args)`` unpacking each argument slot."""

    name = function_name(func)
    params: list[Param] = []
    call_args = []
    for k, arg in enumerate(func.regions[0].blocks[0].arguments):
        t = arg.type
        if isinstance(t, MemRefType):
            info = element_info(t.element_type)
            params.append(Param("data", k))
            call_args.append(f"({info.c} *)args[{len(params) - 1}]")
            for d, s in enumerate(t.shape):
                if s == DYNAMIC:
                    params.append(Param("int", k, "size", d))
                    call_args.append(f"*(int64_t *)args[{len(params) - 1}]")
            for j in range(num_layout_symbols(t)):
                params.append(Param("int", k, "symbol", j))
                call_args.append(f"*(int64_t *)args[{len(params) - 1}]")
            for j, p in enumerate(static_physical_strides(t)):
                if p is None:
                    params.append(Param("int", k, "pstride", j))
                    call_args.append(f"*(int64_t *)args[{len(params) - 1}]")
        else:
            info = element_info(t)
            params.append(Param("scalar", k, dtype=value_dtype(info)))
            call_args.append(f"*({value_ctype(info)} *)args[{len(params) - 1}]")
    for k, t in enumerate(function_type_of(func).results):
        info = element_info(t)
        params.append(Param("result", k, dtype=value_dtype(info)))
        call_args.append(f"({value_ctype(info)} *)args[{len(params) - 1}]")
    symbol = "pa_entry_" + "".join(ch if ch.isalnum() else "_" for ch in name)
    source = (
        f"int {symbol}(void **args) {{\n"
        "  pa_err = 0;\n"
        f"  {cname}({', '.join(call_args)});\n"
        "  return pa_err;\n"
        "}\n"
    )
    return source, params


_VIEWS = (
    "memref.cast",
    "memref.subview",
    "memref.reinterpret_cast",
    "memref.view",
    "memref.expand_shape",
    "memref.collapse_shape",
)


def aliased_callees(module: Operation) -> set[str]:
    """Functions some call passes one buffer twice (their parameters cannot be ``restrict``)."""
    names: set[str] = set()
    for op in module.walk():
        if op.name != "func.call":
            continue
        roots = []
        for v in op.operands:
            if not isinstance(v.type, MemRefType):
                continue
            while v.owner_op is not None and v.owner_op.name in _VIEWS:
                v = v.owner_op.operands[0]
            roots.append(v)
        if len(set(roots)) != len(roots):
            names.add(op.properties["callee"].leaf)  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    return names


def emit_program(
    target: Operation | Module,
    entries: Sequence[str] | None = None,
    *,
    restrict: bool = True,
    openmp: bool = True,
    checks: bool = False,
) -> CProgram:
    """C for the functions named ``entries`` (default: every public function with a body)
    and their callees, with an exported ``pa_entry_<name>`` wrapper for each entry."""
    module = target.operation if isinstance(target, Module) else target
    if module.name == "func.func":
        entries = [function_name(module)] if entries is None else entries

        module = module_of(module)
    if entries is None:
        entries = [
            function_name(f)
            for f in module.walk()
            if f.name == "func.func"
            and f.regions[0].blocks
            and getattr(f.properties.get("sym_visibility"), "value", "public") != "private"
        ]
    emitter = _Emitter(module, restrict, openmp, checks)
    emitter.no_restrict = aliased_callees(module)
    wrappers: dict[str, str] = {}
    params: dict[str, list[Param]] = {}
    for name in entries:
        func = emitter.lookup(name, None)
        wrappers[name], params[name] = _entry_wrapper(func, emitter.function(func))
    source = emitter.source(wrappers)
    return CProgram(source, params, emitter.locations, emitter.used_openmp)


def emit_c(target: Operation | Module, entries: Sequence[str] | None = None, **options: Any) -> str:
    """The C99 source of :func:`emit_program` (what ``poly-opt --emit=c`` prints)."""
    return emit_program(target, entries, **options).source


@dataclass
class CompiledFunction:
    """A compiled entry function; call it with run-time values (MemRef, int, numpy scalar).

    Two variants are built on demand: with ``restrict`` memref parameters, and without
    (used when arguments share memory)."""

    func: Operation
    opt: str = "-O3"
    openmp: bool | None = None
    checks: bool = False
    _variants: dict[bool, tuple[Any, CProgram]] = field(default_factory=dict)

    def variant(self, restrict: bool) -> tuple[Any, CProgram]:
        if restrict not in self._variants:
            compiler = find_compiler()
            openmp = openmp_supported(compiler) if self.openmp is None else self.openmp
            program = emit_program(self.func, restrict=restrict, openmp=openmp, checks=self.checks)
            library = load_library(
                build_library(program.source, opt=self.opt, openmp=openmp and program.uses_openmp)
            )
            self._variants[restrict] = (library, program)
        return self._variants[restrict]

    @property
    def source(self) -> str:
        return self.variant(True)[1].source

    def __call__(self, values: Sequence[Any]) -> list[Any]:
        import ctypes

        import numpy as np

        memrefs = [v for v in values if isinstance(v, MemRef)]
        aliased = any(
            np.may_share_memory(a.data, b.data)
            for i, a in enumerate(memrefs)
            for b in memrefs[i + 1 :]
        )
        library, program = self.variant(not aliased)
        name = function_name(self.func)
        params = program.entries[name]
        keep: list[Any] = []
        slots = (ctypes.c_void_p * max(1, len(params)))()
        results: list[Any] = []
        for i, p in enumerate(params):
            if p.kind == "data":
                data = values[p.arg].data
                keep.append(data)
                slots[i] = data.ctypes.data
                continue
            if p.kind == "int":
                memref = values[p.arg]
                number = {
                    "size": memref.sizes,
                    "symbol": memref.symbols,
                    "pstride": memref.pstrides,
                }[p.what][p.index]
                cell = np.array(number, dtype=np.int64)
            elif p.kind == "scalar":
                cell = np.array(values[p.arg], dtype=p.dtype)
            else:
                cell = np.zeros((), dtype=p.dtype)
                results.append(cell)
            keep.append(cell)
            slots[i] = cell.ctypes.data
        entry = getattr(library, "pa_entry_" + "".join(ch if ch.isalnum() else "_" for ch in name))
        entry.restype = ctypes.c_int
        entry.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
        status = entry(slots)
        if status:
            if status < 0:
                raise ExecutionError(f"@{name}: out of memory")
            loc, message = program.locations[status - 1]
            raise ExecutionError(message, loc)
        return [_result_value(cell) for cell in results]


def _result_value(cell: Any) -> Any:
    value = cell[()]
    if cell.dtype.kind in "iub":
        return int(value)
    return value


def compile_function(
    target: Operation | Module,
    entry: str | None = None,
    *,
    opt: str = "-O3",
    openmp: bool | None = None,
    checks: bool = False,
) -> CompiledFunction:
    """Compile ``target`` (a ``func.func``, or a module and an ``entry`` name) for calls
    from Python.  Emission errors (unsupported ops) and compiler errors are raised now."""
    func = resolve_function(target, entry)
    compiled = CompiledFunction(func, opt, openmp, checks)
    compiled.variant(True)
    return compiled


__all__ = [
    "CProgram",
    "CompiledFunction",
    "compile_function",
    "emit_c",
    "emit_program",
]
