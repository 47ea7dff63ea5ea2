"""What a run checks before and while it runs: loop steps, and which accesses need no
bounds check.

Invariant: a kernel never touches memory outside a memref's shape.  Every load and store
is bounds-checked at run time unless the installed bounds prover (:func:`poly.bounds.
proven_in_bounds`, installed when :mod:`poly` is imported) proved it in bounds; with no
prover installed every access is checked.  Loops with a constant step that is not positive
(``affine.for``, ``affine.parallel``; the reader accepts them, as mlir-opt does) are errors
at their location before anything runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from affine.dialects.affine_dialect import ForOp, ParallelOp
from affine.dialects.common import ELEMENT_ACCESSES
from affine.exec.elements import ExecutionError
from affine.exec.inputs import function_name, module_of
from affine.ir.core import Operation

BOUNDS_CHECKED_OPS = ELEMENT_ACCESSES  # the accesses a prover may prove and a run checks

BoundsProver = Callable[[Operation], frozenset[Operation]]

_PROVERS: list[BoundsProver] = []


def install_bounds_prover(prover: BoundsProver) -> None:
    """Install the function giving the accesses of a ``func.func`` proven in bounds."""
    _PROVERS[:] = [prover]


def proven_accesses(func: Operation) -> frozenset[Operation]:
    """The accesses of ``func`` a run may leave unchecked (none without a prover)."""
    return _PROVERS[0](func) if _PROVERS else frozenset()


def reachable_functions(func: Operation) -> Iterator[Operation]:
    """``func`` and the functions of its module it calls, directly or not."""
    functions = {function_name(f): f for f in module_of(func).walk() if f.name == "func.func"}
    seen = {id(func)}
    pending = [func]
    while pending:
        current = pending.pop()
        yield current
        for op in current.walk():
            if op.name != "func.call":
                continue
            callee = functions.get(op.properties["callee"].leaf)  # type: ignore[attr-defined]  # a SymbolRefAttr
            if callee is not None and id(callee) not in seen:
                seen.add(id(callee))
                pending.append(callee)


def check_steps(func: Operation) -> None:
    """Raise at the first ``affine.for``/``affine.parallel`` (in ``func`` or a function it
    calls) whose step is not positive."""
    for f in reachable_functions(func):
        for op in f.walk():
            if op.name == "affine.for":
                steps = [ForOp(op).step]
            elif op.name == "affine.parallel":
                steps = list(ParallelOp(op).steps)
            else:
                continue
            for step in steps:
                if step <= 0:
                    raise ExecutionError(
                        f"'{op.name}' step {step} is not positive (the loop would not end)",
                        op.loc,
                    )


__all__ = [
    "BOUNDS_CHECKED_OPS",
    "check_steps",
    "install_bounds_prover",
    "proven_accesses",
    "reachable_functions",
]
