"""Sums carried along a stride-1 loop, vectorised in their own order: the check, the
rewrite and the ``affine-vector-sums`` pass.

An innermost ``affine.for`` of step 1 that carries only floating-point sums in its
``iter_args`` (``acc + e``, :func:`affine.analysis.reductions.match_reduction` of kind
``addf``), with every ``e`` computed by elementwise ``arith`` ops from loads that move one
element along the loop in their last subscript and from values that do not change along
it, becomes a loop of step ``W`` that loads ``W`` iterations' elements as vectors,
computes their ``e`` lane by lane and adds them to each sum with ``vector.reduction
<add>``: LLVM's ``llvm.vector.reduce.fadd`` without ``reassoc``, which adds the lanes one
after the other, so each sum takes the source's additions in the source's order, bit for
bit. The last ``trip mod W`` iterations run as the source's loop after it.

It serves the rows the register tiler jams side by side in a matrix-vector product
(:mod:`transforms.register_tiling`: 8 sums along one row each), which LLVM's SLP
vectoriser otherwise packs into one vector, gathering each iteration's 8 elements lane
by lane (8 scalar loads, 7 inserts): a 2000^2 f32 ``y += A x`` ran 0.58x its source so,
2.82x with the sums folded in order from vector loads.

Sums kept in memory (``X[a] = X[a] + e`` at an address the loop does not move, as chains
side by side leave them: a triangular ``x += L y``, atax's ``A x``) are first carried in
``iter_args`` (:func:`promote_sums`), loaded before the loop and stored after it, under an
``affine.if`` that the loop runs, where nothing else in the loop may touch them and the loop
then folds them in order (atax 1.98x -> 2.67x at LARGE sizes).

Invariant: only loops whose body stores nothing, holds no region and no op but loads,
constants and pure elementwise float ``arith`` ops are rewritten, so every value is the
one the source computes and nothing is read that the source does not read.
"""

from __future__ import annotations

from dataclasses import dataclass

from affine.analysis.loops import lower_bound, upper_bound
from affine.analysis.reductions import match_reduction
from affine.analysis.value_map import (
    MapSlot,
    ValueMap,
    combine_maps,
    concat,
    fully_compose,
    map_slots,
    set_map_slots,
)
from affine.dialects.builders import affine_if, affine_yield
from affine.dialects.common import FASTMATH_NONE
from affine.ir.attributes import AffineMapAttr, OpaqueAttr
from affine.ir.core import Module, Operation, Value, replace_uses, uses_of
from affine.ir.types import FloatType, VectorType
from affine.math.expr import dim
from affine.ops import ForOp
from poly.legality import Verdict, where
from transforms.loop_pass import functions
from transforms.loop_utils import new_loop
from transforms.machine import Machine, machine_from_options
from transforms.register_tiling import nonempty_condition, unit_stride_layout
from transforms.registry import PassContext
from transforms.scalar_replacement import access_of, relation

ELEMENTWISE = frozenset(
    f"arith.{name}"
    for name in (
        "addf",
        "subf",
        "mulf",
        "divf",
        "negf",
        "maximumf",
        "minimumf",
        "maxnumf",
        "minnumf",
    )
)
MIN_SUMS = 2  # one sum alone waits on its own additions, vectorised or not
SUM_TYPES = ("f32", "f64")  # the ordered reduction measured and checked bit for bit


def _moves_by_one(load: Operation, iv: Value) -> bool | None:
    """Whether ``load`` (an ``affine.load``) moves one element along ``iv`` in its last
    subscript and not in the others (True), does not use ``iv`` (False), or neither (None)."""
    m = load.properties["map"].value  # type: ignore[attr-defined]  # an affine op's map
    uses = [p for p, v in enumerate(load.operands[1:]) if v is iv]
    if not uses:
        return False
    if len(uses) != 1 or uses[0] >= m.num_dims or not m.results:
        return None
    p = uses[0]
    *outer, last = m.results
    if any(e.is_function_of_dim(p) for e in outer) or (last - dim(p)).is_function_of_dim(p):
        return None
    return unit_stride_layout(load.operands[0].type) or None


@dataclass(frozen=True)
class SumLoop:
    """A loop :func:`plan_vector_sums` accepts: its sums' combiners and which body values
    change along it (those become vectors)."""

    loop: Operation
    combiners: tuple[Operation, ...]
    varying: frozenset[Value]


def plan_vector_sums(loop: Operation, min_sums: int = MIN_SUMS) -> SumLoop | Verdict:
    """The sums of ``loop`` that :func:`vector_sums` folds in order, or why it cannot."""
    f = ForOp(loop)
    if f.step != 1:
        return Verdict(False, f"its step is {f.step}, not 1")
    if lower_bound(loop).map.num_results != 1 or upper_bound(loop).map.num_results != 1:
        return Verdict(False, "a bound is a max or min of several")
    n = len(f.iter_args)
    if n < min_sums:
        return Verdict(False, f"it carries {n} sums, fewer than {min_sums}")
    combiners = []
    for position in range(n):
        found = match_reduction(loop, position)
        if found is None or found.kind != "addf" or str(found.value.type) not in SUM_TYPES:
            return Verdict(False, f"iter_arg #{position} is no f32 or f64 sum")
        combiners.append(found.combiner)
    varying = _varying(f.body.operations[:-1], f.induction_var, set(combiners))
    if isinstance(varying, str):
        return Verdict(False, varying)
    return SumLoop(loop, tuple(combiners), varying)


def _varying(ops: list[Operation], iv: Value, skipped: set[Operation]) -> frozenset[Value] | str:
    """The values of ``ops`` (but ``skipped``) that change along ``iv``, where every op is a
    load moving one element along it or none, a constant or an elementwise float op; else
    why not."""
    varying: set[Value] = set()
    for op in ops:
        if op in skipped:
            continue
        if op.regions:
            return f"{where(op)} holds a region"
        if op.name == "affine.load":
            moves = _moves_by_one(op, iv)
            if moves is None:
                return f"{where(op)} does not move one element along the loop"
            if moves:
                varying.add(op.results[0])
            continue
        if op.name == "arith.constant":
            continue
        if op.name not in ELEMENTWISE or not isinstance(op.results[0].type, FloatType):
            return f"{where(op)} ({op.name}) is no elementwise float op"
        if any(v in varying or v is iv for v in op.operands):
            varying.add(op.results[0])
    return frozenset(varying)


def vector_sums(plan: SumLoop, lanes: int) -> None:
    """Rewrite ``plan.loop`` in place: a loop of step ``lanes`` folding each sum's vectors
    in order, then the source's loop over the iterations left (see the module docstring)."""
    loop = plan.loop
    f = ForOp(loop)
    lb, ub = lower_bound(loop), upper_bound(loop)
    span = combine_maps(lb, ub, lambda low, high: high - low)
    full = combine_maps(lb, span, lambda low, count: low + count.floordiv(lanes) * lanes)
    block = loop.parent
    assert block is not None
    main = new_loop(lb, full, lanes, f.inits, like=loop)
    block.insert_before(loop, main)
    g = ForOp(main)
    mapping: dict[Value, Value] = {f.induction_var: g.induction_var}
    mapping.update(zip(f.iter_args, g.iter_args))
    vectors: dict[Value, Value] = {}  # a varying source value -> its vector

    def put(op: Operation, like: Operation) -> Value:
        op.loc = like.loc
        g.body.append(op)
        return op.results[0]

    def vector(value: Value, like: Operation) -> Value:
        if value in vectors:
            return vectors[value]
        scalar = mapping.get(value, value)
        t = VectorType((lanes,), scalar.type)
        vectors[value] = put(Operation.create("vector.broadcast", [scalar], [t]), like)
        return vectors[value]

    sums: dict[Operation, Value] = {}  # a combiner -> its vector.reduction
    for op in f.body.operations[:-1]:
        if op in plan.combiners:
            carried = next(v for v in op.operands if v in f.iter_args)
            other = next(v for v in op.operands if v is not carried)
            reduction = Operation.create(
                "vector.reduction",
                [vector(other, op), mapping[carried]],
                [carried.type],
                {"fastmath": FASTMATH_NONE, "kind": OpaqueAttr("#vector.kind<add>")},
            )
            sums[op] = put(reduction, op)
        elif op.results[0] not in plan.varying:
            mapping[op.results[0]] = put(op.clone(mapping), op)
        elif op.name == "affine.load":
            t = VectorType((lanes,), op.results[0].type)
            map_attr = AffineMapAttr(op.properties["map"].value)  # type: ignore[attr-defined]  # an affine op's map
            load = Operation.create(
                "affine.vector_load",
                [mapping.get(v, v) for v in op.operands],
                [t],
                {"map": map_attr},
            )
            vectors[op.results[0]] = put(load, op)
        else:
            t = VectorType((lanes,), op.results[0].type)
            operands = [vector(v, op) for v in op.operands]
            new = Operation.create(op.name, operands, [t], dict(op.properties), dict(op.attributes))
            vectors[op.results[0]] = put(new, op)
    g.body.append(affine_yield([sums[v.owner_op] for v in f.yield_op.operands]))  # type: ignore[index]  # the combiners' results
    # from full groups' end, or lb where there is none (ub < lb: full lies below lb)
    rest = new_loop(concat([lb, full]), ub, 1, main.results, like=loop)
    block.insert_before(loop, rest)
    r = ForOp(rest)
    inner: dict[Value, Value] = {f.induction_var: r.induction_var}
    inner.update(zip(f.iter_args, r.iter_args))
    for op in f.body.operations:
        r.body.append(op.clone(inner))
    for result, replacement in zip(loop.results, rest.results):
        replace_uses(block, result, replacement)
    loop.erase()


def promote_sums(loop: Operation) -> Operation | None:
    """``loop`` rebuilt with the sums it keeps in memory carried in ``iter_args`` instead,
    or None when it keeps none: a load of an address the loop does not move, whose value
    only the ``addf`` stored back to that address uses (``X[a] = X[a] + e``, the chains of
    :func:`transforms.unroll_jam.interleave_chains` side by side), where no other access in
    the loop may touch ``X[a]`` (memref arguments apart, as the dependence model takes
    them). The sum is loaded before the loop and stored after it."""
    f = ForOp(loop)
    ops = f.body.operations[:-1]
    if loop.results or f.step != 1 or any(op.regions for op in ops):
        return None
    originals = {op: map_slots(op) for op in ops if op.name in ("affine.load", "affine.store")}
    for op, kept in originals.items():  # affine.apply composed in: row i + 1 is a map of i
        slots = []
        for slot in kept:
            vm = fully_compose(ValueMap(slot.map, slot.operands))  # type: ignore[arg-type]  # a load's or store's slot holds a map
            slots.append(MapSlot(slot.name, vm.map, vm.operands))
        set_map_slots(op, slots)
    accesses = [a for a in map(access_of, ops) if a is not None]
    inside = set(ops)

    def fixed(index: ValueMap) -> bool:  # one address all along the loop
        return not any(v.owner_op in inside or v is f.induction_var for v in index.operands)

    sums = []  # (load, store, the addf)
    for store in (a for a in accesses if not a.is_load and fixed(a.index)):
        add = store.value.owner_op
        loads = [a for a in accesses if a.is_load and relation(a, store, True) == "same"]
        if add is None or add.name != "arith.addf" or add not in inside or len(loads) != 1:
            continue
        (load,) = loads
        if load.value not in add.operands or ops.index(load.op) > ops.index(store.op):
            continue
        if not fixed(load.index):
            continue
        if len(uses_of(loop, load.value)) != 1 or len(uses_of(loop, store.value)) != 1:
            continue
        others = [a for a in accesses if a not in (load, store)]
        if all(relation(a, store, True) == "distinct" for a in others):
            sums.append((load, store, add))
    skipped = {op for load, store, _ in sums for op in (load.op, store.op)}
    skipped |= {  # affine.apply ops the accesses no longer use, composed in above
        op for op in ops if op.name == "affine.apply" and not uses_of(loop, op.results[0])
    }
    combiners = {add for *_, add in sums}
    if len(sums) < MIN_SUMS or isinstance(_varying(ops, f.induction_var, skipped | combiners), str):
        # carried, the sums would not be folded: the loop stays as it was
        for op, slots in originals.items():
            set_map_slots(op, slots)
        return None
    lb, ub = lower_bound(loop), upper_bound(loop)
    condition = nonempty_condition(lb, ub)  # no load or store where the loop never runs
    guard = affine_if(condition.map_set, condition.operands)
    guard.loc = loop.loc
    assert loop.parent is not None
    loop.parent.insert_before(loop, guard)
    block = guard.regions[0].blocks[0]
    terminator = block.operations[-1]
    inits = []
    for load, _, _ in sums:
        before = load.op.clone({})
        block.insert_before(terminator, before)
        inits.append(before.results[0])
    promoted = new_loop(lb, ub, f.step, inits, like=loop)
    block.insert_before(terminator, promoted)
    g = ForOp(promoted)
    mapping: dict[Value, Value] = {f.induction_var: g.induction_var}
    for (load, _, _), carried in zip(sums, g.iter_args):
        mapping[load.value] = carried
    for op in ops:
        if op not in skipped:
            g.body.append(op.clone(mapping))
    g.body.append(affine_yield([mapping[add.results[0]] for _, _, add in sums]))
    for (_, store, _), result in zip(sums, promoted.results):
        block.insert_before(terminator, store.op.clone({store.value: result}))
    loop.erase()
    return promoted


def vector_sums_function(function: Operation, machine: Machine) -> list[str]:
    """Fold in order the sums of every loop of ``function`` that :func:`plan_vector_sums`
    accepts (after :func:`promote_sums` where they are in memory), ``machine``'s vector
    width of lanes at a time and only where a loop runs at least that many iterations;
    what was done."""
    done = []
    for loop in [op for op in function.walk() if op.name == "affine.for"]:
        plan = plan_vector_sums(loop)
        promoted = promote_sums(loop) if not isinstance(plan, SumLoop) else None
        if promoted is not None:
            loop, plan = promoted, plan_vector_sums(promoted)
        if not isinstance(plan, SumLoop):
            continue
        t = ForOp(loop).iter_args[0].type
        assert isinstance(t, FloatType)  # plan_vector_sums checked it
        lanes = machine.lanes(t.width // 8)
        trip = ForOp(loop).constant_trip_count()
        if lanes < 2 or (trip is not None and trip < lanes):
            if promoted is not None:  # carried, though too short to fold
                done.append(f"{len(plan.combiners)} sums of {where(loop)} carried in iter_args")
            continue
        line = (
            f"{len(plan.combiners)} sums of {where(loop)} folded in order, {lanes} lanes at a time"
        )
        vector_sums(plan, lanes)
        done.append(line)
    return done


@dataclass
class VectorSums:
    """``--affine-vector-sums``: loops carrying two or more floating-point sums of values
    loaded stride-1 along them, vectorised with each sum's additions in the source's order
    (see the module docstring); a remark for each loop rewritten."""

    name = "affine-vector-sums"
    vector_bits: int = 0

    def run(self, module: Module, context: PassContext) -> Module:
        machine = machine_from_options({"vector-bits": self.vector_bits or None})
        for function in functions(module, context):
            for line in vector_sums_function(function, machine):
                context.emit(function, "remark", line)
        return module


__all__ = [
    "SumLoop",
    "VectorSums",
    "plan_vector_sums",
    "promote_sums",
    "vector_sums",
    "vector_sums_function",
]
