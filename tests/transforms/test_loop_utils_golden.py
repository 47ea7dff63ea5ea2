"""Golden tests: each rewrite on a small input, its output checked with FileCheck patterns;
refusals say why, carry the op's location and leave the IR untouched."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from filecheck import filecheck

import affine
from affine.ir.core import Module
from affine.ops import ForOp
from affine.syntax.printer import print_module
from transforms.errors import TransformError
from transforms.loop_utils import (
    apply_to_clone,
    get_perfect_band,
    get_tileable_bands,
    interchange_loops,
    loops,
    normalize_loop,
    permute_loops,
    promote_if_single_iteration,
)
from transforms.parallelization import to_parallel
from transforms.skewing import skew_band
from transforms.tiling import separate_full_tiles, tile_perfect_band
from transforms.unroll_jam import unroll_and_jam_loop
from transforms.unrolling import unroll_full, unroll_loop, unroll_up_to


def check(source: str, rewrite: Callable[[Module], object], checks: str) -> Module:
    """Rewrite a clone of ``source``; the output must verify, match ``checks``, and the
    input must be unchanged."""
    module = affine.parse(source, "<golden>")
    before = print_module(module)
    result, _ = apply_to_clone(module, lambda m: m, rewrite)
    assert print_module(module) == before
    text = print_module(result)
    affine.parse(text, "<rewritten>")
    filecheck(text, checks)
    return result


def refuse(source: str, rewrite: Callable[[Module], object], message: str) -> TransformError:
    """The rewrite raises a TransformError containing ``message`` and changes nothing."""
    module = affine.parse(source, "<golden>")
    before = print_module(module)
    with pytest.raises(TransformError, match=message) as info:
        rewrite(module)
    assert print_module(module) == before
    return info.value


COPY = """
func.func @f(%A: memref<100xf32>, %N: index) {
  affine.for %i = 0 to 10 {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %A[%i + 1] : memref<100xf32>
  }
  return
}
"""


def test_unroll_by_a_non_divisor_adds_a_cleanup_loop() -> None:
    check(
        COPY,
        lambda m: unroll_loop(loops(m)[0], 4),
        """
        // CHECK-DAG: #[[P1:map[0-9]*]] = affine_map<(d0) -> (d0 + 1)>
        // CHECK-DAG: #[[P3:map[0-9]*]] = affine_map<(d0) -> (d0 + 3)>
        // CHECK:      affine.for %[[I:.*]] = 0 to 8 step 4 {
        // CHECK-NEXT:   affine.load %arg0[%[[I]]]
        // CHECK-NEXT:   affine.store
        // CHECK-NEXT:   %[[I1:.*]] = affine.apply #[[P1]](%[[I]])
        // CHECK-NEXT:   affine.load %arg0[%[[I1]]]
        // CHECK:        affine.apply #[[P3]](%[[I]])
        // CHECK:      affine.for %{{.*}} = 8 to 10 {
        """,
    )


def test_unroll_with_a_symbolic_trip_count_ends_the_main_loop_at_a_multiple() -> None:
    # The cleanup loop starts no lower than 0: for a negative %N neither loop runs.
    check(
        COPY.replace("0 to 10", "0 to %N"),
        lambda m: unroll_loop(loops(m)[0], 4),
        """
        // CHECK: #[[UB:map[0-9]*]] = affine_map<()[s0] -> ((s0 floordiv 4) * 4)>
        // CHECK: #[[LB:map[0-9]*]] = affine_map<()[s0] -> (0, (s0 floordiv 4) * 4)>
        // CHECK: affine.for %{{.*}} = 0 to #[[UB]]()[%arg1] step 4 {
        // CHECK: affine.for %{{.*}} = max #[[LB]]()[%arg1] to %arg1 {
        """,
    )


def test_unroll_chains_iter_args_and_promotes_a_single_iteration() -> None:
    check(
        """
        func.func @f(%A: memref<100xf32>) -> f32 {
          %z = arith.constant 0.0 : f32
          %r = affine.for %i = 0 to 3 iter_args(%acc = %z) -> f32 {
            %v = affine.load %A[%i] : memref<100xf32>
            %s = arith.addf %acc, %v : f32
            affine.yield %s : f32
          }
          return %r : f32
        }
        """,
        lambda m: unroll_loop(loops(m)[0], 3),
        """
        // CHECK:      %[[C0:.*]] = arith.constant 0 : index
        // CHECK-NEXT: %[[Z:.*]] = arith.constant 0.0
        // CHECK-NEXT: %[[V0:.*]] = affine.load %arg0[%[[C0]]]
        // CHECK-NEXT: %[[S0:.*]] = arith.addf %[[Z]], %[[V0]]
        // CHECK-NEXT: %[[I1:.*]] = affine.apply #map(%[[C0]])
        // CHECK-NEXT: %[[V1:.*]] = affine.load %arg0[%[[I1]]]
        // CHECK-NEXT: %[[S1:.*]] = arith.addf %[[S0]], %[[V1]]
        // CHECK:      %[[S2:.*]] = arith.addf %[[S1]]
        // CHECK-NEXT: return %[[S2]]
        // CHECK-NOT:  affine.for
        """,
    )


def test_unroll_refusals() -> None:
    refuse(COPY, lambda m: unroll_loop(loops(m)[0], 11), "runs only 10 times")
    refuse(COPY, lambda m: unroll_loop(loops(m)[0], 0), "must be positive")
    refuse(
        """
        func.func @f(%A: memref<100xf32>) {
          affine.for %ii = 0 to 96 step 32 {
            affine.for %i = affine_map<(d0) -> (d0)>(%ii) to min affine_map<(d0) -> (d0 + 32, 90)>(%ii) {
              %v = affine.load %A[%i] : memref<100xf32>
              affine.store %v, %A[%i + 1] : memref<100xf32>
            }
          }
          return
        }
        """,
        lambda m: unroll_loop(loops(m)[1], 4),
        "cleanup loop's bounds would not be affine",
    )
    refuse(COPY.replace("0 to 10", "0 to %N"), lambda m: unroll_full(loops(m)[0]), "not constant")


def test_unroll_full_and_up_to() -> None:
    check(COPY, lambda m: unroll_full(loops(m)[0]), "// CHECK-NOT: affine.for")
    check(
        COPY.replace("0 to 10", "0 to 3"),
        lambda m: unroll_up_to(loops(m)[0], 8),
        """
        // CHECK:     affine.store %{{.*}}, %arg0[%[[C0:.*]] + 1]
        // CHECK:     %[[I1:.*]] = affine.apply #map(%[[C0]])
        // CHECK:     affine.store %{{.*}}, %arg0[%[[I1]] + 1]
        // CHECK:     %[[I2:.*]] = affine.apply #map1(%[[C0]])
        // CHECK:     affine.store %{{.*}}, %arg0[%[[I2]] + 1]
        // CHECK-NEXT: return
        """,
    )
    check(
        COPY,
        lambda m: unroll_loop(loops(m)[0], 5, cleanup_unroll=True),
        "// CHECK: affine.for %{{.*}} = 0 to 10 step 5 {",
    )
    check(
        COPY,
        lambda m: unroll_loop(loops(m)[0], 16, cleanup_unroll=True),
        "// CHECK-NOT: affine.for",
    )


REDUCTION_NEST = """
func.func @f(%A: memref<100x100xf32>, %B: memref<100xf32>) -> f32 {
  %z = arith.constant 0.0 : f32
  %t = affine.for %i = 0 to 10 iter_args(%tot = %z) -> f32 {
    %a = affine.load %B[%i] : memref<100xf32>
    %r = affine.for %j = 0 to 20 iter_args(%acc = %a) -> f32 {
      %v = affine.load %A[%i, %j] : memref<100x100xf32>
      %s = arith.addf %acc, %v : f32
      affine.yield %s : f32
    }
    %n = arith.addf %tot, %r : f32
    affine.yield %n : f32
  }
  return %t : f32
}
"""


def test_unroll_and_jam_duplicates_accumulators_and_combines_them() -> None:
    check(
        REDUCTION_NEST,
        lambda m: unroll_and_jam_loop(loops(m)[0], 2),
        """
        // CHECK:      %[[T:.*]]:2 = affine.for %[[I:.*]] = 0 to 10 step 2 iter_args(%[[T0:[^ ]*]] = %cst, %[[T1:[^ ]*]] = %cst)
        // CHECK-NEXT:   %[[A0:.*]] = affine.load %arg1[%[[I]]]
        // CHECK-NEXT:   %[[I1:.*]] = affine.apply #map(%[[I]])
        // CHECK-NEXT:   %[[A1:.*]] = affine.load %arg1[%[[I1]]]
        // CHECK-NEXT:   %[[R:.*]]:2 = affine.for %{{.*}} = 0 to 20 iter_args(%[[C0:.*]] = %[[A0]], %[[C1:.*]] = %[[A1]])
        // CHECK:          affine.yield %{{.*}}, %{{.*}} : f32, f32
        // CHECK:        %[[N0:.*]] = arith.addf %[[T0]], %[[R]]#0
        // CHECK:        %[[N1:.*]] = arith.addf %[[T1]], %[[R]]#1
        // CHECK-NEXT:   affine.yield %[[N0]], %[[N1]] : f32, f32
        // CHECK:      %[[SUM:.*]] = arith.addf %[[T]]#0, %[[T]]#1
        // CHECK-NEXT: return %[[SUM]]
        """,
    )


def test_unroll_and_jam_into_an_invariant_if() -> None:
    source = """
    func.func @f(%A: memref<16x16xf32>, %N: index) {
      affine.for %i = 0 to 8 {
        affine.if affine_set<()[s0] : (s0 - 5 >= 0)>()[%N] {
          affine.for %j = 0 to 16 {
            %v = affine.load %A[%i, %j] : memref<16x16xf32>
            affine.store %v, %A[%j, %i] : memref<16x16xf32>
          }
        }
      }
      return
    }
    """
    checks_jammed = """
        // CHECK:      affine.for %[[I:.*]] = 0 to 8 step 2 {
        // CHECK-NEXT:   affine.if
        // CHECK-NEXT:     affine.for %[[J:.*]] = 0 to 16 {
        // CHECK-NEXT:       affine.load %arg0[%[[I]], %[[J]]]
        // CHECK-NEXT:       affine.store
        // CHECK-NEXT:       %[[I1:.*]] = affine.apply #map(%[[I]])
        // CHECK-NEXT:       affine.load %arg0[%[[I1]], %[[J]]]
    """
    check(source, lambda m: unroll_and_jam_loop(loops(m)[0], 2, jam_into_ifs=True), checks_jammed)
    checks_copied = """
        // CHECK:      affine.for %[[I:.*]] = 0 to 8 step 2 {
        // CHECK-NEXT:   affine.if
        // CHECK-NEXT:     affine.for
        // CHECK:        affine.apply
        // CHECK-NEXT:   affine.if
    """
    check(source, lambda m: unroll_and_jam_loop(loops(m)[0], 2), checks_copied)


def test_unroll_and_jam_of_a_triangle_runs_ramps_under_guards() -> None:
    # copy k of the j loop runs 0 .. i + k: the jammed j loop runs to i + 1 plainly (every
    # copy in range), then the iteration only copy 1 has, each copy under a guard
    triangular = """
    func.func @f(%A: memref<16x16xf32>, %B: memref<16x16xf32>) {
      affine.for %i = 0 to 8 {
        affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
          %v = affine.load %A[%i, %j] : memref<16x16xf32>
          affine.store %v, %B[%j, %i] : memref<16x16xf32>
        }
      }
      return
    }
    """
    checks = """
        // CHECK:      affine.for %[[I:.*]] = 0 to 8 step 2 {
        // CHECK-NEXT:   affine.for %[[J:.*]] = 0 to #{{.*}}(%[[I]]) {
        // CHECK-NEXT:     affine.load %arg0[%[[I]], %[[J]]]
        // CHECK-NEXT:     affine.store
        // CHECK-NEXT:     affine.apply
        // CHECK-NEXT:     affine.load
        // CHECK-NEXT:     affine.store
        // CHECK-NEXT:   }
        // CHECK-NEXT:   affine.for %[[R:.*]] = max #{{.*}}(%[[I]]) to #{{.*}}(%[[I]]) {
        // CHECK-NEXT:     affine.if #{{.*}}(%[[R]], %[[I]]) {
        // CHECK-NEXT:       affine.load %arg0[%[[I]], %[[R]]]
        // CHECK:          affine.apply
        // CHECK-NEXT:     affine.if #{{.*}}(%[[R]], %[[I]]) {
    """
    result = check(triangular, lambda m: unroll_and_jam_loop(loops(m)[0], 2), checks)
    assert affine.check_equivalent(affine.parse(triangular, "<golden>"), result)


def test_unroll_and_jam_refusals() -> None:
    halves = """
    func.func @f(%A: memref<16x16xf32>) {
      affine.for %i = 0 to 8 {
        affine.for %j = 0 to affine_map<(d0) -> (d0 floordiv 2 + 1)>(%i) {
          %v = affine.load %A[%i, %j] : memref<16x16xf32>
          affine.store %v, %A[%j + 8, %i] : memref<16x16xf32>
        }
      }
      return
    }
    """
    refuse(
        halves,
        lambda m: unroll_and_jam_loop(loops(m)[0], 2),
        "vary with the unrolled loop other than by a constant per iteration",
    )
    refuse(
        REDUCTION_NEST.replace("%n = arith.addf %tot, %r", "%n = arith.subf %r, %tot"),
        lambda m: unroll_and_jam_loop(loops(m)[0], 2),
        "not all reductions",
    )
    refuse(REDUCTION_NEST, lambda m: unroll_and_jam_loop(loops(m)[0], 11), "runs only 10 times")
    # j from i step 2: copy 0 runs even j, copy 1 odd ones; no loop of step 2 runs both
    # (jammed, copy 0 ran 0, 1, 3, 5 instead of 0, 2, 4, 6)
    interleaved = """
    func.func @f(%A: memref<15x15xf32>) {
      affine.for %i = 0 to 4 {
        affine.for %j = affine_map<(d0) -> (d0)>(%i) to 7 step 2 {
          %v = affine.load %A[%i + 4, %j + 4] : memref<15x15xf32>
          affine.store %v, %A[%j, %i] : memref<15x15xf32>
        }
      }
      return
    }
    """
    refuse(
        interleaved,
        lambda m: unroll_and_jam_loop(loops(m)[0], 2),
        r"apart by other than a multiple of its step \(2\)",
    )
    # from 2i: the copies start 2 apart, on one lattice, and jam
    aligned = interleaved.replace("(d0) -> (d0)", "(d0) -> (d0 * 2)").replace("to 7", "to 9")
    result = affine.parse(aligned, "<golden>")
    unroll_and_jam_loop(loops(result)[0], 2)
    assert affine.check_equivalent(affine.parse(aligned, "<golden>"), result)


@pytest.mark.parametrize(
    "lower, upper",
    [
        # copies end at i + 1, i + 2, i + 3; the loop past the first end must resume on the
        # lattice from 0 (it resumed at i + 1: copy 1 of i = 0 stored A[1][1], not in the
        # original, whose row 1 runs j = 0 only)
        ("0", "(d0) -> (d0 + 1)"),
        ("0", "(d0) -> (d0 * 2 + 3)"),
        # and from 2i, copies 2 apart: ramp in, steady, ramp out all on one lattice
        ("(d0) -> (d0 * 2)", "(d0) -> (d0 * 3 + 1)"),
    ],
)
@pytest.mark.parametrize("factor", [2, 3])
def test_unroll_and_jam_keeps_a_stepped_inner_loop_on_its_lattice(
    lower: str, upper: str, factor: int
) -> None:
    bound = {b: b if b == "0" else f"affine_map<{b}>(%i)" for b in (lower, upper)}
    text = f"""
    func.func @f(%A: memref<8x24xi32>) {{
      %c = arith.constant 1 : i32
      affine.for %i = 0 to 6 {{
        affine.for %j = {bound[lower]} to {bound[upper]} step 2 {{
          %v = affine.load %A[%i, %j] : memref<8x24xi32>
          %w = arith.addi %v, %c : i32
          affine.store %w, %A[%i, %j] : memref<8x24xi32>
        }}
      }}
      return
    }}
    """
    result = affine.parse(text, "<golden>")
    unroll_and_jam_loop(loops(result)[0], factor)
    for backend in ("interp", "c"):
        outcome = affine.check_equivalent(affine.parse(text, "<golden>"), result, backend=backend)
        assert outcome, str(outcome)


TRIANGLE = """
func.func @f(%A: memref<40x40xf32>) {
  affine.for %i = 0 to 40 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %v = affine.load %A[%i, %j] : memref<40x40xf32>
      affine.store %v, %A[%j, %i] : memref<40x40xf32>
    }
  }
  return
}
"""


def test_tiling_a_rectangular_band_is_mlirs() -> None:
    check(
        """
        func.func @f(%A: memref<?x?xf32>, %N: index) {
          affine.for %i = 0 to %N {
            affine.for %j = 0 to 50 {
              affine.for %k = 0 to 8 {
                %v = affine.load %A[%i, %j] : memref<?x?xf32>
                affine.store %v, %A[%j, %k] : memref<?x?xf32>
              }
            }
          }
          return
        }
        """,
        lambda m: tile_perfect_band(get_perfect_band(loops(m)[0]), [32, 8, 16]),
        """
        // CHECK-DAG: #[[ID:map[0-9]*]] = affine_map<(d0) -> (d0)>
        // CHECK-DAG: #[[MINN:map[0-9]*]] = affine_map<(d0)[s0] -> (d0 + 32, s0)>
        // CHECK-DAG: #[[MIN50:map[0-9]*]] = affine_map<(d0) -> (d0 + 8, 50)>
        // CHECK-DAG: #[[PLUS8:map[0-9]*]] = affine_map<(d0) -> (d0 + 8)>
        // CHECK:      affine.for %[[TI:.*]] = 0 to %arg1 step 32 {
        // CHECK-NEXT:   affine.for %[[TJ:.*]] = 0 to 50 step 8 {
        // CHECK-NEXT:     affine.for %[[TK:.*]] = 0 to 8 step 16 {
        // CHECK-NEXT:       affine.for %{{.*}} = #[[ID]](%[[TI]]) to min #[[MINN]](%[[TI]])[%arg1] {
        // CHECK-NEXT:         affine.for %{{.*}} = #[[ID]](%[[TJ]]) to min #[[MIN50]](%[[TJ]]) {
        // CHECK-NEXT:           affine.for %{{.*}} = #[[ID]](%[[TK]]) to #[[PLUS8]](%[[TK]]) {
        """,
    )


def test_tiling_a_triangular_band_clips_the_intra_tile_loops() -> None:
    check(
        TRIANGLE,
        lambda m: tile_perfect_band(get_perfect_band(loops(m)[0]), [8, 4]),
        """
        // CHECK-DAG: #[[COVER:map[0-9]*]] = affine_map<(d0) -> (d0 + 8)>
        // CHECK-DAG: #[[ID:map[0-9]*]] = affine_map<(d0) -> (d0)>
        // CHECK-DAG: #[[CLIP:map[0-9]*]] = affine_map<(d0, d1) -> (d1 + 4, d0 + 1)>
        // CHECK:      affine.for %[[TI:.*]] = 0 to 40 step 8 {
        // CHECK-NEXT:   affine.for %[[TJ:.*]] = 0 to #[[COVER]](%[[TI]]) step 4 {
        // CHECK-NEXT:     affine.for %[[I:.*]] = #[[ID]](%[[TI]]) to #[[COVER]](%[[TI]]) {
        // CHECK-NEXT:       affine.for %{{.*}} = #[[ID]](%[[TJ]]) to min #[[CLIP]](%[[I]], %[[TJ]]) {
        """,
    )


def test_tiling_with_bounds_of_either_sign_and_a_floordiv() -> None:
    check(
        """
        func.func @f(%A: memref<40x40xf32>, %N: index) {
          affine.for %i = 0 to %N {
            affine.for %j = affine_map<(d0) -> (d0 floordiv 2)>(%i) to affine_map<(d0)[s0] -> (s0 - d0)>(%i)[%N] {
              %v = affine.load %A[%i, %j] : memref<40x40xf32>
              affine.store %v, %A[%j, %i] : memref<40x40xf32>
            }
          }
          return
        }
        """,
        lambda m: tile_perfect_band(get_perfect_band(loops(m)[0]), [16, 8]),
        """
        // CHECK-DAG: #[[LOW:map[0-9]*]] = affine_map<(d0) -> (d0 floordiv 2)>
        // CHECK-DAG: #[[HIGH:map[0-9]*]] = affine_map<(d0)[s0] -> (-d0 + s0)>
        // CHECK-DAG: #[[MAX:map[0-9]*]] = affine_map<(d0, d1) -> (d1, d0 floordiv 2)>
        // CHECK-DAG: #[[MIN:map[0-9]*]] = affine_map<(d0, d1)[s0] -> (d1 + 8, -d0 + s0)>
        // CHECK:      affine.for %[[TI:.*]] = 0 to %arg1 step 16 {
        // CHECK-NEXT:   affine.for %[[TJ:.*]] = #[[LOW]](%[[TI]]) to #[[HIGH]](%[[TI]])[%arg1] step 8 {
        // CHECK-NEXT:     affine.for %[[I:.*]] = #{{.*}}(%[[TI]]) to min #{{.*}}(%[[TI]])[%arg1] {
        // CHECK-NEXT:       affine.for %{{.*}} = max #[[MAX]](%[[I]], %[[TJ]]) to min #[[MIN]](%[[I]], %[[TJ]])[%arg1] {
        """,
    )


def test_separating_full_tiles_of_a_triangular_band() -> None:
    check(
        TRIANGLE,
        lambda m: tile_perfect_band(get_perfect_band(loops(m)[0]), [8, 8], separate=True),
        """
        // CHECK-DAG: #[[SET:set[0-9]*]] = affine_set<(d0, d1) : (d0 - d1 - 7 >= 0)>
        // CHECK:      affine.for %[[TI:.*]] = 0 to 40 step 8 {
        // CHECK-NEXT:   affine.for %[[TJ:.*]] = 0 to #{{.*}}(%[[TI]]) step 8 {
        // CHECK-NEXT:     affine.if #[[SET]](%[[TI]], %[[TJ]]) {
        // CHECK-NEXT:       affine.for %{{.*}} = #{{.*}}(%[[TI]]) to #{{.*}}(%[[TI]]) {
        // CHECK-NEXT:         affine.for %{{.*}} = #{{.*}}(%[[TJ]]) to #{{.*}}(%[[TJ]]) {
        // CHECK:          } else {
        // CHECK-NEXT:       affine.for
        // CHECK-NEXT:         affine.for %{{.*}} to min
        """,
    )


def test_separating_full_tiles_needs_a_constant_size_tile() -> None:
    refuse(
        COPY.replace("0 to 10", "0 to %N"),
        lambda m: separate_full_tiles(loops(m)),
        "constant distance",
    )
    assert separate_full_tiles(loops(affine.parse(COPY))) == []  # a constant loop is one full tile
    tiled = check(
        COPY,
        lambda m: tile_perfect_band([loops(m)[0]], [4]),
        "// CHECK: affine.for %{{.*}} = #{{.*}}(%{{.*}}) to min",
    )
    assert separate_full_tiles(loops(tiled)[1:]) != []
    assert "affine.if" in print_module(tiled)


def test_parametric_tiling_uses_the_size_values_as_symbols() -> None:
    check(
        """
        func.func @f(%t: index, %A: memref<?xf32>, %N: index) {
          affine.for %i = 2 to %N {
            %v = affine.load %A[%i] : memref<?xf32>
            affine.store %v, %A[%i] : memref<?xf32>
          }
          return
        }
        """,
        lambda m: tile_perfect_band(loops(m), [m.functions()[0].regions[0].blocks[0].arguments[0]]),
        """
        // CHECK-DAG: #[[TILES:map[0-9]*]] = affine_map<()[s0, s1] -> ((s0 - 2) ceildiv s1 + 2)>
        // CHECK-DAG: #[[LB:map[0-9]*]] = affine_map<(d0)[s0] -> ((d0 - 2) * s0 + 2)>
        // CHECK-DAG: #[[UB:map[0-9]*]] = affine_map<(d0)[s0, s1] -> ((d0 - 2) * s1 + s1 + 2, s0)>
        // CHECK:      affine.for %[[T:.*]] = 2 to #[[TILES]]()[%arg2, %arg0] {
        // CHECK-NEXT:   affine.for %{{.*}} = #[[LB]](%[[T]])[%arg0] to min #[[UB]](%[[T]])[%arg2, %arg0] {
        """,
    )


def test_tiling_refusals() -> None:
    refuse(
        TRIANGLE.replace("(d0) -> (d0 + 1)", "(d0) -> (d0 mod 7 + 30)"),
        lambda m: tile_perfect_band(get_perfect_band(loops(m)[0]), [8, 8]),
        "not monotone",
    )
    refuse(
        TRIANGLE.replace(
            "affine.for %j = 0 to", "affine.for %j = max affine_map<(d0) -> (d0 - 9, 0)>(%i) to"
        ).replace("(%i) {", "(%i) step 2 {"),
        lambda m: tile_perfect_band(get_perfect_band(loops(m)[0]), [8, 8]),
        "align its tiles",
    )
    refuse(
        REDUCTION_NEST,
        lambda m: tile_perfect_band([loops(m)[1]], [4]),
        "iter_args",
    )
    refuse(
        TRIANGLE.replace("func.func @f(", "func.func @f(%s: index, "),
        lambda m: tile_perfect_band(
            get_perfect_band(loops(m)[0]), [m.functions()[0].regions[0].blocks[0].arguments[0]] * 2
        ),
        "parametrically",
    )
    refuse(TRIANGLE, lambda m: tile_perfect_band(get_perfect_band(loops(m)[0]), [8]), "tile sizes")
    refuse(
        NEST3,
        lambda m: tile_perfect_band(loops(m)[1:2], [ForOp(loops(m)[0]).induction_var]),
        "valid as an affine symbol",
    )


NEST3 = """
func.func @f(%A: memref<40x40xf32>, %I: memref<40xindex>) {
  affine.for %i = 0 to 10 {
    affine.for %j = 1 to 20 {
      affine.for %k = 0 to 30 {
        %v = affine.load %A[%i, %j + %k] : memref<40x40xf32>
        affine.store %v, %A[%k, %i] : memref<40x40xf32>
      }
    }
  }
  return
}
"""


def test_permutation_and_interchange() -> None:
    check(
        NEST3,
        lambda m: permute_loops(get_perfect_band(loops(m)[0]), [2, 0, 1]),
        """
        // CHECK:      affine.for %[[J:.*]] = 1 to 20 {
        // CHECK-NEXT:   affine.for %[[K:.*]] = 0 to 30 {
        // CHECK-NEXT:     affine.for %[[I:.*]] = 0 to 10 {
        // CHECK-NEXT:       affine.load %arg0[%[[I]], %[[J]] + %[[K]]]
        """,
    )
    check(
        NEST3,
        lambda m: interchange_loops(loops(m)[0], loops(m)[2]),
        """
        // CHECK:      affine.for %{{.*}} = 0 to 30 {
        // CHECK-NEXT:   affine.for %{{.*}} = 1 to 20 {
        // CHECK-NEXT:     affine.for %{{.*}} = 0 to 10 {
        """,
    )
    refuse(
        TRIANGLE, lambda m: permute_loops(get_perfect_band(loops(m)[0]), [1, 0]), "moves inside it"
    )
    refuse(
        NEST3,
        lambda m: permute_loops(get_perfect_band(loops(m)[0]), [0, 0, 1]),
        "not a permutation",
    )


def test_skew_shifts_bounds_and_composes_uses() -> None:
    check(
        NEST3.replace(
            "affine.store %v, %A[%k, %i] : memref<40x40xf32>",
            "affine.store %j, %I[%k] : memref<40xindex>",
        ),
        lambda m: skew_band(loops(m)[:2], [2]),
        """
        // CHECK-DAG: #[[LB:map[0-9]*]] = affine_map<(d0) -> (d0 * 2 + 1)>
        // CHECK-DAG: #[[UB:map[0-9]*]] = affine_map<(d0) -> (d0 * 2 + 20)>
        // CHECK-DAG: #[[OLD:map[0-9]*]] = affine_map<(d0, d1) -> (d0 - d1 * 2)>
        // CHECK:      affine.for %[[I:.*]] = 0 to 10 {
        // CHECK-NEXT:   affine.for %[[J:.*]] = #[[LB]](%[[I]]) to #[[UB]](%[[I]]) {
        // CHECK-NEXT:     %[[OLDJ:.*]] = affine.apply #[[OLD]](%[[J]], %[[I]])
        // CHECK-NEXT:     affine.for %[[K:.*]] = 0 to 30 {
        // CHECK-NEXT:       affine.load %arg0[%[[I]], %[[I]] * -2 + %[[K]] + %[[J]]]
        // CHECK-NEXT:       affine.store %[[OLDJ]], %arg1[%[[K]]]
        """,
    )
    refuse(NEST3, lambda m: skew_band([loops(m)[1], loops(m)[0]], [1]), "must enclose")


def test_normalize_with_and_without_composition() -> None:
    source = COPY.replace("0 to 10", "2 to 50 step 3")
    check(
        source,
        normalize_first,
        """
        // CHECK:      affine.for %[[I:.*]] = 0 to 16 {
        // CHECK-NEXT:   %[[OLD:.*]] = affine.apply #map(%[[I]])
        // CHECK-NEXT:   affine.load %arg0[%[[OLD]]]
        """,
    )
    check(
        source,
        lambda m: normalize_loop(loops(m)[0], compose=True),
        """
        // CHECK:      affine.for %[[I:.*]] = 0 to 16 {
        // CHECK-NEXT:   affine.load %arg0[%[[I]] * 3 + 2]
        // CHECK-NEXT:   affine.store %{{.*}}, %arg0[%[[I]] * 3 + 3]
        """,
    )


def normalize_first(module: Module) -> None:
    normalize_loop(loops(module)[0])


def test_promote_single_iterations() -> None:
    check(
        """
        func.func @f(%A: memref<40xf32>, %N: index) -> f32 {
          %z = arith.constant 0.0 : f32
          %r = affine.for %i = 5 to 6 iter_args(%a = %z) -> f32 {
            %v = affine.load %A[%i] : memref<40xf32>
            %s = arith.addf %a, %v : f32
            affine.yield %s : f32
          }
          affine.for %i = affine_map<()[s0] -> (s0 * 2)>()[%N] to affine_map<()[s0] -> (s0 * 2 + 1)>()[%N] {
            affine.store %r, %A[%i] : memref<40xf32>
          }
          affine.for %i = 0 to 2 {
            affine.store %r, %A[%i] : memref<40xf32>
          }
          return %r : f32
        }
        """,
        lambda m: [promote_if_single_iteration(loop) for loop in loops(m)],
        """
        // CHECK:      %[[C5:.*]] = arith.constant 5 : index
        // CHECK:      %[[V:.*]] = affine.load %arg0[%[[C5]]]
        // CHECK-NEXT: %[[S:.*]] = arith.addf %{{.*}}, %[[V]]
        // CHECK-NEXT: %[[I:.*]] = affine.apply #map()[%arg1]
        // CHECK-NEXT: affine.store %[[S]], %arg0[%[[I]]]
        // CHECK-NEXT: affine.for %{{.*}} = 0 to 2 {
        // CHECK:      return %[[S]]
        """,
    )


def test_parallelize_with_a_reduction() -> None:
    check(
        """
        func.func @f(%A: memref<100xf32>, %N: index) -> f32 {
          %z = arith.constant 0.0 : f32
          %r = affine.for %i = max affine_map<()[s0] -> (s0, 2)>()[%N] to 100 step 3 iter_args(%acc = %z) -> f32 {
            %v = affine.load %A[%i] : memref<100xf32>
            %s = arith.addf %v, %acc : f32
            affine.yield %s : f32
          }
          return %r : f32
        }
        """,
        lambda m: to_parallel(loops(m)[0]),
        """
        // CHECK:      %[[Z:.*]] = arith.constant
        // CHECK-NEXT: %[[P:.*]] = affine.parallel (%[[I:.*]]) = (max(symbol(%arg1), 2)) to (100) step (3) reduce ("addf") -> (f32) {
        // CHECK-NEXT:   %[[V:.*]] = affine.load %arg0[%[[I]]]
        // CHECK-NEXT:   affine.yield %[[V]] : f32
        // CHECK-NEXT: }
        // CHECK-NEXT: %[[R:.*]] = arith.addf %[[Z]], %[[P]] : f32
        // CHECK-NEXT: return %[[R]]
        """,
    )


def test_parallelize_refusals() -> None:
    maxsi = """
    func.func @f(%A: memref<100xi32>) -> i32 {
      %z = arith.constant 0 : i32
      %r = affine.for %i = 0 to 100 iter_args(%acc = %z) -> i32 {
        %v = affine.load %A[%i] : memref<100xi32>
        %s = arith.maxsi %acc, %v : i32
        affine.yield %s : i32
      }
      return %r : i32
    }
    """
    refuse(maxsi, lambda m: to_parallel(loops(m)[0]), "no 'maxs' reduction for i32")
    addi = maxsi.replace("arith.maxsi", "arith.addi")
    refuse(addi, lambda m: to_parallel(loops(m)[0], reductions=False), "iter_args")
    refuse(
        addi.replace("%s = arith.addi %acc, %v", "%s = arith.subi %acc, %v"),
        lambda m: to_parallel(loops(m)[0]),
        "not all reductions",
    )


def test_errors_carry_the_location_of_the_loop() -> None:
    error = refuse(COPY, lambda m: unroll_loop(loops(m)[0], 20), "runs only")
    assert error.render().startswith("<golden>:3:3: error: cannot unroll by 20")


def test_bands() -> None:
    module = affine.parse(
        """
        func.func @f(%A: memref<40x40xf32>) {
          affine.for %i = 0 to 10 {
            affine.for %j = 0 to 20 {
              affine.for %k = 0 to 30 {
                affine.store %v, %A[%k, %j] : memref<40x40xf32>
              }
              affine.store %v, %A[%i, %j] : memref<40x40xf32>
            }
          }
          affine.for %i = 0 to 10 {
            affine.for %j = 0 to 20 {
              affine.store %v, %A[%i, %j] : memref<40x40xf32>
            }
          }
          return
        }
        """.replace(
            "func.func @f(%A: memref<40x40xf32>) {",
            "func.func @f(%A: memref<40x40xf32>, %v: f32) {",
        )
    )
    first, second = get_tileable_bands(module.functions()[0])
    assert first == loops(module)[:2] and second == loops(module)[3:]
    assert get_perfect_band(loops(module)[1]) == [loops(module)[1]]
