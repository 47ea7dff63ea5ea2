"""Shared pieces of the loop-rewrite tests: how mlir-opt 22's passes pick the loops they
rewrite (so that the same loops can be rewritten here and the outputs compared), mlir-opt
runs, and the checks every rewritten module must pass."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from conftest import CORPUS, run_mlir_opt

import affine
from affine.dialects.affine_dialect import ForOp
from affine.exec.equivalence import check_equivalent
from affine.ir.attributes import AffineMapAttr, IntegerSetAttr
from affine.ir.core import Module, Operation, Value
from affine.math.affine_map import AffineMap
from affine.math.integer_set import IntegerSet
from affine.syntax.printer import print_module
from transforms.errors import TransformError
from transforms.loop_utils import (
    get_perfect_band,
    get_tileable_bands,
    innermost_loops,
    is_loop,
    normalize_loop,
    permute_loops,
)
from transforms.parallelization import to_parallel
from transforms.tiling import tile_perfect_band
from transforms.unroll_jam import unroll_and_jam_loop
from transforms.unrolling import unroll_full, unroll_loop, unroll_up_to

TRANSFORMS = CORPUS / "transforms"
KERNELS = CORPUS / "kernels"


def read(path) -> Module:
    return affine.parse(path.read_text(encoding="utf-8"), str(path))


def mlir_opt_output(tool: str, text: str, *args: str) -> str:
    result = run_mlir_opt(tool, text, *args)
    assert result.returncode == 0, result.stderr
    return result.stdout


def reprint(tool: str, module: Module) -> str:
    """mlir-opt's plain print of our print of ``module``."""
    return mlir_opt_output(tool, print_module(module))


def assert_mlir_opt_accepts(tool: str, modules: Sequence[Module]) -> None:
    """One mlir-opt run (``--split-input-file``) parses and verifies every module."""
    text = "\n// -----\n".join(print_module(m) for m in modules)
    result = run_mlir_opt(tool, text, "--split-input-file")
    assert result.returncode == 0, result.stderr


def assert_valid(module: Module) -> Module:
    """The module prints, reads back, verifies and prints the same; the re-read module.

    As with mlir-opt, reading a print can renumber a subscript's identifiers (in order of
    appearance), so ``(%i + %j) mod 3`` over operands (%j, %i) reads back as ``(%j + %i) mod 3``;
    the print is then stable from the second round on."""
    text = print_module(module)
    again = affine.parse(text, "<rewritten>")
    second = print_module(again)
    if second != text:
        assert print_module(affine.parse(second, "<rewritten again>")) == second
    return again


def assert_equivalent(
    original: Module, rewritten: Module, name: str, backend: str = "interp"
) -> None:
    again = assert_valid(rewritten)
    outcome = check_equivalent(original.function(name), again.function(name), backend=backend)
    assert outcome, str(outcome)


def unroll_like_mlir_opt(
    module: Module, factor: int = 4, up_to: bool = False, cleanup: bool = False, reps: int = 1
) -> None:
    """``affine-loop-unroll_loop{unroll_loop-factor=.. unroll_loop-up-to-factor=.. cleanup-unroll_loop=..
    unroll_loop-num-reps=..}`` (factor -1: full unroll_loop)."""
    for function in module.functions():
        for _ in range(reps):
            loops = innermost_loops(function)
            unrolled = False
            for loop in loops:
                try:
                    if factor == -1:
                        unroll_full(loop)
                    elif up_to:
                        unroll_up_to(loop, factor)
                    else:
                        unroll_loop(loop, factor, cleanup_unroll=cleanup)
                    unrolled = True
                except TransformError:
                    pass
            if not unrolled:
                break


def first_loop(function: Operation) -> Operation | None:
    """The first op of the entry block when it is an ``affine.for`` (what
    ``affine-loop-unroll_loop-jam`` rewrites)."""
    ops = function.regions[0].blocks[0].operations
    return ops[0] if ops and is_loop(ops[0]) else None


def unroll_jam_like_mlir_opt(module: Module, factor: int) -> None:
    for function in module.functions():
        loop = first_loop(function)
        if loop is not None:
            try:
                unroll_and_jam_loop(loop, factor)
            except TransformError:
                pass


def tile_like_mlir_opt(module: Module, sizes: Sequence[int], separate: bool = False) -> None:
    """``affine-loop-tile{tile-sizes=.. separate}``: sizes padded with 4."""
    for function in module.functions():
        for band in get_tileable_bands(function):
            padded = (list(sizes) + [4] * len(band))[: len(band)]
            tile_perfect_band(band, padded, separate=separate)


def parametric_tile_like_mlir_opt(module: Module) -> None:
    """``test-affine-parametric-tile``: the first arguments are the tile sizes."""
    for function in module.functions():
        arguments = function.regions[0].blocks[0].arguments
        for band in get_tileable_bands(function):
            tile_perfect_band(band, arguments[: len(band)])


def permute_like_mlir_opt(module: Module, permutation: Sequence[int]) -> None:
    """``test-loop-permutation{permutation-map=..}``: every maximal perfect nest of the
    permutation's size, starting from each loop in post-order."""
    for loop in [op for op in module.operation.walk(post_order=True) if is_loop(op)]:
        band = get_perfect_band(loop)
        if len(band) >= 2 and len(band) == len(permutation):
            permute_loops(band, permutation)


def parallelize_all(module: Module) -> None:
    """Every loop, outermost first, as ``affine-parallelize{parallel-reductions}`` does on
    inputs whose loops are all parallel."""
    for loop in [op for op in module.operation.walk() if is_loop(op)]:
        to_parallel(loop)


def normalize_like_mlir_opt(module: Module) -> None:
    """``affine-loop-normalize``: every loop, innermost first (loops with a ``max`` lower
    bound are left alone)."""
    for loop in [op for op in module.operation.walk(post_order=True) if is_loop(op)]:
        try:
            normalize_loop(loop)
        except TransformError:
            pass


def rewritten(module: Module, rewrite: Callable[[Module], None]) -> Module:
    """``rewrite`` applied to a clone; ``module`` itself stays as it was."""
    before = print_module(module)
    clone = module.clone()
    rewrite(clone)
    assert print_module(module) == before
    return clone


# -- comparing rewritten modules by meaning ------------------------------------------------------


def sample_points(num_inputs: int, count: int = 300) -> list[list[int]]:
    """Points at which two maps of ``num_inputs`` inputs are compared: every point of the
    small box [-3, 5]^n (n <= 3) and random points of [-60, 60]^n (fixed seed)."""
    rng = random.Random(num_inputs)
    points = [[rng.randint(-60, 60) for _ in range(num_inputs)] for _ in range(count)]
    if num_inputs <= 3:
        grid: list[list[int]] = [[]]
        for _ in range(num_inputs):
            grid = [p + [v] for p in grid for v in range(-3, 6)]
        points += grid
    return points


def _value(fn: AffineMap | IntegerSet, point: list[int]) -> object:
    dims, symbols = point[: fn.num_dims], point[fn.num_dims :]
    try:
        if isinstance(fn, AffineMap):
            return tuple(fn.evaluate(dims, symbols))
        return fn.contains(dims, symbols)
    except (ArithmeticError, ValueError):  # a division by a non-positive symbol
        return "undefined"


def same_meaning(a: AffineMap | IntegerSet, b: AffineMap | IntegerSet) -> bool:
    """Whether two maps (or sets) of the same inputs agree at every :func:`sample_points`."""
    if (a.num_dims, a.num_symbols) != (b.num_dims, b.num_symbols) or type(a) is not type(b):
        return False
    if isinstance(a, AffineMap) and isinstance(b, AffineMap) and a.num_results != b.num_results:
        return False
    return all(_value(a, p) == _value(b, p) for p in sample_points(a.num_dims + a.num_symbols))


def _is_cleanup_max(ours: Operation, theirs_map: AffineMap) -> bool:
    """``ours`` is a loop right after another whose lower bound is ``max(lower bound of that
    loop, theirs_map)`` (our cleanup loop, where mlir-opt starts at ``theirs_map``)."""
    block = ours.parent
    assert block is not None
    index = block.operations.index(ours)
    before = block.operations[index - 1] if index else None
    if before is None or before.name != "affine.for" or theirs_map.num_results != 1:
        return False
    loop, main = ForOp(ours), ForOp(before)
    m = loop.lower_bound_map
    if m.num_results != 2 or main.lower_bound_map.num_results != 1:
        return False
    first, rest = m.sub_map([0]), m.sub_map([1])
    if not same_meaning(rest, theirs_map):
        return False
    # the first result is the main loop's lower bound: compare them on shared operand values
    rng = random.Random(0)
    for _ in range(200):
        values: dict[Value, int] = {}
        pick = [values.setdefault(v, rng.randint(-60, 60)) for v in loop.lower_bound_operands]
        main_pick = [values.setdefault(v, rng.randint(-60, 60)) for v in main.lower_bound_operands]
        if _value(first, pick) != _value(main.lower_bound_map, main_pick):
            return False
    return True


def assert_same_by_meaning(ours: Module, theirs: Module, cleanup_max: bool = False) -> None:
    """The same ops in the same order with corresponding operands, the same types and
    attributes, affine maps and sets equal as functions (:func:`same_meaning`); with
    ``cleanup_max`` a loop's lower bound may be :func:`_is_cleanup_max` of theirs."""
    ops_a, ops_b = list(ours.walk()), list(theirs.walk())
    assert [op.name for op in ops_a] == [op.name for op in ops_b]
    peer: dict[Value, Value] = {}
    for a, b in zip(ops_a, ops_b):
        where = f"{a.name} at {a.loc}"
        assert [r.type for r in a.results] == [r.type for r in b.results], where
        peer.update(zip(a.results, b.results))
        assert len(a.regions) == len(b.regions), where
        for ra, rb in zip(a.regions, b.regions):
            assert len(ra.blocks) == len(rb.blocks), where
            for ba, bb in zip(ra.blocks, rb.blocks):
                assert [x.type for x in ba.arguments] == [x.type for x in bb.arguments], where
                peer.update(zip(ba.arguments, bb.arguments))
        assert len(a.operands) == len(b.operands), where
        assert all(peer.get(x) is y for x, y in zip(a.operands, b.operands)), where
        assert a.attributes == b.attributes, where
        assert a.properties.keys() == b.properties.keys(), where
        for key, pa in a.properties.items():
            pb = b.properties[key]
            if isinstance(pa, (AffineMapAttr, IntegerSetAttr)) and isinstance(
                pb, (AffineMapAttr, IntegerSetAttr)
            ):
                cleanup = cleanup_max and key == "lowerBoundMap" and isinstance(pb, AffineMapAttr)
                assert same_meaning(pa.value, pb.value) or (
                    cleanup and _is_cleanup_max(a, pb.value)
                ), f"{where}: {key} {pa.value} is not {pb.value}"
            else:
                assert pa == pb, f"{where}: {key} {pa} != {pb}"
