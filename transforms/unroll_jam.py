"""Unroll-and-jam of ``affine.for`` loops (MLIR's ``loopUnrollJamByFactor``): the check,
the rewrite and the ``affine-loop-unroll-jam`` pass.

Invariant: the jammed loops execute the same body instances as the original, copy ``k``
of the body running the iteration ``iv + k * step`` side by side with the others in every
innermost run of ops; the rewrite runs only where :func:`check_unroll_and_jam` finds no
dependence that this reorders. In-place convention as in :mod:`transforms.loop_utils`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from affine.analysis.layout import strided_form
from affine.analysis.loops import constant_trip_count, lower_bound, upper_bound
from affine.analysis.reductions import LoopReduction, combine, loop_reductions
from affine.analysis.value_map import ValueMap, combine_maps, concat, difference, substitute_value
from affine.dialects.builders import affine_apply, affine_if
from affine.dialects.common import segment_sizes
from affine.exec.inputs import function_name
from affine.ir.core import Block, Module, Operation, OpResult, Value, uses_of
from affine.ir.labels import loop_label, value_label
from affine.ir.types import DYNAMIC, MemRefType
from affine.math.affine_map import AffineMap
from affine.math.expr import CONST, dim
from affine.ops import ForOp, LoadOp, StoreOp
from poly.deps import AnalysisWarning
from poly.flow import FlowAnalysis
from poly.legality import (
    Verdict,
    analysis_for,
    independent_copies,
    unsupported_ops,
    window_reversals,
)
from poly.schedule import Schedule
from poly.schedule_program import ScheduleError
from poly.tail_jam import tail_jam
from poly.tile_model import element_bytes
from transforms.errors import TransformError
from transforms.loop_pass import analysis_of, attempt, functions, refuse
from transforms.loop_utils import (
    condition_set,
    is_loop,
    moved_per_step,
    promote_if_single_iteration,
    region_of,
    set_bound,
    set_step,
)
from transforms.registry import PassContext, PassOptions, option
from transforms.skewing import skew_band
from transforms.unrolling import (
    cleanup_needed,
    generate_cleanup,
    still_placed,
    times_text,
    unrolled_as_is,
)


def check_unroll_and_jam(
    loop: Operation, factor: int, analysis: FlowAnalysis | None = None, jam_into_ifs: bool = False
) -> Verdict:
    """Can ``loop`` be unrolled by ``factor`` and its copies jammed into the loops inside
    (by :func:`unroll_and_jam_loop` with the same ``jam_into_ifs``)?

    Jamming runs the copies for ``iv, iv + step, ..`` side by side in every innermost run of
    ops, each run copied whole after itself: two instances less than ``factor`` iterations
    of ``loop`` apart then run in the order of their schedules *below* ``loop`` (position
    in the body, then the inner loops' IVs), except that within one run, in the same
    inner iterations, ``loop``'s IV comes before the position. Illegal when a dependence
    between such instances has its target earlier in that order than its source.
    """
    if factor < 1:
        return Verdict(False, f"unroll-and-jam factor {factor} is not positive")
    verdict = unsupported_ops([loop])
    if not verdict:
        return verdict
    step = loop.properties["step"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    return window_reversals(loop, factor * step, "jamming", analysis, _runs(loop, jam_into_ifs))


def _runs(loop: Operation, jam_into_ifs: bool) -> dict[Operation, int] | None:
    """Per op in a run of ops of ``loop`` (:func:`_jam_structure`), how far in walk order it
    is from the run's first op; None when a run holds an ``affine.parallel`` (its IVs come
    between the run's position and the op's in a schedule, which the order by runs of
    :func:`~poly.legality.window_reversals` does not model: the check then orders by
    position alone, which is stricter)."""
    order = {op: k for k, op in enumerate(loop.walk())}
    runs: dict[Operation, int] = {}
    for run in _jam_structure(loop, jam_into_ifs)[0]:
        first = order[run[1]]
        for top in _run_ops(run):
            for op in top.walk():
                if op.name == "affine.parallel":
                    return None
                runs[op] = order[op] - first
    return runs


def _defined_inside(loop: Operation, value: Value) -> bool:
    owner = value.owner_op
    if owner is None:
        block = value.owner  # type: ignore[attr-defined]  # a value without an owner op is a block argument
        owner = block.parent_op if isinstance(block, Block) else None
        return owner is not None and loop.is_ancestor_of(owner)
    return loop.is_ancestor_of(owner) and owner is not loop


def _jammable_if(loop: Operation, op: Operation) -> bool:
    """An ``affine.if`` without results whose condition is the same for every unrolled
    copy: its branches can be jammed like loop bodies."""
    return (
        op.name == "affine.if"
        and not op.results
        and not any(_defined_inside(loop, v) for v in op.operands)
    )


def _jam_structure(
    loop: Operation, into_ifs: bool
) -> tuple[list[tuple[Block, Operation, Operation]], list[Operation]]:
    """The maximal runs of ops without nested loops (nor jammable ifs with ``into_ifs``), as
    ``(block, first, last)`` in textual order (MLIR's ``JamBlockGatherer``), and the loops
    walked into (``loop`` and the nested loops the copies are jammed into)."""
    runs: list[tuple[Block, Operation, Operation]] = []
    containers: list[Operation] = [loop]

    def is_container(op: Operation) -> bool:
        return is_loop(op) or (into_ifs and _jammable_if(loop, op))

    def walk_block(block: Block) -> None:
        ops = block.operations[:-1]
        i = 0
        while i < len(ops):
            start = i
            while i < len(ops) and not is_container(ops[i]):
                i += 1
            if i > start:
                runs.append((block, ops[start], ops[i - 1]))
            while i < len(ops) and is_container(ops[i]):
                containers.append(ops[i])
                for region in ops[i].regions:
                    for nested in region.blocks:
                        walk_block(nested)
                i += 1

    walk_block(ForOp(loop).body)
    return runs, [op for op in containers if is_loop(op)]


def _run_ops(run: tuple[Block, Operation, Operation]) -> list[Operation]:
    block, first, last = run
    return block.operations[block.index_of(first) : block.index_of(last) + 1]


@dataclass(frozen=True)
class _Ramp:
    """An inner loop whose single-result bounds vary with the unrolled loop: its bounds for
    each copy ``k`` (the unrolled IV moved by ``k`` steps), and which copy's bound is the
    lowest and the highest of each (each copy's bound differs from copy 0's by a constant)."""

    loop: Operation
    lower: list[ValueMap]
    upper: list[ValueMap]
    lower_ends: tuple[int, int]
    upper_ends: tuple[int, int]


def _ramps(
    loop: Operation, factor: int, runs: list[tuple[Block, Operation, Operation]]
) -> list[_Ramp]:
    """The inner loops of ``loop`` whose bounds vary with its IV; raises TransformError
    where jamming them is not supported: bounds that use another value computed inside
    ``loop``, that are a max or min, whose copies differ by more than a constant, a varying
    loop inside another or carrying iter_args, or a value of a run inside one used after
    the run (the runs go under ``affine.if``)."""
    f = ForOp(loop)
    iv, step = f.induction_var, f.step
    ramps: list[_Ramp] = []
    for inner in loop.nested_ops():
        if not is_loop(inner):
            continue
        g = ForOp(inner)
        varying = [
            v
            for v in (*g.lower_bound_operands, *g.upper_bound_operands)
            if _defined_inside(loop, v)
        ]
        if not varying:
            continue
        why = None
        if any(v is not iv for v in varying):
            why = "use a value computed inside the unrolled loop"
        elif inner.results:
            why = "vary with the unrolled loop and it carries iter_args"
        elif g.lower_bound_map.num_results != 1 or g.upper_bound_map.num_results != 1:
            why = "vary with the unrolled loop and are a max or a min"
        elif any(r.loop.is_ancestor_of(inner) for r in ramps):
            why = "vary with the unrolled loop inside another such loop"
        lower = [_moved(lower_bound(inner), iv, k * step) for k in range(factor)]
        upper = [_moved(upper_bound(inner), iv, k * step) for k in range(factor)]
        lower_ends, upper_ends = _ends(lower), _ends(upper)
        if why is None and (lower_ends is None or upper_ends is None):
            why = "vary with the unrolled loop other than by a constant per iteration"
        elif why is None and any(d % g.step for d in _offsets(lower) or []):
            # one loop of that step cannot run copies that start off its lattice
            why = f"start the copies' iterations apart by other than a multiple of its step ({g.step})"
        if why is not None:
            raise TransformError(
                f"cannot unroll-and-jam: the bounds of an inner loop {why}", inner.loc
            )
        assert lower_ends is not None and upper_ends is not None
        ramps.append(_Ramp(inner, lower, upper, lower_ends, upper_ends))
    for run in runs:
        if not any(r.loop.is_ancestor_of(run[1]) for r in ramps):
            continue
        ops = _run_ops(run)
        for op in ops:
            for result in op.results:
                for user, _ in uses_of(loop, result):
                    if not any(o.is_ancestor_of(user) for o in ops):
                        raise TransformError(
                            "cannot unroll-and-jam: a value computed in a loop whose bounds "
                            "vary with the unrolled loop is used after its run of ops",
                            op.loc,
                        )
    return ramps


def _moved(vm: ValueMap, iv: Value, offset: int) -> ValueMap:
    """``vm`` with ``iv`` replaced by ``iv + offset``."""
    return substitute_value(vm, iv, ValueMap(AffineMap.get(1, 0, [dim(0) + offset]), (iv,)))


def _offsets(bounds: list[ValueMap]) -> list[int] | None:
    """How far each of ``bounds`` lies from the first, or None unless each by a constant."""
    offsets = []
    for b in bounds:
        d = difference(b, bounds[0]).map.results[0]
        if d.kind != CONST:
            return None
        offsets.append(d.value)
    return offsets


def _ends(bounds: list[ValueMap]) -> tuple[int, int] | None:
    """The copies with the lowest and the highest of ``bounds``, or None unless each differs
    from the first by a constant."""
    offsets = _offsets(bounds)
    if offsets is None:
        return None
    return offsets.index(min(offsets)), offsets.index(max(offsets))


def _split_ramp(
    ramp: _Ramp,
    runs: list[tuple[Block, Operation, Operation]],
    copies: dict[tuple[int, int], list[Operation]],
    factor: int,
) -> None:
    """Run ``ramp``'s loop over the hull of the copies' ranges as three loops: the ramp in
    (below the highest lower bound) and the ramp out (from the lowest upper bound on), where
    each copy runs under an ``affine.if`` on its own range, and between them the steady
    loop where every copy is in range and runs plainly."""
    inner = ramp.loop
    j = ForOp(inner).induction_var
    at_j, after_j = (ValueMap(AffineMap.get(1, 0, [dim(0) + c]), (j,)) for c in (0, 1))
    steady = inner.clone()
    for r, run in enumerate(runs):
        if not inner.is_ancestor_of(run[1]):
            continue
        for k in range(factor):
            in_range = [difference(at_j, ramp.lower[k]), difference(ramp.upper[k], after_j)]
            condition, operands = condition_set(in_range)
            if condition is None:
                continue
            ops = copies[r, k]
            block = ops[0].parent
            assert block is not None
            guard = affine_if(condition, operands)
            guard.loc = ops[0].loc
            block.insert_before(ops[0], guard)
            then_block = guard.regions[0].blocks[0]
            for op in ops:
                op.erase()
                then_block.insert_before(then_block.operations[-1], op)
    block = inner.parent
    assert block is not None
    block.insert_after(inner, steady)
    lowest_lower, highest_lower = (ramp.lower[k] for k in ramp.lower_ends)
    lowest_upper, highest_upper = (ramp.upper[k] for k in ramp.upper_ends)
    set_bound(steady, "lower", highest_lower)
    set_bound(steady, "upper", lowest_upper)
    if ramp.upper_ends[0] != ramp.upper_ends[1]:  # the copies' upper bounds differ
        ramp_out = block.insert_after(steady, inner.clone())
        step = ForOp(inner).step  # the steady loop's next point, on its lattice from hl:
        resume = combine_maps(
            highest_lower, lowest_upper, lambda hl, lu: hl + (lu - hl).ceildiv(step) * step
        )
        set_bound(ramp_out, "lower", concat([resume, highest_lower]))
        set_bound(ramp_out, "upper", highest_upper)
    if ramp.lower_ends[0] == ramp.lower_ends[1]:  # no copy starts later than another
        inner.erase()
        return
    set_bound(inner, "upper", concat([highest_lower, highest_upper]))
    set_bound(inner, "lower", lowest_lower)


def _add_iter_args(loop: Operation, copies: int) -> None:
    """Give ``loop`` ``copies`` copies of its iter operands, iter_args, results and yielded
    values (to be remapped per copy); MLIR's ``replaceWithAdditionalYields`` in place."""
    f = ForOp(loop)
    inits = list(f.inits)
    args = list(f.iter_args)
    yielded = list(f.yield_op.operands)
    for _ in range(copies - 1):
        loop.operands.extend(inits)
        for a in args:
            f.body.add_argument(a.type, a.loc)
        for v in inits:
            loop.results.append(OpResult(v.type, loop, len(loop.results)))
        f.yield_op.operands.extend(yielded)
    loop.properties["operandSegmentSizes"] = segment_sizes(
        len(f.lower_bound_operands), len(f.upper_bound_operands), len(inits) * copies
    )


def unroll_and_jam_loop(
    loop: Operation, factor: int, jam_into_ifs: bool = False
) -> list[Operation]:
    """Unroll ``loop`` by ``factor`` and jam the copies into its inner loops (MLIR's
    ``loopUnrollJamByFactor``): each maximal run of ops without nested loops is followed by
    its ``factor - 1`` copies for ``iv + k * step``.  Inner loops with iter_args carry one
    set per copy; the loop's own iter_args must be reductions (one accumulator per copy,
    combined after the loop).  With ``jam_into_ifs``, ``affine.if`` ops whose condition does
    not depend on the loop are jammed into as well (MLIR copies them whole).

    An inner loop whose bounds vary with ``loop``'s IV (a skewed band) runs over the hull
    of the copies' ranges, split where every copy is in range: the steady part runs the
    copies plainly, the ramps before and after run each copy under an ``affine.if`` on its
    own range (MLIR refuses such loops).

    Refused: a trip count below ``factor``, iter_args that are not reductions, a needed
    cleanup loop with max/min bounds, inner bounds that vary other than by a constant per
    copy (see :func:`_ramps`).  Returns the loops now in the place of ``loop``."""
    if (as_is := unrolled_as_is(loop, factor)) is not None:
        return as_is
    f = ForOp(loop)
    trip = constant_trip_count(loop)
    if trip is not None and trip < factor:
        raise TransformError(
            f"cannot unroll-and-jam by {factor}: the loop runs only {times_text(trip)}", loop.loc
        )
    reductions = loop_reductions(loop)
    if len(reductions) != len(f.iter_args):
        raise TransformError(
            "cannot unroll-and-jam a loop whose iter_args are not all reductions", loop.loc
        )
    runs, jammed_loops = _jam_structure(loop, jam_into_ifs)
    ramps = _ramps(loop, factor, runs)
    copies: dict[tuple[int, int], list[Operation]] = {
        (r, 0): _run_ops(run) for r, run in enumerate(runs)
    }
    cleanup = None
    if cleanup_needed(loop, factor, "unroll-and-jam"):
        cleanup = generate_cleanup(loop, factor)
    carrying = [op for op in jammed_loops if op.results]
    mappings: list[dict[Value, Value]] = [{} for _ in range(factor - 1)]
    for carrier in carrying:
        n = len(carrier.results)
        _add_iter_args(carrier, factor)
        args, results = ForOp(carrier).iter_args, carrier.results
        for k in range(1, factor):
            for j in range(n):
                mappings[k - 1][args[j]] = args[k * n + j]
                mappings[k - 1][results[j]] = results[k * n + j]
    step = f.step
    set_step(loop, step * factor)
    iv = f.induction_var
    iv_used = bool(uses_of(loop, iv))
    for k in range(factor - 1, 0, -1):
        mapping = mappings[k - 1]
        for r, (block, _first, last) in enumerate(runs):
            at = block.index_of(last) + 1
            if iv_used:
                bump = affine_apply(AffineMap.get(1, 0, [dim(0) + k * step]), [iv])
                bump.loc = loop.loc
                block.insert(at, bump)
                mapping[iv] = bump.result
                at += 1
            copies[r, k] = []
            for op in copies[r, 0]:
                copies[r, k].append(block.insert(at, op.clone(mapping)))
                at += 1
        for carrier in carrying:
            g = ForOp(carrier)
            n = len(carrier.results) // factor
            control = len(g.lower_bound_operands) + len(g.upper_bound_operands)
            yield_op = g.yield_op
            for j in range(n):
                carrier.operands[control + k * n + j] = mapping.get(
                    carrier.operands[control + j], carrier.operands[control + j]
                )
                yield_op.operands[k * n + j] = mapping.get(
                    yield_op.operands[j], yield_op.operands[j]
                )
    for ramp in ramps:
        _split_ramp(ramp, runs, copies, factor)
    _combine_reductions(loop, reductions, factor)
    promote_if_single_iteration(loop)
    return still_placed([loop] + ([cleanup] if cleanup is not None else []))


def _combine_reductions(loop: Operation, reductions: list[LoopReduction], factor: int) -> None:
    """Fold the ``factor`` accumulators of each reduction into the first, after the loop."""
    if not reductions:
        return
    parent = loop.parent
    assert parent is not None
    n = len(loop.results) // factor
    at = parent.index_of(loop) + 1
    for reduction in reductions:
        first = loop.results[reduction.position]
        value: Value = first
        created: list[Operation] = []
        for k in range(factor - 1, 0, -1):
            op = combine(reduction.kind, value, loop.results[k * n + reduction.position])
            op.loc = loop.loc
            parent.insert(at, op)
            at += 1
            created.append(op)
            value = op.result
        for op in region_of(loop).walk():
            if op not in created:
                op.operands[:] = [value if v is first else v for v in op.operands]


@dataclass
class LoopUnrollAndJam(PassOptions):
    """``-affine-loop-unroll-jam``: the outermost loop of every nest that holds inner loops
    is unrolled by ``unroll-jam-factor`` and jammed, where the dependences allow it (mlir-opt
    only looks at the first op of a function and never checks)."""

    name = "affine-loop-unroll-jam"
    unroll_jam_factor: int = option(4, minimum=1)

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        for function in functions(module, context):
            analysis = analysis_of(function)
            body = function.regions[0].blocks[0]
            for loop in [op for op in body.operations if op.name == "affine.for"]:
                if not any(inner.name == "affine.for" for inner in loop.nested_ops()):
                    continue
                what = "loop not unrolled and jammed"
                verdict = check_unroll_and_jam(loop, self.unroll_jam_factor, analysis)
                if not verdict:
                    refuse(context, loop, what, verdict.reason)
                    continue
                attempt(
                    context,
                    loop,
                    what,
                    partial(unroll_and_jam_loop, loop, self.unroll_jam_factor),
                )
        return module


MAX_STREAMS = 16  # address streams the chains' loops may walk together
PAGE_BYTES = 4096  # accesses closer than this walk one stream


def memory_streams(loop: Operation) -> int:
    """How many streams of addresses the affine accesses in ``loop`` walk: accesses to one
    memref whose addresses differ by a constant of less than :data:`PAGE_BYTES` form one
    stream (the hardware prefetcher follows them together, within a page); every other
    access (a memref without a static strided layout, a difference that varies) is its own.

    Measured on adi's sweeps (each chain walks its own rows of ``p`` and ``q``): 4 chains,
    9-14 streams, 1.99x; 8 chains, 17-26 streams, 1.74-1.84x; 16 chains 1.18x; seidel-2d's
    8 chains share 10 rows: 6.2x, against 3.8x with 4."""
    groups: dict[Value, list[ValueMap | None]] = {}
    for op in loop.nested_ops():
        if op.name not in LoadOp.OP_NAMES + StoreOp.OP_NAMES:
            continue
        view = LoadOp(op) if op.name in LoadOp.OP_NAMES else StoreOp(op)
        t = view.memref.type
        layout = strided_form(t) if isinstance(t, MemRefType) else None
        address = None
        if layout is not None and DYNAMIC not in (*layout.strides, layout.offset):
            linear = layout.to_affine_map().compose(view.map)
            address = ValueMap(linear, tuple(view.map_operands))
        groups.setdefault(view.memref, []).append(address)
    count = 0
    for memref, addresses in groups.items():
        size = element_bytes(memref.type)  # type: ignore[arg-type]  # only memrefs are accessed
        leaders: list[ValueMap] = []
        for address in addresses:
            if address is None:
                count += 1
            elif not any(_within_page(address, leader, size) for leader in leaders):
                leaders.append(address)
        count += len(leaders)
    return count


def _within_page(a: ValueMap, b: ValueMap, element_size: int) -> bool:
    d = difference(a, b).map.results[0]
    return d.kind == CONST and abs(d.value) * element_size < PAGE_BYTES


def interleave_chains(
    module: Module,
    function_name: str,
    factor: int = 8,
    max_skew: int = 3,
    max_streams: int | None = MAX_STREAMS,
    left_alone: Callable[[Operation], str | None] | None = None,
    remarks: list[str] | None = None,
) -> tuple[Module, list[tuple[Operation, str]]]:
    """Innermost loops ``j`` that carry a chain (each iteration reads what one a few
    before wrote: latency-bound, and LLVM cannot vectorize it) get up to ``factor`` chains
    side by side: their enclosing loop ``i`` is unrolled and jammed, after skewing its
    chain loops by the smallest ``f * i`` (``f`` up to ``max_skew``) that makes the jam
    legal and the chains independent (seidel-2d: ``j + 2i``), with fewer chains where
    their loops would walk more than ``max_streams`` address streams (None: no limit).
    ``i`` may hold other ops and loops beside them (adi's sweeps: a forward and a
    backward chain per row, with stores between); each enclosing loop is jammed once, for
    all its chain loops. Where no skew serves because the ops after a chain loop feed the
    next iteration's chain (cholesky, trisolv), the chains run side by side over the
    iterations they share and each finishes after, in order (:func:`_tail_jammed`); the
    function is then regenerated from its schedule and no other loop is jammed. Chain loops
    for which ``left_alone`` gives a reason are left as they are, the reason in
    ``remarks``.

    Returns a new module (``module`` untouched) and what was done: per enclosing loop, the
    jammed loop and a line; each jam checked by :func:`check_unroll_and_jam`, skewing being
    always legal."""
    result = module
    done = []
    function = module.function(function_name)
    groups = _chain_loops(function)
    loops = [op for op in function.walk() if is_loop(op)]
    reasons = {
        p: reason
        for _, positions in groups
        for p in positions
        if left_alone is not None and (reason := left_alone(loops[p])) is not None
    }
    if remarks is not None:
        remarks.extend(
            f"chains of {loop_label(loops[p])} left as they are: {reason}"
            for p, reason in sorted(reasons.items())
        )
    groups = [(outer, [p for p in kept if p not in reasons]) for outer, kept in groups]
    for outer_position, positions in reversed([g for g in groups if g[1]]):
        jammed = _jammed(
            result, function_name, outer_position, positions, factor, max_skew, max_streams
        )
        tails = None
        if jammed is None:
            jammed = tails = _tail_jammed(
                result, function_name, outer_position, positions, factor, max_streams
            )
        if jammed is not None:
            result, line = jammed
            done.append(line)
        if tails is not None:
            break  # the function was regenerated: the other groups' positions are gone
    return result, done


def _tail_jammed(
    module: Module,
    function_name: str,
    outer_position: int,
    positions: list[int],
    factor: int,
    max_streams: int | None,
) -> tuple[Module, tuple[Operation, str]] | None:
    """A new module where the loop at ``outer_position`` runs its one chain loop (at
    ``positions``) as chains side by side over the iterations the copies share, each copy
    finishing its own after (:func:`poly.tail_jam.tail_jam`: where the ops after the chain
    loop feed the next iteration's chain, as in cholesky and trisolv), with the most chains,
    halving ``factor`` down to 2, whose loops walk at most ``max_streams`` streams; None
    where the schedule is illegal or the function has none."""
    if len(positions) != 1:
        return None
    function = module.function(function_name)
    loops = [op for op in function.walk() if is_loop(op)]
    outer, inner = loops[outer_position], loops[positions[0]]
    if outer.name != "affine.for" or inner.name != "affine.for":
        return None
    try:
        schedule = Schedule.of(function)
    except ScheduleError:
        return None
    counts = _chain_counts(factor)
    for chains in counts:
        try:
            jammed = tail_jam(schedule, outer, inner, chains)
            if isinstance(jammed, str):
                return None
            result = jammed.apply(separate=True)
        except ScheduleError:
            return None
        streams = _most_streams([result.function(function_name)])
        if max_streams is None or streams <= max_streams or chains == counts[-1]:
            line = (
                f"{chains} chains of {loop_label(inner)} side by side over the iterations "
                f"they share, then each iteration of {loop_label(outer)} finishes, in order"
            )
            return result, (outer, line)
    return None


def band_width(loop: Operation) -> int | None:
    """The most iterations of ``loop`` (step 1) where its range is a band: a lower bound
    that moves with the loop around it and an upper bound a constant distance above it
    (``max(0, i - W)`` to ``min(N, i + W + 1)``: at most 2W + 1, wherever ``i`` puts
    them); None otherwise."""
    outer = loop.parent_op
    if outer is None or outer.name != "affine.for" or ForOp(loop).step != 1:
        return None
    iv = outer.regions[0].blocks[0].arguments[0]
    lower, upper = lower_bound(loop), upper_bound(loop)
    widths = []
    for low in (lower.result(k) for k in range(lower.map.num_results)):
        moved = moved_per_step(low, iv).map
        if moved.is_constant() and not any(moved.constant_results):
            continue  # a fixed end: not a band
        for high in (upper.result(k) for k in range(upper.map.num_results)):
            span = difference(high, low)
            if span.map.is_single_constant():
                widths.append(span.map.single_constant_result)
    return max(0, min(widths)) if widths else None


def _chain_counts(factor: int) -> list[int]:
    """``factor`` and its halvings down to 2: the chain counts tried, most first."""
    counts = [factor]
    while counts[-1] // 2 >= 2:
        counts.append(counts[-1] // 2)
    return counts


def _most_streams(roots: Sequence[Operation]) -> int:
    """The most address streams (:func:`memory_streams`) an innermost loop under ``roots``
    walks."""
    innermost = [
        op
        for top in roots
        for op in top.walk()
        if is_loop(op) and not any(is_loop(o) for o in op.nested_ops())
    ]
    return max((memory_streams(loop) for loop in innermost), default=0)


def _jammed(
    module: Module,
    function_name: str,
    outer_position: int,
    positions: list[int],
    factor: int,
    max_skew: int,
    max_streams: int | None,
) -> tuple[Module, tuple[Operation, str]] | None:
    """A copy of ``module`` with the loop at ``outer_position`` unrolled and jammed over its
    chain loops at ``positions`` (see :func:`interleave_chains`): the first skew where the
    jam is legal and the copies independent (:func:`~poly.legality.independent_copies`),
    and there the most chains, halving ``factor`` while it stays at least 2, whose loops
    walk at most ``max_streams`` streams (:func:`memory_streams`); None where no skew
    serves."""
    counts = _chain_counts(factor)  # fewer chains where they walk too many streams
    for skew in range(max_skew + 1):
        for chains in counts:
            trial = module.clone()
            loops = [op for op in trial.function(function_name).walk() if is_loop(op)]
            outer, inners = loops[outer_position], [loops[p] for p in positions]
            labels = ", ".join(loop_label(inner) for inner in inners)
            if skew:
                for inner in inners:
                    skew_band([outer, inner], [skew])
            analysis = analysis_for(outer, None)
            if not check_unroll_and_jam(outer, chains, analysis):
                break  # try the next skew
            if not independent_copies(outer, inners, chains * ForOp(outer).step, analysis):
                break  # the copies would wait for each other: try the next skew
            try:
                placed = unroll_and_jam_loop(outer, chains)
            except TransformError:
                break
            streams = _most_streams(placed)
            if max_streams is None or streams <= max_streams or chains == counts[-1]:
                skewed = (
                    f", skewed by {skew} x {value_label(ForOp(outer).induction_var)}"
                    if skew
                    else ""
                )
                return trial, (outer, f"{chains} chains of {labels} side by side{skewed}")
    return None


def _chain_loops(function: Operation) -> list[tuple[int, list[int]]]:
    """Per loop that directly holds innermost loops carrying a chain
    (:func:`_carries_a_chain`), its position and theirs (among the function's loops, in
    walk order), outer loops first."""
    loops = [op for op in function.walk() if is_loop(op)]
    candidates = []
    for position, inner in enumerate(loops):
        outer = inner.parent_op
        if any(is_loop(op) for op in inner.nested_ops()) or outer is None or not is_loop(outer):
            continue
        if inner.results or outer.results:
            continue
        if _stores_what_it_loads(inner):
            candidates.append(position)
    if not candidates:  # the analysis below is the costly part
        return []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnalysisWarning)
        analysis = FlowAnalysis(function, memory_based=False)
    groups: dict[int, list[int]] = {}
    for position in candidates:
        if _carries_a_chain(loops[position], analysis):
            outer = loops[position].parent_op
            groups.setdefault(loops.index(outer), []).append(position)  # type: ignore[arg-type]  # checked above: a loop
    return sorted(groups.items())


def _stores_what_it_loads(loop: Operation) -> bool:
    """Whether ``loop``'s body loads from a memref it stores to (a chain through memory
    needs one)."""
    loaded = {op.operands[0] for op in loop.nested_ops() if op.name == "affine.load"}
    return any(op.operands[1] in loaded for op in loop.nested_ops() if op.name == "affine.store")


def _carries_a_chain(loop: Operation, analysis: FlowAnalysis) -> bool:
    """Whether each iteration of ``loop`` reads what one a few iterations before wrote (a
    value-based flow carried by ``loop`` alone, at a constant distance of 1 to 4): a chain
    of iterations. Dependences at distances that vary (floyd-warshall's row ``k``) are not
    one."""
    for edge in analysis.value:
        if edge.kind != "RAW" or not edge.common or edge.common[-1].op is not loop:
            continue
        *outer, inner = edge.bounds()
        if all(b.low == b.high == 0 for b in outer) and inner.low == inner.high:
            if inner.low is not None and 1 <= inner.low <= 4:
                return True
    return False


@dataclass
class InterleaveChains(PassOptions):
    """``--affine-interleave-chains``: innermost loops that carry a chain run up to
    ``chains`` of them side by side (:func:`interleave_chains`: the enclosing loop unrolled
    and jammed after a skew of at most ``max-skew``, with fewer chains where their loops
    would walk more than ``max-streams`` address streams; 0 sets no limit); a remark for
    each."""

    name = "affine-interleave-chains"
    chains: int = option(8, minimum=2)
    max_skew: int = option(3, minimum=0)
    max_streams: int = option(MAX_STREAMS, minimum=0)

    def run(self, module: Module, context: PassContext) -> Module:
        for function in functions(module, context):
            name = function_name(function)
            module, done = interleave_chains(
                module, name, self.chains, self.max_skew, self.max_streams or None
            )
            for loop, line in done:
                context.emit(loop, "remark", line)
        return module
