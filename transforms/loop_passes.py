"""The loop-transformation passes: thin drivers over the checks (:mod:`poly.legality`) and
the rewrites (:mod:`transforms.tiling`, :mod:`transforms.unrolling`, ...).

Every pass works on a clone of its input and returns it. It transforms every band (or
loop) where the transformation is legal and, for each one it leaves alone, reports a
remark at the loop with the reason: the dependence the transformation would reverse, or the
shape the rewrite cannot handle. Names and options are mlir-opt's where mlir-opt has the
pass (``affine-loop-tile``, ``test-loop-permutation``, ``affine-loop-unroll``,
``affine-loop-unroll-jam``, ``affine-parallelize``); ``affine-loop-interchange`` and
``affine-loop-skew`` are this toolkit's.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from affine.analysis.value_map import canonicalize_affine_ops, constant_trip_count
from affine.ir.core import Module, Operation, uses_of
from poly.codegen import CodegenError, regenerate_band
from poly.deps import AnalysisWarning
from poly.flow import FlowAnalysis
from poly.legality import (
    Verdict,
    check_distribution,
    check_parallel,
    check_permutation,
    check_tiling,
    check_unroll_and_jam,
)
from poly.tile_model import choose_tile_sizes, contiguity_order
from transforms.distribute import distribute_band, groups_of
from transforms.errors import TransformError
from transforms.loop_utils import (
    enclosing_function,
    get_perfect_band,
    get_tileable_bands,
    innermost_loops,
    loops,
    permute_loops,
    promote_if_single_iteration,
    skew,
)
from transforms.parallelization import to_parallel
from transforms.registry import PassContext
from transforms.tiling import tile_perfect_band
from transforms.unrolling import unroll, unroll_and_jam, unroll_full, unroll_up_to


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
                _refuse(context, stuck, "function not transformed", "loop with step 0")
                continue
        result.append(f)
    return result


def zero_step_loop(root: Operation) -> Operation | None:
    """The first ``affine.for`` / ``affine.parallel`` in ``root`` with a step of 0."""
    from affine.ops import ForOp, ParallelOp

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


def _refuse(context: PassContext, op: Operation, what: str, reason: str) -> None:
    context.emit(op, "remark", f"{what}: {reason}")


def _attempt(context: PassContext, op: Operation, what: str, rewrite: Callable[[], object]) -> bool:
    """Run a rewrite; a TransformError becomes a remark (the rewrite left the IR as it was)."""
    try:
        rewrite()
    except (TransformError, CodegenError) as error:
        _refuse(context, op, what, getattr(error, "message", str(error)))
        return False
    return True


def permute_band(band: Sequence[Operation], permutation: Sequence[int]) -> None:
    """``permute_loops`` where the band's bounds allow it, else loops regenerated from the
    permuted order (bounds that depend on a moved loop: triangular nests)."""
    try:
        permute_loops(band, permutation)
    except TransformError:
        from poly.codegen import order_map

        order = [0] * len(band)
        for old, new in enumerate(permutation):
            order[new] = old
        regenerate_band(band, order_map(len(band), order))


@dataclass
class LoopTile:
    """``-affine-loop-tile``: tile every outermost perfect band where that is legal.

    Sizes: ``tile-sizes`` (missing ones are 4, as mlir-opt does), else ``tile-size`` for
    every loop, else the cache model of :mod:`poly.tile_model` for a cache of
    ``cache-size`` KiB, which also orders the loops inside a tile for contiguous innermost
    accesses; in that mode imperfect nests are first distributed into perfect ones where
    that is legal (gemm's ``C *= beta`` apart from its product). A band whose data fits in
    the cache is left alone. ``separate`` runs full tiles without bound checks."""

    name = "affine-loop-tile"
    tile_sizes: tuple[int, ...] = ()
    tile_size: int = 0
    cache_size: int = 512
    separate: bool = False

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        for function in functions(module, context):
            if not (self.tile_sizes or self.tile_size):
                distribute_for_tiling(function)
            analysis = analysis_of(function)
            for band in get_tileable_bands(function):
                self.tile(band, analysis, context)
        return module

    def tile(self, band: list[Operation], analysis: FlowAnalysis, context: PassContext) -> None:
        what = "loop band not tiled"
        verdict = check_tiling(band, analysis)
        if not verdict:
            _refuse(context, band[0], what, verdict.reason)
            return
        order = None
        if self.tile_sizes:
            sizes = list(self.tile_sizes[: len(band)]) + [4] * (len(band) - len(self.tile_sizes))
        elif self.tile_size:
            sizes = [self.tile_size] * len(band)
        else:
            if not any(band[0] in a.statement.loops for a in analysis.model.accesses):
                _refuse(context, band[0], what, "it touches no memory")
                return
            choice = choose_tile_sizes(band, self.cache_size * 1024, analysis.model)
            trips = [constant_trip_count(loop) for loop in band]
            if all(t is not None and s >= t for s, t in zip(choice.sizes, trips)):
                _refuse(context, band[0], what, f"its data fits in the cache ({choice.reason})")
                return
            if all(s == 1 for s in choice.sizes):
                _refuse(context, band[0], what, f"not even one iteration fits ({choice.reason})")
                return
            sizes, order = list(choice.sizes), choice.order

        def rewrite() -> None:
            block = band[0].parent
            existing = {id(op) for op in block.operations} if block is not None else set()
            loops_after = tile_perfect_band(band, sizes, self.separate)
            points = loops_after[len(band) :]
            if order is not None and block is not None:
                # model-chosen sizes: drop tile loops that run once, fold what they leave
                for tile_loop in loops_after[: len(band)]:
                    promote_if_single_iteration(tile_loop)
                for op in list(block.operations):
                    canonicalize_affine_ops(op)
                for op in list(block.operations):
                    if id(op) not in existing and op.name == "arith.constant":
                        if not uses_of(block.parent, op.results[0]):
                            op.erase()
            if order is not None and list(order) != sorted(order) and not self.separate:
                permutation = [order.index(k) for k in range(len(band))]
                try:
                    permute_band(points, permutation)
                except (TransformError, CodegenError):
                    pass  # keep the original order inside tiles

        _attempt(context, band[0], what, rewrite)


def distribute_for_tiling(function: Operation) -> None:
    """Distribute every outermost band whose innermost body holds loops among other parts,
    where legal, until each band is perfect or cannot be split further."""
    changed = True
    while changed:
        changed = False
        analysis = analysis_of(function)
        for loop in [
            op for op in function.regions[0].blocks[0].operations if op.name == "affine.for"
        ]:
            band = get_perfect_band(loop)
            groups = groups_of(band[-1])
            if len(groups) < 2 or not any(
                inner.name == "affine.for"
                for group in groups
                for op in group
                for inner in op.walk()
            ):
                continue
            if check_distribution(band, groups, analysis):
                try:
                    distribute_band(band, groups)
                except TransformError:
                    continue
                changed = True
                break


def _permutation_loops(module: Module, size: int) -> list[list[Operation]]:
    """The maximal perfect nest from every loop (inner loops first, as mlir-opt walks)
    whose depth is ``size``."""
    found = []
    for loop in reversed(loops(module.operation)):
        band = get_perfect_band(loop)
        if len(band) == size and size >= 2:
            found.append(band)
    return found


def _apply_permutation(
    band: list[Operation],
    permutation: Sequence[int],
    analysis: FlowAnalysis,
    context: PassContext,
) -> None:
    what = "loop band not permuted"
    verdict: Verdict = check_permutation(band, permutation, analysis)
    if not verdict:
        _refuse(context, band[0], what, verdict.reason)
        return
    _attempt(context, band[0], what, lambda: permute_band(band, permutation))


@dataclass
class LoopPermutation:
    """``-test-loop-permutation``: permute every perfect nest of ``len(permutation-map)``
    loops (``permutation-map[i]`` is the new position of loop ``i``) where legal. The
    legality check always runs (``check-validity`` is accepted for compatibility)."""

    name = "test-loop-permutation"
    permutation_map: tuple[int, ...] = ()
    check_validity: bool = True

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        if not self.permutation_map:
            return module
        bands = _permutation_loops(module, len(self.permutation_map))
        allowed = functions(module, context)
        analyses = {}
        for band in bands:
            if band[0].parent is None:  # moved away by an earlier permutation
                continue
            function = enclosing_function(band[0])
            if function not in allowed:
                continue
            if function not in analyses:
                analyses[function] = analysis_of(function)
            _apply_permutation(band, self.permutation_map, analyses[function], context)
        return module


@dataclass
class LoopInterchange:
    """``-affine-loop-interchange``: with ``permutation-map``, as ``test-loop-permutation``
    on outermost perfect bands; without, each outermost band is reordered so that its
    innermost loop has the most contiguous or invariant accesses, where legal."""

    name = "affine-loop-interchange"
    permutation_map: tuple[int, ...] = ()

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        for function in functions(module, context):
            analysis = analysis_of(function)
            for band in get_tileable_bands(function):
                if len(band) < 2:
                    continue
                if self.permutation_map:
                    if len(self.permutation_map) == len(band):
                        _apply_permutation(band, self.permutation_map, analysis, context)
                    continue
                order = contiguity_order(band, analysis.model)
                if list(order) == sorted(order):
                    continue
                permutation = [order.index(k) for k in range(len(band))]
                _apply_permutation(band, permutation, analysis, context)
        return module


@dataclass
class LoopSkew:
    """``-affine-loop-skew``: in every perfect band of ``len(skew-factors) + 1`` loops,
    the innermost IV becomes ``j + sum_k factors[k] * i_k`` (always legal: skewing keeps
    the order of every pair of iterations; it makes stencil bands tileable)."""

    name = "affine-loop-skew"
    skew_factors: tuple[int, ...] = (1,)

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        size = len(self.skew_factors) + 1
        allowed = functions(module, context)
        for band in _permutation_loops(module, size):
            if band[0].parent is None or enclosing_function(band[0]) not in allowed:
                continue
            _attempt(
                context, band[0], "loop band not skewed", lambda b=band: skew(b, self.skew_factors)
            )
        return module


@dataclass
class LoopUnroll:
    """``-affine-loop-unroll`` (always legal): innermost loops by ``unroll-factor``, fully
    with ``-1`` (then, with ``unroll-full-threshold`` N > 0, every loop whose constant trip
    count is at most N), ``unroll-up-to-factor``, ``unroll-num-reps`` rounds,
    ``cleanup-unroll`` fully unrolls cleanup loops."""

    name = "affine-loop-unroll"
    unroll_factor: int = 4
    unroll_up_to_factor: bool = False
    unroll_full_threshold: int = 0
    unroll_num_reps: int = 1
    cleanup_unroll: bool = False

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        for function in functions(module, context):
            if self.unroll_factor == -1 and self.unroll_full_threshold > 0:
                short = [
                    loop
                    for loop in reversed(loops(function))
                    if (t := constant_trip_count(loop)) is not None
                    and t <= self.unroll_full_threshold
                ]
                for loop in short:
                    _attempt(context, loop, "loop not unrolled", lambda x=loop: unroll_full(x))
                continue
            for _ in range(max(1, self.unroll_num_reps)):
                for loop in innermost_loops(function):
                    _attempt(context, loop, "loop not unrolled", lambda x=loop: self.unroll_one(x))

        return module

    def unroll_one(self, loop: Operation) -> None:
        if self.unroll_factor == -1:
            unroll_full(loop)
        elif self.unroll_up_to_factor:
            unroll_up_to(loop, self.unroll_factor)
        else:
            unroll(loop, self.unroll_factor, self.cleanup_unroll)


@dataclass
class LoopUnrollAndJam:
    """``-affine-loop-unroll-jam``: the outermost loop of every nest that holds inner loops
    is unrolled by ``unroll-jam-factor`` and jammed, where the dependences allow it (mlir-opt
    only looks at the first op of a function and never checks)."""

    name = "affine-loop-unroll-jam"
    unroll_jam_factor: int = 4

    def run(self, module: Module, context: PassContext) -> Module:
        module = module.clone()
        for function in functions(module, context):
            analysis = analysis_of(function)
            body = function.regions[0].blocks[0]
            for loop in [op for op in body.operations if op.name == "affine.for"]:
                if not any(inner.name == "affine.for" for inner in loop.nested_ops()):
                    continue
                what = "loop not unrolled and jammed"
                verdict = check_unroll_and_jam(loop, self.unroll_jam_factor, analysis)
                if not verdict:
                    _refuse(context, loop, what, verdict.reason)
                    continue
                _attempt(
                    context, loop, what, lambda x=loop: unroll_and_jam(x, self.unroll_jam_factor)
                )
        return module


@dataclass
class Parallelize:
    """``-affine-parallelize``: every ``affine.for`` that carries no dependence becomes an
    ``affine.parallel`` (with ``parallel-reductions``, also loops whose iter_args are
    reductions), at most ``max-nested`` deep."""

    name = "affine-parallelize"
    max_nested: int = 2**32 - 1
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
                    _refuse(context, loop, "loop not parallelized", verdict.reason)
            for loop in chosen:
                _attempt(
                    context,
                    loop,
                    "loop not parallelized",
                    lambda x=loop: to_parallel(x, self.parallel_reductions),
                )
        return module
