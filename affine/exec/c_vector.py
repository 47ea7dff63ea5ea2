"""C for the ``vector`` ops: broadcast, reduction, extract, insert and shuffle (``vector.fma`` and
the vector loads and stores share the emitters of their scalar counterparts).

Invariant: a vector value is a struct holding its lanes in row-major order
(:meth:`~affine.exec.c_emitter.ProgramEmitter.vector_type`); each op reads and writes the
lanes :mod:`affine.exec.semantics` says, with the scalar C of :mod:`affine.exec.c_scalar`.
"""

from __future__ import annotations

from affine.dialects.vector import (
    combining_kind,
    position_operands,
    shuffle_mask,
    static_position,
)
from affine.exec.c_emitter import FunctionEmitter, c_op, lane_count
from affine.exec.c_scalar import binary_c, float_literal
from affine.exec.elements import float_values
from affine.exec.semantics import (
    broadcast_sources,
    combining_op,
    position_lanes,
    reduction_start,
)
from affine.ir.core import Operation
from affine.ir.types import DYNAMIC, VectorType


@c_op("vector.broadcast")
def _c_broadcast(e: FunctionEmitter, op: Operation) -> None:
    source, result = op.operands[0], op.results[0]
    assert isinstance(result.type, VectorType)  # the verifier checked it
    if not isinstance(source.type, VectorType):
        with e.lanes():
            e.define(result, e.v(source), op.loc)
        return
    picked = broadcast_sources(tuple(source.type.shape), tuple(result.type.shape))
    lanes = lane_count(source.type)
    name = e.names[source]
    if picked == [k % lanes for k in range(len(picked))]:  # the source repeats as a whole
        with e.lanes() as lane:
            e.define(result, f"{name}.v[{lane} % {lanes}]", op.loc)
        return
    copy = e.declare(result, None, op.loc)
    for k, p in enumerate(picked):
        e.line(f"{copy}.v[{k}] = {name}.v[{p}];")


@c_op("vector.shuffle")
def _c_shuffle(e: FunctionEmitter, op: Operation) -> None:
    first, second = op.operands
    assert isinstance(first.type, VectorType)  # the verifier checked it
    lanes = lane_count(first.type)
    copy = e.declare(op.results[0], None, op.loc)
    for k, p in enumerate(shuffle_mask(op)):
        source, lane = (first, max(p, 0)) if p < lanes else (second, p - lanes)
        e.line(f"{copy}.v[{k}] = {e.names[source]}.v[{lane}];")


@c_op("vector.reduction")
def _c_reduction(e: FunctionEmitter, op: Operation) -> None:
    source, result = op.operands[0], op.results[0]
    assert isinstance(source.type, VectorType)  # the verifier checked it
    info = e.info(result, op.loc)
    name = combining_op(combining_kind(op), info.kind == "float")
    lanes = e.names[source]
    first = f"{lanes}.v[0]"
    start = reduction_start(combining_kind(op), info.kind == "float")
    if len(op.operands) > 1:
        first = binary_c(name, e.v(op.operands[1]), first, info, 0)
    elif start is not None:
        first = binary_c(name, float_literal(float_values(start, info), info), first, info, 0)
    acc = e.declare(result, first, op.loc)
    lane = e.fresh("l")
    step = binary_c(name, acc, f"{lanes}.v[{lane}]", info, 0)
    count = lane_count(source.type)
    e.line(f"for (int64_t {lane} = 1; {lane} < {count}; ++{lane}) {acc} = {step};")


def _first_lane(e: FunctionEmitter, op: Operation, vector: VectorType) -> str:
    """C for the first lane the op's position selects; a dynamic position outside the
    vector is reported (and lane 0 used in its place)."""
    dynamic = iter(position_operands(op))
    position = [str(p) if p != DYNAMIC else e.v(next(dynamic)) for p in static_position(op)]
    if all(p.lstrip("-").isdigit() for p in position):
        return str(position_lanes(tuple(vector.shape), tuple(int(p) for p in position))[0])
    count = lane_count(vector)
    flat = "0"
    for p, size in zip(position, vector.shape):
        count //= size
        flat = f"({flat} * {size} + {p})"
    outside = " || ".join(
        f"({p}) < 0 || ({p}) >= {size}" for p, size in zip(position, vector.shape)
    )
    code = e.program.error_code(op, f"'{op.name}' position outside '{vector}'")
    first = e.fresh("p")
    e.line(f"const int64_t {first} = ({outside}) ? 0 : {flat} * {count};")
    e.line(f"if ({outside}) pa_fail({code});")
    return first


@c_op("vector.extract")
def _c_extract(e: FunctionEmitter, op: Operation) -> None:
    source, result = op.operands[0], op.results[0]
    assert isinstance(source.type, VectorType)  # the verifier checked it
    first = _first_lane(e, op, source.type)
    lanes = e.names[source]
    if not isinstance(result.type, VectorType):
        e.define(result, f"{lanes}.v[{first}]", op.loc)
        return
    with e.lanes() as lane:
        e.define(result, f"{lanes}.v[{first} + {lane}]", op.loc)


@c_op("vector.insert")
def _c_insert(e: FunctionEmitter, op: Operation) -> None:
    value, dest, result = op.operands[0], op.operands[1], op.results[0]
    assert isinstance(dest.type, VectorType)  # the verifier checked it
    first = _first_lane(e, op, dest.type)
    copy = e.declare(result, e.names[dest], op.loc)
    if not isinstance(value.type, VectorType):
        e.line(f"{copy}.v[{first}] = {e.v(value)};")
        return
    lane = e.fresh("l")
    count = lane_count(value.type)
    part = e.names[value]
    e.line(
        f"for (int64_t {lane} = 0; {lane} < {count}; ++{lane}) {copy}.v[{first} + {lane}] = {part}.v[{lane}];"
    )
