"""Measured search over schedules: ``poly-tune`` and :func:`tune`.

Invariant: every candidate is built from a *base* module by recorded steps, each through
its transformation's own legality check, and an illegal one is never built or timed. The
bases: the auto-scheduler's module (:func:`transforms.auto_scheduler.auto_schedule`; the
first trial of a new study is it, untouched, so the tuned result is never slower than the
automatic one on the tuner's own measurements), the source (or the ``start`` schedule),
the source after ``--affine-loop-fusion`` in each mode that changes it (a mode whose
every pair :func:`transforms.fusion.check_fusion` refuses is an illegal choice), and, for
a stencil, the source after ``--affine-time-tile`` with the model's tile sizes and
multiples of them (:data:`TIME_TILE_SCALES`). The steps,
in order: loops to distribute, then a loop order, rectangular tile sizes and the order of
the loops inside a tile for each perfect nest of the base's :class:`poly.schedule.Schedule` (checked against the exact dependences);
a register tile of every innermost band (rows, vectors and vector width;
:func:`transforms.register_tiling.check_register_tile`) or, without one, unroll-and-jam of
each nest's outermost loop (:func:`transforms.unroll_jam.check_unroll_and_jam`); and,
when asked for (``parallel=True``), outermost loops that carry no dependence as
``affine.parallel`` (:func:`transforms.parallelization.check_parallel`), which the C
backend runs with OpenMP threads: such a candidate uses every core while it is timed, so
parallel tuning wants one worker.
A legal one is run on the same inputs as the original (C backend) and discarded as wrong
when any result differs; only then is it timed (warm-up, repeats, the minimum) by the
``backend``: the C backend (default), or ``mlir-runner``, the candidate lowered by mlir-opt
22's pipeline (:data:`affine.exec.mlir_runner.MLIR_LOWERING`) and run under the MLIR JIT at
``-O3``, timed by ``rtclock`` around the call (the harness fills the inputs itself). A
candidate more than ``prune`` times slower than the fastest measured before its batch, on
its first timed run, is told to optuna as pruned and not timed again. Each
measurement is one task on one worker, so a machine measures one candidate per core at a
time.

The search is an optuna study (TPE, seeded): candidates are asked in batches of the
executor's size and told in the order they were asked, so a run is the same on a local
process pool and on a Dask cluster for the same seed and timer. The study lives in a
database (SQLite by default) keyed by the kernel's text and the machine: a run resumes it,
a candidate already measured is never measured again, and every result is stored as soon as
it arrives (a worker that dies loses only the measurement it was running, which Dask
gives to another worker).
"""

from __future__ import annotations

import hashlib
import itertools
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

import optuna

from affine.errors import PolyError
from affine.exec.equivalence import check_equivalent
from affine.exec.inputs import function_name, random_inputs, signature
from affine.exec.mlir_runner import find_tool, run_mlir_runner
from affine.exec.running import time_kernel
from affine.ir.core import Module, Operation
from affine.ir.types import DYNAMIC, IndexType, MemRefType
from affine.syntax.parser import parse_module
from affine.syntax.printer import print_module
from poly.schedule import Schedule
from poly.schedule_edits import distributable, perfect_pairs
from poly.schedule_program import ScheduleError
from poly.schedule_tree import member_names
from transforms.auto_scheduler import auto_schedule
from transforms.errors import TransformError
from transforms.fusion import MODES, LoopFusion
from transforms.loop_pass import analysis_of
from transforms.machine import detect, machine_from_options
from transforms.parallelization import Parallelize
from transforms.register_tiling import (
    RegisterTile,
    check_register_tile,
    innermost_bands,
    plan_register_tile,
    register_tile_band,
)
from transforms.registry import PassContext
from transforms.schedule import function_of
from transforms.time_tiling import time_tile_function
from transforms.unroll_jam import check_unroll_and_jam, unroll_and_jam_loop

TILE_SIZES = (0, 8, 16, 32, 64, 128, 256)  # 0: the loop is not tiled
MAX_ORDERS = 24  # loop orders tried per nest (all of them up to four loops)
REGISTER_ROWS = (0, 1, 2, 4, 6, 8)  # rows of a register tile; 0: no register tile
REGISTER_VECTORS = (1, 2, 4)  # vectors per register tile
VECTOR_BITS = (128, 256, 512)  # the width of one vector
UNROLL_JAM = (1, 2, 4, 8)  # unroll-and-jam factors; 1: not unrolled and jammed
SOURCE = "source"  # the base that is the source (or the given start schedule)
AUTO = "auto"  # the base that is the auto-scheduler's module

# A timer: (the candidate's module, the function's name, the inputs) -> seconds.
Timer = Callable[[Module, str, Sequence[Any]], float]
BACKENDS = ("c", "mlir-runner")  # what times a candidate
PRUNE = 3.0  # a candidate this many times slower than the best so far is not timed again


class TuneError(PolyError):
    """A search that cannot start (the message says why)."""


# -- the search space -------------------------------------------------------------------------


def perfect_nests(schedule: Schedule) -> list[tuple[str, ...]]:
    """The maximal chains of perfectly nested loops, outermost first, in tree order (a loop
    with no perfectly nested neighbour is a nest of one)."""
    inner_of = dict(perfect_pairs(schedule.root))
    inners = set(inner_of.values())
    nests = []
    for loop in member_names(schedule.root):
        if loop in inners:
            continue
        chain = [loop]
        while chain[-1] in inner_of:
            chain.append(inner_of[chain[-1]])
        nests.append(tuple(chain))
    return nests


@dataclass(frozen=True)
class Knob:
    """One choice of the search: its name and the values it takes (the first is the start
    schedule's)."""

    name: str
    choices: tuple[str | int, ...]


@dataclass(frozen=True)
class SearchSpace:
    """Loop orders, tile sizes and the order of the loops inside a tile for each perfect nest
    of ``start``."""

    start: Schedule
    nests: tuple[tuple[str, ...], ...]
    sizes: tuple[int, ...] = TILE_SIZES
    prefix: str = ""  # before every knob's name (the base's, so that bases keep apart)

    @classmethod
    def around(
        cls, start: Schedule, sizes: Sequence[int] = TILE_SIZES, prefix: str = ""
    ) -> SearchSpace:
        return cls(start, tuple(perfect_nests(start)), tuple(sizes), prefix)

    def knobs(self) -> list[Knob]:
        found = []
        for nest in self.nests:
            orders: tuple[str, ...] = ()
            if len(nest) > 1:
                permutations = itertools.islice(itertools.permutations(nest), MAX_ORDERS)
                orders = tuple(",".join(o) for o in permutations)
                found.append(Knob(f"order {nest[0]}", orders))
            found += [Knob(f"tile {loop}", self.sizes) for loop in nest]
            if orders:
                found.append(Knob(f"point order {nest[0]}", orders))
        return [Knob(self.prefix + k.name, k.choices) for k in found]

    def build(self, values: Mapping[str, Any]) -> Schedule:
        """The candidate for knob ``values`` (a knob left out keeps the start's choice):
        each nest in its order, then its loops with a size tiled, as one band where they
        are consecutive (a loop not tiled between two tiled ones is tiled by 1), the loops
        inside a tile (``%i.point``) in the order of the tiled loops in ``point order``."""
        result = self.start
        for nest in self.nests:
            order = list(nest)
            if len(nest) > 1:
                chosen = values.get(f"{self.prefix}order {nest[0]}", ",".join(nest))
                order = str(chosen).split(",")
                if order != list(nest):
                    result = result.permute(order)
            sizes = [int(values.get(f"{self.prefix}tile {loop}", 0)) for loop in order]
            tiled = [k for k, size in enumerate(sizes) if size > 0]
            if tiled:
                first, last = tiled[0], tiled[-1] + 1
                band = order[first:last]
                result = result.tile(band, [max(size, 1) for size in sizes[first:last]])
                chosen = str(values.get(f"{self.prefix}point order {nest[0]}", ",".join(band)))
                inside = [loop for loop in chosen.split(",") if loop in band]
                if inside != band:
                    result = result.permute([f"{loop}.point" for loop in inside])
        return result


# A knob's choice: (the knob's name, its choices) -> the value chosen.
Choose = Callable[[str, tuple[Any, ...]], Any]


@dataclass(frozen=True)
class Base:
    """A module the steps of a candidate start from: ``options`` are poly-opt's that build
    it from the input ("" for the source); a base with a ``refusal`` is an illegal choice
    (the reason)."""

    name: str
    module: Module
    options: str = ""
    refusal: str = ""


@dataclass
class Candidate:
    """A base, its schedule with the edits chosen (None: the base has no schedule), the
    later steps done (as poly-opt options) and the module they build, or the refusal of
    the step that is illegal (then there is no module)."""

    base: Base
    schedule: Schedule | None
    steps: list[str] = field(default_factory=list)
    module: Module | None = None
    refusal: str = ""

    @property
    def edited(self) -> bool:
        return self.schedule is not None and bool(self.schedule.history)

    def history(self) -> str:
        """What was done, one step a line ("" for the original)."""
        lines = [] if self.base.name == SOURCE else [f"base {self.base.name}"]
        if self.edited:
            assert self.schedule is not None
            lines.append(self.schedule.history_text())
        return "\n".join(lines + self.steps)

    def pipeline(self, schedule_file: str) -> str:
        """poly-opt's options that build :attr:`module` from the input, the edited
        schedule read from ``schedule_file``."""
        options = [self.base.options] if self.base.options else []
        if self.edited:
            options.append(f'--affine-schedule="file={schedule_file}"')
        return " ".join(options + self.steps)


def _options(name: str, values: Mapping[str, object]) -> str:
    text = " ".join(f"{k}={str(v).lower()}" for k, v in values.items())
    return f'--{name}="{text}"'


def register_tile_function(
    function: Operation, rows: int, vectors: int, vector_bits: int
) -> tuple[bool, str]:
    """Register-tile every innermost band of ``function`` that has a plan with ``rows``
    rows of ``vectors`` vectors of ``vector_bits`` bits (as ``--affine-register-tile``
    without distribution); ``(whether any band changed, "")``, or ``(False, why)`` with
    the function untouched when :func:`check_register_tile` refuses a band."""
    machine = machine_from_options({"vector-bits": vector_bits})
    analysis = analysis_of(function)
    plans = []
    for band in innermost_bands(function):
        plan = plan_register_tile(band, machine, rows, vectors)
        if isinstance(plan, RegisterTile):
            verdict = check_register_tile(band, plan, analysis)
            if not verdict:
                return False, f"register tile {plan.describe()}: {verdict.reason}"
            plans.append((band, plan))
    changed = False
    for band, plan in plans:
        try:
            register_tile_band(band, plan)
            changed = True
        except TransformError:  # a shape the rewrite does not handle: the band stays
            continue
    return changed, ""


def unroll_jam_function(function: Operation, factor: int) -> tuple[bool, str]:
    """Unroll and jam by ``factor`` the outermost loop of every nest of ``function`` that
    holds inner loops (as ``--affine-loop-unroll-jam``); ``(whether any loop changed,
    "")``, or ``(False, why)`` with the function untouched when
    :func:`check_unroll_and_jam` refuses one."""
    analysis = analysis_of(function)
    body = function.regions[0].blocks[0]
    outer = [
        loop
        for loop in body.operations
        if loop.name == "affine.for" and any(op.name == "affine.for" for op in loop.nested_ops())
    ]
    for loop in outer:
        verdict = check_unroll_and_jam(loop, factor, analysis)
        if not verdict:
            return False, f"unroll-and-jam by {factor}: {verdict.reason}"
    changed = False
    for loop in outer:
        try:
            unroll_and_jam_loop(loop, factor)
            changed = True
        except TransformError:  # a loop the rewrite does not handle: it stays
            continue
    return changed, ""


class TuneSpace:
    """Every knob of the search (see the module docstring): ``base``, the schedule knobs
    of the base chosen (named after it: loops to distribute, then the order and tiles of
    each perfect nest), ``register rows`` (then ``register vectors`` and
    ``vector bits``) or ``unroll-jam``, and ``parallel`` when asked for; the first choice
    of each is the base's own."""

    def __init__(
        self,
        module: Module,
        func: str,
        start: Schedule | None = None,
        auto: bool = True,
        parallel: bool = False,
    ) -> None:
        self.func = func
        self.parallel = parallel
        source = start.apply() if start is not None and start.history else module
        self.bases: list[Base] = [Base(SOURCE, source)]
        if auto:  # first, unless the auto-scheduler keeps the source
            machine = detect()  # named in the step, so that poly-opt rebuilds it anywhere
            scheduled = auto_schedule(
                module,
                machine.l1 // 1024,
                machine.l2 // 1024,
                machine.l3 // 1024,
                machine.vector_bits,
            )
            step = f'--affine-auto-schedule="{machine.options()}"'
            self._add(Base(AUTO, scheduled.module, step))
            self.bases.sort(key=lambda b: b.name != AUTO)
        self.starts = {SOURCE: start} if start is not None else {}
        for mode in MODES:
            self._add(_fused(source, mode))
        for base in _time_tiled(source, func):
            self._add(base)
        self._schedules: dict[str, Schedule | None] = {}
        self._spaces: dict[tuple[str, tuple[str, ...]], SearchSpace | None] = {}

    def _add(self, base: Base | None) -> None:
        """Add ``base`` unless an earlier one builds the same module or says the same."""
        if base is None:
            return
        text = print_module(base.module) if not base.refusal else base.refusal
        for other in self.bases:
            if text == (print_module(other.module) if not other.refusal else other.refusal):
                return
        self.bases.append(base)

    def schedule(self, base: Base) -> Schedule | None:
        """The schedule of ``base``'s function (None: it has none)."""
        if base.name not in self._schedules:
            try:
                found = self.starts.get(base.name) or Schedule.of(
                    function_of(base.module, self.func)
                )
            except ScheduleError:
                found = None
            self._schedules[base.name] = found
        return self._schedules[base.name]

    def space(self, base: Base, distributed: tuple[str, ...] = ()) -> SearchSpace | None:
        """The order and tile knobs of ``base`` after distributing the loops
        ``distributed`` (None: the base has no schedule, or a distribution fails)."""
        key = (base.name, distributed)
        if key not in self._spaces:
            schedule = self.schedule(base)
            try:
                for loop in distributed:
                    schedule = None if schedule is None else schedule.distribute(loop)
            except ScheduleError:
                schedule = None
            prefix = "" if base.name == SOURCE else f"{base.name}: "
            if distributed:
                prefix += f"distributed {' '.join(distributed)}: "
            self._spaces[key] = (
                None if schedule is None else SearchSpace.around(schedule, prefix=prefix)
            )
        return self._spaces[key]

    def candidate(self, choose: Choose) -> Candidate:
        """The candidate of the knobs' values ``choose`` gives, every step checked."""
        names = tuple(b.name for b in self.bases)
        base = self.bases[names.index(choose("base", names))] if len(names) > 1 else self.bases[0]
        if base.refusal:
            return Candidate(base, None, refusal=base.refusal)
        start = self.schedule(base)
        prefix = "" if base.name == SOURCE else f"{base.name}: "
        distributed = tuple(
            loop
            for loop in ([] if start is None else distributable(start.root))
            if choose(f"{prefix}distribute {loop}", ("off", "on")) == "on"
        )
        space = self.space(base, distributed)
        if space is None and start is not None:
            return Candidate(base, start, refusal=f"cannot distribute {' '.join(distributed)}")
        schedule = None
        if space is not None:
            values = {k.name: choose(k.name, k.choices) for k in space.knobs()}
            try:
                schedule = space.build(values)
            except ScheduleError as e:  # an edit the schedule refuses (e.g. a tile's shape)
                return Candidate(base, start, refusal=f"not built: {e.message}")
        candidate = Candidate(base, schedule)
        if candidate.edited:
            assert schedule is not None
            verdict = schedule.check()
            if not verdict:
                candidate.refusal = str(verdict)
                return candidate
            module = schedule.apply(checked=False)
        else:
            module = base.module.clone()
        function = function_of(module, self.func)
        rows = int(choose("register rows", REGISTER_ROWS))
        if rows:
            values = {
                "rows": rows,
                "vectors": int(choose("register vectors", REGISTER_VECTORS)),
                "vector-bits": int(choose("vector bits", VECTOR_BITS)),
            }
            changed, candidate.refusal = register_tile_function(function, *values.values())
            if changed:
                candidate.steps.append(
                    _options("affine-register-tile", {**values, "distribute": False})
                )
        else:
            factor = int(choose("unroll-jam", UNROLL_JAM))
            changed, candidate.refusal = (
                unroll_jam_function(function, factor) if factor > 1 else (False, "")
            )
            if changed:
                candidate.steps.append(
                    _options("affine-loop-unroll-jam", {"unroll-jam-factor": factor})
                )
        if candidate.refusal:
            return candidate
        if self.parallel and choose("parallel", ("off", "on")) == "on":
            context = PassContext(print_op_on_diagnostic=False)
            parallel = Parallelize(max_nested=1).run(module, context)
            if print_module(parallel) != print_module(module):
                module = parallel
                candidate.steps.append(_options("affine-parallelize", {"max-nested": 1}))
        candidate.module = module
        return candidate

    def neutral(self) -> dict[str, Any]:
        """The knobs' values of the first base untouched (the first choice of each)."""
        chosen: dict[str, Any] = {}

        def first(name: str, choices: tuple[Any, ...]) -> Any:
            chosen[name] = choices[0]
            return choices[0]

        self.candidate(first)
        return chosen


def _fused(module: Module, mode: str) -> Base | None:
    """The base ``--affine-loop-fusion`` (``mode``, maximal: the measurement judges the
    gain) builds; an illegal base naming the refusals when it fuses nothing because
    :func:`transforms.fusion.check_fusion` refuses every pair; None without any pair."""
    context = PassContext(print_op_on_diagnostic=False)
    fused = LoopFusion(mode=mode, maximal=True).run(module, context)
    name = f"fusion {mode}"
    options = _options("affine-loop-fusion", {"mode": mode, "maximal": True})
    if print_module(fused) != print_module(module):
        return Base(name, fused, options)
    refused = [d.message for d in context.diagnostics if d.message.startswith("not fused")]
    if refused:
        return Base(name, module, options, "; ".join(refused))
    return None


TIME_TILE_SCALES = (1, 2, 4)  # the model's sizes, twice and four times them (fdtd-2d: 1.13x,
# 1.20x, 1.23x; its L2 budget is a guess where the data live in L3)


def _time_tiled(module: Module, func: str) -> list[Base]:
    """Bases with the time loops of ``func`` tiled (``--affine-time-tile``): the sizes the
    model of :func:`transforms.time_tiling.time_tile_sizes` picks, scaled by each of
    :data:`TIME_TILE_SCALES`; none without a time loop that can be tiled."""
    machine = detect()
    model = time_tile_function(module, func, machine)
    if not model.tiled:
        return []
    first = model.tiled[0].tiling
    bases = []
    for scale in TIME_TILE_SCALES:
        time_size = first.time_size * scale
        sizes = tuple(b * scale for b in first.space_sizes)
        variant = (
            model if scale == 1 else time_tile_function(module, func, machine, time_size, sizes)
        )
        if variant.schedule is None:
            continue
        shape = "x".join(str(b) for b in (time_size, *sizes))
        values = {"time-size": time_size, "space-sizes": ",".join(map(str, sizes))}
        bases.append(
            Base(f"time tiles {shape}", variant.module, _options("affine-time-tile", values))
        )
    return bases


# -- measuring one candidate --------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    """What a worker needs to measure one candidate: everything as text, so it travels."""

    module: str  # the original module
    func: str
    candidate: str  # the candidate's module ("": the original)
    sizes: tuple[tuple[int, Any], ...]  # index arguments and dynamic shapes by position
    seed: int
    repeats: int
    timer: Timer | None  # None: the backend's clock
    backend: str = "c"  # one of BACKENDS
    prune_above: float | None = None  # seconds: slower on its first timed run is pruned


@dataclass(frozen=True)
class Measurement:
    """A candidate's outcome: ``ok`` with its time, ``pruned`` (its first timed run, over
    the task's limit), ``wrong`` (the mismatch) or ``failed``."""

    status: str
    seconds: float = float("inf")
    detail: str = ""


def _needs_size(t: object) -> bool:
    return isinstance(t, IndexType) or (isinstance(t, MemRefType) and DYNAMIC in t.shape)


def sizes_by_position(func: Operation, sizes: Mapping[str, Any]) -> dict[int, Any]:
    """``sizes`` (by argument name as written, without ``%``) by argument position, for the
    arguments that need one: index arguments and memrefs of dynamic shape; raises
    :class:`TuneError` naming those that have none."""
    found: dict[int, Any] = {}
    missing = []
    for a, (arg, t) in enumerate(zip(func.regions[0].blocks[0].arguments, signature(func)[0])):
        if not _needs_size(t):
            continue
        name = (arg.name or "").lstrip("%")
        if name in sizes:
            found[a] = sizes[name]
        else:
            missing.append(f"%{name}" if name else f"argument #{a}")
    if missing:
        raise TuneError(
            f"@{function_name(func)} has dynamic sizes: give {', '.join(missing)} "
            "(--sizes NAME=VALUE or NAME=D0xD1 on the command line; sizes= in Python)"
        )
    return found


def tuning_inputs(func: Operation, sizes: Mapping[int, Any], seed: int) -> list[Any]:
    """Random inputs for ``func`` (floats uniform in [-1, 1)); index arguments and dynamic
    memref shapes from ``sizes`` (by argument position)."""
    types = signature(func)[0]
    shapes: dict[int, Sequence[int]] = {
        a: tuple(v) for a, v in sizes.items() if isinstance(types[a], MemRefType)
    }
    values = random_inputs(func, seed, shapes)
    for a, v in sizes.items():
        if isinstance(types[a], IndexType):
            values[a] = int(v)
    return values


def wall_clock(
    module: Module, func: str, inputs: Sequence[Any], repeats: int = 3, backend: str = "c"
) -> float:
    """The fastest of ``repeats`` timed calls after a warm-up one, on ``backend`` (one of
    :data:`BACKENDS`; mlir-runner's harness makes its own inputs of the same shapes)."""
    if backend == "c":
        return time_kernel(module, *inputs, backend="c", repeats=repeats, warmup=1, entry=func).min
    mlir_opt, mlir_runner = mlir_tools()
    ran = run_mlir_runner(function_of(module, func), mlir_opt, mlir_runner, repeats + 1)
    return min(ran.times[1:])


def mlir_tools() -> tuple[str, str]:
    """mlir-opt and mlir-runner (see :func:`affine.exec.mlir_runner.find_tool`); raises
    :class:`TuneError` when either is missing."""
    mlir_opt, mlir_runner = find_tool("mlir-opt"), find_tool("mlir-runner")
    if mlir_opt is None or mlir_runner is None:
        raise TuneError(
            "--backend=mlir-runner needs mlir-opt and mlir-runner 22 "
            "(apt-get install mlir-22-tools, or set POLY_MLIR_BIN)"
        )
    return mlir_opt, mlir_runner


def measure(task: Task) -> Measurement:
    """Compare the candidate's results with the original's, then time it (on a worker)."""
    try:
        original = parse_module(task.module)
        function = function_of(original, task.func)
        candidate = parse_module(task.candidate) if task.candidate else original
        sizes = dict(task.sizes)
        inputs = tuning_inputs(function, sizes, task.seed)
        same = check_equivalent(
            original, candidate, *inputs, backend="c", f_entry=task.func, g_entry=task.func
        )
        if not same:
            return Measurement("wrong", detail=str(same))
        fresh = tuning_inputs(function, sizes, task.seed)
        if task.timer is not None:
            seconds = task.timer(candidate, task.func, fresh)
        elif task.prune_above is not None and task.backend == "c":
            seconds = wall_clock(candidate, task.func, fresh, 1, task.backend)
            if seconds <= task.prune_above and task.repeats > 1:
                more = time_kernel(
                    candidate,
                    *fresh,
                    backend="c",
                    repeats=task.repeats - 1,
                    warmup=0,
                    entry=task.func,
                )
                seconds = min(seconds, more.min)
        else:
            seconds = wall_clock(candidate, task.func, fresh, task.repeats, task.backend)
        if task.prune_above is not None and seconds > task.prune_above:
            return Measurement(
                "pruned", seconds, f"over {task.prune_above:.3g} s on its first timed run"
            )
        return Measurement("ok", seconds)
    except PolyError as err:
        return Measurement("failed", detail=str(err))


# -- where measurements run ----------------------------------------------------------------------


class LocalExecutor:
    """A pool of worker processes on this machine (one per core by default)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        # fresh interpreters (spawn): forking a process that runs threads is unsafe
        self._pool = ProcessPoolExecutor(self.workers, mp_context=get_context("spawn"))

    def run(self, tasks: Sequence[Task]) -> Iterator[tuple[int, Measurement]]:
        futures: dict[Future[Measurement], int] = {
            self._pool.submit(measure, t): k for k, t in enumerate(tasks)
        }
        pending = set(futures)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield futures[future], future.result()

    def close(self) -> None:
        self._pool.shutdown()


class DaskExecutor:
    """Workers of a Dask distributed cluster, given by its scheduler's address or a
    ``dask.distributed.Client``; a task whose worker dies is run again on another."""

    def __init__(self, cluster: Any, timeout: float = 10.0) -> None:
        # lazy: start-up cost (dask.distributed, only for cluster runs)
        from dask.distributed import Client

        if isinstance(cluster, Client):
            self.client, self._owned = cluster, False
        else:
            try:
                self.client = Client(cluster, timeout=f"{timeout}s")
            except (OSError, TimeoutError) as err:
                raise TuneError(f"cannot reach the Dask scheduler at {cluster}: {err}") from None
            self._owned = True
        self.workers = max(1, sum(self.client.nthreads().values()))

    def run(self, tasks: Sequence[Task]) -> Iterator[tuple[int, Measurement]]:
        # lazy: start-up cost (dask.distributed, only for cluster runs)
        from dask.distributed import as_completed

        futures = {self.client.submit(measure, t, pure=False): k for k, t in enumerate(tasks)}
        for future in as_completed(list(futures)):
            yield futures[future], future.result()

    def close(self) -> None:
        if self._owned:
            self.client.close()


Executor = LocalExecutor | DaskExecutor


def executor_for(spec: str | Any | None, workers: int | None = None) -> Executor:
    """``None``/``"local"``: a local pool; ``"dask://HOST:PORT"``: that cluster; a Dask
    ``Client`` or an executor as is."""
    if isinstance(spec, (LocalExecutor, DaskExecutor)):
        return spec
    if spec is None or spec == "local":
        return LocalExecutor(workers)
    if isinstance(spec, str):
        if not spec.startswith("dask://"):
            raise TuneError(f"unknown executor '{spec}' (use 'local' or 'dask://HOST:PORT')")
        return DaskExecutor("tcp://" + spec.removeprefix("dask://"))
    return DaskExecutor(spec)


# -- the search ---------------------------------------------------------------------------------


@dataclass
class Trial:
    """One row of the search: the candidate, its verdict and its time."""

    number: int
    params: dict[str, Any]
    history: str
    status: str  # ok, wrong, failed, illegal, or reused (an earlier measurement)
    seconds: float
    detail: str = ""


@dataclass
class TuneResult:
    """The best candidate found (its module, its schedule and the poly-opt options that
    rebuild it), the original's time and every trial in order."""

    module: Module
    schedule: Schedule | None  # the best base's schedule with its edits (None: it has none)
    seconds: float
    original_seconds: float
    trials: list[Trial] = field(default_factory=list)
    best: Candidate | None = None  # None: the original is the fastest

    def pipeline(self, schedule_file: str) -> str:
        """poly-opt's options that build :attr:`module` from the input ("" for the
        original), the schedule read from ``schedule_file``."""
        return "" if self.best is None else self.best.pipeline(schedule_file)

    def describe(self) -> str:
        """What the best candidate does to the original, one step a line."""
        return "(the original)" if self.best is None else self.best.history()

    @property
    def speedup(self) -> float:
        return self.original_seconds / self.seconds

    def table(self) -> Any:
        """The trials as a pandas DataFrame (a list of dicts without pandas)."""
        rows = [
            {
                "trial": t.number,
                "status": t.status,
                "seconds": t.seconds,
                "candidate": t.history.replace("\n", "; ") or "(original)",
            }
            for t in self.trials
        ]
        try:
            # lazy: start-up cost (pandas, only when a table is asked for)
            import pandas as pd
        except ImportError:
            return rows
        return pd.DataFrame(rows)

    def plot(self) -> Any:
        """Time per trial and the best so far (a :class:`poly.viz.Picture`, which Jupyter
        shows)."""
        # lazy: start-up cost (matplotlib, only for pictures)
        from poly.viz import Picture

        figure = Picture(figsize=(6, 3.5))
        axes = figure.add_subplot()
        timed = [t for t in self.trials if t.status == "ok"]
        axes.scatter([t.number for t in timed], [t.seconds for t in timed], s=12, label="trial")
        best, line = float("inf"), []
        for t in self.trials:
            best = min(best, t.seconds if t.status in ("ok", "reused") else best)
            line.append(best)
        axes.step([t.number for t in self.trials], line, where="post", label="best so far")
        axes.axhline(self.original_seconds, color="grey", linestyle=":", label="original")
        axes.set_xlabel("trial")
        axes.set_ylabel("seconds")
        axes.legend()
        return figure


def kernel_key(module_text: str, func: str, sizes: Mapping[int, Any], backend: str = "c") -> str:
    """The study's name: the kernel's text, function, sizes, this machine and the backend
    that times (times of different backends do not compare)."""
    parts = [module_text, func, repr(sorted(sizes.items())), repr(detect())]
    text = "\n".join(parts + ([backend] if backend != "c" else []))
    return "poly-tune-" + hashlib.sha256(text.encode()).hexdigest()[:20]


def tune(
    module: Module,
    func: str | None = None,
    trials: int = 20,
    executor: str | Any | None = None,
    storage: str | None = None,
    seed: int = 0,
    sizes: Mapping[str, Any] | None = None,
    start: Schedule | None = None,
    time_budget: float | None = None,
    timer: Timer | None = None,
    repeats: int = 3,
    batch: int | None = None,
    progress: Callable[[Trial], None] | None = None,
    auto: bool = True,
    parallel: bool = False,
    backend: str = "c",
    prune: float | None = PRUNE,
) -> TuneResult:
    """Search ``trials`` candidates (see the module docstring; the first of a new study is
    the auto-scheduler's module, or ``start`` untouched without ``auto``) and return the
    fastest correct one. ``storage`` is an optuna storage URL (default: a study in memory);
    ``executor`` is ``"local"``, ``"dask://HOST:PORT"`` or a Dask ``Client``; ``timer``
    replaces the C backend's clock (it must be importable on the workers); ``parallel``
    adds the parallel knob (OpenMP threads, see the module docstring); ``backend`` (one of
    :data:`BACKENDS`) times the candidates; a candidate more than ``prune`` times slower
    than the fastest so far on its first timed run is pruned (None: every candidate is
    timed in full)."""
    if backend not in BACKENDS:
        raise TuneError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if prune is not None and prune < 1:
        raise TuneError(f"prune must be at least 1 (or none), not {prune}")
    if backend == "mlir-runner" and timer is None:
        mlir_tools()  # missing tools: one clear error before any measurement
    function = function_of(module, func)
    name = function_name(function)
    positional = sizes_by_position(function, sizes or {})
    space = TuneSpace(module, name, start, auto, parallel)
    text = print_module(module)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(
        study_name=kernel_key(text, name, positional, backend),
        storage=storage,
        sampler=optuna.samplers.TPESampler(seed=seed),
        direction="minimize",
        load_if_exists=True,
    )
    study.set_user_attr("machine", repr(detect()))
    study.set_user_attr("function", name)
    task_of = _task_factory(text, name, positional, seed, repeats, timer, backend)
    pool = executor_for(executor)
    owned = pool is not executor
    try:
        original = _original_time(study, pool, task_of)
        rows = [_row(t) for t in study.trials if t.state.is_finished() and t.number > 0]
        if not rows:
            study.enqueue_trial(space.neutral())
        deadline = None if time_budget is None else time.monotonic() + time_budget
        while len(rows) < trials and (deadline is None or time.monotonic() < deadline):
            asked = [study.ask() for _ in range(min(batch or pool.workers, trials - len(rows)))]
            rows += _run_batch(study, space, pool, task_of, asked, progress, prune)
    finally:
        if owned:
            pool.close()
    best = min(
        (r for r in rows if r.status in ("ok", "reused") and r.history),
        key=lambda r: r.seconds,
        default=None,
    )
    if best is None or best.seconds >= original:
        return TuneResult(module, start or _schedule_or_none(function), original, original, rows)
    candidate = space.candidate(lambda knob, choices: best.params[knob])
    assert candidate.module is not None  # it was legal when it was measured
    return TuneResult(candidate.module, candidate.schedule, best.seconds, original, rows, candidate)


def _schedule_or_none(function: Operation) -> Schedule | None:
    try:
        return Schedule.of(function)
    except ScheduleError:
        return None


def _task_factory(
    text: str,
    func: str,
    sizes: Mapping[int, Any],
    seed: int,
    repeats: int,
    timer: Timer | None,
    backend: str,
) -> Callable[..., Task]:
    frozen = tuple(sorted(sizes.items()))

    def task(candidate: str, prune_above: float | None = None) -> Task:
        return Task(text, func, candidate, frozen, seed, repeats, timer, backend, prune_above)

    return task


def _original_time(study: optuna.Study, pool: Executor, task_of: Callable[..., Task]) -> float:
    """The original's time: trial 0 of the study (measured once, then read back)."""
    for t in study.trials:
        if t.number == 0 and t.state == optuna.trial.TrialState.COMPLETE:
            return float(t.value)  # type: ignore[arg-type]  # a complete trial has a value
    trial = study.ask()
    [(_, result)] = list(pool.run([task_of("")]))
    if result.status != "ok":
        raise TuneError(f"the original kernel cannot be measured: {result.detail}")
    trial.set_user_attr("history", "")
    trial.set_user_attr("status", "original")
    study.tell(trial, result.seconds)
    return result.seconds


def _run_batch(
    study: optuna.Study,
    space: TuneSpace,
    pool: Executor,
    task_of: Callable[..., Task],
    asked: list[optuna.trial.Trial],
    progress: Callable[[Trial], None] | None,
    prune: float | None = None,
) -> list[Trial]:
    """Suggest, check, measure and tell one batch, in the order the trials were asked; a
    candidate slower than ``prune`` times the fastest measured so far on its first timed
    run is pruned (not timed again)."""
    measured = {
        t.user_attrs.get("history"): t
        for t in study.trials
        if t.state == optuna.trial.TrialState.COMPLETE
    }
    times = [t.value for t in measured.values() if t.value is not None]
    prune_above = prune * min(times) if prune and times else None
    rows: list[Trial] = []
    tasks: list[Task] = []
    waiting: list[int] = []
    for trial in asked:
        candidate = space.candidate(trial.suggest_categorical)
        params = dict(trial.params)
        history = candidate.history()
        trial.set_user_attr("history", history)
        if candidate.module is None:
            detail = candidate.refusal
            rows.append(Trial(trial.number, params, history, "illegal", float("inf"), detail))
        elif history in measured and (earlier := measured[history].value) is not None:
            rows.append(Trial(trial.number, params, history, "reused", earlier))
        else:
            rows.append(Trial(trial.number, params, history, "pending", float("inf")))
            waiting.append(len(rows) - 1)
            tasks.append(task_of(print_module(candidate.module), prune_above))
    for k, result in pool.run(tasks):
        row = rows[waiting[k]]
        row.status, row.seconds, row.detail = result.status, result.seconds, result.detail
    for trial, row in zip(asked, rows):
        trial.set_user_attr("status", row.status)
        if row.detail:
            trial.set_user_attr("detail", row.detail[:500])
        if row.status in ("ok", "reused"):
            study.tell(trial, row.seconds)
        elif row.status in ("illegal", "pruned"):
            study.tell(trial, state=optuna.trial.TrialState.PRUNED)
        else:
            study.tell(trial, state=optuna.trial.TrialState.FAIL)
        if progress is not None:
            progress(row)
    return rows


def _row(t: optuna.trial.FrozenTrial) -> Trial:
    status = t.user_attrs.get("status", "failed")
    seconds = float(t.value) if t.value is not None else float("inf")
    return Trial(
        t.number, dict(t.params), t.user_attrs.get("history", ""), status, seconds,
        t.user_attrs.get("detail", ""),
    )  # fmt: skip
