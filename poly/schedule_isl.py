"""ISL's affine scheduler over a function's statements, under a budget.

Invariant: the schedule returned orders every instance of :attr:`Program.domain` and
respects every dependence given as validity (ISL's scheduler guarantees it; callers still
re-check the result with :meth:`poly.schedule.Schedule.check` before generating code).
Proximity (what ISL keeps close: the reuse it minimises the distance of) and coincidence
(what it tries to keep parallel in outer loops) are the same dependences, so bands come out
permutable with skews where the dependences need them (the time loops of stencils become
tileable: jacobi-2d gets ``[t, 2t + i, 2t + j]``). ISL's options are set for the call only
and restored after it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import islpy as isl

from poly.context import budget, isl_context
from poly.deps import DEFAULT_MAX_OPERATIONS
from poly.schedule_program import Dependence, Program


def dependence_union(dependences: Sequence[Dependence]) -> isl.UnionMap:
    """Every dependence's instance pairs as one union map."""
    result = isl.UnionMap.empty(isl.Space.params_alloc(isl_context(), 0))
    for d in dependences:
        result = result.union(isl.UnionMap.from_map(d.relation))
    return result


@contextmanager
def _options(serialize_sccs: bool) -> Iterator[None]:
    ctx = isl_context()
    saved = ctx.get_schedule_serialize_sccs()
    ctx.set_schedule_serialize_sccs(int(serialize_sccs))
    try:
        yield
    finally:
        ctx.set_schedule_serialize_sccs(saved)


def compute_schedule(
    program: Program,
    dependences: Sequence[Dependence],
    max_operations: int = DEFAULT_MAX_OPERATIONS,
    serialize_sccs: bool = False,
) -> isl.Schedule:
    """ISL's schedule of the program's instances: validity, proximity and coincidence from
    ``dependences``; ``serialize_sccs`` distributes every strongly connected component into
    its own nest (no fusion across them). Raises :class:`poly.context.IslBudgetExceeded`
    when ISL needs more than ``max_operations``."""
    relations = dependence_union(dependences)
    constraints = (
        isl.ScheduleConstraints.on_domain(program.domain)
        .set_validity(relations)
        .set_proximity(relations)
        .set_coincidence(relations)
    )
    with _options(serialize_sccs), budget(max_operations, "ISL's scheduler"):
        return constraints.compute_schedule()


__all__ = ["compute_schedule", "dependence_union"]
