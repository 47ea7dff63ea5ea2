"""The ``affine`` dialect: custom syntax, verifiers and the dimension/symbol rules.

Which SSA values may be bound to an affine dimension or symbol follows MLIR
(mlir/lib/Dialect/Affine/IR/AffineOps.cpp, ``isValidDim``/``isValidSymbol``) and the seed
specification ("Dimensions and Symbols"): symbols are values defined at the top of an
affine scope (a function body), constants, results of pure ops on symbols, and ``dim`` of
suitable memrefs; dimensions may also be induction variables of ``affine.for`` /
``affine.parallel`` and ``affine.apply`` results of dimensions.
"""

from __future__ import annotations

from functools import partial

from affine.dialects.common import (
    AttrValue,
    DmaStartView,
    OpView,
    create,
    memref_at,
    op_error,
    parse_dma_start,
    parse_dynamic_index_list,
    parse_prefetch_tail,
    prefetch_flags,
    print_dma_start_tail,
    print_dynamic_index_list,
    print_prefetch,
    segment_sizes,
    segments,
)
from affine.dialects.format import define_return_like
from affine.ir.attributes import (
    UNIT,
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    IntegerAttr,
    IntegerSetAttr,
    StringAttr,
    UnitAttr,
)
from affine.ir.core import Block, BlockArgument, Operation, Region, Value
from affine.ir.diagnostics import VerifyError
from affine.ir.registry import (
    AFFINE_SCOPE,
    AUTOMATIC_ALLOCATION_SCOPE,
    CONSTANT,
    ISOLATED,
    PROPERTIES_IN_ATTRIBUTE_LIST,
    PURE,
    TERMINATOR,
    define,
    lookup,
)
from affine.ir.types import (
    DYNAMIC,
    I1,
    I32,
    I64,
    INDEX,
    NONE,
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
    Type,
    VectorType,
)
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr, constant, dim, symbol
from affine.math.integer_set import IntegerSet
from affine.syntax.parser import Parser
from affine.syntax.printer import Printer

# -- dimension and symbol validity ---------------------------------------------------------------


def affine_scope(op: Operation) -> Region | None:
    """The region of the closest enclosing affine-scope op (a function body) holding ``op``."""
    current = op
    while True:
        block = current.parent
        if block is None or block.parent is None:
            return None
        parent = block.parent.parent
        if parent is None:
            return None
        d = lookup(parent.name)
        if d is not None and d.has(AFFINE_SCOPE):
            return block.parent
        current = parent


def _parent_region(value: Value) -> Region | None:
    block = value.parent_block
    return block.parent if block is not None else None


def is_top_level_value(value: Value, region: Region | None = None) -> bool:
    """Defined at the top of ``region`` (or, without a region, at the top of an affine scope)."""
    if region is not None:
        return _parent_region(value) is region
    owner_region = _parent_region(value)
    if owner_region is None or owner_region.parent is None:
        return False
    d = lookup(owner_region.parent.name)
    return d is not None and d.has(AFFINE_SCOPE)


def is_affine_induction_var(value: Value) -> bool:
    if not isinstance(value, BlockArgument):
        return False
    op = value.owner.parent_op
    if op is None:
        return False
    if op.name == "affine.for":
        return value.index == 0 and value.owner is op.regions[0].blocks[0]
    if op.name == "affine.parallel":
        return value.owner is op.regions[0].blocks[0]
    return False


def _is_constant_op(op: Operation) -> bool:
    d = lookup(op.name)
    return d is not None and d.has(CONSTANT)


def _is_pure(op: Operation) -> bool:
    d = lookup(op.name)
    return d is not None and d.has(PURE) and not op.regions


def _is_dim_op(op: Operation) -> bool:
    return op.name in ("memref.dim", "tensor.dim")


def _constant_int(value: Value) -> int | None:
    op = value.owner_op
    if op is not None and _is_constant_op(op):
        attr = op.properties.get("value")
        if isinstance(attr, IntegerAttr):
            return attr.value
    return None


def _is_dim_op_valid_symbol(op: Operation, region: Region | None) -> bool:
    shaped = op.operands[0]
    if is_top_level_value(shaped):
        return True
    if isinstance(shaped, BlockArgument):
        return False
    index = _constant_int(op.operands[1]) if len(op.operands) > 1 else None
    if index is None:
        return False
    definer = shaped.owner_op
    while definer is not None and definer.name == "memref.cast":
        source = definer.operands[0]
        if not isinstance(source.type, MemRefType):
            return False
        definer = source.owner_op
    if definer is None or definer.name not in (
        "memref.alloc",
        "memref.alloca",
        "memref.view",
        "memref.subview",
    ):
        return False
    memref_type = definer.results[0].type
    if not isinstance(memref_type, MemRefType) or index >= len(memref_type.shape):
        return False
    if not memref_type.is_dynamic_dim(index):
        return True
    # The size operand of the dynamic dimension (counted among the result type's dynamic
    # dimensions, as MLIR does even for rank-reducing subviews).
    position = sum(1 for d in memref_type.shape[:index] if d < 0)
    if definer.name in ("memref.alloc", "memref.alloca"):
        sizes = segments(definer, 0)
    elif definer.name == "memref.subview":
        sizes = segments(definer, 2)
    else:  # memref.view: source, byte shift, sizes
        sizes = definer.operands[2:]
    return position < len(sizes) and is_valid_symbol(sizes[position], region)


def is_valid_symbol(value: Value, region: Region | None = None) -> bool:
    """May ``value`` be bound to an affine symbol in ``region``?  (MLIR's isValidSymbol)"""
    if not isinstance(value.type, IndexType):
        return False
    if region is None:
        if is_top_level_value(value):
            return True
        definer = value.owner_op
        if definer is None:
            return False
        return is_valid_symbol(value, affine_scope(definer))
    if is_top_level_value(value, region):
        return True
    definer = value.owner_op
    parent_op = region.parent
    if definer is None:
        if parent_op is not None and not _has_trait(parent_op, ISOLATED):
            outer = parent_op.parent.parent if parent_op.parent is not None else None
            if outer is not None:
                return is_valid_symbol(value, outer)
        return False
    if _is_constant_op(definer):
        return True
    if _is_pure(definer) and all(is_valid_symbol(o, region) for o in definer.operands):
        return True
    if _is_dim_op(definer):
        return _is_dim_op_valid_symbol(definer, region)
    if parent_op is not None and not _has_trait(parent_op, ISOLATED):
        outer = parent_op.parent.parent if parent_op.parent is not None else None
        if outer is not None:
            return is_valid_symbol(value, outer)
    return False


def is_valid_dim(value: Value, region: Region | None = None) -> bool:
    """May ``value`` be bound to an affine dimension in ``region``?  (MLIR's isValidDim)"""
    if not isinstance(value.type, IndexType):
        return False
    if region is None:
        definer = value.owner_op
        if definer is not None:
            return is_valid_dim(value, affine_scope(definer))
        if is_affine_induction_var(value):
            return True
        block = value.parent_block  # of a block argument: its definer is None
        parent = block.parent_op if block is not None else None
        return parent is not None and _has_trait(parent, AFFINE_SCOPE)
    if is_valid_symbol(value, region):
        return True
    definer = value.owner_op
    if definer is None:
        return is_affine_induction_var(value)
    if definer.name == "affine.apply":
        return all(is_valid_dim(o, region) for o in definer.operands)
    if definer.name in ("affine.delinearize_index", "affine.linearize_index"):
        return all(is_valid_dim(o, region) for o in definer.operands)
    if _is_dim_op(definer):
        return is_top_level_value(definer.operands[0])
    return False


def _has_trait(op: Operation, trait: str) -> bool:
    d = lookup(op.name)
    return d is not None and d.has(trait)


def verify_dims_and_symbols(op: Operation, operands: list[Value], num_dims: int) -> None:
    scope = affine_scope(op)
    for i, v in enumerate(operands):
        if i < num_dims:
            if not is_valid_dim(v, scope):
                op_error(op, "operand cannot be used as a dimension id")
        elif not is_valid_symbol(v, scope):
            op_error(op, "operand cannot be used as a symbol")


# -- shared syntax pieces ---------------------------------------------------------------------------


def _map(op: Operation, name: str = "map") -> AffineMap:
    attr = op.get_attr(name)
    if not isinstance(attr, AffineMapAttr):
        op_error(op, f"requires attribute '{name}'")
    return attr.value


def _resolve_index(p: Parser, operands) -> list[Value]:
    return p.resolve_all(operands, INDEX)


def _parse_map_with_dim_symbol_list(p: Parser, offset: int) -> tuple[AffineMap, list[Value]]:
    m = p.parse_affine_map_attr()
    operands, num_dims = p.parse_dim_and_symbol_list()
    if m.num_dims != num_dims or num_dims + m.num_symbols != len(operands):
        p.op_error("dimension or symbol index mismatch", offset)
    return m, _resolve_index(p, operands)


# -- affine.apply / affine.min / affine.max ----------------------------------------------------


def _make_map_op_parser(name: str, single_result: bool):
    def parse(p: Parser, offset: int) -> Operation:
        m = p.parse_affine_map_attr()
        operands, num_dims = p.parse_dim_and_symbol_list()
        attrs = p.parse_optional_attr_dict()
        if single_result and (m.num_dims != num_dims or num_dims + m.num_symbols != len(operands)):
            p.op_error("dimension or symbol index mismatch", offset)
        values = _resolve_index(p, operands)
        n_results = m.num_results if single_result else 1
        return create(
            p, name, offset, values, [INDEX] * n_results, {"map": AffineMapAttr(m)}, attrs
        )

    return parse


def _print_map_op(pr: Printer, op: Operation) -> None:
    m = _map(op)
    pr.write(" " + pr.attr(op.properties["map"]) + pr.dim_and_symbol_list(op.operands, m.num_dims))
    pr.write(pr.attr_dict(op.attributes, ("map",)))


def _verify_index_operands_and_results(op: Operation) -> None:
    """ODS's type constraints of ``Variadic<Index>`` operands and ``Index`` results."""
    for i, v in enumerate(op.operands):
        if not isinstance(v.type, IndexType):
            op_error(op, f"operand #{i} must be variadic of index, but got '{v.type}'")
    for i, r in enumerate(op.results):
        if not isinstance(r.type, IndexType):
            op_error(op, f"result #{i} must be index, but got '{r.type}'")


def _verify_apply(op: Operation) -> None:
    _verify_index_operands_and_results(op)
    m = _map(op)
    if len(op.operands) != m.num_inputs:
        op_error(op, "operand count and affine map dimension and symbol count must match")
    if m.num_results != 1:
        op_error(op, "mapping must produce one value")
    scope = affine_scope(op)
    for v in op.operands[m.num_dims :]:
        if is_valid_dim(v, scope) and not is_valid_symbol(v, scope):
            raise _located(op, "dimensional operand cannot be used as a symbol")


def _located(op: Operation, message: str):
    return VerifyError(message, op.loc, op=op)


def _verify_min_max(op: Operation) -> None:
    _verify_index_operands_and_results(op)
    m = _map(op)
    if len(op.operands) != m.num_inputs:
        op_error(op, "operand count and affine map dimension and symbol count must match")
    if m.num_results == 0:
        op_error(op, "affine map expect at least one result")


define(
    "affine.apply",
    parse=_make_map_op_parser("affine.apply", True),
    print=_print_map_op,
    verify=_verify_apply,
    properties=("map",),
    traits=(PURE, PROPERTIES_IN_ATTRIBUTE_LIST),
)
for _kind in ("min", "max"):
    define(
        f"affine.{_kind}",
        parse=_make_map_op_parser(f"affine.{_kind}", False),
        print=_print_map_op,
        verify=_verify_min_max,
        properties=("map",),
        traits=(PURE, PROPERTIES_IN_ATTRIBUTE_LIST),
    )


# -- affine.for ----------------------------------------------------------------------------------


def _parse_bound(p: Parser, offset: int, lower: bool) -> tuple[AffineMap, list[Value]]:
    saw_keyword = p.accept_keyword("max" if lower else "min")
    operands = p.parse_operand_list()
    if operands:
        if len(operands) > 1:
            p.op_error("expected only one loop bound operand", offset)
        return AffineMap.symbol_identity(), _resolve_index(p, operands)
    attr_offset = p.start
    if p.kind == "(" and p.seed_map_follows():  # seed syntax: an inline map
        m = p.parse_affine_map_attr()
    else:
        attr = p.parse_attribute(INDEX)
        if isinstance(attr, IntegerAttr):
            return AffineMap.constant_map(attr.value), []
        if not isinstance(attr, AffineMapAttr):
            p.op_error("expected valid affine map representation for loop bounds", offset)
        m = attr.value
    operands, num_dims = p.parse_dim_and_symbol_list()
    if m.num_dims != num_dims:
        p.op_error("dim operand count and affine map dim count must match", offset)
    if num_dims + m.num_symbols != len(operands):
        p.op_error("symbol operand count and affine map symbol count must match", offset)
    if m.num_results > 1 and not saw_keyword:
        if lower:
            p.op_error(
                "lower loop bound affine map with multiple results requires 'max' prefix",
                attr_offset,
            )
        p.op_error(
            "upper loop bound affine map with multiple results requires 'min' prefix", attr_offset
        )
    return m, _resolve_index(p, operands)


def _parse_for(p: Parser, offset: int) -> Operation:
    iv_name, iv_offset, _, _ = p.parse_argument()
    p.expect("=")
    lb_map, lb_operands = _parse_bound(p, offset, True)
    p.expect_op_keyword("to", " between bounds")
    ub_map, ub_operands = _parse_bound(p, offset, False)
    step = 1
    if p.accept_keyword("step"):
        step_offset = p.start
        step_attr = p.parse_attribute(INDEX)
        if not isinstance(step_attr, IntegerAttr):
            p.op_error("invalid kind of attribute specified", step_offset)
        step = step_attr.value
        if step < 0:
            p.op_error(
                "expected step to be representable as a positive signed integer", step_offset
            )
    args: list[tuple[str, int, Type]] = [(iv_name, iv_offset, INDEX)]
    inits: list[Value] = []
    pairs, result_types = parse_optional_iter_args(
        p, offset, "mismatch between the number of loop-carried values and results"
    )
    for (name, name_offset, operand), t in zip(pairs, result_types):
        inits.append(p.resolve(operand, t))
        args.append((name, name_offset, t))
    body = p.parse_region(args)
    ensure_terminator(body, "affine.yield", p, offset)
    attrs = p.parse_optional_attr_dict()
    props = {
        "lowerBoundMap": AffineMapAttr(lb_map),
        "upperBoundMap": AffineMapAttr(ub_map),
        "step": IntegerAttr(step, INDEX),
        "operandSegmentSizes": segment_sizes(len(lb_operands), len(ub_operands), len(inits)),
    }
    return create(
        p,
        "affine.for",
        offset,
        lb_operands + ub_operands + inits,
        result_types,
        props,
        attrs,
        [body],
    )


def _parse_assignment_list(p: Parser) -> list[tuple[str, int, tuple[Value, int]]]:
    """``(%a = %x, %b = %y)``."""

    def pair() -> tuple[str, int, tuple[Value, int]]:
        name, name_offset, _, _ = p.parse_argument()
        p.expect("=")
        return name, name_offset, p.parse_operand()

    return p.parse_comma_list("(", pair, until=True)


def parse_index_arguments(p: Parser, context: str = "") -> list[tuple[str, int, Type]]:
    """``(%i, %j)``: the induction variables of a parallel loop, each of index type."""

    def argument() -> tuple[str, int, Type]:
        name, name_offset, _, _ = p.parse_argument()
        return name, name_offset, INDEX

    return p.parse_comma_list("(", argument, context)


def parse_optional_iter_args(
    p: Parser, offset: int, mismatch: str
) -> tuple[list[tuple[str, int, tuple[Value, int]]], list[Type]]:
    """``iter_args(%a = %x, ...) -> (types)`` when present: the (name, name offset, operand)
    pairs and the result types, as many (mlir-opt's error ``mismatch`` otherwise)."""
    if not p.accept_keyword("iter_args"):
        return [], []
    if not p.at("("):  # MLIR's parseAssignmentList
        p.op_error("expected '('")
    pairs = _parse_assignment_list(p)
    result_types = p.parse_arrow_type_list()
    if len(result_types) != len(pairs):
        p.op_error(mismatch, offset)
    return pairs, result_types


def ensure_terminator(region: Region, terminator: str, p: Parser | None, offset: int) -> None:
    """Add ``terminator`` (with no operands) to a single-block region that lacks one."""
    if not region.blocks:
        region.add_block()
    block = region.blocks[-1]
    last = block.terminator
    if last is not None:
        d = lookup(last.name)
        if d is not None and d.has(TERMINATOR):
            return
    loc = p.loc(offset) if p is not None else None
    block.append(Operation.create(terminator, loc=loc))


def parse_then_else(p: Parser, offset: int, terminator: str) -> tuple[list[Type], Region, Region]:
    """``(-> types)? region (else region)?`` of an if op: its result types and its then and
    else regions (the else region empty when absent); with no results, each region parsed
    gets an implicit ``terminator``."""
    result_types = p.parse_optional_arrow_type_list()
    then_region = p.parse_region()
    if not result_types:
        ensure_terminator(then_region, terminator, p, offset)
    else_region = Region()
    if p.accept_keyword("else"):
        else_region = p.parse_region()
        if not result_types:
            ensure_terminator(else_region, terminator, p, offset)
    return result_types, then_region, else_region


def print_then_else(pr: Printer, op: Operation) -> None:
    """The then region and the else region (when not empty) of an if op, each printed with
    its terminator when the op has results."""
    has_results = bool(op.results)
    pr.write(" ")
    pr.region(op.regions[0], False, has_results)
    if op.regions[1].blocks:
        pr.write(" else ")
        pr.region(op.regions[1], False, has_results)


def verify_then_else(op: Operation) -> None:
    """The regions of an if op take no arguments, and it has an else block when it has
    results."""
    for index, region in enumerate(op.regions):
        if region.blocks and region.blocks[0].arguments:
            op_error(op, f"region #{index} should have no arguments")
    if op.results and not op.regions[1].blocks:
        op_error(op, "must have an else block if defining values")


def _print_bound(pr: Printer, m: AffineMap, operands: list[Value], prefix: str) -> str:
    if m.num_results == 1:
        expr = m.results[0]
        if m.num_dims == 0 and m.num_symbols == 0 and expr.kind == "const":
            return str(expr.value)
        if m.num_dims == 0 and m.num_symbols == 1 and expr.kind == "symbol":
            return pr.operand(operands[0])
        head = ""
    else:
        head = prefix + " "
    return head + pr.attr(AffineMapAttr(m)) + pr.dim_and_symbol_list(operands, m.num_dims)


def _print_for(pr: Printer, op: Operation) -> None:
    f = ForOp(op)
    body = op.regions[0].blocks[0]
    text = f" {pr.operand(body.arguments[0])} = "
    pr.write(text)
    pr.write(_print_bound(pr, f.lower_bound_map, f.lower_bound_operands, "max"))
    pr.write(" to ")
    pr.write(_print_bound(pr, f.upper_bound_map, f.upper_bound_operands, "min"))
    if f.step != 1:
        pr.write(f" step {f.step}")
    inits = f.inits
    if inits:
        pairs = ", ".join(
            f"{pr.operand(a)} = {pr.operand(v)}" for a, v in zip(body.arguments[1:], inits)
        )
        pr.write(f" iter_args({pairs}) -> ({pr.type_list(r.type for r in op.results)})")
    pr.write(" ")
    pr.region(op.regions[0], False, bool(inits))
    pr.write(
        pr.attr_dict(
            op.attributes, ("lowerBoundMap", "upperBoundMap", "step", "operandSegmentSizes")
        )
    )


def _verify_for(op: Operation) -> None:
    f = ForOp(op)
    block = op.regions[0].blocks[0]  # one block: checked before (affine.dialects.arity)
    if not block.arguments or not isinstance(block.arguments[0].type, IndexType):
        op_error(op, "expected body to have a single index argument for the induction variable")
    lb, ub = f.lower_bound_map, f.upper_bound_map
    sizes = op.properties["operandSegmentSizes"].values  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    if sizes[0] != lb.num_inputs:
        op_error(op, "lower bound operand count does not equal lower bound map input count")
    if sizes[1] != ub.num_inputs:
        op_error(op, "upper bound operand count does not equal upper bound map input count")
    if lb.num_inputs:
        verify_dims_and_symbols(op, f.lower_bound_operands, lb.num_dims)
    if ub.num_inputs:
        verify_dims_and_symbols(op, f.upper_bound_operands, ub.num_dims)
    if lb.num_results < 1:
        op_error(op, "expected lower bound map to have at least one result")
    if ub.num_results < 1:
        op_error(op, "expected upper bound map to have at least one result")
    if f.step < 0:
        op_error(op, "expected step to be representable as a positive signed integer")
    n = len(op.results)
    if len(f.inits) != n:
        op_error(op, "mismatch between the number of loop-carried values and results")
    if len(block.arguments) - 1 != n:
        op_error(op, "mismatch between the number of basic block args and results")
    for i, (init, arg, res) in enumerate(zip(f.inits, block.arguments[1:], op.results)):
        if not (init.type == arg.type == res.type):
            op_error(op, f"types mismatch between iter operand #{i}, region argument and result")


define(
    "affine.for",
    parse=_parse_for,
    print=_print_for,
    verify=_verify_for,
    properties=("lowerBoundMap", "upperBoundMap", "step", "operandSegmentSizes"),
    traits=(AUTOMATIC_ALLOCATION_SCOPE,),
    implicit_terminator="affine.yield",
)


class ForOp(OpView):
    """Typed view of ``affine.for``."""

    __slots__ = ()
    OP_NAMES = ("affine.for",)
    lower_bound_map = AttrValue[AffineMap]("lowerBoundMap")
    upper_bound_map = AttrValue[AffineMap]("upperBoundMap")
    step = AttrValue[int]("step")

    @property
    def lower_bound_operands(self) -> list[Value]:
        return segments(self.op, 0)

    @property
    def upper_bound_operands(self) -> list[Value]:
        return segments(self.op, 1)

    @property
    def inits(self) -> list[Value]:
        return segments(self.op, 2)

    @property
    def body(self) -> Block:
        return self.op.regions[0].blocks[0]

    @property
    def induction_var(self) -> BlockArgument:
        return self.body.arguments[0]

    @property
    def iter_args(self) -> list[BlockArgument]:
        return self.body.arguments[1:]

    @property
    def yield_op(self) -> Operation:
        return self.body.operations[-1]

    def has_constant_lower_bound(self) -> bool:
        return self.lower_bound_map.is_single_constant()

    def has_constant_upper_bound(self) -> bool:
        return self.upper_bound_map.is_single_constant()

    @property
    def constant_lower_bound(self) -> int:
        return self.lower_bound_map.single_constant_result

    @property
    def constant_upper_bound(self) -> int:
        return self.upper_bound_map.single_constant_result

    def constant_trip_count(self) -> int | None:
        """Iterations when both bounds are single constants (None otherwise)."""
        if not (self.has_constant_lower_bound() and self.has_constant_upper_bound()):
            return None
        lb, ub, step = self.constant_lower_bound, self.constant_upper_bound, self.step
        return max(0, -((lb - ub) // step))


# -- affine.if -----------------------------------------------------------------------------------


def _parse_if(p: Parser, offset: int) -> Operation:
    s = p.parse_integer_set_attr()
    operands, num_dims = p.parse_dim_and_symbol_list()
    if s.num_dims != num_dims:
        p.op_error("dim operand count and integer set dim count must match", offset)
    if num_dims + s.num_symbols != len(operands):
        p.op_error("symbol operand count and integer set symbol count must match", offset)
    values = _resolve_index(p, operands)
    result_types, then_region, else_region = parse_then_else(p, offset, "affine.yield")
    attrs = p.parse_optional_attr_dict()
    return create(
        p,
        "affine.if",
        offset,
        values,
        result_types,
        {"condition": IntegerSetAttr(s)},
        attrs,
        [then_region, else_region],
    )


def _print_if(pr: Printer, op: Operation) -> None:
    s = IfOp(op).condition
    pr.write(
        " " + pr.attr(op.properties["condition"]) + pr.dim_and_symbol_list(op.operands, s.num_dims)
    )
    pr.write(pr.arrow_types([r.type for r in op.results]))
    print_then_else(pr, op)
    pr.write(pr.attr_dict(op.attributes, ("condition",)))


def _verify_if(op: Operation) -> None:
    attr = op.properties.get("condition")
    if not isinstance(attr, IntegerSetAttr):
        op_error(op, "requires an integer set attribute named 'condition'")
    verify_then_else(op)
    s = attr.value
    if len(op.operands) != s.num_inputs:
        op_error(
            op, "operand count and condition integer set dimension and symbol count must match"
        )
    verify_dims_and_symbols(op, op.operands, s.num_dims)


define(
    "affine.if",
    parse=_parse_if,
    print=_print_if,
    verify=_verify_if,
    properties=("condition",),
    implicit_terminator="affine.yield",
)


class IfOp(OpView):
    """Typed view of ``affine.if``."""

    __slots__ = ()
    OP_NAMES = ("affine.if",)
    condition = AttrValue[IntegerSet]("condition")

    @property
    def then_block(self) -> Block:
        return self.op.regions[0].blocks[0]

    @property
    def else_block(self) -> Block | None:
        blocks = self.op.regions[1].blocks
        return blocks[0] if blocks else None


# -- affine.yield ----------------------------------------------------------------------------------


def _verify_yield(op: Operation) -> None:
    parent = op.parent_op
    if parent is None or parent.name not in ("affine.for", "affine.if", "affine.parallel"):
        op_error(op, "only terminates affine.if/for/parallel regions")
    if len(parent.results) != len(op.operands):
        op_error(op, "parent of yield must have same number of results as the yield operands")
    for r, v in zip(parent.results, op.operands):
        if r.type != v.type:
            op_error(op, "types mismatch between yield op and its parent")


define_return_like("affine.yield", verify=_verify_yield, traits=(TERMINATOR, PURE))


# -- affine.load / affine.store / affine.vector_load / affine.vector_store -----------------------


def _parse_load(p: Parser, offset: int, vector: bool) -> Operation:
    name = "affine.vector_load" if vector else "affine.load"
    memref = p.parse_operand()
    m, indices = p.parse_affine_map_of_ssa_ids()
    attrs = p.parse_optional_attr_dict()
    t = p.parse_colon_type_of(MemRefType, "builtin.memref", True)
    result_type: Type = t.element_type
    if vector:
        p.expect(",")
        result_type = p.parse_type()
    values = [p.resolve(memref, t)] + _resolve_index(p, indices)
    return create(p, name, offset, values, [result_type], {"map": AffineMapAttr(m)}, attrs)


def _print_load(pr: Printer, op: Operation) -> None:
    m = _map(op)
    pr.write(f" {pr.operand(op.operands[0])}[{pr.affine_map_of_ssa_ids(m, op.operands[1:])}]")
    pr.write(pr.attr_dict(op.attributes, ("map",)) + " : " + pr.type(op.operands[0].type))
    if op.name == "affine.vector_load":
        pr.write(", " + pr.type(op.results[0].type))


def _parse_store(p: Parser, offset: int, vector: bool) -> Operation:
    name = "affine.vector_store" if vector else "affine.store"
    value = p.parse_operand()
    p.expect(",")
    memref = p.parse_operand()
    m, indices = p.parse_affine_map_of_ssa_ids()
    attrs = p.parse_optional_attr_dict()
    t = p.parse_colon_type_of(MemRefType, "builtin.memref", True)
    value_type: Type = t.element_type
    if vector:
        p.expect(",")
        value_type = p.parse_type()
    values = [p.resolve(value, value_type), p.resolve(memref, t)] + _resolve_index(p, indices)
    return create(p, name, offset, values, [], {"map": AffineMapAttr(m)}, attrs)


def _print_store(pr: Printer, op: Operation) -> None:
    m = _map(op)
    pr.write(
        f" {pr.operand(op.operands[0])}, {pr.operand(op.operands[1])}[{pr.affine_map_of_ssa_ids(m, op.operands[2:])}]"
    )
    pr.write(pr.attr_dict(op.attributes, ("map",)) + " : " + pr.type(op.operands[1].type))
    if op.name == "affine.vector_store":
        pr.write(", " + pr.type(op.operands[0].type))


def _verify_indexing(op: Operation, memref_index: int) -> MemRefType:
    """The type of the indexed memref, after checking the map and the subscripts."""
    memref_type = memref_at(op, "operand", memref_index)
    m = _map(op)
    indices = op.operands[memref_index + 1 :]
    if m.num_results != len(memref_type.shape):
        op_error(op, "affine map num results must equal memref rank")
    if m.num_inputs != len(indices):
        op_error(op, "expects as many subscripts as affine map inputs")
    for idx in indices:
        if not isinstance(idx.type, IndexType):
            op_error(op, "index to load must have 'index' type")
    verify_dims_and_symbols(op, indices, m.num_dims)
    return memref_type


def _verify_load(op: Operation) -> None:
    memref_type = _verify_indexing(op, 0)
    if op.name == "affine.load":
        if op.results[0].type != memref_type.element_type:
            op_error(op, "result type must match element type of memref")
    else:
        _verify_vector(op, memref_type, op.results[0].type)


def _verify_store(op: Operation) -> None:
    memref_type = _verify_indexing(op, 1)
    if op.name == "affine.store":
        if op.operands[0].type != memref_type.element_type:
            op_error(op, "value to store must have the same type as memref element type")
    else:
        _verify_vector(op, memref_type, op.operands[0].type)


def _verify_vector(op: Operation, memref_type: MemRefType, vector_type: Type) -> None:
    if (
        not isinstance(vector_type, VectorType)
        or memref_type.element_type != vector_type.element_type
    ):
        op_error(op, "requires memref and vector types of the same elemental type")


for _vector, _load, _store in (
    (False, "affine.load", "affine.store"),
    (True, "affine.vector_load", "affine.vector_store"),
):
    define(
        _load,
        parse=partial(_parse_load, vector=_vector),
        print=_print_load,
        verify=_verify_load,
        properties=("map",),
        traits=(PROPERTIES_IN_ATTRIBUTE_LIST,),
    )
    define(
        _store,
        parse=partial(_parse_store, vector=_vector),
        print=_print_store,
        verify=_verify_store,
        properties=("map",),
        traits=(PROPERTIES_IN_ATTRIBUTE_LIST,),
    )


class LoadOp(OpView):
    """Typed view of ``affine.load`` / ``affine.vector_load``."""

    __slots__ = ()
    OP_NAMES = ("affine.load", "affine.vector_load")

    @property
    def memref(self) -> Value:
        return self.op.operands[0]

    map = AttrValue[AffineMap]("map")

    @property
    def map_operands(self) -> list[Value]:
        return self.op.operands[1:]

    @property
    def result(self) -> Value:
        return self.op.results[0]


class StoreOp(OpView):
    """Typed view of ``affine.store`` / ``affine.vector_store``."""

    __slots__ = ()
    OP_NAMES = ("affine.store", "affine.vector_store")

    @property
    def value(self) -> Value:
        return self.op.operands[0]

    @property
    def memref(self) -> Value:
        return self.op.operands[1]

    map = AttrValue[AffineMap]("map")

    @property
    def map_operands(self) -> list[Value]:
        return self.op.operands[2:]


# -- affine.parallel --------------------------------------------------------------------------------

# arith::AtomicRMWKind, by enum value.
REDUCTION_KINDS = [
    "addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu",
    "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori",
]  # fmt: skip


def _parse_parallel_bound(p: Parser, kind: str):
    """``(expr, max(e1, e2), ...)``: a flat map, group sizes and (deduplicated) operands."""
    p.expect("(")

    flat: list[AffineExpr] = []
    dim_lists: list[list] = []
    sym_lists: list[list] = []
    groups: list[int] = []
    if not p.accept(")"):
        while True:
            if p.accept_keyword(kind):
                m, operands = p.parse_affine_map_of_ssa_ids("(")
                dims_, syms_ = operands[: m.num_dims], operands[m.num_dims :]
                for r in m.results:
                    flat.append(r)
                    dim_lists.append(dims_)
                    sym_lists.append(syms_)
                groups.append(m.num_results)
            else:
                expr, dims_, syms_ = p.parse_affine_expr_of_ssa_ids()
                flat.append(expr)
                dim_lists.append(dims_)
                sym_lists.append(syms_)
                groups.append(1)
            if not p.accept(","):
                break
        p.expect(")")
    unique_dims: list[Value] = []
    unique_syms: list[Value] = []
    exprs = []
    for expr, dims_, syms_ in zip(flat, dim_lists, sym_lists):
        dim_map = []
        for operand in dims_:
            v = p.resolve(operand, INDEX)
            if v not in unique_dims:
                unique_dims.append(v)
            dim_map.append(dim(unique_dims.index(v)))
        sym_map = []
        for operand in syms_:
            v = p.resolve(operand, INDEX)
            if v not in unique_syms:
                unique_syms.append(v)
            sym_map.append(symbol(unique_syms.index(v)))
        exprs.append(expr.replace(dim_map, sym_map))
    m = AffineMap.get(len(unique_dims), len(unique_syms), exprs)
    return m, groups, unique_dims + unique_syms


def _groups_attr(groups: list[int]) -> DenseElementsAttr:
    return DenseElementsAttr(
        TensorType([len(groups)], I32),
        groups if len(set(groups)) != 1 or not groups else [groups[0]],
    )


def _parse_reduction_kind(p: Parser) -> str:
    """A string attribute, read as mlir-opt reads an attribute of type none."""
    start = p.start
    attr = p.parse_attribute(NONE)
    if not isinstance(attr, StringAttr):
        p.op_error("invalid kind of attribute specified", start)
    return attr.value


def _parse_parallel(p: Parser, offset: int) -> Operation:
    ivs = parse_index_arguments(p, " in argument list")
    p.expect("=")
    lb_map, lb_groups, lb_operands = _parse_parallel_bound(p, "max")
    p.expect_op_keyword("to")
    ub_map, ub_groups, ub_operands = _parse_parallel_bound(p, "min")
    steps = [1] * len(ivs)
    if p.accept_keyword("step"):
        step_map, step_operands = p.parse_affine_map_of_ssa_ids("(")
        if step_operands or not step_map.is_constant():
            p.op_error("steps must be constant integers", offset)
        steps = step_map.constant_results
    reductions: list[Attribute] = []
    if p.accept_keyword("reduce"):
        p.expect("(")
        while True:
            loc = p.start
            kind = _parse_reduction_kind(p)
            if kind not in REDUCTION_KINDS:
                p.op_error(f'invalid reduction value: "{kind}"', loc)
            reductions.append(IntegerAttr(REDUCTION_KINDS.index(kind), I64))
            if not p.accept(","):
                break
        p.expect(")")
    result_types = p.parse_optional_arrow_type_list()
    body = p.parse_region(ivs)
    ensure_terminator(body, "affine.yield", p, offset)
    attrs = p.parse_optional_attr_dict()
    props = {
        "lowerBoundsMap": AffineMapAttr(lb_map),
        "lowerBoundsGroups": _groups_attr(lb_groups),
        "upperBoundsMap": AffineMapAttr(ub_map),
        "upperBoundsGroups": _groups_attr(ub_groups),
        "steps": ArrayAttr([IntegerAttr(s, I64) for s in steps]),
        "reductions": ArrayAttr(reductions),
    }
    return create(
        p, "affine.parallel", offset, lb_operands + ub_operands, result_types, props, attrs, [body]
    )


def _print_parallel_bound(
    pr: Printer, m: AffineMap, groups: list[int], operands: list[Value], keyword: str
) -> str:
    dims_, syms_ = operands[: m.num_dims], operands[m.num_dims :]
    parts = []
    start = 0
    for size in groups:
        if size == 1:
            parts.append(pr.affine_expr_of_ssa_ids(m.results[start], dims_, syms_))
        else:
            sub = AffineMap.get(m.num_dims, m.num_symbols, m.results[start : start + size])
            parts.append(f"{keyword}(" + pr.affine_map_of_ssa_ids(sub, operands) + ")")
        start += size
    return ", ".join(parts)


def _print_parallel(pr: Printer, op: Operation) -> None:
    par = ParallelOp(op)
    body = op.regions[0].blocks[0]
    pr.write(f" ({pr.operands(body.arguments)}) = (")
    pr.write(
        _print_parallel_bound(
            pr, par.lower_bounds_map, par.lower_bounds_groups, par.lower_bounds_operands, "max"
        )
    )
    pr.write(") to (")
    pr.write(
        _print_parallel_bound(
            pr, par.upper_bounds_map, par.upper_bounds_groups, par.upper_bounds_operands, "min"
        )
    )
    pr.write(")")
    steps = par.steps
    if any(s != 1 for s in steps):
        pr.write(" step (" + ", ".join(map(str, steps)) + ")")
    if op.results:
        kinds = ", ".join(f'"{k}"' for k in par.reductions)
        pr.write(f" reduce ({kinds}) -> ({pr.type_list(r.type for r in op.results)})")
    pr.write(" ")
    pr.region(op.regions[0], False, bool(op.results))
    pr.write(
        pr.attr_dict(
            op.attributes,
            (
                "reductions",
                "lowerBoundsMap",
                "lowerBoundsGroups",
                "upperBoundsMap",
                "upperBoundsGroups",
                "steps",
            ),
        )
    )


def _verify_parallel(op: Operation) -> None:
    par = ParallelOp(op)
    n = len(op.regions[0].blocks[0].arguments)
    lbg, ubg = par.lower_bounds_groups, par.upper_bounds_groups
    if not (len(lbg) == len(ubg) == len(par.steps) == n):
        op_error(
            op,
            f"the number of region arguments ({n}) and the number of map groups for lower "
            f"({len(lbg)}) and upper bound ({len(ubg)}), and the number of steps "
            f"({len(par.steps)}) must all match",
        )
    for groups, m, what in (
        (lbg, par.lower_bounds_map, "lower"),
        (ubg, par.upper_bounds_map, "upper"),
    ):
        if any(g == 0 for g in groups):
            op_error(op, f"expected {what} bound map to have at least one result")
        if sum(groups) != m.num_results:
            op_error(op, f"expected {what} bounds map to have {sum(groups)} results")
    if len(par.reductions) != len(op.results):
        op_error(op, "a reduction must be specified for each output")
    for kind, r in zip(par.reductions, op.results):
        t = r.type
        ok = (
            kind == "assign"
            or (kind in ("addf", "mulf", "maximumf", "minimumf") and isinstance(t, FloatType))
            or (kind in ("addi", "muli", "ori", "andi") and isinstance(t, IntegerType))
            or (kind in ("maxs", "mins") and isinstance(t, IntegerType) and t.signedness == "s")
            or (kind in ("maxu", "minu") and isinstance(t, IntegerType) and t.signedness == "u")
        )
        if not ok:
            op_error(op, "result type cannot match reduction attribute")
    verify_dims_and_symbols(op, par.lower_bounds_operands, par.lower_bounds_map.num_dims)
    verify_dims_and_symbols(op, par.upper_bounds_operands, par.upper_bounds_map.num_dims)


define(
    "affine.parallel",
    parse=_parse_parallel,
    print=_print_parallel,
    verify=_verify_parallel,
    properties=(
        "lowerBoundsMap",
        "lowerBoundsGroups",
        "upperBoundsMap",
        "upperBoundsGroups",
        "steps",
        "reductions",
    ),
    traits=(AUTOMATIC_ALLOCATION_SCOPE,),
    implicit_terminator="affine.yield",
)


class ParallelOp(OpView):
    """Typed view of ``affine.parallel``."""

    __slots__ = ()
    OP_NAMES = ("affine.parallel",)
    lower_bounds_map = AttrValue[AffineMap]("lowerBoundsMap")
    upper_bounds_map = AttrValue[AffineMap]("upperBoundsMap")

    @staticmethod
    def _groups(attr: Attribute) -> list[int]:
        assert isinstance(attr, DenseElementsAttr)
        return [int(v) for v in attr.flat_values()]

    @property
    def lower_bounds_groups(self) -> list[int]:
        return self._groups(self.op.properties["lowerBoundsGroups"])

    @property
    def upper_bounds_groups(self) -> list[int]:
        return self._groups(self.op.properties["upperBoundsGroups"])

    @property
    def lower_bounds_operands(self) -> list[Value]:
        return self.op.operands[: self.lower_bounds_map.num_inputs]

    @property
    def upper_bounds_operands(self) -> list[Value]:
        return self.op.operands[self.lower_bounds_map.num_inputs :]

    @property
    def steps(self) -> list[int]:
        return [a.value for a in self.op.properties["steps"].elements]  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class

    @property
    def reductions(self) -> list[str]:
        reductions = self.op.properties["reductions"].elements  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
        return [REDUCTION_KINDS[a.value] for a in reductions]

    @property
    def body(self) -> Block:
        return self.op.regions[0].blocks[0]

    @property
    def induction_vars(self) -> list[BlockArgument]:
        return self.body.arguments


# -- affine.dma_start / affine.dma_wait ---------------------------------------------------------------


def _parse_dma_start(p: Parser, offset: int) -> Operation:
    return parse_dma_start(p, offset, "affine.dma_start", True, False, "expected three types")


def _print_dma_start(pr: Printer, op: Operation) -> None:
    d = DmaStartOp(op)
    pr.write(
        f" {pr.operand(d.src)}[{pr.affine_map_of_ssa_ids(d.src_map, d.src_indices)}], "
        f"{pr.operand(d.dst)}[{pr.affine_map_of_ssa_ids(d.dst_map, d.dst_indices)}], "
        f"{pr.operand(d.tag)}[{pr.affine_map_of_ssa_ids(d.tag_map, d.tag_indices)}], "
        f"{pr.operand(d.num_elements)}"
    )
    print_dma_start_tail(pr, d, d.dst, d.tag)


def _verify_dma_start(op: Operation) -> None:
    for name in ("src_map", "dst_map", "tag_map"):
        if not isinstance(op.attributes.get(name), AffineMapAttr):
            op_error(op, f"requires attribute '{name}'")
    d = DmaStartOp(op)
    if not isinstance(d.src.type, MemRefType):
        op_error(op, "expected DMA source to be of memref type")
    if not isinstance(d.dst.type, MemRefType):
        op_error(op, "expected DMA destination to be of memref type")
    if not isinstance(d.tag.type, MemRefType):
        op_error(op, "expected DMA tag to be of memref type")
    total = d.src_map.num_inputs + d.dst_map.num_inputs + d.tag_map.num_inputs
    if len(op.operands) not in (total + 4, total + 6):
        op_error(op, "incorrect number of operands")
    scope = affine_scope(op)
    for what, idx in (("src", d.src_indices), ("dst", d.dst_indices), ("tag", d.tag_indices)):
        for v in idx:
            if not isinstance(v.type, IndexType):
                op_error(op, f"{what} index to dma_start must have 'index' type")
            if not (is_valid_dim(v, scope) or is_valid_symbol(v, scope)):
                op_error(op, f"{what} index must be a valid dimension or symbol identifier")
    for m, t in ((d.src_map, d.src.type), (d.dst_map, d.dst.type), (d.tag_map, d.tag.type)):
        if m.num_results != len(t.shape):
            op_error(op, "affine map num results must equal memref rank")


define("affine.dma_start", parse=_parse_dma_start, print=_print_dma_start, verify=_verify_dma_start)


class DmaStartOp(DmaStartView):
    """Typed view of ``affine.dma_start``: src[...] -> dst[...], tag[...], count (, stride, per)."""

    __slots__ = ()
    OP_NAMES = ("affine.dma_start",)
    src_map = AttrValue[AffineMap]("src_map")
    dst_map = AttrValue[AffineMap]("dst_map")
    tag_map = AttrValue[AffineMap]("tag_map")

    @property
    def src_indices(self) -> list[Value]:
        return self.op.operands[1 : 1 + self.src_map.num_inputs]

    @property
    def _dst_pos(self) -> int:
        return 1 + self.src_map.num_inputs

    @property
    def dst(self) -> Value:
        return self.op.operands[self._dst_pos]

    @property
    def dst_indices(self) -> list[Value]:
        start = self._dst_pos + 1
        return self.op.operands[start : start + self.dst_map.num_inputs]

    @property
    def _tag_pos(self) -> int:
        return self._dst_pos + 1 + self.dst_map.num_inputs

    @property
    def tag(self) -> Value:
        return self.op.operands[self._tag_pos]

    @property
    def tag_indices(self) -> list[Value]:
        start = self._tag_pos + 1
        return self.op.operands[start : start + self.tag_map.num_inputs]

    @property
    def num_elements(self) -> Value:
        return self.op.operands[self._tag_pos + 1 + self.tag_map.num_inputs]

    @property
    def is_strided(self) -> bool:
        return len(self.op.operands) > self._tag_pos + 2 + self.tag_map.num_inputs


def _parse_dma_wait(p: Parser, offset: int) -> Operation:
    tag = p.parse_operand()
    tag_map, tag_idx = p.parse_affine_map_of_ssa_ids()
    p.expect(",")
    num = p.parse_operand()
    t = p.parse_colon_type()
    values = [p.resolve(tag, t)] + _resolve_index(p, tag_idx) + [p.resolve(num, INDEX)]
    if not isinstance(t, MemRefType):
        p.op_error("expected tag to be of memref type", offset)
    return create(
        p, "affine.dma_wait", offset, values, [], None, {"tag_map": AffineMapAttr(tag_map)}
    )


def _print_dma_wait(pr: Printer, op: Operation) -> None:
    m = op.attributes["tag_map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    pr.write(
        f" {pr.operand(op.operands[0])}[{pr.affine_map_of_ssa_ids(m, op.operands[1:-1])}], "
        f"{pr.operand(op.operands[-1])} : {pr.type(op.operands[0].type)}"
    )


def _verify_dma_wait(op: Operation) -> None:
    if not isinstance(op.attributes.get("tag_map"), AffineMapAttr):
        op_error(op, "requires attribute 'tag_map'")
    if not isinstance(op.operands[0].type, MemRefType):
        op_error(op, "expected DMA tag to be of memref type")
    scope = affine_scope(op)
    for v in op.operands[1:-1]:
        if not isinstance(v.type, IndexType):
            op_error(op, "index to dma_wait must have 'index' type")
        if not (is_valid_dim(v, scope) or is_valid_symbol(v, scope)):
            op_error(op, "index must be a valid dimension or symbol identifier")


define("affine.dma_wait", parse=_parse_dma_wait, print=_print_dma_wait, verify=_verify_dma_wait)


# -- affine.prefetch -------------------------------------------------------------------------------


def _parse_prefetch(p: Parser, offset: int) -> Operation:
    memref = p.parse_operand()
    m, indices = p.parse_affine_map_of_ssa_ids()
    rw, hint, cache, attrs, t = parse_prefetch_tail(p, attr_dict=True)
    values = [p.resolve(memref, t)] + _resolve_index(p, indices)
    is_write, locality, is_data = prefetch_flags(p, offset, rw, hint, cache)
    props: dict[str, Attribute] = {
        "map": AffineMapAttr(m),
        "isWrite": is_write,
        "localityHint": locality,
        "isDataCache": is_data,
    }
    return create(p, "affine.prefetch", offset, values, [], props, attrs)


def _print_prefetch(pr: Printer, op: Operation) -> None:
    indices = pr.affine_map_of_ssa_ids(_map(op), op.operands[1:])
    print_prefetch(pr, op, indices, ("map", "isWrite", "localityHint", "isDataCache"))


def _verify_prefetch(op: Operation) -> None:
    m = _map(op)
    memref_type = memref_at(op, "operand", 0)
    if m.num_results != len(memref_type.shape):
        op_error(op, "affine.prefetch affine map num results must equal memref rank")
    if m.num_inputs + 1 != len(op.operands):
        op_error(op, "too few operands")
    verify_dims_and_symbols(op, op.operands[1:], m.num_dims)


define(
    "affine.prefetch",
    parse=_parse_prefetch,
    print=_print_prefetch,
    verify=_verify_prefetch,
    properties=("map", "isWrite", "localityHint", "isDataCache"),
    traits=(PROPERTIES_IN_ATTRIBUTE_LIST,),
)

# -- affine.delinearize_index / affine.linearize_index ---------------------------------------------


def _static_basis(op: Operation) -> tuple[int, ...]:
    attr = op.properties.get("static_basis")
    if not isinstance(attr, DenseArrayAttr):
        op_error(op, "requires attribute 'static_basis'")
    return tuple(attr.values)


def _verify_basis(op: Operation, basis: tuple[int, ...], dynamic: list[Value]) -> None:
    if sum(1 for v in basis if v == DYNAMIC) != len(dynamic):
        op_error(
            op,
            "mismatch between dynamic and static basis (kDynamic marker but no corresponding "
            "dynamic basis entry) -- this can only happen due to an incorrect fold/rewrite",
        )


def _parse_delinearize(p: Parser, offset: int) -> Operation:
    index = p.parse_operand()
    p.expect_op_keyword("into")
    static, dynamic = parse_dynamic_index_list(p, "(")
    attrs = p.parse_optional_attr_dict()
    result_types = p.parse_colon_type_list()
    values = [p.resolve(index, INDEX)] + _resolve_index(p, dynamic)
    props = {"static_basis": DenseArrayAttr(I64, static)}
    return create(p, "affine.delinearize_index", offset, values, result_types, props, attrs)


def _print_delinearize(pr: Printer, op: Operation) -> None:
    basis = print_dynamic_index_list(pr, _static_basis(op), op.operands[1:], "(")
    pr.write(f" {pr.operand(op.operands[0])} into {basis}")
    pr.write(pr.attr_dict(op.attributes, ("static_basis",)))
    pr.write(" : " + pr.type_list(r.type for r in op.results))


def _verify_delinearize(op: Operation) -> None:
    _verify_index_operands_and_results(op)
    basis = _static_basis(op)
    if len(op.results) not in (len(basis), len(basis) + 1):
        op_error(op, "should return an index for each basis element and up to one extra index")
    _verify_basis(op, basis, op.operands[1:])
    if not all(v > 0 or v == DYNAMIC for v in basis):
        op_error(op, "no basis element may be statically non-positive")


def _parse_linearize(p: Parser, offset: int) -> Operation:
    disjoint = p.accept_keyword("disjoint")
    indices = p.parse_operand_list("[")
    p.expect_op_keyword("by")
    static, dynamic = parse_dynamic_index_list(p, "(")
    attrs = p.parse_optional_attr_dict()
    p.expect(":")
    result_type = p.parse_type()
    values = _resolve_index(p, indices) + _resolve_index(p, dynamic)
    props = {
        "disjoint": UNIT if disjoint else IntegerAttr(0, I1),
        "operandSegmentSizes": segment_sizes(len(indices), len(dynamic)),
        "static_basis": DenseArrayAttr(I64, static),
    }
    return create(p, "affine.linearize_index", offset, values, [result_type], props, attrs)


def _is_disjoint(op: Operation) -> bool:
    value = op.properties.get("disjoint")
    return isinstance(value, UnitAttr) or (isinstance(value, IntegerAttr) and value.value != 0)


def _print_linearize(pr: Printer, op: Operation) -> None:
    if _is_disjoint(op):
        pr.write(" disjoint")
    basis = print_dynamic_index_list(pr, _static_basis(op), segments(op, 1), "(")
    pr.write(f" [{pr.operands(segments(op, 0))}] by {basis}")
    pr.write(pr.attr_dict(op.attributes, ("disjoint", "operandSegmentSizes", "static_basis")))
    pr.write(" : " + pr.type(op.results[0].type))


def _verify_linearize(op: Operation) -> None:
    _verify_index_operands_and_results(op)
    basis = _static_basis(op)
    if len(segments(op, 0)) not in (len(basis), len(basis) + 1):
        op_error(op, "should be passed a basis element for each index except possibly the first")
    _verify_basis(op, basis, segments(op, 1))


def index_op_maps(op: Operation) -> tuple[list[AffineMap], list[Value]]:
    """``affine.delinearize_index`` or ``affine.linearize_index`` as one single-result map
    per result over the op's operands (the indices as dims, the dynamic basis as
    symbols). A delinearization's strides are the suffix products of its basis without
    the outer bound when one is given: ``into (B, C)`` with three results is ``x floordiv
    (B C)``, ``(x mod (B C)) floordiv C``, ``x mod C``; a linearization sums each index
    times the product of the basis after it."""
    delinearize = op.name == "affine.delinearize_index"
    indices = op.operands[:1] if delinearize else segments(op, 0)
    dynamic = op.operands[1:] if delinearize else segments(op, 1)
    symbols = iter(symbol(k) for k in range(len(dynamic)))
    basis: list[AffineExpr | int] = [
        next(symbols) if b == DYNAMIC else b for b in _static_basis(op)
    ]
    count = len(op.results) if delinearize else len(indices)
    inner = basis[len(basis) - (count - 1) :] if count > 1 else []  # no outer bound

    def product(factors: list[AffineExpr | int]) -> AffineExpr:
        total = constant(1)
        for f in factors:
            total = total * f
        return total

    if not delinearize:
        linear = constant(0)
        for k in range(count):
            linear = linear + dim(k) * product(inner[k:])
        return [AffineMap.get(count, len(dynamic), [linear])], [*indices, *dynamic]
    x = dim(0)
    results = [x.floordiv(product(inner))] if count > 1 else [x]
    for k in range(1, count):
        results.append(x.mod(product(inner[k - 1 :])).floordiv(product(inner[k:])))
    return [AffineMap.get(1, len(dynamic), [r]) for r in results], [*indices, *dynamic]


define(
    "affine.delinearize_index",
    parse=_parse_delinearize,
    print=_print_delinearize,
    verify=_verify_delinearize,
    properties=("static_basis",),
    traits=(PURE,),
)
define(
    "affine.linearize_index",
    parse=_parse_linearize,
    print=_print_linearize,
    verify=_verify_linearize,
    properties=("disjoint", "operandSegmentSizes", "static_basis"),
    traits=(PURE,),
)

__all__ = [
    "DmaStartOp",
    "ForOp",
    "IfOp",
    "LoadOp",
    "ParallelOp",
    "StoreOp",
    "affine_scope",
    "is_valid_dim",
    "is_valid_symbol",
]
