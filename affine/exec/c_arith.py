"""C for the ``arith`` and ``math`` ops.

Invariant: each op is one C expression of its operands' names from
:mod:`affine.exec.c_scalar`, bound to a new name.
"""

from __future__ import annotations

import math

from affine.dialects.arith import CMPF_PREDICATES, CMPI_PREDICATES
from affine.exec.c_emitter import FunctionEmitter, c_op, lane_count
from affine.exec.c_scalar import (
    FLOAT_MATH,
    binary_c,
    canon_c,
    dec_c,
    enc_c,
    float_call,
    float_literal,
    int_literal,
    signed_c,
    unsigned_c,
)
from affine.exec.elements import (
    ARITH_CASTS,
    ElementInfo,
    ExecutionError,
    float_attr_value,
)
from affine.exec.semantics import (
    FLOAT_BINARY_OPS,
    INT_BINARY_OPS,
    IntOps,
    dense_lane_values,
)
from affine.ir.attributes import DenseElementsAttr, FloatAttr, IntegerAttr
from affine.ir.core import Operation
from affine.ir.types import VectorType


@c_op("arith.constant")
def _c_constant(e: FunctionEmitter, op: Operation) -> None:
    attr = op.properties["value"]
    info = e.info(op.results[0], op.loc)
    if isinstance(attr, DenseElementsAttr):
        literal = float_literal if info.kind == "float" else int_literal
        lanes = ", ".join(literal(x, info) for x in dense_lane_values(attr, op.loc))
        e.define(op.results[0], f"({e.ctype_of(op.results[0].type)}){{{{{lanes}}}}}")
        return
    if isinstance(attr, FloatAttr):
        e.define(op.results[0], float_literal(float_attr_value(attr, info), info))
        return
    assert isinstance(attr, IntegerAttr)

    value = IntOps(info).canon(attr.value) if info.kind != "index" else attr.value
    e.define(op.results[0], int_literal(value, info))
    if value >= 0:
        e.nonneg.add(op.results[0])


@c_op("ub.poison")
def _c_poison(e: FunctionEmitter, op: Operation) -> None:
    """As in the interpreter: NaN for floats, 0 for integers."""
    t = op.results[0].type
    info = e.info(op.results[0], op.loc)
    scalar = float_literal(math.nan, info) if info.kind == "float" else "0"
    if isinstance(t, VectorType):
        lanes = ", ".join([scalar] * lane_count(t))
        e.define(op.results[0], f"({e.ctype_of(t)}){{{{{lanes}}}}}")
    else:
        e.define(op.results[0], scalar)


@c_op(
    *(f"arith.{n}" for n in INT_BINARY_OPS + FLOAT_BINARY_OPS),
    "math.powf",
    "math.atan2",
    "math.copysign",
)
def _c_binary(e: FunctionEmitter, op: Operation) -> None:
    info = e.info(op.operands[0], op.loc)
    name = op.name.split(".", 1)[1]
    code = (
        e.program.error_code(op, f"'{op.name}': division by zero")
        if "div" in name or "rem" in name
        else 0
    )
    e.define(op.results[0], binary_c(name, e.v(op.operands[0]), e.v(op.operands[1]), info, code))


@c_op("arith.negf", *(f"math.{n}" for n in FLOAT_MATH))
def _c_float_unary(e: FunctionEmitter, op: Operation) -> None:
    info = e.info(op.operands[0], op.loc)
    x = e.v(op.operands[0])
    if op.name == "arith.negf":
        e.define(op.results[0], enc_c(f"(-{dec_c(x, info)})", info))
        return
    template = FLOAT_MATH[op.name[5:]]
    if info.format is not None:
        e.define(op.results[0], enc_c(f"({template.format('f', dec_c(x, info))})", info))
    elif info.width == 16:
        e.define(op.results[0], f"((_Float16)({template.format('f', f'(float){x}')}))")
    else:
        suffix = {32: "f", 64: "", 80: "l"}[info.width]
        e.define(op.results[0], f"({template.format(suffix, x)})")


@c_op("math.fma", "vector.fma")
def _c_fma(e: FunctionEmitter, op: Operation) -> None:
    info = e.info(op.operands[0], op.loc)
    args = [e.v(v) for v in op.operands]
    if info.name == "f16":  # in double, then rounded to half, as LLVM does on x86
        e.define(op.results[0], f"((_Float16)fma({', '.join(f'(double){x}' for x in args)}))")
        return
    e.define(op.results[0], float_call("fma", info, args))


@c_op("math.isnan", "math.isinf", "math.isfinite", "math.isnormal")
def _c_float_class(e: FunctionEmitter, op: Operation) -> None:
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


@c_op("math.absi", "math.ctlz", "math.cttz", "math.ctpop")
def _c_int_unary(e: FunctionEmitter, op: Operation) -> None:
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


@c_op("math.ipowi")
def _c_ipowi(e: FunctionEmitter, op: Operation) -> None:
    info = e.info(op.operands[0], op.loc)
    code = e.program.error_code(op, "'math.ipowi': zero to a negative power")
    a, b = (e.v(v) for v in op.operands)
    e.define(
        op.results[0], canon_c(f"pa_ipow({signed_c(a, info)}, {signed_c(b, info)}, {code})", info)
    )


@c_op("math.fpowi")
def _c_fpowi(e: FunctionEmitter, op: Operation) -> None:
    info = e.info(op.operands[0], op.loc)
    exp_info = e.info(op.operands[1], op.loc)
    a, b = (e.v(v) for v in op.operands)
    if info.format is not None:
        power = f"powf({dec_c(a, info)}, (float){signed_c(b, exp_info)})"
        e.define(op.results[0], enc_c(power, info))
        return
    e.define(op.results[0], float_call("pow", info, [a, f"({info.c}){signed_c(b, exp_info)}"]))


_CMPF_C = {
    "false": "0", "oeq": "{a} == {b}", "ogt": "{a} > {b}", "oge": "{a} >= {b}", "olt": "{a} < {b}",
    "ole": "{a} <= {b}", "one": "{a} < {b} || {a} > {b}", "ord": "{a} == {a} && {b} == {b}",
    "ueq": "!({a} < {b} || {a} > {b})", "ugt": "!({a} <= {b})", "uge": "!({a} < {b})",
    "ult": "!({a} >= {b})", "ule": "!({a} > {b})", "une": "{a} != {b}",
    "uno": "{a} != {a} || {b} != {b}", "true": "1",
}  # fmt: skip


@c_op("arith.cmpf")
def _c_cmpf(e: FunctionEmitter, op: Operation) -> None:
    pred = CMPF_PREDICATES[op.properties["predicate"].value]  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    info = e.info(op.operands[0], op.loc)
    a, b = (dec_c(e.v(v), info) for v in op.operands)
    e.define(op.results[0], f"(int8_t)-({_CMPF_C[pred].format(a=a, b=b)})")


@c_op("arith.cmpi")
def _c_cmpi(e: FunctionEmitter, op: Operation) -> None:
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


@c_op("arith.select")
def _c_select(e: FunctionEmitter, op: Operation) -> None:
    c, a, b = (e.v(v) for v in op.operands)
    e.define(op.results[0], f"({c} ? {a} : {b})")


@c_op(*(f"arith.{n}" for n in ARITH_CASTS))
def _c_cast_scalar(e: FunctionEmitter, op: Operation) -> None:
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


def _bits(e: FunctionEmitter, x: str, info: ElementInfo) -> str:
    """C for the encoding of value ``x`` (what ``arith.bitcast`` sees) as a uint64_t."""
    if info.kind != "float":
        return unsigned_c(x, info)
    if info.format is not None:
        return f"((uint64_t){x} >> {info.format.shift})"
    word = ElementInfo("uint", info.width, f"uint{info.width}", f"uint{info.width}_t")
    return f"(uint64_t){e.program.bitcast(info, word)}({x})"


def _from_bits(e: FunctionEmitter, bits: str, info: ElementInfo) -> str:
    """C for the value of type ``info`` whose encoding is the uint64_t ``bits``."""
    if info.kind != "float":
        return canon_c(bits, info)
    if info.format is not None:
        mask = (1 << info.width) - 1
        return f"({info.c})(({bits} & {mask:#x}u) << {info.format.shift})"
    word = ElementInfo("uint", info.width, f"uint{info.width}", f"uint{info.width}_t")
    return f"{e.program.bitcast(word, info)}((uint{info.width}_t){bits})"
