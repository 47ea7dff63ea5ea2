"""Chains side by side (transforms.unroll_jam.interleave_chains): an innermost loop whose
every iteration reads what the one before wrote runs as many chains side by side as the
enclosing loop is unrolled and jammed, after the skew that makes the jam legal."""

from __future__ import annotations

from pathlib import Path

import pytest

import affine
from tests.conftest import run_mlir_opt
from transforms.unroll_jam import interleave_chains

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
