"""ISL's affine scheduler over a function's statements, under a budget.

Invariant: the schedule returned orders every instance of :attr:`Program.domain` and
respects every dependence given as validity (ISL's scheduler guarantees it; callers still
re-check the result with :meth:`poly.schedule.Schedule.check` before generating code).
Proximity (what ISL keeps close: the reuse it minimises the distance of) and coincidence
(what it tries to keep parallel in outer loops) are the same dependences, so bands come out
permutable with skews where the dependences need them (the time loops of stencils become
tileable: jacobi-2d gets ``[t, 2t + i, 2t + j]``). ISL's options are set for the call only
and restored after it (:mod:`poly.schedule_isl_child`).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence

import islpy as isl

from poly import schedule_isl_child as child
from poly.context import IslBudgetExceeded, isl_context
from poly.deps import DEFAULT_MAX_OPERATIONS
from poly.schedule_program import Dependence, Program, ScheduleError
from poly.space import read_user_text


def dependence_union(dependences: Sequence[Dependence]) -> isl.UnionMap:
    """Every dependence's instance pairs as one union map."""
    result = isl.UnionMap.empty(isl.Space.params_alloc(isl_context(), 0))
    for d in dependences:
        result = result.union(isl.UnionMap.from_map(d.relation))
    return result


def compute_schedule(
    program: Program,
    dependences: Sequence[Dependence],
    max_operations: int = DEFAULT_MAX_OPERATIONS,
    serialize_sccs: bool = False,
    time_limit: float | None = None,
) -> isl.Schedule:
    """ISL's schedule of the program's instances: validity, proximity and coincidence from
    ``dependences``; ``serialize_sccs`` distributes every strongly connected component into
    its own nest (no fusion across them). Raises :class:`poly.context.IslBudgetExceeded`
    when ISL needs more than ``max_operations`` (ISL counts few of its scheduler's steps)
    or, with ``time_limit``, more than that many seconds (it then runs in a child process,
    which is stopped); :class:`ScheduleError` when ISL fails."""
    domain, relations = str(program.domain), str(dependence_union(dependences))
    if time_limit is None:
        text = child.schedule_text(isl_context(), domain, relations, max_operations, serialize_sccs)
    else:
        text = _in_child(domain, relations, max_operations, serialize_sccs, time_limit)
    if text.startswith(child.FAILED):
        raise ScheduleError(f"ISL's scheduler failed: {text.removeprefix(child.FAILED)}")
    if text == child.OVER_BUDGET:
        raise IslBudgetExceeded("ISL's scheduler", max_operations)
    try:
        return read_user_text(isl.Schedule, text)
    except isl.Error as e:  # a child that died half-way
        raise ScheduleError(f"ISL's scheduler gave no schedule ({text[:40]!r}): {e}") from e


def _in_child(
    domain: str, relations: str, max_operations: int, serialize: bool, seconds: float
) -> str:
    """:func:`poly.schedule_isl_child.schedule_text` run as a script in a child process
    (which imports islpy only), stopped after ``seconds``."""
    try:
        done = subprocess.run(
            [sys.executable, "-P", child.__file__],  # -P: not its directory on sys.path
            input=json.dumps([domain, relations, max_operations, serialize]),
            capture_output=True,
            text=True,
            timeout=seconds,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return child.OVER_BUDGET
    if done.returncode != 0:
        return child.FAILED + (done.stderr.strip().splitlines() or ["no answer"])[-1]
    return done.stdout


__all__ = ["compute_schedule", "dependence_union"]
