"""ISL's scheduler from text to text, importing islpy only, so that a child process runs it
as a script without loading the toolkit (:func:`poly.schedule_isl.compute_schedule` does
that to stop it after a time limit; in-process calls pass the toolkit's context).

The answer is ISL's schedule tree as text, or :data:`OVER_BUDGET`, or :data:`FAILED` and
ISL's message. The context's options and budget are restored after the call.
"""

from __future__ import annotations

import json
import sys

import islpy as isl

OVER_BUDGET = "over budget"
FAILED = "failed: "
_BUDGET_MESSAGE = "maximal number of operations exceeded"


def schedule_text(
    ctx: isl.Context, domain: str, relations: str, max_operations: int, serialize: bool
) -> str:
    """ISL's schedule of the instances ``domain`` with validity, proximity and coincidence
    from ``relations``; strongly connected components in their own nests when
    ``serialize``."""
    saved = (ctx.get_schedule_serialize_sccs(), ctx.get_max_operations())
    ctx.set_schedule_serialize_sccs(int(serialize))
    ctx.set_max_operations(0)  # reading the text is not the scheduler's work
    try:
        # the text is the toolkit's own print of its objects: no name is spelled here
        constraints = isl.ScheduleConstraints.on_domain(isl.UnionSet(domain, context=ctx))
        deps = isl.UnionMap(relations, context=ctx)
        constraints = constraints.set_validity(deps).set_proximity(deps).set_coincidence(deps)
        ctx.reset_operations()
        ctx.set_max_operations(max_operations)
        return str(constraints.compute_schedule())
    except isl.Error as e:
        if _BUDGET_MESSAGE in str(e):
            return OVER_BUDGET
        return FAILED + str(e).split(" in /")[0]
    finally:
        ctx.set_schedule_serialize_sccs(saved[0])
        ctx.set_max_operations(saved[1])
        ctx.reset_operations()


if __name__ == "__main__":
    sys.stdout.write(schedule_text(isl.Context(), *json.loads(sys.stdin.read())))
