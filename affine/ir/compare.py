"""Structural comparison of IR: equal up to renaming of SSA values and blocks."""

from __future__ import annotations

from affine.ir.core import Block, Module, Operation, Region, Value


def ir_difference(a: Module | Operation, b: Module | Operation) -> str | None:
    """None when ``a`` and ``b`` are the same IR up to value and block names; otherwise a
    description of the first difference (op names, attributes, types, operand wiring,
    region and block structure)."""
    op_a = a.operation if isinstance(a, Module) else a
    op_b = b.operation if isinstance(b, Module) else b
    values: dict[Value, Value] = {}
    blocks: dict[Block, Block] = {}
    return _op(op_a, op_b, values, blocks, "")


def structurally_equal(a: Module | Operation, b: Module | Operation) -> bool:
    return ir_difference(a, b) is None


def _op(a: Operation, b: Operation, values: dict, blocks: dict, path: str) -> str | None:
    here = f"{path}/{a.name}"
    if a.name != b.name:
        return f"{here}: op name {a.name} != {b.name}"
    if a.properties != b.properties:
        return f"{here}: properties {a.properties} != {b.properties}"
    if a.attributes != b.attributes:
        return f"{here}: attributes {a.attributes} != {b.attributes}"
    if len(a.operands) != len(b.operands):
        return f"{here}: {len(a.operands)} operands != {len(b.operands)}"
    for i, (va, vb) in enumerate(zip(a.operands, b.operands)):
        mapped = values.get(va)
        if mapped is None:
            return f"{here}: operand #{i} is defined outside the compared IR"
        if mapped is not vb:
            return f"{here}: operand #{i} refers to a different value"
    if [r.type for r in a.results] != [r.type for r in b.results]:
        return f"{here}: result types differ"
    for ra, rb in zip(a.results, b.results):
        values[ra] = rb
    if len(a.successors) != len(b.successors):
        return f"{here}: successor counts differ"
    if len(a.regions) != len(b.regions):
        return f"{here}: {len(a.regions)} regions != {len(b.regions)}"
    for i, (region_a, region_b) in enumerate(zip(a.regions, b.regions)):
        problem = _region(region_a, region_b, values, blocks, f"{here}#region{i}")
        if problem:
            return problem
    for i, (sa, sb) in enumerate(zip(a.successors, b.successors)):
        if blocks.get(sa) is not sb:
            return f"{here}: successor #{i} differs"
    return None


def _region(a: Region, b: Region, values: dict, blocks: dict, path: str) -> str | None:
    if len(a.blocks) != len(b.blocks):
        return f"{path}: {len(a.blocks)} blocks != {len(b.blocks)}"
    for ba, bb in zip(a.blocks, b.blocks):
        blocks[ba] = bb
        if [x.type for x in ba.arguments] != [x.type for x in bb.arguments]:
            return f"{path}: block argument types differ"
        for xa, xb in zip(ba.arguments, bb.arguments):
            values[xa] = xb
    # Forward references across blocks: map all results first, then compare.
    for ba, bb in zip(a.blocks, b.blocks):
        for oa, ob in zip(ba.operations, bb.operations):
            for ra, rb in zip(oa.results, ob.results):
                values[ra] = rb
    for index, (ba, bb) in enumerate(zip(a.blocks, b.blocks)):
        if len(ba.operations) != len(bb.operations):
            return f"{path}/block{index}: {len(ba.operations)} ops != {len(bb.operations)}"
        for oa, ob in zip(ba.operations, bb.operations):
            problem = _op(oa, ob, values, blocks, f"{path}/block{index}")
            if problem:
                return problem
    return None
