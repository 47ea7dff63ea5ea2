"""Unrolling and unroll-and-jam of ``affine.for`` loops (MLIR's ``loopUnrollByFactor``,
``loopUnrollFull``, ``loopUnrollUpToFactor`` and ``loopUnrollJamByFactor``).

Invariant: the rewritten loops execute the same body instances as the original, copy
``k`` of an unrolled body running the iteration ``iv + k * step``; iterations left over
when the trip count is not a multiple of the factor run in a cleanup loop after the main
one.  Unrolling is always legal; unroll-and-jam reorders inner-loop instances and is legal
when the dependence checks say so (not checked here).  In-place convention as in
:mod:`transforms.loop_utils`: every refusal (TransformError) happens before any change.
"""

from __future__ import annotations

from collections.abc import Sequence

from affine.analysis.reductions import LoopReduction, combine, loop_reductions
from affine.analysis.value_map import (
    ValueMap,
    canonicalize,
    concat,
    constant_trip_count,
    fully_compose,
    largest_divisor_of_trip_count,
    lower_bound,
    simplify_map,
    trip_count,
)
from affine.dialects.builders import affine_apply
from affine.dialects.common import segment_sizes
from affine.ir.core import Block, Operation, OpResult, Value, uses_of
from affine.math.affine_map import AffineMap
from affine.math.expr import dim
from affine.ops import ForOp
from transforms.errors import TransformError
from transforms.loop_utils import (
    body_ops,
    is_loop,
    promote_if_single_iteration,
    region_of,
    replace_results,
    set_bound,
    set_step,
)


def _still_placed(ops: Sequence[Operation]) -> list[Operation]:
    return [op for op in ops if op.parent is not None]


def _check_factor(loop: Operation, factor: int) -> None:
    if not is_loop(loop):
        raise TransformError(f"expected an affine.for, got '{loop.name}'", loop.loc)
    if factor < 1:
        raise TransformError(f"the unroll factor must be positive, got {factor}", loop.loc)


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _cleanup_needed(loop: Operation, factor: int, what: str) -> bool:
    """Whether iterations may be left over after the main unrolled loop; raises when the
    cleanup loop cannot be expressed (max lower or min upper bound)."""
    if largest_divisor_of_trip_count(loop) % factor == 0:
        return False
    f = ForOp(loop)
    if f.lower_bound_map.num_results != 1 or f.upper_bound_map.num_results != 1:
        raise TransformError(
            f"cannot {what} by {factor}: the trip count may not be a multiple of {factor} and "
            "the loop has a max lower bound or a min upper bound, so the cleanup loop's bounds "
            "would not be affine",
            loop.loc,
        )
    return True


def cleanup_lower_bound(loop: Operation, factor: int) -> ValueMap:
    """``lb + (trip - trip mod factor) * step``: where the main loop unrolled by ``factor``
    stops and the cleanup loop starts (MLIR's ``getCleanupLoopLowerBound``)."""
    counts = trip_count(loop)
    if counts is None:
        raise TransformError(
            "the trip count of a loop with a max lower bound is not affine", loop.loc
        )
    f = ForOp(loop)
    lb_apply = affine_apply(f.lower_bound_map, f.lower_bound_operands)
    bumps = [
        affine_apply(
            AffineMap.get(counts.map.num_dims, counts.map.num_symbols, [(t - t % factor) * f.step]),
            counts.operands,
        )
        for t in counts.map.results
    ]
    n = len(bumps)
    joined = AffineMap.get(1 + n, 0, [dim(0) + dim(i + 1) for i in range(n)])
    # The applies are never inserted: composition replaces them by their maps.
    composed = fully_compose(ValueMap(joined, (lb_apply.result, *(b.result for b in bumps))))
    m, operands = canonicalize(simplify_map(composed.map), composed.operands)
    return ValueMap(m, tuple(operands))


def _generate_cleanup(loop: Operation, factor: int) -> Operation:
    """Split off the iterations from :func:`cleanup_lower_bound` into a copy of ``loop``
    placed after it; ``loop``'s results flow into the copy's iter_args (MLIR's
    ``generateCleanupLoopForUnroll``)."""
    start = cleanup_lower_bound(loop, factor)
    cleanup = loop.clone()
    cleanup.loc = loop.loc
    parent = loop.parent
    assert parent is not None
    parent.insert_after(loop, cleanup)
    replace_results(loop, cleanup.results)
    f = ForOp(loop)
    control = len(f.lower_bound_operands) + len(f.upper_bound_operands)
    for j, result in enumerate(loop.results):
        cleanup.operands[control + j] = result
    # A symbolic trip count may be negative (upper bound below the lower one): the main loop
    # then runs no iteration, and so must the cleanup loop, which starts no lower than lb.
    known_count = constant_trip_count(loop) is not None
    set_bound(cleanup, "lower", start if known_count else concat([lower_bound(loop), start]))
    set_bound(loop, "upper", start)
    promote_if_single_iteration(cleanup)
    return cleanup


def _unroll_body(loop: Operation, factor: int, step: int) -> None:
    """Append ``factor - 1`` copies of the body, copy ``k`` reading ``iv + k * step`` and
    the values the previous copy yields (MLIR's ``generateUnrolledLoop``)."""
    f = ForOp(loop)
    body = f.body
    iv = f.induction_var
    originals = body_ops(loop)
    iv_used = bool(uses_of(loop, iv))
    original_yields = list(f.yield_op.operands)
    yielded = original_yields
    terminator = f.yield_op
    for k in range(1, factor):
        mapping: dict[Value, Value] = dict(zip(f.iter_args, yielded))
        if iv_used:
            bump = affine_apply(AffineMap.get(1, 0, [dim(0) + k * step]), [iv])
            bump.loc = loop.loc
            body.insert_before(terminator, bump)
            mapping[iv] = bump.result
        for op in originals:
            body.insert_before(terminator, op.clone(mapping))
        yielded = [mapping.get(v, v) for v in original_yields]
    terminator.operands = yielded


def unroll(loop: Operation, factor: int, cleanup_unroll: bool = False) -> list[Operation]:
    """Unroll ``loop`` by ``factor`` (MLIR's ``loopUnrollByFactor``); returns the loops now
    in its place (the main loop and the cleanup loop when they were not promoted).

    A trip count smaller than ``factor`` is refused, as is a loop whose cleanup loop cannot
    be built (max/min bounds and a trip count that may not be a multiple of ``factor``);
    with ``cleanup_unroll`` such loops, and any cleanup loop, are unrolled fully instead."""
    _check_factor(loop, factor)
    f = ForOp(loop)
    trip = constant_trip_count(loop)
    if factor == 1:
        promote_if_single_iteration(loop)
        return _still_placed([loop])
    if len(f.body.operations) == 1:
        return [loop]
    if trip is not None and trip < factor:
        if cleanup_unroll:
            return unroll_full(loop)
        raise TransformError(
            f"cannot unroll by {factor}: the loop runs only {_times(trip)}", loop.loc
        )
    cleanup = None
    if _cleanup_needed(loop, factor, "unroll"):
        if cleanup_unroll:
            return unroll_full(loop)
        cleanup = _generate_cleanup(loop, factor)
    step = f.step
    set_step(loop, step * factor)
    _unroll_body(loop, factor, step)
    promote_if_single_iteration(loop)
    return _still_placed([loop] + ([cleanup] if cleanup is not None else []))


def unroll_full(loop: Operation) -> list[Operation]:
    """Replace ``loop`` by copies of its body, one per iteration (MLIR's
    ``loopUnrollFull``); a zero-trip loop is left alone.  Needs a constant trip count."""
    _check_factor(loop, 1)
    trip = constant_trip_count(loop)
    if trip is None:
        raise TransformError("cannot unroll fully: the trip count is not constant", loop.loc)
    if trip == 0:
        return [loop]
    if promote_if_single_iteration(loop):
        return []
    return unroll(loop, trip)


def unroll_up_to(loop: Operation, factor: int) -> list[Operation]:
    """Unroll by ``factor`` or by the constant trip count when smaller (MLIR's
    ``loopUnrollUpToFactor``)."""
    _check_factor(loop, factor)
    trip = constant_trip_count(loop)
    if trip is not None and trip < factor:
        return unroll(loop, trip) if trip > 0 else [loop]
    return unroll(loop, factor)


# -- unroll and jam -------------------------------------------------------------------------------


def _defined_inside(loop: Operation, value: Value) -> bool:
    owner = value.owner_op
    if owner is None:
        block = value.owner  # type: ignore[attr-defined]
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


def unroll_and_jam(loop: Operation, factor: int, jam_into_ifs: bool = False) -> list[Operation]:
    """Unroll ``loop`` by ``factor`` and jam the copies into its inner loops (MLIR's
    ``loopUnrollJamByFactor``): each maximal run of ops without nested loops is followed by
    its ``factor - 1`` copies for ``iv + k * step``.  Inner loops with iter_args carry one
    set per copy; the loop's own iter_args must be reductions (one accumulator per copy,
    combined after the loop).  With ``jam_into_ifs``, ``affine.if`` ops whose condition does
    not depend on the loop are jammed into as well (MLIR copies them whole).

    Refused: a trip count below ``factor``, inner loop bounds that vary in ``loop``,
    iter_args that are not reductions, a needed cleanup loop with max/min bounds.  Returns
    the loops now in the place of ``loop``."""
    _check_factor(loop, factor)
    f = ForOp(loop)
    trip = constant_trip_count(loop)
    if factor == 1:
        if trip == 1:
            promote_if_single_iteration(loop)
        return _still_placed([loop])
    if len(f.body.operations) == 1:
        return [loop]
    if trip is not None and trip < factor:
        raise TransformError(
            f"cannot unroll-and-jam by {factor}: the loop runs only {_times(trip)}", loop.loc
        )
    inner_loops = [op for op in loop.walk() if is_loop(op) and op is not loop]
    for inner in inner_loops:
        g = ForOp(inner)
        for v in [*g.lower_bound_operands, *g.upper_bound_operands]:
            if _defined_inside(loop, v):
                raise TransformError(
                    "cannot unroll-and-jam: the bounds of an inner loop vary with the unrolled loop",
                    inner.loc,
                )
    reductions = loop_reductions(loop)
    if len(reductions) != len(f.iter_args):
        raise TransformError(
            "cannot unroll-and-jam a loop whose iter_args are not all reductions", loop.loc
        )
    runs, jammed_loops = _jam_structure(loop, jam_into_ifs)
    cleanup = None
    if _cleanup_needed(loop, factor, "unroll-and-jam"):
        cleanup = _generate_cleanup(loop, factor)
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
        for block, first, last in runs:
            at = block.index_of(last) + 1
            if iv_used:
                bump = affine_apply(AffineMap.get(1, 0, [dim(0) + k * step]), [iv])
                bump.loc = loop.loc
                block.insert(at, bump)
                mapping[iv] = bump.result
                at += 1
            for op in block.operations[block.index_of(first) : block.index_of(last) + 1]:
                block.insert(at, op.clone(mapping))
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
    _combine_reductions(loop, reductions, factor)
    promote_if_single_iteration(loop)
    return _still_placed([loop] + ([cleanup] if cleanup is not None else []))


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
