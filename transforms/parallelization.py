"""Turning an ``affine.for`` into a one-dimensional ``affine.parallel`` (MLIR's
``affineParallelize``).

Invariant: the parallel loop has the same bounds (``max``/``min`` groups included) and step
as the ``for`` loop and the same body; each iter_arg reduction becomes a ``reduce`` kind whose
neutral-start result is combined with the initial value after the loop.  Legality (no
loop-carried memory dependence) is not checked here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from affine.analysis.reductions import loop_reductions
from affine.dialects.builders import affine_parallel
from affine.ir.core import Module, Operation
from affine.ir.types import FloatType, IntegerType, Type
from affine.ops import REDUCTION_KINDS, ForOp
from poly.flow import FlowAnalysis, iter_args_reductions
from poly.legality import LEGAL, Verdict, analysis_for, describe, unsupported_ops, where
from transforms.errors import TransformError
from transforms.loop_pass import analysis_of, attempt, functions, refuse
from transforms.loop_utils import is_loop, loops, replace_results
from transforms.registry import PassContext, PassOptions, option


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
    single-combiner reductions (:func:`affine.analysis.reductions.match_reduction`) become
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


def check_parallel(
    loop: Operation, reductions: bool = False, analysis: FlowAnalysis | None = None
) -> Verdict:
    """Can ``loop`` run its iterations in parallel (as ``affine.parallel``)? With
    ``reductions``, ``iter_args`` reductions are allowed (they become ``reduce`` kinds)."""
    if loop.name != "affine.for":
        return Verdict(False, f"{where(loop)} is not an affine.for")
    combiners, sequential = iter_args_reductions(loop)
    if sequential:
        return Verdict(
            False, f"{where(loop)} carries a value through iter_args that is not a reduction"
        )
    if combiners and not reductions:
        return Verdict(
            False,
            f"{where(loop)} carries reductions through iter_args (allow parallel-reductions)",
        )
    verdict = unsupported_ops([loop])
    if not verdict:
        return verdict
    analysis = analysis_for(loop, analysis)
    for edge in analysis.memory:
        carried = [ref for ref in edge.carried_by if ref.op is loop]
        if not carried:
            continue
        if edge.distances is None:
            return Verdict(False, f"{describe(edge)} could not be analysed", edge)
        return Verdict(False, f"it carries the {describe(edge)}", edge)
    return LEGAL


@dataclass
class Parallelize(PassOptions):
    """``-affine-parallelize``: every ``affine.for`` that carries no dependence becomes an
    ``affine.parallel`` (with ``parallel-reductions``, also loops whose iter_args are
    reductions), at most ``max-nested`` deep."""

    name = "affine-parallelize"
    max_nested: int = option(2**32 - 1, minimum=0, maximum=2**32 - 1)
    parallel_reductions: bool = False

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        for function in functions(module, context):
            analysis = analysis_of(function)
            chosen: list[Operation] = []
            for loop in loops(function):  # outer before inner
                depth = sum(1 for outer in chosen if outer.is_ancestor_of(loop))
                if depth >= self.max_nested:
                    continue
                verdict = check_parallel(loop, self.parallel_reductions, analysis)
                if verdict:
                    chosen.append(loop)
                else:
                    refuse(context, loop, "loop not parallelized", verdict.reason)
            for loop in chosen:
                attempt(
                    context,
                    loop,
                    "loop not parallelized",
                    partial(to_parallel, loop, self.parallel_reductions),
                )
        return module
