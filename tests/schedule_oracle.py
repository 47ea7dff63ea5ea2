"""Brute-force legality of a schedule: every statement instance, every pair of accesses that
touch one element (at least one writing), original order against the new one.

The accesses come from running the program's control structure (:func:`dep_oracle.trace`),
each attributed to the instance of its statement (the statement's op group and the values
of the loops around it). The new time of an instance is the schedule's 2d+1 vector, read
off the schedule by enumerating each statement's instances (evaluation of the schedule
function; no dependence or order computation of ISL is used). A schedule is *illegal* here
when some pair of dependent accesses of two different statement instances does not run
the source's instance strictly first, or when a loop marked parallel sees such a pair in
two of its iterations with every loop around it equal.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import islpy as isl
from dep_oracle import Instance, dependent_pairs, trace

from affine.ir.core import Module
from poly.schedule import Schedule
from poly.schedule_program import Statement
from poly.schedule_tree import Band, Member, SequenceNode

Key = tuple[str, tuple[int, ...]]  # a statement instance: (statement name, IV values)


@dataclass(frozen=True)
class Broken:
    """A pair of statement instances the schedule orders wrongly, and how."""

    source: Key
    target: Key
    why: str  # "order" or the name of a parallel loop


def times(schedule: Schedule, theta: isl.UnionMap | None = None) -> dict[Key, tuple[int, ...]]:
    """The time of every statement instance under ``theta`` (the schedule's 2d+1 map by
    default), by enumeration."""
    result: dict[Key, tuple[int, ...]] = {}
    if theta is None:
        theta = schedule.map
    theta = theta.intersect_domain(schedule.program.domain)

    def record(point: isl.Point) -> None:
        name = point.get_space().unwrap().get_tuple_name(isl.dim_type.in_)
        values = [
            point.get_coordinate_val(isl.dim_type.set, k).to_python()
            for k in range(point.get_space().dim(isl.dim_type.set))
        ]
        depth = schedule.program.statement(name).depth
        result[(name, tuple(values[:depth]))] = tuple(values[depth:])

    theta.wrap().foreach_point(record)
    return result


def path_members(schedule: Schedule, s: Statement) -> list[Member]:
    """The loops (band members) from the root to ``s``'s leaf, outermost first."""
    members: list[Member] = []
    node = schedule.root
    mine = isl.UnionSet.from_set(isl.Set.universe(s.space))
    while isinstance(node, (Band, SequenceNode)):
        if isinstance(node, Band):
            members.extend(node.members)
            node = node.child
        else:
            node = next(c for f, c in node.children if not mine.intersect(f).is_empty())
    return members


def instance_of(schedule: Schedule, access: Instance) -> Key | None:
    """The statement instance an access belongs to (None outside the function)."""
    s = schedule.program.statement_of(access.op)
    return None if s is None else (s.name, tuple(access.ivs[: s.depth]))


def broken_pairs(module: Module, schedule: Schedule) -> Iterator[Broken]:
    """Every wrongly ordered pair (see the module docstring)."""
    when = times(schedule)
    paths = {s.name: path_members(schedule, s) for s in schedule.statements}
    for a, b in dependent_pairs(trace(module)):
        x, y = instance_of(schedule, a), instance_of(schedule, b)
        if x is None or y is None or x == y:
            continue  # one statement instance keeps the order of its ops
        tx, ty = when[x], when[y]
        if not tx < ty:
            yield Broken(x, y, "order")
        for k, (mx, my) in enumerate(zip(paths[x[0]], paths[y[0]])):
            if mx is not my:
                break
            if (
                mx.parallel
                and tx[: 2 * k + 1] == ty[: 2 * k + 1]
                and tx[2 * k + 1] != ty[2 * k + 1]
            ):
                yield Broken(x, y, mx.name)


def first_broken(module: Module, schedule: Schedule) -> Broken | None:
    return next(iter(broken_pairs(module, schedule)), None)
