"""``--affine-rotate-loads``: a vector loop's overlapping loads of one row become one load
per vector and shuffles of vectors carried in ``iter_args``; the rotated code computes what
the original does (interpreter, which reports any load outside a memref, and C), reads no
element the loop did not, and is refused where the loop writes what it would carry."""

from __future__ import annotations

import pytest
from conftest import run_mlir_opt
from test_register_tile import parse_kernel, run_pipeline

import affine
from affine.exec.equivalence import check_equivalent
from affine.ir.core import Module, Operation
from affine.syntax.printer import print_module
from transforms.load_rotation import check_load_rotation, rotate_loads

# A stencil whose reads span exactly its input: X[i + c] for c in -3..2 over i in 3..N-2,
# so a load past either end of the loop's own reads would fall outside X.
WIDE = """
func.func @wide(%X: memref<{n}xf32>, %Y: memref<{n}xf32>) {{
  affine.for %i = 3 to {m} {{
    %a = affine.load %X[%i - 3] : memref<{n}xf32>
    %b = affine.load %X[%i - 1] : memref<{n}xf32>
    %c = affine.load %X[%i] : memref<{n}xf32>
    %d = affine.load %X[%i + 2] : memref<{n}xf32>
    %s = arith.addf %a, %b : f32
    %t = arith.subf %c, %d : f32
    %u = arith.mulf %s, %t : f32
    affine.store %u, %Y[%i] : memref<{n}xf32>
  }}
  return
}}
"""

ROTATE = [("affine-register-tile", "vector-bits=128"), ("affine-rotate-loads", "")]


def _wide(n: int) -> Module:
    return affine.parse(WIDE.format(n=n, m=n - 2), "wide.mlir")


def _ops(module: Module, name: str) -> list[Operation]:
    return [op for op in module.walk() if op.name == name]


def _rotated_loops(module: Module) -> list[Operation]:
    return [op for op in _ops(module, "affine.for") if op.results]


@pytest.mark.parametrize("backend", ["interp", "c"])
@pytest.mark.parametrize("n", [5, 9, 12, 13, 21, 40])
def test_rotated_loads_compute_the_same_and_stay_inside_the_reads(n: int, backend: str) -> None:
    # n - 5 iterations: none, fewer than a vector (4 lanes), and full groups with remainders
    module = _wide(n)
    result, remarks = run_pipeline(module, ROTATE)
    outcome = check_equivalent(module.functions()[0], result.functions()[0], backend=backend)
    assert outcome, (outcome, print_module(result))
    if n - 5 >= 4:
        assert any("loads rotated" in r for r in remarks), remarks


def test_one_load_per_vector_and_the_anchors_carried() -> None:
    # offsets -3, -1, 0, +2 with 4 lanes: anchors end at i + 5 (loaded), i + 1 and i - 3
    # (carried); +2 is the newest anchor itself, -3, -1 and 0 shuffles of two neighbours
    result, remarks = run_pipeline(_wide(40), ROTATE)
    (loop,) = _rotated_loops(result)
    body = loop.regions[0].blocks[0].operations
    loads = [op for op in body if op.name == "affine.vector_load"]
    shuffles = [op for op in body if op.name == "vector.shuffle"]
    assert len(loads) == 1 and len(loop.results) == 2, print_module(result)
    assert len(shuffles) == 3
    assert [r.splitlines()[0] for r in remarks if "loads rotated" in r] == [
        "wide.mlir:2:1: remark: loads rotated in affine.for at wide.mlir:3:3: 4 loads of 4 "
        "lanes at -3, -1, +0, +2 from affine.vector_load at wide.mlir:3:3 -> 1 per iteration, "
        "2 carried"
    ]
    # before the loop, under a test that it runs: the two older anchors of its first
    # iteration, the oldest shifted into place from the lowest load
    guard = loop.parent_op
    assert guard is not None and guard.name == "affine.if"
    prologue = guard.regions[0].blocks[0].operations
    assert [op.name for op in prologue[:3]] == [
        "affine.vector_load",
        "affine.vector_load",
        "vector.shuffle",
    ]


def test_a_loop_writing_the_row_it_reads_is_not_rotated() -> None:
    text = """
func.func @inplace(%X: memref<64xf32>) {
  affine.for %i = 1 to 61 step 4 {
    %a = affine.vector_load %X[%i - 1] : memref<64xf32>, vector<4xf32>
    %b = affine.vector_load %X[%i + 1] : memref<64xf32>, vector<4xf32>
    %s = arith.addf %a, %b : vector<4xf32>
    affine.vector_store %s, %X[%i] : memref<64xf32>, vector<4xf32>
  }
  return
}
"""
    module = affine.parse(text, "inplace.mlir")
    (loop,) = _ops(module, "affine.for")
    verdict = check_load_rotation(loop)
    assert not verdict and verdict.reason == (
        "affine.for at inplace.mlir:3:3: no row is loaded at more offsets than vectors per "
        "iteration"
    )
    assert rotate_loads(loop) == []


def test_a_call_in_the_loop_is_not_rotated() -> None:
    text = """
func.func private @touch(memref<64xf32>)
func.func @called(%X: memref<64xf32>, %Y: memref<64xf32>) {
  affine.for %i = 1 to 61 step 4 {
    %a = affine.vector_load %X[%i - 1] : memref<64xf32>, vector<4xf32>
    %b = affine.vector_load %X[%i + 1] : memref<64xf32>, vector<4xf32>
    func.call @touch(%X) : (memref<64xf32>) -> ()
    %s = arith.addf %a, %b : vector<4xf32>
    affine.vector_store %s, %Y[%i] : memref<64xf32>, vector<4xf32>
  }
  return
}
"""
    module = affine.parse(text, "called.mlir")
    (loop,) = _ops(module, "affine.for")
    assert check_load_rotation(loop).reason == (
        "func.call at called.mlir:7:5: 'func.call' has effects the rotation cannot see"
    )


@pytest.mark.parametrize("kernel", ["jacobi_1d", "jacobi_2d", "heat_3d", "fdtd_2d"])
def test_time_tiled_stencils_with_rotated_loads_compute_the_same(kernel: str) -> None:
    # time tiles leave the sweeps' loops with max/min bounds: the register tile groups
    # them per bound, and the rotation runs in each group loop
    module = parse_kernel(kernel)
    pipeline = [
        ("affine-time-tile", "time-size=2"),
        ("affine-register-tile", "vector-bits=128"),
        ("affine-rotate-loads", ""),
    ]
    result, remarks = run_pipeline(module, pipeline)
    assert _rotated_loops(result), remarks
    outcome = check_equivalent(module.functions()[0], result.functions()[0], backend="interp")
    assert outcome, outcome


@pytest.mark.mlir
def test_mlir_opt_accepts_rotated_loads(mlir_opt: str) -> None:
    outputs = [print_module(run_pipeline(_wide(40), ROTATE)[0])]
    outputs += [
        print_module(run_pipeline(parse_kernel(k), ROTATE)[0]) for k in ("jacobi_2d", "heat_3d")
    ]
    check = run_mlir_opt(mlir_opt, "\n// -----\n".join(outputs), "--split-input-file")
    assert check.returncode == 0, check.stderr[:2000]
