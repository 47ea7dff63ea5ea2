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

import json
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import islpy as isl

from poly.context import IslBudgetExceeded, budget, isl_context
from poly.deps import DEFAULT_MAX_OPERATIONS
from poly.schedule_program import Dependence, Program, ScheduleError
from poly.space import read_user_text


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
        text = schedule_text(domain, relations, max_operations, serialize_sccs)
    else:
        text = _in_child(domain, relations, max_operations, serialize_sccs, time_limit)
    if text.startswith(_FAILED):
        raise ScheduleError(f"ISL's scheduler failed: {text.removeprefix(_FAILED)}")
    if text == _OVER_BUDGET:
        raise IslBudgetExceeded("ISL's scheduler", max_operations)
    return read_user_text(isl.Schedule, text)


_FAILED = "failed: "
_OVER_BUDGET = "over budget"


def schedule_text(domain: str, relations: str, max_operations: int, serialize: bool) -> str:
    """ISL's schedule as text, from the domain and the dependences as text (what a child
    process computes); or why there is none."""
    constraints = isl.ScheduleConstraints.on_domain(read_user_text(isl.UnionSet, domain))
    deps = read_user_text(isl.UnionMap, relations)
    constraints = constraints.set_validity(deps).set_proximity(deps).set_coincidence(deps)
    try:
        with _options(serialize), budget(max_operations, "ISL's scheduler"):
            return str(constraints.compute_schedule())
    except IslBudgetExceeded:
        return _OVER_BUDGET
    except isl.Error as e:
        return _FAILED + str(e).split(" in /")[0]


def _in_child(
    domain: str, relations: str, max_operations: int, serialize: bool, seconds: float
) -> str:
    """:func:`schedule_text` run by ``python -m poly.schedule_isl`` in a child process,
    stopped after ``seconds``."""
    request = json.dumps([domain, relations, max_operations, serialize])
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "poly.schedule_isl"],
            input=request,
            capture_output=True,
            text=True,
            timeout=seconds,
            env=env,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return _OVER_BUDGET
    if done.returncode != 0:
        return _FAILED + (done.stderr.strip().splitlines() or ["no answer"])[-1]
    return done.stdout


def main() -> None:
    """The child's side of :func:`_in_child`: a JSON request on stdin, the answer on stdout."""
    domain, relations, max_operations, serialize = json.loads(sys.stdin.read())
    sys.stdout.write(schedule_text(domain, relations, max_operations, serialize))


__all__ = ["compute_schedule", "dependence_union", "schedule_text"]


if __name__ == "__main__":
    main()
