"""Turning an ``affine.for`` into a one-dimensional ``affine.parallel`` (MLIR's
``affineParallelize``).

Invariant: the parallel loop has the same bounds (``max``/``min`` groups included) and step
as the ``for`` loop and the same body; each iter_arg reduction becomes a ``reduce`` kind whose
neutral-start result is combined with the initial value after the loop.  Legality (no
loop-carried memory dependence) is not checked here.
"""

from __future__ import annotations

from affine.builders import affine_parallel
from affine.ir import Operation
from affine.ops import REDUCTION_KINDS, ForOp
from affine.reductions import loop_reductions
from affine.types import FloatType, IntegerType, Type
from transforms.errors import TransformError
from transforms.loop_utils import is_loop, replace_results


def reduction_fits(kind: str, t: Type) -> bool:
    """Whether ``affine.parallel`` accepts reduction ``kind`` for results of type ``t``
    (MLIR's ``isResultTypeMatchAtomicRMWKind``: signed/unsigned min/max need signed or
    unsigned integers; xori, maxnumf and minnumf are not accepted)."""
    if kind in ("addf", "mulf", "maximumf", "minimumf"):
        return isinstance(t, FloatType)
    if kind in ("addi", "muli", "andi", "ori"):
        return isinstance(t, IntegerType)
    if kind in ("maxs", "mins"):
        return isinstance(t, IntegerType) and t.signedness == "s"
    if kind in ("maxu", "minu"):
        return isinstance(t, IntegerType) and t.signedness == "u"
    return False


def to_parallel(loop: Operation, reductions: bool = True) -> Operation:
    """Replace ``loop`` by an ``affine.parallel`` over the same range (MLIR's
    ``affineParallelize``) and return it.  With ``reductions``, iter_args that are
    single-combiner reductions (:func:`affine.reductions.match_reduction`) become
    ``reduce`` results; any other iter_arg, or any iter_arg at all without ``reductions``,
    is refused, as is a reduction kind ``affine.parallel`` does not accept for its type."""
    if not is_loop(loop):
        raise TransformError(f"expected an affine.for, got '{loop.name}'", loop.loc)
    f = ForOp(loop)
    found = loop_reductions(loop) if reductions else []
    if len(found) != len(f.iter_args):
        what = "are not all reductions" if reductions else "are not parallel without reductions"
        raise TransformError(f"cannot parallelize: the loop's iter_args {what}", loop.loc)
    for r in found:
        t = loop.results[r.position].type
        if not reduction_fits(r.kind, t):
            raise TransformError(
                f"cannot parallelize: affine.parallel has no '{r.kind}' reduction for {t}",
                r.combiner.loc or loop.loc,
            )
    body = f.body
    loop.regions[0].blocks.clear()
    parallel = affine_parallel(
        f.lower_bound_map,
        f.lower_bound_operands,
        f.upper_bound_map,
        f.upper_bound_operands,
        f.step,
        body,
        [REDUCTION_KINDS.index(r.kind) for r in found],
        [loop.results[r.position].type for r in found],
    )
    parallel.loc = loop.loc
    parent = loop.parent
    assert parent is not None
    parent.insert_before(loop, parallel)
    inits = list(f.inits)
    at = parent.index_of(parallel) + 1
    combined = []
    for r, result in zip(found, parallel.results):
        r.combiner.erase()
        r.combiner.operands = [inits[r.position], result]
        parent.insert(at, r.combiner)
        at += 1
        combined.append(r.combiner.results[0])
    yield_op = body.operations[-1]
    yield_op.operands = [r.value for r in found]
    for _ in found:
        body.erase_argument(1)
    replace_results(loop, combined)
    loop.erase()
    return parallel
