"""``--affine-auto-schedule``: a schedule for each function from its exact dependences, tiled
for this machine's caches, kept only where the cost model expects a gain.

Invariant: every function of the result computes what the input's does. Each step is
checked: ISL's schedule (:func:`poly.schedule_isl.compute_schedule`, validity from every
dependence) is re-checked with :meth:`poly.schedule.Schedule.check` before code is
generated from it, tiling checks each band (:func:`transforms.tiling.check_tiling`) and
``parallel=1`` each loop (:func:`transforms.parallelization.check_parallel`).

Per function (:func:`plan_function`), candidates are built and the cheapest kept:

1. ``isl``: ISL's scheduler over the statements (validity, proximity and coincidence from
   the exact dependences, under an operation budget; again with strongly connected
   components serialised, which is cheaper; and serialised with every statement's
   innermost loop shown to ISL first, which it keeps outermost where the dependences let
   it: LU's and ludcmp's updates step by step over the trailing matrix, 3.2x and 3.6x
   against 1.9x and 1.5x), replacing the whole schedule; then
   every permutable band of the regenerated code tiled with sizes from the cache model of
   :mod:`poly.tile_model` for the machine's L2 (:mod:`transforms.machine`), loops inside a
   tile ordered for stride-1 innermost accesses, partial tiles by ``min``/``max`` bounds;
2. ``tile``: the source's schedule, reordered and tiled the same way (the fallback when
   ISL's schedule cannot be had: inexact dependences, a budget hit, a schedule that fails
   the check); and ``tile+transposed``, where pricing the arrays a band only reads as
   transposed copies puts another loop innermost, with those copies made
   (:func:`reordered_candidates`: ``C += A B^T``, whose ``k`` innermost is a chain of
   additions, gets ``j`` innermost over ``B^T``, 22x against 1.5-1.8x);
3. ``original+transposed``: the source's schedule with read-only arrays whose innermost
   reads move by rows read from transposed copies
   (:func:`transforms.transposed_copy.transpose_copies`), priced with the copies' own
   runs (syr2k: its source's order, A and B read from copies, cheaper than ISL's dot
   products; 9.55x against 1.60x);
4. ``expanded``, ``expanded isl``: where the function carries scalars in ``iter_args``
   (one statement to the dependence model, which no schedule can move loops across) or
   in ``affine.parallel`` reductions (run in order first:
   :func:`transforms.scalar_expansion.serial_reductions`; column sums of 4000^2 5.7x),
   the function with them in memory (:mod:`transforms.scalar_expansion`), then ISL's
   schedule, or the source's with imperfect loops distributed and each band reordered
   (and ``expanded+transposed`` as for ``tile``: row dot products 26x);
   priced relative to the expanded source (symm 6.1x, ludcmp 1.6x, deriche 5.3x,
   gramschmidt 8.2x against 1.6x with chains);
5. ``distributed``: the source with every loop whose body holds loops among other ops
   distributed where legal (:func:`distributed_module`; ``C = beta C`` inside ``j``
   before ``k``), then reordered as ``tile`` (and ``distributed+transposed``): ``C = beta
   C; C += alpha A B^T`` in f64 12.6x against 3.05x, syrk's lower triangle so written
   9.99x against 2.99x. Chosen, it must have register tiles or innermost loops LLVM
   vectorises (:func:`loads_beside_stores`: a repeated matrix-vector product with its sum
   in the same memref as its input ran 0.94x without), else the next candidate is taken;
6. ``original+crossing tiles``, where the function's data exceed the L2 cache: the
   source's schedule with every band whose innermost loop moves an access by rows that
   another loop moves along them (a transpose's ``B[j][i]``, which no loop order makes
   stride-1 on both sides) tiled 32 long in both, so that each line serves a tile's other
   loop too (:func:`crossing_tiled`; a 4096 x 4000 transpose 3.96x, where the capacity
   model's 8 x 4000 tiles, a new line and page per store, ran 1.0x), unless L2 keeps the
   lines one run of the innermost loop crosses until the next
   (:func:`poly.tile_model.crossed_lines_kept`: rows not a power of two long);
7. ``original``: the function untouched.

The cost model (:func:`poly.tile_model.access_cost`) charges the accesses of every
innermost loop by their stride; a candidate replaces the original schedule only when it is
at least :data:`SAME_COST` cheaper (a tie is no gain: bicg's tiled candidate, as cheap as
the original, ran 0.86x; ISL's skewed time tiles, as cheap as the original in the model,
measured 0.31-0.81x on stencils, their ``min``/``max`` bounds and guards costing more than
the reuse gains). Where no candidate is expected to gain, the original schedule is kept,
and the report says so. ISL's scheduler counts few of its steps against the operation
budget, so it also runs under a time limit, in a child process.

The chosen candidate gets the transposed copies it has use for (:func:`transposed`),
then register tiles (:func:`register_tiled`): the model cannot
rank them, so the choice follows what measured faster here. They go on the chosen
schedule *without* its cache tiles (register tiles alone measured 3.00x geomean over 16
kernels, beneath our cache tiles 2.53x; gemm 105 against 97 GFLOP/s, and cache tiles
sized by hand as multiples of the register tile, 106, no better), except beneath a matrix
product's tile whose rows each read again an array larger than half of L2
(:func:`transforms.register_tiling.cache_tiles_beneath`: with a 512 KiB L2 and 256-bit
vectors, gemm 52 GFLOP/s alone, 73 beneath tiles of 16 x 32 x 1100), on every innermost band
where :func:`transforms.register_tiling.tile_pays` expects a gain (accumulators held in
``iter_args``, or jammed rows that share loads) and
:func:`transforms.register_tiling.check_register_tile` finds the tile legal; multiply-adds
are fused only in tiles bound by FMA throughput, and not over triangles
(:func:`transforms.register_tiling.fuse_multiply_adds`). Where the source's schedule is kept
and gets no register tile, the ``expanded`` candidate (its ``iter_args`` in memory, as cheap in the
model) gets them instead where they pay (:func:`expanded_register_tiled`: the register
tiler holds several rows' accumulators side by side, which it cannot do for a loop
carrying one in ``iter_args``; attention 1.81x, a layer norm 2.14x). The report gives each
band's register tile (rows, vectors of so many lanes, the reduction loop).

Then innermost loops that carry a dependence (a chain of iterations each waiting for the
one before, which LLVM cannot vectorize) get up to 8 chains side by side: the enclosing
loop, perfect or not, unrolled and jammed, after a skew that makes it legal where one is
needed, with fewer chains where they would walk more than 16 address streams
(:func:`transforms.unroll_jam.interleave_chains`; seidel-2d 6.2x measured, adi's sweeps
with 4 rows each 2.0x, gramschmidt 1.6x). Where the ops after a triangular chain loop feed
the next iteration's chain, the chains run side by side over the iterations they share
and each finishes after (:func:`poly.tail_jam.tail_jam`: cholesky 1.55-1.59x, trisolv
1.56-1.73x; over a band, each row's iterations before those the group shares first). Chains
over a band of at most :data:`SHORT_CHAIN_BAND` iterations are left alone: the
out-of-order core overlaps them already.

Otherwise, where the source's schedule was kept (no candidate cheaper than the original),
or the source with its bands reordered is as cheap as the candidate chosen (a stencil written
column by column: :func:`time_tiling_source`, tried before chains in ISL's order), and the
function's data exceed the L2 cache, its time loops (a stencil's steps) get time tiles
(:func:`transforms.time_tiling.time_tile_function`: parallelogram tiles over the time loop
and the rows its sweeps write, sized for the L2 cache and, along the dimension the sweeps'
register tiles jam rows of (:func:`transforms.register_tiling.jammed_rows`), a multiple of
those rows: heat-3d 8 steps x 16 x 20 for its 5 rows, 197-206 ms against 202-221 for
16 x 16 in three runs), then register tiles inside them where those pay, kept when the
model cuts the traffic by at least :data:`~transforms.time_tiling.MIN_GAIN` or by
:data:`ROTATED_GAIN` with rotated loads inside (heat-3d's tiles, gain 2, measured
0.91-0.99x before loads were rotated, 1.18-1.29x with, against 1.11-1.15x for rotated
loads without tiles; 3-D stencils with rows of 300-512 floats, gain 1.33, 1.17-1.83x).
A time loop's sweeps are first tried fused row by row
(:func:`poly.time_tiles.fusion_shifts`: each statement where it writes, the fewest rows
behind that are legal), tiled by rows, with the loads of values
loaded or stored before in the same iteration forwarded (memref arguments apart, as the
dependence model takes them); kept where that saves at least :data:`FUSED_LOADS_SAVED` of
the full rows' loads (:func:`forwarded_share`; fdtd-2d 1.56-1.64x against 1.09-1.14x with
its sweeps apart), else the sweeps stay apart.

Register tiles, wherever they go, then have their overlapping vector loads of a row (a
stencil's ``X[j - 1]``, ``X[j]``, ``X[j + 1]``) read once, carried from iteration to
iteration and shuffled into place (:mod:`transforms.load_rotation`) where vectors are
:data:`~transforms.machine.ROTATION_BITS` wide: measured at LARGE sizes with time tiles and
512-bit vectors, jacobi-1d 1.74x (1.27x without), jacobi-2d 1.82x (1.63x), fdtd-2d 1.36x
(1.09x), heat-3d 1.18-1.29x (1.01x); with 256-bit vectors the shuffles cost more than the
loads they save (jacobi-1d 1.35x rotated, 1.49x not).

Options: ``l1=``, ``l2=``, ``l3=`` (KiB), ``l1-ways=`` and ``vector-bits=`` override what
the OS says (:func:`transforms.machine.machine_from_options`); ``parallel=1`` turns the outermost loops
that carry no dependence into ``affine.parallel``; ``report=text|json`` adds a remark with
the report (per function: candidates and their costs, the schedule chosen as ISL text, which
``--affine-schedule`` re-applies, tile sizes and why, what was left alone and why).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace

from affine.analysis.loops import constant_trip_count
from affine.analysis.value_map import ValueMap, access_map
from affine.errors import PolyError
from affine.ir.core import Module, Operation, Value
from affine.ir.diagnostics import Location
from affine.ir.labels import value_label
from affine.ir.types import MemRefType
from affine.ops import LoadOp, StoreOp
from affine.syntax.printer import print_module
from poly.context import IslBudgetExceeded
from poly.schedule import Schedule
from poly.schedule_isl import compute_schedule
from poly.schedule_program import ScheduleError, where
from poly.tile_model import (
    CROSSING_TILE,
    access_cost,
    cheapest_innermost,
    crossed_lines_kept,
    crossing_accesses,
    crossing_saving,
    instance_counts,
    memref_bytes,
)
from transforms.distribute import distribute_imperfect_loops
from transforms.load_rotation import rotate_function_loads
from transforms.loop_pass import analysis_of, functions
from transforms.loop_utils import (
    get_tileable_bands,
    innermost_loops,
    maximal_bands,
    vectorised_once_unrolled,
)
from transforms.machine import Machine, machine_from_options
from transforms.parallelization import Parallelize
from transforms.permutation import apply_permutation
from transforms.register_tiling import (
    fuse_multiply_adds,
    jammed_rows,
    register_tile_function,
    tile_pays,
)
from transforms.registry import PassContext
from transforms.scalar_expansion import expand_function, serial_reductions
from transforms.scalar_replacement import scalar_replace_function
from transforms.tiling import LoopTile
from transforms.time_tiling import MIN_GAIN, NOT_FUSED, time_tile_function
from transforms.transposed_copy import transpose_copies
from transforms.unroll_jam import band_width, interleave_chains
from transforms.vector_sums import vector_sums_function

MAX_OPERATIONS = 2_000_000  # ISL's budget for one function's schedule
TIME_LIMIT = 10.0  # seconds: ISL's scheduler counts few of its steps against the budget
SAME_COST = 0.1  # a candidate less than 10 % cheaper is no gain to the model
# chain loops over a band this narrow are left alone: a band matrix-vector product's rows
# (``y[i] += A[i][j - i + W] x[j]``, j within W of i) ran side by side 0.58x, 0.67x and
# 0.76x for bands of 65, 129 and 201, 1.08x, 1.46x and 1.50x for 257, 513 and 2049
SHORT_CHAIN_BAND = 256
# time tiles whose register tiles rotate loads: heat-3d's (2) 1.2-1.3x; 3-D stencils whose
# rows leave room for no more (8 steps x 8 x 16, 1.33), same run: 1.23x (10 MiB of data),
# 1.17x (16 MiB), 1.68x (26 MiB), 1.83x (31 MiB), against 1.14x, 1.07x, 1.00x and 0.97x
# for register tiles alone
ROTATED_GAIN = 1.3
# fused sweeps pay where forwarding within a step saves this share of the loads: fdtd-2d
# 3 of 11 (1.6x, 1.1x apart); jacobi-1d 1 of 6 (0.28x) and jacobi-2d 1 of 10 (1.04x), whose
# sweeps apart get rows jammed (2.4x, 1.9x)
FUSED_LOADS_SAVED = 0.2


@dataclass
class Candidate:
    """One way to run a function: its module, the model's cost, and what was done."""

    name: str
    module: Module
    cost: float
    schedule: str = ""  # the schedule applied, as ISL text ("" for the source's)
    tiles: list[str] = field(default_factory=list)
    untiled: Candidate | None = None  # the same schedule without cache tiles
    split: bool = False  # its code needs loops split where their statements change


@dataclass
class FunctionReport:
    """What the auto-scheduler did to one function, in the source's names."""

    function: str
    location: str
    statements: list[str]
    chosen: str
    schedule: str
    tiles: list[str]
    costs: dict[str, float]
    remarks: list[str]
    split: bool = False  # apply the schedule with its loops split (``--affine-schedule split``)

    def text(self) -> str:
        lines = [f"{self.function} at {self.location}: {self.chosen}"]
        lines += [f"  statement {s}" for s in self.statements]
        costs = ", ".join(f"{k} {v:.3g}" for k, v in self.costs.items())
        lines.append(f"  model cost (lower is better): {costs}")
        if self.schedule:
            split = " (apply with split)" if self.split else ""
            lines.append(f"  schedule{split}: {self.schedule}")
        lines += [f"  {t}" for t in self.tiles]
        lines += [f"  {r}" for r in self.remarks]
        return "\n".join(lines)


@dataclass
class AutoScheduleResult:
    """The new module and, per function, the report."""

    module: Module
    machine: str
    functions: list[FunctionReport]

    def text(self) -> str:
        return "\n".join([f"machine: {self.machine}", *(f.text() for f in self.functions)])

    def json(self) -> str:
        return json.dumps(
            {"machine": self.machine, "functions": [asdict(f) for f in self.functions]},
            indent=2,
        )


def _name(function: Operation) -> str:
    return "@" + str(getattr(function.properties.get("sym_name"), "value", "?"))


def _lines(ops: list[Operation]) -> str:
    """``k.mlir:8-22``: where the given ops are written."""
    locs = [op.loc for op in ops if isinstance(op.loc, Location)]
    if not locs:
        return "generated code"
    first, last = min(x.line for x in locs), max(x.line for x in locs)
    return f"{locs[0].source.name}:{first}" + (f"-{last}" if last != first else "")


def _function_in(module: Module, name: str) -> Operation:
    return module.function(name.lstrip("@"))


def _cost(module: Module, name: str, counts: dict[object, int]) -> float:
    return access_cost(_function_in(module, name), counts)


def _reordered(
    module: Module, name: str, counts: dict[object, int], transposing: bool = False
) -> Module:
    """``module`` (a copy of nobody else's) with every maximal perfect band of the function
    reordered, where legal, so that the loop the cost model finds cheapest innermost is
    (with ``transposing``, the arrays a band only reads priced as read from transposed
    copies: :func:`poly.tile_model.cheapest_innermost`)."""
    function = _function_in(module, name)
    context = PassContext(print_op_on_diagnostic=False)
    analysis = analysis_of(function)
    for band in maximal_bands(function):
        if len(band) < 2:
            continue
        best = cheapest_innermost(band, analysis.model, counts, transposing)
        if best == len(band) - 1:
            continue
        order = [k for k in range(len(band)) if k != best] + [best]
        apply_permutation(band, [order.index(k) for k in range(len(band))], analysis, context)
        analysis = analysis_of(function)  # the loops moved
    return module


def _tiled(module: Module, name: str, tiler: LoopTile) -> tuple[Module, list[str]]:
    """A copy of ``module`` with the function's bands tiled by ``tiler``; what was tiled."""
    module = module.clone()
    context = PassContext(print_op_on_diagnostic=False)
    done = tiler.tile_function(_function_in(module, name), context)
    return module, [f"band of {_lines(ops)}: {what}" for ops, what in done]


def _tiled_candidate(
    label: str,
    scheduled: Module,
    name: str,
    tiler: LoopTile,
    counts: dict[object, int],
    schedule: str = "",
) -> Candidate:
    """The candidate ``label``: ``scheduled`` (by ``schedule``, as ISL text) with its bands
    tiled, remembering the untiled module (cache tiles do not change the model's cost)."""
    tiled, tiles = _tiled(scheduled, name, tiler)
    cost = _cost(scheduled, name, counts)
    untiled = Candidate(f"{label} untiled", scheduled, cost, schedule)
    if not tiles:
        return Candidate(label, scheduled, cost, schedule)
    return Candidate(label, tiled, cost, schedule, tiles, untiled)


def reordered_candidates(
    label: str, module: Module, name: str, tiler: LoopTile, counts: dict[object, int]
) -> list[Candidate]:
    """The candidate ``label``: function ``name`` of ``module`` with its bands reordered
    (:func:`_reordered`) and tiled; and ``label+transposed`` where pricing the arrays a band
    only reads as transposed copies puts other loops innermost: those orders with the
    copies made (:func:`transposed`), priced untiled with the copies' own runs (``C +=
    A B^T``'s ``j`` innermost with ``B^T`` stride-1, where ``k`` innermost is a chain of
    dependent additions: 22x against 1.5-1.8x with chains side by side)."""
    reordered = _reordered(module.clone(), name, counts)
    found = [_tiled_candidate(label, reordered, name, tiler, counts)]
    turned = _reordered(module.clone(), name, counts, transposing=True)
    if print_module(turned) == print_module(reordered):
        return found
    copied = transposed(_tiled_candidate(label, turned, name, tiler, counts), name, counts)
    if copied.name.endswith("+transposed"):
        untiled = copied.untiled or copied
        runs = instance_counts(_function_in(untiled.module, name))
        untiled.cost = copied.cost = _cost(untiled.module, name, runs)
        found.append(copied)
    return found


def crossing_tiled(
    module: Module, name: str, original: Candidate, counts: dict[object, int], l2: int
) -> Candidate | None:
    """The source's schedule with every outermost band whose innermost loop moves an access
    by rows that another of its loops moves along them
    (:func:`poly.tile_model.crossing_accesses`: a transpose's) tiled
    :data:`~poly.tile_model.CROSSING_TILE` long in those loops, the others whole, the
    order kept; priced as the original less what the tiles save
    (:func:`poly.tile_model.crossing_saving`). None when no band has such an access longer
    than one tile whose lines an L2 of ``l2`` bytes does not already keep between the
    loops' runs (:func:`poly.tile_model.crossed_lines_kept`), or its tiles are not legal."""
    module = module.clone()
    function = _function_in(module, name)
    analysis = analysis_of(function)
    context = PassContext(print_op_on_diagnostic=False)
    saving, tiles = 0.0, []
    for band in get_tileable_bands(function):
        trips = [constant_trip_count(loop) or 0 for loop in band]
        crossing = [
            (a, k)
            for a, k in crossing_accesses(band, analysis.model)
            if not crossed_lines_kept(a, band[-1], trips[-1], l2)
        ]
        tiled = {len(band) - 1, *(k for _, k in crossing)}
        if not crossing or 0 in trips or max(trips[k] for k in tiled) <= CROSSING_TILE:
            continue
        sizes = tuple(CROSSING_TILE if k in tiled else t for k, t in enumerate(trips))
        what = LoopTile(tile_sizes=sizes).tile(band, analysis, context)
        if what is None:
            continue
        accesses = [a for a, _ in crossing]
        saving += crossing_saving(accesses, CROSSING_TILE, counts)
        arrays = ", ".join(dict.fromkeys(value_label(a.memref) for a in accesses))
        tiles.append(
            f"band of {_lines([a.op for a in accesses])}: tiled {'x'.join(map(str, sizes))}: the lines of "
            f"{arrays} that its innermost loop crosses serve the tile's other loop too"
        )
        analysis = analysis_of(function)  # the loops changed
    if not tiles:
        return None
    return Candidate("original+crossing tiles", module, original.cost - saving, tiles=tiles)


def _all(original: Candidate, candidates: list[Candidate]) -> list[Candidate]:
    """Every candidate built, the untiled forms of tiled ones included."""
    found = [original]
    for c in candidates:
        found += [c] if c.untiled is None else [c, c.untiled]
    return found


def isl_candidate(
    schedule: Schedule,
    serialize: bool,
    max_operations: int,
    remarks: list[str],
    time_limit: float | None = TIME_LIMIT,
    innermost_outside: bool = False,
) -> Schedule | None:
    """ISL's schedule for the function (strongly connected components each in its own
    nest when ``serialize``; every statement's innermost loop seen first with
    ``innermost_outside``: :func:`poly.schedule_isl.compute_schedule`), checked; None (with
    the reason in ``remarks``) when the dependences are not exact, ISL runs out of budget
    or the result fails the check."""
    dependences, _ = schedule.program.dependences()
    inexact = [d for d in dependences if not d.exact]
    if inexact:
        remarks.append(
            f"ISL's scheduler not used: the {inexact[0].describe()} is not exact "
            f"({inexact[0].reason or 'over-approximated'})"
        )
        return None
    what = "ISL's schedule" + (" with components serialised" if serialize else "")
    what += " with innermost loops outside" if innermost_outside else ""
    try:
        tree = compute_schedule(
            schedule.program, dependences, max_operations, serialize, time_limit, innermost_outside
        )
        chosen = schedule.replace(tree)
        verdict = chosen.check()
    except IslBudgetExceeded:
        remarks.append(
            f"{what}: over the budget of {max_operations} ISL operations or {time_limit} s"
        )
        return None
    except ScheduleError as e:
        remarks.append(f"{what} not used: {e.message}")
        return None
    if not verdict.legal:
        remarks.append(f"{what} not used: {verdict.status}: {verdict.reason}")
        return None
    for loop in chosen.loops:  # loops stay sequential here: parallel=1 decides later
        chosen = chosen.parallel(loop, on=False)
    return chosen


def isl_candidates(
    module: Module,
    name: str,
    tiler: LoopTile,
    counts: dict[object, int],
    remarks: list[str],
    max_operations: int,
    time_limit: float | None,
    label: str = "",
) -> tuple[list[Candidate], list[str]]:
    """The candidates of ISL's schedule of function ``name`` (then with components
    serialised, then also with every statement's innermost loop seen first), reordered and
    tiled, labelled ``label`` + "isl..."; and the function's statements. Why there are none
    goes to ``remarks``."""
    try:
        schedule = Schedule.of(_function_in(module, name))
    except ScheduleError as e:
        remarks.append(f"no whole-function schedule: {e.message}")
        return [], []
    found = []
    serialized_over_budget = None  # the serialised attempt's remark when it ran out
    for serialize, outside in ((False, False), (True, False), (True, True)):
        if outside and serialized_over_budget is not None:
            # the serialised problem again with the dimensions rotated: not worth another
            # time limit once it ran out (adi: three times 10 s)
            remarks.append(
                f"{serialized_over_budget.split(':')[0]} with innermost loops outside: not "
                "tried (the serialised schedule ran out of budget)"
            )
            break
        known = len(remarks)
        chosen = isl_candidate(schedule, serialize, max_operations, remarks, time_limit, outside)
        if serialize and not outside:
            said = remarks[known:]
            serialized_over_budget = next((r for r in said if "over the budget" in r), None)
        if chosen is None:
            if not serialize and remarks and "not exact" in remarks[-1]:
                break
            continue
        kind = f"{label}isl" + (" serialized" if serialize else "")
        kind += " innermost outside" if outside else ""
        scheduled = _reordered(chosen.apply(), name, counts)
        found.append(_tiled_candidate(kind, scheduled, name, tiler, counts, str(chosen)))
    return found, [s.describe() for s in schedule.statements]


def expanded_module(module: Module, name: str) -> Module | None:
    """A copy of ``module`` with the values function ``name`` carries in ``iter_args``
    demoted to memory (:func:`transforms.scalar_expansion.expand_function`), its
    ``affine.parallel`` reductions first run in order in ``affine.for`` loops
    (:func:`transforms.scalar_expansion.serial_reductions`), or None when it carries none
    that can be."""
    expanded = module.clone()
    context = PassContext(print_op_on_diagnostic=False)
    function = _function_in(expanded, name)
    serial = serial_reductions(function, context)
    return expanded if expand_function(function, context) or serial else None


def expanded_candidates(
    expanded: Module,
    name: str,
    counts: dict[object, int],
    tiler: LoopTile,
    original: Candidate,
    max_operations: int,
    time_limit: float | None,
) -> list[Candidate]:
    """The candidates of function ``name`` with its ``iter_args`` in memory (``expanded``):
    ISL's schedules, and the source's with every imperfect loop distributed where legal
    (:func:`transforms.distribute.distribute_imperfect_loops`) and each band reordered
    (symm's ``k`` loop outside ``j``: 6.0x). The model sees no access inside a loop that
    carries ``iter_args``, so the original's price and theirs do not compare; each is
    priced relative to the expanded source's, times the original's; runs are ``counts``
    (:func:`poly.tile_model.instance_counts` of the expanded function)."""
    scale = original.cost / max(_cost(expanded, name, counts), 1.0)
    found, _ = isl_candidates(
        expanded, name, tiler, counts, [], max_operations, time_limit, "expanded "
    )
    found += reordered_candidates(
        "expanded", distributed_module(expanded, name) or expanded, name, tiler, counts
    )
    for c in found:
        for one in (c, c.untiled):
            if one is not None:
                one.cost *= scale
    return found


def distributed_module(module: Module, name: str) -> Module | None:
    """A copy of ``module`` with every imperfect loop of function ``name`` distributed where
    legal (:func:`transforms.distribute.distribute_imperfect_loops`), so that its bands can
    be reordered; None where no loop is."""
    distributed = module.clone()
    distribute_imperfect_loops(_function_in(distributed, name))
    return None if print_module(distributed) == print_module(module) else distributed


def data_bytes(function: Operation) -> int:
    """Bytes of the memrefs the function takes or allocates, unknown extents at
    :data:`~poly.tile_model.TYPICAL_PARAMETER` (:func:`~poly.tile_model.memref_bytes`)."""
    values: list[Value] = list(function.regions[0].blocks[0].arguments)
    values += [r for op in function.walk() if op.name in _ALLOCS for r in op.results]
    return sum(memref_bytes(t) for v in values if isinstance(t := v.type, MemRefType))


_ALLOCS = ("memref.alloc", "memref.alloca")


def choose(candidates: list[Candidate], original: Candidate) -> Candidate:
    """The candidate (in order of preference) the model expects to gain most over
    ``original``: the cheapest, if at least :data:`SAME_COST` cheaper; else ``original``
    (a tie is no gain: bicg's tiled candidate, as cheap as the original, ran 0.86x)."""
    best = original
    for c in candidates:
        if c.cost < best.cost and c.cost < original.cost * (1 - SAME_COST):
            best = c
    return best


def _chosen(
    candidates: list[Candidate],
    original: Candidate,
    copied: Candidate,
    name: str,
    runs: dict[object, int],
    machine: Machine,
) -> tuple[Candidate, Candidate | None]:
    """The candidate :func:`choose` takes, with the transposed copies it has use for
    (:func:`transposed`; ``copied``, the source's, has them), and its register tiles
    (:func:`register_tiled`)."""
    best = choose(candidates, original)
    if best is not copied:
        best = transposed(best, name, runs)
    return best, register_tiled(best, name, machine)


def register_tiled(best: Candidate, name: str, machine: Machine) -> Candidate | None:
    """``best`` with register tiles (:func:`transforms.register_tiling.register_tile_function`,
    each checked by :func:`~transforms.register_tiling.check_register_tile`) where they pay
    (:func:`~transforms.register_tiling.tile_pays`), on the schedule without cache tiles
    (register tiles alone measured faster than beneath our cache tiles: geomean 3.00x
    against 2.53x over 16 kernels, gemm 105 against 97 GFLOP/s) but for those
    :func:`~transforms.register_tiling.cache_tiles_beneath` finds worth it; None when no
    band gets one."""
    base = best.untiled or best
    module = base.module.clone()
    context = PassContext(print_op_on_diagnostic=False)
    done = register_tile_function(
        _function_in(module, name),
        machine,
        context,
        fma=fuse_multiply_adds,
        pays=lambda band, tile: tile_pays(band, tile, machine.l2, machine.l1),
        cache_tiles=True,
    )
    if not done:
        return None
    if machine.rotates_loads:
        done += rotate_function_loads(_function_in(module, name))
    tiles = [*base.tiles, *done]
    return Candidate(
        f"{base.name}+regtile", module, base.cost, base.schedule, tiles, split=base.split
    )


def expanded_register_tiled(
    candidates: list[Candidate], original: Candidate, name: str, machine: Machine
) -> Candidate | None:
    """The source with its ``iter_args`` in memory (the ``expanded`` candidate: imperfect
    loops distributed, bands reordered) with register tiles, where the model finds it no
    dearer than the original and they pay: the register tiler holds the accumulators of
    several rows of a reduction in registers, which it cannot do for a loop carrying its
    one accumulator in ``iter_args`` (attention's dot products of rows of Q and K, 1.69x);
    None otherwise."""
    source = next((c for c in candidates if c.name == "expanded"), None)
    if source is None or source.cost > original.cost:
        return None
    return register_tiled(source, name, machine)


def transposed(best: Candidate, name: str, counts: dict[object, int]) -> Candidate:
    """``best`` (and its untiled form) with the transposed copies
    :func:`transforms.transposed_copy.transpose_copies` finds worth making, runs by the
    source's ``counts``: read-only arrays whose innermost reads move by rows, read from a
    copy in which they are stride-1 (syrk 7.25x, against 1.41x without); its untiled form
    alone where only that has them (the cache tiles' bounds hide what a triangle's loops
    read: syr2k's lower triangle, distributed); ``best`` itself when there are none."""

    def copied(c: Candidate) -> Candidate:
        module = c.module.clone()
        context = PassContext(print_op_on_diagnostic=False)
        done = transpose_copies(_function_in(module, name), context, counts=counts)
        if not done:
            return c
        return Candidate(f"{c.name}+transposed", module, c.cost, c.schedule, [*c.tiles, *done])

    result = copied(best)
    if result is best:  # the cache tiles' bounds may hide what the loops read
        untiled = None if best.untiled is None else copied(best.untiled)
        return best if untiled is None or untiled is best.untiled else untiled
    result.untiled = None if best.untiled is None else copied(best.untiled)
    return result


def time_tiling_source(
    best: Candidate, original: Candidate, candidates: Sequence[Candidate]
) -> Candidate | None:
    """What time tiles start from: the source where it was kept (no candidate cheaper);
    where a candidate is cheaper, the source with its bands reordered (the ``tile``
    candidate untiled) if that alone is as cheap in the model (a stencil written column by
    column: each sweep's loops turned so its rows are stride-1; jacobi-2d so, 1500^2 x 100
    steps: 29.3 ms with time tiles, 332.8 with ISL's tiled schedule, 2602 the source;
    fdtd-2d so, 25.7 ms against 191.2 for ISL's order with chains); else None."""
    if best.cost >= original.cost:
        return None if best.schedule else original
    reordered = next((c for c in candidates if c.name == "tile"), None)
    if reordered is None or reordered.cost > best.cost * (1 + SAME_COST):
        return None
    return replace(reordered.untiled or reordered, name=reordered.name)


def time_tiled(
    source: Candidate,
    name: str,
    machine: Machine,
    remarks: list[str],
    min_gain: float = ROTATED_GAIN,
) -> Candidate | None:
    """``source`` (:func:`time_tiling_source`) with its time loops tiled
    (:func:`transforms.time_tiling.time_tile_function`) where the model divides their
    traffic by at least :data:`ROTATED_GAIN`, with register tiles inside where they pay;
    kept if the gain is at least :data:`~transforms.time_tiling.MIN_GAIN` or the register
    tiles rotate their loads (:mod:`transforms.load_rotation`: heat-3d's tiles, gain 2,
    1.18-1.29x with rotated loads against 1.11-1.15x without tiles, 0.91-0.99x without
    rotation), or, where vectors are narrower than :data:`~transforms.machine.ROTATION_BITS`,
    have register tiles inside; else the tiles that divide the traffic most among those
    that divide it by at least :data:`~transforms.time_tiling.MIN_GAIN` (box9's step tiles
    in L1, gain 2.84, gave way to tiles of whole rows, 10.7: 1.51x); None (and why in
    ``remarks``) otherwise."""
    module = source.module
    rows = jammed_rows(_function_in(module, name), machine)
    result = time_tile_function(
        module, name.lstrip("@"), machine, min_gain=min_gain, fuse=True, rows=rows
    )
    forwarded = []
    if any(p.tiling.fused for p in result.tiled):
        saved = forwarded_share(_function_in(result.module, name))
        if saved >= FUSED_LOADS_SAVED:
            forwarded.append(
                f"the fused sweeps' loads of values loaded or stored before in the same "
                f"iteration forwarded: {saved:.0%} of the innermost loop's loads (the "
                "schedule re-applies with --affine-schedule split)"
            )
        else:
            remarks.extend(
                f"{NOT_FUSED}{p.describe()}: forwarding saves {saved:.0%} of the loads of "
                f"its innermost loop (at least {FUSED_LOADS_SAVED:.0%} wanted)"
                for p in result.tiled
            )
            result = time_tile_function(
                module, name.lstrip("@"), machine, min_gain=min_gain, rows=rows
            )
    if result.schedule is None:
        remarks.extend(f"not time-tiled: {p}" for p in result.plans)
        return None
    tiles = [p.describe() for p in result.tiled] + forwarded
    timed = Candidate(
        f"{source.name}+time tiles",
        result.module,
        source.cost,
        str(result.schedule),
        tiles,
        split=bool(forwarded),
    )
    registers = register_tiled(timed, name, machine)
    # below MIN_GAIN, tiles are kept for the register tiles inside: those that rotate
    # loads, or any where vectors are too narrow to rotate
    inside_pays = registers is not None and (
        not machine.rotates_loads or any(t.startswith("loads rotated") for t in registers.tiles)
    )
    gain = min(p.gain for p in result.tiled)
    if gain < MIN_GAIN and not inside_pays:
        retried = None
        if min_gain < MIN_GAIN:  # the tiles that divide the traffic most of those reaching it
            more: list[str] = []
            retried = time_tiled(source, name, machine, more, MIN_GAIN)
            remarks.extend(r for r in more if r not in remarks)
        verdict = "time tiles not taken" if retried else "not time-tiled"
        remarks.extend(f"{verdict}: {p.describe()}: not enough gain" for p in result.tiled)
        return retried
    return registers or timed


def chains_left_alone(loop: Operation) -> str | None:
    """Why chains side by side (:func:`transforms.unroll_jam.interleave_chains`) over chain
    loop ``loop`` would not pay, or None: a band of at most :data:`SHORT_CHAIN_BAND`
    iterations, or a loop LLVM unrolls whole and then vectorises the loop around
    (:func:`transforms.loop_utils.vectorised_once_unrolled`)."""
    width = band_width(loop)
    if width is not None and width <= SHORT_CHAIN_BAND:
        return (
            f"a band of at most {width} iterations, whose chains the out-of-order core "
            f"overlaps already (side by side only over bands wider than {SHORT_CHAIN_BAND})"
        )
    if vectorised_once_unrolled(loop):
        return "LLVM unrolls it whole and vectorises the loop around it"
    return None


def loads_beside_stores(function: Operation) -> bool:
    """Whether an innermost loop of ``function`` loads from a memref it stores to through
    subscripts no store of it uses: LLVM cannot tell those loads from the stores (one
    buffer, addresses it cannot compare) and does not vectorise the loop."""
    for loop in innermost_loops(function):
        stored: dict[Value, set[ValueMap]] = {}
        loaded: dict[Value, set[ValueMap]] = {}
        for op in loop.walk():
            if op.name in StoreOp.OP_NAMES:
                stored.setdefault(StoreOp(op).memref, set()).add(access_map(op))
            elif op.name in LoadOp.OP_NAMES:
                loaded.setdefault(LoadOp(op).memref, set()).add(access_map(op))
        if any(loaded.get(memref, set()) - keys for memref, keys in stored.items()):
            return True
    return False


def forwarded_share(function: Operation) -> float:
    """The share of the loads of ``function``'s busiest innermost loop (the one with the
    most stores: a fused step's full rows) that :func:`~transforms.scalar_replacement.
    scalar_replace_function` replaces by values loaded or stored before in the same
    iteration (memref arguments apart, as the dependence model takes them); ``function``
    is rewritten so."""
    innermost = innermost_loops(function)
    if not innermost:
        return 0.0

    def count(loop: Operation, name: str) -> int:
        return sum(1 for op in loop.walk() if op.name == name)

    busiest = max(innermost, key=lambda loop: count(loop, "affine.store"))
    before = count(busiest, "affine.load")
    scalar_replace_function(function, arguments_apart=True)
    return 1 - count(busiest, "affine.load") / before if before else 0.0


def plan_function(
    module: Module,
    name: str,
    machine: Machine,
    max_operations: int = MAX_OPERATIONS,
    time_limit: float | None = TIME_LIMIT,
) -> tuple[Module, FunctionReport]:
    """The module with function ``name`` auto-scheduled (see the module docstring) and the
    report; ``module`` is untouched."""
    function = _function_in(module, name)
    tiler = LoopTile(cache_size=machine.l2 // 1024)
    remarks: list[str] = []
    counts = instance_counts(function)
    original = Candidate("original", module, _cost(module, name, counts))
    candidates, statements = isl_candidates(
        module, name, tiler, counts, remarks, max_operations, time_limit
    )
    candidates += reordered_candidates("tile", module, name, tiler, counts)
    distributed = distributed_module(module, name)
    if distributed is not None:  # C = beta C inside j, before k: k outside j once apart
        candidates += reordered_candidates("distributed", distributed, name, tiler, counts)
    copied = transposed(original, name, counts)
    if copied is not original:  # priced with the copies' own runs
        copied.cost = _cost(copied.module, name, instance_counts(_function_in(copied.module, name)))
        candidates.append(copied)
    runs = counts  # of every access any candidate has, by source position
    expanded = expanded_module(module, name)
    if expanded is not None:
        expanded_runs = instance_counts(_function_in(expanded, name))
        runs = counts | expanded_runs
        candidates += expanded_candidates(
            expanded, name, expanded_runs, tiler, original, max_operations, time_limit
        )
    size = data_bytes(function)
    if size > machine.l2:
        crossed = crossing_tiled(module, name, original, counts, machine.l2)
        if crossed is not None:
            candidates.append(crossed)
    best, registers = _chosen(candidates, original, copied, name, runs, machine)
    if (
        registers is None
        and best.name.startswith("distributed")
        and loads_beside_stores(_function_in((best.untiled or best).module, name))
    ):
        # a repeated matrix-vector product with its sum X'[i] zeroed inside i, distributed
        # and reordered (A^T read by rows), stores X'[i] beside loads of X[j] in one memref:
        # scalar, 0.94x; the source's register tiles, 2.91x (syrk's lower triangle so
        # distributed, vectorised by LLVM without register tiles: 9.76x against 2.94x)
        remarks.append(
            f"{best.name} not taken: an innermost loop stores to a memref it loads through "
            "other subscripts (LLVM keeps it scalar) and no register tile pays on its bands"
        )
        candidates = [c for c in candidates if not c.name.startswith("distributed")]
        best, registers = _chosen(candidates, original, copied, name, runs, machine)
    if best is original:
        remarks.append(
            "original loop order kept: no reordered candidate has innermost accesses at least "
            f"{SAME_COST:.0%} cheaper in the model (its data: {size // 1024} KiB)"
        )
    if registers is None and best is original:
        registers = expanded_register_tiled(candidates, original, name, machine)
    if (registers or best).name.startswith("expanded"):
        remarks.append(
            "values carried in iter_args moved to memory (--affine-expand-iter-args); "
            "the schedule applies to the function after that pass"
        )
    if registers is not None:
        candidates.append(registers)
        best = registers
    # time tiles start from the source or the source reordered (time_tiling_source), not
    # where register tiles hold sums across a loop: those beat time tiles of it (gemm's k,i,j)
    source = None
    if size > machine.l2 and not any(", reduction " in t for t in best.tiles):
        source = time_tiling_source(best, original, candidates)
    timed = None
    if source is not None and source is not original:  # before chains in ISL's order
        timed = time_tiled(source, name, machine, remarks)
        if timed is not None:
            timed.schedule = ""  # over the reordered loops, not the source's statements
            remarks.append(
                "time tiles of the source with its bands reordered (the tile candidate's "
                "order): no schedule over the source's statements to report"
            )
    if timed is None:
        interleaved, chains = interleave_chains(
            best.module, name.lstrip("@"), left_alone=chains_left_alone, remarks=remarks
        )
        if chains:
            best = Candidate(
                f"{best.name}+chains", interleaved, best.cost, best.schedule, best.tiles
            )
            candidates.append(best)
            remarks.extend(line for _, line in chains)
        elif source is original:
            timed = time_tiled(source, name, machine, remarks)
    if timed is not None:
        candidates.append(timed)
        best = timed
    summed = best.module.clone()
    sums = vector_sums_function(_function_in(summed, name), machine)
    if sums:
        best = Candidate(
            f"{best.name}+sums",
            summed,
            best.cost,
            best.schedule,
            [*best.tiles, *sums],
            split=best.split,
        )
        candidates.append(best)
    report = FunctionReport(
        name,
        where(function),
        statements,
        best.name,
        best.schedule,
        best.tiles,
        {c.name: c.cost for c in _all(original, candidates)},
        remarks,
        best.split,
    )
    return best.module, report


def auto_schedule(
    module: Module,
    l1: int | None = None,
    l2: int | None = None,
    l3: int | None = None,
    vector_bits: int | None = None,
    parallel: bool = False,
    max_operations: int = MAX_OPERATIONS,
    time_limit: float | None = TIME_LIMIT,
    l1_ways: int | None = None,
) -> AutoScheduleResult:
    """Every function with a body auto-scheduled (cache sizes in KiB and the L1's ways
    override the OS's); ``module`` is untouched."""
    machine = machine_from_options(
        {"l1": l1, "l2": l2, "l3": l3, "l1-ways": l1_ways, "vector-bits": vector_bits}
    )
    reports = []
    result = module
    for function in functions(module):
        result, report = plan_function(result, _name(function), machine, max_operations, time_limit)
        reports.append(report)
    if parallel:
        result = Parallelize(max_nested=1).run(result, PassContext(print_op_on_diagnostic=False))
    return AutoScheduleResult(result, machine.describe(), reports)


@dataclass
class AffineAutoSchedule:
    """``--affine-auto-schedule`` (see the module docstring)."""

    name = "affine-auto-schedule"
    l1: int = 0
    l2: int = 0
    l3: int = 0
    l1_ways: int = 0
    vector_bits: int = 0
    parallel: bool = False
    report: str = ""

    def run(self, module: Module, context: PassContext) -> Module:
        if self.report not in ("", "text", "json"):
            raise PolyError(f"report= takes 'text' or 'json', got '{self.report}'")
        try:
            result = auto_schedule(
                module,
                self.l1 or None,
                self.l2 or None,
                self.l3 or None,
                self.vector_bits or None,
                self.parallel,
                l1_ways=self.l1_ways or None,
            )
        except ValueError as e:  # a machine option out of range
            raise PolyError(f"--affine-auto-schedule: {e}") from e
        for f in result.functions:
            op = _function_in(module, f.function)
            for remark in f.remarks:
                context.emit(op, "remark", remark)
        if self.report:
            text = result.json() if self.report == "json" else result.text()
            context.emit(None, "remark", f"auto-schedule report:\n{text}")
        return result.module


__all__ = [
    "AffineAutoSchedule",
    "AutoScheduleResult",
    "Candidate",
    "FunctionReport",
    "auto_schedule",
    "choose",
    "isl_candidate",
    "plan_function",
]
