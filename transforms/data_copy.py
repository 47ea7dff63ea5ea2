"""Copies of the data a loop touches into fast-memory buffers (mlir-opt's
``-affine-data-copy-generate``).

Invariant: around a loop, each memref of the slow memory space it accesses gets a buffer in
the fast space shaped as the bounding box of the loop's exact footprint (ISL, over the IVs
of the loops around it). Before the loop, the elements it reads are copied in (and those it
may leave unwritten: stores under an ``scf.if``); after it, the elements it writes are copied
out; in between, its loads and stores use the buffer at the
index minus the box's start. With ``generate-dma`` the copies are ``affine.dma_start`` /
``affine.dma_wait`` pairs moving the whole box (strided when the box is not contiguous);
point-wise copy loops move exactly the footprint. Copies go around the outermost loops
whose buffers fit ``fast-mem-capacity`` (KiB), or around inner ones (see
:class:`AffineDataCopyGenerate`).
"""

from __future__ import annotations

from dataclasses import dataclass

from affine.analysis.value_map import MapSlot, canonicalize_affine_ops, map_slots, set_map_slots
from affine.dialects.builders import (
    affine_load,
    affine_store,
    constant_index,
    memref_alloc,
    memref_dealloc,
)
from affine.ir.attributes import AffineMapAttr
from affine.ir.core import Block, Module, Operation, Value
from affine.ir.types import I32, FloatType, IntegerType, MemRefType
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr, constant, dim
from affine.ops import ForOp
from poly.codegen import CodegenError, generate
from poly.footprints import (
    Box,
    Footprint,
    Region,
    bounding_box,
    box_within,
    copy_schedule,
    first_volumes,
    is_box,
    loop_footprints,
    reached,
)
from poly.legality import LEGAL, Verdict, where
from poly.model import WRITE
from poly.space import align_params
from transforms.errors import TransformError
from transforms.loop_pass import functions, refuse
from transforms.loop_utils import is_loop
from transforms.registry import PassContext

_AFFINE_ACCESSES = ("affine.load", "affine.store")


@dataclass
class CopyPlan:
    """The copies of one memref around one loop: its footprint, the buffer's box, and the IR
    value of each parameter the footprint and the box's starts are expressed over."""

    loop: Operation
    footprint: Footprint
    box: Box
    params: dict[str, Value]
    order: tuple[int, ...] | None = None  # the buffer's dimensions: the box's, in this order

    @property
    def buffer_shape(self) -> list[int]:
        return self.laid_out(self.box.extents)

    def laid_out(self, coordinates: list) -> list:
        """``coordinates`` of the box (its extents, or an element in it) in the buffer's
        dimension order."""
        return coordinates if self.order is None else [coordinates[k] for k in self.order]

    @property
    def memref(self) -> Value:
        return self.footprint.memref

    @property
    def element_type(self):  # the memref's element type
        t = self.memref.type
        assert isinstance(t, MemRefType)
        return t.element_type

    @property
    def bytes(self) -> int:
        return self.box.volume * element_bytes(self.element_type)


def element_bytes(t: object) -> int:
    """Bytes of one element (``index`` counts 8)."""
    if isinstance(t, IntegerType | FloatType):
        return max(1, (t.width + 7) // 8)
    return 8


def memory_space(value: Value) -> int | None:
    """The memory space number of a memref value (None: not a memref)."""
    t = value.type
    return t.memory_space_number if isinstance(t, MemRefType) else None


def _memref_position(op: Operation) -> int:
    """The operand position of an affine load's or store's memref."""
    return 0 if op.name == "affine.load" else 1


def check_data_copy(loop: Operation, footprint: Footprint, slow_mem_space: int = 0) -> Verdict:
    """Whether the accesses of ``loop`` to ``footprint.memref`` can go through a buffer: the
    memref is in the slow space with the identity layout, only affine loads and stores
    touch it in the loop (through the memref itself, not a view), and the footprint is
    exact."""
    memref = footprint.memref
    if memory_space(memref) != slow_mem_space:
        return Verdict(False, f"it is not in memory space {slow_mem_space}")
    t = memref.type
    if isinstance(t, MemRefType) and not t.has_identity_layout:
        # its footprint holds the layout's elements; a buffer is indexed like the memref
        return Verdict(False, "it has a layout map, which mlir-opt does not copy either")
    for op in loop.walk():
        if not any(v is memref for v in op.operands):
            continue
        if op.name not in _AFFINE_ACCESSES or (
            op.name == "affine.store" and op.operands[0] is memref
        ):
            return Verdict(False, f"{where(op)} uses it other than by an affine load or store")
    for access in footprint.accesses:
        op = access.op
        if op.name not in _AFFINE_ACCESSES or op.operands[_memref_position(op)] is not memref:
            return Verdict(False, f"{where(op)} accesses it through a view or a DMA")
    if not footprint.exact:
        return Verdict(False, "its footprint is not exact (a bound or an index is not affine)")
    return LEGAL


def plan_copies(
    loop: Operation, slow_mem_space: int = 0
) -> tuple[list[CopyPlan], list[tuple[Value, str]]]:
    """The buffer of every memref ``loop`` may copy, and for each other memref why not."""
    footprints, params = loop_footprints(loop)
    plans: list[CopyPlan] = []
    refused: list[tuple[Value, str]] = []
    for memref, footprint in footprints.items():
        if memory_space(memref) != slow_mem_space:
            continue
        verdict = check_data_copy(loop, footprint, slow_mem_space)
        if not verdict:
            refused.append((memref, verdict.reason))
            continue
        box = bounding_box(footprint.region)
        if isinstance(box, str):
            t = memref.type
            assert isinstance(t, MemRefType)
            if not t.has_static_shape or "affine expression" not in box:
                refused.append((memref, box))
                continue
            box = Box([constant(0)] * len(t.shape), list(t.shape), [])  # the whole memref
        plans.append(CopyPlan(loop, footprint, box, params))
    return plans, refused


# -- the rewrite ---------------------------------------------------------------------------------


def _starts_as_dims(plan: CopyPlan, offset: int) -> list[AffineExpr]:
    """The box's starts with parameter ``j`` as dimension ``offset + j``."""
    as_dims = [dim(offset + j) for j in range(len(plan.box.params))]
    return [start.replace(None, as_dims) for start in plan.box.starts]


def _param_values(plan: CopyPlan) -> list[Value]:
    return [plan.params[n] for n in plan.box.params]


def relative_slot(plan: CopyPlan, slot: MapSlot) -> MapSlot:
    """A load's or store's map of the memref made relative to the box's start (the box's
    parameters become extra dimensions)."""
    m = slot.map
    assert isinstance(m, AffineMap)
    starts = _starts_as_dims(plan, m.num_dims)
    results = plan.laid_out([r - s for r, s in zip(m.results, starts, strict=True)])
    new = AffineMap.get(m.num_dims + len(plan.box.params), m.num_symbols, results)
    dims, symbols = slot.operands[: m.num_dims], slot.operands[m.num_dims :]
    return MapSlot(slot.name, new, (*dims, *_param_values(plan), *symbols))


def _insert(block: Block, before: Operation | None, op: Operation) -> Operation:
    if before is None:
        block.append(op)
    else:
        block.insert_before(before, op)
    return op


def _point_copies(
    plan: CopyPlan, region: Region, buffer: Value, into_buffer: bool, before: Operation | None
) -> None:
    """Loops copying every element of ``region`` between the memref and the buffer."""
    block = plan.loop.parent
    assert block is not None
    rank = len(plan.box.extents)
    extra = _param_values(plan)
    identity = AffineMap.get(rank, 0, [dim(k) for k in range(rank)])
    starts = _starts_as_dims(plan, rank)
    relative = AffineMap.get(
        rank + len(extra), 0, plan.laid_out([dim(k) - s for k, s in enumerate(starts)])
    )

    def emit(_name: str, values: list[Value], into: Block, at: Operation | None) -> None:
        if into_buffer:
            load = _insert(into, at, affine_load(plan.memref, identity, values))
            _insert(into, at, affine_store(load.result, buffer, relative, [*values, *extra]))
        else:
            load = _insert(into, at, affine_load(buffer, relative, [*values, *extra]))
            _insert(into, at, affine_store(load.result, plan.memref, identity, values))

    generate(copy_schedule(region), plan.params, block, before, emit)


def _accessed_wherever_reached(plan: CopyPlan) -> bool:
    """Whether a DMA of the box at every iteration of the loops around is safe: the box is
    constant, or the loop touches the memref at every such iteration (not known with an
    ``affine.if`` inside, which may test the outer IVs)."""
    if not plan.box.params:
        return True  # one box at every iteration, inside the memref (box_within)
    if any(op.name == "affine.if" for op in plan.loop.walk()):
        return False
    accessed, runs = align_params(
        plan.footprint.region.params(), reached(plan.loop, plan.footprint)
    )
    return runs.is_subset(accessed)


def dma_shape(plan: CopyPlan, min_dma_transfer: int) -> tuple[int, int | None, int | None] | str:
    """``(count, stride, per_stride)`` of one DMA moving the whole box (no stride when it
    is contiguous in the memref), or why one DMA cannot: the memref's shape is not static,
    the box leaves it for some parameter value, its rows are scattered with more than one
    stride, or a contiguous piece is smaller than ``min_dma_transfer`` bytes."""
    t = plan.memref.type
    assert isinstance(t, MemRefType)
    shape = list(t.shape)
    if any(size < 0 for size in shape) or not t.has_identity_layout:
        return "the memref has a dynamic shape or a layout"
    whole = plan.box.extents == shape and not plan.box.params
    if not whole and not box_within(plan.footprint.region, shape):
        return "the bounding box leaves the memref for some iteration of the loops around"
    if not whole and not _accessed_wherever_reached(plan):
        # the DMA moves the box at every iteration, its start where no element is: j from
        # i to 3 past i = 3 moved A[i][i .. i + 2], past the memref at i = 11
        return "the loop accesses none of it at some iterations of the loops around"
    extents = plan.box.extents
    count = plan.box.volume
    partial = [k for k in range(len(shape)) if extents[k] != shape[k]]
    if not partial:
        return count, None, None
    last = partial[-1]
    spread = [k for k in range(last) if extents[k] != 1]
    if not spread:
        return count, None, None
    if len(spread) > 1:
        return "the box's rows are spread over more than one dimension (nested striding)"
    per = 1
    for size in extents[spread[0] + 1 :]:
        per *= size
    stride = 1
    for size in shape[spread[0] + 1 :]:
        stride *= size
    if per * element_bytes(plan.element_type) < min_dma_transfer:
        return f"its contiguous pieces are smaller than min-dma-transfer ({min_dma_transfer} bytes)"
    return count, stride, per


def _dma(
    plan: CopyPlan,
    buffer: Value,
    tag: Value,
    shape: tuple[int, int | None, int | None],
    into_buffer: bool,
    block: Block,
    before: Operation | None,
) -> None:
    count, stride, per = shape
    rank = len(plan.box.extents)
    extra = _param_values(plan)
    start_map = AffineMap.get(len(extra), 0, _starts_as_dims(plan, 0))
    zero_map = AffineMap.get(0, 0, [0] * rank)
    tag_map = AffineMap.get(0, 0, [0])
    numbers = [_insert(block, before, constant_index(count)).result]
    if stride is not None and per is not None:
        numbers += [
            _insert(block, before, constant_index(stride)).result,
            _insert(block, before, constant_index(per)).result,
        ]
    if into_buffer:
        src, src_map, src_ops, dst, dst_map, dst_ops = (
            plan.memref,
            start_map,
            extra,
            buffer,
            zero_map,
            [],
        )
    else:
        src, src_map, src_ops, dst, dst_map, dst_ops = (
            buffer,
            zero_map,
            [],
            plan.memref,
            start_map,
            extra,
        )
    start = Operation.create(
        "affine.dma_start",
        [src, *src_ops, dst, *dst_ops, tag, numbers[0], *numbers[1:]],
        [],
        None,
        {
            "src_map": AffineMapAttr(src_map),
            "dst_map": AffineMapAttr(dst_map),
            "tag_map": AffineMapAttr(tag_map),
        },
    )
    wait = Operation.create(
        "affine.dma_wait", [tag, numbers[0]], [], None, {"tag_map": AffineMapAttr(tag_map)}
    )
    _insert(block, before, start)
    _insert(block, before, wait)


@dataclass(frozen=True)
class CopyOptions:
    """Where buffers and tags live and how copies move data."""

    fast_mem_space: int = 1
    tag_mem_space: int = 0
    generate_dma: bool = False
    min_dma_transfer: int = 1024


def _may_write(plan: CopyPlan) -> bool:
    """Whether the loop may leave elements of its write footprint unwritten: a store under
    an ``scf.if`` (or another op that may not run its region)."""
    return any(a.kind == WRITE and not a.must for a in plan.footprint.accesses)


def generate_copies(plan: CopyPlan, options: CopyOptions) -> str:
    """Allocate the buffer before ``plan.loop``, copy in before it and out after it, and make
    the loop's accesses use the buffer; return how the data moved (for the remark)."""
    loop = plan.loop
    block = loop.parent
    assert block is not None
    t = plan.memref.type
    assert isinstance(t, MemRefType)
    buffer_type = MemRefType(
        plan.buffer_shape, t.element_type, None, options.fast_mem_space or None
    )
    alloc = _insert(block, loop, memref_alloc(buffer_type))
    buffer = alloc.result
    after = block.operations[block.index_of(loop) + 1] if block.operations[-1] is not loop else None
    reads, writes = plan.footprint.reads, plan.footprint.writes
    if writes is not None and _may_write(plan):  # copied in, so that copying out keeps them
        reads = plan.footprint.region
    how = "copy loops"
    shape = None
    if options.generate_dma:
        shape = (
            dma_shape(plan, options.min_dma_transfer)
            if plan.order is None
            else "the buffer is transposed"
        )
    if isinstance(shape, tuple):
        how = "DMA" + (" (strided)" if shape[1] is not None else "")
        tag_type = MemRefType([1], I32, None, options.tag_mem_space or None)
        whole = writes is not None and not is_box(writes)
        if reads is not None or whole:
            tag_in = _insert(block, loop, memref_alloc(tag_type)).result
            _dma(plan, buffer, tag_in, shape, True, block, loop)
        if writes is not None:
            tag_out = _insert(block, loop, memref_alloc(tag_type)).result
            _dma(plan, buffer, tag_out, shape, False, block, after)
            _insert(block, after, memref_dealloc(tag_out))
            if reads is not None or whole:
                _insert(block, after, memref_dealloc(tag_in))
        elif reads is not None:
            _insert(block, after, memref_dealloc(tag_in))
    else:
        if isinstance(shape, str):
            how = f"copy loops (no DMA: {shape})"
        if reads is not None:
            _point_copies(plan, reads, buffer, True, loop)
        if writes is not None:
            _point_copies(plan, writes, buffer, False, after)
    _insert(block, after, memref_dealloc(buffer))
    for access in plan.footprint.accesses:
        op = access.op
        set_map_slots(op, [relative_slot(plan, s) for s in map_slots(op)])
        op.operands[_memref_position(op)] = buffer
        canonicalize_affine_ops(op)
    return how


def describe_memref(memref: Value) -> str:
    name = getattr(memref, "name", None)
    return f"{name or 'memref'} ({memref.type})"


def copy_remark(plan: CopyPlan, how: str) -> str:
    """What was copied: the buffer, and the elements moved beside the bounding box's."""
    region = plan.footprint.region
    moved = [
        first_volumes(part)[0] if part is not None else 0
        for part in (plan.footprint.reads, plan.footprint.writes)
    ]
    _, box = first_volumes(region)
    where_ = " (at the first values of the enclosing IVs and symbols)" if plan.box.params else ""
    shape = "x".join(str(e) for e in plan.buffer_shape)
    exact = "the footprint is the box" if is_box(region) else "the footprint is not a box"
    return (
        f"copied {describe_memref(plan.memref)} into a {shape} buffer by {how}: {moved[0]} elements "
        f"read and {moved[1]} written, bounding box {box} elements{where_}; {exact}"
    )


def _has_inner_loops(loop: Operation) -> bool:
    return any(op.name == "affine.for" for op in ForOp(loop).body.operations)


@dataclass
class AffineDataCopyGenerate:
    """``-affine-data-copy-generate``: each loop whose buffers fit ``fast-mem-capacity``
    KiB gets its copies (the outermost such loops); a loop whose buffers do not fit, whose
    footprint has no constant-size box, or (with ``skip-non-unit-stride-loops``) whose step
    is not 1 is entered instead. Memrefs that cannot be copied get a remark with the reason,
    copied ones a remark with the copied volume beside the bounding box's."""

    name = "affine-data-copy-generate"
    fast_mem_capacity: int = 2**64 - 1
    fast_mem_space: int = 1
    generate_dma: bool = False
    min_dma_transfer: int = 1024
    skip_non_unit_stride_loops: bool = False
    slow_mem_space: int = 0
    tag_mem_space: int = 0

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        options = CopyOptions(
            self.fast_mem_space, self.tag_mem_space, self.generate_dma, self.min_dma_transfer
        )
        for function in functions(module, context):
            self._block(function.regions[0].blocks[0], options, context)
        return module

    def _block(self, block: Block, options: CopyOptions, context: PassContext) -> None:
        for op in list(block.operations):
            if is_loop(op):
                self._loop(op, options, context)

    def _loop(self, loop: Operation, options: CopyOptions, context: PassContext) -> None:
        body = ForOp(loop).body
        if self.skip_non_unit_stride_loops and ForOp(loop).step != 1:
            self._block(body, options, context)
            return
        plans, refused = plan_copies(loop, self.slow_mem_space)
        total = sum(p.bytes for p in plans)
        too_big = total > self.fast_mem_capacity * 1024
        no_box = any("extent" in reason or "affine expression" in reason for _, reason in refused)
        if (too_big or no_box) and _has_inner_loops(loop):
            self._block(body, options, context)
            return
        if too_big:
            refuse(
                context,
                loop,
                "no copies",
                f"the buffers need {total} bytes, more than fast-mem-capacity "
                f"({self.fast_mem_capacity} KiB)",
            )
            return
        for memref, reason in refused:
            refuse(context, loop, f"{describe_memref(memref)} not copied", reason)
        for plan in plans:
            try:
                how = generate_copies(plan, options)
            except (TransformError, CodegenError) as error:
                refuse(context, loop, f"{describe_memref(plan.memref)} not copied", str(error))
                continue
            context.emit(loop, "remark", copy_remark(plan, how))


__all__ = [
    "AffineDataCopyGenerate",
    "CopyOptions",
    "CopyPlan",
    "check_data_copy",
    "copy_remark",
    "describe_memref",
    "dma_shape",
    "generate_copies",
    "memory_space",
    "plan_copies",
]
