"""Choosing tile sizes and the loop order inside a tile, from the data a tile touches.

The *footprint* of a tile is, per memref, the bounding box of the elements its accesses
touch during one tile (the box of a middle tile of the iteration space; loops inside the
band run in full), times the element size. The model grows the tile (doubling one size
at a time, the one that improves reuse — iterations per byte of footprint — the most)
while the footprint stays within the cache budget, so that a tile's data is loaded once
and reused from cache. Sizes never exceed a loop's trip count.

The order of the loops inside a tile puts innermost the loop along which the most
accesses are contiguous (unit stride in the last memref dimension) or invariant, so that
the innermost loop streams through memory and vectorises; this is free to choose when the
band is fully permutable, which tiling requires anyway. That loop's tile is made long
first (long vector loops, few tile-boundary overheads), then the others grow.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import islpy as isl

from affine.dialects.affine_dialect import ForOp, IfOp
from affine.ir.core import Operation, Value
from affine.ir.strides import row_major_strides, strides_and_offset
from affine.ir.types import DYNAMIC, FloatType, IndexType, IntegerType, MemRefType
from poly.context import isl_context
from poly.deps import NONE, UNKNOWN, AnalysisWarning, DependenceAnalysis
from poly.model import Access, Model, build_model
from poly.space import unit_step_map

TYPICAL_PARAMETER = 1024  # the value a symbolic size is assumed to have when sizing tiles
CACHE_OCCUPANCY = 0.5  # the share of the cache a tile's data may fill (room for conflicts)
VECTOR_WIDTH = 8  # f32 lanes of a 256-bit vector: a shorter carried flow blocks vectorising
INNER_SHARE = 8  # the innermost loop alone may take up to 1/INNER_SHARE of that budget


@dataclass(frozen=True)
class TileChoice:
    sizes: tuple[int, ...]
    order: tuple[int, ...]  # the band's loops (positions) inside a tile, outermost first
    footprint: int  # bytes one tile touches
    reason: str


def assumed_shape(t: MemRefType) -> tuple[int, ...]:
    """``t``'s shape with each unknown (``?``) extent at :data:`TYPICAL_PARAMETER`."""
    return tuple(TYPICAL_PARAMETER if d == DYNAMIC else d for d in t.shape or ())


def memref_bytes(t: MemRefType) -> int:
    """The bytes of a memref of type ``t`` (unknown extents as in :func:`assumed_shape`)."""
    return math.prod(assumed_shape(t)) * element_bytes(t)


def element_bytes(t: MemRefType) -> int:
    e = t.element_type
    if isinstance(e, IndexType):
        return 8
    if isinstance(e, (IntegerType, FloatType)):
        return max(1, math.ceil(e.width / 8))
    return 8


def assumed_strides(t: MemRefType) -> list[int] | None:
    """Elements between consecutive indices of each of ``t``'s dimensions, unknown extents
    as in :func:`assumed_shape`; None for a layout with unknown strides or none at all."""
    if not t.layout:
        return row_major_strides(assumed_shape(t))
    layout = strides_and_offset(t)
    if layout is None or DYNAMIC in layout[0]:
        return None
    return layout[0]


def most_lines_in_a_set(ranges: Iterable[tuple[Hashable, int, int]], line: int, span: int) -> int:
    """The most distinct cache lines that byte ranges of arrays (``(array, start, length)``)
    put into one set of a cache whose addresses ``span`` bytes apart (its size over its
    ways) share a set, every array's start aligned to ``span``: large arrays start at the
    same offset in a page, so rows of the same shape and index fall into the same sets.
    More lines than the cache has ways evict one another however small the total: rows of
    4096 bytes jammed into 22 streams ran a 3-D stencil 0.57x, 10 streams 1.19x."""
    sets = max(1, span // line)
    lines: dict[int, set[tuple[Hashable, int]]] = {}
    for array, start, length in ranges:
        for n in range(start // line, (start + max(1, length) - 1) // line + 1):
            lines.setdefault(n % sets, set()).add((array, n))
    return max((len(v) for v in lines.values()), default=0)


def _function(op: Operation) -> Operation:
    while op.parent_op is not None and op.name != "func.func":
        op = op.parent_op
    return op


class _BandData:
    """The accesses inside a band, each restricted to a middle tile of given sizes (in
    iterations, as the tiler takes them: a loop of step ``s`` spans ``size * s`` values)."""

    def __init__(self, band: Sequence[Operation], model: Model) -> None:
        self.band = list(band)
        self.steps = [ForOp(loop).step for loop in band]
        self.accesses = [a for a in model.accesses if band[0] in a.statement.loops]
        self.names: list[str] = []
        if self.accesses:
            scope = self.accesses[0].statement.scope
            self.names = [scope.iv_name(loop.regions[0].blocks[0].arguments[0]) for loop in band]
        self.trip = [self._extent(k) for k in range(len(band))]

    def _range(self, k: int) -> tuple[int, int] | None:
        if not self.names:
            return None
        name = self.names[k]
        for a in self.accesses:
            domain = _fixed(a.statement.domain)
            if name not in a.statement.iv_names:
                continue
            position = a.statement.iv_names.index(name)
            low = domain.dim_min_val(position) if hasattr(domain, "dim_min_val") else None
            if low is None:
                aff = isl.Aff.var_on_domain(
                    isl.LocalSpace.from_space(domain.get_space()), isl.dim_type.set, position
                )
                low, high = domain.min_val(aff), domain.max_val(aff)
            else:
                high = domain.dim_max_val(position)
            if low.is_int() and high.is_int():
                return low.to_python(), high.to_python()
        return None

    def _extent(self, k: int) -> int:
        span = self._range(k)
        return TYPICAL_PARAMETER if span is None else (span[1] - span[0]) // self.steps[k] + 1

    def footprint(self, sizes: Sequence[int]) -> int:
        """Bytes touched by a middle tile of ``sizes``."""
        images: dict[str, tuple[isl.Set, int]] = {}
        for a in self.accesses:
            domain = _fixed(a.statement.domain)
            names = a.statement.iv_names
            ctx = isl_context()
            # Loops outside the band sit at a middle iteration; band loops span a tile.
            for position, name in enumerate(names):
                if name in self.names:
                    k = self.names.index(name)
                    span, length = self._range(k), sizes[k] * self.steps[k]
                    start = 0 if span is None else (span[0] + span[1] + 1 - length) // 2
                    start = max(start, 0 if span is None else span[0])
                    aff = isl.Aff.var_on_domain(
                        isl.LocalSpace.from_space(domain.get_space()), isl.dim_type.set, position
                    )
                    window = aff.ge_set(
                        isl.Aff.val_on_domain(
                            isl.LocalSpace.from_space(domain.get_space()),
                            isl.Val.int_from_si(ctx, start),
                        )
                    ).intersect(
                        aff.lt_set(
                            isl.Aff.val_on_domain(
                                isl.LocalSpace.from_space(domain.get_space()),
                                isl.Val.int_from_si(ctx, start + length),
                            )
                        )
                    )
                    domain = domain.intersect(window)
                elif _outside_band(a, name, self.band):
                    middle = self._middle(domain, position)
                    domain = domain.fix_val(
                        isl.dim_type.set, position, isl.Val.int_from_si(ctx, middle)
                    )
            image = a.relation.intersect_domain(domain.align_params(a.relation.get_space())).range()
            image = _fixed(image)
            bytes_each = element_bytes(a.memref.type)  # type: ignore[arg-type]  # accesses of the model are to memrefs
            if a.memref_name in images:
                previous, _ = images[a.memref_name]
                image = previous.union(image)
            images[a.memref_name] = (image, bytes_each)
        total = 0
        for image, bytes_each in images.values():
            total += _box_volume(image) * bytes_each
        return total

    def _middle(self, domain: isl.Set, position: int) -> int:
        aff = isl.Aff.var_on_domain(
            isl.LocalSpace.from_space(domain.get_space()), isl.dim_type.set, position
        )
        low, high = domain.min_val(aff), domain.max_val(aff)
        if low.is_int() and high.is_int():
            return (low.to_python() + high.to_python()) // 2
        return 0


def _outside_band(a: Access, name: str, band: Sequence[Operation]) -> bool:
    """Whether IV ``name`` belongs to a loop around the band (not one inside it)."""
    scope = a.statement.scope
    for loop in a.statement.loops:
        if loop is band[0]:
            return False
        ivs = loop.regions[0].blocks[0].arguments
        if any(scope.iv_name(iv) == name for iv in ivs[:1] if loop.name == "affine.for"):
            return True
        if loop.name == "affine.parallel" and any(scope.iv_name(iv) == name for iv in ivs):
            return True
    return False


def _box_volume(image: isl.Set) -> int:
    """Elements in the bounding box of ``image`` (0 when empty)."""
    if image.is_empty():
        return 0
    volume = 1
    n = image.dim(isl.dim_type.set)
    for k in range(n):
        aff = isl.Aff.var_on_domain(
            isl.LocalSpace.from_space(image.get_space()), isl.dim_type.set, k
        )
        low, high = image.min_val(aff), image.max_val(aff)
        if not (low.is_int() and high.is_int()):
            return TYPICAL_PARAMETER**n
        volume *= high.to_python() - low.to_python() + 1
    return volume


def _position(a: Access, loop: Operation) -> int | None:
    """The position of ``loop``'s IV among those of ``a``'s statement (None: not one)."""
    name = a.statement.scope.iv_name(loop.regions[0].blocks[0].arguments[0])
    names = a.statement.iv_names
    return names.index(name) if name in names else None


def contiguity_order(band: Sequence[Operation], model: Model | None = None) -> tuple[int, ...]:
    """The band's loops ordered so that the innermost is the one along which most accesses
    are unit-stride or read-invariant, and few are strided or write the same element again
    (the others keep their order)."""
    model = model or _model(band)
    scores = [0.0] * len(band)
    for a in [x for x in model.accesses if band[0] in x.statement.loops]:
        for k, loop in enumerate(band):
            position = _position(a, loop)
            if position is None:
                continue
            stride = _last_dim_stride(a, position)
            if stride == 0:
                # an element read again is free; one written again chains the iterations
                # (a reduction does not vectorise without reassociation)
                scores[k] += -2.0 if a.is_write else 1.0
            elif stride in (1, -1):
                scores[k] += 2.0
            else:
                scores[k] -= 1.0
    best = max(range(len(band)), key=lambda k: (scores[k], k))
    return tuple([k for k in range(len(band)) if k != best] + [best])


def coordinate_moves(a: Access, position: int) -> tuple[int, ...] | None:
    """How far each coordinate of the element ``a`` touches moves when IV ``position``
    grows by one; None when a move varies or the access runs only once along it."""
    relation = a.relation
    n_out = relation.dim(isl.dim_type.out)
    if n_out == 0:
        return ()
    n_in = relation.dim(isl.dim_type.in_)
    step = unit_step_map(n_in, position)
    step = step.set_tuple_id(isl.dim_type.in_, relation.get_tuple_id(isl.dim_type.in_))
    step = step.set_tuple_id(isl.dim_type.out, relation.get_tuple_id(isl.dim_type.in_))
    pairs = relation.reverse().apply_range(step).apply_range(relation)  # e -> e' one step on
    if pairs.is_empty():
        return None
    deltas = pairs.deltas()
    moves = []
    for k in range(n_out):
        aff = isl.Aff.var_on_domain(
            isl.LocalSpace.from_space(deltas.get_space()), isl.dim_type.set, k
        )
        low, high = deltas.min_val(aff), deltas.max_val(aff)
        if not (low.is_int() and high.is_int() and low.to_python() == high.to_python()):
            return None
        moves.append(low.to_python())
    return tuple(moves)


def _last_dim_stride(a: Access, position: int) -> int | None:
    """How far the element moves in memory order when IV ``position`` grows by one: 0
    (same element), the step of the last coordinate when only that one moves, and None
    when an outer coordinate moves (a stride of at least a row) or it varies."""
    moves = coordinate_moves(a, position)
    if moves is None or any(moves[:-1]):
        return None
    return moves[-1] if moves else 0


def _model(band: Sequence[Operation]) -> Model:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnalysisWarning)
        return build_model(_function(band[0]))


def choose_tile_sizes(
    band: Sequence[Operation], cache_bytes: int, model: Model | None = None
) -> TileChoice:
    """Tile sizes (powers of two, at most each trip count) whose footprint fits in
    ``cache_bytes * CACHE_OCCUPANCY``, chosen greedily for the most reuse."""
    model = model or _model(band)
    data = _BandData(band, model)
    budget = cache_bytes * CACHE_OCCUPANCY
    order = contiguity_order(band, model)
    sizes = [1] * len(band)
    # The innermost loop of a tile streams through memory: keep it long (the whole loop
    # when its data takes at most an eighth of the budget), then grow the others.
    inner = order[-1]
    while sizes[inner] < data.trip[inner]:
        trial = list(sizes)
        trial[inner] = min(sizes[inner] * 2, data.trip[inner])
        if data.footprint(trial) > budget / INNER_SHARE:
            break
        sizes = trial
    footprint = data.footprint(sizes)
    while True:
        best: tuple[float, int, int] | None = None
        for k in range(len(band)):
            if sizes[k] >= data.trip[k]:
                continue
            trial = list(sizes)
            trial[k] = min(sizes[k] * 2, data.trip[k])
            fp = data.footprint(trial)
            if fp > budget:
                continue
            reuse = math.prod(trial) / max(fp, 1)
            key = (reuse, -fp, k)
            if best is None or key > best:
                best = (reuse, -fp, k)
        if best is None:
            break
        k = best[2]
        sizes[k] = min(sizes[k] * 2, data.trip[k])
        footprint = data.footprint(sizes)
    reason = (
        f"tiles of {'x'.join(map(str, sizes))} touch {footprint} bytes "
        f"(budget {int(budget)} of a {cache_bytes}-byte cache)"
    )
    return TileChoice(tuple(sizes), order, footprint, reason)


STRIDED_COST = 8.0  # an access that moves a whole row per iteration, against 1 for a stride-1 one
REDUCTION_COST = 7.0  # a write of the same element on every iteration: a chain LLVM keeps
# scalar; a little under a strided access (a matrix-vector row, reduced in memory, ran 6x
# faster here than the same loops reading the matrix down its columns)


def _model_of(function: Operation) -> Model:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnalysisWarning)
        return build_model(function)


def _op_key(op: Operation) -> object:
    """An access op's identity across clones and rescheduling: its source position."""
    loc = op.loc
    return (getattr(loc, "line", None), getattr(loc, "column", None)) if loc else id(op)


def instance_counts(function: Operation) -> dict[object, int]:
    """Per access op (by source position): how many times it runs, over the bounding box
    of its statement's domain (parameters at :data:`TYPICAL_PARAMETER`)."""
    return {
        _op_key(a.op): _box_volume(_fixed(a.statement.domain)) if a.statement.iv_names else 1
        for a in _model_of(function).accesses
    }


def _unit_cost(a: Access, position: int | None) -> float:
    """One run of access ``a`` when the loop of IV ``position`` (None: no loop) is
    innermost: 0 reading the same element again, 1 stride-1, :data:`STRIDED_COST` moving
    by rows, :data:`REDUCTION_COST` writing the same element again (a reduction in memory:
    it does not vectorise without reassociation; syrk with ``k`` innermost ran 0.89x)."""
    stride = 0 if position is None else _last_dim_stride(a, position)
    if stride == 0:
        return REDUCTION_COST if a.is_write else 0.0
    return 1.0 if stride in (1, -1) else STRIDED_COST


def _transposed_unit_cost(a: Access, position: int | None) -> float:
    """One run of read ``a`` when the loop of IV ``position`` is innermost and the array is
    read from a copy laid out with the coordinate that loop moves last: stride-1 wherever
    one coordinate moves by one, whichever it is."""
    moves = None if position is None else coordinate_moves(a, position)
    moving = [m for m in moves or () if m]
    if len(moving) == 1 and abs(moving[0]) == 1:
        return 1.0
    return _unit_cost(a, position)


def cheapest_innermost(
    band: Sequence[Operation],
    model: Model,
    counts: Mapping[object, int] | None = None,
    transposing: bool = False,
) -> int:
    """The position in ``band`` of the loop whose being innermost makes the accesses
    inside the band cheapest (:func:`access_cost`'s units, runs by ``counts``); the
    innermost one on ties. With ``transposing``, arrays of rank 2 or more the band only
    reads are priced as read from transposed copies
    (:mod:`transforms.transposed_copy`), which a caller must then make or price again."""
    accesses = [a for a in model.accesses if band[0] in a.statement.loops]
    written = {a.memref for a in accesses if a.is_write}

    def transposable(a: Access) -> bool:
        t = a.memref.type
        return (
            transposing
            and not a.is_write
            and a.memref not in written
            and isinstance(t, MemRefType)
            and len(t.shape) >= 2
        )

    costs = []
    for loop in band:
        total = 0.0
        for a in accesses:
            unit_cost = _transposed_unit_cost if transposable(a) else _unit_cost
            total += unit_cost(a, _position(a, loop)) * (counts or {}).get(_op_key(a.op), 1)
        costs.append(total)
    return min(range(len(band)), key=lambda k: (costs[k], -k))


LINE_BYTES = 64  # a cache line
CROSSING_TILE = 32  # a 4096 x 4000 f32 transpose, 256-bit AVX2: tiles of 32 x 32 ran 4.2x,
# 16 x 64 1.6x, 64 x 64 1.4x, the capacity model's 8 x 4000 1.0x (a new line and page per store)


def crossing_accesses(band: Sequence[Operation], model: Model) -> list[tuple[Access, int]]:
    """The accesses inside ``band`` that its innermost loop moves by rows (a new cache line
    on every iteration) and that another loop of the band moves along a row one element at
    a time, with that loop's position in the band: a transpose's, which no loop order makes
    stride-1 on both sides, and whose lines a tile of both loops uses again."""
    found = []
    for a in model.accesses:
        if band[0] not in a.statement.loops:
            continue
        inner = _position(a, band[-1])
        moves = None if inner is None else coordinate_moves(a, inner)
        if not moves or not any(moves[:-1]):
            continue
        for k, loop in enumerate(band[:-1]):
            position = _position(a, loop)
            if position is not None and _last_dim_stride(a, position) in (1, -1):
                found.append((a, k))
                break
    return found


ASSUMED_WAYS = 8  # the fewest ways a cache is taken to have, for the sets a stride reaches


def crossed_lines_kept(a: Access, inner: Operation, trip: int, cache_bytes: int) -> bool:
    """Whether the lines a crossing access (:func:`crossing_accesses`) meets in one run of
    ``inner`` (``trip`` iterations, a line each) stay in a cache of ``cache_bytes`` until the
    loop around comes back to them: they fill at most :data:`CACHE_OCCUPANCY` of the part of
    it their stride reaches. A stride of ``2^v`` whole lines reaches ``1 / 2^v`` of the sets
    (rows a power of two long fall into a few); False when the stride is unknown. The
    source's order then already reuses each line from that cache, and tiles of both loops
    win or lose a little by shape and direction (f32 transposes: 0.44x at 3000^2 read
    backwards, 0.87-1.08x at 4000^2, 1.11x for ``A + A^T`` at 5000^2), against 7x at
    4096^2, whose rows of 16 KiB reach 4 of 1024 sets."""
    t = a.memref.type
    position = _position(a, inner)
    moves = None if position is None else coordinate_moves(a, position)
    if not moves or not isinstance(t, MemRefType):
        return False
    layout = strides_and_offset(t)
    if layout is None or DYNAMIC in layout[0]:
        return False
    stride = abs(sum(m * s for m, s in zip(moves, layout[0], strict=True))) * element_bytes(t)
    lines = cache_bytes // LINE_BYTES
    reached = lines
    if stride and stride % LINE_BYTES == 0:
        power = (stride // LINE_BYTES) & -(stride // LINE_BYTES)  # its largest power of two
        reached = max(ASSUMED_WAYS, lines // power)
    return trip <= reached * CACHE_OCCUPANCY


def crossing_saving(
    accesses: Sequence[Access], size: int, counts: Mapping[object, int] | None = None
) -> float:
    """How much cheaper, in :func:`access_cost`'s units, ``accesses`` (crossing ones, see
    :func:`crossing_accesses`) run in tiles ``size`` long in both their loops: each line
    then serves ``min(size, elements per line)`` runs, which cost
    ``STRIDED_COST / that`` each (at least a stride-1 run's 1) instead of
    :data:`STRIDED_COST`."""
    saving = 0.0
    for a in accesses:
        t = a.memref.type
        per_line = LINE_BYTES // element_bytes(t) if isinstance(t, MemRefType) else 1
        tiled = max(1.0, STRIDED_COST / max(1, min(size, per_line)))
        saving += (STRIDED_COST - tiled) * (counts or {}).get(_op_key(a.op), 1)
    return saving


def _innermost_position(a: Access) -> int | None:
    """The position, among the IVs of ``a``'s statement, of its innermost loop's (None: it
    is in no loop)."""
    s = a.statement
    if not s.loops:
        return None
    name = s.scope.iv_name(s.loops[-1].regions[0].blocks[0].arguments[-1])
    return s.iv_names.index(name) if name in s.iv_names else None


def access_cost(function: Operation, counts: Mapping[object, int] | None = None) -> float:
    """The memory cost the innermost loops of ``function`` imply: each access costs, per
    run, what :func:`_unit_cost` says for its innermost loop. Runs are ``counts`` of the op's source
    position (:func:`instance_counts` of the source function: a rescheduled function runs
    the same instances), copies of one access averaged. It compares loop orders of one
    function: lower is better; tiling does not change it."""
    counts = counts if counts is not None else instance_counts(function)
    per_op: dict[object, list[float]] = {}
    for a in _model_of(function).accesses:
        per_op.setdefault(_op_key(a.op), []).append(_unit_cost(a, _innermost_position(a)))
    return sum(counts.get(k, 1) * sum(u) / len(u) for k, u in per_op.items())


def _splits_body(loop: Operation) -> bool:
    """Whether ``loop``'s body holds a loop or a guard, apart from guards with an equality
    on ``loop``'s IV (they hold on one iteration, peeled off, and leave the body whole)."""
    iv = loop.regions[0].blocks[0].arguments[0]
    pending = [op for region in loop.regions for b in region.blocks for op in b.operations]
    while pending:
        op = pending.pop()
        if op.name in ("affine.for", "affine.parallel"):
            return True
        if op.name == "affine.if":
            if not (any(IfOp(op).condition.eq_flags) and iv in op.operands):
                return True
            continue
        pending.extend(o for region in op.regions for b in region.blocks for o in b.operations)
    return False


def _single_element(a: Access) -> bool:
    """Whether ``a``'s memref holds one element (a register once the compiler promotes it)."""
    t = a.memref.type
    return isinstance(t, MemRefType) and math.prod(t.shape) == 1


def _short_recurrence(analysis: DependenceAnalysis, accesses: Sequence[Access]) -> bool:
    """Whether a value written in the innermost loop is read by a later iteration of it
    fewer than :data:`VECTOR_WIDTH` iterations on (or that cannot be decided): the
    vectoriser's store-to-load conflict."""
    for w in accesses:
        for r in accesses:
            if not w.is_write or r.is_write or r.memref is not w.memref:
                continue
            depth = len(w.statement.loops)
            if depth != len(r.statement.loops):
                continue
            dependence = analysis.check(w, r, depth)
            if dependence.status == UNKNOWN:
                return True
            if dependence.status == NONE or not dependence.bounds:
                continue
            low = dependence.bounds[depth - 1].low
            if low is None or low < VECTOR_WIDTH:
                return True
    return False


def _guarded(op: Operation, loop: Operation) -> bool:
    """Whether ``op`` sits in an ``affine.if`` inside ``loop``."""
    for ancestor in op.ancestors():
        if ancestor is loop:
            return False
        if ancestor.name == "affine.if":
            return True
    return False


def _vectorizable_loops(model: Model, carried: bool) -> set[Operation]:
    """The innermost ``affine.for`` loops (no loop or guard splitting the body) whose every
    access is stride-1 or reads one element again, and none writes one element of a
    buffer larger than one element again; with ``carried``, also no value read fewer than
    :data:`VECTOR_WIDTH` iterations after it is written."""
    by_loop: dict[Operation, list[Access]] = {}
    for a in model.accesses:
        if a.statement.loops and a.statement.loops[-1].name == "affine.for":
            by_loop.setdefault(a.statement.loops[-1], []).append(a)
    analysis = DependenceAnalysis(model)
    result = set()
    for loop, accesses in by_loop.items():
        if _splits_body(loop):
            continue
        name = accesses[0].statement.scope.iv_name(loop.regions[0].blocks[0].arguments[0])
        units = [
            _unit_cost(a, a.statement.iv_names.index(name)) if name in a.statement.iv_names else 0
            for a in accesses
            if not _single_element(a) and not _guarded(a.op, loop)
        ]
        if any(u > 1.0 for u in units):
            continue
        if carried and _short_recurrence(analysis, accesses):
            continue
        result.add(loop)
    return result


def vectorizable_runs(
    function: Operation, counts: Mapping[object, int] | None = None, carried: bool = True
) -> float:
    """The access runs of ``function`` that sit in a vectorizable innermost loop (no loop
    or ``affine.if`` inside but guards with an equality; every access stride-1 or reading
    one element again; no element written again; with ``carried``, no value read fewer
    than :data:`VECTOR_WIDTH` iterations after it is written): the work a loop vectoriser
    can take. Runs are ``counts`` of the op's source position (:func:`instance_counts` of
    the source function), copies of one access averaged, as in :func:`access_cost`;
    higher is better."""
    counts = counts if counts is not None else instance_counts(function)
    model = _model_of(function)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnalysisWarning)
        vectorizable = _vectorizable_loops(model, carried)
    per_op: dict[object, list[float]] = {}
    for a in model.accesses:
        inside = bool(a.statement.loops) and a.statement.loops[-1] in vectorizable
        per_op.setdefault(_op_key(a.op), []).append(1.0 if inside else 0.0)
    return sum(counts.get(k, 1) * sum(u) / len(u) for k, u in per_op.items())


def _fixed(s: isl.Set) -> isl.Set:
    ctx = isl_context()
    for k in range(s.dim(isl.dim_type.param)):
        s = s.fix_val(isl.dim_type.param, k, isl.Val.int_from_si(ctx, TYPICAL_PARAMETER))
    return s


@dataclass(frozen=True)
class Transposition:
    """A memref whose innermost accesses in a nest mostly move along one outer
    coordinate: in a buffer laid out with the memref's dimensions in ``order`` (that
    coordinate last) they would be stride-1. ``saved`` is the cost the layout saves, in
    :func:`access_cost`'s units."""

    memref: Value
    order: tuple[int, ...]
    saved: float


def _layout_cost(runs: Sequence[tuple[tuple[int, ...] | None, int]], last: int) -> float:
    """The cost of accesses that move by ``runs`` (coordinate moves, runs) per innermost
    iteration when coordinate ``last`` is laid out last: stride-1 costs 1, invariant 0,
    anything else :data:`STRIDED_COST`."""
    total = 0.0
    for moves, count in runs:
        if moves is None:  # moves by varying amounts
            total += count * STRIDED_COST
            continue
        moving = [k for k, m in enumerate(moves) if m]
        if moving:
            unit = moving == [last] and abs(moves[last]) == 1
            total += count * (1.0 if unit else STRIDED_COST)
    return total


def transpositions(nest: Operation, counts: Mapping[object, int]) -> list[Transposition]:
    """Every memref of rank 2 or more whose accesses in ``nest`` (through any view) are
    cheaper, by :func:`_layout_cost`, with another coordinate laid out last; runs are
    ``counts`` (:func:`instance_counts`). Whether a copy may be read instead is not asked
    here (:func:`transforms.transposed_copy.check_transposed_copy`)."""
    runs: dict[Value, list[tuple[tuple[int, ...] | None, int]]] = {}
    for a in _model_of(_function(nest)).accesses:
        if not nest.is_ancestor_of(a.op):
            continue
        position = _innermost_position(a)
        rank = a.relation.dim(isl.dim_type.out)
        moves = (0,) * rank if position is None else coordinate_moves(a, position)
        runs.setdefault(a.memref, []).append((moves, counts.get(_op_key(a.op), 1)))
    found = []
    for memref, reads in runs.items():
        t = memref.type
        if not isinstance(t, MemRefType) or len(t.shape) < 2:
            continue
        rank = len(t.shape)
        as_is = _layout_cost(reads, rank - 1)
        best = min(range(rank), key=lambda d: (_layout_cost(reads, d), d != rank - 1))
        saved = as_is - _layout_cost(reads, best)
        if best != rank - 1 and saved > 0:
            order = (*(k for k in range(rank) if k != best), best)
            found.append(Transposition(memref, order, saved))
    return found
