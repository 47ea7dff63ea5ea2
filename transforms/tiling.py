"""Rectangular tiling of perfect loop bands and separation of full tiles (MLIR's
``tilePerfectlyNested``, ``tilePerfectlyNestedParametric`` and ``separateFullTiles``).

Invariant: a band ``i_0..i_{n-1}`` with tile sizes ``T_k`` becomes tile-space loops
``t_0..t_{n-1}`` (step ``T_k * step_k``) around intra-tile loops ``p_0..p_{n-1}``; every
original iteration runs exactly once, in the intra-tile loops of the tile whose window
``[t_k, t_k + T_k * step_k)`` contains it.  Bands whose bounds do not involve other band
loops get exactly MLIR's loops.  Bounds that do (triangular, trapezoidal, ``max``/``min`` of
outer band loops, coefficients of either sign) are tiled too: the intra-tile loop keeps the
original bounds clipped to the window (``max(lb(p..), t)``, ``min(ub(p..), t + T * step)``)
and the tile loop runs over a range covering every point, obtained by evaluating the bounds
at the corner of the outer tile windows that minimizes (lower) or maximizes (upper) them;
a bound that is not monotone in the outer band loops (``mod``, semi-affine) is refused.
Legality is not checked here.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from affine.analysis.loops import (
    constant_trip_count,
    largest_divisor_of_trip_count,
    lower_bound,
    upper_bound,
)
from affine.analysis.value_map import (
    ValueMap,
    as_read_back,
    canonicalize,
    canonicalize_affine_ops,
    canonicalize_value_map,
    concat,
    difference,
    fully_compose,
    remove_duplicate_results,
    simplify_affine_expr,
    substitute_value,
)
from affine.dialects.builders import affine_if
from affine.ir.core import Module, Operation, Value, uses_of
from affine.ir.labels import induction_var, value_label
from affine.math.affine_map import AffineMap
from affine.math.expr import ADD, CEILDIV, CONST, DIM, FLOORDIV, MOD, MUL, AffineExpr, dim, symbol
from affine.math.integer_set import IntegerSet
from affine.ops import ForOp, is_valid_symbol
from poly.codegen import CodegenError
from poly.flow import FlowAnalysis
from poly.legality import Verdict, analysis_for, band_structure, violations
from poly.space import any_negative_set
from poly.tile_model import choose_tile_sizes
from transforms.distribute import distribute_for_tiling
from transforms.errors import TransformError
from transforms.loop_pass import analysis_of, attempt, functions, refuse
from transforms.loop_utils import (
    body_ops,
    condition_set,
    get_tileable_bands,
    identity_value_map,
    new_loop,
    permute_band,
    promote_if_single_iteration,
    replace_iv,
    require_perfect_band,
    set_bound,
    set_step,
)
from transforms.registry import PassContext, PassOptions, option

Range = tuple[ValueMap, ValueMap]  # lowest and highest value of a variable


# -- bounds at the extreme corners of a box -----------------------------------------------------


def _signs(e: AffineExpr, positions: set[int]) -> dict[int, int] | None:
    """For the dims at ``positions``: +1 when ``e`` is non-decreasing in the dim, -1 when
    non-increasing; None when ``e`` is not monotone in one of them (or uses it in a
    ``mod`` or a semi-affine term)."""
    kind = e.kind
    if kind == DIM:
        return {e.value: 1} if e.value in positions else {}
    if kind not in (ADD, MUL, FLOORDIV, CEILDIV, MOD):
        return {}
    involved = bool(e.used_dims() & positions)
    if kind == ADD:
        left, right = _signs(e.lhs, positions), _signs(e.rhs, positions)
        if left is None or right is None:
            return None
        for p, sign in right.items():
            if left.setdefault(p, sign) != sign:
                return None
        return left
    if e.rhs.kind != CONST or kind == MOD:
        return None if involved else {}
    if kind == MUL:
        inner = _signs(e.lhs, positions)
        factor = e.rhs.value
        if inner is None or factor == 0:
            return inner if factor else {}
        return {p: sign if factor > 0 else -sign for p, sign in inner.items()}
    return _signs(e.lhs, positions) if e.rhs.value > 0 else (None if involved else {})


def corner(vm: ValueMap, ranges: Mapping[Value, Range], lowest: bool) -> ValueMap | None:
    """The single result of ``vm`` with each variable of ``ranges`` replaced by the end of
    its range that makes the result lowest (or highest): a bound of the result over the
    box.  None when the result is not monotone in those variables."""
    m = vm.map
    positions = {i for i, v in enumerate(vm.operands) if v in ranges and i < m.num_dims}
    if any(v in ranges for v in vm.symbol_operands):
        return None
    signs = _signs(m.results[0], positions)
    if signs is None:
        return None
    by_value: dict[Value, int] = {}
    for position, sign in signs.items():
        v = vm.operands[position]
        if by_value.setdefault(v, sign) != sign:
            return None
    for v, sign in by_value.items():
        low, high = ranges[v]
        vm = substitute_value(vm, v, low if (sign > 0) == lowest else high)
    return vm


def _covering(
    vm: ValueMap, ranges: Mapping[Value, Range], lowest: bool, loop: Operation
) -> ValueMap:
    """A bound of the tile loop covering ``vm`` (max of lowest corners for a lower bound,
    min of highest corners for an upper bound) over the box ``ranges``."""
    parts = []
    for k in range(vm.map.num_results):
        part = corner(vm.result(k), ranges, lowest)
        if part is None:
            raise TransformError(
                "cannot tile: a bound is not monotone in the outer loops of the band "
                f"({vm.map.results[k]}), so no covering tile range can be derived",
                loop.loc,
            )
        parts.append(part)
    return concat(parts)


def _window(start: ValueMap, extent: int) -> Range:
    """``[start, start + extent]``."""
    m = start.map
    return start, ValueMap(
        AffineMap.get(m.num_dims, m.num_symbols, [m.results[0] + extent]), start.operands
    )


# -- tiling -------------------------------------------------------------------------------------------


def _reads(vm: ValueMap, values: Sequence[Value]) -> bool:
    """Whether one of ``values`` is an operand of ``vm`` (used by a result or not)."""
    return any(v in values for v in vm.operands)


def _with_tile_dim(vm: ValueMap, tile_iv: Value, first: AffineExpr) -> ValueMap:
    """``vm`` with ``tile_iv`` as a new last dim and ``first`` (over that layout, the new
    dim being ``d{num_dims}``) as the first result."""
    m = vm.map
    new = AffineMap.get(m.num_dims + 1, m.num_symbols, [first, *m.results])
    return ValueMap(new, (*vm.dim_operands, tile_iv, *vm.symbol_operands))


def _rename(vm: ValueMap, renaming: Mapping[Value, Value]) -> ValueMap:
    return ValueMap(vm.map, tuple(renaming.get(v, v) for v in vm.operands))


def _rectangular_point_upper(loop: Operation, tile_iv: Value, size: int) -> ValueMap:
    """MLIR's intra-tile upper bound for a loop whose bounds do not involve the band:
    ``t + trip * step`` when one tile covers the loop, ``t + T * step`` when ``T`` divides
    the trip count, else ``min(t + T * step, ub)``."""
    f = ForOp(loop)
    step = f.step
    trip = constant_trip_count(loop)
    if trip is not None and trip < size:
        return ValueMap(AffineMap.get(1, 0, [dim(0) + trip * step]), (tile_iv,))
    if largest_divisor_of_trip_count(loop) % size != 0:
        ub = upper_bound(loop)
        return _with_tile_dim(ub, tile_iv, dim(ub.map.num_dims) + size * step)
    return ValueMap(AffineMap.get(1, 0, [dim(0) + size * step]), (tile_iv,))


def _aligned_lower(vm: ValueMap, tile_iv: Value, step: int, loop: Operation) -> ValueMap:
    """``max(t, lb...)``, or for a step other than 1 ``max(lb + ((t - lb) ceildiv step) *
    step, lb)``: the first iteration of the loop at or after ``t``."""
    m = vm.map
    t = dim(m.num_dims)
    if step == 1:
        return _with_tile_dim(vm, tile_iv, t)
    if m.num_results != 1:
        raise TransformError(
            "cannot tile: a loop with a step other than 1 and a max lower bound that "
            "depends on the band needs a single lower bound to align its tiles",
            loop.loc,
        )
    lb = m.results[0]
    aligned = simplify_affine_expr(
        lb + (t - lb).ceildiv(step) * step, m.num_dims + 1, m.num_symbols
    )
    lower = _with_tile_dim(vm, tile_iv, aligned)
    return ValueMap(as_read_back(lower.map), lower.operands)


def _parametric_bounds(
    loop: Operation, tile_iv: Value, size: Value
) -> tuple[ValueMap, ValueMap, ValueMap, ValueMap]:
    """MLIR's parametric bounds (tile loop lower/upper, intra-tile lower/upper): the tile
    loop counts tiles, ``lb + (ub - lb) ceildiv T`` with the original step; the intra-tile
    loop runs over ``[(t - lb) * T + lb, min((t - lb) * T + T * step + lb, ub))``."""
    f = ForOp(loop)
    lb, ub = lower_bound(loop), upper_bound(loop)
    if lb.map.num_results != 1:
        raise TransformError("cannot tile parametrically a loop with a max lower bound", loop.loc)
    ld, ls = lb.map.num_dims, lb.map.num_symbols
    ud, us = ub.map.num_dims, ub.map.num_symbols
    # Tile loop upper bound over [ub dims, lb dims][ub syms, lb syms, T].
    low = lb.map.results[0].shift_dims(ld, ud).shift_symbols(ls, us)
    size_expr = symbol(us + ls)
    tile_upper = ValueMap(
        AffineMap.get(
            ud + ld, us + ls + 1, [low + (u - low).ceildiv(size_expr) for u in ub.map.results]
        ),
        (*ub.dim_operands, *lb.dim_operands, *ub.symbol_operands, *lb.symbol_operands, size),
    )
    # Intra-tile lower bound over [lb dims, t][lb syms, T].
    t = dim(ld)
    point_lower = ValueMap(
        AffineMap.get(ld + 1, ls + 1, [(t - lb.map.results[0]) * symbol(ls) + lb.map.results[0]]),
        (*lb.dim_operands, tile_iv, *lb.symbol_operands, size),
    )
    # Intra-tile upper bound over [ub dims, lb dims, t][ub syms, lb syms, T].
    t = dim(ud + ld)
    start = (t - low) * size_expr
    point_upper = ValueMap(
        AffineMap.get(
            ud + ld + 1,
            us + ls + 1,
            [start + size_expr * f.step + low, *ub.map.results],
        ),
        (
            *ub.dim_operands,
            *lb.dim_operands,
            tile_iv,
            *ub.symbol_operands,
            *lb.symbol_operands,
            size,
        ),
    )
    return lb, tile_upper, point_lower, point_upper


def _tile_bounds(
    loop: Operation,
    lb_dep: bool,
    ub_dep: bool,
    tile_iv: Value,
    size: int,
    windows: Mapping[Value, Range],
    to_points: Mapping[Value, Value],
) -> tuple[ValueMap, ValueMap, ValueMap, ValueMap]:
    """Tile loop lower/upper and intra-tile lower/upper bounds of one band loop, whose
    bounds depend on the outer band loops when ``lb_dep`` / ``ub_dep``: MLIR's bounds when
    neither does; otherwise covering tile bounds over the outer ``windows`` and intra-tile
    bounds clipped to the tile, outer band loops renamed by ``to_points``."""
    step = ForOp(loop).step
    lb, ub = lower_bound(loop), upper_bound(loop)
    tile_lower = _covering(lb, windows, True, loop) if lb_dep else lb
    tile_upper = _covering(ub, windows, False, loop) if ub_dep else ub
    if not (lb_dep or ub_dep):
        return (
            tile_lower,
            tile_upper,
            identity_value_map(tile_iv),
            _rectangular_point_upper(loop, tile_iv, size),
        )
    point_lower = (
        _aligned_lower(_rename(lb, to_points), tile_iv, step, loop)
        if lb_dep
        else identity_value_map(tile_iv)
    )
    clip = dim(ub.map.num_dims) + size * step
    point_upper = _with_tile_dim(_rename(ub, to_points), tile_iv, clip)
    return tile_lower, tile_upper, point_lower, point_upper


def _require_tile_sizes(band: Sequence[Operation], sizes: Sequence[int | Value]) -> bool:
    """Raise TransformError for sizes the rewrite cannot use; True when they are SSA values
    (parametric tiling)."""
    if len(sizes) != len(band):
        raise TransformError(f"{len(band)} loops but {len(sizes)} tile sizes", band[0].loc)
    values = [isinstance(s, Value) for s in sizes]
    if any(values) and not all(values):
        raise TransformError("tile sizes must be all integers or all SSA values", band[0].loc)
    for s in sizes:
        if isinstance(s, Value):
            if not is_valid_symbol(s):
                raise TransformError(
                    "a parametric tile size must be an index value valid as an affine symbol",
                    band[0].loc,
                )
        elif s < 1:
            raise TransformError(f"tile sizes must be positive, got {s}", band[0].loc)
    return all(values) and bool(values)


def tile_perfect_band(
    band: Sequence[Operation], sizes: Sequence[int | Value], separate: bool = False
) -> list[Operation]:
    """Tile a perfect band (see the module invariant); returns the tile-space loops followed
    by the intra-tile loops, outermost first (MLIR's ``tilePerfectlyNested``; with SSA
    values as sizes, ``tilePerfectlyNestedParametric``).  With ``separate``, full tiles run
    a copy of the intra-tile nest with constant trip counts under an ``affine.if`` (see
    :func:`separate_full_tiles`).  Loops with iter_args are refused."""
    band = list(band)
    require_perfect_band(band)
    parametric = _require_tile_sizes(band, sizes)
    for loop in band:
        if loop.results:
            raise TransformError("cannot tile loops with iter_args", loop.loc)
    if separate and parametric:
        raise TransformError("separating full tiles needs integer tile sizes", band[0].loc)
    ivs: list[Value] = [ForOp(loop).induction_var for loop in band]
    n = len(band)
    zero = ValueMap(AffineMap.constant_map(0), ())
    tiles = [new_loop(zero, zero, like=band[k % n]) for k in range(2 * n)]
    for outer, inner in itertools.pairwise(tiles):
        ForOp(outer).body.insert(0, inner)
    tile_ivs = [ForOp(t).induction_var for t in tiles[:n]]
    point_ivs = [ForOp(t).induction_var for t in tiles[n:]]
    to_points: dict[Value, Value] = dict(zip(ivs, point_ivs))
    windows: dict[Value, Range] = {}
    for k, loop in enumerate(band):
        f = ForOp(loop)
        step = f.step
        lb, ub = lower_bound(loop), upper_bound(loop)
        enclosing_ivs = ivs[:k]
        lb_dep, ub_dep = _reads(lb, enclosing_ivs), _reads(ub, enclosing_ivs)
        if parametric:
            if lb_dep or ub_dep:
                raise TransformError(
                    "cannot tile parametrically a band whose bounds depend on its own loops",
                    loop.loc,
                )
            size_value = sizes[k]
            assert isinstance(size_value, Value)
            bounds = _parametric_bounds(loop, tile_ivs[k], size_value)
            tile_step = step
        else:
            size = sizes[k]
            assert isinstance(size, int)
            bounds = _tile_bounds(loop, lb_dep, ub_dep, tile_ivs[k], size, windows, to_points)
            tile_step = size * step
            windows[ivs[k]] = _window(identity_value_map(tile_ivs[k]), size * step - 1)
        for target, which, vm in zip(
            (tiles[k], tiles[k], tiles[n + k], tiles[n + k]), ("lower", "upper") * 2, bounds
        ):
            set_bound(target, which, vm)
        set_step(tiles[k], tile_step)
        set_step(tiles[n + k], step)
    plan = _plan_separation(tiles[n:]) if separate else None
    # Everything is computed: move the body into the new nest and replace the old one.
    innermost = ForOp(tiles[-1]).body
    for index, op in enumerate(body_ops(band[-1])):
        innermost.insert(index, op)
    for iv, point in zip(ivs, point_ivs):
        replace_iv(innermost, iv, identity_value_map(point))
    parent = band[0].parent
    assert parent is not None
    parent.insert_before(band[0], tiles[0])
    band[0].erase()
    if plan is not None:
        _apply_separation(tiles[n:], plan)
    return tiles


# -- full tiles ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Separation:
    """The guard of the full tiles and the bounds of their loops."""

    condition: IntegerSet | None  # None: every tile is full
    operands: tuple[Value, ...]
    bounds: tuple[tuple[ValueMap, ValueMap], ...]


def _constant(vm: ValueMap) -> int | None:
    m = vm.map
    return m.results[0].value if m.num_results == 1 and m.results[0].kind == CONST else None


def _plan_separation(loops: Sequence[Operation]) -> _Separation:
    """For each loop, a lower/upper bound pair at a constant distance (the full tile) and
    the conditions under which every other bound is looser, over the full ranges of the
    enclosing loops of ``loops`` (MLIR's ``createFullTiles`` / ``createSeparationCondition``)."""
    ivs = [ForOp(loop).induction_var for loop in loops]
    ranges: dict[Value, Range] = {}
    conditions: list[ValueMap] = []
    bounds = []
    for k, loop in enumerate(loops):
        f = ForOp(loop)
        lb, ub = fully_compose(lower_bound(loop)), fully_compose(upper_bound(loop))
        pairs = []
        for a in range(lb.map.num_results):
            start = lb.result(a)
            if _reads(canonicalize_value_map(start), ivs):  # must be fixed in the tile
                continue
            for b in range(ub.map.num_results):
                extent = _constant(difference(ub.result(b), start))
                if extent is not None and extent > 0:
                    pairs.append((extent, a, b))
        if not pairs:
            raise TransformError(
                "cannot separate full tiles: no lower and upper bound of the loop are at a "
                "constant distance with a start fixed in the tile",
                loop.loc,
            )
        extent, a, b = min(pairs)
        start = lb.result(a)
        end = ValueMap(
            AffineMap.get(
                start.map.num_dims, start.map.num_symbols, [start.map.results[0] + extent]
            ),
            start.operands,
        )
        # Every other bound result must hold over the whole tile: lower ones at or below
        # its start, upper ones at or above its end, at their worst corner of the tile box.
        for is_upper, bound, chosen, which in (
            (False, lb, a, "a lower"),
            (True, ub, b, "an upper"),
        ):
            for r in range(bound.map.num_results):
                if r == chosen:
                    continue
                worst = corner(bound.result(r), ranges, lowest=is_upper)
                if worst is None:
                    raise TransformError(
                        f"cannot separate full tiles: {which} bound is not monotone", loop.loc
                    )
                conditions.append(difference(worst, end) if is_upper else difference(start, worst))
        last = ((extent + f.step - 1) // f.step - 1) * f.step
        ranges[ivs[k]] = _window(start, last)
        bounds.append((start, end))
    condition, operands = condition_set(conditions)
    return _Separation(condition, tuple(operands), tuple(bounds))


def _full_tile_bound(vm: ValueMap) -> ValueMap:
    """MLIR's ``createCanonicalizedAffineForOp`` treatment of a bound."""
    composed = fully_compose(vm)
    m, operands = canonicalize(composed.map, composed.operands)
    return ValueMap(remove_duplicate_results(m), tuple(operands))


def _apply_separation(loops: Sequence[Operation], plan: _Separation) -> list[Operation]:
    if plan.condition is None:
        return []
    full = [
        new_loop(_full_tile_bound(lb), _full_tile_bound(ub), ForOp(loop).step, like=loop)
        for loop, (lb, ub) in zip(loops, plan.bounds)
    ]
    for outer, inner in itertools.pairwise(full):
        ForOp(outer).body.insert(0, inner)
    mapping: dict[Value, Value] = {
        ForOp(loop).induction_var: ForOp(f).induction_var for loop, f in zip(loops, full)
    }
    body = ForOp(full[-1]).body
    for index, op in enumerate(body_ops(loops[-1])):
        body.insert(index, op.clone(mapping))
    guard = affine_if(plan.condition, plan.operands, with_else=True)
    guard.loc = loops[0].loc
    parent = loops[0].parent
    assert parent is not None
    parent.insert_before(loops[0], guard)
    then_block = guard.regions[0].blocks[0]
    then_block.insert(0, full[0])
    loops[0].erase()
    guard.regions[1].blocks[0].insert(0, loops[0])
    return full


def separate_full_tiles(loops: Sequence[Operation]) -> list[Operation]:
    """Version a perfect band of intra-tile loops: ``affine.if (every tile bound is looser
    than the full tile) { full-tile nest } else { original nest }``, the full-tile loops
    running between a lower and an upper bound at constant distance (MLIR's
    ``separateFullTiles``).  Returns the full-tile loops ([] when every tile is full and
    nothing changes).  Refused when some loop has no such pair of bounds."""
    loops = list(loops)
    require_perfect_band(loops)
    return _apply_separation(loops, _plan_separation(loops))


# -- the check and the pass ------------------------------------------------------------------


def check_tiling(band: Sequence[Operation], analysis: FlowAnalysis | None = None) -> Verdict:
    """Can the band be tiled: is it fully permutable (every band distance non-negative)?"""
    verdict = band_structure(band)
    if not verdict:
        return verdict
    analysis = analysis_for(band[0], analysis)
    return violations(analysis, band, any_negative_set(len(band)))


def tile_with_model_order(
    band: Sequence[Operation], sizes: Sequence[int], order: Sequence[int], separate: bool
) -> tuple[list[Operation], list[int]]:
    """Tile ``band`` by the cache model's ``sizes``, then clean up and order the points.

    The tile loops that run once are promoted and what they leave folded (constants no
    longer used are erased); the point loops are permuted to ``order`` (``order[k]`` is the
    band loop at position ``k`` inside a tile) where that is possible, and left in band order
    otherwise or with ``separate``. Returns the loops :func:`tile_perfect_band` made and the
    order the points run in (band positions, outermost first)."""
    block = band[0].parent
    region = block.parent if block is not None else None
    existing = {id(op) for op in block.operations} if block is not None else set()
    loops_after = tile_perfect_band(band, sizes, separate)
    if block is not None:
        for tile_loop in loops_after[: len(band)]:
            promote_if_single_iteration(tile_loop)
        for op in list(block.operations):
            canonicalize_affine_ops(op)
        for op in list(block.operations):
            if id(op) not in existing and op.name == "arith.constant" and region is not None:
                if not uses_of(region, op.results[0]):
                    op.erase()
    in_band_order = list(range(len(band)))
    if list(order) != in_band_order and not separate:
        permutation = [order.index(k) for k in range(len(band))]
        try:
            permute_band(loops_after[len(band) :], permutation)
        except (TransformError, CodegenError):
            return loops_after, in_band_order  # keep the original order inside tiles
        return loops_after, list(order)
    return loops_after, in_band_order


@dataclass
class LoopTile(PassOptions):
    """``-affine-loop-tile``: tile every outermost perfect band where that is legal.

    Sizes: ``tile-sizes`` (missing ones are 4, as mlir-opt does), else ``tile-size`` for
    every loop, else the cache model of :mod:`poly.tile_model` for a cache of
    ``cache-size`` KiB, which also orders the loops inside a tile for contiguous innermost
    accesses; in that mode imperfect nests are first distributed into perfect ones where
    that is legal (gemm's ``C *= beta`` apart from its product). A band whose data fits in
    the cache is left alone. ``separate`` runs full tiles without bound checks."""

    name = "affine-loop-tile"
    tile_sizes: tuple[int, ...] = option((), minimum=1)
    tile_size: int = option(0, minimum=1)  # 0: not given
    cache_size: int = option(512, minimum=1)
    separate: bool = False

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        for function in functions(module, context):
            self.tile_function(function, context)
        return module

    def tile_function(
        self, function: Operation, context: PassContext
    ) -> list[tuple[list[Operation], str]]:
        """Tile every tileable band of ``function`` in place; per tiled band, the ops that
        touch memory inside it and what was done."""
        if not (self.tile_sizes or self.tile_size):
            distribute_for_tiling(function)
        analysis = analysis_of(function)
        done = []
        for band in get_tileable_bands(function):
            inside = [
                op
                for op in band[0].walk()
                if op.name.startswith(("affine.load", "affine.store", "affine.vector_"))
            ]
            what = self.tile(band, analysis, context)
            if what is not None:
                done.append((inside, what))
        return done

    def tile(
        self, band: list[Operation], analysis: FlowAnalysis, context: PassContext
    ) -> str | None:
        """Tile ``band`` where legal; what was done (sizes and why), or None with a remark."""
        what = "loop band not tiled"
        verdict = check_tiling(band, analysis)
        if not verdict:
            refuse(context, band[0], what, verdict.reason)
            return None
        order, reason = None, "sizes given"
        if self.tile_sizes:
            if len(self.tile_sizes) > len(band):
                refuse(
                    context, band[0], "tile sizes not used", _unused_sizes(band, self.tile_sizes)
                )
            sizes = list(self.tile_sizes[: len(band)]) + [4] * (len(band) - len(self.tile_sizes))
        elif self.tile_size:
            sizes = [self.tile_size] * len(band)
        else:
            if not any(band[0] in a.statement.loops for a in analysis.model.accesses):
                refuse(context, band[0], what, "it touches no memory")
                return None
            choice = choose_tile_sizes(band, self.cache_size * 1024, analysis.model)
            trips = [constant_trip_count(loop) for loop in band]
            if all(t is not None and s >= t for s, t in zip(choice.sizes, trips)):
                refuse(context, band[0], what, f"its data fits in the cache ({choice.reason})")
                return None
            if all(s == 1 for s in choice.sizes):
                refuse(context, band[0], what, f"not even one iteration fits ({choice.reason})")
                return None
            sizes, order, reason = list(choice.sizes), choice.order, choice.reason

        names = [value_label(induction_var(loop)) for loop in band]
        chosen = list(range(len(band)))

        def rewrite() -> None:
            nonlocal chosen
            if order is None:
                tile_perfect_band(band, sizes, self.separate)
            else:
                chosen = tile_with_model_order(band, sizes, order, self.separate)[1]

        if not attempt(context, band[0], what, rewrite):
            return None
        where = band[0] if band[0].parent is not None else None
        context.emit(
            where,
            "remark",
            f"loop band tiled: sizes {', '.join(map(str, sizes))} for {', '.join(names)}; "
            f"intra-tile order {', '.join(names[k] for k in chosen)}",
            band[0].loc,
        )
        return f"tiled {'x'.join(map(str, sizes))}: {reason}"


def _unused_sizes(band: Sequence[Operation], sizes: Sequence[int]) -> str:
    """Why some of the given tile sizes do not apply to ``band``."""
    extra = len(sizes) - len(band)
    names = ", ".join(value_label(induction_var(loop)) for loop in band)
    reason = (
        f"tile-sizes gives {len(sizes)} sizes for this band of {len(band)} "
        f"loop{'s' if len(band) > 1 else ''} ({names}); the last {extra} "
        f"({', '.join(map(str, sizes[len(band) :]))}) are not used"
    )
    inner = [op for op in band[-1].regions[0].blocks[0].operations if op.name == "affine.for"]
    if inner:
        reason += ": the loops inside it are not perfectly nested in it"
    return reason
