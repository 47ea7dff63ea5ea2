"""``builtin.module``, the ``func`` dialect and the ``cf`` branch ops."""

from __future__ import annotations

from affine.dialects.common import (
    create,
    op_error,
    referenced_symbol,
    segment_sizes,
    segments,
    string_value,
    verify_types_match,
)
from affine.dialects.format import define_return_like
from affine.ir.attributes import (
    ArrayAttr,
    Attribute,
    DictionaryAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
)
from affine.ir.core import Operation, Region
from affine.ir.diagnostics import VerifyError
from affine.ir.registry import (
    AFFINE_SCOPE,
    AUTOMATIC_ALLOCATION_SCOPE,
    FUNCTION,
    GRAPH_REGION,
    ISOLATED,
    NO_TERMINATOR,
    PURE,
    RETURN_LIKE,
    SINGLE_BLOCK,
    SYMBOL_TABLE,
    TERMINATOR,
    define,
)
from affine.ir.types import I1, FunctionType, Type
from affine.syntax.lexer import lex
from affine.syntax.parser import Parser
from affine.syntax.printer import Printer

# -- builtin.module ------------------------------------------------------------------------------


def _parse_module(p: Parser, offset: int) -> Operation:
    props: dict[str, Attribute] = {}
    if p.at("@"):
        props["sym_name"] = StringAttr(p._parse_symbol_ref().root)
    attrs = p.parse_optional_attr_dict_with_keyword()
    region = p.parse_region(isolated=True, default_dialect="builtin")
    if not region.blocks:
        region.add_block()
    return create(p, "builtin.module", offset, properties=props, attributes=attrs, regions=[region])


def _print_module(pr: Printer, op: Operation) -> None:
    name = string_value(op, "sym_name")
    if name is not None:
        pr.write(" " + pr.attr(SymbolRefAttr(name)))
    pr.write(pr.attr_dict(op.attributes, keyword=True))
    pr.write(" ")
    pr.region(op.regions[0], False, False, default_dialect="builtin")


def _verify_module(op: Operation) -> None:
    region = op.regions[0]
    if len(region.blocks) != 1:
        op_error(op, "expects region #0 to have 0 or 1 blocks")
    if region.blocks[0].arguments:
        op_error(op, "expects region to have no arguments")
    for name in op.attributes:
        if "." not in name:
            op_error(
                op, f"can only contain attributes with dialect-prefixed names, found: '{name}'"
            )


define(
    "builtin.module",
    parse=_parse_module,
    print=_print_module,
    verify=_verify_module,
    properties=("sym_name", "sym_visibility"),
    traits=(ISOLATED, NO_TERMINATOR, GRAPH_REGION, SINGLE_BLOCK, SYMBOL_TABLE, AFFINE_SCOPE),
    default_dialect="builtin",
)


# -- function-like ops (func.func, ml_program.func, ml_program.subgraph) -----------------------


def parse_function_like(
    p: Parser, offset: int, name: str, default_dialect: str | None
) -> Operation:
    props: dict[str, Attribute] = {}
    if p.kind == "id" and p.tok in ("private", "public", "nested"):
        props["sym_visibility"] = StringAttr(p.tok)
        p.advance()
    if not p.at("@"):
        p.op_error("expected valid '@'-identifier for symbol name")
    props["sym_name"] = StringAttr(p._parse_symbol_ref().root)
    p.expect("(")
    args: list[tuple[str, int, Type]] = []
    arg_types: list[Type] = []
    arg_attrs: list[DictionaryAttr] = []
    named = p.at("%")
    if not p.accept(")"):
        while True:
            if named:
                if not p.at("%"):
                    p.op_error("expected SSA identifier")
                arg_name, arg_offset, arg_type, _ = p.parse_argument(with_type=True)
                args.append((arg_name, arg_offset, arg_type))
            else:
                if p.at("%"):
                    p.op_error("expected type instead of SSA identifier")
                arg_type = p.parse_type()
            arg_types.append(arg_type)
            arg_attrs.append(p.parse_attr_dict() if p.at("{") else DictionaryAttr({}))
            if named:
                p.parse_optional_location()
            if not p.accept(","):
                break
        p.expect(")")
    result_types: list[Type] = []
    res_attrs: list[DictionaryAttr] = []
    if p.accept("->"):  # MLIR's parseFunctionResultList: a type, or types in parentheses
        if not p.accept("("):
            result_types.append(p.parse_type())
            res_attrs.append(DictionaryAttr({}))
        elif not p.accept(")"):
            while True:
                result_types.append(p.parse_type())
                res_attrs.append(p.parse_attr_dict() if p.at("{") else DictionaryAttr({}))
                if not p.accept(","):
                    break
            p.expect(")")
    props["function_type"] = TypeAttr(FunctionType(arg_types, result_types))
    if any(len(a) for a in arg_attrs):
        props["arg_attrs"] = ArrayAttr(arg_attrs)
    if any(len(a) for a in res_attrs):
        props["res_attrs"] = ArrayAttr(res_attrs)
    attrs_offset = p.start
    attrs = p.parse_optional_attr_dict_with_keyword()
    for inferred in ("sym_visibility", "sym_name", "function_type"):
        if inferred in attrs:
            p.op_error(
                f"'{inferred}' is an inferred attribute and should not be specified in the"
                " explicit attribute dictionary",
                attrs_offset,
            )
    regions = []
    if p.at("{"):
        body_offset = p.start
        body = p.parse_region(args, isolated=True, default_dialect=default_dialect)
        if not body.blocks and not p.seed_functions:
            p.op_error("expected non-empty function body", body_offset)
        if not named and arg_types:
            # 2018-19 syntax: unnamed signature, arguments named by a labelled entry block.
            entry_types = [a.type for a in body.blocks[0].arguments] if body.blocks else []
            if entry_types != arg_types:
                p.op_error("entry block arguments must match the function signature", body_offset)
        regions.append(body)
    else:
        regions.append(Region())
    return create(p, name, offset, properties=props, attributes=attrs, regions=regions)


def print_function_like(pr: Printer, op: Operation, default_dialect: str = "") -> None:
    visibility = string_value(op, "sym_visibility")
    pr.write(" ")
    if visibility:
        pr.write(visibility + " ")
    pr.write(pr.attr(SymbolRefAttr(string_value(op, "sym_name") or "")))
    ftype = function_type_of(op)
    body = op.regions[0]
    arg_attrs = op.properties.get("arg_attrs")
    res_attrs = op.properties.get("res_attrs")
    parts = []
    for i, t in enumerate(ftype.inputs):
        attrs = dict(arg_attrs.elements[i].entries) if isinstance(arg_attrs, ArrayAttr) else {}  # type: ignore[attr-defined]  # the parser builds argument attributes as dictionaries
        if body.blocks:
            parts.append(
                f"{pr.operand(body.blocks[0].arguments[i])}: {pr.type(t)}{pr.attr_dict(attrs)}"
            )
        else:
            parts.append(pr.type(t) + pr.attr_dict(attrs))
    pr.write("(" + ", ".join(parts) + ")")
    results = ftype.results
    if results:
        res_dicts = (
            [dict(d.entries) for d in res_attrs.elements]  # type: ignore[attr-defined]  # the parser builds result attributes as dictionaries
            if isinstance(res_attrs, ArrayAttr)
            else [{}] * len(results)
        )
        parens = len(results) > 1 or isinstance(results[0], FunctionType) or bool(res_dicts[0])
        text = ", ".join(pr.type(t) + pr.attr_dict(a) for t, a in zip(results, res_dicts))
        pr.write(" -> " + (f"({text})" if parens else text))
    pr.write(pr.attr_dict(op.attributes, keyword=True))
    if body.blocks:
        pr.write(" ")
        pr.region(body, False, True, default_dialect=default_dialect)


def verify_function_like(op: Operation) -> None:
    ftype = op.properties.get("function_type")
    if not isinstance(ftype, TypeAttr) or not isinstance(ftype.value, FunctionType):
        op_error(op, "requires attribute 'function_type'")
    if "sym_name" not in op.properties:
        op_error(op, "requires attribute 'sym_name'")
    for key, what in (("arg_attrs", "arguments"), ("res_attrs", "results")):
        dicts = op.properties.get(key)
        if isinstance(dicts, ArrayAttr):
            for entry in dicts.elements:
                if isinstance(entry, DictionaryAttr) and any(
                    "." not in k for k, _ in entry.entries
                ):
                    op_error(op, f"{what} may only have dialect attributes")
    body = op.regions[0]
    if not body.blocks:
        if string_value(op, "sym_visibility") in (None, "public"):
            op_error(op, "symbol declaration cannot have public visibility")
        return
    entry_block = body.blocks[0]
    inputs = ftype.value.inputs
    verify_types_match(
        op,
        entry_block.arguments,
        inputs,
        f"entry block must have {len(inputs)} arguments to match function signature",
        lambda i, have, want: (
            f"type of entry block argument #{i}({have}) must match the type "
            f"of the corresponding argument in function signature({want})"
        ),
    )


def function_type_of(op: Operation) -> FunctionType:
    return op.properties["function_type"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class


def _parse_func(p: Parser, offset: int) -> Operation:
    return parse_function_like(p, offset, "func.func", "func")


define(
    "func.func",
    parse=_parse_func,
    print=lambda pr, op: print_function_like(pr, op, "func"),
    verify=verify_function_like,
    properties=(
        "sym_name",
        "function_type",
        "sym_visibility",
        "arg_attrs",
        "res_attrs",
        "no_inline",
    ),
    traits=(ISOLATED, AFFINE_SCOPE, FUNCTION, AUTOMATIC_ALLOCATION_SCOPE),
    default_dialect="func",
)


# -- func.return / func.call / func.call_indirect / func.constant ------------------------------


def _verify_return(op: Operation) -> None:
    func = op.parent_op
    assert func is not None  # the parent is checked before (affine.dialects.arity)
    results, name = function_type_of(func).results, string_value(func, "sym_name")
    verify_types_match(
        op,
        op.operands,
        results,
        f"has {len(op.operands)} operands, but enclosing function (@{name}) returns {len(results)}",
        lambda i, have, want: (
            f"type of return operand {i} ('{have}') doesn't match function "
            f"result type ('{want}') in function @{name}"
        ),
        prefix=False,
    )


define_return_like("func.return", verify=_verify_return, traits=(TERMINATOR, PURE, RETURN_LIKE))


def _parse_call(p: Parser, offset: int) -> Operation:
    if not p.at("@"):
        p.op_error("expected valid '@'-identifier for symbol name")
    callee = p._parse_symbol_ref()
    list_at = lex(p.text, p.end)[1] if p.at("(") else p.start  # the operands' place
    operands = p.parse_operand_list("(")
    attrs = p.parse_optional_attr_dict()
    ftype = p.parse_colon_type_of(FunctionType, "builtin.function")
    if len(ftype.inputs) != len(operands):
        p.op_error(
            f"number of operands and types do not match: got {len(operands)} operands and "
            f"{len(ftype.inputs)} types",
            list_at,
        )
    values = p.resolve_all(operands, ftype.inputs)
    return create(p, "func.call", offset, values, ftype.results, {"callee": callee}, attrs)


def _print_call(pr: Printer, op: Operation) -> None:
    pr.write(" " + pr.attr(op.properties["callee"]) + "(" + pr.operands(op.operands) + ")")
    pr.write(pr.attr_dict(op.attributes))
    pr.write(" : " + pr.functional_type(op))


def _verify_call(op: Operation) -> None:
    target = referenced_symbol(
        op,
        "callee",
        "func.func",
        "requires a 'callee' symbol reference attribute",
        "'{name}' does not reference a valid function",
    )
    ftype = function_type_of(target)
    verify_types_match(
        op,
        op.operands,
        ftype.inputs,
        "incorrect number of operands for callee",
        lambda i, have, want: (
            f"operand type mismatch: expected operand type {want}, but "
            f"provided {have} for operand number {i}"
        ),
    )
    verify_types_match(
        op,
        op.results,
        ftype.results,
        "incorrect number of results for callee",
        lambda i, have, want: f"result type mismatch at index {i}",
    )


define(
    "func.call",
    parse=_parse_call,
    print=_print_call,
    verify=_verify_call,
    properties=("callee", "arg_attrs", "res_attrs", "no_inline"),
)


def _parse_call_indirect(p: Parser, offset: int) -> Operation:
    callee = p.parse_operand()
    operands = p.parse_operand_list("(")
    attrs = p.parse_optional_attr_dict()
    ftype = p.parse_colon_type_of(FunctionType, "builtin.function")
    values = [p.resolve(callee, ftype)] + p.resolve_all(operands, ftype.inputs)
    return create(p, "func.call_indirect", offset, values, ftype.results, attributes=attrs)


def _print_call_indirect(pr: Printer, op: Operation) -> None:
    pr.write(" " + pr.operand(op.operands[0]) + "(" + pr.operands(op.operands[1:]) + ")")
    pr.write(pr.attr_dict(op.attributes) + " : " + pr.type(op.operands[0].type))


define("func.call_indirect", parse=_parse_call_indirect, print=_print_call_indirect)


def _parse_func_constant(p: Parser, offset: int) -> Operation:
    value_offset = p.start
    if p.at("int") or p.at("-"):  # read against the result's function type, as mlir-opt does
        p.accept("-")
        p.error("integer literal not valid for specified type")
    if not p.at("@"):
        p.parse_attribute()
        p.op_error("invalid kind of attribute specified", value_offset)
    value = p._parse_symbol_ref()
    attrs = p.parse_optional_attr_dict()
    t = p.parse_colon_type()
    return create(p, "func.constant", offset, (), [t], {"value": value}, attrs)


def _print_func_constant(pr: Printer, op: Operation) -> None:
    pr.write(
        " "
        + pr.attr(op.properties["value"])
        + pr.attr_dict(op.attributes)
        + " : "
        + pr.type(op.results[0].type)
    )


def _verify_func_constant(op: Operation) -> None:
    target = referenced_symbol(
        op,
        "value",
        "func.func",
        "requires attribute 'value'",
        "reference to undefined function '{name}'",
    )
    if function_type_of(target) != op.results[0].type:
        op_error(op, "reference to function with mismatched type")


define(
    "func.constant",
    parse=_parse_func_constant,
    print=_print_func_constant,
    verify=_verify_func_constant,
    properties=("value",),
    traits=(PURE,),
    result_names=lambda op: ["f"],
)


# -- cf.br / cf.cond_br ----------------------------------------------------------------------------


def _parse_successor_operands(p: Parser):
    block = p.parse_successor()
    values = []
    if p.accept("("):
        operands = p.parse_operand_list()
        types = p.parse_colon_type_list()
        p.expect(")")
        values = p.resolve_all(operands, types)
    return block, values


def _parse_br(p: Parser, offset: int) -> Operation:
    block, values = _parse_successor_operands(p)
    attrs = p.parse_optional_attr_dict()
    return create(p, "cf.br", offset, values, attributes=attrs, successors=[block])


def _print_br(pr: Printer, op: Operation) -> None:
    pr.write(" " + pr.successor(op.successors[0], op.operands) + pr.attr_dict(op.attributes))


def _parse_cond_br(p: Parser, offset: int) -> Operation:
    cond = p.resolve(p.parse_operand(), I1)
    p.expect(",")
    true_block, true_args = _parse_successor_operands(p)
    p.expect(",")
    false_block, false_args = _parse_successor_operands(p)
    attrs = p.parse_optional_attr_dict()
    return create(
        p,
        "cf.cond_br",
        offset,
        [cond, *true_args, *false_args],
        properties={"operandSegmentSizes": segment_sizes(1, len(true_args), len(false_args))},
        attributes=attrs,
        successors=[true_block, false_block],
    )


def _print_cond_br(pr: Printer, op: Operation) -> None:
    pr.write(
        f" {pr.operand(op.operands[0])}, {pr.successor(op.successors[0], segments(op, 1))}, "
        f"{pr.successor(op.successors[1], segments(op, 2))}"
    )
    pr.write(pr.attr_dict(op.attributes))


def _verify_branch(op: Operation) -> None:
    if op.name == "cf.br":
        groups = [(op.successors[0], op.operands)]
    else:
        groups = [(op.successors[0], segments(op, 1)), (op.successors[1], segments(op, 2))]
    for number, (block, args) in enumerate(groups):
        if len(block.arguments) != len(args):
            raise VerifyError(
                f"branch has {len(args)} operands for successor #{number}, but target block "
                f"has {len(block.arguments)}",
                op.loc,
                op=op,
            )
        for a, v in zip(block.arguments, args):
            if a.type != v.type:
                raise VerifyError(
                    f"type mismatch for bb argument #{a.index} of successor #{number}",
                    op.loc,
                    op=op,
                )


define("cf.br", parse=_parse_br, print=_print_br, verify=_verify_branch, traits=(TERMINATOR, PURE))
define(
    "cf.cond_br",
    parse=_parse_cond_br,
    print=_print_cond_br,
    verify=_verify_branch,
    properties=("operandSegmentSizes",),
    traits=(TERMINATOR, PURE),
)
