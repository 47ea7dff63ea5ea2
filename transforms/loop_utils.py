"""Loop utilities shared by the rewrites: bands, bounds, induction-variable substitution,
single-iteration promotion, normalization and permutation.

Convention (every rewrite in :mod:`transforms` follows it): a rewrite takes ``affine.for``
ops inside IR the caller owns and changes that IR in place.  It first checks everything it
needs and raises :class:`~transforms.errors.TransformError` (located at the offending op)
before touching anything, so on error the IR is unchanged.  Rewrites do not check legality
(dependences); that is the job of the checks built on :mod:`poly`.  To keep an input module
untouched, use :func:`apply_to_clone`.

The output shapes follow MLIR's LoopUtils (mlir/lib/Dialect/Affine/Utils/LoopUtils.cpp and
Utils.cpp): where ``mlir-opt`` 22 has the same transformation, the printed result is the
same.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import TypeVar

from affine.analysis.loops import constant_trip_count, lower_bound, upper_bound
from affine.analysis.value_map import (
    MapSlot,
    ValueMap,
    access_map,
    canonicalize,
    concat,
    difference,
    map_operand_positions,
    map_slots,
    set_map_slots,
    simplify_affine_expr,
    substitute,
    substitute_value,
)
from affine.dialects.builders import affine_apply, affine_for, constant_index
from affine.ir.attributes import IntegerAttr
from affine.ir.core import Block, Module, Operation, Region, Value, replace_uses, uses_of
from affine.ir.registry import FUNCTION
from affine.ir.types import INDEX
from affine.math.affine_map import AffineMap
from affine.math.expr import ADD, CONST, AffineExpr, AffineExprError, dim
from affine.math.integer_set import IntegerSet
from affine.ops import ForOp
from poly.codegen import Order, band_schedule, generate
from poly.space import permutation_map
from transforms.errors import TransformError

T = TypeVar("T")
R = TypeVar("R")


def apply_to_clone(
    module: Module, locate: Callable[[Module], T], rewrite: Callable[[T], R]
) -> tuple[Module, R]:
    """``rewrite(locate(clone))`` on a clone of ``module``: the clone and the rewrite's result.
    ``module`` itself is never modified, whether the rewrite succeeds or raises."""
    clone = module.clone()
    return clone, rewrite(locate(clone))


# -- navigation -------------------------------------------------------------------------------


def loops(root: Operation | Module) -> list[Operation]:
    """Every ``affine.for`` nested in ``root``, in textual order (outer before inner)."""
    op = root.operation if isinstance(root, Module) else root
    return [o for o in op.walk() if o.name == "affine.for"]


# LLVM -O3 unrolls a loop of constant trip count whole where trip x body stays under its
# threshold of 300 (about one per op here), and its loop vectoriser then takes the loop
# around, reading a stride of a few elements as an interleaved group: y[i] += x[2i + k]
# h[k] over 8, 16 and 32 steps (6 ops) ran so, and rows of scalar sums held across k ran
# 0.23x, 0.42x and 0.42x, 8 chains side by side 0.32x and 0.15x; over 64 steps (384),
# not unrolled, the rows ran 4.0x
FULL_UNROLL_OPS = 300
MAX_INTERLEAVE = 4  # elements an access may move per step and still be read as a group


def vectorised_once_unrolled(loop: Operation) -> bool:
    """Whether LLVM unrolls ``loop`` whole (a constant trip count times its body's ops at
    most :data:`FULL_UNROLL_OPS`) and then vectorises the loop around it: that loop holds
    ``loop`` alone, and each access in ``loop`` moves per step of it by at most
    :data:`MAX_INTERLEAVE` elements of its last subscript and along no other."""
    outer = loop.parent_op
    trips = constant_trip_count(loop)
    if outer is None or outer.name != "affine.for" or body_ops(outer) != [loop]:
        return False
    if trips is None or trips * len(body_ops(loop)) > FULL_UNROLL_OPS:
        return False
    iv = outer.regions[0].blocks[0].arguments[0]
    for op in loop.walk():
        if op.name not in ("affine.load", "affine.store"):
            continue
        moved = moved_per_step(access_map(op), iv).map
        if not moved.is_constant():
            return False
        *outer_moves, last = moved.constant_results
        if any(outer_moves) or abs(last) > MAX_INTERLEAVE:
            return False
    return True


def moved_per_step(vm: ValueMap, iv: Value) -> ValueMap:
    """How far each result of ``vm`` moves when ``iv`` grows by one."""
    step = ValueMap(AffineMap.get(1, 0, [dim(0) + 1]), (iv,))
    return difference(substitute_value(vm, iv, step), vm)


def innermost_loops(root: Operation | Module) -> list[Operation]:
    """The ``affine.for`` ops in ``root`` without nested ``affine.for``, in post-order
    (MLIR's ``gatherInnermostLoops``, the loops ``-affine-loop-unroll`` rewrites)."""
    op = root.operation if isinstance(root, Module) else root
    return [
        o
        for o in op.walk(post_order=True)
        if is_loop(o) and not any(is_loop(n) for n in o.nested_ops())
    ]


def is_loop(op: Operation) -> bool:
    return op.name == "affine.for"


def enclosing_function(op: Operation) -> Operation | None:
    """The closest enclosing function-like op (``func.func``, ...)."""
    for ancestor in op.ancestors():
        op_def = ancestor.op_def
        if op_def is not None and op_def.has(FUNCTION):
            return ancestor
    return None


def body_ops(loop: Operation) -> list[Operation]:
    """The ops of a loop body without its terminator."""
    return ForOp(loop).body.operations[:-1]


def get_perfect_band(loop: Operation) -> list[Operation]:
    """The maximal perfectly nested band starting at ``loop``: each loop's body is the next
    loop and the terminator.  MLIR's ``getPerfectlyNestedLoops``."""
    band = [loop]
    while True:
        ops = ForOp(band[-1]).body.operations
        if len(ops) != 2 or not is_loop(ops[0]):
            return band
        band.append(ops[0])


def get_tileable_bands(function: Operation) -> list[list[Operation]]:
    """The maximal perfect band of every ``affine.for`` at the top level of the function
    body, in order (MLIR's ``getTileableBands``)."""
    return [
        get_perfect_band(op)
        for region in function.regions
        for block in region.blocks
        for op in block.operations
        if is_loop(op)
    ]


def maximal_bands(function: Operation) -> list[list[Operation]]:
    """Every maximal perfect band of ``affine.for`` loops of the function, outer bands
    first: the band from each loop that is not the only loop of an enclosing loop's body."""
    result = []
    for op in function.walk():
        if not is_loop(op):
            continue
        parent = op.parent_op
        if parent is not None and is_loop(parent):
            body = ForOp(parent).body.operations
            if len(body) == 2 and body[0] is op:
                continue  # inside the band of its parent
        result.append(get_perfect_band(op))
    return result


def require_perfect_band(band: Sequence[Operation]) -> None:
    """Raise unless ``band`` is a non-empty list of perfectly nested ``affine.for`` ops,
    outermost first."""
    if not band:
        raise TransformError("empty loop band")
    for op in band:
        if not is_loop(op):
            raise TransformError(f"expected an affine.for in the band, got '{op.name}'", op.loc)
    for outer, inner in itertools.pairwise(band):
        ops = ForOp(outer).body.operations
        if len(ops) != 2 or ops[0] is not inner:
            raise TransformError("the loops are not perfectly nested", outer.loc)


def bounds_use(loop: Operation, value: Value) -> bool:
    """Whether ``value`` is an operand of a bound of ``loop``."""
    return value in lower_bound(loop).operands or value in upper_bound(loop).operands


# -- building and editing loops ----------------------------------------------------------------


def new_loop(
    lower: ValueMap,
    upper: ValueMap,
    step: int = 1,
    inits: Sequence[Value] = (),
    like: Operation | None = None,
) -> Operation:
    """A detached ``affine.for`` with an empty body (and a terminator unless it has
    ``inits``), located at ``like``."""
    op = affine_for(lower.map, lower.operands, upper.map, upper.operands, step, inits)
    op.loc = like.loc if like is not None else None
    return op


def set_bound(loop: Operation, which: str, vm: ValueMap) -> None:
    """Replace the ``"lower"`` or ``"upper"`` bound of ``loop`` by ``vm``."""
    name = {"lower": "lowerBoundMap", "upper": "upperBoundMap"}[which]
    set_map_slots(
        loop,
        [MapSlot(name, vm.map, vm.operands) if s.name == name else s for s in map_slots(loop)],
    )


def set_step(loop: Operation, step: int) -> None:
    loop.properties["step"] = IntegerAttr(step, INDEX)


def region_of(op: Operation) -> Region:
    """The region holding ``op`` (where its results may be used)."""
    assert op.parent is not None and op.parent.parent is not None
    return op.parent.parent


def replace_results(op: Operation, values: Sequence[Value]) -> None:
    """Replace every use of the results of ``op`` by ``values``."""
    region = region_of(op)
    for result, value in zip(op.results, values):
        replace_uses(region, result, value)


def identity_value_map(value: Value) -> ValueMap:
    """``(d0) -> (d0)`` applied to ``value``."""
    return ValueMap(AffineMap.identity(1), (value,))


def located(op: Operation, message: str) -> TransformError:
    return TransformError(message, op.loc)


# -- substituting an induction variable --------------------------------------------------------


def _substituted_slot(op: Operation, slot: MapSlot, value: Value, replacement: ValueMap) -> MapSlot:
    """``slot`` with every input bound to ``value`` replaced by ``replacement``'s result."""
    if not any(v is value for v in slot.operands):
        return slot
    new: AffineMap | IntegerSet
    try:
        # One call per kind: the generic substitute takes a map or a set, not a union.
        if isinstance(slot.map, AffineMap):
            new, operands = substitute(slot.map, slot.operands, value, replacement)
        else:
            new, operands = substitute(slot.map, slot.operands, value, replacement)
    except AffineExprError as e:
        raise located(op, f"cannot substitute the induction variable: {e}") from e
    return MapSlot(slot.name, new, tuple(operands))


def replace_iv(block: Block, iv: Value, replacement: ValueMap, compose: bool = True) -> None:
    """Replace every use of ``iv`` in the ops of ``block`` (recursively) by the single
    result of ``replacement``, whose operands must be visible at the start of ``block``.

    With ``compose``, the substitution is composed into the maps of the affine ops using
    ``iv`` (loads, stores, bounds, conditions, applies...) and only other uses read an
    ``affine.apply`` created at the start of ``block``; without it, every use reads that
    apply (what MLIR's loop normalization does).  A replacement that is a plain operand
    (``(d0) -> (d0)``) replaces the uses directly."""
    r = replacement.map
    if r.num_results != 1:
        raise ValueError("an induction variable is replaced by a single-result map")
    result = r.results[0]
    if result.kind in ("dim", "symbol"):
        position = result.value if result.kind == "dim" else r.num_dims + result.value
        for op in block.operations:
            replace_uses(op, iv, replacement.operands[position])
        return
    ops = [o for top in block.operations for o in top.walk()]
    updates = [
        (op, [_substituted_slot(op, slot, iv, replacement) for slot in map_slots(op)])
        for op in ops
        if compose and any(v is iv for slot in map_slots(op) for v in slot.operands)
    ]
    for op, slots in updates:  # every substitution succeeded: now change the IR
        set_map_slots(op, slots)
    other_uses = [
        (op, i)
        for op in ops
        for i, v in enumerate(op.operands)
        if v is iv and not (compose and i in map_operand_positions(op))
    ]
    if not other_uses:
        return
    apply = affine_apply(r, replacement.operands)
    block.insert(0, apply)
    for op, index in other_uses:
        op.operands[index] = apply.result


# -- promotion and normalization ---------------------------------------------------------------


def promote_if_single_iteration(loop: Operation) -> bool:
    """If ``loop`` runs exactly once (constant trip count 1, single lower bound), replace it
    by its body and return True; otherwise leave it and return False.

    The induction variable becomes its lower bound: an ``arith.constant`` at the start of
    the enclosing function for a constant bound, the bound operand for ``(d0) -> (d0)``,
    else an ``affine.apply`` before the loop.  MLIR's ``promoteIfSingleIteration``."""
    f = ForOp(loop)
    if constant_trip_count(loop) != 1 or f.lower_bound_map.num_results != 1:
        return False
    iv = f.induction_var
    parent = loop.parent
    assert parent is not None
    # What each block argument stands for once the body runs once, outside the loop.
    replacements: dict[Value, Value] = dict(zip(f.iter_args, f.inits))
    if uses_of(loop, iv):
        if f.has_constant_lower_bound():
            value_op = constant_index(f.constant_lower_bound)
            value_op.loc = loop.loc
            function = enclosing_function(loop)
            if function is not None:
                function.regions[0].blocks[0].insert(0, value_op)
            else:
                parent.insert_before(loop, value_op)
            replacements[iv] = value_op.result
        elif f.lower_bound_map is AffineMap.identity(1):
            replacements[iv] = f.lower_bound_operands[0]
        else:
            apply = affine_apply(f.lower_bound_map, f.lower_bound_operands)
            apply.loc = loop.loc
            parent.insert_before(loop, apply)
            replacements[iv] = apply.result
    inlined = body_ops(loop)
    for arg, value in replacements.items():
        for op in inlined:
            replace_uses(op, arg, value)
    # The terminator is not inlined: a yielded block argument is replaced here.
    replace_results(loop, [replacements.get(v, v) for v in f.yield_op.operands])
    for op in inlined:
        parent.insert_before(loop, op)
    loop.erase()
    return True


def normalize_loop(
    loop: Operation, promote_single_iteration: bool = False, compose: bool = False
) -> Operation | None:
    """Rewrite ``loop`` to run from 0 with step 1; the old induction variable becomes
    ``lb + iv * step``.  Returns the loop (None when promoted as a single iteration).

    Without ``compose`` the old value is one ``affine.apply`` at the start of the body (as
    MLIR's ``normalizeAffineFor`` / ``-affine-loop-normalize`` do); with it, it is composed
    into the maps of the affine ops that use it.  A loop with a ``max`` lower bound cannot
    be normalized (TransformError)."""
    f = ForOp(loop)
    if promote_single_iteration and promote_if_single_iteration(loop):
        return None
    step = f.step
    if f.has_constant_lower_bound() and f.constant_lower_bound == 0 and step == 1:
        return loop
    lb_map = f.lower_bound_map
    if lb_map.num_results != 1:
        raise located(loop, "cannot normalize a loop with a max lower bound")
    lb = lower_bound(loop)
    ub = upper_bound(loop)
    padded = ValueMap(
        AffineMap.get(
            lb_map.num_dims, lb_map.num_symbols, [lb_map.results[0]] * ub.map.num_results
        ),
        lb.operands,
    )
    span = difference(ub, padded)
    span_map, span_operands = canonicalize(span.map, span.operands)
    scale = AffineMap.get(
        span_map.num_results, 0, [dim(i).ceildiv(step) for i in range(span_map.num_results)]
    )
    iv = f.induction_var
    scaled_iv = ValueMap(AffineMap.get(1, 0, [-dim(0) * step]), (iv,))
    old_iv = difference(lb, scaled_iv)
    old_map, old_operands = canonicalize(old_iv.map, old_iv.operands)
    replacement = ValueMap(old_map, tuple(old_operands))
    if compose:  # may refuse: substitute before changing the bounds
        replace_iv(f.body, iv, replacement, compose=True)
    else:
        apply = affine_apply(old_map, old_operands)
        apply.loc = loop.loc
        for op in f.body.operations:
            replace_uses(op, iv, apply.result)
        f.body.insert(0, apply)
    set_bound(loop, "upper", ValueMap(scale.compose(span_map), tuple(span_operands)))
    set_bound(loop, "lower", ValueMap(AffineMap.constant_map(0), ()))
    set_step(loop, 1)
    return loop


# -- permutation ---------------------------------------------------------------------------------


def permute_loops(band: Sequence[Operation], permutation: Sequence[int]) -> Operation:
    """Reorder a perfect band so that loop ``i`` moves to position ``permutation[i]``
    (MLIR's ``permuteLoops``); returns the new outermost loop.

    Bounds are kept as they are, so a loop's bounds may use the induction variable of an
    outer band loop only if that loop stays outside it (TransformError otherwise; such
    nests need code generation from a schedule).  Loops with ``iter_args`` are refused."""
    band = list(band)
    n = len(band)
    if sorted(permutation) != list(range(n)):
        raise TransformError(f"{list(permutation)} is not a permutation of 0..{n - 1}")
    require_perfect_band(band)
    for loop in band:
        if loop.results:
            raise located(loop, "cannot permute loops with iter_args")
    ivs = [ForOp(loop).induction_var for loop in band]
    for i, loop in enumerate(band):
        for j in range(i):
            if permutation[j] > permutation[i] and bounds_use(loop, ivs[j]):
                raise located(
                    loop,
                    f"the bounds of loop {i} of the band use the induction variable of loop {j}, "
                    "which the permutation moves inside it",
                )
    if n < 2:
        return band[0]
    order = sorted(range(n), key=lambda i: permutation[i])  # order[p]: loop at position p
    innermost_ops = body_ops(band[-1])
    root = band[0]
    parent = root.parent
    assert parent is not None
    index = parent.index_of(root)
    for loop in band:
        for op in body_ops(loop):
            op.erase()
    root.erase()
    parent.insert(index, band[order[0]])
    for outer, inner in itertools.pairwise(order):
        ForOp(band[outer]).body.insert(0, band[inner])
    last = ForOp(band[order[-1]]).body
    for k, op in enumerate(innermost_ops):
        last.insert(k, op)
    return band[order[0]]


def interchange_loops(outer: Operation, inner: Operation) -> Operation:
    """Swap two loops of one perfect band (``inner`` nested in ``outer``); returns the new
    outermost loop of the part of the band between them."""
    band = get_perfect_band(outer)
    if inner not in band:
        raise located(inner, "the loops to interchange are not in one perfect band")
    band = band[: band.index(inner) + 1]
    permutation = list(range(len(band)))
    permutation[0], permutation[-1] = permutation[-1], permutation[0]
    return permute_loops(band, permutation)


def permute_band(band: Sequence[Operation], permutation: Sequence[int]) -> None:
    """``permute_loops`` where the band's bounds allow it, else loops regenerated from the
    permuted order (bounds that depend on a moved loop: triangular nests)."""
    try:
        permute_loops(band, permutation)
    except TransformError:
        order = [0] * len(band)
        for old, new in enumerate(permutation):
            order[new] = old
        regenerate_band(band, permutation_map(order))


def regenerate_band(band: Sequence[Operation], new_order: Order) -> list[Operation]:
    """Replace a perfect band by loops that run its iterations in ``new_order`` (see
    :func:`poly.codegen.band_schedule`).

    The body of the innermost loop is cloned at each generated statement with the old IVs
    computed from the new ones. Returns the new top-level ops (in the band's block); the band
    is erased. Raises :class:`~poly.codegen.CodegenError` (nothing changed) when the
    iteration space is not exact or the loops cannot be expressed.

    This is a rewrite: it works in place and assumes the new order is legal (the
    permutation pass checks first, on a clone). :class:`poly.schedule.Schedule` is the
    checked path for whole functions: it refuses an illegal order and returns a new module."""
    schedule, instances = band_schedule(band, new_order)
    body = band[-1].regions[0].blocks[0]
    statements = [op for op in body.operations if op.name != "affine.yield"]
    outer = band[0]
    block = outer.parent
    assert block is not None
    marker_index = block.index_of(outer)
    scratch = Block()

    def emit(name: str, values: list[Value], where: Block, before: Operation | None) -> None:
        mapping: dict[Value, Value] = dict(zip(instances.ivs, values))
        for op in statements:
            clone = op.clone(mapping)
            if before is None:
                where.append(clone)
            else:
                where.insert_before(before, clone)

    generate(schedule, instances.params, scratch, None, emit, instances.context)
    created = list(scratch.operations)
    for offset, op in enumerate(created):
        scratch.operations.remove(op)
        op.parent = None
        block.insert(marker_index + offset, op)
    outer.erase()
    return created


def condition_set(conditions: Sequence[ValueMap]) -> tuple[IntegerSet | None, list[Value]]:
    """``c >= 0`` for every condition, with trivially true constraints, duplicates and
    constraints implied by a tighter one of the same shape removed; None when none is left."""
    if not conditions:
        return None, []
    merged = concat(conditions)
    m = merged.map
    tightest: dict[AffineExpr, int] = {}
    for e in m.results:
        e = simplify_affine_expr(e, m.num_dims, m.num_symbols)
        if e.kind == CONST:
            if e.value >= 0:
                continue
            rest, c = e, 0
        elif e.kind == ADD and e.rhs.kind == CONST:
            rest, c = e.lhs, e.rhs.value
        else:
            rest, c = e, 0
        tightest[rest] = min(c, tightest.get(rest, c))
    if not tightest:
        return None, []
    constraints = [rest + c for rest, c in tightest.items()]
    s = IntegerSet.get(m.num_dims, m.num_symbols, constraints, [False] * len(constraints))
    s, operands = canonicalize(s, merged.operands)
    return s, operands
