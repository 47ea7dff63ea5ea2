"""Constructors for the ops transformations and tests create most often.

Each function returns a detached :class:`~affine.ir.core.Operation` with exactly the operands and
properties ``mlir-opt`` would give it (so generic printing matches); insert it with
``block.append``/``block.insert_before``.
"""

from __future__ import annotations

from collections.abc import Sequence

from affine.dialects.common import FASTMATH_NONE, OVERFLOW_NONE, segment_sizes
from affine.ir.attributes import (
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    DenseElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerSetAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
)
from affine.ir.core import Block, Operation, Region, Value
from affine.ir.registry import lookup
from affine.ir.types import I32, I64, INDEX, FloatType, FunctionType, MemRefType, TensorType, Type
from affine.math.affine_map import AffineMap
from affine.math.integer_set import IntegerSet


def affine_for(
    lower: AffineMap | int,
    lower_operands: Sequence[Value],
    upper: AffineMap | int,
    upper_operands: Sequence[Value],
    step: int = 1,
    inits: Sequence[Value] = (),
    terminator: bool = True,
) -> Operation:
    """``affine.for`` with an empty body holding the induction variable (and iter_args).

    With ``terminator`` and no ``inits`` the body gets its ``affine.yield``."""
    lb = AffineMap.constant_map(lower) if isinstance(lower, int) else lower
    ub = AffineMap.constant_map(upper) if isinstance(upper, int) else upper
    body = Block([INDEX] + [v.type for v in inits])
    if terminator and not inits:
        body.append(Operation.create("affine.yield"))
    return Operation.create(
        "affine.for",
        [*lower_operands, *upper_operands, *inits],
        [v.type for v in inits],
        {
            "lowerBoundMap": AffineMapAttr(lb),
            "upperBoundMap": AffineMapAttr(ub),
            "step": IntegerAttr(step, INDEX),
            "operandSegmentSizes": segment_sizes(
                len(lower_operands), len(upper_operands), len(inits)
            ),
        },
        regions=[Region([body])],
    )


def affine_if(
    condition: IntegerSet,
    operands: Sequence[Value],
    with_else: bool = False,
    result_types: Sequence[Type] = (),
) -> Operation:
    then_block = Block()
    regions = [Region([then_block]), Region()]
    if not result_types:
        then_block.append(Operation.create("affine.yield"))
    if with_else:
        else_block = Block()
        if not result_types:
            else_block.append(Operation.create("affine.yield"))
        regions[1].add_block(else_block)
    return Operation.create(
        "affine.if",
        operands,
        result_types,
        {"condition": IntegerSetAttr(condition)},
        regions=regions,
    )


def affine_parallel(
    lower: AffineMap,
    lower_operands: Sequence[Value],
    upper: AffineMap,
    upper_operands: Sequence[Value],
    step: int = 1,
    body: Block | None = None,
    reductions: Sequence[int] = (),
    result_types: Sequence[Type] = (),
) -> Operation:
    """A one-dimensional ``affine.parallel`` from ``max(lower)`` to ``min(upper)``; without
    ``body``, an empty body (its induction variable and ``affine.yield``). ``reductions``
    are indices into ``affine.ops.REDUCTION_KINDS``, one per result."""
    if body is None:
        body = Block([INDEX])
        body.append(Operation.create("affine.yield"))
    return Operation.create(
        "affine.parallel",
        [*lower_operands, *upper_operands],
        list(result_types),
        {
            "lowerBoundsMap": AffineMapAttr(lower),
            "lowerBoundsGroups": _groups(lower.num_results),
            "upperBoundsMap": AffineMapAttr(upper),
            "upperBoundsGroups": _groups(upper.num_results),
            "steps": ArrayAttr([IntegerAttr(step, I64)]),
            "reductions": ArrayAttr([IntegerAttr(kind, I64) for kind in reductions]),
        },
        regions=[Region([body])],
    )


def _groups(count: int) -> DenseElementsAttr:
    return DenseElementsAttr(TensorType([1], I32), [count])


def affine_yield(values: Sequence[Value] = ()) -> Operation:
    return Operation.create("affine.yield", values)


def affine_apply(m: AffineMap, operands: Sequence[Value]) -> Operation:
    return Operation.create("affine.apply", operands, [INDEX], {"map": AffineMapAttr(m)})


def affine_min_max(kind: str, m: AffineMap, operands: Sequence[Value]) -> Operation:
    return Operation.create(f"affine.{kind}", operands, [INDEX], {"map": AffineMapAttr(m)})


def affine_load(memref: Value, m: AffineMap, operands: Sequence[Value]) -> Operation:
    t = memref.type
    assert isinstance(t, MemRefType)
    return Operation.create(
        "affine.load", [memref, *operands], [t.element_type], {"map": AffineMapAttr(m)}
    )


def affine_store(value: Value, memref: Value, m: AffineMap, operands: Sequence[Value]) -> Operation:
    return Operation.create(
        "affine.store", [value, memref, *operands], [], {"map": AffineMapAttr(m)}
    )


def constant_index(value: int) -> Operation:
    return Operation.create("arith.constant", [], [INDEX], {"value": IntegerAttr(value, INDEX)})


def constant(value: int | float | bool, t: Type) -> Operation:
    attr: Attribute
    if isinstance(t, FloatType):
        attr = FloatAttr(float(value), t)
    else:
        attr = IntegerAttr(int(value), t)
    return Operation.create("arith.constant", [], [t], {"value": attr})


def arith(name: str, operands: Sequence[Value], result_type: Type | None = None) -> Operation:
    """An ``arith.*``/``math.*`` elementwise op with its default flag properties."""
    full = name if "." in name else f"arith.{name}"

    op_def = lookup(full)
    props: dict[str, Attribute] = {}
    if op_def is not None:
        if "fastmath" in op_def.properties:
            props["fastmath"] = FASTMATH_NONE
        if "overflowFlags" in op_def.properties:
            props["overflowFlags"] = OVERFLOW_NONE
    t = result_type if result_type is not None else operands[0].type
    return Operation.create(full, operands, [t], props)


def memref_alloc(
    t: MemRefType,
    dynamic_sizes: Sequence[Value] = (),
    symbols: Sequence[Value] = (),
    alloca: bool = False,
) -> Operation:
    return Operation.create(
        "memref.alloca" if alloca else "memref.alloc",
        [*dynamic_sizes, *symbols],
        [t],
        {"operandSegmentSizes": segment_sizes(len(dynamic_sizes), len(symbols))},
    )


def memref_dealloc(memref: Value) -> Operation:
    return Operation.create("memref.dealloc", [memref])


def func(
    name: str, inputs: Sequence[Type], results: Sequence[Type] = (), private: bool = False
) -> Operation:
    """``func.func`` with an entry block whose arguments match ``inputs`` (no body ops)."""
    props: dict[str, Attribute] = {
        "sym_name": StringAttr(name),
        "function_type": TypeAttr(FunctionType(inputs, results)),
    }
    if private:
        props["sym_visibility"] = StringAttr("private")
        return Operation.create("func.func", properties=props, regions=1)
    return Operation.create("func.func", properties=props, regions=[Region([Block(inputs)])])


def func_return(values: Sequence[Value] = ()) -> Operation:
    return Operation.create("func.return", values)


def func_call(callee: str, operands: Sequence[Value], result_types: Sequence[Type]) -> Operation:
    return Operation.create("func.call", operands, result_types, {"callee": SymbolRefAttr(callee)})


def module(ops: Sequence[Operation] = ()) -> Operation:
    block = Block()
    for op in ops:
        block.append(op)
    return Operation.create("builtin.module", regions=[Region([block])])
