"""``--affine-scalrep``: store-to-load forwarding, redundant loads, dead stores, in each block
and, for local buffers, across loops.

Invariant: an access is replaced or removed only when it provably touches the same element
as the access that replaces it (every index differs by the constant 0 once both are
composed through ``affine.apply``: :func:`affine.analysis.value_map.difference`) and no op
between them may touch that element: an access of the same memref, with the identity
layout, whose indices differ by a non-zero constant in some dimension provably does not; a
memref that may alias (function arguments, views, anything not a distinct allocation) may;
ops with regions or effects the pass does not model (calls, non-affine memory ops) may
touch everything. A vector access
(``affine.vector_load``/``vector_store``) covers its shape's elements along the trailing
dimensions: it is the same as another only with the same index and vector type, and apart
from it only where their ranges provably do not meet.

:func:`plan_block` (public) is the check: what can be replaced in a block and why (the
access it is forwarded from or overwritten by); :func:`apply_plan` is the rewrite. Blocks
are handled one at a time, whatever op holds them (a non-affine region included), and a
0-d memref (no indices) is one element like any other.

Into nests (:func:`nested_source`): a load inside affine or scf loops and conditionals
takes the value of an access of the same element(s) in a block around them, before the
nest, when nothing from there to the load may write those elements; every op of the nests
in between counts, since earlier iterations run between the two.

Across blocks (:func:`plan_forwarding`), exact value-based dependences decide, on *local*
buffers only (a ``memref.alloc``/``alloca`` used by nothing but affine loads and stores and
its dealloc, so that nothing else can touch it): a load every instance of which reads the
value of one store is replaced by the stored value where that value reaches it (defined in
a block around the load, before it, and the store and the load in the same iteration of
every loop around the definition). A local buffer left with stores only is removed, stores
and all (nothing can read it).
"""

from __future__ import annotations

from dataclasses import dataclass

from affine.analysis.value_map import ValueMap, difference
from affine.dialects.affine_dialect import LoadOp, StoreOp
from affine.ir.core import Block, Module, Operation, Value, replace_uses
from affine.ir.diagnostics import Diagnostic
from affine.ir.types import MemRefType, VectorType
from poly.flow import FlowAnalysis
from poly.legality import has_unseen_effects
from transforms.loop_utils import is_loop
from transforms.registry import PassContext

FORWARD = "forward"  # a load gets the value a store wrote
REDUNDANT = "redundant"  # a load gets the value an earlier load read
DEAD = "dead"  # a store is overwritten before anything reads it
UNREAD = "unread"  # a store to a local buffer that nothing reads

_PURE_PREFIXES = ("arith.", "math.", "index.")
_PURE = {"affine.apply", "affine.min", "affine.max", "memref.dim", "arith.constant"}
_PURE |= {"affine.yield", "scf.yield"}  # terminators that pass values, nothing else
_ALLOCATIONS = ("memref.alloc", "memref.alloca")
_LOADS = ("affine.load", "affine.vector_load")
_STORES = ("affine.store", "affine.vector_store")
_NESTS = ("affine.for", "affine.if", "affine.parallel", "scf.for", "scf.if")


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
        if self.kind == UNREAD:
            return f"store removed: nothing reads the local buffer allocated at {where}"
        source = "store" if self.kind == FORWARD else "load"
        return f"load replaced by the value of the {source} at {where}"


@dataclass
class _Access:
    op: Operation
    memref: Value
    index: ValueMap
    value: Value  # the stored value, or the loaded result

    @property
    def is_load(self) -> bool:
        return self.op.name in _LOADS

    def extents(self) -> list[int]:
        """How many elements the access covers along each memref dimension from its index
        (a vector's shape over the trailing dimensions, 1 elsewhere)."""
        rank = self.index.map.num_results
        t = self.value.type
        shape = list(t.shape) if isinstance(t, VectorType) else []
        return [1] * (rank - len(shape)) + shape


def access_of(op: Operation) -> _Access | None:
    if op.name in _LOADS:
        load = LoadOp(op)
        return _Access(op, load.memref, ValueMap(load.map, tuple(load.map_operands)), load.result)
    if op.name in _STORES:
        store = StoreOp(op)
        index = ValueMap(store.map, tuple(store.map_operands))
        return _Access(op, store.memref, index, store.value)
    return None


def relation(a: _Access, b: _Access, arguments_apart: bool = False) -> str:
    """``same`` elements (one element, or one vector of the same type), ``distinct``
    elements, or ``may`` (overlapping or cannot tell) for two accesses."""
    if a.memref is not b.memref:
        return "distinct" if not _may_alias(a.memref, b.memref, arguments_apart) else "may"
    if a.index.map.num_results == 0:
        return "same" if a.value.type == b.value.type else "may"
    results = difference(a.index, b.index).map.results
    # b's index minus a's: the ranges [0, extent_a) and [d, d + extent_b) are apart when
    # d >= extent_a or -d >= extent_b in some dimension; through a layout map other than
    # the identity, different indices may name one element (d0 + d1: [0, 1] and [1, 0])
    t = a.memref.type
    if not isinstance(t, MemRefType) or t.has_identity_layout:
        for r, extent_a, extent_b in zip(results, a.extents(), b.extents()):
            if r.is_constant and (r.value >= extent_a or -r.value >= extent_b):
                return "distinct"
    if all(r.is_constant and r.value == 0 for r in results) and a.value.type == b.value.type:
        return "same"
    return "may"


def _may_alias(a: Value, b: Value, arguments_apart: bool = False) -> bool:
    """Two different memref values alias unless both are buffers themselves (allocations
    or arguments, not views or casts of something) and one of them is an allocation, or
    both are arguments and ``arguments_apart`` (the dependence model's assumption: a
    schedule that reorders accesses to two arguments already relies on it)."""
    owners = [v.owner_op for v in (a, b)]
    if any(o is not None and o.name not in _ALLOCATIONS for o in owners):
        return True  # a view, cast or other op result may be any buffer's alias
    return not (arguments_apart or any(o is not None for o in owners))


def _is_barrier(op: Operation) -> bool:
    if op.regions:
        return True
    return not (op.name in _PURE or op.name.startswith(_PURE_PREFIXES))


def plan_block(block: Block, arguments_apart: bool = False) -> list[Replacement]:
    """What :func:`apply_plan` may rewrite in ``block`` (see the module docstring; with
    ``arguments_apart``, two memref arguments are taken not to alias)."""

    def related(a: _Access, b: _Access) -> str:
        return relation(a, b, arguments_apart)

    plan: list[Replacement] = []
    known: list[_Access] = []  # accesses whose element holds their value now
    pending: list[_Access] = []  # stores nothing has read yet
    for op in block.operations:
        access = access_of(op)
        if access is None:
            if _is_barrier(op):
                known, pending = [], []
            continue
        if access.is_load:
            source = next((k for k in known if related(k, access) == "same"), None)
            if source is not None:
                kind = REDUNDANT if source.is_load else FORWARD
                plan.append(Replacement(kind, op, source.value, source.op))
                continue
            pending = [p for p in pending if related(p, access) == "distinct"]
            known.append(access)
            continue
        for p in pending:
            if related(p, access) == "same":
                plan.append(Replacement(DEAD, p.op, None, op))
        pending = [p for p in pending if related(p, access) != "same"]
        known = [k for k in known if related(k, access) == "distinct"]
        known.append(access)
        pending.append(access)
    return plan


def _may_write(root: Operation, access: _Access) -> bool:
    """Whether an op under ``root`` (other than ``access``) may write the element(s) of
    ``access``: a store not provably elsewhere, or an op with effects the pass does not
    model."""
    for op in root.walk():
        if op is access.op:
            continue
        other = access_of(op)
        if other is None:
            if op.name not in _NESTS and _is_barrier(op):
                return True
        elif not other.is_load and relation(other, access) != "distinct":
            return True
    return False


def nested_source(load: Operation) -> Replacement | None:
    """The access in a block around ``load`` (before the nest holding it) whose value
    ``load`` reads in every instance: the same element(s), nothing that may write them in
    between (anything in the nests from there to ``load`` may run in between), and only
    affine or scf loops and conditionals on the way."""
    access = access_of(load)
    assert access is not None and access.is_load
    inner = load.parent_op
    while inner is not None and inner.name in _NESTS and inner.parent is not None:
        if _may_write(inner, access):
            return None
        ops = inner.parent.operations
        for op in reversed(ops[: ops.index(inner)]):
            other = access_of(op)
            if other is None:
                if _may_write(op, access):
                    return None
                continue
            found = relation(other, access)
            if found == "same":
                kind = REDUNDANT if other.is_load else FORWARD
                return Replacement(kind, load, other.value, op)
            if not other.is_load and found == "may":
                return None
        inner = inner.parent_op
    return None


def plan_nested(function: Operation) -> list[Replacement]:
    """Every load of ``function`` replaced by an access in a block around it
    (:func:`nested_source`), each applied as it is found (a load replaced in turn is
    gone before the loads after it look)."""
    done = []
    for op in [op for op in function.walk() if op.name in _LOADS]:
        found = nested_source(op)
        if found is not None:
            apply_plan(function, [found])
            done.append(found)
    return done


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


def _uses(function: Operation) -> dict[Value, list[tuple[Operation, int]]]:
    """Every value's users in ``function``, with the operand position of each use."""
    uses: dict[Value, list[tuple[Operation, int]]] = {}
    for op in function.walk():
        for k, v in enumerate(op.operands):
            uses.setdefault(v, []).append((op, k))
    return uses


def _local_buffers(
    function: Operation, uses: dict[Value, list[tuple[Operation, int]]]
) -> list[Value]:
    """Allocations of ``function`` used only as the memref of affine loads and stores
    (vector ones included) and by their dealloc (nothing else can read or write them)."""
    return [
        op.results[0]
        for op in function.walk()
        if op.name in _ALLOCATIONS
        and all(
            (user.name in _LOADS and k == 0)
            or (user.name in _STORES and k == 1)
            or user.name == "memref.dealloc"
            for user, k in uses.get(op.results[0], [])
        )
    ]


def _loops_around(op: Operation | None) -> int:
    return 0 if op is None else sum(1 for a in op.ancestors() if is_loop(a))


def _loops_around_definition(value: Value) -> int:
    """The loops whose iterations may give ``value`` another value (an IV or iter_arg's
    loop included)."""
    if value.owner_op is not None:
        return _loops_around(value.owner_op)
    holder = value.parent_block.parent_op if value.parent_block is not None else None
    return _loops_around(holder) + (1 if holder is not None and is_loop(holder) else 0)


def _reaches(value: Value, op: Operation) -> bool:
    """Whether ``value`` is defined in a block around ``op``, before it."""
    block = value.parent_block
    if block is None:
        return False
    definer = value.owner_op
    inner: Operation | None = op
    while inner is not None and inner.parent is not block:
        inner = inner.parent_op
    if inner is None:
        return False
    if definer is None:  # a block argument of a block around op
        return True
    ops = block.operations
    return ops.index(definer) < ops.index(inner)


def plan_forwarding(function: Operation) -> list[Replacement]:
    """Loads of local buffers every instance of which reads the value one store wrote, with
    that value reaching the load (see the module docstring); none when ``function`` has an
    op whose effects the dependence model cannot see."""
    buffers = _local_buffers(function, _uses(function))
    if not buffers or any(has_unseen_effects(op) for op in function.walk() if op is not function):
        return []
    analysis = FlowAnalysis(function, memory_based=False)
    plan = []
    for access in analysis.model.accesses:
        op = access.op
        if op.name != "affine.load" or access.memref not in buffers:
            continue
        writer = analysis.sole_writer(access, 0)
        if writer is None or writer.op.name != "affine.store":
            continue
        value = writer.op.operands[0]
        if not _reaches(value, op):
            continue
        same = _loops_around_definition(value)
        if same and analysis.sole_writer(access, same) is None:
            continue
        plan.append(Replacement(FORWARD, op, value, writer.op))
    return plan


def _remove_write_only_buffers(function: Operation) -> list[Replacement]:
    """Local buffers with stores and no loads, removed with their stores and dealloc."""
    done = []
    uses = _uses(function)
    for buffer in _local_buffers(function, uses):
        users = [user for user, _ in uses.get(buffer, [])]
        if any(u.name in _LOADS for u in users):
            continue
        alloc = buffer.owner_op
        assert alloc is not None  # _local_buffers are results of allocations
        for user in users:
            if user.name in _STORES:
                done.append(Replacement(UNREAD, user, None, alloc))
            user.erase()
        alloc.erase()
    return done


def scalar_replace_function(
    function: Operation, arguments_apart: bool = False
) -> list[Replacement]:
    """Every block of ``function`` planned and rewritten; the replacements made (with
    ``arguments_apart``, within blocks two memref arguments are taken not to alias)."""
    done: list[Replacement] = []
    blocks = [b for op in function.walk() for r in op.regions for b in r.blocks]
    for block in blocks:
        plan = plan_block(block, arguments_apart)
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
    done.extend(plan_nested(function))
    across = plan_forwarding(function)
    apply_plan(function, across)
    done.extend(across)
    if any(item.kind != DEAD for item in done):
        done.extend(_remove_write_only_buffers(function))
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
