"""The reference interpreter: op semantics, layouts, control flow, DMA, errors with locations."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import CORPUS
from exec_cases import CASES, PROGRAMS

import affine
from affine.exec.elements import ExecutionError
from affine.exec.inputs import deterministic_inputs, resolve_function
from affine.exec.interp import Interpreter
from affine.exec.memory import MemRef
from affine.exec.running import load_kernel, run

KERNELS = CORPUS / "kernels"


def kernel(name: str) -> affine.Module:
    path = KERNELS / f"{name}.mlir"
    return affine.parse(path.read_text(), str(path))


def interp(text: str, *args, **kwargs):
    return run(affine.parse(text), *args, backend="interp", **kwargs)


@pytest.mark.parametrize("name", sorted(CASES))
def test_scalar_semantics(name: str) -> None:
    case = CASES[name]
    case.check(interp(case.text, *case.values))


# -- corpus kernels against numpy ---------------------------------------------------------------


def test_gemm_matches_numpy() -> None:
    C, A, B = deterministic_inputs(resolve_function(kernel("gemm")))
    expected = np.float32(1.2) * C.astype(np.float64) + (np.float32(1.5) * A.astype(np.float64)) @ B
    run(kernel("gemm"), C, A, B, backend="interp")
    np.testing.assert_allclose(C, expected, rtol=1e-5)


def test_floyd_warshall_matches_python() -> None:
    (path,) = deterministic_inputs(resolve_function(kernel("floyd_warshall")))
    expected = path.astype(np.int64)
    n = len(expected)
    for k in range(n):
        expected = np.minimum(expected, expected[:, k : k + 1] + expected[k : k + 1, :])
    run(kernel("floyd_warshall"), path, backend="interp")
    assert path.dtype == np.int32 and np.array_equal(path, expected)


@pytest.mark.parametrize("name", ["tiled_layout", "transposed_layout", "strided_layout"])
def test_layout_kernels_compute_on_logical_indices(name: str) -> None:
    arrays = deterministic_inputs(resolve_function(kernel(name)))
    originals = [a.astype(np.float64) for a in arrays]
    run(kernel(name), *arrays, backend="interp")
    if name == "tiled_layout":
        A, B, _ = originals
        np.testing.assert_allclose(arrays[2], A @ B, rtol=1e-5)
    elif name == "transposed_layout":
        A, x, _, z, _ = originals
        np.testing.assert_allclose(arrays[2], A @ x, rtol=1e-5)
        np.testing.assert_allclose(arrays[4], A.T @ z, rtol=1e-5)
    else:
        A = originals[0]
        np.testing.assert_allclose(arrays[1], A + A.T, rtol=1e-6)


def test_layouts_place_elements_at_their_physical_positions() -> None:
    t = resolve_function(kernel("tiled_layout")).regions[0].blocks[0].arguments[0].type
    logical = np.arange(256, dtype=np.float32).reshape(16, 16)
    from affine.exec.memory import memref_from_array

    memref = memref_from_array(t, logical)
    assert memref.data.shape == (256,) and memref.pstrides == (64, 16, 4, 1)
    # logical (5, 6) is tile (1, 1), position (1, 2) in the tile
    assert memref.data[1 * 64 + 1 * 16 + 1 * 4 + 2] == logical[5, 6]
    assert np.array_equal(memref.to_array(), logical)


def test_mod_floordiv_matches_python() -> None:
    A, B, C, D = deterministic_inputs(resolve_function(kernel("mod_floordiv")))
    a, c, d = A.copy(), C.astype(np.float32).copy(), D.copy()
    b = B.copy()
    for i in range(64):
        b[(i * 5) % 64] = a[i // 4, i % 4]
    for i in range(64):
        c[(i - 5) // 4 + 2, (i - 7) % 4] += b[i]
    for j in range(16):
        for i in range(-(-j // 2), -(-(j * 3) // 2) + 1):
            d[j] += b[i]
    run(kernel("mod_floordiv"), A, B, C, D, backend="interp")
    assert np.array_equal(B, b) and np.array_equal(C, c) and np.array_equal(D, d)


def test_iter_args_and_parallel_reductions() -> None:
    A, x, rows, total, stats = deterministic_inputs(resolve_function(kernel("iter_args_reduction")))
    expected_rows = [np.float32(0)] * 30
    for i in range(30):
        acc = np.float32(0)
        for j in range(40):
            acc = acc + A[i, j] * x[j]
        expected_rows[i] = acc
    run(kernel("iter_args_reduction"), A, x, rows, total, stats, backend="interp")
    assert np.array_equal(rows, np.array(expected_rows, dtype=np.float32))
    assert total[0] == sum(float(r) * float(r) for r in expected_rows)
    assert stats[1] == max(expected_rows)

    A, x, y, B, mx = deterministic_inputs(resolve_function(kernel("parallel_reduce")))
    B0 = B.copy()
    run(kernel("parallel_reduce"), A, x, y, B, mx, backend="interp")
    np.testing.assert_allclose(y, A.astype(np.float64) @ x, rtol=1e-6)
    expected_b = B0.copy()
    expected_b[1:31, 0::2] = 2 * A[1:31, 0::2]
    assert np.array_equal(B, expected_b) and mx[0] == A.max()


def test_if_else_with_results() -> None:
    A, B = deterministic_inputs(resolve_function(kernel("if_else")))
    expected = A.copy()
    third = np.float32(0.333333343)
    for i in range(1, 39):
        expected[i] = (A[i - 1] + A[i] + A[i + 1]) * third
    expected[0::3] *= np.float32(2)
    run(kernel("if_else"), A, B, backend="interp")
    assert np.array_equal(B, expected)


def test_dma_kernel_moves_tiles() -> None:
    A, B = deterministic_inputs(resolve_function(kernel("dma_tiles")))
    expected = B.copy()
    for ii in range(0, 32, 8):
        for jj in range(0, 32, 8):
            expected[jj : jj + 8, ii : ii + 8] = 2 * A[ii : ii + 8, jj : jj + 8]
    run(kernel("dma_tiles"), A, B, backend="interp")
    assert np.array_equal(B, expected)


# -- DMA in all spellings ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [PROGRAMS["dma_affine"], PROGRAMS["dma_memref"], PROGRAMS["dma_seed"]],
    ids=["affine", "memref", "seed"],
)
def test_dma_copies_in_linear_element_order(text: str) -> None:
    A = np.arange(32, dtype=np.float32).reshape(4, 8)
    B = np.zeros(16, dtype=np.float32)
    interp(text, A, B)
    expected = np.zeros(16, dtype=np.float32)
    expected[2:12] = A.reshape(-1)[11:21]  # A[1, 3] is element 11
    assert np.array_equal(B, expected)


def test_strided_dma_moves_blocks_on_the_slower_memory_side() -> None:
    text = PROGRAMS["strided_dma"]
    A = np.arange(64, dtype=np.float32).reshape(8, 8)
    B = np.zeros((2, 4), dtype=np.float32)
    interp(text, A, B)
    assert np.array_equal(B, A[2:4, 1:5])


# -- control flow, calls, dynamic shapes ---------------------------------------------------------


def test_recursive_calls_with_scf_if() -> None:
    text = PROGRAMS["factorial"]
    assert interp(text, 20) == 2432902008176640000
    assert (
        interp(text, 21) == (2432902008176640000 * 21 + 2**63) % 2**64 - 2**63
    )  # wraps at 64 bits


def test_mutually_recursive_functions() -> None:
    module = affine.parse(PROGRAMS["mutual_recursion"])
    assert run(module, 10, backend="interp") is True and run(module, 7, backend="interp") is False


def test_scf_while_and_scf_for_with_iter_args() -> None:
    text = PROGRAMS["collatz"]
    steps, total = interp(text, 27)
    assert steps == 111 and total == sum(range(0, 111, 2))


def test_branches_between_blocks() -> None:
    text = PROGRAMS["absdiff"]
    assert interp(text, 3, 10) == 7 and interp(text, 10, 3) == 7


def test_execute_region_of_several_blocks() -> None:
    """Below %n an element doubles (the first block's branch), from %n on it is squared
    (a nested single-block region)."""
    module = affine.parse(PROGRAMS["execute_region"])
    b = np.arange(8, dtype=np.float32)
    run(module, b, 5, backend="interp")
    assert b.tolist() == [0, 2, 4, 6, 8, 25, 36, 49]


def test_allocation_and_copy_across_blocks() -> None:
    module = affine.parse(PROGRAMS["branch_alloc"])
    A = np.arange(8, dtype=np.float32) + 1
    assert run(module, A, 5, backend="interp") == 6.0
    assert run(module, A, 2, backend="interp") == 0.0  # the buffer starts zeroed


def test_dynamic_shapes_alloc_dim_and_copy() -> None:
    text = PROGRAMS["dynamic_copy"]
    A = np.random.default_rng(0).random((5, 3))
    B = np.zeros((5, 3))
    interp(text, A, B)
    assert np.array_equal(B, 2 * A)


def test_layout_symbols_are_bound_by_the_caller() -> None:
    text = PROGRAMS["layout_symbols"]
    module = affine.parse(text)
    A = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = np.zeros(1, dtype=np.float32)
    run(module, A, out, backend="interp", layout_symbols={0: (6,)})
    assert out[0] == A.sum()
    with pytest.raises(ExecutionError, match=r"layout_symbols=\{0: \(\.\.\.\)\}"):
        run(module, A, out, backend="interp")


def test_memref_cast_between_static_dynamic_and_strided() -> None:
    text = PROGRAMS["casts"]
    A = np.arange(16, dtype=np.float32).reshape(4, 4)
    assert interp(text, A) == 6.0


def test_subviews_and_reinterpret_casts_address_the_source_buffer() -> None:
    A = np.arange(64, dtype=np.float32).reshape(8, 8)
    # rows 1, 3, 5 and columns 2..5; then its [1:3, 1:3] corner
    assert interp(PROGRAMS["subview"], A, 1) == A[3, 4] + A[5, 4]
    with pytest.raises(
        ExecutionError, match="out-of-bounds subview: dimension 0 takes 3 elements from 4 by 2 of 8"
    ):
        interp(PROGRAMS["subview"], A, 4)
    assert interp(PROGRAMS["reinterpret_cast"], np.arange(32, dtype=np.float32), 3) == 3 + 2 * 6 + 1
    with pytest.raises(
        ExecutionError, match=r"the view reaches elements 20\.\.41 of a buffer of 32"
    ):
        interp(PROGRAMS["reinterpret_cast"], np.arange(32, dtype=np.float32), 20)


def test_float32_is_computed_in_float32() -> None:
    text = PROGRAMS["f32_sum"]
    x = np.full(1000, 0.1, dtype=np.float32)
    result = interp(text, x)
    sequential = np.float32(0)
    for v in x:
        sequential = np.float32(sequential + v)
    assert isinstance(result, np.float32) and result == sequential
    assert float(result) != float(np.sum(x.astype(np.float64)))


@pytest.mark.parametrize(
    ("kind", "element", "expected"),
    [
        ("addf", "f32", 0.0),
        ("mulf", "f64", 1.0),
        ("maximumf", "f32", float("-inf")),
        ("andi", "i32", -1),
        ("muli", "i64", 1),
    ],
)
def test_empty_parallel_reduction_gives_the_neutral_element(
    kind: str, element: str, expected: float
) -> None:
    text = f"""
func.func @f(%n: index) -> {element} {{
  %r = affine.parallel (%i) = (0) to (symbol(%n)) reduce ("{kind}") -> ({element}) {{
    %c = arith.constant 1 : index
    %v = arith.index_cast %c : index to i64
    %w = {"arith.sitofp %v : i64 to " + element if element.startswith("f") else "arith.index_cast %c : index to " + element}
    affine.yield %w : {element}
  }}
  return %r : {element}
}}
"""
    assert interp(text, 0) == expected


# -- errors ------------------------------------------------------------------------------------------


def test_out_of_bounds_load_is_reported_with_its_location() -> None:
    text = """func.func @f(%A: memref<4x4xf32>) -> f32 {
  %c = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 5 iter_args(%a = %c) -> (f32) {
    %v = affine.load %A[%i, 0] : memref<4x4xf32>
    affine.yield %v : f32
  }
  return %r : f32
}
"""
    with pytest.raises(ExecutionError) as info:
        run(affine.parse(text, "oob.mlir"), np.zeros((4, 4), np.float32), backend="interp")
    rendered = info.value.render()
    assert rendered.startswith("oob.mlir:4:10: error: out-of-bounds load: index [4, 0]")
    assert "memref<4x4xf32>" in rendered


def test_out_of_bounds_is_checked_on_logical_indices_not_the_buffer() -> None:
    text = """
#tiled = affine_map<(d0, d1) -> (d0 floordiv 2, d1 floordiv 2, d0 mod 2, d1 mod 2)>
func.func @f(%A: memref<4x4xf32, #tiled>) {
  %c = arith.constant 1.0 : f32
  affine.store %c, %A[0, 4] : memref<4x4xf32, #tiled>
  return
}
"""
    with pytest.raises(ExecutionError, match=r"out-of-bounds store: index \[0, 4\]"):
        interp(text, np.zeros((4, 4), np.float32))


def test_out_of_bounds_dma_is_reported() -> None:
    text = PROGRAMS["dma_affine"].replace("%n = arith.constant 10", "%n = arith.constant 20")
    with pytest.raises(ExecutionError, match="out-of-bounds DMA destination"):
        interp(text, np.zeros((4, 8), np.float32), np.zeros(16, np.float32))


def test_unknown_op_is_named_with_its_location_before_running() -> None:
    text = """func.func @f(%A: memref<4xf32>) {
  %c = arith.constant 1.0 : f32
  "mydialect.launch"(%A) : (memref<4xf32>) -> ()
  affine.store %c, %A[0] : memref<4xf32>
  return
}
"""
    A = np.zeros(4, np.float32)
    with pytest.raises(ExecutionError) as info:
        run(affine.parse(text, "k.mlir"), A, backend="interp")
    assert info.value.render().startswith(
        "k.mlir:3:3: error: the interpreter cannot run 'mydialect.launch'"
    )
    assert A[0] == 0.0  # nothing ran


def test_division_by_zero_is_reported() -> None:
    case = CASES["divsi_truncates"]
    with pytest.raises(ExecutionError, match=r"'arith\.divsi': division by zero"):
        interp(case.text, 5, 0)


def test_wrong_arguments_are_explained() -> None:
    module = kernel("gemm")
    with pytest.raises(ExecutionError, match="takes 3 arguments, 1 given"):
        run(module, np.zeros((20, 24), np.float32), backend="interp")
    with pytest.raises(ExecutionError, match=r"shape \(3, 3\) does not fit 'memref<20x24xf32>'"):
        run(module, np.zeros((3, 3)), np.zeros((20, 28)), np.zeros((28, 24)), backend="interp")


def test_arrays_of_another_dtype_are_converted_and_written_back() -> None:
    C, A, B = (a.astype(np.float64) for a in deterministic_inputs(resolve_function(kernel("gemm"))))
    expected = [a.astype(np.float32) for a in (C, A, B)]
    run(kernel("gemm"), *expected, backend="interp")
    run(kernel("gemm"), C, A, B, backend="interp")
    assert C.dtype == np.float64 and np.array_equal(C, expected[0].astype(np.float64))


def test_iterations_are_counted() -> None:
    call = load_kernel(kernel("syrk"), "interp")
    call(*deterministic_inputs(resolve_function(kernel("syrk"))))
    triangle = 24 * 25 // 2
    assert call.interpreter.iterations == 24 + triangle + 24 * 20 + 20 * triangle


def test_interpreter_runs_memrefs_directly() -> None:
    module = affine.parse(CASES["addi_i32_overflow"].text)
    assert Interpreter(module).call("f", [1, 2]) == [3]
    memref = MemRef.allocate(
        resolve_function(kernel("jacobi_1d")).regions[0].blocks[0].arguments[0].type, [40]
    )
    assert memref.data.shape == (40,) and not memref.data.any()


INDEX_OPS = """
func.func @idx(%A: memref<30xindex>, %B: memref<30xindex>, %C: memref<30xindex>, %n: index) {
  affine.for %i = 0 to 30 {
    %q:3 = affine.delinearize_index %i into (2, 3, 5) : index, index, index
    %r:3 = affine.delinearize_index %i into (%n, 5) : index, index, index
    %l = affine.linearize_index [%q#0, %q#1, %q#2] by (2, 3, 5) : index
    %m = affine.linearize_index disjoint [%r#1, %r#2] by (%n, 5) : index
    affine.store %l, %A[%i] : memref<30xindex>
    affine.store %r#0, %B[%i] : memref<30xindex>
    affine.store %m, %C[%i] : memref<30xindex>
  }
  return
}
"""


@pytest.mark.parametrize("backend", ["interp", "c"])
def test_index_ops_split_and_join_by_their_basis(backend: str) -> None:
    # i into (2, 3, 5) and back is i; into (n, 5) with three results the first is unbounded:
    # i floordiv 5n, (i mod 5n) floordiv 5, i mod 5; joined by (n, 5): i mod 5n (n = 3)
    module = affine.parse(INDEX_OPS, "idx.mlir")
    a, b, c = (np.zeros(30, dtype=np.int64) for _ in range(3))
    affine.run(module, a, b, c, 3, backend=backend)
    i = np.arange(30)
    assert a.tolist() == i.tolist()
    assert b.tolist() == (i // 15).tolist()
    assert c.tolist() == (i % 15).tolist()
