"""What the loop-transformation passes share: the functions they transform, the
dependences they check against, and their remarks.

Every pass works on a clone of its input and returns it. It transforms every band (or
loop) where the transformation is legal and, for each one it leaves alone, reports a
remark at the loop with the reason: the dependence the transformation would reverse, or the
shape the rewrite cannot handle. Names and options are mlir-opt's where mlir-opt has the
pass (``affine-loop-tile``, ``test-loop-permutation``, ``affine-loop-unroll``,
``affine-loop-unroll-jam``, ``affine-parallelize``); ``affine-loop-interchange`` and
``affine-loop-skew`` are this toolkit's. Each pass lives with its check and rewrite.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

from affine.ir.core import Module, Operation
from affine.ops import ForOp, ParallelOp
from poly.codegen import CodegenError
from poly.deps import AnalysisWarning
from poly.flow import FlowAnalysis
from transforms.errors import TransformError
from transforms.loop_utils import get_perfect_band, get_tileable_bands, loops
from transforms.registry import PassContext


def functions(module: Module, context: PassContext | None = None) -> list[Operation]:
    """Function-like ops with a body; with ``context``, those with a loop of step 0 are
    left out (such a loop never ends: no transformation or trip count applies), with a
    remark at that loop."""
    result = []
    for f in module.functions():
        if not (f.regions and f.regions[0].blocks):
            continue
        if context is not None:
            stuck = zero_step_loop(f)
            if stuck is not None:
                refuse(context, stuck, "function not transformed", "loop with step 0")
                continue
        result.append(f)
    return result


def zero_step_loop(root: Operation) -> Operation | None:
    """The first ``affine.for`` / ``affine.parallel`` in ``root`` with a step of 0."""
    for op in root.walk():
        if op.name == "affine.for" and ForOp(op).step == 0:
            return op
        if op.name == "affine.parallel" and 0 in ParallelOp(op).steps:
            return op
    return None


def analysis_of(function: Operation) -> FlowAnalysis:
    """Memory-based dependences of a function (undecidable ones kept as "unknown")."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnalysisWarning)
        return FlowAnalysis(function, value_based=False)


def refuse(context: PassContext, op: Operation, what: str, reason: str) -> None:
    """Remark at ``op`` that it was left alone (``what``) and why."""
    context.emit(op, "remark", f"{what}: {reason}")


def attempt(context: PassContext, op: Operation, what: str, rewrite: Callable[[], object]) -> bool:
    """Run a rewrite; a TransformError becomes a remark (the rewrite left the IR as it was)."""
    try:
        rewrite()
    except (TransformError, CodegenError) as error:
        refuse(context, op, what, getattr(error, "message", str(error)))
        return False
    return True


def remark_nests_without_depth(
    context: PassContext,
    function: Operation,
    found: list[list[Operation]],
    size: int,
    what: str,
    option: str,
) -> None:
    """Remark at each outermost loop of ``function`` that holds none of the ``found``
    perfect nests of ``size`` loops (an option that fits no band there is never silent); a
    "nest" of one loop needs nothing done."""
    if size < 2:
        return
    starts = [band[0] for band in found]
    for top in get_tileable_bands(function):
        if any(top[0] is start or top[0].is_ancestor_of(start) for start in starts):
            continue
        deepest = max(len(get_perfect_band(loop)) for loop in loops(top[0]))
        refuse(
            context,
            top[0],
            what,
            f"{option} needs a perfect nest of {size} loops; the deepest here has {deepest}",
        )


def nests_of_depth(module: Module, size: int) -> list[list[Operation]]:
    """The maximal perfect nest from every loop (inner loops first, as mlir-opt walks)
    whose depth is ``size``."""
    found = []
    for loop in reversed(loops(module.operation)):
        band = get_perfect_band(loop)
        if len(band) == size and size >= 2:
            found.append(band)
    return found
