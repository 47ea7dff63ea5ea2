"""Load rotation: the overlapping vector loads of one row in a loop, each element loaded
once; the ``affine-rotate-loads`` pass.

A loop of step ``s`` whose straight-line body loads vectors of ``W`` lanes from
``X[..., iv + c]`` at several constant offsets ``c`` (a stencil's neighbours, as
:mod:`transforms.register_tiling` vectorises them) loads most elements several times, each
load split across cache lines; LLVM keeps them as loads. Rotation keeps *anchors*: vectors
of ``X`` ending at ``iv + cmax + s - 1 - q*W`` for ``q = 0..Q``. An iteration loads the
``s / W`` newest, takes the others from the iteration before (``iter_args``: its anchor
``q - s/W``) and builds every load as one anchor or a ``vector.shuffle`` of two
neighbouring ones. The anchors of the first iteration are loaded before the loop, under
an ``affine.if`` that the loop runs at all; no load reads an element the loop's own loads
do not (the oldest anchor, where it would start below the lowest load, is loaded from
there and shifted into place, its lanes below never used). Measured on jacobi-1d's time
tiles at LARGE sizes: 1.80x against 1.30x with three loads per vector.

Invariant: a load is rotated only where the loop body writes nothing of its buffer and
holds no op with unknown effects, so that every value carried from the iteration before
is what the load would read.
"""

from __future__ import annotations

from dataclasses import dataclass

from affine.analysis.loops import lower_bound, upper_bound
from affine.analysis.value_map import ValueMap, substitute
from affine.dialects.builders import affine_if, affine_yield
from affine.ir.attributes import AffineMapAttr, DenseArrayAttr
from affine.ir.core import Module, Operation, Value
from affine.ir.registry import PURE
from affine.ir.types import I64, VectorType
from affine.math.affine_map import AffineMap
from affine.math.expr import dim
from affine.ops import ForOp
from poly.legality import Verdict, where
from transforms.loop_pass import functions
from transforms.loop_utils import new_loop
from transforms.register_tiling import buffer_of, nonempty_condition
from transforms.registry import PassContext

_LOADS = ("affine.load", "affine.vector_load", "memref.load")
_STORES = ("affine.store", "affine.vector_store", "memref.store")


@dataclass(frozen=True)
class Stream:
    """The vector loads of one row of ``memref`` in a loop: ``loads[k]`` reads ``lanes``
    lanes from ``iv + offsets[k]`` in the last subscript, the other subscripts the same."""

    memref: Value
    loads: tuple[Operation, ...]
    offsets: tuple[int, ...]
    lanes: int

    def anchor(self, step: int, offset: int) -> tuple[int, int]:
        """``(q, r)``: the load at ``offset`` ends ``r`` lanes before the end of anchor
        ``q`` (it is anchor ``q`` when ``r`` is 0, else it starts in anchor ``q + 1``)."""
        d = max(self.offsets) + step - self.lanes - offset
        return d // self.lanes, d % self.lanes

    def anchors(self, step: int) -> int:
        """``Q + 1``: how many anchors the loads use."""
        return 1 + max(q + (1 if r else 0) for q, r in (self.anchor(step, c) for c in self.offsets))

    def end(self, step: int, q: int) -> int:
        """Where anchor ``q`` ends, relative to the IV."""
        return max(self.offsets) + step - 1 - q * self.lanes

    def describe(self, step: int) -> str:
        offsets = ", ".join(f"{c:+d}" for c in sorted(set(self.offsets)))
        kept = self.anchors(step) - step // self.lanes
        return (
            f"{len(set(self.offsets))} loads of {self.lanes} lanes at {offsets} from "
            f"{where(self.loads[0])} -> {step // self.lanes} per iteration, {kept} carried"
        )


def _offset(load: Operation, iv: Value) -> tuple[tuple, int] | None:
    """The row a vector load reads (memref, other subscripts) and its constant offset from
    ``iv`` in the last subscript; None unless it has that shape."""
    if load.name != "affine.vector_load":
        return None
    t = load.results[0].type
    if not isinstance(t, VectorType) or len(t.shape) != 1:
        return None
    m = load.properties["map"].value  # type: ignore[attr-defined]  # an affine op's map
    operands = tuple(load.operands[1:])
    uses = [p for p, v in enumerate(operands) if v is iv]
    if len(uses) != 1 or uses[0] >= m.num_dims:
        return None
    p = uses[0]
    *outer, last = m.results
    if any(e.is_function_of_dim(p) for e in outer):
        return None
    rest = last - dim(p)
    if not rest.is_constant:
        return None
    row = (load.operands[0], m.num_dims, m.num_symbols, tuple(outer), operands, t)
    return row, rest.value


def _body(loop: Operation) -> list[Operation]:
    return ForOp(loop).body.operations[:-1]


def streams_of(loop: Operation) -> tuple[list[Stream], str | None]:
    """The streams of ``loop`` that rotation serves (two offsets or more, a buffer the body
    does not write), or why there are none."""
    f = ForOp(loop)
    if loop.results:
        return [], f"{where(loop)} carries values (iter_args)"
    written: set[Value] = set()
    for op in _body(loop):
        if op.regions:
            return [], f"{where(op)}: the body is not straight-line code"
        if op.name in _STORES:
            written.add(buffer_of(op.operands[1]))
        elif op.name not in _LOADS and not (op.op_def is not None and op.op_def.has(PURE)):
            return [], f"{where(op)}: '{op.name}' has effects the rotation cannot see"
    rows: dict[tuple, list[tuple[Operation, int]]] = {}
    for op in _body(loop):
        found = _offset(op, f.induction_var)
        if found is not None:
            rows.setdefault(found[0], []).append((op, found[1]))
    step = f.step
    result = []
    for row, loads in rows.items():
        lanes = row[5].shape[0]
        offsets = {c for _, c in loads}
        if (
            lanes < 2
            or step % lanes
            or buffer_of(row[0]) in written
            or len(offsets) <= step // lanes
        ):
            continue
        stream = Stream(row[0], tuple(op for op, _ in loads), tuple(c for _, c in loads), lanes)
        if stream.anchors(step) > step // lanes:
            result.append(stream)
    if not result:
        return [], f"{where(loop)}: no row is loaded at more offsets than vectors per iteration"
    return result, None


def check_load_rotation(loop: Operation) -> Verdict:
    """Whether :func:`rotate_loads` applies to ``loop``, and why not."""
    if loop.name != "affine.for":
        return Verdict(False, f"{where(loop)} is not an affine.for")
    if lower_bound(loop).map.num_results != 1:
        return Verdict(False, f"{where(loop)}: a lower bound with several results")
    _, why = streams_of(loop)
    return Verdict(why is None, why or "")


def rotate_loads(loop: Operation) -> list[str]:
    """Rotate the loads of ``loop`` (see the module docstring) in place, where
    :func:`check_load_rotation` finds it legal; what was rotated (nothing: unchanged)."""
    if not check_load_rotation(loop):
        return []
    found, _ = streams_of(loop)
    f = ForOp(loop)
    iv, step = f.induction_var, f.step
    lb, ub = lower_bound(loop), upper_bound(loop)
    block = loop.parent
    assert block is not None
    condition = nonempty_condition(lb, ub)
    guard = affine_if(condition.map_set, condition.operands)
    guard.loc = loop.loc
    block.insert_before(loop, guard)
    then = guard.regions[0].blocks[0]
    terminator = then.operations[-1]

    def emit(op: Operation, into: list[Operation]) -> Value:
        op.loc = loop.loc
        into.append(op)
        return op.results[0]

    prologue: list[Operation] = []
    inits: list[Value] = []
    for stream in found:
        low = min(stream.offsets)
        for q in range(step // stream.lanes, stream.anchors(step)):
            start = stream.end(step, q) - stream.lanes + 1
            value = emit(_vector_load(stream.loads[0], iv, lb, max(start, low)), prologue)
            if start < low:  # lanes below the lowest load: never used
                gap = low - start
                mask = [0] * gap + list(range(stream.lanes - gap))
                value = emit(_shuffle(value, value, mask), prologue)
            inits.append(value)
    for op in prologue:
        then.insert_before(terminator, op)
    rotated = new_loop(lb, ub, step, inits, like=loop)
    then.insert_before(terminator, rotated)
    g = ForOp(rotated)
    here = ValueMap(AffineMap.identity(1), (g.induction_var,))
    mapping: dict[Value, Value] = {iv: g.induction_var}
    carried = iter(g.body.arguments[1:])
    yields: list[Value] = []
    body: list[Operation] = []
    for stream in found:
        new = step // stream.lanes
        anchors = [
            emit(
                _vector_load(stream.loads[0], iv, here, stream.end(step, q) - stream.lanes + 1),
                body,
            )
            for q in range(new)
        ]
        anchors += [next(carried) for _ in range(new, stream.anchors(step))]
        for load, c in zip(stream.loads, stream.offsets):
            q, r = stream.anchor(step, c)
            if r == 0:
                mapping[load.results[0]] = anchors[q]
            else:
                mask = [stream.lanes - r + lane for lane in range(stream.lanes)]
                mapping[load.results[0]] = emit(_shuffle(anchors[q + 1], anchors[q], mask), body)
        yields += anchors[: stream.anchors(step) - new]
    for op in body:
        g.body.append(op)
    rotated_loads = {load for s in found for load in s.loads}
    for op in _body(loop):
        if op in rotated_loads:
            continue
        g.body.append(op.clone(mapping))
    g.body.append(affine_yield(yields))
    loop.erase()
    return [s.describe(step) for s in found]


def _vector_load(like: Operation, iv: Value, at: ValueMap | None, offset: int) -> Operation:
    """A load of the row ``like`` reads, from ``iv + offset`` in the last subscript (``iv``
    replaced by ``at`` when given)."""
    m = like.properties["map"].value  # type: ignore[attr-defined]  # an affine op's map
    operands = list(like.operands[1:])
    p = operands.index(iv)
    *outer, _ = m.results
    vm = ValueMap(
        AffineMap.get(m.num_dims, m.num_symbols, [*outer, dim(p) + offset]), tuple(operands)
    )
    if at is not None:
        new, ops = substitute(vm.map, vm.operands, iv, at)
        vm = ValueMap(new, tuple(ops))
    return Operation.create(
        "affine.vector_load",
        [like.operands[0], *vm.operands],
        [like.results[0].type],
        {"map": AffineMapAttr(vm.map)},
    )


def _shuffle(a: Value, b: Value, mask: list[int]) -> Operation:
    """``vector.shuffle a, b [mask]``: lane ``k`` of the result is lane ``mask[k]`` of
    ``a`` and ``b`` side by side."""
    t = a.type
    assert isinstance(t, VectorType)  # anchors are vectors
    result = VectorType((len(mask),), t.element_type)
    return Operation.create("vector.shuffle", [a, b], [result], {"mask": DenseArrayAttr(I64, mask)})


def rotate_function_loads(function: Operation) -> list[str]:
    """Rotate the loads of every loop of ``function`` where it applies; what was done."""
    done: dict[str, int] = {}
    for loop in [op for op in function.walk() if op.name == "affine.for"]:
        place = where(loop)
        for line in rotate_loads(loop):
            key = f"loads rotated in {place}: {line}"
            done[key] = done.get(key, 0) + 1
    return [key if n == 1 else f"{key} (in {n} copies of the loop)" for key, n in done.items()]


@dataclass
class RotateLoads:
    """``--affine-rotate-loads``: every loop's overlapping vector loads of a row loaded
    once (see the module docstring), with a remark for each loop rotated."""

    name = "affine-rotate-loads"

    def run(self, module: Module, context: PassContext) -> Module:
        for function in functions(module, context):
            for line in rotate_function_loads(function):
                context.emit(function, "remark", line)
        return module


__all__ = [
    "RotateLoads",
    "Stream",
    "check_load_rotation",
    "rotate_function_loads",
    "rotate_loads",
    "streams_of",
]
