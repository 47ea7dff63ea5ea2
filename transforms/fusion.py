"""``--affine-loop-fusion``: producer-consumer and sibling fusion, checked on the whole function.

Invariant: a fusion is applied only when :meth:`poly.schedule.Schedule.check` finds the
function's fused schedule legal against every exact dependence of the function (RAW, WAR,
WAW between the fused nests, the nests between them and everything else; ops with effects
the model cannot see order against everything and make the verdict *unknown*, which
refuses). First each producer instance runs once, in the earliest consumer iteration that
depends on it (the exact slice of :mod:`poly.slices`): no redundant computation. Where that
is refused (illegal, or not paying), a producer-consumer pair may fuse by *recomputation*
(:func:`fuse_recomputing`, :mod:`poly.recompute`): every consumer iteration runs the
producer instances it reads again, into a private buffer of the slice's footprint; the
producer stays only where its results are still read. The producer instances run beyond
the source's, as a fraction of the source's, must be within ``compute-tolerance`` (any,
with ``maximal``).

Unless ``maximal``, a legal fusion is applied only when the cost model expects a gain
(:func:`fusion_cost`, :func:`profitable`): less memory traffic (a contracted buffer, fewer
bytes touched by the top-level nests' exact footprints) or reuse within one fused iteration,
weighed against the work the fused innermost loops no longer vectorize (a guard splitting
the hot loop, an access no longer stride-1, an element written again in every iteration,
a value read a few iterations after it is stored).

:func:`check_fusion` (public) gives the verdict on one candidate pair: the deepest legal
depth and the fused schedule, or why not (the dependence it would reverse with a witness,
the op whose effects are unseen). :func:`fuse_candidate` is the rewrite: code for the
fused schedule, and a private, contracted buffer for an intermediate that does not escape
(:func:`check_private_buffer` says whether and why not). :class:`LoopFusion` is the pass
(mlir-opt 22's name and options); its remarks name every candidate pair.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from affine.dialects.affine_dialect import LoadOp, StoreOp
from affine.errors import PolyError
from affine.ir.attributes import AffineMapAttr
from affine.ir.core import Module, Operation, Value
from affine.ir.types import MemRefType
from affine.math.affine_map import AffineMap
from affine.math.expr import constant
from affine.syntax.printer import print_module
from poly.context import IslBudgetExceeded
from poly.footprints import bytes_touched
from poly.recompute import Recomputation, recompute_slice
from poly.schedule import Schedule
from poly.schedule_check import ILLEGAL, UNKNOWN
from poly.schedule_program import EFFECTS, ScheduleError
from poly.slices import (
    PRODUCER,
    SIBLING,
    Candidate,
    FusedSchedule,
    candidates,
    fixed_dimensions,
    fused_schedule,
    modular_storage,
    per_iteration_footprint,
    reuse_within_iteration,
    values_stay_in_iteration,
)
from poly.tile_model import instance_counts, vectorizable_runs
from transforms.registry import PassContext, PassOptionError

MODES = ("greedy", "producer", "sibling")
Remark = Callable[[Operation | None, str], None]
_ACCESSES = ("affine.load", "affine.store")


@dataclass(frozen=True)
class FusionVerdict:
    """Whether a candidate fuses: the deepest legal depth and its schedule, or why not."""

    legal: bool
    reason: str
    fused: FusedSchedule | None = None
    schedule: Schedule | None = None
    status: str = ""  # the schedule check's status at depth 1 when not legal

    def __bool__(self) -> bool:
        return self.legal


def check_fusion(
    schedule: Schedule, candidate: Candidate, deepest: int | None = None
) -> FusionVerdict:
    """The deepest depth (at most ``deepest``; and position: the second item's, else the
    first's) at which the fused function schedule is legal, or the reason fusing at depth
    1 is not."""
    limit = candidate.second.depth
    if candidate.kind == SIBLING:
        limit = min(limit, candidate.first.depth)
    deepest = limit if deepest is None else min(deepest, limit)
    reason, status = "", ""
    for depth in range(deepest, 0, -1):
        for at_second in (True, False):
            try:
                fused = fused_schedule(schedule, candidate, depth, at_second)
            except IslBudgetExceeded as e:  # undecided at this depth: try a shallower one
                if depth == 1 and not reason:
                    reason, status = str(e), UNKNOWN
                break
            if fused.degenerate:
                reason = (
                    f"at depth {depth} the producer's slice is all of it, in one consumer "
                    "iteration (the nests would stay apart)" + _unseen_order(schedule, candidate)
                )
                status = "degenerate"
                break
            new = schedule.replace(fused.union_map())
            verdict = new.check()
            if verdict:
                return FusionVerdict(True, f"legal at depth {depth}", fused, new)
            if depth == 1 and not reason:
                reason, status = verdict.reason, verdict.status
        if status == "degenerate":
            return FusionVerdict(False, reason, status=status)
    word = "reverses" if status == ILLEGAL else "cannot be decided:"
    return FusionVerdict(False, f"fusing at depth 1 {word} {reason}", status=status)


def _unseen_order(schedule: Schedule, candidate: Candidate) -> str:
    """``: <why>`` when an op whose effects are unseen orders the producer's instances
    before every consumer instance (empty otherwise)."""
    first = {s.name for s in candidate.first.statements}
    second = {s.name for s in candidate.second.statements}
    for d in schedule.program.dependences()[0]:
        if d.kind == EFFECTS and d.source.name in first and d.target.name in second:
            return f": {d.reason}"
    return ""


@dataclass(frozen=True)
class FusionCost:
    """What the cost model sees of one legal fusion, the function before and after:
    bytes touched (:func:`poly.footprints.bytes_touched`, None when symbolic), access runs
    in innermost loops whose layout vectorizes (``layout_*``: stride-1, no element written
    again, no guard splitting the body) and that also carry no short recurrence
    (``vector_*``; :func:`poly.tile_model.vectorizable_runs`), whether a buffer was
    contracted and whether one fused iteration reuses data."""

    bytes_before: int | None
    bytes_after: int | None
    layout_before: float
    layout_after: float
    vector_before: float
    vector_after: float
    contracted: bool
    reuse: bool

    def saves_traffic(self) -> str | None:
        """How fusing lowers memory traffic (a contracted buffer, fewer bytes touched), or None."""
        if self.contracted:
            return "a buffer contracted"
        if self.bytes_before is not None and self.bytes_after is not None:
            if self.bytes_after < self.bytes_before:
                return f"bytes touched {self.bytes_before} -> {self.bytes_after}"
        return None

    def loss(self, carried: bool) -> str | None:
        """The vectorizable work the fused innermost loops lose: by their layout (an
        access no longer stride-1, an element written again, a guard), and with
        ``carried`` also to a value read a few iterations after it is written."""
        before, after = self.layout_before, self.layout_after
        if carried and self.vector_after < self.vector_before:
            before, after = self.vector_before, self.vector_after
        if after < before:
            return f"the fused innermost loops keep {after:.0f} of {before:.0f} access runs vectorizable"
        return None

    def traffic(self) -> str:
        if self.bytes_before is None or self.bytes_after is None:
            return "bytes touched symbolic"
        return f"bytes touched {self.bytes_before} -> {self.bytes_after}"


def contracted(notes: Sequence[str]) -> bool:
    """Whether :func:`fuse_candidate`'s ``notes`` tell of a private (contracted) buffer."""
    return any(" private: " in note for note in notes)


def fusion_cost(verdict: FusionVerdict, fused_module: Module, notes: Sequence[str]) -> FusionCost:
    """The cost model's view of the legal ``verdict`` rewritten as ``fused_module`` (with
    :func:`fuse_candidate`'s ``notes``)."""
    fused, schedule = verdict.fused, verdict.schedule
    assert fused is not None and schedule is not None
    before = schedule.program.function
    after = _same_function(fused_module, before)
    counts = instance_counts(before)
    touched = [bytes_touched(f) for f in (before, after)]
    return FusionCost(
        bytes_before=touched[0][0] if touched[0] else None,
        bytes_after=touched[1][0] if touched[1] else None,
        layout_before=vectorizable_runs(before, counts, carried=False),
        layout_after=vectorizable_runs(after, counts, carried=False),
        vector_before=vectorizable_runs(before, counts),
        vector_after=vectorizable_runs(after, counts),
        contracted=contracted(notes),
        reuse=reuse_within_iteration(fused, schedule.program),
    )


def profitable(cost: FusionCost, depth: int) -> str | None:
    """None when the model expects fusing at ``depth`` to gain; otherwise why not, with
    the numbers. Less memory traffic (a contracted buffer, fewer bytes touched) is worth
    a recurrence in the fused loop but not a worse layout; reuse within one iteration
    (which the bytes touched by whole nests do not show) is worth neither."""
    saving = cost.saves_traffic()
    gain = saving or ("reuse within an iteration" if cost.reuse else None)
    if gain is None:
        return f"no gain at depth {depth} ({cost.traffic()}, no buffer contracted, no reuse)"
    loss = cost.loss(carried=saving is None)
    if loss is not None:
        return f"not worth it at depth {depth}: {loss}, for {gain}"
    return None


# -- private buffers ----------------------------------------------------------------------------


def _allocation(program_prologue: tuple[Operation, ...], memref: Value) -> Operation | None:
    for op in program_prologue:
        if op.name in ("memref.alloc", "memref.alloca") and memref in op.results:
            return op
    return None


def check_private_buffer(
    verdict: FusionVerdict, memref: Value, modular: bool = True
) -> tuple[dict[int, int], str]:
    """How a private buffer stores ``memref``: a modulus per dimension it shrinks (1: the
    dimension is dropped, one value per fused iteration; ``m``: element ``e`` kept at
    ``e mod m``, no two live values sharing a cell), or nothing and why it keeps its shape.
    The buffer must be a constant-shaped local allocation used only by loads and stores of
    the fused nests (and deallocations), every read must get a value they wrote, and every
    access and flow must be exact. Without ``modular``, only dimensions are dropped."""
    fused, schedule = verdict.fused, verdict.schedule
    assert fused is not None and schedule is not None
    program = schedule.program
    name = memref.name or "the buffer"
    alloc = _allocation(program.prologue, memref)
    if alloc is None or alloc.operands:
        return {}, f"{name} is not a constant-shaped allocation of the function"
    allocated = alloc.results[0].type
    assert isinstance(allocated, MemRefType)
    if not allocated.has_identity_layout:
        # the dependences index its elements through the layout, the buffer by the indices
        return {}, f"{name} has a layout map ({allocated})"
    inside = {
        op
        for item in (fused.candidate.first, fused.candidate.second)
        for s in item.statements
        for top in s.ops
        for op in top.walk()
    }
    for op in program.function.walk():
        if op is alloc or memref not in op.operands:
            continue
        if op.name == "memref.dealloc":
            continue
        if op.name not in _ACCESSES or op not in inside:
            return {}, f"{name} escapes the fused nests ({op.name} at {op.loc})"
    statements = [*fused.candidate.first.statements, *fused.candidate.second.statements]
    why = values_stay_in_iteration(fused, program, memref, statements)
    if why is None:
        footprint = per_iteration_footprint(fused, program, memref)
        if footprint is None:
            return {}, f"an access of {name} is not exact"
        fixed = fixed_dimensions(footprint)
        if fixed:
            return dict.fromkeys(fixed, 1), ""
        why = f"every dimension of {name} varies within one fused iteration"
    if not modular:
        return {}, why
    wrapped = modular_storage(fused, program, memref, statements, allocated.shape)
    if isinstance(wrapped, str):
        return {}, f"{why}, and {wrapped}"
    k, m = wrapped
    return {k: m}, ""


def contract_buffer(
    function: Operation, alloc: Operation, cells: dict[int, int], fast_space: int | None
) -> MemRefType:
    """Shrink the buffer ``alloc`` defines by ``cells`` (see :func:`check_private_buffer`:
    dimensions with modulus 1 dropped, one element remaining as ``memref<1xT>``; modulus
    ``m`` indexed ``mod m``) in every load and store of ``function``; place it in
    ``fast_space`` when given. Returns the new type."""
    buffer = alloc.results[0]
    old = buffer.type
    assert isinstance(old, MemRefType)
    keep = [k for k in range(len(old.shape)) if cells.get(k) != 1]
    shape = [cells.get(k, old.shape[k]) for k in keep] or [1]
    space = fast_space if fast_space is not None else old.memory_space
    new_type = MemRefType(shape, old.element_type, None, space)
    for op in function.walk():
        if op.name not in _ACCESSES:
            continue
        view = LoadOp(op) if op.name == "affine.load" else StoreOp(op)
        if view.memref is not buffer:
            continue
        m = view.map
        results = [m.results[k] % cells[k] if k in cells else m.results[k] for k in keep] or [
            constant(0)
        ]
        op.properties["map"] = AffineMapAttr(AffineMap.get(m.num_dims, m.num_symbols, results))
    buffer.type = new_type
    return new_type


def fuse_candidate(
    module: Module,
    verdict: FusionVerdict,
    local_buf_threshold: int = 0,
    fast_mem_space: int = 0,
    modular: bool = True,
) -> tuple[Module, list[str]]:
    """The new module running the fused schedule of a legal verdict, with private buffers
    for the producer-consumer intermediates that allow one (indexed modulo where values
    live across fused iterations, with ``modular``); and what was done to each."""
    fused, schedule = verdict.fused, verdict.schedule
    assert fused is not None and schedule is not None
    program = schedule.program
    result = schedule.apply()
    notes = []
    if fused.candidate.kind == PRODUCER:
        new_function = _same_function(result, program.function)
        body = new_function.regions[0].blocks[0].operations
        for memref in fused.candidate.memrefs:
            cells, why = check_private_buffer(verdict, memref, modular)
            name = memref.name or "the buffer"
            if not cells:
                notes.append(f"{name} kept: {why}")
                continue
            alloc = _allocation(program.prologue, memref)
            assert alloc is not None
            new_alloc = body[program.prologue.index(alloc)]
            old_type = new_alloc.results[0].type
            assert isinstance(old_type, MemRefType)
            elements = 1
            for k, extent in enumerate(old_type.shape):
                elements *= cells.get(k, extent)
            size = elements * max(1, _element_bytes(old_type))
            fast = fast_mem_space if size <= local_buf_threshold * 1024 else None
            new_type = contract_buffer(new_function, new_alloc, cells, fast)
            wrapped = "".join(f", index {k} modulo {m}" for k, m in cells.items() if m > 1)
            notes.append(f"{name} private: {old_type} -> {new_type}{wrapped}")
    return result, notes


def fuse_recomputing(
    module: Module,
    schedule: Schedule,
    candidate: Candidate,
    depth: int,
    local_buf_threshold: int = 0,
    fast_mem_space: int = 0,
) -> tuple[Module, FusionVerdict, list[str], Recomputation] | str:
    """``candidate`` (producer-consumer) fused at ``depth`` by running the producer's slice
    again in every consumer iteration (:func:`poly.recompute.recompute_slice`) into a
    private buffer of the slice's footprint: the new module, the copy's fusion verdict, what
    was done to the buffers, and the recomputation (its redundant work); or why not. The
    copy's fusion is checked on the whole function like any other."""
    copied = recompute_slice(schedule, candidate, depth)
    if isinstance(copied, str):
        return copied
    again = Schedule.of(_same_function(copied.module, schedule.program.function))
    pair = [c for c in candidates(again, PRODUCER) if copied.buffer in c.memrefs]
    if len(pair) != 1:
        return "the copy of the slice is not a producer of the consumer"
    verdict = check_fusion(again, pair[0], depth)
    if not verdict:
        return f"the copy of the slice does not fuse: {verdict.reason}"
    assert verdict.fused is not None
    if verdict.fused.depth != depth:
        return f"the copy of the slice fuses at depth {verdict.fused.depth} only"
    new, notes = fuse_candidate(
        copied.module, verdict, local_buf_threshold, fast_mem_space, modular=False
    )
    name = copied.buffer.name or ""
    if not any(note.startswith(f"{name} private: ") for note in notes):
        return f"the copy's buffer stays whole ({'; '.join(notes)})"
    return new, verdict, notes, copied


def _extra_work(copied: Recomputation) -> str:
    """``128 producer instances for 64 (+100% work)``."""
    extra = copied.redundancy
    share = "unknown" if extra is None else f"{extra:+.0%}"
    return f"{copied.copies} producer instances for {copied.originals} ({share} work)"


def _element_bytes(t: MemRefType) -> int:
    width = getattr(t.element_type, "width", None)
    return (width + 7) // 8 if isinstance(width, int) else 8


def _same_function(module: Module, function: Operation) -> Operation:
    name = function.properties.get("sym_name")
    return module.function(str(getattr(name, "value", "")))


# -- the pass -----------------------------------------------------------------------------------


@dataclass
class LoopFusion:
    """``--affine-loop-fusion``: fuse producer-consumer and sibling loop nests where the
    whole function's fused schedule is legal (``mode=greedy|producer|sibling``; ``maximal``
    fuses without the cost model and with any redundant work; ``local-buf-threshold``
    KiB: private buffers up to it go to ``fast-mem-space``; ``compute-tolerance`` bounds
    the extra producer instances a recomputing fusion runs, as a fraction)."""

    name = "affine-loop-fusion"
    mode: str = "greedy"
    maximal: bool = False
    compute_tolerance: float = 0.30
    fast_mem_space: int = 0
    local_buf_threshold: int = 0

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise PassOptionError(
                f"invalid value '{self.mode}' for option 'mode' of pass 'affine-loop-fusion' "
                f"(expected {', '.join(MODES)})"
            )
        if self.compute_tolerance < 0:
            raise PassOptionError("option 'compute-tolerance' of 'affine-loop-fusion' is < 0")
        if self.local_buf_threshold < 0 or self.fast_mem_space < 0:
            raise PassOptionError(
                "options 'local-buf-threshold' and 'fast-mem-space' of 'affine-loop-fusion' "
                "are non-negative"
            )

    def phases(self) -> tuple[str, ...]:
        if self.mode == "producer":
            return (PRODUCER,)
        if self.mode == "sibling":
            return (SIBLING,)
        return (PRODUCER, SIBLING, PRODUCER)

    def run(self, module: Module, context: PassContext) -> Module:
        """Fuses one candidate at a time until none is legal (and, unless maximal, pays).

        Every accepted fusion yields a module never seen before in this run (a
        regenerated nest can print as its input when the fused schedule separates the
        two nests again); so the loop ends."""
        result = module.clone()
        said: set[str] = set()
        seen = {print_module(result)}

        def remark(op: Operation | None, text: str) -> None:
            if text not in said:
                said.add(text)
                context.emit(op, "remark", text)

        for kind in self.phases():
            while True:
                fused = self._fuse_one(result, kind, remark, seen)
                if fused is None:
                    break
                result = fused
        return result

    def _rewrite(
        self, module: Module, verdict: FusionVerdict
    ) -> tuple[Module, list[str], str | None]:
        """The fused module, its notes, and why the cost model declines it (None: it pays,
        or ``maximal``). A buffer indexed modulo a count can cost the fused loop its
        vectorization; then the fusion keeping that buffer whole is weighed too."""
        assert verdict.fused is not None
        why = None
        for modular in (True, False):
            new, notes = fuse_candidate(
                module, verdict, self.local_buf_threshold, self.fast_mem_space, modular
            )
            if self.maximal:
                return new, notes, None
            why = profitable(fusion_cost(verdict, new, notes), verdict.fused.depth)
            if why is None or not any(" modulo " in note for note in notes):
                break
        return new, notes, why

    def _fuse_one(self, module: Module, kind: str, remark: Remark, seen: set[str]) -> Module | None:
        for function in module.functions():
            if not function.regions or not function.regions[0].blocks:
                continue
            try:
                schedule = Schedule.of(function)
                found = candidates(schedule, kind)
            except ScheduleError as e:
                remark(function, f"not fused: the function cannot be scheduled: {e.message}")
                continue
            for candidate in found:
                fused = self._fuse_candidate(module, schedule, candidate, remark, seen)
                if fused is not None:
                    return fused
        return None

    def _fuse_candidate(
        self,
        module: Module,
        schedule: Schedule,
        candidate: Candidate,
        remark: Remark,
        seen: set[str],
    ) -> Module | None:
        """The module with ``candidate`` fused, each producer instance run once where that
        is legal and pays, else (producer-consumer) recomputing the producer's slice; or
        None. The remarks say what was done, or why not (the refusal to recompute joined
        to the last refusal to fuse)."""
        held: list[tuple[Operation | None, str]] = []
        fused = self._fuse_once(module, schedule, candidate, lambda *r: held.append(r), seen)
        if fused is None and candidate.kind == PRODUCER:
            found = self._fuse_recomputing(module, schedule, candidate, seen)
            if isinstance(found, str):
                if held:
                    anchor, text = held[-1]
                    held[-1] = (anchor, f"{text}; recomputing its slice: {found}")
            else:
                fused, text = found
                held.append((candidate.first.statements[0].ops[0], text))
        for anchor, text in held:
            remark(anchor, text)
        return fused

    def _fuse_recomputing(
        self, module: Module, schedule: Schedule, candidate: Candidate, seen: set[str]
    ) -> tuple[Module, str] | str:
        """The module with ``candidate`` fused by recomputing the producer's slice at the
        deepest depth whose redundant work is within ``compute-tolerance`` (any, with
        ``maximal``) and that the cost model accepts, and the remark saying so; or why not
        at each depth."""
        what = candidate.describe()
        refusals = []
        for depth in range(candidate.second.depth, 0, -1):
            try:
                found = fuse_recomputing(
                    module,
                    schedule,
                    candidate,
                    depth,
                    self.local_buf_threshold,
                    self.fast_mem_space,
                )
            except (ScheduleError, PolyError) as e:
                found = getattr(e, "message", str(e))
            if isinstance(found, str):
                refusals.append(f"at depth {depth}, {found}")
                continue
            new, verdict, notes, copied = found
            work = _extra_work(copied)
            if not self.maximal:
                extra = copied.redundancy
                if extra is None or extra > self.compute_tolerance:
                    refusals.append(
                        f"at depth {depth}, {work}, over compute-tolerance {self.compute_tolerance:g}"
                    )
                    continue
                cost = profitable(fusion_cost(verdict, new, notes), depth)
                if cost is not None:
                    refusals.append(cost)
                    continue
            printed = print_module(new)
            if printed in seen:
                refusals.append(f"at depth {depth}, the regenerated code is no progress")
                continue
            seen.add(printed)
            kept = "kept" if copied.producer_kept else "removed"
            text = (
                f"fused {what} at depth {depth}, recomputing its slice {copied.slice}: {work} "
                f"(compute-tolerance {self.compute_tolerance:g}); the producer {kept}; "
                + "; ".join(notes)
            )
            return new, text
        return "; ".join(refusals)

    def _fuse_once(
        self,
        module: Module,
        schedule: Schedule,
        candidate: Candidate,
        remark: Remark,
        seen: set[str],
    ) -> Module | None:
        """The module with ``candidate`` fused at the deepest legal depth the cost model
        accepts, each producer instance run once; or None and a remark saying why not.
        When the deepest does not pay, a shallower depth that contracts a buffer is taken
        where it pays (a buffer indexed modulo a count keeps the inner loops whole, and
        vectorizable, at depth 1)."""
        anchor = candidate.first.statements[0].ops[0]
        what = candidate.describe()
        deepest: int | None = None
        while True:
            try:
                verdict = check_fusion(schedule, candidate, deepest)
                if not verdict:
                    if deepest is None:
                        remark(anchor, f"not fused: {what}: {verdict.reason}")
                    return None
                new, notes, why = self._rewrite(module, verdict)
            except ScheduleError as e:
                remark(anchor, f"not fused: {what}: {e.message}")
                return None
            except PolyError as e:
                remark(anchor, f"not fused: {what}: {e}")
                return None
            assert verdict.fused is not None
            depth = verdict.fused.depth
            printed = print_module(new)
            if printed in seen:
                remark(anchor, f"not fused: {what}: the regenerated code is no progress")
                return None
            if why is None and (deepest is None or contracted(notes)):
                break
            if deepest is None:
                remark(anchor, f"not fused for cost: {what}: {why} (maximal fuses anyway)")
            if depth == 1:
                return None
            deepest = depth - 1
        text = f"fused {what} at depth {depth}, no recomputation"
        if verdict.fused.slice is not None:
            text += f"; slice {verdict.fused.slice}"
        if notes:
            text += "; " + "; ".join(notes)
        seen.add(printed)
        remark(anchor, text)
        return new
