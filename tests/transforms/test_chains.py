"""Chains side by side (transforms.unroll_jam.interleave_chains): an innermost loop whose
every iteration reads what the one before wrote runs as many chains side by side as the
enclosing loop is unrolled and jammed, after the skew that makes the jam legal."""

from __future__ import annotations

from pathlib import Path

import pytest

import affine
from tests.conftest import run_mlir_opt
from transforms.unroll_jam import interleave_chains, memory_streams

KERNELS = Path(__file__).resolve().parents[1] / "corpus" / "kernels"

PREFIX_SUMS = """
func.func @prefix(%A: memref<20x30xf32>) {
  affine.for %i = 0 to 20 {
    affine.for %j = 1 to 30 {
      %l = affine.load %A[%i, %j - 1] : memref<20x30xf32>
      %c = affine.load %A[%i, %j] : memref<20x30xf32>
      %s = arith.addf %l, %c : f32
      affine.store %s, %A[%i, %j] : memref<20x30xf32>
    }
  }
  return
}
"""


def test_independent_rows_of_prefix_sums_run_side_by_side_without_a_skew() -> None:
    # the chain (0, 1) stays in its row: rows i .. i + 7 are independent
    module = affine.parse(PREFIX_SUMS, "prefix.mlir")
    result, done = interleave_chains(module, "prefix")
    assert [line for _, line in done] == ["8 chains of %j at prefix.mlir:4:5 side by side"]
    text = affine.print_module(result)
    assert "step 8" in text and "affine.if" not in text
    assert affine.check_equivalent(module, result)


def test_seidel_rows_need_a_skew_of_two() -> None:
    # (i, j) reads (i - 1, j + 1), written one row before: distance (1, -1). With j' = j + i
    # it is (1, 0), which the jam check refuses; with j' = j + 2i every dependence between
    # rows has a j' distance of at least 1
    module = affine.parse((KERNELS / "seidel_2d.mlir").read_text(), "seidel_2d.mlir")
    result, done = interleave_chains(module, "seidel_2d")
    assert [line for _, line in done] == [
        "8 chains of %j at seidel_2d.mlir:7:7 side by side, skewed by 2 x %i"
    ]
    assert affine.check_equivalent(module, result)


def test_a_dependence_at_a_varying_distance_is_no_chain() -> None:
    # floyd-warshall's j loop carries the dependence from (k, i, k) to (k, i, j): its
    # distance j - k varies, and LLVM vectorizes the loop
    module = affine.parse((KERNELS / "floyd_warshall.mlir").read_text(), "fw.mlir")
    result, done = interleave_chains(module, "floyd_warshall")
    assert done == [] and result is module


@pytest.mark.mlir
def test_mlir_opt_reads_the_ramps(mlir_opt: str) -> None:
    module = affine.parse((KERNELS / "seidel_2d.mlir").read_text(), "seidel_2d.mlir")
    result, _ = interleave_chains(module, "seidel_2d")
    done = run_mlir_opt(mlir_opt, affine.print_module(result))
    assert done.returncode == 0, done.stderr


def test_the_pass_remarks_at_the_jammed_loop_and_checks_its_options() -> None:
    import transforms
    from transforms.registry import PassOptionError

    module = affine.parse((KERNELS / "seidel_2d.mlir").read_text(), "seidel_2d.mlir")
    result = transforms.interleave_chains(module, chains=4)
    (remark,) = result.remarks
    assert remark.startswith("seidel_2d.mlir:6:5: remark: 4 chains of %j at seidel_2d.mlir:7:7")
    assert "step 4" in affine.print_module(result.module)
    assert affine.check_equivalent(module, result.module)
    with pytest.raises(PassOptionError, match="expected an integer >= 2"):
        transforms.interleave_chains(module, chains=1)


def test_adi_sweeps_jam_each_row_loop_once_over_its_forward_and_backward_chains() -> None:
    # each sweep's row loop %i holds stores, a forward chain %j and a backward chain %jj:
    # rows are independent, so %i is jammed once and both chains run 8 rows side by side
    module = affine.parse((KERNELS / "adi.mlir").read_text(), "adi.mlir")
    result, done = interleave_chains(module, "adi")
    assert [line for _, line in done] == [
        "8 chains of %j at adi.mlir:74:7, %jj at adi.mlir:95:7 side by side",
        "8 chains of %j at adi.mlir:39:7, %jj at adi.mlir:60:7 side by side",
    ]
    assert affine.print_module(result).count("step 8") == 2
    assert affine.check_equivalent(module, result)


# B[i][j] = B[i][j-1] * A[i][j] + C[i][j]: each row's chain walks three rows of 4 KiB,
# a page apart, so every chain adds 3 streams (8 chains: 24 > 16; 4 chains: 12)
THREE_STREAMS_PER_ROW = """
func.func @rows(%A: memref<16x1024xf32>, %B: memref<16x1024xf32>, %C: memref<16x1024xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 1 to 6 {
      %b = affine.load %B[%i, %j - 1] : memref<16x1024xf32>
      %a = affine.load %A[%i, %j] : memref<16x1024xf32>
      %c = affine.load %C[%i, %j] : memref<16x1024xf32>
      %m = arith.mulf %b, %a : f32
      %s = arith.addf %m, %c : f32
      affine.store %s, %B[%i, %j] : memref<16x1024xf32>
    }
  }
  return
}
"""


def test_chains_are_halved_until_their_loop_walks_at_most_16_streams() -> None:
    module = affine.parse(THREE_STREAMS_PER_ROW, "rows.mlir")
    (inner,) = [op for op in module.function("rows").walk() if op.name == "affine.for"][1:]
    assert memory_streams(inner) == 3  # B's two accesses are 4 bytes apart: one stream
    result, done = interleave_chains(module, "rows")
    assert [line for _, line in done] == ["4 chains of %j at rows.mlir:4:5 side by side"]
    assert affine.check_equivalent(module, result)
    unlimited, done = interleave_chains(module, "rows", max_streams=None)
    assert [line for _, line in done] == ["8 chains of %j at rows.mlir:4:5 side by side"]
    jammed = [op for op in unlimited.function("rows").walk() if op.name == "affine.for"][1]
    assert memory_streams(jammed) == 24


@pytest.mark.parametrize(
    ("shape", "streams"),
    [
        # rows i and i + 1 of A are 4 * width bytes apart: one stream below 4096 bytes
        ("8x1023xf32", 1),
        ("8x1024xf32", 2),
        ("8x512xf64", 2),
        ("8x511xf64", 1),
    ],
)
def test_accesses_a_page_apart_walk_separate_streams(shape: str, streams: int) -> None:
    text = f"""
func.func @f(%A: memref<{shape}>) {{
  affine.for %j = 0 to 8 {{
    %x = affine.load %A[0, %j] : memref<{shape}>
    affine.store %x, %A[1, %j] : memref<{shape}>
  }}
  return
}}
"""
    loop = next(op for op in affine.parse(text).function("f").walk() if op.name == "affine.for")
    assert memory_streams(loop) == streams
