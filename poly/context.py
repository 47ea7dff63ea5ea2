"""The ISL context of the toolkit and the compute budget ISL work runs under.

Invariant: every ISL object the toolkit creates lives in :func:`isl_context`, a private
context (options set on ``isl.DEFAULT_CONTEXT`` by other code do not leak in, see
research/peers.md §5).  ISL failures surface as ``isl.Error`` carrying isl's message; a call
that runs out of budget raises :class:`IslBudgetExceeded` instead, never hangs.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

import islpy as isl

from affine.errors import PolyError

DEFAULT_MAX_OPERATIONS = 10_000_000  # isl's operation counter; a 16-statement stencil chain
# schedules within 10**7 (research/peers.md §5)

_BUDGET_MESSAGE = "maximal number of operations exceeded"
_CONTEXT = isl.Context()


class IslBudgetExceeded(PolyError, RuntimeError):
    """An ISL computation used more than its operation budget."""

    def __init__(self, what: str, max_operations: int) -> None:
        super().__init__(
            f"{what} exceeded the ISL budget of {max_operations} operations; the answer is "
            "unknown (raise the budget with poly.budget(...) to try harder)"
        )
        self.what = what
        self.max_operations = max_operations


def isl_context() -> isl.Context:
    """The context all of the toolkit's ISL objects live in."""
    return _CONTEXT


@contextmanager
def budget(
    max_operations: int = DEFAULT_MAX_OPERATIONS, what: str = "an ISL computation"
) -> Iterator[isl.Context]:
    """Run the ``with`` body under an operation budget on the toolkit's context.

    The counter is reset on entry (it is cumulative otherwise).  Inside an enclosing budget
    the smaller limit applies and the enclosing one is restored on exit.  A budget hit raises
    :class:`IslBudgetExceeded`; other ISL errors propagate as ``isl.Error``.
    """
    ctx = _CONTEXT
    outer = ctx.get_max_operations()
    limit = min(max_operations, outer) if outer else max_operations
    ctx.reset_operations()
    ctx.set_max_operations(limit)
    try:
        yield ctx
    except isl.Error as err:
        if _BUDGET_MESSAGE in str(err):
            raise IslBudgetExceeded(what, limit) from err
        raise
    finally:
        ctx.set_max_operations(outer)
        ctx.reset_operations()


IslObjectT = TypeVar("IslObjectT")  # any ISL object with ``coalesce``


def coalesced(obj: IslObjectT) -> IslObjectT:
    """``obj`` in fewer pieces (``coalesce``), or ``obj`` itself where ISL's coalescing
    fails one of its own consistency checks (seen on maps with several ``mod``/``floordiv``
    divisions): either is the same set. A budget hit still raises."""
    try:
        result: IslObjectT = obj.coalesce()  # type: ignore[attr-defined]  # every ISL set kind has it
        return result
    except isl.Error as err:
        if _BUDGET_MESSAGE in str(err):
            raise
        return obj
