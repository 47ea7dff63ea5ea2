"""Is a schedule legal? Decided from the exact dependences of its program.

For every dependence ``D = { S[x] -> T[y] }`` (``T[y]`` must run after ``S[x]``; memory-based
by default, value-based with kills on request) the new order ``θ`` (the 2d+1 map of the
tree) must run ``S[x]`` strictly before ``T[y]``: the violations are the pairs of ``D`` with
``θ(T[y]) ⪯ θ(S[x])``. Two instances scheduled at the same time count as a violation (the
ops inside one statement instance keep their order; distinct instances must be ordered).

A loop marked parallel must carry no dependence: no pair of ``D`` between instances that
reach its band, agree on every loop around it and differ on it. A band tiled with SSA-value
sizes must be permutable: no such pair, agreeing on the loops around the band, has a
negative distance on any of its loops (rectangular tiling is then legal for any size).

The answer is :data:`LEGAL`, :data:`ILLEGAL` (an exact dependence is reversed: which one,
its accesses with their source positions, a witness pair of instances and their distance)
or :data:`UNKNOWN`: only an over-approximated dependence (an access the model could not
represent exactly, an op whose effects it cannot see, an analysis that gave up) would be
reversed, or the ISL budget ran out. Unknown is never legal.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import islpy as isl

from poly.context import IslBudgetExceeded, budget, isl_context
from poly.deps import DEFAULT_MAX_OPERATIONS
from poly.schedule_program import EFFECTS, Dependence, Program, Statement
from poly.schedule_tree import (
    Band,
    Member,
    Node,
    Path,
    SequenceNode,
    bands,
    domain_at,
    flat_maps,
    member_multi,
)

LEGAL = "legal"
ILLEGAL = "illegal"
UNKNOWN = "unknown"


@dataclass(frozen=True)
class Violation:
    """A dependence the schedule breaks, with one pair of instances that shows it."""

    dependence: Dependence
    source: tuple[int, ...]  # the instance of dependence.source
    target: tuple[int, ...]  # the instance of dependence.target
    distance: tuple[int, ...]  # new times, target minus source, on the loops both run in
    loops: tuple[str, ...]  # those loops
    problem: str  # what the schedule does to the pair

    def message(self) -> str:
        d = self.dependence
        pair = f"{d.source.instance(self.source)} and {d.target.instance(self.target)}"
        text = f"the {d.describe()} {self.problem} ({pair}"
        if self.loops:
            text += f", distance ({', '.join(map(str, self.distance))}) on {', '.join(self.loops)}"
        return text + ")"


@dataclass(frozen=True)
class ScheduleVerdict:
    """Legal, illegal (with the violation) or unknown (with the reason)."""

    status: str
    reason: str = ""
    violation: Violation | None = None
    notes: tuple[str, ...] = ()  # what the dependence analysis could not decide

    def __bool__(self) -> bool:
        return self.status == LEGAL

    @property
    def legal(self) -> bool:
        return self.status == LEGAL

    def __str__(self) -> str:
        return self.status if not self.reason else f"{self.status}: {self.reason}"

    def _repr_html_(self) -> str:
        """The status in colour, the violation as a table (Jupyter's rich display)."""
        from poly import display  # lazy: start-up cost (matplotlib, for pictures)

        return display.schedule_verdict_html(self)


def check(
    root: Node,
    program: Program,
    value_based: bool = False,
    max_operations: int = DEFAULT_MAX_OPERATIONS,
) -> ScheduleVerdict:
    """The verdict on the schedule ``root`` of ``program`` (see the module docstring)."""
    dependences, notes = program.dependences(value_based, max_operations)
    try:
        with budget(max_operations, "the legality check of a schedule"):
            found = _first(root, program, dependences)
    except IslBudgetExceeded as e:
        return ScheduleVerdict(UNKNOWN, str(e), notes=tuple(notes))
    if found is None:
        return ScheduleVerdict(LEGAL, notes=tuple(notes))
    status = ILLEGAL if found.dependence.exact else UNKNOWN
    reason = found.message()
    if found.dependence.kind == EFFECTS:
        reason += f"; {found.dependence.reason}"
    elif not found.dependence.exact:
        reason += (
            "; the dependence is over-approximated "
            f"({found.dependence.reason or 'inexact accesses'}), so it may not exist"
        )
    return ScheduleVerdict(status, reason, found, tuple(notes))


Broken = tuple[Dependence, isl.Map, str]  # a dependence, its violating pairs, what went wrong


def _first(root: Node, program: Program, dependences: list[Dependence]) -> Violation | None:
    """The violation that decides: in the first group with any (the order, then each
    parallel mark, then each band tiled parametrically), one of an exact dependence if
    there is one."""
    maps = flat_maps(root, program, program.domain)
    for group in _violations(root, program, dependences, maps):
        if group:
            d, bad, problem = next((b for b in group if b[0].exact), group[0])
            return _witness(d, bad, maps, root, problem)
    return None


def _violations(
    root: Node, program: Program, dependences: list[Dependence], maps: dict[str, isl.Map]
) -> Iterator[list[Broken]]:
    yield list(_reversed(dependences, maps))
    for path, band in bands(root):
        domain = domain_at(root, path, program.domain)
        outer = _outer_members(root, path)
        for k, m in enumerate(band.members):
            if m.parallel:
                problem = f"is carried by parallel loop {m.name}"
                yield [
                    (d, bad, problem)
                    for d, bad in _carried(dependences, domain, [*outer, *band.members[:k]], m)
                ]
        if band.parametric:
            names = ", ".join(x.name for x in band.members)
            yield [
                (d, bad, f"has a negative distance on {m.name}, so band {names} cannot be tiled")
                for m in band.members
                for d, bad in _backwards(dependences, domain, outer, m)
            ]


def _reversed(dependences: list[Dependence], maps: dict[str, isl.Map]) -> Iterator[Broken]:
    """The pairs of each dependence whose target the new order does not run after the
    source (checked on all dependences of a pair of statements at once first)."""
    by_pair: dict[tuple[str, str], list[Dependence]] = {}
    for d in dependences:
        by_pair.setdefault((d.source.name, d.target.name), []).append(d)
    for (source, target), group in by_pair.items():
        later = isl.Map.lex_ge_map(maps[source], maps[target])
        union = group[0].relation
        for d in group[1:]:
            union = union.union(d.relation)
        if union.intersect(later).is_empty():
            continue
        for d in group:
            bad = d.relation.intersect(later)
            if not bad.is_empty():
                yield d, bad, "is reversed"


def _outer_members(root: Node, path: Path) -> list[Member]:
    """The members of the bands above the node at ``path``, outermost first."""
    members: list[Member] = []
    node = root
    for k in path:
        if isinstance(node, Band):
            members.extend(node.members)
            node = node.child
        else:
            assert isinstance(node, SequenceNode)
            node = node.children[k][1]
    return members


def _pairs_at(
    dependences: list[Dependence], domain: isl.UnionSet, outer: list[Member]
) -> Iterator[tuple[Dependence, isl.UnionMap]]:
    """Each dependence's pairs between instances of ``domain`` equal on ``outer``."""
    for d in dependences:
        pairs = isl.UnionMap.from_map(d.relation).intersect_domain(domain).intersect_range(domain)
        if pairs.is_empty():
            continue
        if outer:
            pairs = pairs.eq_at_multi_union_pw_aff(member_multi(outer))
        if not pairs.is_empty():
            yield d, pairs


def _carried(
    dependences: list[Dependence], domain: isl.UnionSet, outer: list[Member], m: Member
) -> Iterator[tuple[Dependence, isl.Map]]:
    """Pairs equal on ``outer`` and different on ``m``."""
    for d, pairs in _pairs_at(dependences, domain, outer):
        bad = pairs.subtract(pairs.eq_at_multi_union_pw_aff(member_multi([m])))
        if not bad.is_empty():
            yield d, isl.Map.from_union_map(bad)


def _backwards(
    dependences: list[Dependence], domain: isl.UnionSet, outer: list[Member], m: Member
) -> Iterator[tuple[Dependence, isl.Map]]:
    """Pairs equal on ``outer`` whose target comes before the source on ``m``."""
    for d, pairs in _pairs_at(dependences, domain, outer):
        bad = pairs.lex_gt_at_multi_union_pw_aff(member_multi([m]))
        if not bad.is_empty():
            yield d, isl.Map.from_union_map(bad)


def _witness(
    d: Dependence, bad: isl.Map, maps: dict[str, isl.Map], root: Node, problem: str
) -> Violation:
    """One pair of ``bad`` and its distance in the new schedule."""
    point = isl.Set.from_point(bad.wrap().sample_point())
    values = _coordinates(point)
    n = d.source.depth
    source, target = values[:n], values[n:]
    times = [
        _coordinates(maps[s.name].intersect_domain(_instance(s, v)).range())
        for s, v in ((d.source, source), (d.target, target))
    ]
    loops = _shared_loops(root, d.source, d.target)
    distance = tuple(times[1][2 * k + 1] - times[0][2 * k + 1] for k in range(len(loops)))
    if times[0] == times[1]:
        problem += ": both run at the same time"
    return Violation(d, tuple(source), tuple(target), distance, tuple(loops), problem)


def _instance(s: Statement, values: list[int]) -> isl.Set:
    result = isl.Set.universe(s.space)
    for k, v in enumerate(values):
        result = result.fix_val(isl.dim_type.set, k, isl.Val.int_from_si(isl_context(), v))
    return result


def _coordinates(s: isl.Set) -> list[int]:
    point = s.sample_point()
    return [
        point.get_coordinate_val(isl.dim_type.set, k).to_python()
        for k in range(s.dim(isl.dim_type.set))
    ]


def _shared_loops(root: Node, a: Statement, b: Statement) -> list[str]:
    """The loops (band members) both statements run in, outermost first."""
    shared = []
    for x, y in zip(members_to(root, a), members_to(root, b)):
        if x is not y:
            break
        shared.append(x.name)
    return shared


def members_to(root: Node, s: Statement) -> list[Member]:
    """The band members on the path from the root to ``s``'s (first) leaf."""
    members: list[Member] = []
    node = root
    domain = isl.UnionSet.from_set(isl.Set.universe(s.space))
    while True:
        if isinstance(node, Band):
            members.extend(node.members)
            node = node.child
        elif isinstance(node, SequenceNode):
            for filter_, child in node.children:
                if not domain.intersect(filter_).is_empty():
                    node = child
                    break
            else:
                return members
        else:
            return members
