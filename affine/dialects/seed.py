"""The 2018-19 syntax of the seed specification, read into the modern IR.

The reader switches to these rules construct by construct, with no flag: a top-level
``func @f``, instructions ``for``/``if``/``else``, ``affine_apply``, maps written without
``affine_map<...>`` (with ``size (...)`` and ``floordiv(x, c)``), memref layout
compositions and named memory spaces, and the standard ops of the specification (``alloc``,
``dim``, ``load``, ``store``, ``dma_start``, ``dma_wait``, ``dealloc``, ``constant``,
``addi``...).  Each becomes the modern op that means the same:

===============================  ==============================================================
seed                             modern
===============================  ==============================================================
``for``, ``if``, ``affine_apply``  ``affine.for``, ``affine.if``, ``affine.apply``
``load``/``store``/``dma_*``     ``affine.*`` when every index is a valid affine dimension or
                                 symbol, otherwise ``memref.*``
``dim %A, 1``                    ``memref.dim`` (or ``tensor.dim``) of an ``arith.constant``
``constant``                     ``arith.constant`` (``func.constant`` for ``@symbol``)
``addi``, ``divis``, ``remiu``..  ``arith.addi``, ``arith.divsi``, ``arith.remui``..
``tensor_load``/``tensor_store`` ``bufferization.to_tensor`` / ``.materialize_in_destination``
``func @f`` (no body)            ``func.func private @f``
===============================  ==============================================================

Known errors in the specification's own examples are reported with the message the
specification's grammar implies (see ``tests/corpus/seed_invalid``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from affine.dialects.affine_dialect import (
    DmaStartOp,
    _resolve_index,
    affine_scope,
    ensure_terminator,
    is_valid_dim,
    is_valid_symbol,
)
from affine.dialects.arith import CMPI_PREDICATES
from affine.dialects.common import create, parse_dma_start
from affine.dialects.func import parse_function_like
from affine.ir.attributes import (
    UNIT,
    AffineMapAttr,
    IntegerAttr,
    IntegerSetAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
)
from affine.ir.core import Operation, Region, Value
from affine.ir.registry import lookup
from affine.ir.types import I64, INDEX, MemRefType, TensorType, Type
from affine.math.affine_map import AffineMap
from affine.syntax.parser import Parser, install_seed_syntax

SeedParser = Callable[[Parser, int], Operation]

_ARITH_RENAMES = {
    "addi": "arith.addi",
    "addf": "arith.addf",
    "subi": "arith.subi",
    "subf": "arith.subf",
    "muli": "arith.muli",
    "mulf": "arith.mulf",
    "divf": "arith.divf",
    "divis": "arith.divsi",
    "diviu": "arith.divui",
    "remis": "arith.remsi",
    "remiu": "arith.remui",
    "remf": "arith.remf",
    "andi": "arith.andi",
    "ori": "arith.ori",
    "xori": "arith.xori",
    "cmpi": "arith.cmpi",
    "cmpf": "arith.cmpf",
    "select": "arith.select",
    "memref_cast": "memref.cast",
    "negf": "arith.negf",
    "index_cast": "arith.index_cast",
    "sitofp": "arith.sitofp",
    "fptosi": "arith.fptosi",
    "extf": "arith.extf",
    "truncf": "arith.truncf",
}


def _parse_as(modern: str, p: Parser, offset: int) -> Operation:
    """The op at ``offset`` read with the custom syntax of the registered op ``modern``."""
    op_def = lookup(modern)
    assert op_def is not None and op_def.parse is not None  # registered, with a custom syntax
    return op_def.parse(p, offset)


def _delegate(modern: str) -> SeedParser:
    def parse(p: Parser, offset: int) -> Operation:
        return _parse_as(modern, p, offset)

    return parse


def _parse_for(p: Parser, offset: int) -> Operation:
    return _parse_as("affine.for", p, offset)


def _parse_if(p: Parser, offset: int) -> Operation:
    """``if #set(...)[...] { } (else if ... | else { })?``."""

    s = p.parse_integer_set_attr()
    operands, num_dims = p.parse_dim_and_symbol_list()
    if s.num_dims != num_dims or num_dims + s.num_symbols != len(operands):
        p.error("dim and symbol operand counts must match the integer set", offset)
    values = _resolve_index(p, operands)
    then_region = p.parse_region()
    ensure_terminator(then_region, "affine.yield", p, offset)
    else_region = Region()
    if p.accept_keyword("else"):
        if p.at_keyword("if"):
            nested_offset = p.start
            p.advance()
            nested = _parse_if(p, nested_offset)
            block = else_region.add_block()
            block.append(nested)
            ensure_terminator(else_region, "affine.yield", p, offset)
        else:
            else_region = p.parse_region()
            ensure_terminator(else_region, "affine.yield", p, offset)
    return create(
        p,
        "affine.if",
        offset,
        values,
        [],
        {"condition": IntegerSetAttr(s)},
        None,
        [then_region, else_region],
    )


def _parse_alloc(p: Parser, offset: int) -> Operation:
    if p.at_keyword("memref") or p.at("<"):
        p.error(
            "expected '(' with the dynamic sizes after 'alloc' (seed grammar: "
            "alloc(%dims)[%symbols] : memref-type)"
        )
    return _parse_as("memref.alloc", p, offset)


def _parse_alloc_static(p: Parser, offset: int) -> Operation:
    p.expect("(")
    address = p.parse_integer("base address")
    p.expect(")")
    t = p.parse_colon_type()
    return create(p, "std.alloc_static", offset, [], [t], None, {"base": IntegerAttr(address, I64)})


def _parse_dim(p: Parser, offset: int) -> Operation:
    source = p.parse_operand()
    p.expect(",")
    index_offset = p.start
    index = p.parse_integer("dimension index")
    t = p.parse_colon_type()
    if not isinstance(t, (MemRefType, TensorType)) or (
        t.shape is not None and not 0 <= index < len(t.shape)
    ):
        p.error("dimension index out of range", index_offset)
    constant = create(
        p, "arith.constant", index_offset, [], [INDEX], {"value": IntegerAttr(index, INDEX)}
    )
    p.pre_ops.append(constant)
    name = "memref.dim" if isinstance(t, MemRefType) else "tensor.dim"
    return create(p, name, offset, [p.resolve(source, t), constant.results[0]], [INDEX])


def _parse_load(p: Parser, offset: int) -> Operation:
    memref = p.parse_operand()
    m, indices = p.parse_affine_map_of_ssa_ids()
    t = p.parse_colon_type()
    if not isinstance(t, MemRefType):
        p.error("expected memref type")
    values = [p.resolve(memref, t)] + p.resolve_all(indices, INDEX)
    return create(p, "affine.load", offset, values, [t.element_type], {"map": AffineMapAttr(m)})


def _parse_store(p: Parser, offset: int) -> Operation:
    if not p.at("%"):
        p.error(
            "expected SSA value to store (seed grammar: store %value, %memref[%indices] : memref-type)"
        )
    value = p.parse_operand()
    p.expect(",")
    memref = p.parse_operand()
    m, indices = p.parse_affine_map_of_ssa_ids()
    t = p.parse_colon_type()
    if not isinstance(t, MemRefType):
        p.error("expected memref type")
    values = [p.resolve(value, t.element_type), p.resolve(memref, t)] + p.resolve_all(
        indices, INDEX
    )
    return create(p, "affine.store", offset, values, [], {"map": AffineMapAttr(m)})


def _parse_constant(p: Parser, offset: int) -> Operation:
    if p.at("@"):
        return _parse_as("func.constant", p, offset)
    attrs = p.parse_optional_attr_dict()
    value = p.parse_attribute()
    t = getattr(value, "type", None)
    if t is None:
        p.error("expected a typed constant value")
    return create(p, "arith.constant", offset, [], [t], {"value": value}, attrs)


def _parse_tensor_load(p: Parser, offset: int) -> Operation:
    memref = p.parse_operand()
    t = p.parse_colon_type()
    if not isinstance(t, MemRefType):
        p.error("expected memref type")
    tensor = TensorType(t.shape, t.element_type)
    return create(p, "bufferization.to_tensor", offset, [p.resolve(memref, t)], [tensor])


def _parse_tensor_store(p: Parser, offset: int) -> Operation:
    tensor = p.parse_operand()
    p.expect(
        ",",
        " between the tensor and the memref (seed grammar: tensor_store %tensor, %memref : memref-type)",
    )
    memref = p.parse_operand()
    t = p.parse_colon_type()
    if not isinstance(t, MemRefType):
        p.error("expected memref type")
    values = [p.resolve(tensor, TensorType(t.shape, t.element_type)), p.resolve(memref, t)]
    return create(
        p, "bufferization.materialize_in_destination", offset, values, [], {"writable": UNIT}
    )


def _parse_tensor_cast(p: Parser, offset: int) -> Operation:
    source = p.parse_operand()
    t_in = p.parse_colon_type()
    p.expect_keyword("to")
    t_out = p.parse_type()
    return create(p, "tensor.cast", offset, [p.resolve(source, t_in)], [t_out])


def _parse_extract_element(p: Parser, offset: int) -> Operation:
    source = p.parse_operand()
    indices = p.parse_operand_list("[")
    t = p.parse_colon_type()
    if not isinstance(t, TensorType) or t.shape is None:
        p.error(
            "'extract_element' is read for ranked tensors only (its modern form tensor.extract "
            "needs a rank; vectors need static positions)"
        )
    values = [p.resolve(source, t)] + p.resolve_all(indices, INDEX)
    return create(p, "tensor.extract", offset, values, [t.element_type])


def _parse_dma_start(p: Parser, offset: int) -> Operation:
    """The seed order (count before tag) with affine subscripts, as ``affine.dma_start``."""

    return parse_dma_start(p, offset, "affine.dma_start", True, True, "expected three memref types")


def _parse_dma_wait(p: Parser, offset: int) -> Operation:
    return _parse_as("affine.dma_wait", p, offset)


def _no_modern_form(name: str) -> SeedParser:
    def parse(p: Parser, offset: int) -> Operation:
        p.error(
            f"the seed operation '{name}' has no modern equivalent that this reader produces",
            offset,
        )

    return parse


def _parse_br_cond(p: Parser, offset: int) -> Operation:
    p.error("unknown operation 'br_cond' (the seed specification defines it as 'cond_br')", offset)


SEED_PARSERS: dict[str, SeedParser] = {
    "for": _parse_for,
    "if": _parse_if,
    "affine_apply": _delegate("affine.apply"),
    "alloc": _parse_alloc,
    "alloc_static": _parse_alloc_static,
    "dealloc": _delegate("memref.dealloc"),
    "dim": _parse_dim,
    "load": _parse_load,
    "store": _parse_store,
    "dma_start": _parse_dma_start,
    "dma_wait": _parse_dma_wait,
    "constant": _parse_constant,
    "tensor_load": _parse_tensor_load,
    "tensor_store": _parse_tensor_store,
    "tensor_cast": _parse_tensor_cast,
    "extract_element": _parse_extract_element,
    "br": _delegate("cf.br"),
    "cond_br": _delegate("cf.cond_br"),
    "br_cond": _parse_br_cond,
    "reshape": _no_modern_form("reshape"),
    "view": _no_modern_form("view"),
    **{old: _delegate(new) for old, new in _ARITH_RENAMES.items()},
}


def parse_seed_function(p: Parser) -> Operation:
    """``func @name(...) -> ... attributes {...} { body }`` at the top level."""

    offset = p.start
    p.advance()  # 'func'
    p.seed_functions += 1
    op = parse_function_like(p, offset, "func.func", "func")
    p.seed_functions -= 1
    if not op.regions[0].blocks and "sym_visibility" not in op.properties:
        op.properties["sym_visibility"] = StringAttr("private")
    p.seed_ops.append(op)
    return op


# -- generic ops of the seed's standard dialect -------------------------------------------------

_STD_GENERIC = {
    "std.constant",
    "std.dim",
    "std.cmpi",
    "std.select",
    "std.tensor_cast",
    "constant",
    "dim",
    "cmpi",
    "select",
    "tensor_cast",
}


def is_seed_generic_name(name: str) -> bool:
    return name in _STD_GENERIC


# -- after parsing: choose affine or memref forms, rename standard ops -------------------------------


def modernize(module: Operation, seed_ops: list[Operation]) -> None:
    """Rewrite ops read from seed syntax into their modern equivalents (in place)."""
    for op in seed_ops:
        if op.parent is None and op.name != "func.func":
            continue
        name = op.name
        if name in ("affine.load", "affine.store", "affine.dma_start", "affine.dma_wait"):
            _affine_or_memref(op)
        elif name.startswith("std.") or name in _STD_GENERIC:
            _modernize_std_generic(op)


def _valid_affine_indices(op: Operation, indices: list[Value]) -> bool:
    scope = affine_scope(op)
    return all(is_valid_dim(v, scope) or is_valid_symbol(v, scope) for v in indices)


def _materialize(op: Operation, m, operands: list[Value]) -> list[Value]:
    """SSA values for the results of ``m`` applied to ``operands`` (inserted before ``op``)."""

    block = op.parent
    assert block is not None
    values: list[Value] = []
    for r in m.results:
        if r.kind == "dim":
            values.append(operands[r.value])
            continue
        if r.kind == "const":
            new = Operation.create(
                "arith.constant", [], [INDEX], {"value": IntegerAttr(r.value, INDEX)}, loc=op.loc
            )
        else:
            single = AffineMap.get(m.num_dims, m.num_symbols, [r])
            new = Operation.create(
                "affine.apply", operands, [INDEX], {"map": AffineMapAttr(single)}, loc=op.loc
            )
        block.insert_before(op, new)
        values.append(new.results[0])
    return values


def _affine_or_memref(op: Operation) -> None:
    name = op.name
    if name == "affine.load":
        indices = op.operands[1:]
        if _valid_affine_indices(op, indices):
            return
        m = op.properties.pop("map").value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
        op.operands = [op.operands[0]] + _materialize(op, m, indices)
        op.name = "memref.load"
    elif name == "affine.store":
        indices = op.operands[2:]
        if _valid_affine_indices(op, indices):
            return
        m = op.properties.pop("map").value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
        op.operands = op.operands[:2] + _materialize(op, m, indices)
        op.name = "memref.store"
    elif name == "affine.dma_start":
        d = DmaStartOp(op)
        if _valid_affine_indices(op, d.src_indices + d.dst_indices + d.tag_indices):
            return
        src = _materialize(op, d.src_map, d.src_indices)
        dst = _materialize(op, d.dst_map, d.dst_indices)
        tag = _materialize(op, d.tag_map, d.tag_indices)
        strides = [d.stride, d.elements_per_stride] if d.is_strided else []
        op.operands = [d.src, *src, d.dst, *dst, d.num_elements, d.tag, *tag, *strides]  # type: ignore[list-item]  # the DMA view's optional operands are present in the seed form
        op.attributes.clear()
        op.name = "memref.dma_start"
    elif name == "affine.dma_wait":
        indices = op.operands[1:-1]
        if _valid_affine_indices(op, indices):
            return
        m = op.attributes.pop("tag_map").value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
        op.operands = [op.operands[0]] + _materialize(op, m, indices) + [op.operands[-1]]
        op.name = "memref.dma_wait"


def _modernize_std_generic(op: Operation) -> None:
    base = op.name.split(".", 1)[-1]

    if base == "constant":
        value = op.attributes.pop("value", None)
        if isinstance(value, SymbolRefAttr):
            op.name = "func.constant"
        else:
            op.name = "arith.constant"
        if value is not None:
            op.properties["value"] = value
    elif base == "dim":
        index = op.attributes.pop("index", None)
        if isinstance(index, IntegerAttr) and op.parent is not None:
            constant = Operation.create(
                "arith.constant",
                [],
                [INDEX],
                {"value": IntegerAttr(index.value, INDEX)},
                loc=op.loc,
            )
            op.parent.insert_before(op, constant)
            op.operands.append(constant.results[0])
        op.name = "memref.dim" if isinstance(op.operands[0].type, MemRefType) else "tensor.dim"
    elif base == "cmpi":
        predicate = op.attributes.pop("predicate", None)
        if isinstance(predicate, StringAttr):
            predicate = IntegerAttr(CMPI_PREDICATES.index(predicate.value), I64)
        elif isinstance(predicate, IntegerAttr):
            predicate = IntegerAttr(predicate.value, I64)
        if predicate is not None:
            op.properties["predicate"] = predicate
        op.name = "arith.cmpi"
    elif base == "select":
        op.name = "arith.select"
    elif base == "tensor_cast":
        op.name = "tensor.cast"


__all__ = [
    "SEED_PARSERS",
    "OpaqueAttr",
    "Type",
    "is_seed_generic_name",
    "modernize",
    "parse_seed_function",
]


install_seed_syntax(sys.modules[__name__])  # the parser reads seed syntax through this module
