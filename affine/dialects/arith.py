"""The ``arith`` and ``math`` dialects."""

from __future__ import annotations

from affine.attributes import (
    Attribute,
    DenseElementsAttr,
    FloatAttr,
    IntegerAttr,
    OpaqueAttr,
)
from affine.dialects.common import (
    FASTMATH_NONE,
    OVERFLOW_NONE,
    create,
    op_error,
    parse_optional_flags,
    print_flags,
)
from affine.dialects.registry import CONSTANT, PURE, define
from affine.ir import Operation
from affine.parser import Parser
from affine.printer import Printer
from affine.types import (
    I1,
    I64,
    IntegerType,
    TensorType,
    Type,
    VectorType,
    is_float_like,
    is_integer_like,
)

CMPI_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
CMPF_PREDICATES = [
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
]  # fmt: skip

# -- arith.constant ----------------------------------------------------------------------------


def _parse_constant(p: Parser, offset: int) -> Operation:
    attrs = p.parse_optional_attr_dict()
    value = p.parse_attribute()
    t = _attr_type(value)
    if t is None:
        p.op_error("expected a typed attribute for arith.constant", offset)
    return create(p, "arith.constant", offset, [], [t], {"value": value}, attrs)


def _attr_type(a: Attribute) -> Type | None:
    if isinstance(a, (IntegerAttr, FloatAttr, DenseElementsAttr)):
        return a.type
    if isinstance(a, OpaqueAttr):
        return a.type
    return None


def _print_constant(pr: Printer, op: Operation) -> None:
    pr.write(pr.attr_dict(op.attributes) + " " + pr.attr(op.properties["value"]))


def _verify_constant(op: Operation) -> None:
    value = op.properties.get("value")
    if value is None:
        op_error(op, "requires attribute 'value'")
    t = _attr_type(value)
    if t != op.results[0].type:
        op_error(op, f"value type '{t}' must match the result type '{op.results[0].type}'")


def _constant_names(op: Operation) -> list[str | None]:
    value = op.properties.get("value")
    t = op.results[0].type
    if isinstance(value, IntegerAttr):
        if isinstance(t, IntegerType) and t.width == 1:
            return ["true" if value.value else "false"]
        if isinstance(t, IntegerType):
            return [f"c{value.value}_{t}"]
        return [f"c{value.value}"]
    return ["cst"]


define(
    "arith.constant",
    parse=_parse_constant,
    print=_print_constant,
    verify=_verify_constant,
    properties=("value",),
    traits=(PURE, CONSTANT),
    result_names=_constant_names,
)


# -- elementwise ops with a single type: `%r = op %a, %b flags? attr-dict : type` -------------------


def _define_elementwise(
    name: str,
    arity: int,
    flags: tuple[str, str, str] | None,
    kind: str,
    pure: bool = True,
    result_i1: bool = False,
) -> None:
    """``flags`` is (property name, keyword, dialect attr mnemonic) for fastmath/overflow."""

    def parse(p: Parser, offset: int) -> Operation:
        operands = [p.parse_operand()]
        for _ in range(arity - 1):
            p.expect(",")
            operands.append(p.parse_operand())
        props: dict[str, Attribute] = {}
        if flags is not None:
            flag = parse_optional_flags(p, flags[1], flags[2])
            props[flags[0]] = flag if flag is not None else _flags_default(flags)
        attrs = p.parse_optional_attr_dict()
        t = p.parse_colon_type()
        result = _i1_like(t) if result_i1 else t
        return create(p, name, offset, p.resolve_all(operands, t), [result], props, attrs)

    def print_(pr: Printer, op: Operation) -> None:
        pr.write(" " + pr.operands(op.operands))
        if flags is not None:
            pr.write(print_flags(op, flags[0], flags[1]))
        pr.write(
            pr.attr_dict(op.attributes, (flags[0],) if flags else ())
            + " : "
            + pr.type(op.operands[0].type)
        )

    def verify(op: Operation) -> None:
        if len(op.operands) != arity:
            op_error(op, f"expected {arity} operands, but found {len(op.operands)}")
        t = op.operands[0].type
        for v in op.operands[1:]:
            if v.type != t:
                op_error(op, "requires the same type for all operands and results")
        check = is_float_like if kind == "float" else is_integer_like
        if not check(t):
            word = "floating-point-like" if kind == "float" else "signless-integer-like"
            op_error(op, f"operand #0 must be {word}, but got '{t}'")
        expected = _i1_like(t) if result_i1 else t
        if op.results[0].type != expected:
            op_error(op, "requires the same type for all operands and results")

    define(
        name,
        parse=parse,
        print=print_,
        verify=verify,
        properties=(flags[0],) if flags else (),
        traits=(PURE,) if pure else (),
    )


def _flags_default(flags: tuple[str, str, str]) -> OpaqueAttr:
    return FASTMATH_NONE if flags[1] == "fastmath" else OVERFLOW_NONE


def _i1_like(t: Type) -> Type:
    if isinstance(t, VectorType):
        return VectorType(t.shape, I1, t.scalable)
    if isinstance(t, TensorType):
        return TensorType(t.shape, I1)
    return I1


_FASTMATH = ("fastmath", "fastmath", "fastmath")
_OVERFLOW = ("overflowFlags", "overflow", "overflow")

for _op in ("addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf", "minnumf"):
    _define_elementwise(f"arith.{_op}", 2, _FASTMATH, "float")
_define_elementwise("arith.negf", 1, _FASTMATH, "float")
for _op in ("addi", "subi", "muli", "shli"):
    _define_elementwise(f"arith.{_op}", 2, _OVERFLOW, "int")
for _op in ("andi", "ori", "xori", "maxsi", "maxui", "minsi", "minui", "shrsi", "shrui"):
    _define_elementwise(f"arith.{_op}", 2, None, "int")
for _op in ("divsi", "divui", "ceildivsi", "ceildivui", "floordivsi", "remsi", "remui"):
    _define_elementwise(f"arith.{_op}", 2, None, "int", pure=False)

# math: float ops carry fastmath; integer ops do not.
for _op in (
    "sqrt", "rsqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
    "atanh", "absf", "ceil", "floor", "round", "roundeven", "trunc", "erf", "erfc",
):  # fmt: skip
    _define_elementwise(f"math.{_op}", 1, _FASTMATH, "float")
for _op in ("powf", "atan2", "copysign"):
    _define_elementwise(f"math.{_op}", 2, _FASTMATH, "float")
_define_elementwise("math.fma", 3, _FASTMATH, "float")
for _op in ("isnan", "isinf", "isfinite", "isnormal"):
    _define_elementwise(f"math.{_op}", 1, _FASTMATH, "float", result_i1=True)
for _op in ("absi", "ctlz", "cttz", "ctpop"):
    _define_elementwise(f"math.{_op}", 1, None, "int")
_define_elementwise("math.ipowi", 2, None, "int")


def _parse_fpowi(p: Parser, offset: int) -> Operation:
    a = p.parse_operand()
    p.expect(",")
    b = p.parse_operand()
    flag = parse_optional_flags(p, "fastmath", "fastmath")
    attrs = p.parse_optional_attr_dict()
    types = p.parse_colon_type_list()
    if len(types) != 2:
        p.op_error("expected two types", offset)
    return create(
        p,
        "math.fpowi",
        offset,
        p.resolve_all([a, b], types),
        [types[0]],
        {"fastmath": flag or FASTMATH_NONE},
        attrs,
    )


def _print_fpowi(pr: Printer, op: Operation) -> None:
    a, b = op.operands
    pr.write(f" {pr.operand(a)}, {pr.operand(b)}{print_flags(op, 'fastmath', 'fastmath')}")
    pr.write(
        pr.attr_dict(op.attributes, ("fastmath",)) + f" : {pr.type(a.type)}, {pr.type(b.type)}"
    )


define(
    "math.fpowi", parse=_parse_fpowi, print=_print_fpowi, properties=("fastmath",), traits=(PURE,)
)


# -- comparisons ----------------------------------------------------------------------------------


def _define_cmp(name: str, predicates: list[str], fastmath: bool, kind: str) -> None:
    def parse(p: Parser, offset: int) -> Operation:
        pred_offset = p.start
        word = p.parse_keyword() if p.at("id") else None
        if word is None and p.at("str"):  # seed syntax: cmpi "slt", ...
            from affine.lexer import unescape_string

            word = unescape_string(p.tok)
            p.advance()
        if word not in predicates:
            p.op_error(
                "expected string or keyword containing one of the following enum values for "
                f"attribute 'predicate' [{', '.join(predicates)}]",
                pred_offset,
            )
        p.expect(",")
        a = p.parse_operand()
        p.expect(",")
        b = p.parse_operand()
        props: dict[str, Attribute] = {"predicate": IntegerAttr(predicates.index(word), I64)}
        if fastmath:
            props["fastmath"] = parse_optional_flags(p, "fastmath", "fastmath") or FASTMATH_NONE
        attrs = p.parse_optional_attr_dict()
        t = p.parse_colon_type()
        return create(p, name, offset, p.resolve_all([a, b], t), [_i1_like(t)], props, attrs)

    def print_(pr: Printer, op: Operation) -> None:
        pred = predicates[op.properties["predicate"].value]  # type: ignore[attr-defined]
        pr.write(f" {pred}, {pr.operands(op.operands)}")
        if fastmath:
            pr.write(print_flags(op, "fastmath", "fastmath"))
        pr.write(
            pr.attr_dict(op.attributes, ("predicate", "fastmath"))
            + " : "
            + pr.type(op.operands[0].type)
        )

    def verify(op: Operation) -> None:
        a, b = op.operands
        if a.type != b.type:
            op_error(op, "requires all operands to have the same type")
        check = is_float_like if kind == "float" else is_integer_like
        if not check(a.type):
            op_error(op, f"operand #0 must be {kind}-like, but got '{a.type}'")
        pred = op.properties.get("predicate")
        if not isinstance(pred, IntegerAttr) or not 0 <= pred.value < len(predicates):
            op_error(op, "invalid predicate")
        if op.results[0].type != _i1_like(a.type):
            op_error(op, "result must be i1-like with the shape of the operands")

    define(
        name,
        parse=parse,
        print=print_,
        verify=verify,
        properties=("predicate", "fastmath") if fastmath else ("predicate",),
        traits=(PURE,),
    )


_define_cmp("arith.cmpi", CMPI_PREDICATES, False, "int")
_define_cmp("arith.cmpf", CMPF_PREDICATES, True, "float")


# -- select -----------------------------------------------------------------------------------------


def _parse_select(p: Parser, offset: int) -> Operation:
    c = p.parse_operand()
    p.expect(",")
    a = p.parse_operand()
    p.expect(",")
    b = p.parse_operand()
    attrs = p.parse_optional_attr_dict()
    types = p.parse_colon_type_list()
    if len(types) == 1:
        cond_type, t = I1, types[0]
    elif len(types) == 2:
        cond_type, t = types
    else:
        p.op_error("expected one or two types", offset)
    values = [p.resolve(c, cond_type)] + p.resolve_all([a, b], t)
    return create(p, "arith.select", offset, values, [t], None, attrs)


def _print_select(pr: Printer, op: Operation) -> None:
    pr.write(" " + pr.operands(op.operands) + pr.attr_dict(op.attributes) + " : ")
    if op.operands[0].type != I1:
        pr.write(pr.type(op.operands[0].type) + ", ")
    pr.write(pr.type(op.results[0].type))


def _verify_select(op: Operation) -> None:
    c, a, b = op.operands
    if a.type != b.type or op.results[0].type != a.type:
        op_error(
            op, "failed to verify that all of {true_value, false_value, result} have same type"
        )
    if c.type != I1 and c.type != _i1_like(a.type):
        op_error(op, "expected condition type to have the same shape as the result type")


define(
    "arith.select", parse=_parse_select, print=_print_select, verify=_verify_select, traits=(PURE,)
)


# -- casts -------------------------------------------------------------------------------------------


def _define_cast(name: str, flags: tuple[str, str, str] | None = None) -> None:
    def parse(p: Parser, offset: int) -> Operation:
        a = p.parse_operand()
        props: dict[str, Attribute] = {}
        if flags is not None:
            props[flags[0]] = parse_optional_flags(p, flags[1], flags[2]) or _flags_default(flags)
        attrs = p.parse_optional_attr_dict()
        t_in = p.parse_colon_type()
        p.expect_op_keyword("to")
        t_out = p.parse_type()
        return create(p, name, offset, [p.resolve(a, t_in)], [t_out], props, attrs)

    def print_(pr: Printer, op: Operation) -> None:
        pr.write(" " + pr.operand(op.operands[0]))
        if flags is not None:
            pr.write(print_flags(op, flags[0], flags[1]))
        pr.write(
            pr.attr_dict(op.attributes, (flags[0],) if flags else ())
            + f" : {pr.type(op.operands[0].type)} to {pr.type(op.results[0].type)}"
        )

    define(name, parse=parse, print=print_, properties=(flags[0],) if flags else (), traits=(PURE,))


for _op in (
    "index_cast", "index_castui", "sitofp", "uitofp", "fptosi", "fptoui", "extf",
    "extsi", "extui", "bitcast", "truncf",
):  # fmt: skip
    _define_cast(f"arith.{_op}")
_define_cast("arith.trunci", _OVERFLOW)

__all__ = ["CMPF_PREDICATES", "CMPI_PREDICATES"]
