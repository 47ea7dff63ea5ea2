"""Reductions carried by ``affine.for`` iter_args (MLIR's ``matchReduction`` and
``getSupportedReductions``).

Invariant: a :class:`LoopReduction` at position ``p`` means that the loop's iter_arg ``p``
is used exactly once, by a side-effect-free binary combiner op directly in the loop body
whose other operand does not depend on any iter_arg, and whose single result is yielded at
position ``p``: the loop computes ``init (op) v_0 (op) v_1 ...`` for an associative and
commutative ``op`` of the listed kinds.
"""

from __future__ import annotations

from dataclasses import dataclass

from affine.dialects.affine_dialect import ForOp
from affine.dialects.builders import arith
from affine.ir.core import Operation, Value, uses_of
from affine.ir.registry import PURE

# Combiner op -> reduction kind (names of ``affine.ops.REDUCTION_KINDS``).  MLIR's
# getSupportedReductions knows all but xori, maxnumf and minnumf.
COMBINER_KINDS = {
    "arith.addf": "addf",
    "arith.mulf": "mulf",
    "arith.addi": "addi",
    "arith.muli": "muli",
    "arith.andi": "andi",
    "arith.ori": "ori",
    "arith.xori": "xori",
    "arith.maximumf": "maximumf",
    "arith.minimumf": "minimumf",
    "arith.maxnumf": "maxnumf",
    "arith.minnumf": "minnumf",
    "arith.maxsi": "maxs",
    "arith.minsi": "mins",
    "arith.maxui": "maxu",
    "arith.minui": "minu",
}
KIND_OPS = {kind: name for name, kind in COMBINER_KINDS.items()}


@dataclass(frozen=True)
class LoopReduction:
    """Iter_arg ``position`` of a loop reduces ``value`` with ``combiner`` (of ``kind``)."""

    kind: str
    position: int
    value: Value
    combiner: Operation


def depends_on(value: Value, carried: set[Value], loop: Operation) -> bool:
    """Whether ``value`` is, or is computed inside ``loop`` from, one of ``carried``."""
    pending = [value]
    seen: set[Value] = set()
    while pending:
        v = pending.pop()
        if v in carried:
            return True
        if v in seen:
            continue
        seen.add(v)
        op = v.owner_op
        if op is None or not loop.is_ancestor_of(op):
            continue
        pending.extend(o for nested in op.walk() for o in nested.operands)
    return False


def match_reduction(loop: Operation, position: int) -> LoopReduction | None:
    """The reduction carried by iter_arg ``position`` of ``loop``, or None (see the module
    invariant; MLIR's ``matchReduction`` limited to one combiner)."""
    f = ForOp(loop)
    carried = f.iter_args[position]
    uses = uses_of(loop, carried)
    if len(uses) != 1:
        return None
    combiner, index = uses[0]
    kind = COMBINER_KINDS.get(combiner.name)
    if kind is None or len(combiner.operands) != 2 or combiner.parent is not f.body:
        return None
    op_def = combiner.op_def
    if op_def is None or not op_def.has(PURE) or len(combiner.results) != 1:
        return None
    value = combiner.operands[1 - index]
    if depends_on(value, set(f.iter_args), loop):
        return None
    result = combiner.results[0]
    result_uses = uses_of(loop, result)
    if len(result_uses) != 1 or result_uses[0] != (f.yield_op, position):
        return None
    return LoopReduction(kind, position, value, combiner)


def loop_reductions(loop: Operation) -> list[LoopReduction]:
    """The reductions among the iter_args of ``loop`` (MLIR's ``getSupportedReductions``)."""
    found = (match_reduction(loop, p) for p in range(len(ForOp(loop).iter_args)))
    return [r for r in found if r is not None]


def combine(kind: str, lhs: Value, rhs: Value) -> Operation:
    """A detached op computing ``lhs (kind) rhs`` (MLIR's ``arith::getReductionOp``)."""
    return arith(KIND_OPS[kind], [lhs, rhs])
