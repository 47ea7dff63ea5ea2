"""The rewrites give what mlir-opt 22's passes give on the same loops: mlir-opt's plain
reprint of our output equals its output, byte for byte.

Documented differences (tested in test_loop_utils_golden.py instead):
- tiling of non-rectangular bands (mlir-opt refuses them);
- ``separate`` on intra-tile loops with a step other than 1 (mlir-opt leaves them alone)
  and on bands whose tiles are all full (mlir-opt versions them on ``(0 == 0)`` with two
  identical copies; we leave the nest as it is);
- ``affine.parallel`` reductions the op's verifier rejects (``maxs`` on signless integers):
  mlir-opt creates the invalid op, we refuse;
- unroll-and-jam of a loop with iter_args that are not reductions, or with a loop carrying
  iter_args inside an ``affine.if``: mlir-opt produces wrong or invalid IR, we refuse or
  copy the ``affine.if`` whole.
"""

from __future__ import annotations

import numpy as np
import pytest
from transform_helpers import (
    KERNELS,
    TRANSFORMS,
    assert_same_by_meaning,
    mlir_opt_output,
    normalize_like_mlir_opt,
    parallelize_all,
    parametric_tile_like_mlir_opt,
    permute_like_mlir_opt,
    read,
    reprint,
    rewritten,
    tile_like_mlir_opt,
    unroll_jam_like_mlir_opt,
    unroll_like_mlir_opt,
)

import affine
from affine.exec.equivalence import check_equivalent
from affine.ir.core import Module
from affine.syntax.printer import print_module

pytestmark = pytest.mark.mlir

UNROLL_INPUTS = ["unroll.mlir", "unroll_jam.mlir", "normalize.mlir", "tile.mlir"]
UNROLL_OPTIONS = [
    ("unroll-factor=1", {"factor": 1}),
    ("unroll-factor=2", {"factor": 2}),
    ("unroll-factor=3", {"factor": 3}),
    ("unroll-factor=4", {"factor": 4}),
    ("unroll-factor=5", {"factor": 5}),
    ("unroll-factor=-1", {"factor": -1}),
    ("unroll-factor=4 unroll-up-to-factor=true", {"factor": 4, "up_to": True}),
    ("unroll-factor=5 cleanup-unroll=true", {"factor": 5, "cleanup": True}),
    ("unroll-factor=3 unroll-num-reps=2", {"factor": 3, "reps": 2}),
]


def _pipeline(nested: str) -> str:
    return f"--pass-pipeline=builtin.module(func.func({nested}))"


def assert_unrolled_like_mlir_opt(ours: str, expected: str) -> None:
    """Our unrolled output is mlir-opt's by meaning (maps and sets compared as functions),
    except that a cleanup loop after a symbolic trip count starts at ``max(lb, ...)``:
    mlir-opt starts it at ``lb + (t - t mod f) * step``, below ``lb`` when the bounds give a
    negative trip count ``t`` (then it runs iterations the original never ran;
    test_unroll_edge_cases runs such bounds)."""
    if ours != expected:
        assert_same_by_meaning(
            affine.parse(ours, "ours.mlir"), affine.parse(expected, "mlir-opt.mlir"), True
        )


# Values of (%N, %M) that give every loop of unroll.mlir a trip count of 0 or more, where
# mlir-opt's cleanup loops are right.
TRIP_BOUNDS = [(37, 5), (30, 30), (8, 1), (0, 0), (41, 2)]


def assert_runs_like(ours: Module, theirs: Module, name: str) -> None:
    """``@name`` of both modules gives the same results for every :data:`TRIP_BOUNDS`."""
    f, g = ours.function(name), theirs.function(name)
    for bounds in TRIP_BOUNDS:
        a = np.random.default_rng(sum(bounds)).random(100, dtype=np.float32)
        scalars = list(bounds[: len(f.regions[0].blocks[0].arguments) - 1])
        outcome = check_equivalent(f, g, a, *scalars)
        assert outcome, (name, bounds, str(outcome))


@pytest.mark.parametrize("name", UNROLL_INPUTS)
@pytest.mark.parametrize(("options", "kwargs"), UNROLL_OPTIONS, ids=[o for o, _ in UNROLL_OPTIONS])
def test_unroll_matches_mlir_opt(name: str, options: str, kwargs: dict, mlir_opt: str) -> None:
    path = TRANSFORMS / name
    module = read(path)
    ours = rewritten(module, lambda m: unroll_like_mlir_opt(m, **kwargs))
    expected = mlir_opt_output(
        mlir_opt, path.read_text(), _pipeline(f"affine-loop-unroll{{{options}}}")
    )
    if kwargs.get("reps") and name == "unroll.mlir":
        # A second repetition finds our cleanup loops starting at max(lb, ...), whose own
        # cleanup bounds would not be affine: they stay rolled where mlir-opt unrolls its
        # (possibly wrong) cleanup loops again. The functions with symbolic trip counts
        # compute the same where mlir-opt is right; the others are the same by meaning.
        theirs = affine.parse(expected, "mlir-opt.mlir")
        again = affine.parse(reprint(mlir_opt, ours), "ours.mlir")
        for symbolic in ("symbolic_trip", "iter_args"):
            assert " = max #map" in print_module(again.function(symbolic))
            assert_runs_like(again, theirs, symbolic)
            for module_ in (again, theirs):
                module_.function(symbolic).erase()
        assert_same_by_meaning(again, theirs, cleanup_max=True)
        return
    assert_unrolled_like_mlir_opt(reprint(mlir_opt, ours), expected)


@pytest.mark.parametrize(
    "kernel", ["gemm", "iter_args_reduction", "min_max_bounds", "mod_floordiv", "seidel_2d"]
)
@pytest.mark.parametrize("factor", [3, -1])
def test_unroll_matches_mlir_opt_on_kernels(kernel: str, factor: int, mlir_opt: str) -> None:
    path = KERNELS / f"{kernel}.mlir"
    ours = rewritten(read(path), lambda m: unroll_like_mlir_opt(m, factor))
    expected = mlir_opt_output(
        mlir_opt, path.read_text(), _pipeline(f"affine-loop-unroll{{unroll-factor={factor}}}")
    )
    assert_unrolled_like_mlir_opt(reprint(mlir_opt, ours), expected)


@pytest.mark.parametrize("factor", [2, 3, 4, 6])
def test_unroll_and_jam_matches_mlir_opt(factor: int, mlir_opt: str) -> None:
    path = TRANSFORMS / "unroll_jam.mlir"
    ours = rewritten(read(path), lambda m: unroll_jam_like_mlir_opt(m, factor))
    expected = mlir_opt_output(
        mlir_opt,
        path.read_text(),
        _pipeline(f"affine-loop-unroll-jam{{unroll-jam-factor={factor}}}"),
    )
    assert reprint(mlir_opt, ours) == expected


@pytest.mark.parametrize("sizes", ["32,8", "5,7,3", "16,8,4", "64,64,64"])
def test_tiling_matches_mlir_opt(sizes: str, mlir_opt: str) -> None:
    path = TRANSFORMS / "tile.mlir"
    numbers = [int(s) for s in sizes.split(",")]
    ours = rewritten(read(path), lambda m: tile_like_mlir_opt(m, numbers))
    expected = mlir_opt_output(mlir_opt, path.read_text(), f"-affine-loop-tile=tile-sizes={sizes}")
    assert reprint(mlir_opt, ours) == expected


@pytest.mark.parametrize("sizes", ["32,8", "16,8,4"])
def test_separate_full_tiles_matches_mlir_opt(sizes: str, mlir_opt: str) -> None:
    path = TRANSFORMS / "tile_separate.mlir"
    numbers = [int(s) for s in sizes.split(",")]
    ours = rewritten(read(path), lambda m: tile_like_mlir_opt(m, numbers, separate=True))
    expected = mlir_opt_output(
        mlir_opt, path.read_text(), f"-affine-loop-tile=tile-sizes={sizes} separate"
    )
    assert reprint(mlir_opt, ours) == expected


def test_parametric_tiling_matches_mlir_opt(mlir_opt: str) -> None:
    path = TRANSFORMS / "tile_parametric.mlir"
    ours = rewritten(read(path), parametric_tile_like_mlir_opt)
    expected = mlir_opt_output(mlir_opt, path.read_text(), "-test-affine-parametric-tile")
    assert reprint(mlir_opt, ours) == expected


@pytest.mark.parametrize("permutation", ["1,0", "0,2,1", "1,2,0", "2,0,1", "2,1,0"])
def test_permutation_matches_mlir_opt(permutation: str, mlir_opt: str) -> None:
    path = TRANSFORMS / "permute.mlir"
    numbers = [int(p) for p in permutation.split(",")]
    ours = rewritten(read(path), lambda m: permute_like_mlir_opt(m, numbers))
    expected = mlir_opt_output(
        mlir_opt, path.read_text(), f"-test-loop-permutation=permutation-map={permutation}"
    )
    assert reprint(mlir_opt, ours) == expected


def test_parallelize_matches_mlir_opt(mlir_opt: str) -> None:
    path = TRANSFORMS / "parallel.mlir"
    ours = rewritten(read(path), parallelize_all)
    expected = mlir_opt_output(
        mlir_opt, path.read_text(), _pipeline("affine-parallelize{parallel-reductions}")
    )
    assert reprint(mlir_opt, ours) == expected


@pytest.mark.parametrize("name", ["normalize.mlir", "unroll.mlir", "tile.mlir"])
def test_normalize_matches_mlir_opt(name: str, mlir_opt: str) -> None:
    path = TRANSFORMS / name
    ours = rewritten(read(path), normalize_like_mlir_opt)
    expected = mlir_opt_output(mlir_opt, path.read_text(), _pipeline("affine-loop-normalize"))
    assert reprint(mlir_opt, ours) == expected
