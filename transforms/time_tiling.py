"""Time tiles for stencils: the ``affine-time-tile`` pass, the sizes and the legality check
over :mod:`poly.time_tiles` (which builds the schedule: see there for the tiles' shape).

Invariant: a time tiling is applied only where :meth:`poly.schedule.Schedule.check` finds
it legal against every dependence; the tiled schedule runs every statement instance once,
tile after tile and, inside a tile, in the source's order.

Tiles lean back by ``skew`` rows per sweep: legal when no dependence goes back in a skewed
coordinate, so the smallest ``skew`` the check accepts is used. Sizes
(:func:`time_tile_sizes`) make the data two consecutive steps of a tile touch fit the L2
cache (what a step must find of the step before; the whole tile, leaning over all its
steps, need not: heat-3d at 260^3, 8 steps x 16 x 16, 2.1x against 0.92x for the 2 steps
whose whole tile fits), and one step of it the L1 cache where that pays, and cut the
traffic per step most: a tile reads ``prod(b + halo)`` rows for ``bt * prod(b)`` row
updates, ``halo = skew * sweeps * bt``.
Measured at LARGE sizes (docs/performance.md), where the data live in L3: jacobi-1d
1.2-1.3x; with register tiles inside, jacobi-2d 1.6x, fdtd-2d 1.1-1.2x; heat-3d's tiles
(model gain 2) 0.91-0.99x, so the auto-scheduler
asks for a gain of :data:`MIN_GAIN` unless the register tiles inside rotate their loads
(:mod:`transforms.load_rotation`; then heat-3d's run 1.2-1.3x).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from affine.exec.inputs import function_name
from affine.ir.core import Module, Operation, Value
from affine.ir.types import MemRefType
from poly.schedule import Schedule
from poly.schedule_check import ScheduleVerdict
from poly.schedule_program import ScheduleError
from poly.tile_model import assumed_shape, assumed_strides, element_bytes, most_lines_in_a_set
from poly.time_tiles import (
    TimeLoop,
    TimeTiling,
    find_time_loops,
    fusion_shifts,
    time_tiled_schedule,
    traffic_gain,
)
from transforms.loop_pass import functions
from transforms.machine import Machine, machine_from_options
from transforms.registry import PassContext, PassOptions, option

TIME_SIZES = (2, 4, 8, 16, 32)
SPACE_SIZES = tuple(2**k for k in range(2, 17))
MIN_ROW = 1024  # a tiled innermost dimension runs at least this many iterations in a row
ENOUGH_GAIN = 16.0  # traffic divided by this is compute-bound: take the smallest such tile
MIN_GAIN = 4.0  # the auto-scheduler's threshold: heat-3d's tiles (2) measured 0.91-0.99x, fdtd-2d's (4) 1.07x
MAX_SKEW = 4
L1_SHARE = 5 / 8  # of the L1 cache one step of a tile may touch (the rest: other data)
VECTOR_ROW = 16  # vectors an innermost tile runs at least (16 x 8 lanes: rows of 128 f32)
NOT_FUSED = "sweeps not fused: "  # the reasons fused sweeps were not tiled start so
STEP_GAIN = 2.0  # L1-sized steps are preferred when they divide the traffic by more than this


def _tile_extents(loop: TimeLoop, tiling: TimeTiling) -> list[tuple[Value, MemRefType, list[int]]]:
    """Per memref the extents a tile touches: the tiled dimensions ``b + halo`` long (at
    most the memref's extent), the others whole (unknown extents as in
    :func:`~poly.tile_model.assumed_shape`)."""
    halo = tiling.halo(loop)
    boxes = []
    for memref, t in _types(loop):
        first = loop.first_space_dimension(memref)
        extents = [
            min(d, tiling.space_sizes[k - first] + halo)
            if 0 <= k - first < len(tiling.space_sizes)
            else d
            for k, d in enumerate(assumed_shape(t))
        ]
        boxes.append((memref, t, extents))
    return boxes


def _footprint(loop: TimeLoop, tiling: TimeTiling) -> int:
    """Bytes a tile touches (:func:`_tile_extents`)."""
    return sum(
        math.prod(extents) * element_bytes(t) for _, t, extents in _tile_extents(loop, tiling)
    )


def _sets_hold(loop: TimeLoop, tiling: TimeTiling, machine: Machine) -> bool:
    """Whether the rows a tile touches put no more lines into one L1 set than it has ways
    (:func:`poly.tile_model.most_lines_in_a_set`; True where a stride is not known). Rows
    of 4096 bytes all fall into the same sets: jacobi-2d at 1024^2, 100 steps, ran 1.09-1.15x
    in step tiles of 8 x 256 (20 rows of 16 lines a step), 1.16-1.25x in tiles of whole
    rows."""
    starts = []
    for memref, t, extents in _tile_extents(loop, tiling):
        strides = assumed_strides(t)
        if strides is None:
            return True
        if not extents:
            continue  # a 0-d memref: one element
        size = element_bytes(t)
        length = extents[-1] * strides[-1] * size
        for index in itertools.product(*(range(e) for e in extents[:-1])):
            starts.append((memref, sum(i * e for i, e in zip(index, strides)) * size, length))
    return most_lines_in_a_set(starts, machine.line, machine.l1_set_span) <= machine.l1_ways


def _window(loop: TimeLoop, tiling: TimeTiling) -> int:
    """Bytes two consecutive steps of a tile touch: what the cache must hold for a step to
    find the data of the step before (:func:`_footprint` of a tile of at most two steps)."""
    return _footprint(loop, replace(tiling, time_size=min(2, tiling.time_size)))


def _types(loop: TimeLoop) -> list[tuple[Value, MemRefType]]:
    """The memrefs the sweeps touch with their types (affine accesses: all ranked)."""
    return [(m, t) for m in loop.memrefs if isinstance(t := m.type, MemRefType)]


def time_tile_sizes(
    loop: TimeLoop,
    skew: int,
    machine: Machine,
    shifts: tuple[tuple[str, int], ...] | None = None,
    min_gain: float = 1.0,
    rows: Mapping[int, int] | None = None,
) -> TimeTiling | str:
    """The tiles two steps of which fit the L2 cache (:func:`_window`) with the least
    traffic: the smallest tile that divides traffic by :data:`ENOUGH_GAIN`, else the one
    that divides it most.

    With two or more written dimensions, tiles one step of which fits in
    :data:`L1_SHARE` of the L1 cache come first where they divide the traffic by more than
    :data:`STEP_GAIN` (:func:`_step_tiles`: every written dimension tiled, the innermost for
    at least :data:`VECTOR_ROW` vectors; fdtd-2d's four sweeps a step leave 1.28); else tiled
    space dimensions leave the innermost written one whole unless it is the only one, which
    then runs rows of at least :data:`MIN_ROW`; tiles twice as long along some of those
    dimensions as along the others where no square one will do, and tiles not holding
    whole groups of ``rows`` where no other will (3-D stencils with rows of 300-512 floats:
    8 x 16 or 16 x 16, where 16 x 20 does not fit and 8 x 8 leans too far). Unknown
    extents are taken as :data:`~poly.tile_model.TYPICAL_PARAMETER`, as everywhere tiles
    are sized. A reason instead when none fits. ``shifts``: the sweeps fused
    (:class:`~poly.time_tiles.TimeTiling`), tiled by rows only. Only tiles that divide the traffic by at least ``min_gain`` count
    (box9's step tiles, 2.84, fall below the auto-scheduler's :data:`MIN_GAIN`, where tiles
    of whole rows divide it by 10.7: 1.51x). ``rows``: written dimension -> the rows
    register tiles inside will jam along it; sizes along it are multiples of them where one
    will do (:func:`whole_row_groups`)."""

    def outer(square: bool, grouped: Mapping[int, int]) -> Iterator[TimeTiling]:
        for m in range(1, max(1, loop.rank - 1) + 1):
            for bt in TIME_SIZES:
                for b in SPACE_SIZES:
                    if m == loop.rank and b < MIN_ROW:
                        continue
                    for sizes in itertools.product((b, 2 * b), repeat=m):
                        if min(sizes) == b and (max(sizes) == b) == square:
                            yield from whole_row_groups(
                                TimeTiling(bt, sizes, skew, shifts), grouped
                            )

    # fused sweeps are shifted by rows only: their columns would need shifts of their own
    step_tiles = _step_tiles(loop, skew, machine, rows or {}) if shifts is None else iter(())
    best = (
        _least_traffic(loop, step_tiles, machine, min_gain, STEP_GAIN)
        or _least_traffic(loop, outer(True, rows or {}), machine, min_gain)
        or _least_traffic(loop, outer(False, rows or {}), machine, min_gain)
        or _least_traffic(loop, outer(True, {}), machine, min_gain)
        or _least_traffic(loop, outer(False, {}), machine, min_gain)
    )
    if best is None:
        cuts = "cuts the traffic" if min_gain <= 1 else f"divides the traffic by {min_gain:g}"
        return f"{loop.name}: no time tile that fits the L2 cache ({machine.l2 // 1024} KiB) {cuts}"
    return best


def whole_row_groups(tiling: TimeTiling, rows: Mapping[int, int]) -> list[TimeTiling]:
    """``tiling``, or where its size along a written dimension ``d`` in ``rows`` is larger
    than ``rows[d]`` and not a multiple of it, the tilings with the nearest multiples below
    and above instead: register tiles jamming 5 rows fill a tile of 15 or 20 rows with
    whole groups where a tile of 16 leaves a row alone. heat-3d (LARGE, same JIT, three
    runs): 8 steps x 16 x 20 197-206 ms, x 16 x 15 199-208, against 202-221 for 16 x 16."""
    choices = [
        [b - b % rows[d], b - b % rows[d] + rows[d]]
        if d in rows and b > rows[d] and b % rows[d]
        else [b]
        for d, b in enumerate(tiling.space_sizes)
    ]
    return [replace(tiling, space_sizes=sizes) for sizes in itertools.product(*choices)]


def _step_tiles(
    loop: TimeLoop, skew: int, machine: Machine, rows: Mapping[int, int]
) -> Iterator[TimeTiling]:
    """Tiles over every written dimension of a loop with two or more, one step of which
    (the tile's rows and a halo of one step) fits in :data:`L1_SHARE` of the L1 cache, the
    innermost dimension at least :data:`VECTOR_ROW` vectors long, holding whole groups of
    ``rows`` (:func:`whole_row_groups`): from one step to the next the data stay in L1.
    jacobi-2d (1300 x 1300, 8 rows jammed, same run): 16 steps x 16 x 128 1.64x, 32 x 8 x
    128 1.62x; one step larger than L1: 16 x 32 x 128 1.29x, 16 x 64 x 128 1.17x, whole
    rows (8 x 16) 1.38-1.44x."""
    if loop.rank < 2:
        return
    types = _types(loop)
    lanes = machine.lanes(max(element_bytes(t) for _, t in types))
    row = max(  # 0 where no memref has the dimension (no step tile is then shorter)
        (
            assumed_shape(t)[last]
            for m, t in types
            if len(t.shape) > (last := loop.first_space_dimension(m) + loop.rank - 1)
        ),
        default=0,
    )
    fitting: dict[tuple[int, ...], None] = {}  # space sizes one step of which fits in L1
    for b in SPACE_SIZES:
        for c in SPACE_SIZES:
            base = TimeTiling(1, (b,) * (loop.rank - 1) + (c,), skew)
            for step in whole_row_groups(base, rows):
                if (  # whole rows (c >= row): the tiles of time_tile_sizes
                    VECTOR_ROW * lanes <= step.space_sizes[-1] < row
                    and _footprint(loop, step) <= machine.l1 * L1_SHARE
                    and _sets_hold(loop, step, machine)
                ):
                    fitting[step.space_sizes] = None
    for bt in TIME_SIZES:
        for sizes in fitting:
            yield TimeTiling(bt, sizes, skew)


def _least_traffic(
    loop: TimeLoop,
    tilings: Iterable[TimeTiling],
    machine: Machine,
    min_gain: float = 1.0,
    above: float = 1.0,
) -> TimeTiling | None:
    """Of ``tilings`` two steps of which fit the L2 cache (:func:`_window`) and that divide
    the traffic by more than ``above`` and by at least ``min_gain``, the one that divides
    it most (up to :data:`ENOUGH_GAIN`), the smallest (:func:`_footprint`) on a tie."""
    best: tuple[float, int, TimeTiling] | None = None
    for tiling in tilings:
        if _window(loop, tiling) > machine.l2:
            continue
        size = _footprint(loop, tiling)
        gain = min(traffic_gain(loop, tiling), ENOUGH_GAIN)
        if gain <= above or gain < min_gain:
            continue
        if best is None or (gain, -size) > best[:2]:
            best = (gain, -size, tiling)
    return None if best is None else best[2]


@dataclass(frozen=True)
class TimeTilePlan:
    """A legal time tiling of one loop: the loop, the tiles, the checked schedule."""

    loop: TimeLoop
    tiling: TimeTiling
    schedule: Schedule
    gain: float

    def describe(self) -> str:
        return f"{self.tiling.describe(self.loop)}; the model's traffic / {self.gain:.3g}"


def check_time_tiling(
    schedule: Schedule, loop: TimeLoop, tiling: TimeTiling
) -> tuple[ScheduleVerdict, Schedule]:
    """The verdict on ``tiling`` of ``loop`` (the dependence it would reverse, with a
    witness, when illegal) and the tiled schedule."""
    tiled = time_tiled_schedule(schedule, loop, tiling)
    return tiled.check(), tiled


def plan_time_tiles(
    function: Operation,
    machine: Machine,
    time_size: int | None = None,
    space_sizes: Sequence[int] = (),
    max_skew: int = MAX_SKEW,
    fuse: bool = False,
    min_gain: float = 1.0,
    rows: Mapping[int, int] | None = None,
) -> tuple[list[TimeTilePlan | str], list[str]]:
    """For each time loop of ``function``, a legal time tiling (the smallest skew up to
    ``max_skew`` that the check accepts, sizes given or from :func:`time_tile_sizes`) or why
    there is none; and why each other top-level nest is no time loop. With ``fuse``, the
    sweeps of each step fused row by row where :func:`~poly.time_tiles.fusion_shifts` finds
    shifts that allow it (else apart, and why in the other list). Sizes from the model
    divide the traffic by at least ``min_gain`` and hold whole groups of ``rows``
    (:func:`time_tile_sizes`)."""
    try:
        schedule = Schedule.of(function)
    except ScheduleError as e:
        return [], [f"no whole-function schedule: {e.message}"]
    loops, others = find_time_loops(schedule)
    plans: list[TimeTilePlan | str] = []
    for loop in loops:
        plan: TimeTilePlan | str = ""
        if fuse:
            try:
                shifts: dict[str, int] | str = fusion_shifts(schedule, loop)
            except ScheduleError as e:
                shifts = f"{loop.name}: {e.message}"
            if isinstance(shifts, str):
                others.append(f"{NOT_FUSED}{shifts}")
            else:
                fused = tuple(sorted(shifts.items()))
                plan = _plan_loop(
                    schedule, loop, machine, time_size, space_sizes, max_skew, fused, min_gain, rows
                )
                if isinstance(plan, str):
                    others.append(f"{NOT_FUSED}{plan}")
        if not isinstance(plan, TimeTilePlan):
            plan = _plan_loop(
                schedule, loop, machine, time_size, space_sizes, max_skew, None, min_gain, rows
            )
        plans.append(plan)
    return plans, others


def _plan_loop(
    schedule: Schedule,
    loop: TimeLoop,
    machine: Machine,
    time_size: int | None,
    space_sizes: Sequence[int],
    max_skew: int,
    shifts: tuple[tuple[str, int], ...] | None = None,
    min_gain: float = 1.0,
    rows: Mapping[int, int] | None = None,
) -> TimeTilePlan | str:
    last = ""
    if rows and loop.buffers:  # rows by the memref dimension they move along
        rows = {d - loop.buffers: r for d, r in rows.items() if d >= loop.buffers}
    for skew in range(max_skew + 1):
        if space_sizes:
            sizes: TimeTiling | str = TimeTiling(time_size or 1, tuple(space_sizes), skew, shifts)
        else:
            sizes = time_tile_sizes(loop, skew, machine, shifts, min_gain, rows)
            if isinstance(sizes, TimeTiling) and time_size:
                sizes = TimeTiling(time_size, sizes.space_sizes, skew, shifts)
        if isinstance(sizes, str):
            return sizes
        try:
            verdict, tiled = check_time_tiling(schedule, loop, sizes)
        except ScheduleError as e:  # sizes that do not fit the loop
            return e.message
        if verdict:
            return TimeTilePlan(loop, sizes, tiled, traffic_gain(loop, sizes))
        last = str(verdict)
    return f"{loop.name}: no skew up to {max_skew} makes time tiles legal ({last})"


@dataclass(frozen=True)
class TimeTileResult:
    """The module after time tiles, each time loop's plan or why it has none, why the other
    top-level nests are no time loops, and the schedule applied (None when nothing was
    tiled, ``module`` then the input)."""

    module: Module
    plans: list[TimeTilePlan | str]
    others: list[str]
    schedule: Schedule | None

    @property
    def tiled(self) -> list[TimeTilePlan]:
        return [p for p in self.plans if isinstance(p, TimeTilePlan)]


def time_tile_function(
    module: Module,
    name: str,
    machine: Machine,
    time_size: int | None = None,
    space_sizes: Sequence[int] = (),
    max_skew: int = MAX_SKEW,
    min_gain: float = 0.0,
    fuse: bool = False,
    rows: Mapping[int, int] | None = None,
) -> TimeTileResult:
    """``module`` with function ``name`` time-tiled where :func:`plan_time_tiles` finds a
    legal tiling whose model gain is at least ``min_gain`` (sizes holding whole groups of
    ``rows``); ``module`` is untouched."""
    function = module.function(name)
    plans, others = plan_time_tiles(
        function, machine, time_size, space_sizes, max_skew, fuse, min_gain, rows
    )
    plans = [
        p if isinstance(p, str) or p.gain >= min_gain else f"{p.describe()}: not enough gain"
        for p in plans
    ]
    chosen = [p for p in plans if isinstance(p, TimeTilePlan)]
    if not chosen:
        return TimeTileResult(module, plans, others, None)
    schedule = chosen[0].schedule
    for plan in chosen[1:]:  # each legal alone; together only if the check agrees
        together = time_tiled_schedule(schedule, plan.loop, plan.tiling)
        if together.check():
            schedule = together
        else:
            plans[plans.index(plan)] = f"{plan.describe()}: not legal with the others"
    split = any(p.tiling.fused for p in chosen)  # no guard where only some sweeps run
    try:
        return TimeTileResult(schedule.apply(split=split), plans, others, schedule)
    except ScheduleError as e:
        if not split:
            raise
        # the split loops of unknown sizes need conditions affine.if cannot write (a
        # disjunction): the sweeps apart instead
        apart = time_tile_function(
            module, name, machine, time_size, space_sizes, max_skew, min_gain, rows=rows
        )
        apart.others.append(f"{NOT_FUSED}{e.message}")
        return apart


@dataclass
class TimeTile(PassOptions):
    """``--affine-time-tile``: every time loop at a function's top level tiled with the
    outer space dimensions of its sweeps (parallelogram tiles; see the module docstring):
    ``time-size`` steps by ``space-sizes`` (0 and empty: from the L2 cache, ``l2=`` KiB
    overrides the OS), the smallest skew up to ``max-skew`` that is legal. A remark for
    each top-level nest: its tiles, or why it has none."""

    name = "affine-time-tile"
    time_size: int = option(0, minimum=0)
    space_sizes: tuple[int, ...] = option((), minimum=1)
    max_skew: int = option(MAX_SKEW, minimum=0)
    l2: int = option(0, minimum=0)
    fuse: bool = False

    def run(self, module: Module, context: PassContext) -> Module:
        machine = machine_from_options({"l2": self.l2 or None})
        for function in functions(module, context):
            name = function_name(function)
            result = time_tile_function(
                module,
                name,
                machine,
                self.time_size or None,
                self.space_sizes,
                self.max_skew,
                fuse=self.fuse,
            )
            for plan in result.plans:
                if isinstance(plan, TimeTilePlan):
                    context.emit(plan.loop.loop, "remark", plan.describe())
                else:
                    context.emit(function, "remark", f"not time-tiled: {plan}")
            for reason in result.others:  # the loop may be tiled with its sweeps apart
                prefix = "" if reason.startswith(NOT_FUSED) else "not time-tiled: "
                context.emit(function, "remark", prefix + reason)
            module = result.module
        return module


__all__ = [
    "TimeTile",
    "TimeTilePlan",
    "TimeTileResult",
    "check_time_tiling",
    "plan_time_tiles",
    "time_tile_function",
    "time_tile_sizes",
    "whole_row_groups",
]
