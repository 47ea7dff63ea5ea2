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


def dependence_union(
    dependences: Sequence[Dependence], rename: isl.UnionMap | None = None
) -> isl.UnionMap:
    """Every dependence's instance pairs as one union map (each end renamed by ``rename``
    when given)."""
    result = isl.UnionMap.empty(isl.Space.params_alloc(isl_context(), 0))
    for d in dependences:
        pairs = isl.UnionMap.from_map(d.relation)
        if rename is not None:
            pairs = pairs.apply_domain(rename).apply_range(rename)
        result = result.union(pairs)
    return result


def innermost_first(domain: isl.UnionSet) -> isl.UnionMap:
    """The map taking each instance ``S[i0, ..., in]`` of ``domain`` to
    ``S[in, i0, ..., in-1]``: every statement's innermost loop first."""
    result = isl.UnionMap.empty(domain.get_space())
    sets = domain.get_set_list()
    for s in (sets.get_at(k) for k in range(sets.n_set())):
        space = s.get_space()
        n = s.dim(isl.dim_type.set)
        local = isl.LocalSpace.from_space(space)
        affs = isl.AffList.alloc(space.get_ctx(), n)
        for k in [n - 1, *range(n - 1)] if n else []:
            affs = affs.add(isl.Aff.var_on_domain(local, isl.dim_type.set, k))
        rotation = isl.MultiAff.from_aff_list(space.map_from_set(), affs)
        result = result.union(isl.UnionMap.from_map(isl.Map.from_multi_aff(rotation)))
    return result


def compute_schedule(
    program: Program,
    dependences: Sequence[Dependence],
    max_operations: int = DEFAULT_MAX_OPERATIONS,
    serialize_sccs: bool = False,
    time_limit: float | None = None,
    innermost_outside: bool = False,
) -> isl.Schedule | isl.UnionMap:
    """ISL's schedule of the program's instances: validity, proximity and coincidence from
    ``dependences``; ``serialize_sccs`` distributes every strongly connected component into
    its own nest (no fusion across them). With ``innermost_outside`` ISL sees every
    statement's innermost loop first (:func:`innermost_first`), the order it keeps where
    the dependences let it (an in-place factorisation's update loop outermost: LU
    updating the whole trailing matrix at each step), and the answer is a map over
    the statements' own dimensions. Raises :class:`poly.context.IslBudgetExceeded`
    when ISL needs more than ``max_operations`` (ISL counts few of its scheduler's steps)
    or, with ``time_limit``, more than that many seconds (it then runs in a child process,
    which is stopped); :class:`ScheduleError` when ISL fails."""
    rotation = innermost_first(program.domain) if innermost_outside else None
    domain = program.domain if rotation is None else program.domain.apply(rotation)
    relations = dependence_union(dependences, rotation)
    tree = _isl_schedule(str(domain), str(relations), max_operations, serialize_sccs, time_limit)
    if rotation is None:
        return tree
    return tree.get_map().apply_domain(rotation.reverse())


def _isl_schedule(
    domain: str, relations: str, max_operations: int, serialize_sccs: bool, time_limit: float | None
) -> isl.Schedule:
    """ISL's schedule tree of the instances ``domain`` under ``relations`` (see
    :func:`compute_schedule`)."""
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


__all__ = ["compute_schedule", "dependence_union", "innermost_first"]
