"""Fusion slices against brute force: for random producer-consumer pairs (tests/nestgen.py)
the exact slice of poly/slices.py at every depth is, point for point, what running the
program says: each producer instance some consumer instance depends on (same element, one
of them writing, in the same iteration of the loops around both nests), mapped to the
earliest consumer iteration of the fused loops that depends on it."""

from __future__ import annotations

import warnings
from pathlib import Path

import islpy as isl
import pytest
from dep_oracle import dependent_pairs, trace
from hypothesis import HealthCheck, assume, given, settings
from nestgen import nests

import affine
import transforms
from affine.ir.core import Operation, Value
from poly.context import IslBudgetExceeded
from poly.deps import AnalysisWarning
from poly.schedule import Schedule
from poly.schedule_program import Statement
from poly.slices import PRODUCER, Candidate, candidates, fused_schedule

Point = tuple[int, ...]
SlicePoints = set[tuple[str, Point, Point]]  # (producer statement, its instance, iteration)


def point_of(s: isl.Set | isl.BasicSet) -> Point:
    point = s.sample_point()
    return tuple(
        int(point.get_coordinate_val(isl.dim_type.set, k).to_python())
        for k in range(s.dim(isl.dim_type.set))
    )


def slice_points(slice_: isl.UnionMap | None) -> SlicePoints:
    """Every (producer statement, producer instance, consumer iteration) of a slice."""
    found: SlicePoints = set()
    if slice_ is None:
        return found

    def one_map(m: isl.Map) -> None:
        name = m.get_tuple_name(isl.dim_type.out)
        width = m.dim(isl.dim_type.in_)

        def one_point(p: isl.Point) -> None:
            values = tuple(
                int(p.get_coordinate_val(isl.dim_type.set, k).to_python())
                for k in range(m.dim(isl.dim_type.in_) + m.dim(isl.dim_type.out))
            )
            found.add((name, values[width:], values[:width]))

        m.wrap().foreach_point(one_point)

    slice_.foreach_map(one_map)
    return found


def iv_values(loops: tuple[Operation, ...], ivs: tuple[int, ...]) -> dict[Value, int]:
    """The value of every induction variable of an oracle instance's enclosing loops."""
    values: dict[Value, int] = {}
    seen: dict[Operation, int] = {}
    for loop, value in zip(loops, ivs):
        k = seen.get(loop, 0)
        seen[loop] = k + 1
        values[loop.regions[0].blocks[0].arguments[k]] = value
    return values


class Oracle:
    """Brute-force slices of one function: its trace, and each statement's instances."""

    def __init__(self, module: affine.Module, schedule: Schedule) -> None:
        self.schedule = schedule
        self.owner: dict[Operation, Statement] = {
            op: s for s in schedule.statements for top in s.ops for op in top.walk()
        }
        self.pairs = list(dependent_pairs(trace(module)))
        self.times: dict[tuple[str, Point], Point] = {}

    def instance(self, s: Statement, loops, ivs) -> Point:
        values = iv_values(loops, ivs)
        return tuple(values[iv] for iv in s.ivs)

    def time(self, s: Statement, instance: Point) -> Point:
        """The source schedule's time of one instance (2d+1 entries)."""
        key = (s.name, instance)
        if key not in self.times:
            point = isl.Set.universe(s.space)
            for k, value in enumerate(instance):
                point = point.fix_val(
                    isl.dim_type.set, k, isl.Val.int_from_si(point.get_ctx(), value)
                )
            self.times[key] = point_of(point.apply(self.schedule.maps[s.name]))
        return self.times[key]

    def slice(self, candidate: Candidate, depth: int) -> SlicePoints:
        level = candidate.first.level
        producers = set(candidate.first.statements)
        consumers = set(candidate.second.statements)
        earliest: dict[tuple[str, Point], Point] = {}
        for a, b in self.pairs:
            source, target = self.owner.get(a.op), self.owner.get(b.op)
            if source not in producers or target not in consumers:
                continue
            p = self.instance(source, a.loops, a.ivs)
            c = self.instance(target, b.loops, b.ivs)
            p_time, c_time = self.time(source, p), self.time(target, c)
            outer = [2 * k + 1 for k in range(level)]
            if [p_time[k] for k in outer] != [c_time[k] for k in outer]:
                continue
            iteration = c_time[2 * level + 1 : 2 * level + 2 * depth]
            key = (source.name, p)
            earliest[key] = min(earliest.get(key, iteration), iteration)
        return {(name, p, it) for (name, p), it in earliest.items()}


def exact(schedule: Schedule) -> bool:
    """Whether every dependence of the function is exact (no access over-approximated)."""
    dependences, notes = schedule.program.dependences()
    return not notes and all(d.exact for d in dependences)


def check_slices(module: affine.Module, text: str) -> int:
    """Compare every producer-consumer slice of ``module`` at every depth with brute force;
    the number of slices compared (0 when there is no candidate or a dependence is not
    exact; a slice over its ISL budget is not compared)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnalysisWarning)
        schedule = transforms.schedule_of(module)
        found = candidates(schedule, PRODUCER)
        if not found or not exact(schedule):
            return 0
        oracle = Oracle(module, schedule)
        compared = 0
        for candidate in found:
            for depth in range(1, candidate.second.depth + 1):
                try:
                    fused = fused_schedule(schedule, candidate, depth)
                except IslBudgetExceeded:  # refused (fusion says so), nothing to compare
                    continue
                expected = oracle.slice(candidate, depth)
                assert slice_points(fused.slice) == expected, (
                    f"depth {depth} of {candidate.describe()}\nslice {fused.slice}\n{text}"
                )
                compared += 1
        return compared


CORPUS = Path(__file__).resolve().parents[1] / "corpus"
FILES = [
    # (the calls' effects are not exact dependences, so their files have no slice to compare;
    # the brute force cannot follow loaded subscripts)
    *sorted(
        p
        for p in (CORPUS / "fusion").glob("*.mlir")
        if p.stem not in ("call_barrier", "call_in_consumer", "gathered_rows")
    ),
    *(CORPUS / "kernels" / f"{name}.mlir" for name in ("two_mm", "gemver", "atax", "jacobi_1d")),
]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_corpus_slices_are_the_brute_force_slices(path: Path) -> None:
    text = path.read_text()
    compared = check_slices(affine.parse(text, str(path)), text)
    assert compared > 0 or path.stem in ("identical_reads", "bicg_split")  # siblings only


SETTINGS = settings(
    deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)


@settings(SETTINGS, max_examples=8)
@given(nests())
def test_random_slices_are_the_brute_force_slices(nest) -> None:
    assume(check_slices(affine.parse(nest.text, "random.mlir"), nest.text) > 0)


@pytest.mark.slow
@settings(SETTINGS, max_examples=60)
@given(nests())
def test_many_random_slices_are_the_brute_force_slices(nest) -> None:
    assume(check_slices(affine.parse(nest.text, "random.mlir"), nest.text) > 0)
