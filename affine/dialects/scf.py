"""The ``scf`` dialect (for, if, while, yield, condition) and the ``ml_program`` dialect."""

from __future__ import annotations

from affine.dialects.affine_dialect import (
    _parse_assignment_list,
    ensure_terminator,
    parse_index_arguments,
    parse_optional_iter_args,
    parse_then_else,
    print_then_else,
    verify_then_else,
)
from affine.dialects.common import (
    create,
    op_error,
    segment_sizes,
    segments,
    string_value,
    verify_types_match,
)
from affine.dialects.format import VARIADIC, Group, define_format, define_return_like
from affine.dialects.func import (
    parse_function_like,
    print_function_like,
    verify_function_like,
)
from affine.ir.attributes import (
    UNIT,
    Attribute,
    DenseArrayAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
)
from affine.ir.core import Operation
from affine.ir.registry import (
    AUTOMATIC_ALLOCATION_SCOPE,
    FUNCTION,
    GRAPH_REGION,
    ISOLATED,
    PURE,
    SINGLE_BLOCK,
    TERMINATOR,
    define,
)
from affine.ir.types import (
    I1,
    I64,
    INDEX,
    FunctionType,
    IndexType,
    IntegerType,
    OpaqueType,
    Type,
)
from affine.syntax.parser import Parser
from affine.syntax.printer import Printer

# -- control flow between regions (MLIR's RegionBranchOpInterface checks) ------------------------


def check_edge(op: Operation, source: Operation, target: str, values: list, inputs: list) -> None:
    """The values passed along one control-flow edge, from ``op`` itself or a terminator in
    it, match the inputs of its target, in count then types (``target`` in mlir-opt's
    words: ``parent``, ``Region #1``); the error notes the edge's source."""
    where = "parent" if source is op else f"Operation {source.name}"
    edge = f"along control flow edge from {where} to {target}"
    verify_types_match(
        op,
        values,
        inputs,
        f"{edge}: region branch point has {len(values)} operands, but region successor "
        f"needs {len(inputs)} inputs",
        lambda i, have, want: (
            f"{edge}: successor operand type #{i} '{have}' should match "
            f"successor input type #{i} '{want}'"
        ),
        notes=[("region branch point", source.loc)],
    )


def _verify_yields_to_results(op: Operation) -> None:
    """Each region's ``scf.yield`` passes the op's results (scf.if, execute_region,
    index_switch), checked after the nested ops."""
    results = [r.type for r in op.results]
    for region in op.regions:
        terminator = region.blocks[0].terminator if region.blocks else None
        if terminator is not None and terminator.name == "scf.yield":
            check_edge(op, terminator, "parent", terminator.operands, results)


# -- scf.for --------------------------------------------------------------------------------------


def _parse_scf_for(p: Parser, offset: int) -> Operation:
    iv_name, iv_offset, _, _ = p.parse_argument()
    p.expect("=")
    lb = p.parse_operand()
    p.expect_op_keyword("to")
    ub = p.parse_operand()
    p.expect_op_keyword("step")
    step = p.parse_operand()
    pairs, result_types = parse_optional_iter_args(
        p, offset, "mismatch in number of loop-carried values and defined values"
    )
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


def _signless_or_index(t: Type) -> bool:
    return isinstance(t, IndexType) or (isinstance(t, IntegerType) and not t.signedness)


def _verify_scf_for(op: Operation) -> None:
    """mlir-opt's order: bound types, the one-block body, counts, then the loop-carried
    types (``LoopLikeOpInterface``)."""
    for i, v in enumerate(op.operands[:3]):
        if not _signless_or_index(v.type):
            op_error(op, f"operand #{i} must be signless integer or index, but got '{v.type}'")
    if len(op.regions[0].blocks) != 1:
        op_error(op, "region #0 ('region') failed to verify constraint: region with 1 blocks")
    inits = op.operands[3:]
    if len(inits) != len(op.results):
        op_error(op, "mismatch in number of loop-carried values and defined values")
    body = op.regions[0].blocks[0]
    if not body.arguments or body.arguments[0].type != op.operands[0].type:
        op_error(op, "expected induction variable to be same type as bounds and step")
    iter_args = body.arguments[1:]
    if len(iter_args) != len(op.results):
        op_error(op, "mismatch in number of basic block args and defined values")
    terminator = body.terminator
    yielded = terminator.operands if terminator is not None else []
    if yielded and len(yielded) != len(iter_args):
        op_error(
            op,
            f"different number of region iter_args and yielded values: {len(iter_args)} != "
            f"{len(yielded)}",
        )
    for i, (init, arg) in enumerate(zip(inits, iter_args)):
        if init.type != arg.type:
            op_error(
                op,
                f"{i}-th init and {i}-th region iter_arg have different type: "
                f"'{init.type}' != '{arg.type}'",
            )
        if yielded and arg.type != yielded[i].type:
            op_error(
                op,
                f"{i}-th region iter_arg and {i}-th yielded value have different type: "
                f"'{arg.type}' != '{yielded[i].type}'",
            )
    for i, (arg, result) in enumerate(zip(iter_args, op.results)):
        if arg.type != result.type:
            op_error(
                op,
                f"{i}-th region iter_arg and {i}-th loop result have different type: "
                f"'{arg.type}' != '{result.type}'",
            )


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
    result_types, then_region, else_region = parse_then_else(p, offset, "scf.yield")
    attrs = p.parse_optional_attr_dict()
    return create(
        p, "scf.if", offset, [cond], result_types, None, attrs, [then_region, else_region]
    )


def _print_scf_if(pr: Printer, op: Operation) -> None:
    pr.write(" " + pr.operand(op.operands[0]))
    if op.results:
        pr.write(f" -> ({pr.type_list(r.type for r in op.results)})")
    print_then_else(pr, op)
    pr.write(pr.attr_dict(op.attributes))


def _verify_scf_if(op: Operation) -> None:
    cond = op.operands[0].type
    if cond != I1:
        op_error(op, f"operand #0 must be 1-bit signless integer, but got '{cond}'")
    verify_then_else(op)


define(
    "scf.if",
    parse=_parse_scf_if,
    print=_print_scf_if,
    verify=_verify_scf_if,
    verify_regions=_verify_yields_to_results,
    implicit_terminator="scf.yield",
)


# -- scf.while / scf.condition / scf.yield -----------------------------------------------------------


def _parse_scf_while(p: Parser, offset: int) -> Operation:
    pairs = _parse_assignment_list(p) if p.at("(") else []
    type_offset = p.start
    ftype = p.parse_colon_type_of(FunctionType, "builtin.function", at_colon=True)
    if len(ftype.inputs) != len(pairs):
        p.op_error(
            f"expected as many input types as operands (expected {len(pairs)} got "
            f"{len(ftype.inputs)})",
            type_offset,
        )
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


def _verify_scf_while(op: Operation) -> None:
    for region, name, terminator in ((0, "before", "scf.condition"), (1, "after", "scf.yield")):
        block = op.regions[region].blocks[0]  # one block: checked before
        if block.terminator is None or block.terminator.name != terminator:
            op_error(
                op,
                f"expects the '{name}' region to terminate with '{terminator}'",
                [] if block.terminator is None else [("terminator here", block.terminator.loc)],
            )


def _verify_while_edges(op: Operation) -> None:
    """Initial values enter the 'before' region; scf.condition forwards to the results and
    to the 'after' region (in mlir-opt's order); scf.yield goes back to the 'before' region."""
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    before_inputs = [a.type for a in before.arguments]
    check_edge(op, op, "Region #0", op.operands, before_inputs)
    condition = before.terminator
    assert condition is not None
    forwarded = condition.operands[1:]
    check_edge(op, condition, "parent", forwarded, [r.type for r in op.results])
    check_edge(op, condition, "Region #1", forwarded, [a.type for a in after.arguments])
    assert after.terminator is not None
    check_edge(op, after.terminator, "Region #0", after.terminator.operands, before_inputs)


define(
    "scf.while",
    parse=_parse_scf_while,
    print=_print_scf_while,
    verify=_verify_scf_while,
    verify_regions=_verify_while_edges,
    traits=(SINGLE_BLOCK,),
)


define_format(
    "scf.condition",
    "`(` $condition `)` attr-dict ($args^ `:` type($args))?",
    operands=[Group("condition", type=I1), Group("args", VARIADIC)],
    traits=(TERMINATOR, PURE),
)


define_return_like(
    "scf.yield",
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
    pr.write(" : " + pr.type(op.properties["type"].value))  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
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
    define_return_like(_name, traits=(TERMINATOR, PURE))


def _parse_token(p: Parser, offset: int) -> Operation:
    attrs = p.parse_optional_attr_dict()
    return create(p, "ml_program.token", offset, [], [TOKEN], None, attrs)


define(
    "ml_program.token",
    parse=_parse_token,
    print=lambda pr, op: pr.write(pr.attr_dict(op.attributes)),
    traits=(PURE,),
)


# -- scf.parallel / scf.reduce / scf.reduce.return -------------------------------------------------


def _parse_paren_operands(p: Parser) -> list:
    return p.parse_operand_list("(", " in operand list")


def _parse_bound_list(p: Parser, count: int) -> list:
    """``(%a, %b)`` holding exactly one operand per induction variable."""
    start = p.start
    operands = _parse_paren_operands(p)
    if len(operands) != count:
        p.op_error(f"expected {count} operands", start)
    return operands


def _parse_scf_parallel(p: Parser, offset: int) -> Operation:
    ivs = parse_index_arguments(p, " in argument list")
    p.expect("=")
    lbs = _parse_bound_list(p, len(ivs))
    p.expect_op_keyword("to")
    ubs = _parse_bound_list(p, len(ivs))
    p.expect_op_keyword("step")
    steps = _parse_bound_list(p, len(ivs))
    inits = _parse_paren_operands(p) if p.accept_keyword("init") else []
    result_types = p.parse_optional_arrow_type_list()
    if len(result_types) != len(inits):
        p.op_error(
            f"number of operands and types do not match: got {len(inits)} operands and "
            f"{len(result_types)} types",
            offset,
        )
    values = p.resolve_all(lbs + ubs + steps, INDEX) + [
        p.resolve(o, t) for o, t in zip(inits, result_types)
    ]
    body = p.parse_region(ivs)
    ensure_terminator(body, "scf.reduce", p, offset)
    attrs = p.parse_optional_attr_dict()
    props = {"operandSegmentSizes": segment_sizes(len(lbs), len(ubs), len(steps), len(inits))}
    return create(p, "scf.parallel", offset, values, result_types, props, attrs, [body])


def _print_scf_parallel(pr: Printer, op: Operation) -> None:
    ivs = op.regions[0].blocks[0].arguments
    pr.write(f" ({pr.operands(ivs)}) = ({pr.operands(segments(op, 0))})")
    pr.write(f" to ({pr.operands(segments(op, 1))}) step ({pr.operands(segments(op, 2))})")
    inits = segments(op, 3)
    if inits:
        pr.write(f" init ({pr.operands(inits)}) -> ({pr.type_list(r.type for r in op.results)})")
    pr.write(" ")
    pr.region(op.regions[0], False, True)
    pr.write(pr.attr_dict(op.attributes, ("operandSegmentSizes",)))


def _verify_scf_parallel(op: Operation) -> None:
    steps = segments(op, 2)
    if not steps:
        op_error(op, "needs at least one tuple element for lowerBound, upperBound and step")
    for step in steps:
        owner = step.owner_op
        if owner is not None and owner.name == "arith.constant":
            value = owner.properties.get("value")
            if getattr(value, "value", 1) <= 0:
                op_error(op, "constant step operand must be positive")
    body = op.regions[0].blocks[0]
    if len(body.arguments) != len(steps):
        op_error(
            op,
            f"expects the same number of induction variables: {len(body.arguments)} as bound "
            f"and step values: {len(steps)}",
        )
    if any(a.type != INDEX for a in body.arguments):
        op_error(op, "expects arguments for the induction variable to be of index type")
    terminator = body.operations[-1] if body.operations else None
    if terminator is None or terminator.name != "scf.reduce":
        op_error(
            op,
            "expects body to terminate with 'scf.reduce'",
            [] if terminator is None else [("terminator here", terminator.loc)],
        )
    reductions = len(terminator.regions)
    if len(op.results) != reductions:
        op_error(
            op,
            f"expects number of results: {len(op.results)} to be the same as number of "
            f"reductions: {reductions}",
        )
    inits = segments(op, 3)
    if len(op.results) != len(inits):
        op_error(
            op,
            f"expects number of results: {len(op.results)} to be the same as number of "
            f"initial values: {len(inits)}",
        )
    for i, (r, v) in enumerate(zip(op.results, terminator.operands)):
        if r.type != v.type:
            op_error(
                terminator,
                f"expects type of {i}-th reduction operand: '{v.type}' to be the same as the "
                f"{i}-th result type: '{r.type}'",
            )


define(
    "scf.parallel",
    parse=_parse_scf_parallel,
    print=_print_scf_parallel,
    verify=_verify_scf_parallel,
    properties=("operandSegmentSizes",),
    traits=(AUTOMATIC_ALLOCATION_SCOPE,),
)


def _parse_scf_reduce(p: Parser, offset: int) -> Operation:
    operands = []
    types: list[Type] = []
    if p.accept("("):
        operands = p.parse_operand_list()
        types = p.parse_colon_type_list()
        p.expect(")")
    values = p.resolve_all(operands, types) if len(types) == len(operands) else []
    if len(types) != len(operands):
        p.op_error(f"{len(operands)} operands present, but expected {len(types)}", offset)
    regions = []
    if p.at("{"):
        while True:
            regions.append(p.parse_region())
            if not p.accept(","):
                break
    attrs = p.parse_optional_attr_dict()
    return create(p, "scf.reduce", offset, values, [], None, attrs, regions)


def _print_scf_reduce(pr: Printer, op: Operation) -> None:
    if op.operands:
        pr.write(f"({pr.operands(op.operands)} : {pr.type_list(v.type for v in op.operands)})")
    pr.write(" ")
    for i, region in enumerate(op.regions):
        if i:
            pr.write(", ")
        pr.region(region, True, True)
    pr.write(pr.attr_dict(op.attributes))


def _verify_scf_reduce(op: Operation) -> None:
    parent = op.parent_op
    assert parent is not None  # checked before (affine.dialects.arity)
    if len(op.regions) != len(op.operands):
        op_error(
            op,
            f"expects number of regions: {len(op.regions)} to be the same as number of "
            f"operands: {len(op.operands)}",
        )


def _verify_reductions(op: Operation) -> None:
    """Each reduction body (checked after its own ops, as mlir-opt's ``verifyRegions``)."""
    for i, (v, region) in enumerate(zip(op.operands, op.regions)):
        block = region.blocks[0] if region.blocks else None
        if block is None or not block.operations:
            op_error(op, f"{i}-th reduction has an empty body")
        if len(block.arguments) != 2 or any(a.type != v.type for a in block.arguments):
            op_error(
                op,
                f"expected two block arguments with type '{v.type}' in the {i}-th reduction region",
            )
        if block.operations[-1].name != "scf.reduce.return":
            op_error(op, "reduction bodies must be terminated with an 'scf.reduce.return' op")


define(
    "scf.reduce",
    parse=_parse_scf_reduce,
    print=_print_scf_reduce,
    verify=_verify_scf_reduce,
    verify_regions=_verify_reductions,
    traits=(TERMINATOR,),
)


def _verify_reduce_return(op: Operation) -> None:
    block = op.parent
    parent = op.parent_op
    assert parent is not None  # checked before (affine.dialects.arity)
    if len(op.operands) != 1:
        op_error(op, f"expected 1 operand, but found {len(op.operands)}")
    expected = block.arguments[0].type if block is not None and block.arguments else None
    if op.operands[0].type != expected:
        op_error(op, f"must have type '{expected}' (the type of the reduction inputs)")


define_return_like(
    "scf.reduce.return",
    verify=_verify_reduce_return,
    traits=(TERMINATOR, PURE),
)


# -- scf.execute_region / scf.index_switch ----------------------------------------------------------


def _parse_execute_region(p: Parser, offset: int) -> Operation:
    result_types = p.parse_optional_arrow_type_list()
    props: dict[str, Attribute] = {}
    if p.accept_keyword("no_inline"):
        props["no_inline"] = UNIT
    body = p.parse_region()
    attrs = p.parse_optional_attr_dict_with_keyword()
    if not attrs:
        attrs = p.parse_optional_attr_dict()
    return create(p, "scf.execute_region", offset, [], result_types, props, attrs, [body])


def _print_execute_region(pr: Printer, op: Operation) -> None:
    if op.results:
        pr.write(" -> ")
        if len(op.results) == 1:
            pr.write(pr.type(op.results[0].type))
        else:
            pr.write(f"({pr.type_list(r.type for r in op.results)})")
    if "no_inline" in op.properties:
        pr.write(" no_inline")
    pr.write(" ")
    pr.region(op.regions[0], False, True)
    pr.write(pr.attr_dict(op.attributes, keyword=True))


def _verify_execute_region(op: Operation) -> None:
    region = op.regions[0]
    if not region.blocks:
        op_error(op, "region needs to have at least one block")
    if region.blocks[0].arguments:
        op_error(op, "region cannot have any arguments")


define(
    "scf.execute_region",
    parse=_parse_execute_region,
    print=_print_execute_region,
    verify=_verify_execute_region,
    verify_regions=_verify_yields_to_results,
    properties=("no_inline",),
)


def _parse_index_switch(p: Parser, offset: int) -> Operation:
    arg = p.resolve(p.parse_operand(), INDEX)
    attrs = p.parse_optional_attr_dict()
    result_types = p.parse_optional_arrow_type_list()
    cases: list[int] = []
    case_regions = []
    while p.accept_keyword("case"):
        cases.append(p.parse_op_integer())
        case_regions.append(p.parse_region())
    p.expect_op_keyword("default")
    default = p.parse_region()
    for region in [default, *case_regions]:
        if not result_types:
            ensure_terminator(region, "scf.yield", p, offset)
    props = {"cases": DenseArrayAttr(I64, cases)}
    return create(
        p, "scf.index_switch", offset, [arg], result_types, props, attrs, [default, *case_regions]
    )


def _print_index_switch(pr: Printer, op: Operation) -> None:
    pr.write(" " + pr.operand(op.operands[0]) + pr.attr_dict(op.attributes, ("cases",)))
    if op.results:
        pr.write(f" -> {pr.type_list(r.type for r in op.results)}")
    pr.write(" ")
    cases = op.properties["cases"].values  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    for value, region in zip(cases, op.regions[1:]):
        pr.write("\n" + " " * pr.indent + f"case {value} ")
        pr.region(region, False, True)
    pr.write("\n" + " " * pr.indent + "default ")
    default = op.regions[0]
    terminator = default.blocks[0].operations[-1] if default.blocks else None
    print_terminator = terminator is not None and bool(terminator.operands or terminator.attributes)
    pr.region(default, True, print_terminator)


def _verify_index_switch(op: Operation) -> None:
    cases = list(op.properties["cases"].values)  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    if len(cases) != len(op.regions) - 1:
        op_error(
            op,
            f"has {len(op.regions) - 1} case regions but {len(cases)} case values",
        )
    seen: set[int] = set()
    for value in cases:
        if value in seen:
            op_error(op, f"has duplicate case value: {value}")
        seen.add(value)


define(
    "scf.index_switch",
    parse=_parse_index_switch,
    print=_print_index_switch,
    verify=_verify_index_switch,
    properties=("cases",),
)
