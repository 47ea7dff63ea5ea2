"""Double buffering of incoming DMAs in a loop (mlir-opt's ``-affine-pipeline-data-transfer``).

Invariant: after :func:`pipeline_loop`, the transfer of iteration ``i + 1`` is started before
the computation of iteration ``i`` and lands in the other half of a buffer (and tag) that
gained a leading dimension of 2, indexed by ``(iv floordiv step) mod 2``; the first start
runs before the loop (prologue), the last wait and computation after it (epilogue). Every
iteration computes what it computed before, which :func:`check_pipelining` establishes:
the buffer and tag are private to the loop and carry no value from one iteration to the
next, and no access of iteration ``i`` after the start depends on anything a start of
iteration ``i + 1`` touches.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

from affine.analysis.loops import lower_bound
from affine.analysis.value_map import (
    MapSlot,
    ValueMap,
    canonicalize_affine_ops,
    map_slots,
    set_map_slots,
)
from affine.dialects.builders import affine_apply, constant_index, memref_alloc, memref_dealloc
from affine.dialects.memref import MemRefDmaStart
from affine.ir.core import Module, Operation, OpResult, Value, replace_uses
from affine.ir.registry import PURE, lookup
from affine.ir.types import DYNAMIC, MemRefType
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr, dim
from affine.ops import DmaStartOp, ForOp
from poly.deps import AnalysisWarning
from poly.flow import RAW, Edge, FlowAnalysis
from poly.legality import (
    LEGAL,
    MODELLED_ACCESSES,
    TRANSFERS,
    Verdict,
    band_distances,
    describe,
    unsupported_ops,
    where,
)
from transforms.errors import TransformError
from transforms.loop_pass import attempt, functions, refuse
from transforms.loop_utils import is_loop, loops, set_bound
from transforms.registry import PassContext

DMA_STARTS = ("affine.dma_start", "memref.dma_start")
DMA_WAITS = ("affine.dma_wait", "memref.dma_wait")
# Ops that use a buffer or tag only through indices this pass can extend.
_INDEXED_USES = tuple(name for name in MODELLED_ACCESSES if name not in TRANSFERS)


@dataclass(frozen=True)
class Transfer:
    """An incoming DMA of a loop body: its start, the wait on the same tag element, the fast
    buffer it fills and its tag."""

    start: Operation
    wait: Operation
    buffer: Value
    tag: Value


def is_faster(src: Value, dst: Value) -> bool:
    """Whether ``dst`` lives in a faster memory space than ``src``: a higher numbered space
    (mlir-opt's rule), or any named space (the seed syntax's ``vmem``) against the default."""
    spaces = []
    for value in (src, dst):
        t = value.type
        spaces.append(t.memory_space_number if isinstance(t, MemRefType) else 0)
    low, high = spaces
    if low is None or high is None:
        return low == 0 and high is None
    return high > low


def _tag_of(op: Operation) -> tuple[Value, tuple]:
    """The tag memref of a DMA start or wait and what identifies its element."""
    if op.name == "affine.dma_start":
        d = DmaStartOp(op)
        return d.tag, (d.tag_map, tuple(d.tag_indices))
    if op.name == "memref.dma_start":
        m = MemRefDmaStart(op)
        return m.tag, (None, tuple(m.tag_indices))
    tag_map = op.attributes.get("tag_map")
    key = (tag_map.value if tag_map is not None else None, tuple(op.operands[1:-1]))  # type: ignore[attr-defined]  # an affine.dma_wait's tag_map is an AffineMapAttr
    return op.operands[0], key


def _start_endpoints(op: Operation) -> tuple[Value, Value]:
    """Source and destination memrefs of a DMA start."""
    if op.name == "affine.dma_start":
        d = DmaStartOp(op)
        return d.src, d.dst

    m = MemRefDmaStart(op)
    return m.src, m.dst


def find_transfers(loop: Operation) -> tuple[list[Transfer], list[str]]:
    """The incoming DMAs of ``loop``'s body (destination in a faster memory space than the
    source, mlir-opt's rule) with their waits, and why any other incoming start is left out."""
    body = ForOp(loop).body.operations
    found: list[Transfer] = []
    problems: list[str] = []
    for k, op in enumerate(body):
        if op.name not in DMA_STARTS:
            continue
        src, dst = _start_endpoints(op)
        if not is_faster(src, dst):
            continue
        tag, key = _tag_of(op)
        waits = [w for w in body[k + 1 :] if w.name in DMA_WAITS and _tag_of(w) == (tag, key)]
        if not waits:
            problems.append(f"{where(op)} has no matching wait in the loop body")
            continue
        found.append(Transfer(op, waits[0], dst, tag))
    return found, problems


def _outside_uses(value: Value, loop: Operation, function: Operation) -> list[Operation]:
    return [
        op
        for op in function.walk()
        if any(v is value for v in op.operands) and not loop.is_ancestor_of(op)
    ]


def _check_private(value: Value, what: str, loop: Operation, function: Operation) -> Verdict:
    """The buffer or tag is allocated here, used in the loop only through indices, and outside
    it only by deallocs: doubling it changes nothing outside the loop."""
    owner = value.owner if isinstance(value, OpResult) else None
    if owner is None or owner.name != "memref.alloc":
        return Verdict(False, f"the {what} is not a memref.alloc of this function")
    if loop.is_ancestor_of(owner) and owner.parent is not ForOp(loop).body:
        return Verdict(False, f"the {what} is allocated in a nested region of the loop")
    if any(loop.is_ancestor_of(v.owner) for v in owner.operands if isinstance(v, OpResult)):
        return Verdict(False, f"the {what}'s dynamic sizes are computed in the loop")
    for op in loop.walk():
        if any(v is value for v in op.operands):
            if op.name == "memref.dealloc" and op.parent is ForOp(loop).body:
                continue
            if op.name not in _INDEXED_USES or _non_index_use(op, value):
                return Verdict(False, f"the {what} escapes to {where(op)}")
    for op in _outside_uses(value, loop, function):
        if op.name != "memref.dealloc":
            return Verdict(False, f"the {what} is used outside the loop by {where(op)}")
    return LEGAL


def _non_index_use(op: Operation, value: Value) -> bool:
    """Whether ``op`` uses ``value`` other than as the memref it indexes (a stored value, an
    index, or the same memref as two DMA operands)."""
    if op.name in ("affine.store", "affine.vector_store", "memref.store"):
        return op.operands[0] is value
    if op.name in DMA_STARTS:
        src, dst = _start_endpoints(op)
        tag, _ = _tag_of(op)
        return [src, dst, tag].count(value) != 1
    return False


def _start_slice(body: Sequence[Operation], transfers: Sequence[Transfer]) -> list[Operation] | str:
    """The body ops the starts' operands are computed by (in body order; the buffers and
    tags aside, which are allocated before the loop once doubled), or why they cannot run
    one iteration ahead (an op with effects among them)."""
    needed: set[int] = set()
    doubled = {id(v) for t in transfers for v in (t.buffer, t.tag)}
    pending = [v for t in transfers for v in t.start.operands if id(v) not in doubled]
    while pending:
        v = pending.pop()
        owner = v.owner if isinstance(v, OpResult) else None
        if owner is None or owner.parent is not body[0].parent or id(owner) in needed:
            continue
        if owner.regions or not _pure(owner):
            return f"the DMA operands depend on {where(owner)}, which has effects"
        needed.add(id(owner))
        pending.extend(owner.operands)
    return [op for op in body if id(op) in needed]


def _pure(op: Operation) -> bool:

    d = lookup(op.name)
    return op.name == "affine.apply" or (d is not None and d.has(PURE))


def _reversed_by_hoisting(edge: Edge, loop: Operation, step: int) -> bool:
    """Whether the edge into a start can join two ops of one iteration of ``loop``, or go
    from iteration ``i`` to ``i + 1`` (with every enclosing loop at the same iteration): the
    start of iteration ``i + 1`` is issued at the top of iteration ``i``, before both."""
    distances = band_distances(edge, [loop])
    if distances is None:
        return False
    return any(not distances.fix_dim_si(0, d).is_empty() for d in (0, step))


def check_pipelining(
    loop: Operation,
    transfers: Sequence[Transfer] | None = None,
    analysis: FlowAnalysis | None = None,
) -> Verdict:
    """Whether the incoming DMAs of ``loop`` (``transfers``, default :func:`find_transfers`)
    can be started one iteration early into double buffers; when not, why."""
    if not is_loop(loop):
        return Verdict(False, f"expected an affine.for, got '{loop.name}'")
    f = ForOp(loop)
    if f.iter_args:
        return Verdict(False, "the loop has iter_args")
    trip = f.constant_trip_count()
    if trip is None:
        return Verdict(False, "the trip count is not constant")
    if trip <= 0:
        return Verdict(False, "the loop never runs")
    if f.lower_bound_map.num_results != 1:
        return Verdict(False, "the lower bound is a max of several values")
    if transfers is None:
        transfers, problems = find_transfers(loop)
        if not transfers:
            return Verdict(False, problems[0] if problems else "no incoming DMA in the loop body")
    function = loop
    while function.parent_op is not None and function.name != "func.func":
        function = function.parent_op
    verdict = unsupported_ops([loop])
    if not verdict:
        return verdict
    for t in transfers:
        src, _ = _start_endpoints(t.start)
        if src is t.tag or t.buffer is t.tag:
            return Verdict(False, f"{where(t.start)} uses one memref for two of its operands")
        for value, what in ((t.buffer, "buffer"), (t.tag, "tag")):
            verdict = _check_private(value, what, loop, function)
            if not verdict:
                return verdict
    sliced = _start_slice(f.body.operations[:-1], transfers)
    if isinstance(sliced, str):
        return Verdict(False, sliced)
    return _check_dependences(loop, transfers, analysis or _analysis(function))


def _analysis(function: Operation) -> FlowAnalysis:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnalysisWarning)
        return FlowAnalysis(function)


def _check_dependences(
    loop: Operation, transfers: Sequence[Transfer], analysis: FlowAnalysis
) -> Verdict:
    """No value flows through a doubled buffer or tag from one iteration to a later one, and
    no start depends on an op of its own iteration or of the one before (it is issued one
    iteration early, at the top of the body)."""
    doubled = {id(v) for t in transfers for v in (t.buffer, t.tag)}
    starts = {id(t.start) for t in transfers}
    step = ForOp(loop).step
    for edge in analysis.value:
        if edge.kind != RAW or id(edge.source.memref) not in doubled:
            continue
        if edge.unknown or any(ref.op is loop for ref in edge.carried_by):
            return Verdict(
                False, f"a value stays in the buffer between iterations: {describe(edge)}", edge
            )
    for edge in analysis.memory:
        if id(edge.source.memref) in doubled:
            continue
        if id(edge.target.op) not in starts or id(edge.source.op) in starts:
            continue
        if not loop.is_ancestor_of(edge.source.op):
            continue
        if edge.unknown or _reversed_by_hoisting(edge, loop, step):
            return Verdict(
                False, f"starting the DMA one iteration early reverses the {describe(edge)}", edge
            )
    return LEGAL


# -- the rewrite ---------------------------------------------------------------------------------


def _parity(iv_position: int, step: int) -> AffineExpr:
    e = dim(iv_position)
    return (e.floordiv(step) if step != 1 else e).mod(2)


def _with_parity(slot: MapSlot, iv: Value, step: int) -> MapSlot:
    """``slot`` with a leading result ``(iv floordiv step) mod 2``."""
    m = slot.map
    assert isinstance(m, AffineMap)
    dims = list(slot.operands[: m.num_dims])
    symbols = list(slot.operands[m.num_dims :])
    if any(v is iv for v in dims):
        position = next(k for k, v in enumerate(dims) if v is iv)
        num_dims = m.num_dims
    else:
        position, num_dims = m.num_dims, m.num_dims + 1
        dims.append(iv)
    new = AffineMap.get(num_dims, m.num_symbols, (_parity(position, step), *m.results))
    return MapSlot(slot.name, new, (*dims, *symbols))


def _memref_slots(op: Operation, memref: Value) -> list[str]:
    """The names of the map slots of ``op`` that index ``memref``."""
    if op.name in ("affine.load", "affine.vector_load"):
        return ["map"] if op.operands[0] is memref else []
    if op.name in ("affine.store", "affine.vector_store"):
        return ["map"] if op.operands[1] is memref else []
    if op.name == "affine.dma_start":
        d = DmaStartOp(op)
        return [
            n
            for n, v in (("src_map", d.src), ("dst_map", d.dst), ("tag_map", d.tag))
            if v is memref
        ]
    if op.name == "affine.dma_wait":
        return ["tag_map"]
    return []


def _index_position(op: Operation, memref: Value) -> int:
    """Where the first index of ``memref`` is among the operands of a non-affine use (the
    memref ops list a memref's indices right after it)."""
    return next(k for k, v in enumerate(op.operands) if v is memref) + 1


def double_buffer(memref: Value, loop: Operation) -> Value:
    """Replace the alloc of ``memref`` by one with a leading dimension of 2 before ``loop``,
    every use in the loop indexing the half ``(iv floordiv step) mod 2``; deallocs of the old
    buffer are removed and one of the new buffer follows the loop."""
    f = ForOp(loop)
    if not isinstance(memref, OpResult):
        raise TransformError("the buffer to double is not the result of an alloc", loop.loc)
    old_alloc = memref.owner
    t = memref.type
    assert isinstance(t, MemRefType)
    new_type = MemRefType([2, *t.shape], t.element_type, None, t.memory_space)
    dynamic_sizes = sum(1 for d in t.shape if d == DYNAMIC)  # the layout's symbols follow
    alloc = memref_alloc(new_type, list(old_alloc.operands[:dynamic_sizes]))
    alloc.attributes.update(old_alloc.attributes)
    alloc.loc = old_alloc.loc
    block = loop.parent
    assert block is not None
    block.insert_before(loop, alloc)
    new = alloc.result
    iv = f.induction_var
    parity_apply: Operation | None = None
    for op in list(loop.walk()):
        if not any(v is memref for v in op.operands):
            continue
        if op.name == "memref.dealloc":
            op.erase()
            continue
        names = _memref_slots(op, memref)
        if names:
            set_map_slots(
                op,
                [_with_parity(s, iv, f.step) if s.name in names else s for s in map_slots(op)],
            )
        else:
            if parity_apply is None:
                parity_apply = affine_apply(AffineMap.get(1, 0, (_parity(0, f.step),)), [iv])
                f.body.insert(0, parity_apply)
            op.operands.insert(_index_position(op, memref), parity_apply.result)
        op.operands = [new if v is memref else v for v in op.operands]
    for op in _outside_users(memref, old_alloc):
        op.erase()
    old_alloc.erase()
    block.insert_after(loop, memref_dealloc(new))
    return new


def _outside_users(memref: Value, alloc: Operation) -> list[Operation]:
    block = alloc.parent
    assert block is not None
    return [
        op for top in block.operations for op in top.walk() if any(v is memref for v in op.operands)
    ]


def pipeline_loop(loop: Operation, transfers: Sequence[Transfer]) -> None:
    """Double-buffer the ``transfers`` of ``loop`` and start each one iteration early
    (assumes :func:`check_pipelining` holds)."""
    f = ForOp(loop)
    for memref in dict.fromkeys(v for t in transfers for v in (t.buffer, t.tag)):
        double_buffer(memref, loop)
    body_block = f.body
    body = body_block.operations[:-1]
    starts = [t.start for t in transfers]
    ahead = _start_slice(body, transfers)
    assert not isinstance(ahead, str)
    rest = [op for op in body if not any(op is s for s in starts)]
    block = loop.parent
    assert block is not None
    iv = f.induction_var
    step, trip = f.step, f.constant_trip_count()
    assert trip is not None
    lb = lower_bound(loop)
    # Prologue: the starts of the first iteration; epilogue: the rest of the last one.
    first = _index_value(lb.map, lb.operands)
    last_map = AffineMap.get(
        lb.map.num_dims, lb.map.num_symbols, (lb.map.results[0] + (trip - 1) * step,)
    )
    last = _index_value(last_map, lb.operands)
    prologue = [first, *_copies([*ahead, *starts], iv, first.result)]
    epilogue = [last, *_copies(rest, iv, last.result)]
    for op in prologue:
        block.insert_before(loop, op)
    position = block.index_of(loop) + 1
    for k, op in enumerate(epilogue):
        block.insert(position + k, op)
    for op in [*prologue, *epilogue]:
        canonicalize_affine_ops(op)
    for op in (first, last):  # folded into every map that used it
        if not any(
            v is op.result for other in block.operations for o in other.walk() for v in o.operands
        ):
            op.erase()
    # Steady state: the starts of iteration iv, then the rest of iteration iv - step.
    mapping: dict[Value, Value] = {}
    early = [op.clone(mapping) for op in ahead]
    for s in starts:
        s.operands = [mapping.get(v, v) for v in s.operands]
        s.erase()
    previous = affine_apply(AffineMap.get(1, 0, (dim(0) - step,)), [iv])
    for op in rest:
        replace_uses(op, iv, previous.result)
    for k, op in enumerate([*early, *starts, previous]):
        body_block.insert(k, op)
    set_bound(
        loop,
        "lower",
        ValueMap(
            AffineMap.get(lb.map.num_dims, lb.map.num_symbols, (lb.map.results[0] + step,)),
            lb.operands,
        ),
    )


def _index_value(m: AffineMap, operands: Sequence[Value]) -> Operation:
    """An ``arith.constant`` for a constant single-result map, else an ``affine.apply``."""
    value = m.single_constant_result if m.is_single_constant() else None
    return constant_index(value) if value is not None else affine_apply(m, operands)


def _copies(ops: Sequence[Operation], iv: Value, value: Value) -> list[Operation]:
    """Clones of ``ops`` with ``iv`` replaced by ``value`` (and by each other's results)."""
    mapping: dict[Value, Value] = {iv: value}
    return [op.clone(mapping) for op in ops]


@dataclass
class PipelineDataTransfer:
    """``-affine-pipeline-data-transfer``: in every loop (inner loops first), incoming DMAs
    are double-buffered and started one iteration ahead where :func:`check_pipelining`
    allows it; a remark says why any other loop with DMAs was left alone."""

    name = "affine-pipeline-data-transfer"

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        for function in functions(module, context):
            for loop in reversed(loops(function)):  # inner loops first, as mlir-opt
                if not any(op.name in DMA_STARTS for op in ForOp(loop).body.operations):
                    continue
                transfers, problems = find_transfers(loop)
                for problem in problems:
                    refuse(context, loop, "DMA not pipelined", problem)
                if not transfers:
                    continue
                verdict = check_pipelining(loop, transfers)
                if not verdict:
                    refuse(context, loop, "DMA not pipelined", verdict.reason)
                    continue
                attempt(context, loop, "DMA not pipelined", lambda: pipeline_loop(loop, transfers))  # noqa: B023  # run at once
        return module


__all__ = [
    "PipelineDataTransfer",
    "Transfer",
    "check_pipelining",
    "double_buffer",
    "find_transfers",
    "pipeline_loop",
]
