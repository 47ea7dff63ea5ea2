"""Unroll-and-jam of ``affine.for`` loops (MLIR's ``loopUnrollJamByFactor``): the check,
the rewrite and the ``affine-loop-unroll-jam`` pass.

Invariant: the jammed loops execute the same body instances as the original, copy ``k``
of the body running the iteration ``iv + k * step`` side by side with the others in every
innermost run of ops; the rewrite runs only where :func:`check_unroll_and_jam` finds no
dependence that this reorders. In-place convention as in :mod:`transforms.loop_utils`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from affine.analysis.loops import constant_trip_count
from affine.analysis.reductions import LoopReduction, combine, loop_reductions
from affine.dialects.builders import affine_apply
from affine.dialects.common import segment_sizes
from affine.ir.core import Block, Module, Operation, OpResult, Value, uses_of
from affine.math.affine_map import AffineMap
from affine.math.expr import dim
from affine.ops import ForOp
from poly.flow import FlowAnalysis
from poly.legality import Verdict, unsupported_ops, window_reversals
from transforms.errors import TransformError
from transforms.loop_pass import analysis_of, attempt, functions, refuse
from transforms.loop_utils import (
    is_loop,
    promote_if_single_iteration,
    region_of,
    set_step,
)
from transforms.registry import PassContext, PassOptions, option
from transforms.unrolling import (
    cleanup_needed,
    generate_cleanup,
    still_placed,
    times_text,
    unrolled_as_is,
)


def check_unroll_and_jam(
    loop: Operation, factor: int, analysis: FlowAnalysis | None = None
) -> Verdict:
    """Can ``loop`` be unrolled by ``factor`` and its copies jammed into the loops inside?

    Jamming runs the copies for ``iv, iv + step, ..`` side by side in every innermost run of
    ops: two instances less than ``factor`` iterations of ``loop`` apart then run in the
    order of their schedules *below* ``loop`` (position in the body, then the inner loops'
    IVs), and only then of ``loop``'s IV. Illegal when a dependence between such instances
    has its target earlier below ``loop`` than its source.
    """
    if factor < 1:
        return Verdict(False, f"unroll-and-jam factor {factor} is not positive")
    verdict = unsupported_ops([loop])
    if not verdict:
        return verdict
    step = loop.properties["step"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    return window_reversals(loop, factor * step, "jamming", analysis)


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

    Refused: a trip count below ``factor``, inner loop bounds that vary in ``loop``,
    iter_args that are not reductions, a needed cleanup loop with max/min bounds.  Returns
    the loops now in the place of ``loop``."""
    if (as_is := unrolled_as_is(loop, factor)) is not None:
        return as_is
    f = ForOp(loop)
    trip = constant_trip_count(loop)
    if trip is not None and trip < factor:
        raise TransformError(
            f"cannot unroll-and-jam by {factor}: the loop runs only {times_text(trip)}", loop.loc
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
