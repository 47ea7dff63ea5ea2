"""Register tiling and vectorisation of a perfect band's innermost loops: the plan, the
check, the rewrite and the ``affine-register-tile`` pass.

A :class:`RegisterTile` gives up to three innermost loops of a perfect band (whose
innermost body is straight-line code) a role:

* ``rows``: cut into groups of ``row_factor`` iterations, unrolled in the tile;
* ``vector``: cut into groups of ``vectors`` vectors of ``lanes`` lanes; every access must
  be contiguous along it (its last subscript grows by one with the IV, no other subscript
  depends on it) or invariant, and every op whose value varies along it becomes a vector
  op (a value invariant along it is broadcast);
* ``reduction``: run innermost in each tile; each address the body stores to that is
  invariant along it is held in a register (``iter_args``) for the whole loop: loaded
  before, stored after.

The rewritten band: groups of rows, inside them groups of vectors, inside them the held
values, the reduction loop and the body once per row (in row order) and per vector, with
partial groups at the end (fewer rows; narrower vectors, or, where recomputing is harmless
(:meth:`_TileEmitter.recomputable`), whole vectors that end where the loop ends and overlap
the group before); rows or vectors from a ``max`` (a
time tile's edge) are grouped under an ``affine.if`` per result being the largest, all under a
test that there are rows at all. A vector loop one of whose bounds moves with the rows (a
triangle's edge, ``j <= i``: :func:`row_bound`) runs, per group of rows, the range every row
of the group shares, then each row's own end as tiles of one row; no two points of a group
may then depend on each other (:func:`poly.legality.register_points_apart`).
Straight-line copies share loads of one address (until a store to the same buffer), forward stored values to later
loads of the same address and drop stores that a later store to the same address
overwrites unread. With ``fma`` a multiply feeding an add becomes one fused multiply-add
(``vector.fma``, ``math.fma``), which rounds once where the original rounds twice.

Invariant: the rewrite runs a band's instances in the order of
:class:`poly.legality.RegisterOrder`; :func:`check_register_tile` finds no dependence that
this order reverses and no access that touches a held address while it is held. In-place
convention as in :mod:`transforms.loop_utils`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from affine.analysis.loops import constant_trip_count, lower_bound, upper_bound
from affine.analysis.value_map import (
    ValueMap,
    access_map,
    canonicalize_affine_ops,
    combine_maps,
    concat,
    constant_value,
    difference,
    fully_compose,
    simplify_affine_expr,
    substitute,
    substitute_value,
)
from affine.dialects.builders import affine_apply, affine_if, affine_yield, arith, memref_alloc
from affine.ir.attributes import AffineMapAttr
from affine.ir.core import Block, Module, Operation, Value, uses_of
from affine.ir.registry import PURE
from affine.ir.types import (
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    StridedLayout,
    Type,
    VectorType,
)
from affine.math.affine_map import AffineMap
from affine.math.expr import constant, dim
from affine.math.integer_set import IntegerSet
from affine.ops import ForOp
from poly.flow import FlowAnalysis
from poly.footprints import ModelError, bounding_box, loop_footprints
from poly.legality import (
    RegisterOrder,
    Verdict,
    analysis_for,
    register_conflicts,
    register_order_reversals,
    register_points_apart,
    unsupported_ops,
    where,
)
from poly.model import VIEW_OPS
from poly.tile_model import (
    LINE_BYTES,
    assumed_strides,
    choose_tile_sizes,
    element_bytes,
    most_lines_in_a_set,
)
from transforms.distribute import distribute_imperfect_loops
from transforms.errors import TransformError
from transforms.loop_pass import analysis_of, attempt, functions, refuse
from transforms.loop_utils import (
    body_ops,
    enclosing_function,
    is_loop,
    new_loop,
    permute_band,
    vectorised_once_unrolled,
)
from transforms.machine import Machine, detect, machine_from_options
from transforms.permutation import check_permutation
from transforms.registry import PassContext
from transforms.tiling import check_tiling, tile_with_model_order
from transforms.unroll_jam import check_unroll_and_jam, unroll_and_jam_loop

_MEMORY = ("affine.load", "affine.store")
MAX_ROWS = 8  # rows a register tile jams at most
UNROLLED_REDUCTION = 8  # a reduction loop this short is unrolled by LLVM (its loads hoisted)


@dataclass(frozen=True)
class RegisterTile:
    """The roles of a band's innermost loops (see the module docstring) and the tile's
    shape: ``row_factor`` rows by ``vectors`` vectors of ``lanes`` lanes (1 lane: no
    vector ops)."""

    rows: Operation | None = None
    row_factor: int = 1
    vector: Operation | None = None
    lanes: int = 1
    vectors: int = 1
    reduction: Operation | None = None

    @property
    def vector_width(self) -> int:
        """Iterations of the vector loop in one tile."""
        return self.lanes * self.vectors

    def roles(self) -> list[Operation]:
        return [x for x in (self.rows, self.vector, self.reduction) if x is not None]

    def describe(self) -> str:
        """``rows %i x 5, vector %j x 5 x 16 lanes, reduction %k`` in the loops' places."""
        parts = []
        if self.rows is not None:
            parts.append(f"{self.row_factor} rows of {where(self.rows)}")
        if self.vector is not None:
            parts.append(f"{self.vectors} x {self.lanes} lanes of {where(self.vector)}")
        if self.reduction is not None:
            parts.append(f"reduction {where(self.reduction)}")
        return ", ".join(parts)


# -- the innermost body ---------------------------------------------------------------------------


def _iv(loop: Operation) -> Value:
    return ForOp(loop).induction_var


def buffer_of(memref: Value) -> Value:
    """The buffer a memref value views (through casts and views)."""
    while memref.owner_op is not None and memref.owner_op.name in VIEW_OPS:
        memref = memref.owner_op.operands[0]
    return memref


class Body:
    """The innermost body of a perfect band as a register tile sees it: its ops, the
    subscripts of each access (``affine.apply`` composed in), and which ops vary with
    which loop. Raises TransformError for bodies a register tile cannot hold."""

    def __init__(self, band: Sequence[Operation]) -> None:
        self.band = list(band)
        innermost = band[-1]
        for loop in band:
            if loop.name != "affine.for":
                raise TransformError(f"{where(loop)} is not an affine.for", loop.loc)
            if loop.results:
                raise TransformError(f"{where(loop)} carries values through iter_args", loop.loc)
        self.ops = body_ops(innermost)
        self.access: dict[Operation, ValueMap] = {}
        for op in self.ops:
            if op.regions:
                raise TransformError(f"{where(op)} holds a region", op.loc)
            if op.name in _MEMORY:
                self.access[op] = _constants_folded(access_map(op))
            elif op.name != "affine.apply" and not _pure(op):
                raise TransformError(f"{where(op)} cannot be held in a register tile", op.loc)
        self.position = {op: k for k, op in enumerate(self.ops)}
        self.needed = self._needed()

    def memref(self, op: Operation) -> Value:
        return op.operands[0] if op.name == "affine.load" else op.operands[1]

    def stores(self) -> list[Operation]:
        return [op for op in self.ops if op.name == "affine.store"]

    def _needed(self) -> set[Operation]:
        """The stores and the ops whose values reach them; an ``affine.apply`` feeding only
        subscripts (composed into them) and unused loads are not needed."""
        return _needed_past(self, set())

    def varies(self, op: Operation, iv: Value, memo: dict[Operation, bool] | None = None) -> bool:
        """Whether ``op``'s value (or address) changes with ``iv``."""
        memo = {} if memo is None else memo
        if op in memo:
            return memo[op]
        if op in self.access:
            result = iv in self.access[op].operands
            if op.name == "affine.store":
                result = result or self.value_varies(op.operands[0], iv, memo)
        else:
            result = any(self.value_varies(v, iv, memo) for v in op.operands)
        memo[op] = result
        return result

    def value_varies(self, value: Value, iv: Value, memo: dict[Operation, bool]) -> bool:
        if value is iv:
            return True
        owner = value.owner_op
        if owner is None or owner not in self.position:
            return False
        return self.varies(owner, iv, memo)

    def uses_as_value(self, iv: Value) -> Operation | None:
        """A needed op that takes ``iv`` (or an ``affine.apply`` of it) as a value."""
        for op in self.ops:
            if op in self.access or op not in self.needed:
                continue
            if op.name == "affine.apply":
                if iv in _applied(op).operands:
                    return op
                continue
            if any(v is iv for v in op.operands):
                return op
        return None


def _constants_folded(vm: ValueMap) -> ValueMap:
    """``vm`` with its constant operands written into the map: the tile copies the accesses,
    not the body's ``arith.constant`` ops (generated code defines its constants in place)."""
    for value in dict.fromkeys(vm.operands):
        c = constant_value(value)
        if c is not None:
            vm = substitute_value(vm, value, ValueMap(AffineMap.get(0, 0, [constant(c)]), ()))
    return vm


def _applied(apply: Operation) -> ValueMap:
    """The value of an ``affine.apply`` as a value map of its operands, composed."""
    m = apply.properties["map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    return fully_compose(ValueMap(m, tuple(apply.operands)))


def _body_or_verdict(band: Sequence[Operation]) -> Body | Verdict:
    """The band's innermost body, or why a register tile cannot hold it."""
    try:
        body = Body(band)
    except TransformError as error:
        return Verdict(False, error.message)
    verdict = unsupported_ops([band[-1]])
    return body if verdict else verdict


def _pure(op: Operation) -> bool:
    d = op.op_def
    return (
        d is not None
        and d.has(PURE)
        and op.dialect in ("arith", "math")
        and all(_scalar(r.type) for r in op.results)
    )


def _scalar(t: Type) -> bool:
    return isinstance(t, (FloatType, IntegerType, IndexType))


# -- access shapes ---------------------------------------------------------------------------------


def _steps(access: ValueMap, iv: Value) -> list[int] | None:
    """How much each subscript of ``access`` grows when ``iv`` grows by one (None when a
    step is not a constant, or ``iv`` is not a dimension operand)."""
    if iv not in access.operands:
        return [0] * access.map.num_results
    k = access.operands.index(iv)
    m = access.map
    if k >= m.num_dims:
        return None
    shifted = [dim(j) + 1 if j == k else dim(j) for j in range(m.num_dims)]
    moved = m.replace(shifted, None, m.num_dims, m.num_symbols)
    steps = []
    for before, after in zip(m.results, moved.results):
        step = simplify_affine_expr(after - before, m.num_dims, m.num_symbols)
        if step.kind != "const":
            return None
        steps.append(step.value)
    return steps


def _contiguous(access: ValueMap, iv: Value) -> bool:
    """The last subscript grows by exactly one with ``iv``; no other subscript uses it."""
    steps = _steps(access, iv)
    return steps is not None and steps[-1:] == [1] and not any(steps[:-1])


def rows_in_registers(body: Body, rows: Operation, vector: Operation, machine: Machine) -> int:
    """The most jammed rows (1 to 8) of a tile without a reduction whose vectors fit in the
    machine's registers and whose rows stay in L1 (:func:`_rows_fit_l1`): per row its
    result, the distinct rows of each memref the jammed rows load (a stencil's neighbours ``X[i - 1]``, ``X[i + 1]`` shared by the rows next to
    them), two vectors for a row whose loads overlap along the vector loop (one loaded, one
    carried by :mod:`transforms.load_rotation`), one for the constants: jacobi-2d's 4 rows
    need 15, heat-3d's 2 rows 13. Where loads are not rotated and the jammed rows load
    fewer than two rows each (they share most of their loads), overlapping loads are read
    where used and results stored at once: the rows loaded and two vectors, jacobi-2d 8
    rows. Measured on 16 registers without rotation (auto-scheduled, same run): jacobi-2d
    8 rows 1.62x against 4 rows 1.26x; heat-3d, 3.25 rows loaded per row, 4 rows 0.93x
    against 2 rows 1.08x."""
    rows_iv, vector_iv = _iv(rows), _iv(vector)
    loads = [op for op in body.ops if op.name == "affine.load" and op in body.needed]
    streams: dict[tuple[int, ...], int] = {}  # (memref's load, offsets but the last) -> vectors
    moving: dict[tuple[int, ...], list[int]] = {}  # the same -> its steps with the rows
    for op in loads:
        access = body.access[op]
        reference = next(
            other
            for other in loads
            if body.memref(other) is body.memref(op)
            and all(e.is_constant for e in difference(access, body.access[other]).map.results)
        )
        offsets = [e.value for e in difference(access, body.access[reference]).map.results]
        key = (id(reference), *offsets[:-1])
        overlaps = _contiguous(access, vector_iv) and key in streams
        streams[key] = 2 if overlaps or streams.get(key) == 2 else 1
        moving[key] = _steps(access, rows_iv) or [0] * len(offsets)
    counted: dict[tuple[int, ...], int] = {}
    best = 1
    for count in range(1, MAX_ROWS + 1):
        row = count - 1  # the rows before it are counted already
        for key, vectors in streams.items():
            shifted = (key[0], *(o + row * d for o, d in zip(key[1:], moving[key])))
            counted[shifted] = max(counted.get(shifted, 0), vectors)
        loaded = len(counted)
        if not machine.rotates_loads and loaded < 2 * count:
            needed = loaded + 2
        else:
            needed = sum(counted.values()) + count + 1
        # not monotone: the shared count applies from 3 rows on
        if needed <= machine.vector_registers and _rows_fit_l1(body, rows, count, machine):
            best = count
    return best


def _rows_fit_l1(body: Body, rows: Operation, count: int, machine: Machine) -> bool:
    """Whether the rows ``count`` jammed rows load and store, each a stream of lines moving
    along the vector loop, put no more lines into one L1 set than it has ways
    (:func:`poly.tile_model.most_lines_in_a_set`; a row's bytes from its memref's start:
    the accesses' constant subscripts, and the rows' steps, times the strides). True where
    a stride or subscript is not known."""
    rows_iv = _iv(rows)
    starts: set[tuple[Value, int, int]] = set()
    for op in body.access:
        if op not in body.needed:
            continue
        t = body.memref(op).type
        if not isinstance(t, MemRefType):
            return True
        strides = assumed_strides(t)
        offsets = _constant_terms(body.access[op])
        steps = _steps(body.access[op], rows_iv)
        if strides is None or offsets is None or steps is None:
            return True
        size = element_bytes(t)
        array = buffer_of(body.memref(op))
        for row in range(count):
            moved = sum((o + row * d) * e for o, d, e in zip(offsets, steps, strides))
            starts.add((array, moved * size, machine.line))
    lines = most_lines_in_a_set(starts, machine.line, machine.l1_set_span)
    return lines <= machine.l1_ways


def _constant_terms(access: ValueMap) -> list[int] | None:
    """Each subscript of ``access`` with every loop and symbol at zero (None where one is
    not a constant then)."""
    m = access.map
    zeros = [constant(0)] * m.num_dims
    at_zero = m.replace(zeros, [constant(0)] * m.num_symbols, 0, 0)
    terms = [simplify_affine_expr(e, 0, 0) for e in at_zero.results]
    if any(e.kind != "const" for e in terms):
        return None
    return [e.value for e in terms]


def rows_beside_broadcasts(
    body: Body, rows: Operation, vector: Operation, reduction: Operation, machine: Machine
) -> int | None:
    """The rows (of one vector each) for a reduction tile whose rows share no vector load
    (every load that moves along the vector loop moves with the rows too, and none is
    another's neighbouring row: a convolution's ``In[y + r][x + s]`` over ``s`` with ``r``
    the reduction, unlike a matrix product's ``B[k][j]`` or ``In[y + r]`` for each ``r``
    in the body), or None where they share one or fewer than two rows fit. Such a tile
    gains only independent chains of multiply-adds; its registers hold, besides one
    accumulator a row and two values in flight, the broadcasts of the loads neither loop
    moves, once for each step of a reduction of at most :data:`UNROLLED_REDUCTION` (LLVM
    unrolls it and hoists them all): a 5 x 5 convolution's 25 weights leave 5 rows of 32
    registers. Measured (2048^2, same JIT): 5 rows 2.77x over the source, 4 rows 2.54x,
    6 rows 1.54x (spilled), a matrix product's 5 x 5 tile 1.10x, 1 row x 4 vectors 1.17x;
    a 3 x 3 depthwise convolution (9 weights): 8 rows 1.32x, 5 x 5 0.86x."""
    if shared_vector_loads(body, vector, rows) or _row_partners(body, rows):
        return None
    rows_iv, vector_iv = _iv(rows), _iv(vector)
    fixed = {
        (body.memref(op), body.access[op])
        for op in body.ops
        if op.name == "affine.load"
        and op in body.needed
        and not body.varies(op, vector_iv)
        and not body.varies(op, rows_iv)
    }
    trip = constant_trip_count(reduction)
    copies = trip if trip is not None and trip <= UNROLLED_REDUCTION else 1
    free = machine.vector_registers - len(fixed) * copies - 2
    return min(MAX_ROWS, free) if free >= 2 else None


def unit_stride_layout(t: Type) -> bool:
    """The identity layout, or a strided one whose last stride is 1."""
    if not isinstance(t, MemRefType) or t.has_identity_layout:
        return True
    return isinstance(t.layout, StridedLayout) and t.layout.strides[-1:] == (1,)


def vector_blocker(body: Body, loop: Operation) -> str | None:
    """Why ``loop`` cannot be the vector loop of ``body`` (None: it can)."""
    iv = _iv(loop)
    if ForOp(loop).step != 1:
        return f"{where(loop)} has a step other than 1"
    user = body.uses_as_value(iv)
    if user is not None:
        return f"{where(user)} uses the induction variable of {where(loop)} as a value"
    for op, access in body.access.items():
        if op not in body.needed:
            continue
        if iv in access.operands:
            if not _contiguous(access, iv):
                return f"{where(op)} is not contiguous along {where(loop)}"
            if not unit_stride_layout(body.memref(op).type):
                # its last index may not be its last in memory: vector.load refuses the memref
                return f"{where(op)} reads through a layout map whose last dimension may not be stride-1"
        if op.name == "affine.store" and iv not in access.operands:
            return f"{where(op)} stores to the same address at every iteration of {where(loop)}"
    return None


def held_groups(body: Body, loop: Operation) -> list[list[Operation]]:
    """The accesses of each address invariant along ``loop`` that the body stores to
    (those a register tile holds across ``loop``), grouped by address."""
    iv = _iv(loop)
    groups: dict[tuple, list[Operation]] = {}
    for op, access in body.access.items():
        if iv in access.operands:
            continue
        groups.setdefault((body.memref(op), access.map, access.operands), []).append(op)
    return [ops for ops in groups.values() if any(op.name == "affine.store" for op in ops)]


# -- the plan -------------------------------------------------------------------------------------


def _bounds_use(loop: Operation, others: Sequence[Operation]) -> bool:
    """Whether ``loop``'s bounds use the IV of one of ``others``."""
    operands = (*lower_bound(loop).operands, *upper_bound(loop).operands)
    return any(_iv(o) in operands for o in others)


@dataclass(frozen=True)
class RowBound:
    """The one result of a vector loop's bounds that moves with the rows loop (a triangle's
    edge, ``j <= i``): in the ``upper`` bound or the lower, result ``index``, growing by
    ``step`` per row."""

    upper: bool
    index: int
    step: int

    def bound(self, loop: Operation) -> ValueMap:
        return upper_bound(loop) if self.upper else lower_bound(loop)

    def common(self, loop: Operation, rows: Operation, base: ValueMap, count: int) -> ValueMap:
        """The moving result where it is tightest over ``count`` rows from ``base``: the
        vector loop's range there holds for every row of the group."""
        last = (self.step >= 0) != self.upper  # a growing upper bound: tightest at the first
        row = _shifted(base, count - 1 if last else 0)
        return substitute_value(self.bound(loop).result(self.index), _iv(rows), row)


def row_bound(vector: Operation, rows: Operation) -> RowBound | None:
    """How ``vector``'s bounds use ``rows``' IV, where a register tile can take it: one
    result of one bound, linearly; None otherwise (or where they do not use it)."""
    iv = _iv(rows)
    found = None
    for upper, bound in ((False, lower_bound(vector)), (True, upper_bound(vector))):
        for index in range(bound.map.num_results):
            result = bound.result(index)
            if iv not in result.operands:
                continue
            step = difference(substitute_value(result, iv, _shifted(_identity(iv), 1)), result)
            if not step.map.is_single_constant():
                return None
            if step.map.single_constant_result == 0:
                continue  # an operand the result does not use
            if found is not None:
                return None
            found = RowBound(upper, index, step.map.single_constant_result)
    return found


def tile_shape(
    machine: Machine, rows: bool, vector: bool, reduction: bool, row_trips: int | None = None
) -> tuple[int, int]:
    """The default ``(row_factor, vectors)`` for the roles present, from the register count
    (docs/performance.md): with rows, vectors and a reduction, the tile of ``MR x NV``
    accumulators with ``MR * NV + NV + 1`` registers and ``NV >= MR - 1`` that does the
    most work in full groups of rows (``MR * NV`` times the share of the ``row_trips`` rows,
    when bounded, in full groups: 5 x 5 with 32 registers, 4 x 6 for cache tiles of 16
    rows); with a reduction but no rows, up to 8 vectors of accumulators; without a
    reduction, rows of one vector, a quarter of the registers and at most 8
    (:func:`plan_register_tile` counts the loads they need: :func:`rows_in_registers`);
    scalar accumulators in 8 rows."""
    registers = machine.vector_registers
    if rows and vector and reduction:
        shapes = [
            (mr, nv)
            for mr in range(1, registers)
            for nv in range(1, registers)
            if mr * nv + nv + 1 <= registers and nv >= mr - 1
        ]

        def work(shape: tuple[int, int]) -> tuple[float, int]:
            mr, nv = shape
            full = 1.0 if not row_trips else (row_trips - row_trips % mr) / row_trips
            return mr * nv * full, -abs(mr - nv)

        return max(shapes, key=work)
    if vector and reduction:
        return 1, max(1, min(8, (registers - 1) // 2))
    if vector:
        return (min(8, max(1, registers // 4)) if rows else 1), 1
    return (min(8, max(1, registers // 2)) if rows else 1), 1


def plan_register_tile(
    band: Sequence[Operation],
    machine: Machine | None = None,
    row_factor: int | None = None,
    vectors: int | None = None,
) -> RegisterTile | Verdict:
    """The roles and shape of a register tile for ``band``'s innermost loops, or a verdict
    saying why there is none. The vector loop is the loop most accesses are contiguous
    along (innermost first on a tie), the reduction loop the one the most stored addresses
    are invariant along, the rows loop the innermost loop left; the shape defaults to
    :func:`tile_shape` and lanes fill a vector register of ``machine``."""
    machine = machine or detect()
    body = _body_or_verdict(band)
    if isinstance(body, Verdict):
        return body
    loops = list(band)
    vector_loop = None
    best = 0
    for loop in reversed(loops):
        if vector_blocker(body, loop) is not None:
            continue
        iv = _iv(loop)
        count = sum(1 for op, a in body.access.items() if op in body.needed and iv in a.operands)
        if count > best:
            vector_loop, best = loop, count
    reduction = None
    held = 0
    for loop in reversed(loops):
        if loop is vector_loop:
            continue
        if vector_loop is not None and (
            _bounds_use(loop, [vector_loop]) or _bounds_use(vector_loop, [loop])
        ):
            continue
        count = len(held_groups(body, loop))
        if count > held:
            reduction, held = loop, count
    rows = None
    for loop in reversed(loops):
        if loop is vector_loop or loop is reduction:
            continue
        f = ForOp(loop)
        others = [x for x in (vector_loop, reduction) if x is not None]
        if (
            f.step == 1
            and not _bounds_use(loop, others)
            and not any(
                _bounds_use(x, [loop]) and not (x is vector_loop and row_bound(x, loop) is not None)
                for x in others
            )
        ):
            rows = loop
        break
    if vector_loop is None and reduction is None:
        return Verdict(
            False,
            "no loop to vectorise (every loop has an access that is not contiguous in memory along "
            "it) and no address stored to at every iteration of a loop",
        )
    if reduction is None and rows is None and not overlapping_loads(band, vector_loop):
        return Verdict(
            False,
            "only a vector loop: nothing to hold in registers, to jam or to load once",
        )
    roles = [x for x in (rows, vector_loop, reduction) if x is not None]
    first = min(loops.index(x) for x in roles)
    between = [x for x in loops[first:] if x not in roles]
    if between:
        return Verdict(False, f"{where(between[0])} lies between the loops of the register tile")
    mr, nv = tile_shape(
        machine,
        rows is not None,
        vector_loop is not None,
        reduction is not None,
        trip_bound(rows) if rows is not None else None,
    )
    if rows is not None and vector_loop is not None and reduction is None:
        mr = rows_in_registers(body, rows, vector_loop, machine)
    if rows is not None and vector_loop is not None and reduction is not None:
        unshared = rows_beside_broadcasts(body, rows, vector_loop, reduction, machine)
        if unshared is not None:
            mr, nv = unshared, 1
    mr = row_factor or mr
    nv = vectors or nv
    lanes = 1
    if vector_loop is not None:
        lanes = machine.lanes(max(_bytes(t) for t in _vector_element_types(body, vector_loop)))
        trip = constant_trip_count(vector_loop)
        if trip is not None and trip > 0:
            nv = max(1, min(nv, trip // lanes))
    if rows is not None:
        trip = constant_trip_count(rows)
        if trip is not None and trip > 0:
            mr = max(1, min(mr, trip))
    return RegisterTile(rows, mr, vector_loop, lanes, nv, reduction)


def jammed_rows(function: Operation, machine: Machine) -> dict[int, int]:
    """Written dimension -> rows jammed along it, for the register tiles
    :func:`plan_register_tile` plans for ``function``'s innermost bands of rows and a
    vector loop (no reduction) whose every store moves by one along that dimension alone
    with the rows loop; dimensions that two bands jam differently are left out. What a
    tiling around those bands sizes by (:func:`transforms.time_tiling.whole_row_groups`)."""
    jammed: dict[int, int] = {}
    mixed: set[int] = set()
    for band in innermost_bands(function):
        plan = plan_register_tile(band, machine)
        if isinstance(plan, Verdict) or plan.reduction is not None:
            continue
        if plan.rows is None or plan.vector is None:
            continue
        body = Body(band)  # planned: its body holds
        moves = [_steps(body.access[op], _iv(plan.rows)) for op in body.stores()]
        if not moves or any(m is None or sorted(m) != [0] * (len(m) - 1) + [1] for m in moves):
            continue
        dims = {m.index(1) for m in moves if m is not None}
        if len(dims) != 1:
            continue
        (d,) = dims
        if jammed.get(d, plan.row_factor) != plan.row_factor:
            mixed.add(d)
        jammed[d] = plan.row_factor
    return {d: r for d, r in jammed.items() if d not in mixed}


def _vector_element_types(body: Body, loop: Operation) -> list[Type]:
    iv = _iv(loop)
    memo: dict[Operation, bool] = {}
    types: list[Type] = []
    for op in body.ops:
        if op not in body.needed or not body.varies(op, iv, memo):
            continue
        types.extend(r.type for r in op.results)
        if op.name == "affine.store":
            types.append(op.operands[0].type)
    return types or [IntegerType(8)]


def _bytes(t: Type) -> int:
    if isinstance(t, IndexType):
        return 8
    width = t.width if isinstance(t, (IntegerType, FloatType)) else 8
    return max(1, (width + 7) // 8)


# -- the check ------------------------------------------------------------------------------------


def register_order(band: Sequence[Operation], tile: RegisterTile) -> RegisterOrder:
    """The order of the band's instances once ``tile`` runs them."""

    def position(loop: Operation | None) -> int | None:
        return list(band).index(loop) if loop is not None else None

    return RegisterOrder(
        position(tile.rows),
        position(tile.vector),
        position(tile.reduction),
        tile.row_factor if tile.rows is not None else 1,
        tile.vector_width if tile.vector is not None else 1,
    )


def check_register_tile(
    band: Sequence[Operation], tile: RegisterTile, analysis: FlowAnalysis | None = None
) -> Verdict:
    """Can ``band`` run as ``tile``? Illegal when the body has ops the tile cannot hold, a
    role's loop has a shape the tile needs (see :func:`vector_blocker`), the tile order
    would reverse a dependence, or a held value would go stale (a dependence between a
    held access and another access of the same tile, or between rows or lanes of one held
    address)."""
    body = _body_or_verdict(band)
    if isinstance(body, Verdict):
        return body
    problem = _shape_problem(band, body, tile)
    if problem is not None:
        return Verdict(False, problem)
    analysis = analysis_for(band[0], analysis)
    order = register_order(band, tile)
    verdict = register_order_reversals(analysis, band, order, body.position)
    if verdict and tile.rows is not None and tile.vector is not None:
        if _bounds_use(tile.vector, [tile.rows]):
            verdict = register_points_apart(analysis, band, order)
    if not verdict or tile.reduction is None:
        return verdict
    held = [
        (ops, tile.rows is None or _iv(tile.rows) not in body.access[ops[0]].operands)
        for ops in held_groups(body, tile.reduction)
    ]
    return register_conflicts(analysis, band, order, held)


def _shape_problem(band: Sequence[Operation], body: Body, tile: RegisterTile) -> str | None:
    roles = tile.roles()
    if not roles:
        return "the register tile gives no loop a role"
    if len(set(map(id, roles))) != len(roles):
        return "one loop has two roles in the register tile"
    for loop in roles:
        if loop not in band:
            return f"{where(loop)} is not in the band"
    loops = list(band)
    first = min(loops.index(x) for x in roles)
    between = [x for x in loops[first:] if x not in roles]
    if between:
        return f"{where(between[0])} lies between the loops of the register tile"
    if tile.row_factor < 1 or tile.lanes < 1 or tile.vectors < 1:
        return "the register tile's sizes must be positive"
    if tile.vector is not None:
        problem = vector_blocker(body, tile.vector)
        if problem is not None:
            return problem
    if tile.rows is not None and ForOp(tile.rows).step != 1:
        return f"{where(tile.rows)} needs step 1 to be cut into groups"
    for loop in roles:
        others = [x for x in roles if x is not loop]
        if loop is tile.vector and tile.rows is not None and row_bound(loop, tile.rows) is not None:
            others.remove(tile.rows)  # a triangle's edge: the rows' ends run on their own
        if _bounds_use(loop, others):
            return f"the bounds of {where(loop)} use another loop of the register tile"
    if tile.rows is not None:
        user = body.uses_as_value(_iv(tile.vector)) if tile.vector is not None else None
        if user is not None:
            return f"{where(user)} uses the vector loop's induction variable as a value"
    return None


# -- the rewrite ----------------------------------------------------------------------------------


@dataclass
class _Insert:
    """Where new ops go: before ``anchor`` in ``block``, or at its end."""

    block: Block
    anchor: Operation | None = None

    def add(self, op: Operation) -> Operation:
        if self.anchor is not None:
            self.block.insert_before(self.anchor, op)
        else:
            self.block.append(op)
        return op


_GroupCode = Callable[[_Insert, ValueMap, int], None]  # code of a group: (at, base, count)


@dataclass
class _Memory:
    """What the straight-line code of one tile knows about memory: values of addresses
    (loaded, stored, or held in registers), and the last store to each buffer."""

    known: dict[tuple, Value] = field(default_factory=dict)
    held: set[tuple] = field(default_factory=set)
    last_store: dict[Value, tuple[tuple, Operation]] = field(default_factory=dict)
    reads: set[Value] = field(default_factory=set)  # buffers loaded since their last store

    def forget(self, root: Value, keep: tuple | None) -> None:
        """A store to ``root``: what was known of other addresses of it may be stale."""
        stale = [
            k for k in self.known if buffer_of(k[0]) is root and k != keep and k not in self.held
        ]
        for key in stale:
            del self.known[key]


class _TileEmitter:
    """Emits register tiles of one band: the shared facts about its body and roles."""

    def __init__(
        self, band: Sequence[Operation], tile: RegisterTile, fma: bool, pack: bool
    ) -> None:
        self.band = list(band)
        self.tile = tile
        self.body = Body(band)
        self.u = _iv(tile.rows) if tile.rows is not None else None
        self.v = _iv(tile.vector) if tile.vector is not None else None
        self.r = _iv(tile.reduction) if tile.reduction is not None else None
        memo: dict[Operation, bool] = {}
        self.vectorised = {
            op: self.v is not None and self.body.varies(op, self.v, memo) for op in self.body.ops
        }
        self.fused = _fused_multiplies(self.body) if fma else {}
        self.skipped = {mul for mul, _ in self.fused.values()}
        self.held_ops = (
            {op for ops in held_groups(self.body, tile.reduction) for op in ops}
            if tile.reduction is not None
            else set()
        )
        self.row_bound = (
            row_bound(tile.vector, tile.rows)
            if tile.vector is not None and tile.rows is not None
            else None
        )
        # packed values are laid out by a row's place in its group; a row's end runs alone
        self.packed = (
            _packable(self.body, tile, self.vectorised) if pack and self.row_bound is None else []
        )
        self.pack_chain = [op for op in self.body.ops if op in _slice(self.body, self.packed)]
        self.in_tile = _needed_past(self.body, set(self.packed))
        self.hoisted = _hoistable(self.body, tile, self.held_ops)
        self.buffers: dict[Operation, tuple[Value, ValueMap]] = {}
        # a row's end is short and may have no group before it to overlap
        self.overlapped = self.row_bound is None and self.recomputable()

    def recomputable(self) -> bool:
        """Whether iterations of the vector loop may run again after later ones with the
        same effect, so a partial vector at its end can be a whole one that overlaps the
        group before: no reduction, every store moving along the vector loop, at most one
        store per buffer, and no load from a buffer the body stores to (every value
        recomputed is the one computed before, and stored where it was)."""
        if self.v is None or self.tile.lanes == 1 or self.tile.reduction is not None:
            return False
        written: set[Value] = set()
        for store in self.body.stores():
            buffer = buffer_of(self.body.memref(store))
            if buffer in written or not self.vectorised[store]:
                return False
            written.add(buffer)
        return not any(
            buffer_of(self.body.memref(op)) in written
            for op in self.body.ops
            if op.name == "affine.load"
        )

    # -- one tile

    def tile_at(
        self,
        at: _Insert,
        row_base: ValueMap | None,
        rows: int,
        vector_base: ValueMap | None,
        widths: Sequence[int],
    ) -> None:
        """The code of one tile: ``rows`` rows from ``row_base`` and vectors of ``widths``
        lanes from ``vector_base``."""
        offsets = [sum(widths[:n]) for n in range(len(widths))]
        copy = _Copy(self, row_base, vector_base, widths, offsets)
        memory = _Memory()
        if self.tile.reduction is None:
            copy.run(at, rows, memory)
            return
        keys: list[tuple] = []
        for m in range(rows):
            for op in self.body.ops:
                if op not in self.held_ops:
                    continue
                for n in copy.vectors_of(op):
                    key = copy.key(op, m, n)
                    if key not in keys:
                        keys.append(key)
        inits = [copy.load(at, key, memory) for key in keys]
        copy.run(at, rows, memory, self.hoisted)
        reduction = self.tile.reduction
        loop = new_loop(
            lower_bound(reduction), upper_bound(reduction), ForOp(reduction).step, inits, reduction
        )
        at.add(loop)
        inner = ForOp(loop).body
        state = _Memory(held=set(keys))
        for key, arg in zip(keys, inner.arguments[1:]):
            state.known[key] = arg
        copy.reduction_iv = inner.arguments[0]
        copy.run(_Insert(inner), rows, state)
        inner.append(affine_yield([state.known[key] for key in keys]))
        copy.reduction_iv = None
        for key, result in zip(keys, loop.results):
            copy.store(at, key, result, memory, reduction.loc)

    # -- packed operands

    def allocate_buffers(self, top: Operation) -> None:
        """One buffer per packed value (reduction iterations x rows), at the start of the
        function."""
        function = enclosing_function(top)
        assert function is not None and self.tile.reduction is not None
        entry = function.regions[0].blocks[0]
        trips = trip_bound(self.tile.reduction)
        assert trips is not None  # _packable requires it
        for root in self.packed:
            t = MemRefType((trips, self.tile.row_factor), root.results[0].type)
            alloc = memref_alloc(t, alloca=True)
            alloc.loc = top.loc
            entry.insert(0, alloc)
            self.buffers[root] = (alloc.results[0], lower_bound(self.tile.reduction))

    def pack(self, at: _Insert, row_base: ValueMap | None, rows: int) -> None:
        """Compute the packed values of ``rows`` rows for every reduction iteration."""
        reduction = self.tile.reduction
        assert reduction is not None
        loop = new_loop(lower_bound(reduction), upper_bound(reduction), 1, like=reduction)
        at.add(loop)
        f = ForOp(loop)
        inner = _Insert(f.body, f.yield_op)
        copy = _Copy(self, row_base, None, [1], [0])
        copy.reduction_iv = f.induction_var
        memory = _Memory()
        for m in range(rows):
            for op in self.pack_chain:
                copy.emit(inner, op, m, None, memory)
            for root in self.packed:
                buffer, lb = self.buffers[root]
                value = copy.values[(root.results[0], m, None)]
                vm = _pack_index(f.induction_var, lb, m)
                store = Operation.create(
                    "affine.store",
                    [value, buffer, *vm.operands],
                    [],
                    {"map": AffineMapAttr(vm.map)},
                )
                store.loc = root.loc
                inner.add(store)

    # -- groups of a loop

    def groups(
        self,
        at: _Insert,
        loop: Operation,
        sizes: Sequence[int],
        inner: _GroupCode,
        tail: _GroupCode,
        lb: ValueMap | None = None,
        ub: ValueMap | None = None,
    ) -> None:
        """Run ``loop``'s iterations (from ``lb`` to ``ub``, by default its bounds) in groups:
        ``inner(at, base, sizes[0])`` for each full group of ``sizes[0]``, then the rest:
        ``tail(at, base, count)`` once for a remainder of static size, else groups of each
        next size in ``sizes`` in turn. A lower bound with several results (a time tile's
        ``max``) is split by an ``affine.if`` per result being the largest, all under a
        test that the loop runs at all (a time tile may have no rows of this sweep)."""
        ub = upper_bound(loop) if ub is None else ub
        if lb is None:
            lb = lower_bound(loop)
            if lb.map.num_results > 1:
                nonempty = nonempty_condition(lb, ub)
                branch = affine_if(nonempty.map_set, nonempty.operands)
                branch.loc = loop.loc
                at.add(branch)
                block = branch.regions[0].blocks[0]
                at = _Insert(block, block.operations[-1])
        if lb.map.num_results > 1:
            others = ValueMap(lb.map.sub_map(range(1, lb.map.num_results)), lb.operands)
            largest = _first_compared(lb, largest=True)
            branch = affine_if(largest.map_set, largest.operands, with_else=True)
            branch.loc = loop.loc
            at.add(branch)
            for block, bound in zip(
                (b for r in branch.regions for b in r.blocks), (lb.result(0), others)
            ):
                self.groups(
                    _Insert(block, block.operations[-1]), loop, sizes, inner, tail, bound, ub
                )
            return
        full = sizes[0]
        if ub.map.num_results == 1:
            span = difference(ub, lb)
            if span.map.is_single_constant() and span.map.single_constant_result < full:
                if span.map.single_constant_result > 0:  # no full group: the rest only
                    tail(at, lb, span.map.single_constant_result)
                return
        top = new_loop(lb, _shifted(ub, 1 - full), full, like=loop)
        at.add(top)
        inner(
            _Insert(ForOp(top).body, ForOp(top).yield_op), _identity(ForOp(top).induction_var), full
        )
        if full == 1:
            return
        self._rest(at, loop, lb, ub, list(sizes), tail)

    def _rest(
        self,
        at: _Insert,
        loop: Operation,
        lb: ValueMap,
        ub: ValueMap,
        sizes: list[int],
        tail: _GroupCode,
    ) -> None:
        """The iterations past the last full group, for each result of ``ub`` in turn
        being the smallest (an ``affine.if`` per result)."""
        if ub.map.num_results > 1:
            first = ub.result(0)
            others = ValueMap(ub.map.sub_map(range(1, ub.map.num_results)), ub.operands)
            smallest = _first_compared(ub)
            branch = affine_if(smallest.map_set, smallest.operands, with_else=True)
            branch.loc = loop.loc
            at.add(branch)
            self._rest(
                _Insert(branch.regions[0].blocks[0], branch.regions[0].blocks[0].operations[-1]),
                loop,
                lb,
                first,
                sizes,
                tail,
            )
            else_block = branch.regions[1].blocks[0]
            self._rest(
                _Insert(else_block, else_block.operations[-1]), loop, lb, others, sizes, tail
            )
            return
        span = difference(ub, lb)
        group = sizes[0]
        start = _group_start(lb, span, group)
        if span.map.is_single_constant():
            remainder = span.map.single_constant_result % group
            if span.map.single_constant_result > 0 and remainder > 0:
                lanes = self.tile.lanes
                whole = -(-remainder // lanes) * lanes  # at most a group: a group ran before
                if loop is self.tile.vector and self.overlapped and whole > remainder:
                    tail(at, _shifted(start, remainder - whole), whole)
                else:
                    tail(at, start, remainder)
            return
        for size in sizes[1:]:
            # where the loop runs no iteration (ub < lb: j from i to 6 past i = 6), the
            # groups' start floor(span / size) * size lies below lb: no group starts there
            part = new_loop(concat([start, lb]), _shifted(ub, 1 - size), size, like=loop)
            at.add(part)
            self.groups_body(part, size, tail)
            start = _group_start(lb, span, size)

    def groups_body(self, loop: Operation, size: int, tail: _GroupCode) -> None:
        f = ForOp(loop)
        tail(_Insert(f.body, f.yield_op), _identity(f.induction_var), size)

    # -- the whole band

    def rewrite(self) -> list[Operation]:
        tile = self.tile
        roles = tile.roles()
        top = min(roles, key=self.band.index)
        block = top.parent
        assert block is not None
        at = _Insert(block, top)
        before = block.index_of(top)

        if self.packed:
            self.allocate_buffers(top)

        def vectors(at: _Insert, rows_base: ValueMap | None, rows: int) -> None:
            if self.packed:
                self.pack(at, rows_base, rows)
            if tile.vector is None:
                self.tile_at(at, rows_base, rows, None, [1])
                return
            lanes = tile.lanes

            def tiles(row_base: ValueMap | None, count_rows: int) -> _GroupCode:
                """The code of a group of ``count`` lanes over ``count_rows`` rows."""

                def run(at: _Insert, base: ValueMap, count: int) -> None:
                    widths = [lanes] * (count // lanes) + ([count % lanes] if count % lanes else [])
                    self.tile_at(at, row_base, count_rows, base, widths)

                return run

            sizes = (
                [tile.vector_width]
                + ([lanes] if tile.vectors > 1 else [])
                + ([1] if lanes > 1 else [])
            )
            group = tiles(rows_base, rows)
            if self.row_bound is None:
                self.groups(at, tile.vector, sizes, group, group)
                return
            # a triangle's edge: the range every row of the group runs, then each row's end
            assert tile.rows is not None and rows_base is not None
            vector, edge = tile.vector, self.row_bound
            common = edge.common(vector, tile.rows, rows_base, rows)
            bound = edge.bound(vector)
            kept = [bound.result(k) for k in range(bound.map.num_results) if k != edge.index]
            if edge.upper:
                self.groups(at, vector, sizes, group, group, ub=concat([*kept, common]))
            else:
                self.groups(at, vector, sizes, group, group, lb=concat([*kept, common]))
            for m in range(rows):
                row = _shifted(rows_base, m)
                lb, ub = (
                    substitute_value(b, _iv(tile.rows), row)
                    for b in (lower_bound(vector), upper_bound(vector))
                )
                if edge.upper:
                    lb = concat([lb, common])
                else:
                    ub = concat([ub, common])
                one_row = tiles(row, 1)
                self.groups(at, vector, sizes, one_row, one_row, lb, ub)

        if tile.rows is None:
            vectors(at, None, 1)
        else:
            sizes = [tile.row_factor] + ([1] if tile.row_factor > 1 else [])
            self.groups(
                at,
                tile.rows,
                sizes,
                lambda a, b, c: vectors(a, b, c),
                lambda a, b, c: vectors(a, b, c),
            )
        new_ops = block.operations[before : block.index_of(top)]
        top.erase()
        return new_ops


class _Copy:
    """One tile's copies of the body: the values of each op for each row ``m`` and vector
    ``n`` (``None`` for ops that do not vary along the vector loop)."""

    def __init__(
        self,
        emitter: _TileEmitter,
        row_base: ValueMap | None,
        vector_base: ValueMap | None,
        widths: Sequence[int],
        offsets: Sequence[int],
    ) -> None:
        self.e = emitter
        self.row_base = row_base
        self.vector_base = vector_base
        self.widths = list(widths)
        self.offsets = list(offsets)
        self.reduction_iv: Value | None = None
        self.values: dict[tuple[Value, int, int | None], Value] = {}
        self.cache: dict[tuple, Value] = {}

    def vectors_of(self, op: Operation) -> list[int | None]:
        return list(range(len(self.widths))) if self.e.vectorised[op] else [None]

    def width(self, n: int | None) -> int | None:
        return None if n is None else self.widths[n]

    def subscripts(self, vm: ValueMap, m: int, n: int | None) -> ValueMap:
        """``vm`` with the roles' IVs replaced by row ``m`` and vector ``n`` of the tile."""
        e = self.e
        for iv, base, offset in (
            (e.u, self.row_base, m),
            (e.v, self.vector_base, self.offsets[n] if n is not None else 0),
        ):
            if iv is not None and base is not None and iv in vm.operands:
                new, operands = substitute(vm.map, vm.operands, iv, _shifted(base, offset))
                vm = ValueMap(new, tuple(operands))
        if e.r is not None and self.reduction_iv is not None and e.r in vm.operands:
            new, operands = substitute(
                vm.map, vm.operands, e.r, ValueMap(AffineMap.identity(1), (self.reduction_iv,))
            )
            vm = ValueMap(new, tuple(operands))
        return vm

    def key(self, op: Operation, m: int, n: int | None) -> tuple:
        """The address an access of the body touches in row ``m``, vector ``n``."""
        vm = self.subscripts(self.e.body.access[op], m, n)
        return (self.e.body.memref(op), vm.map, vm.operands, self.width(n))

    def load(self, at: _Insert, key: tuple, memory: _Memory) -> Value:
        known = memory.known.get(key)
        if known is not None:
            return known
        memref, m, operands, width = key
        element = memref.type.element_type
        name = "affine.load" if width is None else "affine.vector_load"
        result = element if width is None else VectorType((width,), element)
        op = Operation.create(name, [memref, *operands], [result], {"map": AffineMapAttr(m)})
        op.loc = self.e.band[-1].loc
        at.add(op)
        memory.known[key] = op.result
        memory.reads.add(buffer_of(memref))
        return op.result

    def store(self, at: _Insert, key: tuple, value: Value, memory: _Memory, loc: object) -> None:
        if key in memory.held:
            memory.known[key] = value
            return
        memref, m, operands, width = key
        root = buffer_of(memref)
        last = memory.last_store.get(root)
        if last is not None and last[0] == key and root not in memory.reads:
            last[1].erase()
        name = "affine.store" if width is None else "affine.vector_store"
        op = Operation.create(name, [value, memref, *operands], [], {"map": AffineMapAttr(m)})
        op.loc = loc  # type: ignore[assignment]  # a location of the original op
        at.add(op)
        memory.forget(root, key)
        memory.known[key] = value
        memory.last_store[root] = (key, op)
        memory.reads.discard(root)

    def run(
        self, at: _Insert, rows: int, memory: _Memory, ops: Sequence[Operation] | None = None
    ) -> None:
        """The body (or its ``ops``) for each row, in order; ops already copied (hoisted
        out of the reduction loop) are not copied again."""
        e = self.e
        for m in range(rows):
            for op in e.body.ops if ops is None else ops:
                if op not in e.in_tile or op in e.skipped:
                    continue
                if op.results and (op.results[0], m, self.vectors_of(op)[0]) in self.values:
                    continue
                if op in e.buffers:
                    buffer, lb = e.buffers[op]
                    assert self.reduction_iv is not None
                    vm = _pack_index(self.reduction_iv, lb, m)
                    key = (buffer, vm.map, vm.operands, None)
                    self.values[(op.results[0], m, None)] = self.load(at, key, memory)
                    continue
                for n in self.vectors_of(op):
                    self.emit(at, op, m, n, memory)

    def emit(self, at: _Insert, op: Operation, m: int, n: int | None, memory: _Memory) -> None:
        e = self.e
        width = self.width(n)
        if op.name == "affine.load":
            self.values[(op.results[0], m, n)] = self.load(at, self.key(op, m, n), memory)
            return
        if op.name == "affine.store":
            value = self.operand(at, op.operands[0], m, n, width)
            self.store(at, self.key(op, m, n), value, memory, op.loc)
            return
        if op.name == "affine.apply":
            vm = self.subscripts(_applied(op), m, n)
            self.values[(op.results[0], m, n)] = self.created(
                at, affine_apply(vm.map, vm.operands), op
            )
            return
        result_type = op.results[0].type
        if width is not None:
            result_type = VectorType((width,), result_type)
        if op in e.fused:
            mul, other = e.fused[op]
            operands = [self.operand(at, v, m, n, width) for v in (*mul.operands, other)]
            if width is not None:
                new = Operation.create("vector.fma", operands, [result_type])
            else:
                new = arith("math.fma", operands, result_type)
        else:
            operands = [self.operand(at, v, m, n, width) for v in op.operands]
            new = Operation.create(
                op.name, operands, [result_type], dict(op.properties), dict(op.attributes)
            )
        self.values[(op.results[0], m, n)] = self.created(at, new, op)

    def created(self, at: _Insert, new: Operation, like: Operation) -> Value:
        """``new``'s result, or that of an identical op made before in this block."""
        key = (
            id(at.block),
            new.name,
            tuple(map(id, new.operands)),
            tuple(r.type for r in new.results),
            tuple(sorted((k, str(a)) for k, a in new.properties.items())),
        )
        found = self.cache.get(key)
        if found is not None:
            return found
        new.loc = like.loc
        at.add(new)
        self.cache[key] = new.results[0]
        return new.results[0]

    def operand(self, at: _Insert, value: Value, m: int, n: int | None, width: int | None) -> Value:
        """The copy of ``value`` for row ``m`` and vector ``n``, as a vector of ``width``
        lanes when ``width`` is given (a value invariant along the vector loop is broadcast)."""
        e = self.e
        owner = value.owner_op
        if owner is not None and owner in e.body.position:
            scalar = not e.vectorised[owner]
            found = self.values[(value, m, None if scalar else n)]
        else:
            scalar = True
            found = value
            if value is e.u and self.row_base is not None:
                row = _shifted(self.row_base, m)
                found = self.created(at, affine_apply(row.map, row.operands), e.band[-1])
            elif value is e.r and self.reduction_iv is not None:
                found = self.reduction_iv
        if width is None or not scalar:
            return found
        broadcast = Operation.create(
            "vector.broadcast", [found], [VectorType((width,), found.type)]
        )
        return self.created(at, broadcast, e.band[-1])


def _identity(value: Value) -> ValueMap:
    return ValueMap(AffineMap.identity(1), (value,))


def _shifted(vm: ValueMap, offset: int) -> ValueMap:
    m = vm.map
    return ValueMap(
        AffineMap.get(m.num_dims, m.num_symbols, [r + offset for r in m.results]), vm.operands
    )


def _group_start(lb: ValueMap, span: ValueMap, size: int) -> ValueMap:
    """``lb + floor(span / size) * size``: where the iterations past the full groups of
    ``size`` start."""
    return combine_maps(lb, span, lambda low, n: low + n.floordiv(size) * size)


@dataclass(frozen=True)
class _Condition:
    map_set: IntegerSet
    operands: tuple[Value, ...]


def _nonnegative(values: ValueMap) -> _Condition:
    """The set where every result of ``values`` is at least 0."""
    m = values.map
    constraints = list(m.results)
    return _Condition(
        IntegerSet.get(m.num_dims, m.num_symbols, constraints, [False] * len(constraints)),
        values.operands,
    )


def nonempty_condition(lb: ValueMap, ub: ValueMap) -> _Condition:
    """The set where every result of ``ub`` exceeds every result of ``lb`` (a loop from
    ``max(lb)`` to ``min(ub)`` runs at least once)."""
    return _nonnegative(
        concat(
            [
                combine_maps(lb.result(i), ub.result(j), lambda low, high: high - low - 1)
                for i in range(lb.map.num_results)
                for j in range(ub.map.num_results)
            ]
        )
    )


def _first_compared(bound: ValueMap, largest: bool = False) -> _Condition:
    """The set where result 0 of ``bound`` is at most (``largest``: at least) each of its
    other results."""
    m = bound.map
    first = m.results[0]
    gaps = [(first - other) if largest else (other - first) for other in m.results[1:]]
    return _nonnegative(ValueMap(AffineMap.get(m.num_dims, m.num_symbols, gaps), bound.operands))


def _hoistable(body: Body, tile: RegisterTile, held: set[Operation]) -> list[Operation]:
    """Ops of ``body`` (in order) invariant along the reduction loop and computed from
    buffers the band never writes: a tile computes them once, before the loop."""
    if tile.reduction is None:
        return []
    written = {buffer_of(body.memref(op)) for op in body.stores()}
    r = _iv(tile.reduction)
    memo: dict[Operation, bool] = {}
    return [
        op
        for op in body.ops
        if op.name != "affine.store"
        and op not in held
        and not body.varies(op, r, memo)
        and all(
            x.name != "affine.load" or buffer_of(body.memref(x)) not in written
            for x in _slice(body, [op])
        )
    ]


def trip_bound(loop: Operation) -> int | None:
    """A constant bound on ``loop``'s trip count (step 1): its constant trip count, else
    the smallest constant distance from its single lower bound to one of its upper bounds
    (a cache tile's ``min(lb + 32, N)``); None when there is none."""
    trips = constant_trip_count(loop)
    if trips is not None:
        return trips
    lb, ub = lower_bound(loop), upper_bound(loop)
    if lb.map.num_results != 1:
        return None
    spans = []
    for k in range(ub.map.num_results):
        span = difference(ub.result(k), lb)
        if span.map.is_single_constant():
            spans.append(span.map.single_constant_result)
    return max(0, min(spans)) if spans else None


def _pack_index(iv: Value, lower: ValueMap, row: int) -> ValueMap:
    """``[iv - lower, row]``: where a packed value of reduction iteration ``iv`` sits."""
    offset = combine_maps(_identity(iv), lower, lambda a, b: a - b)
    m = offset.map
    return ValueMap(AffineMap.get(m.num_dims, m.num_symbols, [m.results[0], row]), offset.operands)


def _slice(body: Body, roots: Sequence[Operation]) -> set[Operation]:
    """``roots`` and the ops of ``body`` their values are computed from."""
    found: set[Operation] = set()
    work = list(roots)
    while work:
        op = work.pop()
        if op in found:
            continue
        found.add(op)
        if op.name != "affine.load":
            for v in op.operands:
                owner = v.owner_op
                if owner is not None and owner in body.position:
                    work.append(owner)
    return found


def _needed_past(body: Body, leaves: set[Operation]) -> set[Operation]:
    """The needed ops of ``body`` when the values of ``leaves`` come from elsewhere."""
    needed: set[Operation] = set()
    work = body.stores()
    while work:
        op = work.pop()
        if op in needed:
            continue
        needed.add(op)
        if op.name == "affine.load" or op in leaves:
            continue
        values = [op.operands[0]] if op.name == "affine.store" else op.operands
        for v in values:
            owner = v.owner_op
            if owner is not None and owner in body.position:
                work.append(owner)
    return needed


_PACK_LIMIT = 256 * 1024  # bytes of packed values per band


def _packable(body: Body, tile: RegisterTile, vectorised: dict[Operation, bool]) -> list[Operation]:
    """Scalar values a tile broadcasts that vary along the reduction loop and are computed
    (not just loaded) from buffers the band never writes: computing them once per group of
    rows into a buffer, before the groups of vectors, saves the arithmetic in every tile."""
    reduction = tile.reduction
    if tile.vector is None or reduction is None or ForOp(reduction).step != 1:
        return []
    trips = trip_bound(reduction)
    if trips is None or trips <= 0:
        return []
    written = {buffer_of(body.memref(op)) for op in body.stores()}
    r = _iv(reduction)
    memo: dict[Operation, bool] = {}
    roots = []
    for op in body.ops:
        if op not in body.needed or vectorised[op] or not body.varies(op, r, memo):
            continue
        consumers = [
            user
            for user in body.ops
            if user in body.needed
            and vectorised[user]
            and any(v is op.results[0] for v in user.operands)
        ]
        if not consumers or op.name == "affine.load":
            continue
        chain = _slice(body, [op])
        if all(x.name != "affine.load" or buffer_of(body.memref(x)) not in written for x in chain):
            roots.append(op)
    size = sum(trips * tile.row_factor * _bytes(op.results[0].type) for op in roots)
    return roots if size <= _PACK_LIMIT else []


def _fused_multiplies(body: Body) -> dict[Operation, tuple[Operation, Value]]:
    """``addf`` ops of ``body`` fed by a ``mulf`` used nowhere else (same type, no fast-math
    flags): add -> (mul, the add's other operand)."""
    uses: dict[Value, int] = {}
    for op in body.ops:
        for v in op.operands:
            uses[v] = uses.get(v, 0) + 1
    fused = {}
    for op in body.ops:
        if op.name != "arith.addf" or not _plain(op):
            continue
        for k, value in enumerate(op.operands):
            mul = value.owner_op
            if (
                mul is not None
                and mul.name == "arith.mulf"
                and mul in body.position
                and _plain(mul)
                and uses.get(value) == 1
                and mul.results[0].type == op.results[0].type
            ):
                fused[op] = (mul, op.operands[1 - k])
                break
    return fused


def _plain(op: Operation) -> bool:
    flags = op.properties.get("fastmath")
    return flags is None or getattr(flags, "body", "none") == "none"


def register_tile_band(
    band: Sequence[Operation], tile: RegisterTile, fma: bool = True, pack: bool = True
) -> list[Operation]:
    """Rewrite ``band``'s innermost loops as ``tile`` (see the module docstring): assumes
    :func:`check_register_tile` found it legal. Raises TransformError (leaving the IR as
    it was) for shapes it cannot handle. Returns the ops now in the place of the
    outermost loop of the tile."""
    body = Body(band)
    problem = _shape_problem(band, body, tile)
    if problem is not None:
        raise TransformError(problem, band[-1].loc)
    return _TileEmitter(band, tile, fma, pack).rewrite()


def innermost_bands(root: Operation) -> list[list[Operation]]:
    """For every innermost ``affine.for`` (in textual order), the perfect band that ends
    at it: the loops around it whose bodies hold only the next loop."""
    bands = []
    for loop in [op for op in root.walk() if is_loop(op)]:
        if any(is_loop(inner) for inner in loop.nested_ops()):
            continue
        band = [loop]
        while True:
            parent = band[0].parent_op
            if parent is None or not is_loop(parent) or len(body_ops(parent)) != 1:
                break
            band.insert(0, parent)
        bands.append(band)
    return bands


def _worth(
    loop: Operation,
    groups: Sequence[Sequence[Operation]],
    machine: Machine,
    pays: Callable[[Sequence[Operation], RegisterTile], str | None] | None = None,
) -> bool:
    """Whether distributing ``loop`` over ``groups`` gives a part with a perfect band (the
    loop and the part's nest) that has a register tile plan (that ``pays``, when given),
    and, where every such plan is scalar (no vector loop), costs no second pass over
    memory: a scalar tile gains what chains side by side gain, which
    :func:`transforms.unroll_jam.interleave_chains` gets without distributing, while data
    beyond the L2 cache read twice cost a pass over them (atax's ``A``: 0.99x distributed
    with 8 rows, 2.07-2.23x kept together with 8 chains)."""
    plans = []
    for group in groups:
        for op in group:
            if not is_loop(op):
                continue
            for band in innermost_bands(op):
                extended = [loop, *band] if band[0] is op else band
                plan = plan_register_tile(extended, machine)
                if isinstance(plan, RegisterTile) and (
                    pays is None or pays(extended, plan) is None
                ):
                    plans.append(plan)
    if not plans:
        return False
    return (
        any(p.vector is not None for p in plans) or reread_beyond(loop, groups, machine.l2) is None
    )


def reread_beyond(
    loop: Operation, groups: Sequence[Sequence[Operation]], cache: int
) -> Value | None:
    """A memref that two of ``groups`` (parts of ``loop``'s body) access and whose footprint
    over all of ``loop`` exceeds ``cache`` bytes (its bounding box's), so that ``loop``
    distributed over the groups reads it from beyond the cache once more; None if none is."""
    parts: dict[Value, set[int]] = {}
    for k, group in enumerate(groups):
        for top in group:
            for op in top.walk():
                if op.name in _MEMORY:
                    memref = op.operands[1] if op.name == "affine.store" else op.operands[0]
                    parts.setdefault(buffer_of(memref), set()).add(k)
    shared = [m for m, ks in parts.items() if len(ks) > 1]
    if not shared:
        return None
    try:
        footprints, _ = loop_footprints(loop)
    except ModelError:
        return shared[0]  # unknown: assume the worst
    for memref in shared:
        footprint = footprints.get(memref)
        if footprint is None or not isinstance(memref.type, MemRefType):
            continue
        box = bounding_box(footprint.region)
        if isinstance(box, str) or box.volume * element_bytes(memref.type) > cache:
            return memref
    return None


@dataclass
class RegisterTilePass:
    """``-affine-register-tile``: every innermost perfect band (after distributing
    imperfect nests where legal, with ``distribute``) becomes a register tile where
    :func:`plan_register_tile` finds one and :func:`check_register_tile` finds it legal;
    ``rows`` and ``vectors`` fix the tile's shape (0: from the machine), ``vector-bits``
    and ``registers`` the machine's vectors (0: detected), ``fma`` fuses multiply-adds,
    ``pack`` computes broadcast operands once per group of rows, ``cache-tiles`` puts
    cache tiles beneath tiles of rows of vector accumulators where an array every group
    of rows reads again exceeds half of L2 (``l2`` in KiB, 0: detected;
    :func:`cache_tiles_beneath`)."""

    name = "affine-register-tile"
    rows: int = 0
    vectors: int = 0
    vector_bits: int = 0
    registers: int = 0
    fma: bool = True
    pack: bool = True
    distribute: bool = True
    cache_tiles: bool = False
    l2: int = 0

    def machine(self) -> Machine:
        machine = machine_from_options(
            {"vector-bits": self.vector_bits or None, "l2": self.l2 or None}
        )
        if self.registers:
            machine = machine.override(vector_registers=self.registers)
        return machine

    def run(self, module: Module, context: PassContext) -> Module:
        for option in ("rows", "vectors", "vector_bits", "registers", "l2"):
            if getattr(self, option) < 0:
                raise TransformError(
                    f"option '{option.replace('_', '-')}' must not be negative, "
                    f"got {getattr(self, option)}"
                )
        if self.vector_bits % 8:
            raise TransformError(
                f"option 'vector-bits' must be a multiple of 8, got {self.vector_bits}"
            )
        machine = self.machine()
        module = module.clone()
        for function in functions(module, context):
            register_tile_function(
                function,
                machine,
                context,
                self.rows or None,
                self.vectors or None,
                self.fma,
                self.pack,
                self.distribute,
                cache_tiles=self.cache_tiles,
            )
        return module


def _moves(access: ValueMap, subscript: int, iv: Value) -> bool:
    """Whether subscript ``subscript`` of ``access`` changes with ``iv``."""
    expr = access.map.results[subscript]
    dims = access.map.num_dims
    return any(
        expr.is_function_of_dim(p) if p < dims else expr.is_function_of_symbol(p - dims)
        for p, operand in enumerate(access.operands)
        if operand is iv
    )


SHARED_LOADS = 0.5  # the share of loads a jammed row must take from its neighbours


def shared_rows(band: Sequence[Operation], tile: RegisterTile) -> bool:
    """Whether the rows of ``tile`` share loads: at least :data:`SHARED_LOADS` of the loads
    have a partner (:func:`_row_partners`), so that jammed rows load such a row once for
    several of them (jacobi-2d: 3 of 5; heat-3d, 3 of 7, measured 0.5-1.1x)."""
    if tile.rows is None:
        return False
    body = Body(band)
    loads = [op for op in body.ops if op.name == "affine.load" and op in body.needed]
    shared = _row_partners(body, tile.rows)
    return bool(loads) and len(shared) >= SHARED_LOADS * len(loads)


def _row_partners(body: Body, rows: Operation) -> list[Operation]:
    """The needed loads with a partner: a load of the same memref whose address differs by
    constants only in subscripts that move with the ``rows`` loop (a stencil's neighbouring
    rows, a convolution's ``In[y + r]`` for each ``r``): jammed rows read one such row for
    several of them."""
    rows_iv = _iv(rows)
    loads = [op for op in body.ops if op.name == "affine.load" and op in body.needed]

    def partners(a: Operation, b: Operation) -> bool:
        if a is b or body.memref(a) is not body.memref(b):
            return False
        offsets = difference(body.access[a], body.access[b]).map.results
        if not all(e.is_constant for e in offsets):
            return False
        moved = [n for n, e in enumerate(offsets) if e.value != 0]
        return bool(moved) and all(_moves(body.access[a], n, rows_iv) for n in moved)

    return [a for a in loads if any(partners(a, b) for b in loads)]


def overlapping_loads(band: Sequence[Operation], loop: Operation | None) -> bool:
    """Whether two loads of the band read one row of a buffer the body does not write, at
    addresses that differ by a constant along the vector loop ``loop`` only (a stencil's
    neighbours ``X[i][j - 1]``, ``X[i][j + 1]``): vectorised, they overlap, and
    :mod:`transforms.load_rotation` loads each element once (jacobi-1d 1.8x)."""
    if loop is None:
        return False
    body = Body(band)
    iv = _iv(loop)
    written = {buffer_of(body.memref(op)) for op in body.stores()}
    loads = [
        op
        for op in body.ops
        if op.name == "affine.load"
        and op in body.needed
        and buffer_of(body.memref(op)) not in written
        and _contiguous(body.access[op], iv)
    ]
    for k, a in enumerate(loads):
        for b in loads[k + 1 :]:
            if body.memref(a) is not body.memref(b):
                continue
            gaps = difference(body.access[a], body.access[b]).map.results
            if (
                all(e.is_constant for e in gaps)
                and all(e.value == 0 for e in gaps[:-1])
                and gaps[-1].value != 0
            ):
                return True
    return False


def _rows_read(body: Body, memref: Value, tile: RegisterTile) -> int:
    """How many rows of ``memref`` (distinct outer subscripts) the tile's rows read in one
    iteration of the loops inside them: its loads at every row, those whose outer
    subscripts differ by constants counted once each."""
    rows = [0] if tile.rows is None else range(tile.row_factor)
    seen: set[tuple[int, ...]] = set()
    others = 0
    base: ValueMap | None = None
    for op in body.ops:
        if op.name != "affine.load" or op not in body.needed or body.memref(op) is not memref:
            continue
        for r in rows:
            access = body.access[op]
            if tile.rows is not None:
                moved = _shifted(_identity(_iv(tile.rows)), r)
                access = substitute_value(access, _iv(tile.rows), moved)
            m = access.map
            outer = ValueMap(
                AffineMap.get(m.num_dims, m.num_symbols, m.results[:-1]), access.operands
            )
            if base is None:
                base = outer
            offsets = difference(outer, base).map.results if m.num_results > 1 else []
            if all(e.is_constant for e in offsets):
                seen.add(tuple(e.value for e in offsets))
            else:
                others += 1
    return len(seen) + others


def _unshared_strided(
    band: Sequence[Operation], tile: RegisterTile, cache: int, l1: int
) -> Operation | None:
    """A load that a tile moving its reduction loop innermost makes walk memory by rows
    with no reuse: an outer subscript moves with the reduction loop, the tile's rows (if
    any) do not share the load, it is not read again at every iteration of a loop around
    the tile from a memref of at most half of ``cache`` bytes, the tile's rows do not read
    each of its rows again (:func:`_rows_reread`), and the lines the tile reads
    of it over the whole reduction loop exceed half of ``l1`` (or of ``cache``, when
    smaller: caches shrunk to stand for large data) (else the next group of
    vectors reads them again from L1: a convolution's rows of input, 2.05-2.2x); None when
    there is none (gemm's ``B[k][j]`` is shared by the rows of ``C``; doitgen's
    ``C4[s][p]``, 100 KiB, is read again for every ``r`` and ``q``: 15.7-18.9x with the
    tile against 12.4x without, while covariance's ``data[k][j]``, 6.6 MiB, ran 13.7x
    with it against 17.0x with cache tiles)."""
    if tile.reduction is None or tile.reduction is band[-1]:
        return None
    body = Body(band)
    reduction = _iv(tile.reduction)
    trip = constant_trip_count(tile.reduction)
    first = min(band.index(x) for x in tile.roles())
    around = [*band[:first], *(op for op in band[0].ancestors() if op.name == "affine.for")]
    for op in body.ops:
        if op.name != "affine.load" or op not in body.needed:
            continue
        access = body.access[op]
        outer = range(access.map.num_results - 1)
        if not any(_moves(access, n, reduction) for n in outer):
            continue
        memref = body.memref(op)
        if _bytes_of(memref) <= cache // 2 and any(
            _iv(loop) not in access.operands for loop in around
        ):
            continue  # read again from cache at every iteration of that loop
        if trip is not None:
            span = tile.vectors * tile.lanes * _bytes(memref.type.element_type)  # type: ignore[attr-defined]  # a memref's
            lines = trip * _rows_read(body, memref, tile) * -(-span // LINE_BYTES)
            if lines <= min(l1, cache) // LINE_BYTES // 2:
                continue  # the next group of vectors reads these lines again from L1
        rows = tile.rows
        if rows is None or any(_moves(access, n, _iv(rows)) for n in range(access.map.num_results)):
            if rows is not None and _rows_reread(body, memref, tile):
                continue  # the rows read each other's rows of it: a convolution's input
            return op
    return None


def _rows_reread(body: Body, memref: Value, tile: RegisterTile) -> bool:
    """Whether the tile's rows read each row of ``memref`` they read at least twice on
    average: its loads at every row touch at most half as many distinct rows as there are
    loads (a 3 x 3 convolution's input under 5 rows: 7 rows for 45 loads)."""
    loads = sum(
        1
        for op in body.ops
        if op.name == "affine.load" and op in body.needed and body.memref(op) is memref
    )
    return 2 * _rows_read(body, memref, tile) <= loads * tile.row_factor


def _bytes_of(memref: Value) -> int:
    """The bytes of a statically shaped memref (a huge number for any other)."""
    t = memref.type
    if not isinstance(t, MemRefType) or not t.has_static_shape:
        return 2**62
    return math.prod(t.shape) * _bytes(t.element_type)


def tile_pays(
    band: Sequence[Operation], tile: RegisterTile, cache: int | None = None, l1: int | None = None
) -> str | None:
    """None when ``tile`` is expected to run faster than the band as LLVM compiles it, else
    why not. Measured here (docs/performance.md): a tile pays when it holds accumulators
    in registers (a reduction loop: matmul-like and matrix-vector bands, 1.5-47x), its
    jammed rows share loads (:func:`shared_rows`: jacobi-2d 1.3-1.4x) or its vectors load
    overlapping data that :mod:`transforms.load_rotation` reads once
    (:func:`overlapping_loads`: jacobi-1d 1.7x, fdtd-2d 1.4x in time tiles); rows jammed without
    either only unroll what LLVM vectorises already (deriche 0.84x), one scalar
    accumulator alone gains nothing (gramschmidt 0.89-0.94x, doitgen's source order 0.90x),
    nor rows of scalar sums over a reduction LLVM unrolls whole, after which it vectorises
    the rows' loop itself (:func:`~transforms.loop_utils.vectorised_once_unrolled`: a
    decimating FIR filter's 32 taps, 0.44x),
    and a reduction moved innermost that reads memory by rows with no reuse is slower
    (atax's ``A^T x``, 0.82x), but for integers (:func:`_integer_accumulators`: nussinov's
    ``max`` chain 1.28x)."""
    if cache is None or l1 is None:
        machine = detect()
        cache = machine.l2 if cache is None else cache
        l1 = machine.l1 if l1 is None else l1
    strided = _unshared_strided(band, tile, cache, l1)
    if strided is not None and tile.reduction is not None:
        return (
            f"the reduction {where(tile.reduction)} innermost would read {where(strided)} "
            "by rows with no reuse"
        )
    if tile.rows is None and tile.vector is None:
        if tile.reduction is not None and _integer_accumulators(band, tile.reduction):
            return None
        return "one scalar accumulator: a single dependence chain, as in the original"
    if (
        tile.vector is None
        and tile.reduction is not None
        and vectorised_once_unrolled(tile.reduction)
    ):
        return (
            f"rows of scalar sums over {where(tile.reduction)}, which LLVM unrolls whole and "
            "then vectorises the rows' loop itself"
        )
    if tile.reduction is not None or shared_rows(band, tile):
        return None
    if overlapping_loads(band, tile.vector):
        return None
    return (
        "no accumulator to hold, not enough loads shared between the jammed rows and no "
        "overlapping loads along the vector loop"
    )


def _integer_accumulators(band: Sequence[Operation], reduction: Operation) -> bool:
    """Whether every value held along ``reduction`` is an integer: an integer update takes
    one cycle, so the store-to-load round trip through memory (several) is most of the
    chain, which a register removes; a floating-point add's own latency is most of it."""
    body = Body(band)
    stores = [op for group in held_groups(body, reduction) for op in group]
    types = [getattr(body.memref(op).type, "element_type", None) for op in stores]
    return bool(types) and all(isinstance(t, (IntegerType, IndexType)) for t in types)


def fma_pays(tile: RegisterTile) -> bool:
    """Whether ``tile`` is bound by multiply-add throughput, where a fused multiply-add
    doubles the peak: rows of vectors of accumulators (gemm 105 GFLOP/s with, about half
    without). A fused multiply-add rounds once where the original rounds twice, which on
    sums with cancellation (covariance) moves results by more than 1e-4 relative, so
    elsewhere the original's two roundings are kept."""
    return tile.rows is not None and tile.vector is not None and tile.reduction is not None


def fuse_multiply_adds(tile: RegisterTile) -> bool:
    """Whether the auto-scheduler fuses ``tile``'s multiply-adds: where they pay
    (:func:`fma_pays`) and the vector range does not move with the rows. Triangles hold the
    symmetric products of covariance and correlation, whose sums cancel: fused, their
    checksums moved by 3e-3 relative at LARGE sizes; unfused, the same tiles ran 16.3
    against 15.4 ms (covariance), syrk 14.7 against 13.7 and syr2k 29.6 against 31.8."""
    if not fma_pays(tile):
        return False
    assert tile.vector is not None and tile.rows is not None  # as fma_pays requires
    return row_bound(tile.vector, tile.rows) is None


def cache_tiles_beneath(
    band: Sequence[Operation], tile: RegisterTile, machine: Machine
) -> tuple[list[int], tuple[int, ...]] | str:
    """Sizes and point order (:func:`poly.tile_model.choose_tile_sizes` for the L2 cache) of
    cache tiles to put beneath ``tile``, or why there are none. They pay where the tile
    holds rows of vectors of accumulators (a matrix product's) and an array read again by
    every group of rows (its index does not involve the rows loop: gemm's ``B[k][j]``)
    takes more than half of L2, so that each group of rows would read it from beyond L2:
    gemm's 4 x 3 x 8 tile ran 52 GFLOP/s alone and 70 under tiles of 16 x 32 x 1100 where
    L2 is 512 KiB. The rows loop's size is a multiple of the tile's rows and the vector
    loop's of its width, so that every tile runs whole register tiles (a 5-row tile
    under 32-row cache tiles left 2 rows to a slower tail: 97 against 105 GFLOP/s)."""
    if not fma_pays(tile):
        return "not a tile of rows of vector accumulators"
    assert tile.rows is not None and tile.vector is not None
    body = Body(band)
    rows = _iv(tile.rows)
    try:
        footprints, _ = loop_footprints(band[0])
    except ModelError as e:
        return f"no footprint: {e}"
    reread = None
    for op in body.ops:
        if op.name != "affine.load" or op not in body.needed or rows in body.access[op].operands:
            continue
        memref = buffer_of(body.memref(op))
        footprint = footprints.get(memref)
        box = None if footprint is None else bounding_box(footprint.region)
        if box is None or isinstance(box, str) or not isinstance(memref.type, MemRefType):
            continue
        if box.volume * element_bytes(memref.type) > machine.l2 // 2:
            reread = op
            break
    if reread is None:
        return "every array read again by each group of rows fits in half of L2"
    choice = choose_tile_sizes(band, machine.l2)
    sizes = list(choice.sizes)
    trips = [trip_bound(loop) for loop in band]
    for loop, width in ((tile.rows, tile.row_factor), (tile.vector, tile.vector_width)):
        k = band.index(loop)
        trip = trips[k]
        if trip is None or sizes[k] < trip:
            sizes[k] = max(width, sizes[k] // width * width)
    if all(t is not None and s >= t for s, t in zip(sizes, trips)):
        return f"the band's data fits in L2 ({choice.reason})"
    return sizes, choice.order


def distribute_for_register_tiles(
    function: Operation,
    machine: Machine,
    pays: Callable[[Sequence[Operation], RegisterTile], str | None] | None = None,
) -> None:
    """Distribute ``function``'s imperfect loops where legal and :func:`_worth` it: where a
    part becomes a perfect band with a register tile (that ``pays``), at no second pass
    over data beyond the L2 cache unless a tile is vectorised."""
    distribute_imperfect_loops(function, lambda loop, groups: _worth(loop, groups, machine, pays))


def _cache_tile_bands(
    function: Operation,
    machine: Machine,
    rows: int | None,
    vectors: int | None,
    pays: Callable[[Sequence[Operation], RegisterTile], str | None] | None,
) -> list[str]:
    """Put the cache tiles of :func:`cache_tiles_beneath` on every innermost band of
    ``function`` whose register tile would pay, where tiling the band is legal; per band
    tiled, what was done."""
    done = []
    for band in innermost_bands(function):
        plan = plan_register_tile(band, machine, rows, vectors)
        if isinstance(plan, Verdict) or (pays is not None and pays(band, plan) is not None):
            continue
        tiles = cache_tiles_beneath(band, plan, machine)
        if isinstance(tiles, str) or not check_tiling(band, analysis_of(function)):
            continue
        sizes, order = tiles
        described = f"cache tiles of band at {where(band[0])}: {' x '.join(map(str, sizes))}"
        try:
            tile_with_model_order(band, sizes, order, separate=False)
        except TransformError:
            continue
        done.append(described + f" beneath a register tile of {plan.describe()}")
    return done


def shared_vector_loads(body: Body, vector: Operation, loop: Operation) -> int:
    """How many of the body's vector loads (moving along the ``vector`` loop) stay put
    along ``loop``: loaded once for all of a tile's rows when ``loop`` is its rows loop."""
    vector_iv, iv = _iv(vector), _iv(loop)
    return sum(
        1
        for op in body.access
        if op.name == "affine.load"
        and op in body.needed
        and body.varies(op, vector_iv)
        and not body.varies(op, iv)
    )


def _moves_held(body: Body, reduction: Operation, loop: Operation) -> bool:
    """Whether every address the body holds across ``reduction`` moves along ``loop`` (so
    rows of ``loop`` hold accumulators of their own)."""
    iv = _iv(loop)
    return all(iv in body.access[ops[0]].operands for ops in held_groups(body, reduction))


def rows_reordered(function: Operation, machine: Machine) -> list[str]:
    """Reorder, where legal, every innermost band whose register tile (rows, vectors and a
    reduction) would take its rows along a loop that shares fewer vector loads between
    rows than another loop outside the tile does (:func:`shared_vector_loads`): that loop
    moves in, right outside the vector and reduction loops, to be the rows loop. A
    pointwise convolution ``Out[f][y][x] += W[f][c] * In[c][y][x]`` written ``f, c, y, x``
    took rows along ``y``, each loading its own ``In`` (refused as a walk by rows with no
    reuse, 1.00x at 64 x 64 x 128^2); along ``f`` one vector of ``In`` serves every row, as
    ``B[k][j]`` does in gemm. Only loops that move every held address can be rows: MTTKRP,
    ``A[i][r] += X[i][j][k] * B[j][r] * C[k][r]``, took rows along ``j``, a second
    reduction loop (its rows would share one accumulator: refused); with ``i`` moved inside
    ``j`` it ran 4.05x at 256 x 128 x 128 x 64 (1.0x before). Returns what was moved."""
    done = []
    for band in innermost_bands(function):
        tile = plan_register_tile(band, machine)
        if (
            isinstance(tile, Verdict)
            or tile.rows is None
            or tile.vector is None
            or tile.reduction is None
        ):
            continue
        body = Body(band)
        inside = (tile.vector, tile.reduction)
        outside = [
            x
            for x in band
            if x not in inside and ForOp(x).step == 1 and _moves_held(body, tile.reduction, x)
        ]
        if not outside:
            continue
        shared = {x: shared_vector_loads(body, tile.vector, x) for x in [*outside, tile.rows]}
        best = max(outside, key=lambda x: (shared[x], band.index(x)))
        if tile.rows in outside and shared[best] <= shared[tile.rows]:
            continue
        order = [x for x in band if x is not best and x not in inside] + [best]
        order += [x for x in band if x in inside]
        permutation = [order.index(x) for x in band]
        if not check_permutation(list(band), permutation, analysis_of(function)):
            continue
        described = (
            f"{where(best)} moved inside, next to the register tile's vector loop, as its rows"
        )
        try:
            permute_band(band, permutation)
        except TransformError:
            continue
        done.append(described)
    return done


SHORT_REDUCTION = 8  # a second reduction loop this short is unrolled into the tile's body


def fold_short_reductions(band: Sequence[Operation]) -> list[str]:
    """Unroll fully, and jam into the loops inside, every loop of ``band`` but the longest
    along which the body stores to an invariant address (a reduction loop) that runs at most
    :data:`SHORT_REDUCTION` times, innermost first, where legal (the stores to each address
    keep their order; a loop whose IV bounds a loop inside, a tile's, is none): a register
    tile holds its accumulators across one reduction loop, and a convolution's
    ``O[i][j] += I[i + p][j + q] * W[p][q]`` has two (with ``q``
    unrolled, 4096^2 by a 5 x 3 filter ran 2.05x, rows ``i`` and vectors along ``j`` held
    across ``p``; without, the tile jammed rows of ``p`` and was refused). Returns what was
    unrolled."""
    body = _body_or_verdict(band)
    if isinstance(body, Verdict):
        return []
    trips = {loop: constant_trip_count(loop) for loop in band}
    reductions = [
        loop
        for loop in band
        if trips[loop]
        and held_groups(body, loop)
        and not any(_bounds_use(inner, [loop]) for inner in band)  # a tile's, not a reduction
    ]
    if len(reductions) < 2:
        return []
    longest = max(reductions, key=lambda loop: trips[loop] or 0)
    function = enclosing_function(band[0])
    if function is None:
        return []
    outer = band[0].parent_op
    entry = function.regions[0].blocks[0]
    present = {id(op) for op in entry.operations}
    done = []
    for loop in reversed(reductions):
        trip = trips[loop] or 0
        if loop is longest or trip > SHORT_REDUCTION:
            continue
        if not check_unroll_and_jam(loop, trip, analysis_of(function)):
            continue
        described = f"{where(loop)} unrolled into the body ({trip} iterations)"
        try:
            unroll_and_jam_loop(loop, trip)
        except TransformError:
            continue
        done.append(described)
    if done and outer is not None:
        canonicalize_affine_ops(outer)  # the IV of the promoted copy, a constant, folded
        for op in list(entry.operations):  # and the constant then unused
            if id(op) not in present and op.name == "arith.constant":
                if not uses_of(function, op.results[0]):
                    op.erase()
    return done


def register_tile_function(
    function: Operation,
    machine: Machine,
    context: PassContext,
    rows: int | None = None,
    vectors: int | None = None,
    fma: bool | Callable[[RegisterTile], bool] = True,
    pack: bool = True,
    distribute: bool = True,
    pays: Callable[[Sequence[Operation], RegisterTile], str | None] | None = None,
    cache_tiles: bool = False,
) -> list[str]:
    """Register-tile ``function`` in place: every innermost perfect band (after
    distributing imperfect nests where legal and :func:`_worth` it, with ``distribute``)
    becomes the tile :func:`plan_register_tile` plans where :func:`check_register_tile`
    finds it legal and ``pays`` (when given) has no objection; the others get a remark.
    ``fma`` says, for all tiles or per tile, whether multiply-adds are fused. With
    ``cache_tiles``, bands first get the cache tiles :func:`cache_tiles_beneath` finds
    worth it, where tiling is legal, and the tiles' point loops are register-tiled. Returns,
    per band tiled, where it is and its tile (:meth:`RegisterTile.describe`)."""
    if distribute:
        distribute_for_register_tiles(function, machine, pays)
    done = rows_reordered(function, machine)
    if cache_tiles:
        done += _cache_tile_bands(function, machine, rows, vectors, pays)
    for band in innermost_bands(function):
        done += fold_short_reductions(band)
    analysis = analysis_of(function)
    for band in innermost_bands(function):
        what = "loop band not register-tiled"
        plan = plan_register_tile(band, machine, rows, vectors)
        if isinstance(plan, Verdict):
            refuse(context, band[0], what, plan.reason)
            continue
        verdict = check_register_tile(band, plan, analysis)
        if not verdict:
            refuse(context, band[0], what, verdict.reason)
            continue
        objection = pays(band, plan) if pays is not None else None
        if objection is not None:
            refuse(context, band[0], what, objection)
            continue
        fused = fma(plan) if callable(fma) else fma
        described = f"register tile of band at {where(band[0])}: {plan.describe()}"
        if fused:
            described += ", fused multiply-adds"
        rewrite = functools.partial(register_tile_band, band, plan, fused, pack)
        if attempt(context, band[0], what, rewrite):
            done.append(described)
    return done


__all__ = [
    "Body",
    "RegisterTile",
    "RegisterTilePass",
    "RowBound",
    "buffer_of",
    "check_register_tile",
    "distribute_for_register_tiles",
    "fma_pays",
    "fold_short_reductions",
    "fuse_multiply_adds",
    "held_groups",
    "innermost_bands",
    "jammed_rows",
    "nonempty_condition",
    "overlapping_loads",
    "plan_register_tile",
    "register_order",
    "register_tile_band",
    "register_tile_function",
    "reread_beyond",
    "row_bound",
    "rows_beside_broadcasts",
    "shared_rows",
    "tile_pays",
    "tile_shape",
    "vector_blocker",
]
