"""Every rewrite on the kernel corpus, checked by running original and result on the same
random inputs (reference interpreter).  Rewrites that are always legal (unrolling,
normalization, skewing, strip-mining single loops) run on every kernel; the others on loops
where legality is evident (independent iterations, matrix-product reductions, permutable
bands).  Each result also prints, reads back and verifies; an mlir-marked test checks that
mlir-opt 22 accepts them."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from transform_helpers import (
    KERNELS,
    TRANSFORMS,
    assert_equivalent,
    assert_mlir_opt_accepts,
    assert_valid,
    normalize_like_mlir_opt,
    parametric_tile_like_mlir_opt,
    read,
    rewritten,
    unroll_like_mlir_opt,
)

from affine.exec.equivalence import check_equivalent
from affine.ir.core import Module
from transforms.errors import TransformError
from transforms.loop_utils import (
    get_perfect_band,
    get_tileable_bands,
    is_loop,
    loops,
    normalize_loop,
    permute_loops,
)
from transforms.parallelization import to_parallel
from transforms.skewing import skew_band
from transforms.tiling import tile_perfect_band
from transforms.unroll_jam import unroll_and_jam_loop

KERNEL_NAMES = sorted(p.stem for p in KERNELS.glob("*.mlir"))
# Kernels covering every loop shape of the corpus (iter_args, max/min and floordiv bounds,
# affine.if, affine.parallel, triangular loops, layouts); the others run with -m slow.
FAST_KERNELS = {
    "cholesky",
    "gemm",
    "if_else",
    "int_mix",
    "iter_args_reduction",
    "min_max_bounds",
    "mod_floordiv",
    "parallel_reduce",
    "seidel_2d",
    "tiled_layout",
}
KERNEL_PARAMS = [
    pytest.param(k, marks=() if k in FAST_KERNELS else pytest.mark.slow) for k in KERNEL_NAMES
]


def _normalize_composed(module: Module) -> None:
    for loop in [op for op in module.operation.walk(post_order=True) if is_loop(op)]:
        try:
            normalize_loop(loop, promote_single_iteration=True, compose=True)
        except TransformError:
            assert len(loop.properties["lowerBoundMap"].value.results) > 1  # type: ignore[attr-defined]


def _skew_all(module: Module) -> None:
    """Skew every nested loop by all its enclosing loops (factors 1, 2, ...)."""
    for loop in loops(module):
        enclosing = [op for op in loop.ancestors() if is_loop(op)][::-1]
        if enclosing:
            skew_band([*enclosing, loop], list(range(1, len(enclosing) + 1)))


def _strip_mine(module: Module) -> None:
    """Tile every single-loop band by 3 (always legal), full tiles separated; loops with
    iter_args are refused, as by mlir-opt."""
    for function in module.functions():
        for band in get_tileable_bands(function):
            if len(band) == 1 and not band[0].results:
                tile_perfect_band(band, [3], separate=True)


Rewrite = Callable[[Module], None]
ALWAYS_LEGAL: dict[str, Rewrite] = {
    "unroll-2": lambda m: unroll_like_mlir_opt(m, 2),
    "unroll-3": lambda m: unroll_like_mlir_opt(m, 3),
    "unroll-4-twice": lambda m: unroll_like_mlir_opt(m, 4, reps=2),
    "unroll-up-to-5": lambda m: unroll_like_mlir_opt(m, 5, up_to=True),
    "unroll-7-cleanup": lambda m: unroll_like_mlir_opt(m, 7, cleanup=True),
    "unroll-full": lambda m: unroll_like_mlir_opt(m, -1),
    "normalize": normalize_like_mlir_opt,
    "normalize-composed": _normalize_composed,
    "skew": _skew_all,
    "strip-mine": _strip_mine,
}


@pytest.mark.parametrize("kernel", KERNEL_PARAMS)
@pytest.mark.parametrize("rewrite", sorted(ALWAYS_LEGAL))
def test_always_legal_rewrites_preserve_results(kernel: str, rewrite: str) -> None:
    module = read(KERNELS / f"{kernel}.mlir")
    assert_equivalent(module, rewritten(module, ALWAYS_LEGAL[rewrite]), kernel)


def _band(module: Module, function: str, number: int) -> list:
    return get_tileable_bands(module.function(function))[number]


def _tile(function: str, band: int, sizes: list[int], separate: bool) -> Rewrite:
    def tile(m: Module) -> None:
        tile_perfect_band(_band(m, function, band), sizes, separate)

    return tile


def _permute(function: str, band: int, permutation: list[int]) -> Rewrite:
    return lambda m: permute_loops(_band(m, function, band), permutation)


def _jam(function: str, loop: int, factor: int) -> Rewrite:
    return lambda m: unroll_and_jam_loop(loops(m.function(function))[loop], factor)


def _parallelize(numbers: list[int]) -> Rewrite:
    def parallelize(m: Module) -> None:
        all_loops = loops(m)
        for n in numbers:
            to_parallel(all_loops[n])
        assert sum(op.name == "affine.parallel" for op in m.walk()) >= len(numbers)

    return parallelize


def _skew_and_tile_seidel(m: Module) -> None:
    """seidel-2d is not tileable as written; after skewing (i += t, j += t + i) it is."""
    t, i, j = loops(m)
    skew_band([t, i], [1])
    skew_band([t, i, j], [1, 1])
    tile_perfect_band(get_perfect_band(t), [2, 4, 4], separate=True)


# Rewrites where legality is evident: bands of independent or permutable iterations
# (matrix-product reductions, independent rows), jams of independent iterations, parallel
# loops whose only carried values are iter_args reductions.  (file, function, rewrite)
MATMUL = (TRANSFORMS / "tile.mlir", "matmul")
TRIANGULAR = TRANSFORMS / "triangular.mlir"
CURATED: dict[str, tuple[Path, str, Rewrite]] = {}
for kernel, band, sizes in [
    ("doitgen", 0, [3, 5]),
    ("dma_tiles", 0, [2, 3]),
    ("min_max_bounds", 0, [2, 3, 2, 4, 3, 5]),
    ("mod_floordiv", 2, [5, 3]),
    ("mvt", 0, [7, 3]),
    ("mvt", 1, [4, 9]),
    ("strided_layout", 0, [5, 3]),
    ("tiled_layout", 0, [3, 6]),
    ("three_mm", 2, [3, 8]),
    ("trmm", 0, [6, 5]),
    ("two_mm", 0, [5, 7]),
    ("two_mm", 1, [4, 4]),
]:
    for separate in (False, True):
        key = f"tile-{kernel}-{band}-{'x'.join(map(str, sizes))}{'-separate' * separate}"
        CURATED[key] = (KERNELS / f"{kernel}.mlir", kernel, _tile(kernel, band, sizes, separate))
for function, sizes, separate in [
    ("lower_triangle", [8, 8], False),
    ("lower_triangle", [5, 3], True),
    ("anti_triangle", [6, 4], True),
    ("anti_triangle", [1, 7], False),
    ("banded", [4, 3, 2], False),
    ("banded", [8, 4, 16], False),
]:
    key = f"tile-{function}-{'x'.join(map(str, sizes))}{'-separate' * separate}"
    CURATED[key] = (TRIANGULAR, function, _tile(function, 0, sizes, separate))
CURATED["tile-matmul-5x7x3-separate"] = (*MATMUL, _tile("matmul", 0, [5, 7, 3], True))
CURATED["skew-and-tile-seidel_2d"] = (
    KERNELS / "seidel_2d.mlir",
    "seidel_2d",
    _skew_and_tile_seidel,
)
for kernel, band, permutation in [
    ("dma_tiles", 0, [1, 0]),
    ("min_max_bounds", 0, [1, 2, 0, 3, 4, 5]),
    ("mvt", 0, [1, 0]),
    ("mvt", 1, [1, 0]),
    ("strided_layout", 0, [1, 0]),
    ("tiled_layout", 0, [1, 0]),
    ("trmm", 0, [1, 0]),
    ("two_mm", 1, [1, 0]),
]:
    key = f"permute-{kernel}-{band}-{''.join(map(str, permutation))}"
    CURATED[key] = (KERNELS / f"{kernel}.mlir", kernel, _permute(kernel, band, permutation))
for permutation in itertools.permutations(range(3)):
    CURATED[f"permute-matmul-{''.join(map(str, permutation))}"] = (
        *MATMUL,
        _permute("matmul", 0, list(permutation)),
    )
for kernel, loop, factor in [
    ("gemm", 0, 3),
    ("gemm", 0, 4),
    ("iter_args_reduction", 0, 4),
    ("iter_args_reduction", 2, 7),
    ("jacobi_2d", 1, 5),
    ("mvt", 0, 4),
    ("three_mm", 6, 5),
    ("two_mm", 3, 3),
]:
    CURATED[f"jam-{kernel}-{loop}-by-{factor}"] = (
        KERNELS / f"{kernel}.mlir",
        kernel,
        _jam(kernel, loop, factor),
    )
for loop, factor in [(0, 4), (1, 3), (0, 5)]:
    CURATED[f"jam-matmul-{loop}-by-{factor}"] = (*MATMUL, _jam("matmul", loop, factor))
for kernel, numbers in [
    ("f16_axpy", [0, 1]),
    ("gemm", [0, 1, 3]),
    ("heat_3d", [1, 2, 3, 4, 5, 6]),
    ("iter_args_reduction", [0, 1, 2]),
    ("jacobi_2d", [1, 2, 3, 4]),
    ("mvt", [0, 2]),
    ("three_mm", [0, 1, 3, 4, 6, 7]),
    ("two_mm", [0, 1, 3, 4]),
]:
    CURATED[f"parallel-{kernel}"] = (KERNELS / f"{kernel}.mlir", kernel, _parallelize(numbers))


@pytest.mark.parametrize("sizes", [(1, 1), (4, 5), (5, 2), (13, 40), (50, 3)])
def test_parametric_tiling_preserves_results(sizes: tuple[int, int]) -> None:
    module = read(TRANSFORMS / "tile_parametric.mlir")
    tiled = assert_valid(rewritten(module, parametric_tile_like_mlir_opt))
    rng = np.random.default_rng(7)
    a, b = rng.random((13, 40), dtype=np.float32), rng.random((40, 13), dtype=np.float32)
    outcome = check_equivalent(module.function("small"), tiled.function("small"), *sizes, a, b)
    assert outcome, str(outcome)


@pytest.mark.parametrize("case", sorted(CURATED))
def test_legal_rewrites_preserve_results(case: str) -> None:
    path, function, rewrite = CURATED[case]
    module = read(path)
    assert_equivalent(module, rewritten(module, rewrite), function)


@pytest.mark.mlir
@pytest.mark.parametrize("kernel", KERNEL_PARAMS)
def test_mlir_opt_accepts_the_rewritten_kernels(kernel: str, mlir_opt: str) -> None:
    module = read(KERNELS / f"{kernel}.mlir")
    outputs = [assert_valid(rewritten(module, rewrite)) for rewrite in ALWAYS_LEGAL.values()]
    assert_mlir_opt_accepts(mlir_opt, outputs)


@pytest.mark.mlir
def test_mlir_opt_accepts_the_legal_rewrites(mlir_opt: str) -> None:
    outputs = [
        assert_valid(rewritten(read(path), rewrite)) for path, _, rewrite in CURATED.values()
    ]
    assert_mlir_opt_accepts(mlir_opt, outputs)
