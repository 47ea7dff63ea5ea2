"""The ``scf`` dialect (for, if, while, yield, condition) and the ``ml_program`` dialect."""

from __future__ import annotations

from affine.attributes import UNIT, Attribute, StringAttr, SymbolRefAttr, TypeAttr
from affine.dialects.affine_dialect import _parse_assignment_list, ensure_terminator
from affine.dialects.common import create, op_error, string_value
from affine.dialects.func import (
    parse_function_like,
    parse_return_like,
    print_function_like,
    print_return_like,
    verify_function_like,
)
from affine.dialects.registry import (
    AUTOMATIC_ALLOCATION_SCOPE,
    FUNCTION,
    GRAPH_REGION,
    ISOLATED,
    PURE,
    SINGLE_BLOCK,
    TERMINATOR,
    define,
)
from affine.ir import Operation, Region
from affine.parser import Parser
from affine.printer import Printer
from affine.types import I1, INDEX, OpaqueType, Type

# -- scf.for --------------------------------------------------------------------------------------


def _parse_scf_for(p: Parser, offset: int) -> Operation:
    iv_name, iv_offset, _, _ = p.parse_argument()
    p.expect("=")
    lb = p.parse_operand()
    p.expect_op_keyword("to")
    ub = p.parse_operand()
    p.expect_op_keyword("step")
    step = p.parse_operand()
    pairs = []
    result_types: list[Type] = []
    if p.accept_keyword("iter_args"):
        pairs = _parse_assignment_list(p)
        result_types = p.parse_arrow_type_list()
        if len(result_types) != len(pairs):
            p.op_error("mismatch in number of loop-carried values and defined values", offset)
    iv_type: Type = INDEX
    if p.accept(":"):
        iv_type = p.parse_type()
    bounds = p.resolve_all([lb, ub, step], iv_type)
    inits = [p.resolve(o, t) for (_, _, o), t in zip(pairs, result_types)]
    args = [(iv_name, iv_offset, iv_type)] + [
        (n, o, t) for (n, o, _), t in zip(pairs, result_types)
    ]
    body = p.parse_region(args)
    if not result_types:
        ensure_terminator(body, "scf.yield", p, offset)
    attrs = p.parse_optional_attr_dict()
    return create(p, "scf.for", offset, bounds + inits, result_types, None, attrs, [body])


def _print_scf_for(pr: Printer, op: Operation) -> None:
    body = op.regions[0].blocks[0]
    lb, ub, step = op.operands[:3]
    pr.write(
        f" {pr.operand(body.arguments[0])} = {pr.operand(lb)} to {pr.operand(ub)} step {pr.operand(step)}"
    )
    inits = op.operands[3:]
    if inits:
        pairs = ", ".join(
            f"{pr.operand(a)} = {pr.operand(v)}" for a, v in zip(body.arguments[1:], inits)
        )
        pr.write(f" iter_args({pairs}) -> ({pr.type_list(v.type for v in inits)})")
    pr.write(" ")
    if body.arguments[0].type != INDEX:
        pr.write(f" : {pr.type(body.arguments[0].type)} ")
    pr.region(op.regions[0], False, bool(inits))
    pr.write(pr.attr_dict(op.attributes))


def _verify_scf_for(op: Operation) -> None:
    if len(op.operands) < 3:
        op_error(op, "expected lower bound, upper bound and step operands")
    body = op.regions[0].blocks[0]
    iv_type = op.operands[0].type
    if body.arguments[0].type != iv_type:
        op_error(op, "expected induction variable to be same type as bounds and step")
    inits = op.operands[3:]
    if len(inits) != len(op.results) or len(body.arguments) - 1 != len(op.results):
        op_error(op, "mismatch in number of loop-carried values and defined values")


define(
    "scf.for",
    parse=_parse_scf_for,
    print=_print_scf_for,
    verify=_verify_scf_for,
    traits=(AUTOMATIC_ALLOCATION_SCOPE,),
    implicit_terminator="scf.yield",
)


# -- scf.if -----------------------------------------------------------------------------------------


def _parse_scf_if(p: Parser, offset: int) -> Operation:
    cond = p.resolve(p.parse_operand(), I1)
    result_types = p.parse_optional_arrow_type_list()
    then_region = p.parse_region()
    if not result_types:
        ensure_terminator(then_region, "scf.yield", p, offset)
    else_region = Region()
    if p.accept_keyword("else"):
        else_region = p.parse_region()
        if not result_types:
            ensure_terminator(else_region, "scf.yield", p, offset)
    attrs = p.parse_optional_attr_dict()
    return create(
        p, "scf.if", offset, [cond], result_types, None, attrs, [then_region, else_region]
    )


def _print_scf_if(pr: Printer, op: Operation) -> None:
    pr.write(" " + pr.operand(op.operands[0]))
    if op.results:
        pr.write(f" -> ({pr.type_list(r.type for r in op.results)})")
    pr.write(" ")
    pr.region(op.regions[0], False, bool(op.results))
    if op.regions[1].blocks:
        pr.write(" else ")
        pr.region(op.regions[1], False, bool(op.results))
    pr.write(pr.attr_dict(op.attributes))


def _verify_scf_if(op: Operation) -> None:
    if op.results and not op.regions[1].blocks:
        op_error(op, "must have an else block if defining values")


define(
    "scf.if",
    parse=_parse_scf_if,
    print=_print_scf_if,
    verify=_verify_scf_if,
    implicit_terminator="scf.yield",
)


# -- scf.while / scf.condition / scf.yield -----------------------------------------------------------


def _parse_scf_while(p: Parser, offset: int) -> Operation:
    pairs = _parse_assignment_list(p) if p.at("(") else []
    p.expect(":")
    ftype = p.parse_function_type()
    if len(ftype.inputs) != len(pairs):
        p.op_error("expected as many input types as operands", offset)
    inits = [p.resolve(o, t) for (_, _, o), t in zip(pairs, ftype.inputs)]
    before = p.parse_region([(n, o, t) for (n, o, _), t in zip(pairs, ftype.inputs)])
    p.expect_op_keyword("do")
    after = p.parse_region()
    attrs = p.parse_optional_attr_dict_with_keyword()
    return create(p, "scf.while", offset, inits, ftype.results, None, attrs, [before, after])


def _print_scf_while(pr: Printer, op: Operation) -> None:
    before = op.regions[0].blocks[0]
    pairs = ", ".join(
        f"{pr.operand(a)} = {pr.operand(v)}" for a, v in zip(before.arguments, op.operands)
    )
    if pairs:  # mlir-opt prints no list for a loop without initial values
        pr.write(f" ({pairs})")
    pr.write(" : " + pr.functional_type(op) + " ")
    pr.region(op.regions[0], False, True)
    pr.write(" do ")
    pr.region(op.regions[1], True, True)
    pr.write(pr.attr_dict(op.attributes, keyword=True))


define("scf.while", parse=_parse_scf_while, print=_print_scf_while)


def _parse_condition(p: Parser, offset: int) -> Operation:
    p.expect("(")
    cond = p.resolve(p.parse_operand(), I1)
    p.expect(")")
    attrs = p.parse_optional_attr_dict()
    operands = p.parse_operand_list()
    values = []
    if operands:
        values = p.resolve_all(operands, p.parse_colon_type_list())
    return create(p, "scf.condition", offset, [cond] + values, [], None, attrs)


def _print_condition(pr: Printer, op: Operation) -> None:
    pr.write(f"({pr.operand(op.operands[0])})" + pr.attr_dict(op.attributes))
    if len(op.operands) > 1:
        rest = op.operands[1:]
        pr.write(" " + pr.operands(rest) + " : " + pr.type_list(v.type for v in rest))


define("scf.condition", parse=_parse_condition, print=_print_condition, traits=(TERMINATOR, PURE))


def _verify_scf_yield(op: Operation) -> None:
    parent = op.parent_op
    if parent is None or not parent.name.startswith("scf."):
        op_error(
            op,
            "expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'",
        )
    if parent.name in ("scf.for", "scf.if") and len(parent.results) != len(op.operands):
        op_error(op, f"expects {len(parent.results)} operands to match the parent op results")


define(
    "scf.yield",
    parse=lambda p, o: parse_return_like(p, o, "scf.yield"),
    print=print_return_like,
    verify=_verify_scf_yield,
    traits=(TERMINATOR, PURE),
)


# -- ml_program --------------------------------------------------------------------------------------


def _parse_global(p: Parser, offset: int) -> Operation:
    props: dict[str, Attribute] = {}
    if not (p.kind == "id" and p.tok in ("private", "public", "nested")):
        p.op_error("expected 'public', 'private', or 'nested'")
    props["sym_visibility"] = StringAttr(p.tok)
    p.advance()
    if p.accept_keyword("mutable"):
        props["is_mutable"] = UNIT
    if not p.at("@"):
        p.op_error("expected valid '@'-identifier for symbol name")
    props["sym_name"] = StringAttr(p._parse_symbol_ref().root)
    if p.accept("("):
        props["value"] = p.parse_attribute()
        p.expect(")")
    props["type"] = TypeAttr(p.parse_colon_type())
    attrs = p.parse_optional_attr_dict()
    return create(p, "ml_program.global", offset, properties=props, attributes=attrs)


def _print_global(pr: Printer, op: Operation) -> None:
    pr.write(" " + (string_value(op, "sym_visibility") or "public") + " ")
    if "is_mutable" in op.properties:
        pr.write("mutable ")
    pr.write(pr.attr(SymbolRefAttr(string_value(op, "sym_name") or "")))
    if "value" in op.properties:
        pr.write("(" + pr.attr(op.properties["value"]) + ")")
    pr.write(" : " + pr.type(op.properties["type"].value))  # type: ignore[attr-defined]
    pr.write(pr.attr_dict(op.attributes))


def _verify_global(op: Operation) -> None:
    if "is_mutable" not in op.properties and "value" not in op.properties:
        op_error(op, "immutable global must have an initial value")


define(
    "ml_program.global",
    parse=_parse_global,
    print=_print_global,
    verify=_verify_global,
    properties=("sym_name", "sym_visibility", "type", "is_mutable", "value"),
)

TOKEN = OpaqueType("!ml_program.token")


def _parse_ordering(p: Parser) -> tuple[list, Type | None]:
    if not p.accept_keyword("ordering"):
        return [], None
    p.expect("(")
    tokens = []
    if p.accept("("):
        p.expect(")")
    else:
        tokens = p.parse_operand_list()
    p.expect("->")
    token_type = p.parse_type()
    p.expect(")")
    return tokens, token_type


def _print_ordering(pr: Printer, tokens: list, produce: Type | None) -> str:
    if produce is None:
        return ""
    inner = pr.operands(tokens) if tokens else "()"
    return f" ordering({inner} -> {pr.type(produce)})"


def _define_global_load(name: str, graph: bool) -> None:
    def parse(p: Parser, offset: int) -> Operation:
        symbol = p._parse_symbol_ref()
        tokens, token_type = _parse_ordering(p) if graph else ([], None)
        t = p.parse_colon_type()
        attrs = p.parse_optional_attr_dict()
        results = [t] + ([token_type] if token_type is not None else [])
        values = p.resolve_all(tokens, TOKEN)
        return create(p, name, offset, values, results, {"global": symbol}, attrs)

    def print_(pr: Printer, op: Operation) -> None:
        pr.write(" " + pr.attr(op.properties["global"]))
        if graph:
            pr.write(_print_ordering(pr, op.operands, op.results[1].type))
        pr.write(" : " + pr.type(op.results[0].type) + pr.attr_dict(op.attributes))

    def names(op: Operation) -> list[str | None]:
        if graph:
            return ["result", "produceToken"]
        sym = op.properties.get("global")
        return [sym.leaf if isinstance(sym, SymbolRefAttr) else None]

    define(name, parse=parse, print=print_, properties=("global",), result_names=names)


_define_global_load("ml_program.global_load", False)
_define_global_load("ml_program.global_load_const", False)
_define_global_load("ml_program.global_load_graph", True)


def _define_global_store(name: str, graph: bool) -> None:
    def parse(p: Parser, offset: int) -> Operation:
        symbol = p._parse_symbol_ref()
        p.expect("=")
        value = p.parse_operand()
        tokens, token_type = _parse_ordering(p) if graph else ([], None)
        t = p.parse_colon_type()
        attrs = p.parse_optional_attr_dict()
        values = [p.resolve(value, t)] + p.resolve_all(tokens, TOKEN)
        results = [token_type] if token_type is not None else []
        return create(p, name, offset, values, results, {"global": symbol}, attrs)

    def print_(pr: Printer, op: Operation) -> None:
        pr.write(" " + pr.attr(op.properties["global"]) + " = " + pr.operand(op.operands[0]))
        if graph:
            pr.write(_print_ordering(pr, op.operands[1:], op.results[0].type))
        pr.write(" : " + pr.type(op.operands[0].type) + pr.attr_dict(op.attributes))

    define(name, parse=parse, print=print_, properties=("global",))


_define_global_store("ml_program.global_store", False)
_define_global_store("ml_program.global_store_graph", True)

define(
    "ml_program.func",
    parse=lambda p, o: parse_function_like(p, o, "ml_program.func", None),
    print=print_function_like,
    verify=verify_function_like,
    properties=("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"),
    traits=(ISOLATED, FUNCTION),
)
define(
    "ml_program.subgraph",
    parse=lambda p, o: parse_function_like(p, o, "ml_program.subgraph", None),
    print=print_function_like,
    verify=verify_function_like,
    properties=("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"),
    traits=(ISOLATED, FUNCTION, GRAPH_REGION, SINGLE_BLOCK),
)
for _name in ("ml_program.return", "ml_program.output"):
    define(
        _name,
        parse=lambda p, o, n=_name: parse_return_like(p, o, n),
        print=print_return_like,
        traits=(TERMINATOR, PURE),
    )


def _parse_token(p: Parser, offset: int) -> Operation:
    attrs = p.parse_optional_attr_dict()
    return create(p, "ml_program.token", offset, [], [TOKEN], None, attrs)


define(
    "ml_program.token",
    parse=_parse_token,
    print=lambda pr, op: pr.write(pr.attr_dict(op.attributes)),
    traits=(PURE,),
)
