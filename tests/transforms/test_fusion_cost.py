"""The fusion cost model: a legal pair fuses only for a gain (bytes touched down, a buffer
contracted, reuse within an iteration) that costs no vectorizable work; ``maximal``
overrides it; a pair not fused for cost gets a remark with the numbers."""

from __future__ import annotations

from pathlib import Path

import affine
import transforms
from poly.footprints import bytes_touched
from poly.tile_model import instance_counts, vectorizable_runs

ROOT = Path(__file__).resolve().parents[1] / "corpus"

# two sibling nests reading disjoint halves of %A: fusing them reuses nothing
DISJOINT_READS = """
func.func @halves(%A: memref<64xf32>, %x: memref<32xf32>, %y: memref<32xf32>) {
  affine.for %i = 0 to 32 {
    %a = affine.load %A[%i] : memref<64xf32>
    affine.store %a, %x[%i] : memref<32xf32>
  }
  affine.for %i = 0 to 32 {
    %a = affine.load %A[%i + 32] : memref<64xf32>
    affine.store %a, %y[%i] : memref<32xf32>
  }
  return
}
"""


def _parse(path: Path) -> affine.Module:
    return affine.parse(path.read_text(), str(path))


def _loops(module: affine.Module) -> int:
    return affine.print_module(module).count("affine.for")


def _equivalent(original: affine.Module, fused: affine.Module) -> None:
    for backend in ("interp", "c"):
        result = affine.check_equivalent(original, fused, backend=backend)
        assert result, result


def test_mvt_fuses_for_fewer_bytes_touched_and_keeps_its_vector_work() -> None:
    module = _parse(ROOT / "kernels" / "mvt.mlir")
    result = transforms.fuse(module)
    (remark,) = result.remarks
    assert "fused the nest of %i" in remark and "at depth 2" in remark
    assert _loops(result.module) == 2
    _equivalent(module, result.module)


def test_bicg_split_is_not_fused_for_cost_with_the_numbers() -> None:
    """Fused, the innermost loop of ``s[j] += r[i] * A[i][j]`` (stride-1, vectorizable)
    would also carry ``q[i] += ...`` (one element written again): every access run of the
    function leaves vectorizable loops, for half the bytes touched."""
    module = _parse(ROOT / "fusion" / "bicg_split.mlir")
    result = transforms.fuse(module)
    (remark,) = result.remarks
    assert "not fused for cost" in remark and "(sibling both reading %A)" in remark
    assert "the fused innermost loops keep 0 of 1920 access runs vectorizable" in remark
    assert "for bytes touched 4192 -> 2272" in remark and "maximal fuses anyway" in remark
    assert affine.print_module(result.module) == affine.print_module(module)


def test_maximal_fuses_what_the_model_refuses() -> None:
    module = _parse(ROOT / "fusion" / "bicg_split.mlir")
    result = transforms.fuse(module, maximal=True)
    (remark,) = result.remarks
    assert "fused the nest of %i" in remark and "at depth 2" in remark
    assert _loops(result.module) == 2
    _equivalent(module, result.module)


def test_jacobi_1d_is_not_fused_across_a_guard_in_its_hot_loop() -> None:
    module = _parse(ROOT / "kernels" / "jacobi_1d.mlir")
    (remark,) = transforms.fuse(module).remarks
    assert "not fused for cost" in remark
    assert "keep 0 of 6080 access runs vectorizable, for reuse within an iteration" in remark
    fused = transforms.fuse(module, maximal=True)
    assert "affine.if" in affine.print_module(fused.module)  # the guard the model sees


def test_siblings_reading_disjoint_elements_gain_nothing() -> None:
    module = affine.parse(DISJOINT_READS, "halves.mlir")
    (remark,) = transforms.fuse(module, mode="sibling").remarks
    assert "not fused for cost" in remark
    assert "no gain at depth 1 (bytes touched 512 -> 512, no buffer contracted, no reuse)" in remark
    result = transforms.fuse(module, mode="sibling", maximal=True)
    assert _loops(result.module) == 1
    _equivalent(module, result.module)


def test_a_contracted_buffer_is_a_gain() -> None:
    module = _parse(ROOT / "fusion" / "elementwise_chain.mlir")
    (remark,) = transforms.fuse(module).remarks
    assert "fused" in remark and "%B private" in remark


def _function(text: str) -> affine.Operation:
    (function,) = affine.parse(text, "kernel.mlir").functions()
    return function


def test_vectorizable_runs_count_stride_one_loops_only() -> None:
    stream = _function(
        """
func.func @f(%A: memref<8x16xf32>, %s: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<8x16xf32>
      %b = affine.load %s[%i] : memref<8xf32>
      %c = arith.addf %a, %b : f32
      affine.store %c, %s[%i] : memref<8xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<8x16xf32>
      affine.if affine_set<(d0) : (d0 - 3 >= 0)>(%j) {
        affine.store %a, %A[%i, %j] : memref<8x16xf32>
      }
    }
  }
  affine.for %j = 0 to 16 {
    %a = affine.load %A[0, %j] : memref<8x16xf32>
    affine.if affine_set<(d0) : (d0 - 3 == 0)>(%j) {
      affine.store %a, %A[2, %j] : memref<8x16xf32>
    }
    affine.store %a, %A[1, %j] : memref<8x16xf32>
  }
  return
}
"""
    )
    # the reduction in memory (%s[%i] in the %j loop) and the range guard leave only the
    # last loop, whose guard with an equality runs on one iteration (peeled): its stride-1
    # accesses, 16 runs each, and the guarded store, once
    assert vectorizable_runs(stream, instance_counts(stream)) == 16 + 1 + 16


def test_bytes_touched_is_none_for_symbolic_sizes() -> None:
    function = _function(
        """
func.func @f(%A: memref<?xf32>, %n: index) {
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xf32>
    affine.store %a, %A[%i] : memref<?xf32>
  }
  return
}
"""
    )
    assert bytes_touched(function) is None


def test_fdtd_2d_fuses_nothing_for_reuse_that_costs_vector_work() -> None:
    """Each fusion inside the time loop reuses within an iteration but leaves less work
    vectorizable: a guard in the hot loop, or ``ex`` stored one iteration before it is read
    (a store-to-load conflict the layout alone does not show)."""
    module = _parse(ROOT / "kernels" / "fdtd_2d.mlir")
    result = transforms.fuse(module)
    assert len(result.remarks) == 4
    assert all(
        "not fused for cost" in r and "for reuse within an iteration" in r for r in result.remarks
    )
    (ex,) = [r for r in result.remarks if "through %ex" in r]
    assert "keep 27920 of 63340 access runs vectorizable" in ex
    assert affine.print_module(result.module) == affine.print_module(module)
