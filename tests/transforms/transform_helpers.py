"""Shared pieces of the loop-rewrite tests: how mlir-opt 22's passes pick the loops they
rewrite (so that the same loops can be rewritten here and the outputs compared), mlir-opt
runs, and the checks every rewritten module must pass."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from conftest import CORPUS, run_mlir_opt

import affine
from affine.exec.equivalence import check_equivalent
from affine.ir.core import Module, Operation
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
