"""Fusion by recomputation: the producer's slice run again in every consumer iteration,
within ``compute-tolerance``; results equal the original's, the remarks give the work."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import affine
import transforms
from poly.recompute import recompute_slice
from poly.schedule import Schedule
from poly.slices import PRODUCER, candidates
from tests.conftest import run_mlir_opt
from transforms.fusion import fuse_recomputing

ROOT = Path(__file__).resolve().parents[1] / "corpus" / "fusion"


def _parse(name: str) -> affine.Module:
    path = ROOT / name
    return affine.parse(path.read_text(), str(path))


def _equivalent(original: affine.Module, result: affine.Module) -> None:
    for backend in ("interp", "c"):
        verdict = affine.check_equivalent(original, result, backend=backend)
        assert verdict, verdict


def _only_pair(module: affine.Module) -> tuple[Schedule, object]:
    schedule = Schedule.of(module.functions()[0])
    (pair,) = candidates(schedule, PRODUCER)
    return schedule, pair


# Instances run: the copy runs |slice(c)| producer instances in each of the consumer's
# iterations c; the redundancy is (copies - originals) / originals when the producer goes,
# copies / originals when it stays.
#   broadcast, depth 2: 32 x 64 iterations x 1 = 2048 for 64 -> +3100%, producer removed
#   blur, depth 2: 64 x 64 x 3 rows = 12288 for 66 x 64 = 4224 -> +291%, producer kept
#   blur, depth 1: 64 x (3 rows x 64) = 12288 for 4224 -> +291%
@pytest.mark.parametrize(
    ("name", "depth", "copies", "originals", "kept", "redundancy"),
    [
        ("broadcast_row.mlir", 2, 2048, 64, False, 31.0),
        ("blur_escaping.mlir", 2, 12288, 4224, True, 12288 / 4224),
        ("blur_escaping.mlir", 1, 12288, 4224, True, 12288 / 4224),
    ],
)
def test_recomputation_counts_the_producer_instances_it_runs(
    name: str, depth: int, copies: int, originals: int, kept: bool, redundancy: float
) -> None:
    module = _parse(name)
    schedule, pair = _only_pair(module)
    copied = recompute_slice(schedule, pair, depth)
    assert not isinstance(copied, str), copied
    assert (copied.copies, copied.originals, copied.producer_kept) == (copies, originals, kept)
    assert copied.redundancy == pytest.approx(redundancy)
    _equivalent(module, copied.module)


def test_the_broadcast_row_is_not_recomputed_over_the_tolerance() -> None:
    result = transforms.fuse(_parse("broadcast_row.mlir"))
    (remark,) = result.remarks
    assert "remark: not fused for cost: " in remark
    assert (
        "recomputing its slice: at depth 2, 2048 producer instances for 64 (+3100% work), "
        "over compute-tolerance 0.3; at depth 1, the box of %B one iteration writes is no "
        "smaller than %B"
    ) in remark
    assert affine.print_module(result.module).count("affine.for") == 3


def test_a_raised_tolerance_recomputes_the_row_into_one_element() -> None:
    module = _parse("broadcast_row.mlir")
    result = transforms.fuse(module, compute_tolerance=100)
    text = affine.print_module(result.module)
    assert text.count("affine.for") == 2  # the consumer's two loops, nothing else
    assert "memref.alloc() : memref<1xf32>" in text and "alloc() : memref<64xf32>" not in text
    assert "math.exp" in text
    fused = [r for r in result.remarks if "remark: fused" in r]
    (remark,) = fused
    assert "at depth 2, recomputing its slice" in remark
    assert "2048 producer instances for 64 (+3100% work) (compute-tolerance 100)" in remark
    assert "the producer removed" in remark
    assert "%B_slice private: memref<32x64x1xf32> -> memref<1xf32>" in remark
    _equivalent(module, result.module)


def test_a_consumer_bounded_by_a_symbol_is_fused_by_recomputation() -> None:
    # the consumer's rows run to min(%n, 8): the buffer index's space carries the parameter
    # n, which the space of its values lacked (ISL: "parameters need to match")
    text = """
    func.func @k(%C: memref<12x12xf32>, %n: index) {
      %c3 = arith.constant 3.0 : f32
      %T = memref.alloc() : memref<12x12xf32>
      affine.for %z0 = 0 to 12 {
        affine.for %z1 = 0 to 12 {
          affine.store %c3, %T[%z0, %z1] : memref<12x12xf32>
        }
      }
      affine.for %i = 0 to min affine_map<()[s0] -> (s0, 8)>()[%n] {
        affine.for %j = 0 to 8 {
          %v = affine.load %T[%i, %j + 1] : memref<12x12xf32>
          affine.store %v, %C[%i, %j] : memref<12x12xf32>
        }
      }
      return
    }
    """
    module = affine.parse(text, "k.mlir")
    result = transforms.fuse(module)
    assert any("at depth 2, recomputing its slice" in r for r in result.remarks), result.remarks
    for n in (0, 3, 12):
        for backend in ("interp", "c"):
            C = np.zeros((12, 12), np.float32)
            verdict = affine.check_equivalent(module, result.module, C, n, backend=backend)
            assert verdict, (n, verdict)


def test_maximal_fuses_the_row_running_each_instance_once() -> None:
    """maximal takes the fusion without recomputation first (row 0 under a guard)."""
    result = transforms.fuse(_parse("broadcast_row.mlir"), maximal=True)
    (remark,) = result.remarks
    assert "at depth 2, no recomputation" in remark
    assert "affine.if" in affine.print_module(result.module)


def test_an_escaping_buffer_keeps_its_producer_beside_the_recomputed_slice() -> None:
    module = _parse("blur_escaping.mlir")
    result = transforms.fuse(module, compute_tolerance=3)
    fused = [r for r in result.remarks if "remark: fused" in r]
    (remark,) = fused
    assert "k0 <= i <= 2 + k0" in remark  # three rows per consumer iteration
    assert "(+291% work) (compute-tolerance 3); the producer kept" in remark
    assert "%B_slice private: memref<64x64x3x1xf32> -> memref<3xf32>" in remark
    text = affine.print_module(result.module)
    assert "memref.alloc() : memref<3xf32>" in text
    _equivalent(module, result.module)


INPUT_OVERWRITTEN = """
func.func @k(%A: memref<16xf32>, %D: memref<16xf32>, %C: memref<16xf32>) {
  %B = memref.alloc() : memref<16xf32>
  affine.for %i = 0 to 16 {
    %a = affine.load %A[%i] : memref<16xf32>
    affine.store %a, %B[%i] : memref<16xf32>
  }
  affine.for %i = 0 to 16 {
    %d = affine.load %D[%i] : memref<16xf32>
    affine.store %d, %A[%i] : memref<16xf32>
  }
  affine.for %i = 0 to 16 {
    %b = affine.load %B[%i] : memref<16xf32>
    affine.store %b, %C[%i] : memref<16xf32>
  }
  memref.dealloc %B : memref<16xf32>
  return
}
"""

SELF_READING = """
func.func @k(%A: memref<16xf32>, %C: memref<16xf32>) {
  %B = memref.alloc() : memref<17xf32>
  affine.for %i = 0 to 16 {
    %p = affine.load %B[%i] : memref<17xf32>
    %a = affine.load %A[%i] : memref<16xf32>
    %s = arith.addf %p, %a : f32
    affine.store %s, %B[%i + 1] : memref<17xf32>
  }
  affine.for %i = 0 to 16 {
    %b = affine.load %B[%i + 1] : memref<17xf32>
    affine.store %b, %C[%i] : memref<16xf32>
  }
  memref.dealloc %B : memref<17xf32>
  return
}
"""


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            INPUT_OVERWRITTEN,
            "an input of the producer is written before the consumer: WAR dependence from S0 "
            "(affine.load %A[%i]",
        ),
        (SELF_READING, "the producer reads %B, which it writes"),
    ],
    ids=["input-overwritten", "self-reading"],
)
def test_a_copy_that_would_read_other_values_is_refused(text: str, reason: str) -> None:
    module = affine.parse(text, "k.mlir")
    schedule = Schedule.of(module.functions()[0])
    pairs = [c for c in candidates(schedule, PRODUCER) if c.memrefs[0].name == "%B"]
    assert pairs
    for pair in pairs:
        found = fuse_recomputing(module, schedule, pair, 1)
        assert isinstance(found, str) and found.startswith(reason), found


@pytest.mark.mlir
@pytest.mark.parametrize("name", ["broadcast_row.mlir", "blur_escaping.mlir"])
def test_mlir_opt_reads_the_recomputed_fusions(mlir_opt: str, name: str) -> None:
    result = transforms.fuse(_parse(name), compute_tolerance=100)
    assert any("recomputing its slice {" in r for r in result.remarks)
    done = run_mlir_opt(mlir_opt, affine.print_module(result.module))
    assert done.returncode == 0, done.stderr
