"""Unrolling of ``affine.for`` loops (MLIR's ``loopUnrollByFactor``, ``loopUnrollFull`` and
``loopUnrollUpToFactor``) and the ``affine-loop-unroll`` pass.

Invariant: the rewritten loops execute the same body instances as the original, copy
``k`` of an unrolled body running the iteration ``iv + k * step``; iterations left over
when the trip count is not a multiple of the factor run in a cleanup loop after the main
one.  Unrolling is always legal; unroll-and-jam reorders inner-loop instances and is legal
when the dependence checks say so (not checked here).  In-place convention as in
:mod:`transforms.loop_utils`: every refusal (TransformError) happens before any change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from affine.analysis.loops import (
    constant_trip_count,
    largest_divisor_of_trip_count,
    lower_bound,
    trip_count,
)
from affine.analysis.value_map import (
    ValueMap,
    canonicalize,
    concat,
    fully_compose,
    simplify_affine_map,
)
from affine.dialects.builders import affine_apply
from affine.ir.core import Module, Operation, Value, uses_of
from affine.math.affine_map import AffineMap
from affine.math.expr import dim
from affine.ops import ForOp
from transforms.errors import TransformError
from transforms.loop_pass import attempt, functions
from transforms.loop_utils import (
    body_ops,
    innermost_loops,
    is_loop,
    loops,
    promote_if_single_iteration,
    replace_results,
    set_bound,
    set_step,
)
from transforms.registry import PassContext, PassOptions, option


def still_placed(ops: Sequence[Operation]) -> list[Operation]:
    return [op for op in ops if op.parent is not None]


def require_unroll_factor(loop: Operation, factor: int) -> None:
    """Raise TransformError unless ``loop`` is an ``affine.for`` and ``factor`` positive."""
    if not is_loop(loop):
        raise TransformError(f"expected an affine.for, got '{loop.name}'", loop.loc)
    if factor < 1:
        raise TransformError(f"the unroll factor must be positive, got {factor}", loop.loc)


def unrolled_as_is(loop: Operation, factor: int) -> list[Operation] | None:
    """The loops in ``loop``'s place when unrolling it by ``factor`` changes nothing (factor
    1: the loop, promoted if it runs once; a body of only the terminator); None otherwise.
    Raises TransformError unless ``loop`` is an ``affine.for`` and ``factor`` positive."""
    require_unroll_factor(loop, factor)
    if factor == 1:
        promote_if_single_iteration(loop)
        return still_placed([loop])
    if len(ForOp(loop).body.operations) == 1:
        return [loop]
    return None


def times_text(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def cleanup_needed(loop: Operation, factor: int, what: str) -> bool:
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
    m, operands = canonicalize(simplify_affine_map(composed.map), composed.operands)
    return ValueMap(m, tuple(operands))


def generate_cleanup(loop: Operation, factor: int) -> Operation:
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


def unroll_loop(loop: Operation, factor: int, cleanup_unroll: bool = False) -> list[Operation]:
    """Unroll ``loop`` by ``factor`` (MLIR's ``loopUnrollByFactor``); returns the loops now
    in its place (the main loop and the cleanup loop when they were not promoted).

    A trip count smaller than ``factor`` is refused, as is a loop whose cleanup loop cannot
    be built (max/min bounds and a trip count that may not be a multiple of ``factor``);
    with ``cleanup_unroll`` such loops, and any cleanup loop, are unrolled fully instead."""
    if (as_is := unrolled_as_is(loop, factor)) is not None:
        return as_is
    f = ForOp(loop)
    trip = constant_trip_count(loop)
    if trip is not None and trip < factor:
        if cleanup_unroll:
            return unroll_full(loop)
        raise TransformError(
            f"cannot unroll by {factor}: the loop runs only {times_text(trip)}", loop.loc
        )
    cleanup = None
    if cleanup_needed(loop, factor, "unroll"):
        if cleanup_unroll:
            return unroll_full(loop)
        cleanup = generate_cleanup(loop, factor)
    step = f.step
    set_step(loop, step * factor)
    _unroll_body(loop, factor, step)
    promote_if_single_iteration(loop)
    return still_placed([loop] + ([cleanup] if cleanup is not None else []))


def unroll_full(loop: Operation) -> list[Operation]:
    """Replace ``loop`` by copies of its body, one per iteration (MLIR's
    ``loopUnrollFull``); a zero-trip loop is left alone.  Needs a constant trip count."""
    require_unroll_factor(loop, 1)
    trip = constant_trip_count(loop)
    if trip is None:
        raise TransformError("cannot unroll fully: the trip count is not constant", loop.loc)
    if trip == 0:
        return [loop]
    if promote_if_single_iteration(loop):
        return []
    return unroll_loop(loop, trip)


def unroll_up_to(loop: Operation, factor: int) -> list[Operation]:
    """Unroll by ``factor`` or by the constant trip count when smaller (MLIR's
    ``loopUnrollUpToFactor``)."""
    require_unroll_factor(loop, factor)
    trip = constant_trip_count(loop)
    if trip is not None and trip < factor:
        return unroll_loop(loop, trip) if trip > 0 else [loop]
    return unroll_loop(loop, factor)


# -- unroll and jam -------------------------------------------------------------------------------


@dataclass
class LoopUnroll(PassOptions):
    """``-affine-loop-unroll`` (always legal): innermost loops by ``unroll-factor``, fully
    with ``-1`` (then, with ``unroll-full-threshold`` N > 0, every loop whose constant trip
    count is at most N), ``unroll-up-to-factor``, ``unroll-num-reps`` rounds,
    ``cleanup-unroll`` fully unrolls cleanup loops."""

    name = "affine-loop-unroll"
    unroll_factor: int = option(4, minimum=1, special=(-1,))
    unroll_up_to_factor: bool = False
    unroll_full_threshold: int = option(0, minimum=0)
    unroll_num_reps: int = option(1, minimum=1)
    cleanup_unroll: bool = False

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        for function in functions(module, context):
            if self.unroll_factor == -1 and self.unroll_full_threshold > 0:
                short = [
                    loop
                    for loop in reversed(loops(function))
                    if (t := constant_trip_count(loop)) is not None
                    and t <= self.unroll_full_threshold
                ]
                for loop in short:
                    attempt(context, loop, "loop not unrolled", partial(unroll_full, loop))
                continue
            for _ in range(max(1, self.unroll_num_reps)):
                for loop in innermost_loops(function):
                    attempt(context, loop, "loop not unrolled", partial(self.unroll_one, loop))

        return module

    def unroll_one(self, loop: Operation) -> None:
        if self.unroll_factor == -1:
            unroll_full(loop)
        elif self.unroll_up_to_factor:
            unroll_up_to(loop, self.unroll_factor)
        else:
            unroll_loop(loop, self.unroll_factor, self.cleanup_unroll)
