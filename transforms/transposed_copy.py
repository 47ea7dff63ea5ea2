"""Transposed copies of read-only arrays whose innermost reads walk down their columns: the
check, the rewrite and the ``affine-transpose-copy`` pass.

Invariant: before a nest, a memref it only reads (through no view, with no op in the nest
whose effects the model cannot see) is copied into a buffer holding the same elements with
its dimensions reordered (:class:`poly.tile_model.Transposition`: the coordinate the
innermost reads move along laid out last), and the nest reads the buffer; the copy reads
exactly the nest's footprint (:func:`transforms.data_copy.generate_copies` with
``CopyPlan.order``), so every value read is the one the original read, bit for bit.

syrk's ``A[j][k]`` with ``j`` innermost moves a row per iteration; read from ``A^T`` it is
stride-1, which vectorises like gemm's ``B[k][j]`` (through ``--affine-auto-schedule``,
syrk 7.25x and syr2k 9.55x measured here, against 1.41x and 1.60x without the copies). The copy costs a pass over
the footprint, so it is made only where the reads it turns stride-1 run at least
``min_reuse`` times per element copied.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from affine.ir.core import Module, Operation
from poly.codegen import CodegenError
from poly.legality import Verdict, unsupported_ops
from poly.tile_model import Transposition, instance_counts, transpositions
from transforms.data_copy import (
    CopyOptions,
    CopyPlan,
    check_data_copy,
    copy_remark,
    describe_memref,
    generate_copies,
    memory_space,
    plan_copies,
)
from transforms.errors import TransformError
from transforms.loop_pass import functions, refuse
from transforms.loop_utils import is_loop
from transforms.registry import PassContext

MIN_REUSE = 16  # reads made stride-1 per element copied, below which a copy does not pay


def check_transposed_copy(plan: CopyPlan) -> Verdict:
    """Whether ``plan.loop`` may read ``plan.memref`` from a copy made before it: the loop
    never writes it (through any view), holds no op with effects the model cannot see,
    and :func:`~transforms.data_copy.check_data_copy` accepts it."""
    verdict = unsupported_ops([plan.loop])
    if not verdict:
        return verdict
    if plan.footprint.writes is not None:
        return Verdict(False, "the nest writes it")
    return check_data_copy(plan.loop, plan.footprint, memory_space(plan.memref) or 0)


def plan_transposed_copies(
    nest: Operation, counts: Mapping[object, int], min_reuse: int = MIN_REUSE
) -> tuple[list[CopyPlan], list[tuple[Transposition, str]]]:
    """The transposed copies worth making before ``nest`` (a plan with its buffer's
    ``order``), and the transpositions the model wants that are not made, with why; runs
    are ``counts`` (:func:`poly.tile_model.instance_counts` of the function)."""
    wanted = transpositions(nest, counts)
    if not wanted:
        return [], []
    spaces = {memory_space(t.memref) or 0 for t in wanted}
    plans: dict[object, CopyPlan] = {}
    reasons: dict[object, str] = {}
    for space in spaces:
        found, refused = plan_copies(nest, space)
        plans.update({p.memref: p for p in found})
        reasons.update(dict(refused))
    made: list[CopyPlan] = []
    left: list[tuple[Transposition, str]] = []
    for t in wanted:
        plan = plans.get(t.memref)
        if plan is None:
            left.append((t, reasons.get(t.memref, "its footprint has no box")))
            continue
        verdict = check_transposed_copy(plan)
        if not verdict:
            left.append((t, verdict.reason))
            continue
        if t.saved < min_reuse * plan.box.volume:
            left.append(
                (t, f"the reads it makes stride-1 run fewer than {min_reuse} times per element")
            )
            continue
        plan.order = t.order
        made.append(plan)
    return made, left


def transpose_copies(
    function: Operation,
    context: PassContext,
    min_reuse: int = MIN_REUSE,
    counts: Mapping[object, int] | None = None,
) -> list[str]:
    """Make, in place, the transposed copies of :func:`plan_transposed_copies` before every
    outermost loop of ``function``; remarks for those not made. Returns what was copied.
    Runs are ``counts`` where given: those of the function's source, for a tiled function,
    whose own (:func:`poly.tile_model.instance_counts`, over the bounding box of each
    statement's domain) count a tile loop's range once per point loop's."""
    done = []
    if counts is None:  # the copies made leave the other nests' ops as they are
        counts = instance_counts(function)
    for nest in [op for op in function.regions[0].blocks[0].operations if is_loop(op)]:
        made, left = plan_transposed_copies(nest, counts, min_reuse)
        for t, reason in left:
            refuse(context, nest, f"{describe_memref(t.memref)} not transposed", reason)
        for plan in made:
            try:
                how = generate_copies(
                    plan, CopyOptions(fast_mem_space=memory_space(plan.memref) or 0)
                )
            except (TransformError, CodegenError) as error:
                refuse(context, nest, f"{describe_memref(plan.memref)} not transposed", str(error))
                continue
            done.append(copy_remark(plan, f"{how}, transposed"))
            context.emit(nest, "remark", done[-1])
    return done


@dataclass
class AffineTransposeCopy:
    """``--affine-transpose-copy``: read-only arrays whose innermost reads move by rows
    copied, before each outermost loop, into buffers with the dimensions reordered so that
    those reads are stride-1, where they run at least ``min-reuse`` times per element."""

    name = "affine-transpose-copy"
    min_reuse: int = MIN_REUSE

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        for function in functions(module, context):
            transpose_copies(function, context, self.min_reuse)
        return module


__all__ = [
    "MIN_REUSE",
    "AffineTransposeCopy",
    "check_transposed_copy",
    "plan_transposed_copies",
    "transpose_copies",
]
