"""Fusion as a whole-function schedule: sibling items of a sequence, exact slices, fused maps.

Invariant: every schedule built here is a total order of all the function's statement
instances (each instance runs once, nothing is recomputed); whether it is legal is decided
by :meth:`poly.schedule.Schedule.check` on the whole function, never assumed here.

The source's schedule is a 2d+1 map: ``[c0, y0, c1, y1, ...]``, a constant (the position in a
sequence) before every loop value. An :class:`Item` is one child of a sequence: the
statements with ``L`` common loops (``level``), the same constants ``c0 .. c(L-1)``
(``parent``) and the same ``cL`` (``position``). Fusing item ``a`` into item ``b`` at depth
``d`` merges their first ``d`` loops:

* *sibling*: both keep their own loop values (``a``'s instances of an iteration first);
* *producer-consumer*: the consumer keeps its loops; each producer instance runs in the
  earliest consumer iteration (the first ``d`` loops) that depends on it, within the same
  iteration of the ``L`` outer loops: ``slice = lexmin { P[x] -> prefix(C[y]) : P[x] -> C[y]
  a dependence }``, exact (ISL's parametric lexmin, piecewise quasi-affine; no bounding
  box). Producer instances nothing in the consumer depends on run before the fused loops.

The fused item takes ``b``'s position (the producer moves down past the items between) or
``a``'s (the consumer moves up); the legality check covers the items in between.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import islpy as isl

from affine.ir.core import Operation, Value
from poly.context import budget, isl_context
from poly.model import READ, WRITE
from poly.schedule import Schedule
from poly.schedule_program import Dependence, Program, Statement

# ISL operations for one producer slice: the costliest of the tests' takes between 10^5 and
# 3 * 10^5; an earliest-use relation ISL cannot minimise in this many (a lexmin over many
# modulo subscripts ran for minutes) leaves that depth undecided
SLICE_BUDGET = 1_000_000

Row = list[isl.PwAff]

SIBLING = "sibling"
PRODUCER = "producer-consumer"


@dataclass(frozen=True)
class Item:
    """One child of a sequence of the source's schedule (see the module docstring)."""

    level: int
    parent: tuple[int, ...]
    position: int
    statements: tuple[Statement, ...]

    @property
    def depth(self) -> int:
        """The deepest loop nesting below the item."""
        return max(s.depth for s in self.statements) - self.level

    def memrefs(self, kind: str) -> set[Value]:
        return {a.memref for s in self.statements for a in s.accesses if a.kind == kind}

    def describe(self) -> str:
        """``the nest of %i at k.mlir:12`` (the line of its first op)."""
        s = self.statements[0]
        if s.depth > self.level:
            return f"the nest of {s.loop_names[self.level]} at {_line(s.ops[0])}"
        return f"{s.ops[0].name} at {_line(s.ops[0])}"


def _line(op: object) -> str:
    loc = getattr(op, "loc", None)
    line = getattr(loc, "line", None)
    source = getattr(getattr(loc, "source", None), "name", None)
    return f"{source}:{line}" if line is not None else "an unknown place"


def _constant(pa: isl.PwAff) -> int:
    pieces = pa.get_pieces()
    return int(pieces[0][1].get_constant_val().to_python()) if pieces else 0


def source_rows(schedule: Schedule) -> dict[str, Row]:
    """Each statement's 2d+1 row (one function of its instances per time dimension)."""
    rows = {}
    for name, m in schedule.maps.items():
        pma = isl.PwMultiAff.from_map(m)
        rows[name] = [pma.get_pw_aff(j) for j in range(pma.dim(isl.dim_type.out))]
    return rows


def sibling_items(schedule: Schedule) -> Iterator[list[Item]]:
    """The children of every sequence of ``schedule`` (a source schedule), in order."""
    rows = source_rows(schedule)
    width = max((len(r) for r in rows.values()), default=1)
    for level in range((width - 1) // 2 + 1):
        groups: dict[tuple[int, ...], dict[int, list[Statement]]] = {}
        for s in schedule.statements:
            if s.depth < level:
                continue
            row = rows[s.name]
            parent = tuple(_constant(row[2 * k]) for k in range(level))
            position = _constant(row[2 * level])
            groups.setdefault(parent, {}).setdefault(position, []).append(s)
        for parent, children in groups.items():
            if len(children) > 1:
                yield [
                    Item(level, parent, position, tuple(children[position]))
                    for position in sorted(children)
                ]


@dataclass(frozen=True)
class Candidate:
    """Two sibling items ``first`` (earlier) and ``second`` and how they would fuse."""

    kind: str  # SIBLING or PRODUCER
    first: Item
    second: Item
    memrefs: tuple[Value, ...]  # produced by first and read by second, or read by both

    def describe(self) -> str:
        names = ", ".join(v.name or "a memref" for v in self.memrefs)
        via = "through" if self.kind == PRODUCER else "both reading"
        return f"{self.first.describe()} and {self.second.describe()} ({self.kind} {via} {names})"


def candidates(schedule: Schedule, kind: str) -> list[Candidate]:
    """The pairs of sibling items that could fuse as ``kind``: producer-consumer when a
    memref written by the first is read by the second (a RAW dependence), sibling when both
    read a memref and there is no RAW dependence from the first to the second."""
    dependences, _ = schedule.program.dependences()
    raw = {(d.source.name, d.target.name) for d in dependences if d.kind == "RAW"}
    result = []
    for items in sibling_items(schedule):
        for i, a in enumerate(items):
            for b in items[i + 1 :]:
                if a.depth == 0 or b.depth == 0:
                    continue
                flows = any((s.name, t.name) in raw for s in a.statements for t in b.statements)
                if kind == PRODUCER and flows:
                    shared = a.memrefs(WRITE) & b.memrefs(READ)
                elif kind == SIBLING and not flows:
                    shared = a.memrefs(READ) & b.memrefs(READ)
                else:
                    continue
                if shared:
                    ordered = tuple(sorted(shared, key=lambda v: v.name or ""))
                    result.append(Candidate(kind, a, b, ordered))
    return result


@dataclass(frozen=True)
class FusedSchedule:
    """A candidate fused at ``depth`` with the fused item at ``position``."""

    candidate: Candidate
    depth: int
    position: int
    statements: tuple[Statement, ...]  # all the function's statements
    rows: dict[str, Row]  # every statement's new time, padded to one width
    slice: isl.UnionMap | None  # producer-consumer: { consumer iteration -> producer instances }
    degenerate: bool = False  # every needed producer instance runs in one consumer iteration

    @property
    def key_width(self) -> int:
        """The time dimensions that name one iteration of the fused loops."""
        return 2 * self.candidate.first.level + 2 + 2 * self.depth - 1

    def key(self, s: Statement) -> isl.Map:
        """``{ S[x] -> [outer loops, fused loops] }``: the fused iteration of ``s``'s instances."""
        return _map_of(s, self.rows[s.name][: self.key_width])

    def union_map(self) -> isl.UnionMap:
        """The whole function's fused schedule."""
        result = isl.UnionMap.empty(isl.Space.params_alloc(isl_context(), 0))
        for s in self.statements:
            result = result.union(isl.UnionMap.from_map(_map_of(s, self.rows[s.name])))
        return result


def _map_of(s: Statement, row: Row) -> isl.Map:
    pieces = isl.PwAffList.alloc(isl_context(), len(row))
    for pa in row:
        pieces = pieces.add(pa)
    target = s.space.from_domain().add_dims(isl.dim_type.out, len(row))
    return isl.Map.from_multi_pw_aff(isl.MultiPwAff.from_pw_aff_list(target, pieces))


def _value(s: Statement, value: int) -> isl.PwAff:
    return isl.PwAff.val_on_domain(
        isl.Set.universe(s.space), isl.Val.int_from_si(isl_context(), value)
    )


def _on(pa: isl.PwAff, domain: isl.Set) -> isl.PwAff:
    return pa.intersect_domain(domain)


def fused_schedule(
    schedule: Schedule, candidate: Candidate, depth: int, at_second: bool = True
) -> FusedSchedule:
    """The whole function's schedule with ``candidate`` fused at ``depth`` (1 up to the
    second item's depth), the fused item at the second item's position (``at_second``) or
    the first's (see the module docstring)."""
    program = schedule.program
    rows = source_rows(schedule)
    first, second = candidate.first, candidate.second
    level = first.level
    position = second.position if at_second else first.position
    fused = {s.name for s in first.statements} | {s.name for s in second.statements}
    prefix_end = 2 * level + 2 * depth  # source entries 2L+1 .. 2L+2d-1 are the prefix
    new: dict[str, Row] = {}
    for s in program.statements:
        row = rows[s.name]
        if s.name not in fused:
            new[s.name] = [*row[: 2 * level + 1], _value(s, 0), *row[2 * level + 1 :]]
            continue
        head = [*row[: 2 * level], _value(s, position)]
        if s in second.statements:
            own = row[2 * level + 1 : prefix_end]
            new[s.name] = [*head, _value(s, 1), *own, _value(s, 1), *row[prefix_end:]]
        elif candidate.kind == SIBLING:
            own = row[2 * level + 1 : prefix_end]
            new[s.name] = [*head, _value(s, 1), *own, _value(s, 0), *row[prefix_end:]]
    slice_ = None
    degenerate = False
    if candidate.kind == PRODUCER:
        with budget(SLICE_BUDGET, f"the slice of {candidate.describe()} at depth {depth}"):
            placement, degenerate = _placement(program, rows, candidate, depth)
        for s in first.statements:
            row = rows[s.name]
            needed_pma = placement.get(s.name)
            needed = needed_pma.domain() if needed_pma is not None else isl.Set.empty(s.space)
            rest = s.domain.subtract(needed)
            prefix = [
                needed_pma.get_pw_aff(k)
                if needed_pma is not None
                else isl.PwAff.empty(s.space.from_domain().add_dims(isl.dim_type.out, 1))
                for k in range(2 * depth - 1)
            ]
            seg = _on(_value(s, 1), needed).union_add(_on(_value(s, 0), rest))
            moved = [_on(p, needed).union_add(_on(_value(s, 0), rest)) for p in prefix]
            new[s.name] = [
                *row[: 2 * level],
                _value(s, position),
                seg,
                *moved,
                _value(s, 0),
                *row[2 * level + 1 :],
            ]
            if needed_pma is not None:
                part = isl.UnionMap.from_map(isl.Map.from_pw_multi_aff(needed_pma).reverse())
                slice_ = part if slice_ is None else slice_.union(part)
    width = max(len(r) for r in new.values())
    padded = {}
    for s in program.statements:
        row = new[s.name]
        padded[s.name] = row + [_value(s, 0)] * (width - len(row))
    return FusedSchedule(candidate, depth, position, program.statements, padded, slice_, degenerate)


def _placement(
    program: Program, rows: dict[str, Row], candidate: Candidate, depth: int
) -> tuple[dict[str, isl.PwMultiAff], bool]:
    """For each producer statement: its instances some consumer instance depends on (in the
    same iteration of the outer loops), mapped to the earliest such consumer iteration (the
    prefix of ``2 depth - 1`` time dimensions): the exact slice, as a function. And whether
    all of them land in one consumer iteration per outer iteration (no fusion at all)."""
    level = candidate.first.level
    outer = [2 * k + 1 for k in range(level)]
    consumer_prefix = list(range(2 * level + 1, 2 * level + 2 * depth))
    dependences, _ = program.dependences()
    targets = {t.name: t for t in candidate.second.statements}
    result = {}
    iterations: isl.Set | None = None
    for s in candidate.first.statements:
        reach: isl.Map | None = None
        for d in dependences:
            if d.source is not s or d.target.name not in targets:
                continue
            t = targets[d.target.name]
            key_t = _map_of(t, [rows[t.name][k] for k in outer + consumer_prefix])
            step = d.relation.apply_range(key_t)
            reach = step if reach is None else reach.union(step)
        if reach is None or reach.is_empty():
            continue
        same_outer = _map_of(s, [rows[s.name][k] for k in outer]).flat_range_product(
            isl.Map.universe(s.space.from_domain().add_dims(isl.dim_type.out, len(consumer_prefix)))
        )
        reach = reach.intersect(same_outer).intersect_domain(s.domain)
        if reach.is_empty():
            continue
        earliest = reach.lexmin()
        used = earliest.range()
        iterations = used if iterations is None else iterations.union(used)
        result[s.name] = isl.PwMultiAff.from_map(earliest.project_out(isl.dim_type.out, 0, level))
    degenerate = iterations is not None and (
        isl.Map.from_range(iterations)
        .move_dims(isl.dim_type.in_, 0, isl.dim_type.out, 0, level)
        .is_single_valued()
    )
    return result, degenerate


def per_iteration_footprint(
    fused: FusedSchedule, program: Program, memref: Value
) -> isl.Map | None:
    """``{ [fused iteration] -> M[element] }``: the elements of ``memref`` each iteration of
    the fused loops touches (None when an access of it is not exact)."""
    result: isl.Map | None = None
    for s in program.statements:
        for a in s.accesses:
            if a.memref is not memref:
                continue
            if not a.exact:
                return None
            part = fused.key(s).reverse().apply_range(touches(program, s, a.relation))
            result = part if result is None else result.union(part.align_params(result.get_space()))
    return result


def fixed_dimensions(footprint: isl.Map) -> list[int]:
    """The element dimensions that take one value per fused iteration."""
    fixed = []
    for k in range(footprint.dim(isl.dim_type.out)):
        dim = footprint.project_out(
            isl.dim_type.out, k + 1, footprint.dim(isl.dim_type.out) - k - 1
        )
        dim = dim.project_out(isl.dim_type.out, 0, k)
        if dim.is_single_valued():
            fixed.append(k)
    return fixed


def values_stay_in_iteration(
    fused: FusedSchedule, program: Program, memref: Value, statements: Sequence[Statement]
) -> str | None:
    """None when every value of ``memref`` a read gets was written in the same fused
    iteration and every read has such a write; otherwise why not."""
    flows = value_flows(program, memref)
    if isinstance(flows, str):
        return flows
    for d in flows:
        same = fused.key(d.source).apply_range(fused.key(d.target).reverse())
        if not d.relation.is_subset(same):
            return f"a value of {memref.name} flows from one fused iteration to a later one"
    return reads_written(program, memref, statements, flows)


def value_flows(program: Program, memref: Value) -> list[Dependence] | str:
    """The value-based RAW dependences through ``memref``, or why they are not exact."""
    dependences, _ = program.dependences(value_based=True)
    flows = [d for d in dependences if d.kind == "RAW" and _memref_of(d.target_op) is memref]
    for d in flows:
        if not d.exact:
            return f"the flow of {memref.name} into {d.target.name} is not exact"
    return flows


def reads_written(
    program: Program, memref: Value, statements: Sequence[Statement], flows: list[Dependence]
) -> str | None:
    """None when every read of ``memref`` in ``statements`` gets a value written by them."""
    by_read: dict[object, isl.Set] = {}
    for d in flows:
        covered = by_read.get(d.target_op, isl.Set.empty(d.target.space))
        by_read[d.target_op] = covered.union(d.relation.range())
    for s in statements:
        for a in s.accesses:
            if a.memref is memref and a.kind == READ:
                read = touches(program, s, a.relation).domain()
                covered = by_read.get(a.op, isl.Set.empty(s.space))
                if not read.is_subset(covered):
                    return f"a read of {memref.name} gets a value not written in the fused loops"
    return None


def touches(program: Program, s: Statement, relation: isl.Map) -> isl.Map:
    """``{ S[x] -> M[element] }`` of one of ``s``'s accesses, on ``s``'s domain."""
    return program.to_statement(program.rename(relation), isl.dim_type.in_, s).intersect_domain(
        s.domain
    )


def modular_storage(
    fused: FusedSchedule,
    program: Program,
    memref: Value,
    statements: Sequence[Statement],
    shape: Sequence[int],
    largest: int = 16,
) -> tuple[int, int] | str:
    """``(k, m)``: ``memref`` may keep element ``e`` in the cell where ``e[k]`` is replaced
    by ``e[k] mod m`` (``m`` below ``shape[k]`` and at most ``largest``, the fewest cells
    first), or why no such cell map is valid.

    Valid (a modular storage mapping, as in Lefebvre and Feautrier's storage optimisation)
    when no write of another element sharing a cell runs, in the fused schedule, between a
    write and a read of the value it wrote (statement instances; one instance counts as
    between, so what cannot be told apart is refused); every flow must be exact and every
    read must get a value written by ``statements``."""
    flows = value_flows(program, memref)
    if isinstance(flows, str):
        return flows
    why = reads_written(program, memref, statements, flows)
    if why is not None:
        return why
    time = {s.name: _map_of(s, fused.rows[s.name]) for s in statements}
    writes = [
        (s, touches(program, s, a.relation))
        for s in statements
        for a in s.accesses
        if a.memref is memref and a.kind == WRITE
    ]
    lives = []  # (the writes' instances -> elements, instances whose value is still read later)
    for d in flows:
        (written,) = [a for a in d.source.accesses if a.op is d.source_op and a.kind == WRITE]
        lives.append((d, touches(program, d.source, written.relation)))
    distances = _overwritten_while_live(time, writes, lives)
    for m in range(2, largest + 1):
        for k in sorted(range(len(shape)), key=lambda k: -shape[k]):
            if m < shape[k] and not _cells_collide(distances, k, m):
                return k, m
    return f"no dimension of {memref.name} can wrap around (modulo at most {largest})"


def _overwritten_while_live(
    time: dict[str, isl.Map],
    writes: list[tuple[Statement, isl.Map]],
    lives: list[tuple[Dependence, isl.Map]],
) -> isl.Set | None:
    """``{ e' - e }``: the distances from an element ``e`` whose value is live (written,
    still to be read) to an element ``e'`` written meanwhile, in the fused schedule (at
    the same time counts as meanwhile); None when no value lives."""
    found: isl.Set | None = None
    for d, written in lives:
        t_source, t_read = time[d.source.name], time[d.target.name]
        for writer, touched in writes:
            t_write = time[writer.name]
            meanwhile = t_source.lex_le_map(t_write).intersect_domain(
                d.relation.domain().align_params(t_source.get_space())
            )
            before_read = d.relation.apply_range(t_write.lex_le_map(t_read).reverse())
            meanwhile = meanwhile.intersect(before_read.align_params(meanwhile.get_space()))
            pairs = written.reverse().apply_range(meanwhile.align_params(written.get_space()))
            pairs = pairs.apply_range(touched.align_params(pairs.get_space()))
            distances = pairs.deltas()
            if found is not None:
                found = found.align_params(distances.get_space())
                distances = found.union(distances.align_params(found.get_space()))
            found = distances
    return found


def _cells_collide(distances: isl.Set | None, k: int, m: int) -> bool:
    """Whether two elements a distance of ``distances`` apart share a cell when dimension
    ``k`` is taken modulo ``m`` (they differ in dimension ``k`` only, by a multiple of
    ``m``): a write would overwrite a live value."""
    if distances is None:
        return False
    on_distances = isl.LocalSpace.from_space(distances.get_space())

    def distance(j: int) -> isl.PwAff:
        return isl.PwAff.var_on_domain(on_distances, isl.dim_type.set, j)

    same_cell = distance(k).non_zero_set().intersect(distance(k).mod_val(m).zero_set())
    for j in range(distances.dim(isl.dim_type.set)):
        if j != k:
            same_cell = same_cell.intersect(distance(j).zero_set())
    return not distances.intersect(same_cell).is_empty()


def _memref_of(op: Operation) -> Value | None:
    if op.name in ("affine.load", "affine.vector_load") and op.operands:
        return op.operands[0]
    if op.name in ("affine.store", "affine.vector_store") and len(op.operands) > 1:
        return op.operands[1]
    return None


def reuse_within_iteration(fused: FusedSchedule, program: Program) -> bool:
    """Whether one iteration of the fused loops reuses data: a value of a shared memref
    produced and consumed in it (producer-consumer), or an element of a shared memref that
    both items read in it (sibling)."""
    candidate = fused.candidate
    shared = set(candidate.memrefs)
    kind = WRITE if candidate.kind == PRODUCER else READ
    for s in candidate.first.statements:
        for t in candidate.second.statements:
            same = fused.key(s).apply_range(fused.key(t).reverse())
            for a in s.accesses:
                if a.memref not in shared or a.kind != kind:
                    continue
                for b in t.accesses:
                    if b.memref is not a.memref or b.kind != READ:
                        continue
                    touch_a = program.to_statement(program.rename(a.relation), isl.dim_type.in_, s)
                    touch_b = program.to_statement(program.rename(b.relation), isl.dim_type.in_, t)
                    touch_b = touch_b.align_params(touch_a.get_space())
                    pairs = touch_a.intersect_domain(s.domain).apply_range(
                        touch_b.intersect_domain(t.domain).reverse()
                    )
                    if not pairs.intersect(same.align_params(pairs.get_space())).is_empty():
                        return True
    return False
