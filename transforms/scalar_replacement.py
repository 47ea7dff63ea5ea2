"""``--affine-scalrep``: store-to-load forwarding, redundant loads, dead stores, in each block.

Invariant: an access is replaced or removed only when it provably touches the same element
as the access that replaces it (every index differs by the constant 0 once both are
composed through ``affine.apply``: :func:`affine.analysis.value_map.difference`) and no op
between them may touch that element: an access of the same memref whose indices differ by a
non-zero constant in some dimension provably does not; a memref that may alias (function
arguments, views, anything not a distinct allocation) may; ops with regions or effects the
pass does not model (calls, non-affine memory ops) may touch everything.

:func:`plan_block` (public) is the check: what can be replaced in a block and why (the
access it is forwarded from or overwritten by); :func:`apply_plan` is the rewrite. Blocks
are handled one at a time, whatever op holds them (a non-affine region included), and a
0-d memref (no indices) is one element like any other.
"""

from __future__ import annotations

from dataclasses import dataclass

from affine.analysis.value_map import ValueMap, difference
from affine.dialects.affine_dialect import LoadOp, StoreOp
from affine.ir.core import Block, Module, Operation, Value, replace_uses
from affine.ir.diagnostics import Diagnostic
from transforms.registry import PassContext

FORWARD = "forward"  # a load gets the value a store wrote
REDUNDANT = "redundant"  # a load gets the value an earlier load read
DEAD = "dead"  # a store is overwritten before anything reads it

_PURE_PREFIXES = ("arith.", "math.", "index.")
_PURE = {"affine.apply", "affine.min", "affine.max", "memref.dim", "arith.constant"}
_ALLOCATIONS = ("memref.alloc", "memref.alloca")


@dataclass(frozen=True)
class Replacement:
    """One rewrite: ``op`` (a load to replace by ``value``, or a dead store to erase) and
    the access ``because`` that makes it sound."""

    kind: str
    op: Operation
    value: Value | None
    because: Operation

    def describe(self) -> str:
        where = getattr(self.because, "loc", None)
        if self.kind == DEAD:
            return f"dead store removed: overwritten by the store at {where} before any read"
        source = "store" if self.kind == FORWARD else "load"
        return f"load replaced by the value of the {source} at {where}"


@dataclass
class _Access:
    op: Operation
    memref: Value
    index: ValueMap
    value: Value  # the stored value, or the loaded result


def _access(op: Operation) -> _Access | None:
    if op.name == "affine.load":
        load = LoadOp(op)
        return _Access(op, load.memref, ValueMap(load.map, tuple(load.map_operands)), load.result)
    if op.name == "affine.store":
        store = StoreOp(op)
        index = ValueMap(store.map, tuple(store.map_operands))
        return _Access(op, store.memref, index, store.value)
    return None


def _relation(a: _Access, b: _Access) -> str:
    """``same`` element, ``distinct`` elements, or ``may`` (cannot tell) for two accesses."""
    if a.memref is not b.memref:
        return "distinct" if not _may_alias(a.memref, b.memref) else "may"
    if a.index.map.num_results == 0:
        return "same"
    diff = difference(a.index, b.index)
    results = diff.map.results
    if all(r.is_constant and r.value == 0 for r in results):
        return "same"
    if any(r.is_constant and r.value != 0 for r in results):
        return "distinct"
    return "may"


def _may_alias(a: Value, b: Value) -> bool:
    """Two different memref values alias unless both are buffers themselves (allocations
    or arguments, not views or casts of something) and one of them is an allocation."""
    owners = [v.owner_op for v in (a, b)]
    if any(o is not None and o.name not in _ALLOCATIONS for o in owners):
        return True  # a view, cast or other op result may be any buffer's alias
    return not any(o is not None for o in owners)


def _is_barrier(op: Operation) -> bool:
    if op.regions:
        return True
    return not (op.name in _PURE or op.name.startswith(_PURE_PREFIXES))


def plan_block(block: Block) -> list[Replacement]:
    """What :func:`apply_plan` may rewrite in ``block`` (see the module docstring)."""
    plan: list[Replacement] = []
    known: list[_Access] = []  # accesses whose element holds their value now
    pending: list[_Access] = []  # stores nothing has read yet
    for op in block.operations:
        access = _access(op)
        if access is None:
            if _is_barrier(op):
                known, pending = [], []
            continue
        if op.name == "affine.load":
            source = next((k for k in known if _relation(k, access) == "same"), None)
            if source is not None:
                kind = FORWARD if source.op.name == "affine.store" else REDUNDANT
                plan.append(Replacement(kind, op, source.value, source.op))
                continue
            pending = [p for p in pending if _relation(p, access) == "distinct"]
            known.append(access)
            continue
        for p in pending:
            if _relation(p, access) == "same":
                plan.append(Replacement(DEAD, p.op, None, op))
        pending = [p for p in pending if _relation(p, access) != "same"]
        known = [k for k in known if _relation(k, access) == "distinct"]
        known.append(access)
        pending.append(access)
    return plan


def apply_plan(root: Operation, plan: list[Replacement]) -> None:
    """Forward the values of ``plan`` (uses inside ``root``) and erase its ops."""
    for item in plan:
        if item.value is not None:
            replace_uses(root, item.op.results[0], item.value)
        item.op.erase()


def _value(value: Value, forwarded: dict[Value, Value]) -> Value:
    while value in forwarded:
        value = forwarded[value]
    return value


def scalar_replace_function(function: Operation) -> list[Replacement]:
    """Every block of ``function`` planned and rewritten; the replacements made."""
    done: list[Replacement] = []
    blocks = [b for op in function.walk() for r in op.regions for b in r.blocks]
    for block in blocks:
        plan = plan_block(block)
        forwarded: dict[Value, Value] = {
            item.op.results[0]: item.value for item in plan if item.value is not None
        }
        plan = [
            Replacement(
                item.kind,
                item.op,
                _value(item.value, forwarded) if item.value is not None else None,
                item.because,
            )
            for item in plan
        ]
        apply_plan(function, plan)
        done.extend(plan)
    return done


@dataclass
class ScalarReplacement:
    """``--affine-scalrep``: forward stored values to loads of the same element, remove
    loads of an element already loaded and stores overwritten before any read (in each
    block, where the accesses provably match and nothing between may touch the element)."""

    name = "affine-scalrep"

    def run(self, module: Module, context: PassContext) -> Module:
        result = module.clone()
        for function in result.functions():
            for item in scalar_replace_function(function):
                context.diagnostics.append(Diagnostic("remark", item.describe(), item.op.loc))
        return result
