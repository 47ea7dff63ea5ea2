"""C scalar semantics: C types and literals of element types, integer wrap-around and
signed/unsigned views, float encodings (``pa_dec_``/``pa_enc_``), the prelude of helpers,
arith ops and affine expressions as C expressions.

Invariant: every expression computes what the interpreter computes for the same op on the
same values (:mod:`affine.exec.interp`), so the two backends agree by construction.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from affine.exec.elements import (
    F32,
    ElementInfo,
    float_values,
    storage_word,
)
from affine.exec.semantics import (
    FLOAT_IDENTITIES,
    integer_identity,
)
from affine.math.expr import AffineExpr

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
    if special == "e8m0":  # unsigned, no zero; rounds half up (2**-127 is 0x00400000)
        lines += [
            "  if (s || a == 0) return 0xFF;",
            "  m = a < 0x00800000u ? a >= 0x00600000u : (a >> 23) + ((a >> 22) & 1);",
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
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int pa_err;
static void pa_fail(int code) { if (!pa_err) pa_err = code; }
#define PA_OOB_RANK 16
static jmp_buf pa_jmp;
static int pa_oob_rank;
static int64_t pa_oob_index[PA_OOB_RANK], pa_oob_sizes[PA_OOB_RANK];
static void pa_oob(int code, int rank, const int64_t *index, const int64_t *sizes) {
  pa_err = code; pa_oob_rank = rank < PA_OOB_RANK ? rank : PA_OOB_RANK;
  for (int k = 0; k < pa_oob_rank; ++k) { pa_oob_index[k] = index[k]; pa_oob_sizes[k] = sizes[k]; }
  longjmp(pa_jmp, 1);
}
int pa_oob_detail(int64_t *index, int64_t *sizes) {
  for (int k = 0; k < pa_oob_rank; ++k) { index[k] = pa_oob_index[k]; sizes[k] = pa_oob_sizes[k]; }
  return pa_oob_rank;
}
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

FLOAT_MATH = {
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
FLOAT_MATH2 = {"powf": "pow", "atan2": "atan2", "copysign": "copysign", "remf": "fmod"}


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
        fn = FLOAT_MATH2[name]
        return float_call(fn, info, [a, b])
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


def float_call(fn: str, info: ElementInfo, args: Sequence[str]) -> str:
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


def is_nonneg(e: AffineExpr, nonneg: Sequence[bool], num_dims: int) -> bool:
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
        return is_nonneg(e.lhs, nonneg, num_dims) and is_nonneg(e.rhs, nonneg, num_dims)
    return e.rhs.kind == "const" and e.rhs.value > 0 and is_nonneg(e.lhs, nonneg, num_dims)


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
    plain = positive_constant and is_nonneg(e.lhs, nonneg, num_dims)
    if kind == "floordiv":
        return f"({a} / {b})" if plain else f"pa_floordiv({a}, {b})"
    if kind == "ceildiv":
        return f"(({a} + {e.rhs.value - 1}) / {b})" if plain else f"pa_ceildiv({a}, {b})"
    return f"({a} % {b})" if plain else f"pa_mod({a}, {b})"
