"""Vector ops in both backends, where the corpus kernels (vector_gemm, vector_ops,
vector_reductions, checked against mlir-runner) do not reach: layouts MLIR cannot lower
(a non-unit innermost stride, tiled layouts), errors at the op's location, i1 and
encoded-float lanes, vectors through calls and block arguments, n-D broadcasts."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import affine
from affine.exec.c_backend import emit_c
from affine.exec.elements import ExecutionError
from affine.exec.running import run

BACKENDS = ("interp", "c")


def _both(text: str, *args: Any) -> list[Any]:
    """Run the module's function with fresh copies of ``args`` in both backends; the
    results and the arrays written must be identical. Returns the interpreter's arrays."""
    module = affine.parse(text)
    outcomes = []
    for backend in BACKENDS:
        arrays = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        result = run(module, *arrays, backend=backend)
        outcomes.append((result, arrays))
    (r0, a0), (r1, a1) = outcomes
    assert np.array_equal(np.asarray(r0), np.asarray(r1)), (r0, r1)
    for x, y in zip(a0, a1):
        if isinstance(x, np.ndarray):
            assert np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), (x, y)
    return a0


def test_vector_access_through_a_non_unit_innermost_stride() -> None:
    text = """
func.func @f(%A: memref<4x6xf32, strided<[13, 2], offset: 1>>, %B: memref<4x6xf32>) {
  affine.for %i = 0 to 4 {
    %v = affine.vector_load %A[%i, 1] : memref<4x6xf32, strided<[13, 2], offset: 1>>, vector<5xf32>
    %w = arith.mulf %v, %v : vector<5xf32>
    affine.vector_store %w, %B[%i, 0] : memref<4x6xf32>, vector<5xf32>
    affine.vector_store %v, %A[%i, 0] : memref<4x6xf32, strided<[13, 2], offset: 1>>, vector<5xf32>
  }
  return
}
"""
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    out = _both(text, a, np.zeros((4, 6), np.float32))
    assert np.array_equal(out[1][:, :5], a[:, 1:6] ** 2)
    assert np.array_equal(out[0][:, :5], a[:, 1:6])


def test_vector_access_through_a_tiled_layout() -> None:
    text = """
#tiled = affine_map<(d0, d1) -> (d0 floordiv 2, d1 floordiv 4, d0 mod 2, d1 mod 4)>
func.func @f(%A: memref<4x8xi32, #tiled>, %B: memref<4x8xi32>) {
  affine.for %i = 0 to 4 {
    %v = affine.vector_load %A[%i, 2] : memref<4x8xi32, #tiled>, vector<6xi32>
    affine.vector_store %v, %B[%i, 1] : memref<4x8xi32>, vector<6xi32>
  }
  return
}
"""
    a = np.arange(32, dtype=np.int32).reshape(4, 8)
    out = _both(text, a, np.zeros((4, 8), np.int32))
    assert np.array_equal(out[1][:, 1:7], a[:, 2:8])


def test_i1_lanes_are_stored_one_byte_each_and_bf16_lanes_round_per_op() -> None:
    text = """
func.func @f(%X: memref<8xbf16>, %M: memref<8xi1>, %Y: memref<8xbf16>) {
  %x = affine.vector_load %X[0] : memref<8xbf16>, vector<8xbf16>
  %t = arith.constant dense<2.500000e-01> : vector<8xbf16>
  %y = arith.addf %x, %t : vector<8xbf16>
  %z = arith.mulf %y, %y : vector<8xbf16>
  %m = arith.cmpf ogt, %z, %x : vector<8xbf16>
  affine.vector_store %m, %M[0] : memref<8xi1>, vector<8xi1>
  affine.vector_store %z, %Y[0] : memref<8xbf16>, vector<8xbf16>
  return
}
"""
    import ml_dtypes

    x = (np.arange(8, dtype=np.float32) / 3).astype(ml_dtypes.bfloat16)
    out = _both(text, x, np.zeros(8, bool), np.zeros(8, ml_dtypes.bfloat16))
    y = (x.astype(np.float32) + 0.25).astype(ml_dtypes.bfloat16)
    z = (y.astype(np.float32) * y.astype(np.float32)).astype(ml_dtypes.bfloat16)
    assert np.array_equal(out[2], z)
    assert np.array_equal(out[1], z.astype(np.float32) > x.astype(np.float32))


def test_vectors_pass_through_calls_and_block_arguments() -> None:
    text = """
func.func private @scale(%v: vector<4xf64>, %s: f64) -> vector<4xf64> {
  %b = vector.broadcast %s : f64 to vector<4xf64>
  %r = arith.mulf %v, %b : vector<4xf64>
  return %r : vector<4xf64>
}
func.func @f(%X: memref<4xf64>, %n: index) -> f64 {
  %two = arith.constant 2.0 : f64
  %v = affine.vector_load %X[0] : memref<4xf64>, vector<4xf64>
  %c0 = arith.constant 0 : index
  cf.br ^loop(%c0, %v : index, vector<4xf64>)
^loop(%i: index, %acc: vector<4xf64>):
  %done = arith.cmpi sge, %i, %n : index
  cf.cond_br %done, ^exit, ^body
^body:
  %next = func.call @scale(%acc, %two) : (vector<4xf64>, f64) -> vector<4xf64>
  %c1 = arith.constant 1 : index
  %i1 = arith.addi %i, %c1 : index
  cf.br ^loop(%i1, %next : index, vector<4xf64>)
^exit:
  affine.vector_store %acc, %X[0] : memref<4xf64>, vector<4xf64>
  %s = vector.reduction <add>, %acc : vector<4xf64> into f64
  return %s : f64
}
"""
    x = np.array([1.0, -2.0, 0.5, 3.0])
    out = _both(text, x, 3)
    assert np.array_equal(out[0], x * 8)
    assert run(affine.parse(text), x.copy(), 3, backend="c") == float(np.sum(x * 8))


def test_broadcast_repeats_unit_dims_and_extract_takes_one_lane_vectors() -> None:
    text = """
func.func @f(%X: memref<2xf32>, %Y: memref<2x3xf32>, %Z: memref<1xf32>) {
  %x = affine.vector_load %X[0] : memref<2xf32>, vector<2xf32>
  %col = vector.broadcast %x : vector<2xf32> to vector<1x2xf32>
  %c0 = vector.extract %x[0] : f32 from vector<2xf32>
  %c1 = vector.extract %x[1] : f32 from vector<2xf32>
  %r0 = vector.broadcast %c0 : f32 to vector<3xf32>
  %r1 = vector.broadcast %c1 : f32 to vector<3xf32>
  %e = arith.constant dense<0.000000e+00> : vector<2x1xf32>
  %p0 = vector.insert %c0, %e [0, 0] : f32 into vector<2x1xf32>
  %p1 = vector.insert %c1, %p0 [1, 0] : f32 into vector<2x1xf32>
  %wide = vector.broadcast %p1 : vector<2x1xf32> to vector<2x3xf32>
  %row0 = vector.extract %wide[0] : vector<3xf32> from vector<2x3xf32>
  %row1 = vector.extract %wide[1] : vector<3xf32> from vector<2x3xf32>
  %d0 = arith.subf %row0, %r0 : vector<3xf32>
  %d1 = arith.subf %row1, %r1 : vector<3xf32>
  affine.vector_store %d0, %Y[0, 0] : memref<2x3xf32>, vector<3xf32>
  affine.vector_store %row1, %Y[1, 0] : memref<2x3xf32>, vector<3xf32>
  %last = vector.extract %col[0, 1] : vector<1xf32> from vector<1x2xf32>
  %s = arith.addf %last, %last : vector<1xf32>
  affine.vector_store %s, %Z[0] : memref<1xf32>, vector<1xf32>
  return
}
"""
    out = _both(
        text, np.array([3.0, 5.0], np.float32), np.ones((2, 3), np.float32), np.zeros(1, np.float32)
    )
    assert np.array_equal(out[1], [[0, 0, 0], [5, 5, 5]])
    assert out[2][0] == 10


@pytest.mark.parametrize("backend", BACKENDS)
def test_dynamic_position_outside_the_vector_is_reported(backend: str) -> None:
    text = """
func.func @f(%X: memref<4xf32>, %i: index) -> f32 {
  %v = affine.vector_load %X[0] : memref<4xf32>, vector<4xf32>
  %e = vector.extract %v[%i] : f32 from vector<4xf32>
  return %e : f32
}
"""
    module = affine.parse(text, "pos.mlir")
    assert run(module, np.arange(4, dtype=np.float32), 2, backend=backend) == 2.0
    with pytest.raises(ExecutionError, match=r"pos\.mlir:4:8: error: 'vector.extract' position"):
        run(module, np.arange(4, dtype=np.float32), 4, backend=backend)


def test_a_vector_running_past_the_end_is_reported() -> None:
    text = """
func.func @f(%X: memref<10xf32>, %i: index) -> f32 {
  %v = affine.vector_load %X[%i] : memref<10xf32>, vector<4xf32>
  %s = vector.reduction <add>, %v : vector<4xf32> into f32
  return %s : f32
}
"""
    module = affine.parse(text, "oob.mlir")
    x = np.arange(10, dtype=np.float32)
    assert run(module, x, 6, backend="interp") == 30.0
    with pytest.raises(ExecutionError, match=r"out-of-bounds load: index \[7\]"):
        run(module, x, 7, backend="interp")
    assert run(module, x, 6, backend="c", checks=True) == 30.0
    with pytest.raises(ExecutionError, match=r"oob\.mlir:3:8: error: out-of-bounds load"):
        run(module, x, 7, backend="c", checks=True)


def test_element_wise_vector_ops_are_lane_loops_in_c() -> None:
    text = """
func.func @f(%X: memref<16xf32>) {
  %v = affine.vector_load %X[0] : memref<16xf32>, vector<16xf32>
  %w = vector.fma %v, %v, %v : vector<16xf32>
  affine.vector_store %w, %X[0] : memref<16xf32>, vector<16xf32>
  return
}
"""
    c = emit_c(affine.parse(text))
    assert "typedef struct { float v[16]; } pa_v16_float;" in c
    assert "= fmaf(v" in c and ".v[l" in c


def test_shuffle_picks_lanes_of_both_operands_side_by_side() -> None:
    # lane k of the result is lane mask[k] of (a ++ b): [1, 2, 3, 4] shifts a window of one
    text = """
func.func @f(%X: memref<8xf32>, %Y: memref<6xf32>) {
  %a = affine.vector_load %X[0] : memref<8xf32>, vector<4xf32>
  %b = affine.vector_load %X[4] : memref<8xf32>, vector<4xf32>
  %s = vector.shuffle %a, %b [1, 2, 3, 4] : vector<4xf32>, vector<4xf32>
  %t = vector.shuffle %b, %a [7, 0] : vector<4xf32>, vector<4xf32>
  affine.vector_store %s, %Y[0] : memref<6xf32>, vector<4xf32>
  affine.vector_store %t, %Y[4] : memref<6xf32>, vector<2xf32>
  return
}
"""
    out = _both(text, np.arange(8, dtype=np.float32), np.zeros(6, np.float32))
    assert np.array_equal(out[1], [1, 2, 3, 4, 3, 4])


@pytest.mark.parametrize(
    ("mask", "message"),
    [
        ("[1, 8]", "mask index #2 out of range"),
        ("[-2, 0]", "mask index #1 out of range"),
    ],
)
def test_shuffle_masks_are_checked(mask: str, message: str) -> None:
    text = f"""
func.func @f(%a: vector<4xf32>) -> vector<2xf32> {{
  %s = vector.shuffle %a, %a {mask} : vector<4xf32>, vector<4xf32>
  return %s : vector<2xf32>
}}
"""
    with pytest.raises(affine.ir.diagnostics.VerifyError, match=message):
        affine.parse(text, "mask.mlir")


# -- vector.transfer_read / transfer_write ---------------------------------------------------------

TRANSFERS = """
#column = affine_map<(d0, d1) -> (d0)>
#transpose = affine_map<(d0, d1) -> (d1, d0)>
#broadcast = affine_map<(d0, d1) -> (0, d1)>
func.func @f(%A: memref<5x6xf32>, %O: memref<5x6xf32>) {
  %p = arith.constant -1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %mask = arith.constant dense<[true, false, true, true]> : vector<4xi1>
  %0 = vector.transfer_read %A[%c1, %c3], %p : memref<5x6xf32>, vector<4xf32>
  vector.transfer_write %0, %O[%c0, %c0] : vector<4xf32>, memref<5x6xf32>
  %1 = vector.transfer_read %A[%c3, %c1], %p {permutation_map = #column} : memref<5x6xf32>, vector<4xf32>
  vector.transfer_write %1, %O[%c1, %c0] : vector<4xf32>, memref<5x6xf32>
  %2 = vector.transfer_read %A[%c1, %c0], %p, %mask : memref<5x6xf32>, vector<4xf32>
  vector.transfer_write %2, %O[%c0, %c4], %mask : vector<4xf32>, memref<5x6xf32>
  %3 = vector.transfer_read %A[%c0, %c1], %p {permutation_map = #transpose} : memref<5x6xf32>, vector<2x3xf32>
  vector.transfer_write %3, %O[%c3, %c4] {permutation_map = #transpose} : vector<2x3xf32>, memref<5x6xf32>
  %4 = vector.transfer_read %A[%c4, %c1], %p {permutation_map = #broadcast} : memref<5x6xf32>, vector<2x3xf32>
  %5 = vector.extract %4[1] : vector<3xf32> from vector<2x3xf32>
  vector.transfer_write %5, %O[%c4, %c0] : vector<3xf32>, memref<5x6xf32>
  return
}
"""


def test_transfers_follow_their_maps_masks_and_bounds() -> None:
    a = np.arange(30, dtype=np.float32).reshape(5, 6)
    out = _both(TRANSFERS, a, np.zeros((5, 6), np.float32))[1]
    # %0: A[1][3..6], the lane past column 5 is the padding, written past O's row 0 (dropped)
    assert list(out[0, :4]) == [9, 10, 11, -1]
    # %1: down column 1 from row 3: A[3][1], A[4][1], then two lanes past row 4 (padding)
    assert list(out[1, :4]) == [19, 25, -1, -1]
    # %2 = [A[1][0], padding, A[1][2], A[1][3]] (lane 1 masked off); the write's mask skips
    # O[0][5] (left 0), its lanes 2 and 3 are past O's row and dropped
    assert list(out[0, 4:]) == [6, 0]
    # %3: vector dim 0 runs along columns (2 lanes), dim 1 along rows (3 lanes): lane (l0, l1)
    # is A[0 + l1][1 + l0], written back to O[3 + l1][4 + l0]: rows 5.. are dropped
    assert list(out[3, 4:]) == [1, 2] and list(out[4, 4:]) == [7, 8]
    # %4: every row of the broadcast is A[4][1..3]
    assert list(out[4, :3]) == [25, 26, 27]


def test_a_masked_write_skips_its_masked_lanes() -> None:
    a = np.arange(30, dtype=np.float32).reshape(5, 6)
    text = (
        TRANSFERS.replace(
            "%O[%c4, %c0] :",
            "%O[%c4, %c0], %m3 :",
        )
        .replace("  return", "  return")
        .replace(
            "  %c0 = arith.constant 0 : index",
            "  %c0 = arith.constant 0 : index\n"
            "  %m3 = arith.constant dense<[false, true, false]> : vector<3xi1>",
        )
    )
    out = _both(text, a, np.zeros((5, 6), np.float32))[1]
    assert list(out[4, :3]) == [0, 26, 0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_transfer_lane_outside_an_in_bounds_dimension_is_reported(backend: str) -> None:
    text = """
func.func @f(%A: memref<8xf32>) {
  %p = ub.poison : f32
  %c6 = arith.constant 6 : index
  %v = vector.transfer_read %A[%c6], %p {in_bounds = [true]} : memref<8xf32>, vector<4xf32>
  vector.transfer_write %v, %A[%c6] : vector<4xf32>, memref<8xf32>
  return
}
"""
    with pytest.raises(ExecutionError, match="out-of-bounds load"):
        run(affine.parse(text), np.zeros(8, np.float32), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_poison_padding_shows_as_nan_where_a_result_depends_on_it(backend: str) -> None:
    text = """
func.func @f(%A: memref<6xf32>, %B: memref<8xf32>) {
  %p = ub.poison : f32
  %c4 = arith.constant 4 : index
  %v = vector.transfer_read %A[%c4], %p : memref<6xf32>, vector<4xf32>
  vector.transfer_write %v, %B[%c4] : vector<4xf32>, memref<8xf32>
  return
}
"""
    b = np.zeros(8, np.float32)
    run(affine.parse(text), np.arange(6, dtype=np.float32), b, backend=backend)
    assert list(b[4:6]) == [4, 5] and np.isnan(b[6:]).all()


@pytest.mark.mlir
def test_transfers_compute_what_mlir_runner_computes(mlir_opt: str, mlir_runner: str) -> None:
    from affine.exec.equivalence import resolve_function
    from affine.exec.inputs import checksums, deterministic_inputs
    from affine.exec.mlir_runner import run_mlir_runner

    func = resolve_function(affine.parse(TRANSFERS))
    arrays = deterministic_inputs(func)
    run(func, *arrays, backend="interp")
    assert run_mlir_runner(func, mlir_opt, mlir_runner).checksums == tuple(
        checksums(a) for a in arrays
    )


@pytest.mark.mlir
@pytest.mark.parametrize(
    ("kernel", "same"), [("gemm", True), ("jacobi_1d", False), ("syrk", False)]
)
def test_mlir_opts_super_vectorized_kernels_run_and_its_miscompiles_show(
    mlir_opt: str, kernel: str, same: bool
) -> None:
    # -affine-super-vectorize writes past the iteration space when the vector size does not
    # divide the trip count (jacobi-1d's 1..N-1 interior, syrk's triangle): those lanes store
    # the poison padding (NaN here) or neighbours' values; gemm's 24 columns divide by 4
    from conftest import CORPUS, run_mlir_opt

    from affine.exec.equivalence import check_equivalent

    source = (CORPUS / "kernels" / f"{kernel}.mlir").read_text()
    vectorized = run_mlir_opt(mlir_opt, source, "-affine-super-vectorize=virtual-vector-size=4")
    assert vectorized.returncode == 0, vectorized.stderr
    assert "vector.transfer_write" in vectorized.stdout
    result = check_equivalent(affine.parse(source), affine.parse(vectorized.stdout))
    assert bool(result) is same, result.mismatches
