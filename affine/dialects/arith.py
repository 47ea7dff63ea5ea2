"""The ``arith`` and ``math`` dialects."""

from __future__ import annotations

from typing import Any

from affine.dialects.common import (
    FASTMATH_NONE,
    OVERFLOW_NONE,
    attribute_constraint_error,
    create,
    op_error,
    parse_flags,
)
from affine.dialects.format import AttrSyntax, Group, define_format, enum_syntax, same_as
from affine.ir.attributes import (
    Attribute,
    DenseElementsAttr,
    FloatAttr,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
)
from affine.ir.core import Operation
from affine.ir.registry import CONSTANT, PURE, define, define_attribute
from affine.ir.types import (
    I1,
    NONE,
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
    Type,
    VectorType,
)
from affine.math.float_formats import semantics
from affine.syntax.parser import Parser
from affine.syntax.printer import Printer
from affine.syntax.reader import TokenReader

# -- ODS type constraints, with the words mlir-opt uses for them -----------------------------------


def _element(t: Type) -> Type:
    return t.element_type if isinstance(t, (VectorType, TensorType)) else t


def _signless_integer_like(t: Type) -> bool:
    e = _element(t)
    return isinstance(e, IndexType) or (isinstance(e, IntegerType) and not e.signedness)


def _signless_fixed_width_like(t: Type) -> bool:
    e = _element(t)
    return isinstance(e, IntegerType) and not e.signedness


def _float_like(t: Type) -> bool:
    return isinstance(_element(t), FloatType)


def _bool_like(t: Type) -> bool:
    e = _element(t)
    return isinstance(e, IntegerType) and not e.signedness and e.width == 1


SIGNLESS_INTEGER_LIKE = (_signless_integer_like, "signless-integer-like")
FIXED_WIDTH_LIKE = (_signless_fixed_width_like, "signless-fixed-width-integer-like")
FLOAT_LIKE = (_float_like, "floating-point-like")
BOOL_LIKE = (_bool_like, "bool-like")
Constraint = tuple  # (predicate, description)


def check_types(op: Operation, operands: Constraint | None, results: Constraint | None) -> None:
    """``operand #i must be <description>, but got '<type>'`` (then the same for results)."""
    if operands is not None:
        for i, v in enumerate(op.operands):
            if not operands[0](v.type):
                op_error(op, f"operand #{i} must be {operands[1]}, but got '{v.type}'")
    if results is not None:
        for i, r in enumerate(op.results):
            if not results[0](r.type):
                op_error(op, f"result #{i} must be {results[1]}, but got '{r.type}'")


def _shape(t: Type) -> tuple | None:
    return (
        tuple(t.shape) if isinstance(t, (VectorType, TensorType)) and t.shape is not None else None
    )


def check_same_shape(op: Operation) -> None:
    """``SameOperandsAndResultShape``: scalars with scalars, containers of one shape."""
    types = [v.type for v in op.operands] + [r.type for r in op.results]
    shapes = {(isinstance(t, (VectorType, TensorType)), _shape(t)) for t in types}
    if len(shapes) > 1:
        op_error(op, "requires the same shape for all operands and results")


CMPI_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
CMPF_PREDICATES = [
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
]  # fmt: skip

# -- arith.constant ----------------------------------------------------------------------------


def _parse_constant(p: Parser, offset: int) -> Operation:
    attrs = p.parse_optional_attr_dict()
    start = p.start
    value = p.parse_attribute()
    t = _attr_type(value)
    if t is None:
        p.op_error("invalid kind of attribute specified", start)
    return create(p, "arith.constant", offset, [], [t], {"value": value}, attrs)


def _attr_type(a: Attribute) -> Type | None:
    if isinstance(a, (IntegerAttr, FloatAttr, DenseElementsAttr)):
        return a.type
    if isinstance(a, OpaqueAttr):
        return a.type
    if isinstance(a, StringAttr):  # typed (none when no type is written), not a constant
        return a.type or NONE
    return None


def _print_constant(pr: Printer, op: Operation) -> None:
    pr.write(pr.attr_dict(op.attributes) + " " + pr.attr(op.properties["value"]))


def _verify_constant(op: Operation) -> None:
    value = op.properties.get("value")
    if value is None:
        op_error(op, "requires attribute 'value'")
    t = op.results[0].type
    if _attr_type(value) != t:
        op_error(op, "failed to verify that all of {value, result} have same type")
    if isinstance(t, IntegerType) and t.signedness:
        op_error(op, "integer return type must be signless")
    if isinstance(value, StringAttr):
        op_error(op, "value must be an integer, float, or elements attribute")


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
    flags: str | None,
    kind: str,
    pure: bool = True,
    result_i1: bool = False,
) -> None:
    """``%r = name %a, %b flags? attr-dict : type``; ``flags`` is the property of the
    fastmath or overflow flags the op carries."""
    names = ("operand",) if arity == 1 else ("lhs", "rhs", "third")[:arity]
    typed = "operand" if result_i1 else "result"
    operands = [Group(n, type=same_as(typed)) for n in names]
    result = Group("result", type=lambda known: _i1_like(known["operand"][0]))
    if not result_i1:
        operands[0], result = Group(names[0], type=same_as("result")), Group("result")

    def verify(op: Operation) -> None:
        if len(op.operands) != arity:
            op_error(op, f"expected {arity} operands, but found {len(op.operands)}")
        constraint = FLOAT_LIKE if kind == "float" else SIGNLESS_INTEGER_LIKE
        check_types(op, constraint, BOOL_LIKE if result_i1 else constraint)
        t = op.operands[0].type
        expected = _i1_like(t) if result_i1 else t
        if any(v.type != t for v in op.operands) or op.results[0].type != expected:
            op_error(op, "requires the same type for all operands and results")

    define_format(
        name,
        " `,` ".join(f"${n}" for n in names)
        + _flags_format(flags)
        + f" attr-dict `:` type(${typed})",
        operands=operands,
        results=[result],
        **_flags_properties(flags),
        verify=verify,
        traits=(PURE,) if pure else (),
    )


_FLAG_PROPERTIES = {  # the property holding each kind of flags, and its value when none is set
    "fastmath": ("fastmath", FASTMATH_NONE),
    "overflow": ("overflowFlags", OVERFLOW_NONE),
}


def _flags_syntax(keyword: str) -> AttrSyntax:
    """``<nnan,ninf>`` after ``fastmath`` (``<nsw>`` after ``overflow``), kept in mlir-opt's
    canonical spelling (:func:`parse_flags`)."""

    def parse(p: TokenReader) -> Attribute:
        return OpaqueAttr(f"#arith.{keyword}<{parse_flags(p, keyword)}>")

    def show(pr: Printer, attr: Attribute) -> str:
        assert isinstance(attr, OpaqueAttr)  # made by parse or the builders
        return f"<{attr.body}>"

    define_attribute(f"arith.{keyword}", parse)  # ``#arith.fastmath<...>`` reads the same
    return AttrSyntax(parse, show)


_FLAGS = {keyword: _flags_syntax(keyword) for keyword in _FLAG_PROPERTIES}


def _flags_format(keyword: str | None) -> str:
    """The optional flags after the operands: `` (`fastmath` `` $fastmath^)?``."""
    if keyword is None:
        return ""
    return f" (`{keyword}` `` ${_FLAG_PROPERTIES[keyword][0]}^)?"


def _flags_properties(keyword: str | None) -> dict[str, Any]:
    """The flags property of ``define_format``: shown by ``$name``, none by default."""
    if keyword is None:
        return {"properties": ()}
    prop, none = _FLAG_PROPERTIES[keyword]
    return {"shown": {prop: _FLAGS[keyword]}, "defaults": {prop: none}, "properties": (prop,)}


def _i1_like(t: Type) -> Type:
    """MLIR's ``getI1SameShape``: i1 in ``t``'s shape (a tensor keeps its encoding)."""
    if isinstance(t, VectorType):
        return VectorType(t.shape, I1, t.scalable)
    if isinstance(t, TensorType):
        return TensorType(t.shape, I1, t.encoding)
    return I1


_FASTMATH = "fastmath"
_OVERFLOW = "overflow"

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


define_format(
    "math.fpowi",
    "$lhs `,` $rhs" + _flags_format(_FASTMATH) + " attr-dict `:` type($lhs) `,` type($rhs)",
    operands=[Group("lhs"), Group("rhs")],
    results=[Group("result", type=same_as("lhs"))],
    **_flags_properties(_FASTMATH),
    traits=(PURE,),
)


# -- comparisons ----------------------------------------------------------------------------------


def _define_cmp(name: str, predicates: list[str], fastmath: bool, kind: str) -> None:
    flags = _FASTMATH if fastmath else None
    constraint = FLOAT_LIKE if kind == "float" else SIGNLESS_INTEGER_LIKE

    def verify(op: Operation) -> None:
        pred = op.properties.get("predicate")
        if pred is None:
            op_error(op, "requires attribute 'predicate'")
        if not isinstance(pred, IntegerAttr) or not 0 <= pred.value < len(predicates):
            cases = ", ".join(str(k) for k in range(len(predicates)))
            attribute_constraint_error(
                op,
                "attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless "
                f"integer cases: {cases}",
            )
        check_types(op, FLOAT_LIKE if kind == "float" else SIGNLESS_INTEGER_LIKE, BOOL_LIKE)
        a, b = op.operands
        if a.type != b.type:
            op_error(op, "requires all operands to have the same type")
        if op.results[0].type != _i1_like(a.type):
            op_error(
                op,
                "failed to verify that result type has i1 element type and same shape as operands",
            )

    properties = _flags_properties(flags)
    define_format(
        name,
        "$predicate `,` $lhs `,` $rhs" + _flags_format(flags) + " attr-dict `:` type($lhs)",
        operands=[Group("lhs", constraint=constraint), Group("rhs", type=same_as("lhs"))],
        results=[Group("result", type=lambda known: _i1_like(known["lhs"][0]))],
        shown={"predicate": enum_syntax(predicates, "predicate"), **properties.pop("shown", {})},
        properties=("predicate", *properties.pop("properties")),
        **properties,
        verify=verify,
        traits=(PURE,),
    )


_define_cmp("arith.cmpi", CMPI_PREDICATES, False, "int")
_define_cmp("arith.cmpf", CMPF_PREDICATES, True, "float")


# -- select -----------------------------------------------------------------------------------------


def _parse_select(p: Parser, offset: int) -> Operation:
    c, a, b = p.parse_operands(3)
    attrs = p.parse_optional_attr_dict()
    types = p.parse_colon_type_list()
    cond_type: Type
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
    """mlir-opt's order: the condition is bool-like, the three value types agree, the
    condition is i1 or an i1 mask of the result's shape."""
    c, a, b = op.operands
    if not _bool_like(c.type):
        op_error(op, f"operand #0 must be bool-like, but got '{c.type}'")
    if a.type != b.type or op.results[0].type != a.type:
        op_error(
            op, "failed to verify that all of {true_value, false_value, result} have same type"
        )
    if c.type != I1 and c.type != _i1_like(a.type):
        op_error(op, "failed to verify that condition is signless i1 or has matching shape")


define(
    "arith.select", parse=_parse_select, print=_print_select, verify=_verify_select, traits=(PURE,)
)


# -- casts -------------------------------------------------------------------------------------------


def _define_cast(name: str, flags: str | None = None) -> None:
    def verify(op: Operation) -> None:
        operand, result, compatible = _CASTS[name]
        check_types(op, operand, result)
        a, b = op.operands[0].type, op.results[0].type
        if name in ("arith.index_cast", "arith.index_castui"):
            if isinstance(a, TensorType) and isinstance(b, TensorType) and a.shape != b.shape:
                op_error(
                    op, "failed to verify that input and output have the same tensor dimensions"
                )
        check_same_shape(op)
        encodings_differ = (
            isinstance(a, TensorType) and isinstance(b, TensorType) and a.encoding != b.encoding
        )
        if encodings_differ or not compatible(_element(a), _element(b)):
            op_error(op, f"operand type '{a}' and result type '{b}' are cast incompatible")

    define_format(
        name,
        "$in" + _flags_format(flags) + " attr-dict `:` type($in) `to` type($out)",
        operands=[Group("in")],
        results=[Group("out")],
        **_flags_properties(flags),
        verify=verify,
        traits=(PURE,),
    )


def _width(t: Type) -> int:
    if isinstance(t, IntegerType):
        return t.width
    if isinstance(t, FloatType):
        return semantics(t.name).width
    return 0


def _index_cast_compatible(a: Type, b: Type) -> bool:
    return isinstance(a, IndexType) != isinstance(b, IndexType)


def _bitcast_compatible(a: Type, b: Type) -> bool:
    return not isinstance(a, IndexType) and not isinstance(b, IndexType) and _width(a) == _width(b)


_INDEX_CAST_LIKE = (
    lambda t: (
        _signless_integer_like(t)
        or (isinstance(t, MemRefType) and _signless_integer_like(t.element_type))
    ),
    "signless-integer-like or memref of signless-integer",
)
_BITCAST_LIKE = (
    lambda t: (
        _signless_integer_like(t)
        or _float_like(t)
        or (
            isinstance(t, MemRefType)
            and (_signless_integer_like(t.element_type) or _float_like(t.element_type))
        )
    ),
    "signless-integer-or-float-like or memref of signless-integer or float",
)
# name -> (operand constraint, result constraint, element types compatible)
_CASTS = {
    "arith.extf": (FLOAT_LIKE, FLOAT_LIKE, lambda a, b: _width(b) > _width(a)),
    "arith.truncf": (FLOAT_LIKE, FLOAT_LIKE, lambda a, b: _width(b) < _width(a)),
    "arith.extsi": (FIXED_WIDTH_LIKE, FIXED_WIDTH_LIKE, lambda a, b: _width(b) > _width(a)),
    "arith.extui": (FIXED_WIDTH_LIKE, FIXED_WIDTH_LIKE, lambda a, b: _width(b) > _width(a)),
    "arith.trunci": (FIXED_WIDTH_LIKE, FIXED_WIDTH_LIKE, lambda a, b: _width(b) < _width(a)),
    "arith.sitofp": (FIXED_WIDTH_LIKE, FLOAT_LIKE, lambda a, b: True),
    "arith.uitofp": (FIXED_WIDTH_LIKE, FLOAT_LIKE, lambda a, b: True),
    "arith.fptosi": (FLOAT_LIKE, FIXED_WIDTH_LIKE, lambda a, b: True),
    "arith.fptoui": (FLOAT_LIKE, FIXED_WIDTH_LIKE, lambda a, b: True),
    "arith.index_cast": (_INDEX_CAST_LIKE, _INDEX_CAST_LIKE, _index_cast_compatible),
    "arith.index_castui": (_INDEX_CAST_LIKE, _INDEX_CAST_LIKE, _index_cast_compatible),
    "arith.bitcast": (_BITCAST_LIKE, _BITCAST_LIKE, _bitcast_compatible),
}

for _op in (
    "index_cast", "index_castui", "sitofp", "uitofp", "fptosi", "fptoui", "extf",
    "extsi", "extui", "bitcast", "truncf",
):  # fmt: skip
    _define_cast(f"arith.{_op}")
_define_cast("arith.trunci", _OVERFLOW)

__all__ = ["CMPF_PREDICATES", "CMPI_PREDICATES"]


# -- extended arithmetic: two results -------------------------------------------------------------


def _check_elementwise_shapes(op: Operation) -> None:
    """``ElementwiseMappable``: non-scalar operands and results agree in shape and kind."""
    operands = [v.type for v in op.operands]
    results = [r.type for r in op.results]
    containers = [t for t in operands + results if isinstance(t, (VectorType, TensorType))]
    if any(isinstance(t, (VectorType, TensorType)) for t in operands) and len(
        [t for t in results if isinstance(t, (VectorType, TensorType))]
    ) != len(results):
        op_error(op, "if an operand is non-scalar, then all results must be non-scalar")
    if containers:
        first = containers[0]
        if any(type(t) is not type(first) or _shape(t) != _shape(first) for t in containers):
            op_error(op, "all non-scalar operands/results must have the same shape and base type")


def _verify_addui_extended(op: Operation) -> None:
    check_types(op, SIGNLESS_INTEGER_LIKE, None)
    if not _signless_integer_like(op.results[0].type):
        op_error(op, f"result #0 must be signless-integer-like, but got '{op.results[0].type}'")
    if not _bool_like(op.results[1].type):
        op_error(op, f"result #1 must be bool-like, but got '{op.results[1].type}'")
    _check_elementwise_shapes(op)
    t = op.operands[0].type
    if op.operands[1].type != t or op.results[0].type != t:
        op_error(op, "failed to verify that all of {lhs, rhs, sum} have same type")


define_format(
    "arith.addui_extended",
    "$lhs `,` $rhs attr-dict `:` type($sum) `,` type($overflow)",
    operands=[Group("lhs", type=same_as("sum")), Group("rhs", type=same_as("sum"))],
    results=[Group("sum"), Group("overflow")],
    verify=_verify_addui_extended,
    traits=(PURE,),
    result_names=lambda op: ["sum", "overflow"],
)


def _define_mul_extended(name: str) -> None:
    def verify(op: Operation) -> None:
        check_types(op, SIGNLESS_INTEGER_LIKE, SIGNLESS_INTEGER_LIKE)
        _check_elementwise_shapes(op)
        t = op.operands[0].type
        if any(v.type != t for v in list(op.operands) + list(op.results)):
            op_error(op, "failed to verify that all of {lhs, rhs, low, high} have same type")

    define_format(
        name,
        "$lhs `,` $rhs attr-dict `:` type($lhs)",
        operands=[Group("lhs"), Group("rhs", type=same_as("lhs"))],
        results=[Group("low", type=same_as("lhs")), Group("high", type=same_as("lhs"))],
        verify=verify,
        traits=(PURE,),
        result_names=lambda op: ["low", "high"],
    )


_define_mul_extended("arith.mulsi_extended")
_define_mul_extended("arith.mului_extended")
