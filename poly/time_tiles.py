"""Time tiles as a schedule: the time loops of a function and the parallelogram tiles of
one, placed in front of the source's schedule (:mod:`transforms.time_tiling` chooses sizes,
checks and applies them).

A *time loop* is a loop at the function's top level around loop nests (*sweeps*) whose
writes never use its induction variable: each step rewrites the same memory (jacobi,
heat, fdtd, seidel); or use it only in leading subscripts that nothing else moves, which
choose a buffer (``A[(t + 1) mod 2][i][j]``: :attr:`TimeLoop.buffers`). Statement ``S`` of
the ``k``-th of the ``n`` sweeps runs at virtual time ``tau = n*t + k``; its space
coordinates are the first ``m`` subscripts of the element it writes after those buffers,
so that sweeps line up by the data they produce rather than by their loops (fdtd-2d's
``ey[0][j]`` belongs to row 0). The tiles come first::

    [floor(t / bt), floor((e_1 + skew*tau) / b_1), ..., floor((e_m + skew*tau) / b_m)]

then the source's schedule, so a tile runs ``bt`` time steps of every sweep over a band
of ``b`` rows that leans back by ``skew`` rows per sweep, and inside a tile every sweep
keeps loops of its own (innermost loops get ``max``/``min`` bounds and no guard).

With the sweeps *fused* (:func:`fusion_shifts`), a step runs every sweep's rows together:
statement ``S`` writing ``e`` runs at ``[t, e_1 + shift_S, e_2, ..., e_m, order_S]`` (its
rows ``shift_S`` behind, the smallest shifts the dependences within a step allow: fdtd-2d's
``hz`` row ``i`` after ``ey`` row ``i + 1``), so each step reads the data once rather than
once per sweep, and tiles lean back by ``skew`` rows per step rather than per sweep
(``tau = t``, rows ``e_1 + shift_S``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import islpy as isl

from affine.ir.core import Operation, Value
from poly.schedule import Schedule
from poly.schedule_program import Program, ScheduleError, Statement
from poly.slices import touches


@dataclass(frozen=True)
class TimeLoop:
    """A top-level loop whose sweeps rewrite the same memory every step."""

    loop: Operation
    statements: tuple[Statement, ...]
    sweep: dict[str, int]  # statement name -> k, its sweep's position in the loop's body
    sweeps: int  # n
    writes: dict[str, isl.PwMultiAff]  # statement name -> the element it writes
    rank: int  # the fewest space dimensions written: at most this many tile
    memrefs: tuple[Value, ...]  # what the sweeps touch
    buffers: int = 0  # leading subscripts of every write that only the time loop moves
    buffered: tuple[Value, ...] = ()  # the memrefs written through them

    def written_row(self, statement: str, d: int) -> isl.PwAff:
        """Space dimension ``d`` of the element ``statement`` writes (after the buffers)."""
        return self.writes[statement].get_pw_aff(self.buffers + d)

    def first_space_dimension(self, memref: Value) -> int:
        """The dimension of ``memref`` the first space dimension is (past its buffers)."""
        return self.buffers if memref in self.buffered else 0

    @property
    def name(self) -> str:
        return self.statements[0].loop_names[0]


@dataclass(frozen=True)
class TimeTiling:
    """Tiles of ``time_size`` steps by ``space_sizes`` (outermost written dimensions first),
    leaning back ``skew`` per sweep; or, with ``shifts`` (statement name -> rows behind),
    over the sweeps fused row by row, leaning back ``skew`` per step."""

    time_size: int
    space_sizes: tuple[int, ...]
    skew: int
    shifts: tuple[tuple[str, int], ...] | None = None

    @property
    def fused(self) -> bool:
        return self.shifts is not None

    def halo(self, loop: TimeLoop) -> int:
        """Rows a tile reads beyond its own: its lean over its steps, and the shifts."""
        if self.shifts is not None:
            return self.skew * self.time_size + max((s for _, s in self.shifts), default=0)
        return self.skew * loop.sweeps * self.time_size

    def describe(self, loop: TimeLoop) -> str:
        space = " x ".join(str(b) for b in self.space_sizes)
        m = len(self.space_sizes)
        dims = "first written dimension" if m == 1 else f"first {m} written dimensions"
        sweeps = f"{loop.sweeps} sweep{'s' if loop.sweeps > 1 else ''}"
        if self.shifts is None:
            return (
                f"time tiles of {loop.name}: {self.time_size} steps x {space} of the {dims}, "
                f"skew {self.skew} per sweep ({sweeps} per step)"
            )
        behind = ", ".join(f"{n} {k} behind" for n, k in self.shifts if k)
        return (
            f"time tiles of {loop.name}: {self.time_size} steps x {space} of the {dims}, "
            f"skew {self.skew} per step, its {sweeps} fused row by row"
            + (f" ({behind})" if behind else "")
        )


def _row(schedule_map: isl.Map, domain: isl.Set, position: int) -> int:
    """The constant at ``position`` of a statement's 2d+1 map."""
    return int(schedule_map.intersect_domain(domain).range().dim_max_val(position).to_python())


def _write(program: Program, statement: Statement) -> isl.PwMultiAff | None:
    """The element the statement writes, as a function of its instance (the program's
    parameters); None unless it writes exactly one element of one memref."""
    writes = [a for a in statement.accesses if a.is_write]
    if len(writes) != 1 or not writes[0].must or not writes[0].exact:
        return None
    relation = touches(program, statement, writes[0].relation)
    if not relation.is_single_valued():
        return None
    return relation.as_pw_multi_aff()


def _uses_time(write: isl.PwMultiAff, d: int) -> bool:
    """Whether subscript ``d`` of the write moves with the outermost dimension (on some
    piece; the domain's constraints on it do not count)."""
    return any(
        aff.involves_dims(isl.dim_type.in_, 0, 1) for _, aff in write.get_pw_aff(d).get_pieces()
    )


def _buffers(write: isl.PwMultiAff) -> int | None:
    """How many leading subscripts of the write choose a buffer by the time step: the
    outermost dimension alone moves them, through an integer division, over fewer values
    than it has steps where those are known (``(t + 1) mod 2``; gemm's ``C[i][j]`` under
    ``i`` is no buffer); None when another subscript moves with the time step."""
    n_in, n_out = write.dim(isl.dim_type.in_), write.dim(isl.dim_type.out)
    steps = _extent(write.domain(), 0)
    leading = 0
    while leading < n_out and _uses_time(write, leading):
        subscript = write.get_pw_aff(leading)
        pieces = [aff for _, aff in subscript.get_pieces()]
        if (
            any(aff.involves_dims(isl.dim_type.in_, 1, n_in - 1) for aff in pieces)
            or not all(aff.dim(isl.dim_type.div) for aff in pieces)
            or (values := _extent(isl.Map.from_pw_aff(subscript).range(), 0)) is None
            or (steps is not None and values >= steps)
        ):
            return None
        leading += 1
    if any(_uses_time(write, d) for d in range(leading, n_out)):
        return None
    return leading


def _extent(s: isl.Set, d: int) -> int | None:
    """How many values dimension ``d`` of ``s`` spans (None: unbounded or parametric)."""
    low, high = s.dim_min_val(d), s.dim_max_val(d)
    if not (low.is_int() and high.is_int()):
        return None
    return high.to_python() - low.to_python() + 1


def find_time_loops(schedule: Schedule) -> tuple[list[TimeLoop], list[str]]:
    """The time loops of the function, and why each other top-level nest is not one."""
    groups: dict[int, list[Statement]] = {}
    for s in schedule.statements:
        if s.domain.is_empty():
            continue  # never runs: no place in a sweep (and no constant row to read)
        groups.setdefault(_row(schedule.maps[s.name], s.domain, 0), []).append(s)
    found, why = [], []
    for _, statements in sorted(groups.items()):
        outer = statements[0].loops[0] if statements[0].loops else None
        label = statements[0].loop_names[0] if statements[0].loops else statements[0].name
        if outer is None or any(len(s.loops) < 2 or s.loops[0] is not outer for s in statements):
            why.append(f"{label}: not a loop around loop nests")
            continue
        found_writes = {s.name: _write(schedule.program, s) for s in statements}
        unclear = [n for n, w in found_writes.items() if w is None]
        if unclear:
            why.append(f"{label}: {unclear[0]} does not write exactly one known element")
            continue
        writes = {n: w for n, w in found_writes.items() if w is not None}
        buffers = {n: _buffers(w) for n, w in writes.items()}
        timed = [n for n, b in buffers.items() if b is None]
        if timed:
            why.append(f"{label}: {timed[0]} writes where {label} says: not a time loop")
            continue
        if len(set(buffers.values())) > 1:
            why.append(f"{label}: its sweeps choose buffers by {label} in different subscripts")
            continue
        (chosen,) = set(buffers.values())
        assert chosen is not None  # none of them is None (timed is empty)
        sweep = {s.name: _row(schedule.maps[s.name], s.domain, 2) for s in statements}
        rank = min(w.dim(isl.dim_type.out) for w in writes.values()) - chosen
        if rank == 0:
            why.append(f"{label}: a sweep writes a scalar: nothing to tile in space")
            continue
        memrefs = dict.fromkeys(a.memref for s in statements for a in s.accesses)
        buffered = dict.fromkeys(
            a.memref for s in statements for a in s.accesses if a.is_write and chosen
        )
        found.append(
            TimeLoop(
                outer,
                tuple(statements),
                sweep,
                max(sweep.values()) + 1,
                writes,
                rank,
                tuple(memrefs),
                chosen,
                tuple(buffered),
            )
        )
    return found, why


def time_tiled_schedule(schedule: Schedule, loop: TimeLoop, tiling: TimeTiling) -> Schedule:
    """``schedule`` (the source's) with ``loop`` tiled by ``tiling`` (see the module
    docstring); not checked. Raises :class:`ScheduleError` on sizes that do not fit."""
    m = len(tiling.space_sizes)
    if not 1 <= m <= loop.rank:
        raise ScheduleError(
            f"{loop.name}: {m} space tile sizes given; its sweeps write {loop.rank} dimensions"
        )
    if tiling.time_size < 1 or min(tiling.space_sizes) < 1 or tiling.skew < 0:
        raise ScheduleError(f"{loop.name}: tile sizes must be positive, the skew not negative")
    shifts = dict(tiling.shifts) if tiling.shifts is not None else None

    def tiles(s: Statement, t: isl.PwAff) -> list[isl.PwAff]:
        if shifts is None:
            tau = t.scale_val(isl.Val(loop.sweeps)).add_constant_val(isl.Val(loop.sweep[s.name]))
            rows = [loop.written_row(s.name, d) for d in range(m)]
        else:
            tau = t
            rows = _fused_rows(loop, s, shifts[s.name])[:m]
        lean = tau.scale_val(isl.Val(tiling.skew))
        prefix = [t.scale_down_val(isl.Val(tiling.time_size)).floor()]
        for row, size in zip(rows, tiling.space_sizes):
            prefix.append(row.add(lean).scale_down_val(isl.Val(size)).floor())
        return prefix

    inner = None if shifts is None else _fused_inner(loop, shifts)
    return _placed(schedule, loop, m + 1, tiles, inner)


def fused_schedule(schedule: Schedule, loop: TimeLoop, shifts: dict[str, int]) -> Schedule:
    """``schedule`` with the sweeps of ``loop`` fused row by row, statement ``S``'s rows
    ``shifts[S]`` behind (the module docstring), untiled; not checked."""
    return _placed(schedule, loop, 0, lambda s, t: [], _fused_inner(loop, shifts))


def _fused_rows(loop: TimeLoop, s: Statement, shift: int) -> list[isl.PwAff]:
    """Where statement ``s`` runs in a fused step: the element it writes, ``shift`` rows on."""
    write = loop.writes[s.name]
    rows = [loop.written_row(s.name, d) for d in range(write.dim(isl.dim_type.out) - loop.buffers)]
    return [rows[0].add_constant_val(isl.Val(shift)), *rows[1:]]


def _fused_inner(
    loop: TimeLoop, shifts: dict[str, int]
) -> Callable[[Statement, isl.PwAff], list[isl.PwAff]]:
    """The in-step schedule of a fused step: ``[t, rows..., order]``."""
    order = {s.name: k for k, s in enumerate(loop.statements)}

    def inner(s: Statement, t: isl.PwAff) -> list[isl.PwAff]:
        position = isl.PwAff.zero_on_domain(isl.LocalSpace.from_space(s.space))
        position = position.add_constant_val(isl.Val(order[s.name]))
        return [t, *_fused_rows(loop, s, shifts[s.name]), position]

    return inner


def _placed(
    schedule: Schedule,
    loop: TimeLoop,
    width: int,
    prefix_of: Callable[[Statement, isl.PwAff], list[isl.PwAff]],
    inner_of: Callable[[Statement, isl.PwAff], list[isl.PwAff]] | None,
) -> Schedule:
    """``schedule`` with ``width`` dimensions (``prefix_of`` on the loop's statements, zero
    on the others) after each statement's top-level position, then the source's schedule
    or, for the loop's statements, ``inner_of``."""
    result: isl.UnionMap | None = None
    for s in schedule.statements:
        source = schedule.maps[s.name]
        space = isl.LocalSpace.from_space(s.space)
        ours = s.name in loop.sweep  # then inside the time loop: its IV is dimension 0
        t = isl.PwAff.var_on_domain(space, isl.dim_type.set, 0) if ours else None
        prefix = prefix_of(s, t) if t is not None else [isl.PwAff.zero_on_domain(space)] * width
        # the top-level position first: other nests keep their order
        placed = _joined(
            source.project_out(isl.dim_type.out, 1, source.dim(isl.dim_type.out) - 1), prefix
        )
        if t is not None and inner_of is not None:
            placed = _joined(placed, inner_of(s, t))
        else:
            placed = placed.flat_range_product(source.project_out(isl.dim_type.out, 0, 1))
        piece = isl.UnionMap.from_map(placed.intersect_domain(s.domain))
        result = piece if result is None else result.union(piece)
    assert result is not None  # a time loop has statements
    return schedule.replace(result)


def _joined(first: isl.Map, pieces: list[isl.PwAff]) -> isl.Map:
    """``first`` with the values of ``pieces`` appended to its range."""
    for pa in pieces:
        first = first.flat_range_product(isl.Map.from_pw_aff(pa))
    return first


MAX_SHIFT = 4  # rows a fused sweep may run behind the element it writes


def fusion_shifts(schedule: Schedule, loop: TimeLoop) -> dict[str, int] | str:
    """The smallest rows behind, per statement, that make ``loop``'s sweeps fused row by
    row legal (:func:`fused_schedule`), or why there are none: each dependence the check
    finds reversed moves its target one row further behind, up to :data:`MAX_SHIFT`."""
    ranks = {w.dim(isl.dim_type.out) for w in loop.writes.values()}
    if len(ranks) != 1:
        return f"{loop.name}: its sweeps write arrays of different ranks"
    shifts = {s.name: 0 for s in loop.statements}
    inner = _fused_inner(loop, shifts)
    for s in loop.statements:
        space = isl.LocalSpace.from_space(s.space)
        t = isl.PwAff.var_on_domain(space, isl.dim_type.set, 0)
        first, *rest = inner(s, t)
        where = _joined(isl.Map.from_pw_aff(first), rest)
        if not where.intersect_domain(s.domain).is_injective():
            return f"{loop.name}: {s.name} writes an element twice in a step"
    while True:
        verdict = fused_schedule(schedule, loop, shifts).check()
        if verdict:
            return shifts
        found = verdict.violation
        if found is None or found.dependence.source.name == found.dependence.target.name:
            return f"{loop.name}: {verdict}"
        target = found.dependence.target.name
        if shifts[target] == MAX_SHIFT:
            return f"{loop.name}: {target} would run more than {MAX_SHIFT} rows behind ({verdict})"
        shifts[target] += 1


def traffic_gain(loop: TimeLoop, tiling: TimeTiling) -> float:
    """How many times less data a step loads than without tiles: ``bt * prod(b)`` row
    updates per ``prod(b + halo)`` rows loaded (:meth:`TimeTiling.halo`)."""
    halo = tiling.halo(loop)
    updates = tiling.time_size * math.prod(tiling.space_sizes)
    return updates / math.prod(b + halo for b in tiling.space_sizes)
