"""Schedules applied (poly/schedule_apply.py, transforms/schedule.py): new modules that
compute the original's results (interpreter and C backend), the input untouched, full tiles
apart on request, parametric tiles, parallel loops; the printed schedule applied unchanged
on the whole corpus; mlir-opt 22 accepts every output."""

from __future__ import annotations

import warnings
from pathlib import Path

import islpy as isl
import numpy as np
import pytest
from conftest import CORPUS, run_mlir_opt
from schedule_programs import IMPERFECT, STENCIL

import affine
from affine.errors import PolyError
from affine.exec.elements import ExecutionError
from affine.exec.equivalence import check_equivalent
from affine.ir.core import Module
from poly.deps import AnalysisWarning
from poly.schedule import Schedule
from poly.schedule_program import ScheduleError
from transforms.loop_utils import regenerate_band
from transforms.schedule import apply_schedule, schedule_of

KERNELS = CORPUS / "kernels"


def kernel(name: str) -> Module:
    return affine.parse((KERNELS / f"{name}.mlir").read_text(), f"{name}.mlir")


def assert_equivalent(original: Module, result: Module, *args, backends=("interp", "c")) -> None:
    again = affine.parse(affine.print_module(result), "result.mlir")  # prints and reads back
    for backend in backends:
        outcome = check_equivalent(
            original.functions()[0], again.functions()[0], *args, backend=backend
        )
        assert outcome, f"{backend}: {outcome}"


def test_seidel_skewed_then_tiled_in_three_dimensions() -> None:
    module = kernel("seidel_2d")
    before = affine.print_module(module)
    tiled = (
        schedule_of(module)
        .skew("%i", {"%t": 1})
        .skew("%j", {"%t": 2, "%i": 1})
        .tile(["%t", "%i", "%j"], [4, 4, 4])
    )
    result = apply_schedule(module, tiled)
    assert affine.print_module(module) == before  # the input is untouched
    assert_equivalent(module, result)
    loops = [op for op in result.walk() if op.name == "affine.for"]
    assert [loop.properties["step"].value for loop in loops] == [4, 4, 4, 1, 1, 1]


def test_jacobi_time_tiled() -> None:
    module = kernel("jacobi_2d")
    tiled = (
        schedule_of(module)
        .fuse("%i@6", "%i@21")
        .fuse("%j@7", "%j@22")
        .skew("%i@6", {"%t": 2})
        .skew("%j@7", {"%t": 2})
        .shift("%i@6", 1, ["S1"])
        .shift("%j@7", 1, ["S1"])
        .tile(["%t", "%i@6", "%j@7"], [4, 8, 8])
    )
    assert_equivalent(module, apply_schedule(module, tiled))


MATMUL = """\
func.func @mm(%A: memref<10x12xf32>, %B: memref<12x9xf32>, %C: memref<10x9xf32>) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 9 {
      affine.for %k = 0 to 12 {
        %a = affine.load %A[%i, %k] : memref<10x12xf32>
        %b = affine.load %B[%k, %j] : memref<12x9xf32>
        %c = affine.load %C[%i, %j] : memref<10x9xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<10x9xf32>
      }
    }
  }
  return
}
"""


def test_full_tiles_apart_and_parallel_tile_loops() -> None:
    module = affine.parse(MATMUL, "mm.mlir")
    tiled = schedule_of(module).tile(["%i", "%j"], [4, 4]).parallel("%i.tile")
    result = apply_schedule(module, tiled, separate=True)
    # the last, partial tile of %i runs once: no loop of %i.tile there, and the loop of
    # %j.tile below it is not the one marked parallel
    assert affine.print_module(result) == (
        """\
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> (d0 + 4)>
#map2 = affine_map<(d0) -> (9, d0 + 4)>
module {
  func.func @mm(%arg0: memref<10x12xf32>, %arg1: memref<12x9xf32>, %arg2: memref<10x9xf32>) {
    affine.parallel (%arg3) = (0) to (7) step (4) {
      affine.for %arg4 = 0 to 6 step 4 {
        affine.for %arg5 = #map(%arg3) to #map1(%arg3) {
          affine.for %arg6 = #map(%arg4) to #map1(%arg4) {
            affine.for %arg7 = 0 to 12 {
              %0 = affine.load %arg0[%arg5, %arg7] : memref<10x12xf32>
              %1 = affine.load %arg1[%arg7, %arg6] : memref<12x9xf32>
              %2 = affine.load %arg2[%arg5, %arg6] : memref<10x9xf32>
              %3 = arith.mulf %0, %1 : f32
              %4 = arith.addf %2, %3 : f32
              affine.store %4, %arg2[%arg5, %arg6] : memref<10x9xf32>
            }
          }
        }
      }
      affine.for %arg4 = #map(%arg3) to #map1(%arg3) {
        affine.for %arg5 = 0 to 12 {
          %c8 = arith.constant 8 : index
          %0 = affine.load %arg0[%arg4, %arg5] : memref<10x12xf32>
          %1 = affine.load %arg1[%arg5, %c8] : memref<12x9xf32>
          %2 = affine.load %arg2[%arg4, %c8] : memref<10x9xf32>
          %3 = arith.mulf %0, %1 : f32
          %4 = arith.addf %2, %3 : f32
          affine.store %4, %arg2[%arg4, %c8] : memref<10x9xf32>
        }
      }
    }
    affine.for %arg3 = 0 to 9 step 4 {
      affine.for %arg4 = 8 to 10 {
        affine.for %arg5 = #map(%arg3) to min #map2(%arg3) {
          affine.for %arg6 = 0 to 12 {
            %0 = affine.load %arg0[%arg4, %arg6] : memref<10x12xf32>
            %1 = affine.load %arg1[%arg6, %arg5] : memref<12x9xf32>
            %2 = affine.load %arg2[%arg4, %arg5] : memref<10x9xf32>
            %3 = arith.mulf %0, %1 : f32
            %4 = arith.addf %2, %3 : f32
            affine.store %4, %arg2[%arg4, %arg5] : memref<10x9xf32>
          }
        }
      }
    }
    return
  }
}

"""
    )
    assert_equivalent(module, result)


TRANSPOSE = """\
func.func @transpose(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %N: index, %S: index) {
  affine.for %i = 0 to %N {
    affine.for %j = 0 to %N {
      %v = affine.load %A[%i, %j] : memref<?x?xf32>
      affine.store %v, %B[%j, %i] : memref<?x?xf32>
    }
  }
  return
}
"""


def test_full_tiles_apart_below_an_outer_loop() -> None:
    # the tiled band lies below %t: its isolate option names %t (set once the tree is whole)
    module = affine.parse(
        """\
func.func @f(%A: memref<10x10x10xf32>) {
  affine.for %t = 0 to 10 {
    affine.for %i = 0 to 10 {
      affine.for %j = 0 to 10 {
        %v = affine.load %A[%t, %i, %j] : memref<10x10x10xf32>
        %w = arith.addf %v, %v : f32
        affine.store %w, %A[%t, %i, %j] : memref<10x10x10xf32>
      }
    }
  }
  return
}
""",
        "f.mlir",
    )
    tiled = schedule_of(module).tile(["%i", "%j"], [4, 4]).parallel("%i.tile")
    result = apply_schedule(module, tiled, separate=True)
    loops = [op for op in result.walk() if op.name in ("affine.for", "affine.parallel")]
    # %t; the full tiles (%i.tile in parallel, %j.tile, %i, %j) and the partial ones of %j
    # (%i, %j); the partial ones of %i (%j.tile, %i, %j)
    assert [loop.name.removeprefix("affine.") for loop in loops] == (
        ["for", "parallel"] + ["for"] * 8
    )
    assert_equivalent(module, result)


# %t runs once, and ISL leaves a loop of one iteration out: the loop below it, which carries
# the dependence of %A[%i] on %A[%i - 1], is the first loop under the parallel mark of %t
ONCE = """\
func.func @f(%A: memref<9xf32>) {
  affine.for %t = 1 to 2 {
    affine.for %i = 1 to 9 {
      %v = affine.load %A[%i - 1] : memref<9xf32>
      affine.store %v, %A[%i] : memref<9xf32>
    }
  }
  return
}
"""


def test_a_parallel_loop_of_one_iteration_makes_no_other_loop_parallel() -> None:
    module = affine.parse(ONCE, "once.mlir")
    marked = schedule_of(module).parallel("%t")
    assert marked.check()
    result = apply_schedule(module, marked)
    assert [op.name for op in result.walk() if op.name.startswith("affine.")] == [
        "affine.for",
        "affine.load",
        "affine.store",
        "affine.yield",
    ]
    assert_equivalent(module, result)


def test_parallel_loops_below_a_parameter_named_like_an_iterator() -> None:
    # %c0 is the ISL parameter c0, the name ISL gives the loop at depth 0 by default: the
    # bound of %j inside that loop must still read the parameter
    module = affine.parse(
        """\
func.func @f(%A: memref<8x8xf32>, %c0: index) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to min affine_map<()[s0] -> (s0, 8)>()[%c0] {
      %v = affine.load %A[%i, %j] : memref<8x8xf32>
      %w = arith.addf %v, %v : f32
      affine.store %w, %A[%i, %j] : memref<8x8xf32>
    }
  }
  return
}
""",
        "c0.mlir",
    )
    marked = schedule_of(module).parallel("%j")
    result = apply_schedule(module, marked)
    loops = [op.name for op in result.walk() if op.name in ("affine.for", "affine.parallel")]
    assert loops == ["affine.for", "affine.parallel"]
    assert_equivalent(module, result)


def test_parametric_tiles() -> None:
    module = affine.parse(TRANSPOSE, "t.mlir")
    tiled = schedule_of(module).tile(["%i", "%j"], ["%S", "%S"])
    result = apply_schedule(module, tiled)
    steps = [op.properties["step"].value for op in result.walk() if op.name == "affine.for"]
    assert steps == [1, 1, 1, 1]  # tile loops count tiles, as tilePerfectlyNestedParametric
    a = np.random.default_rng(1).random((7, 7)).astype(np.float32)
    b = np.zeros((7, 7), np.float32)
    for size in (1, 2, 3, 8):
        assert_equivalent(module, result, a, b, 7, size, backends=("interp",))
    assert_equivalent(module, result, a, b, 7, 3, backends=("c",))
    with pytest.raises(ScheduleError) as caught:
        tiled.apply()
    assert caught.value.message == (
        "a band tiled with SSA-value sizes is generated by transforms.apply_schedule (the "
        "parametric tiling rewrite lives in transforms)"
    )


def test_parametric_tiles_of_a_skewed_band_are_refused() -> None:
    module = affine.parse(STENCIL, "s.mlir")
    tiled = schedule_of(module).skew("%j", {"%i": 1}).tile(["%i", "%j"], ["%S", "%S"])
    assert tiled.check()
    with pytest.raises(ScheduleError) as caught:
        apply_schedule(module, tiled)
    assert caught.value.render() == (
        "s.mlir:1:1: error: cannot tile with parametric sizes: cannot tile parametrically a "
        "band whose bounds depend on its own loops\n"
        "func.func @s(%A: memref<?x?xf32>, %N: index, %T: index, %S: index) {\n^"
    )


STENCIL_1D = """\
func.func @stencil(%A: memref<10x10xf32>) {
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 9 {
      %a = affine.load %A[%i - 1, 0] : memref<10x10xf32>
      %b = affine.load %A[%i + 1, 0] : memref<10x10xf32>
      %c = arith.addf %a, %b : f32
      affine.store %c, %A[%i, 0] : memref<10x10xf32>
    }
  }
  return
}
"""


def test_an_illegal_schedule_is_refused_and_nothing_changes() -> None:
    module = affine.parse(STENCIL_1D, "st.mlir")
    before = affine.print_module(module)
    with pytest.raises(ScheduleError) as caught:
        apply_schedule(module, "{ S0[t, i] -> [t, -i] }")
    assert caught.value.render() == (
        "st.mlir:4:12: error: illegal schedule for @stencil: the RAW dependence from S0 "
        "(affine.store %c, %A[%i, 0] at st.mlir:7:7) to S0 (affine.load %A[%i - 1, 0] at "
        "st.mlir:4:12) is reversed (S0[t = 3, i = 7] and S0[t = 3, i = 8], distance (0, -1) "
        "on %t, c0)\n"
        "      %a = affine.load %A[%i - 1, 0] : memref<10x10xf32>\n"
        "           ^"
    )
    assert affine.print_module(module) == before
    reversed_order = schedule_of(module).reverse("%i")
    with pytest.raises(ScheduleError):
        reversed_order.apply()  # the value checks before it applies, too
    unchecked = reversed_order.apply(checked=False)  # the code of an illegal order, asked for
    assert not check_equivalent(module.functions()[0], unchecked.functions()[0])
    assert affine.print_module(module) == before


def test_maps_from_another_islpy_context() -> None:
    module = affine.parse(STENCIL_1D, "st.mlir")
    foreign = isl.UnionMap.read_from_str(isl.Context(), "{ S0[t, i] -> [t, i] }")
    assert affine.print_module(apply_schedule(module, foreign)) == affine.print_module(module)
    # the band rewrite (a rewrite: legality is its caller's) reads them too
    copy = module.clone()
    band = [op for op in copy.walk() if op.name == "affine.for"]
    regenerate_band(band, isl.Map.read_from_str(isl.Context(), "{ [t, i] -> [t, i] }"))
    assert affine.print_module(copy) == affine.print_module(module)


def test_reductions_guards_and_recomputed_values_move_with_their_statements() -> None:
    module = affine.parse(IMPERFECT, "f.mlir")
    s = schedule_of(module)
    assert str(s) == (
        "{ S0[i] -> [0, i, 0]; S1[i] -> [0, i, 1]; S2[i] -> [0, i, 2]; S3[i] -> [0, i, 3] }"
    )
    distributed = s.distribute("%i", [["S0", "S1", "S3"], ["S2"]]).reverse("%i.2")
    assert distributed.check()
    assert_equivalent(module, apply_schedule(module, distributed))
    assert not s.reverse("%i").check()


def test_the_printed_schedule_applied_is_the_source() -> None:
    # (lu's first outer iteration runs no statement: the generated loop starts at 1)
    for name in ("seidel_2d", "jacobi_2d", "gemm", "syrk", "cholesky", "fdtd_2d", "trmm"):
        module = kernel(name)
        again = apply_schedule(module, str(schedule_of(module)))
        assert affine.print_module(again) == affine.print_module(module), name


def _corpus() -> list[Path]:
    return sorted(p for p in CORPUS.rglob("*.mlir") if "invalid" not in p.parts[-2])


def _round_trips() -> tuple[list[Module], dict[str, int]]:
    """Every corpus function that verifies: its printed schedule applied, checked to run
    as the original does where it runs; the counts of what happened."""
    outputs: list[Module] = []
    counts = {"same results": 0, "not runnable": 0, "refused": 0}
    for path in _corpus():
        try:
            module = affine.parse(path.read_text(encoding="utf-8"), str(path))
        except PolyError:
            continue
        for function in module.functions():
            if not (function.regions and function.regions[0].blocks):
                continue
            try:
                s = Schedule.of(function)
            except ScheduleError:
                counts["refused"] += 1
                continue
            again = s.replace(str(s))
            assert str(again) == str(s), path
            result = apply_schedule(module, again)
            outputs.append(result)
            reread = affine.parse(affine.print_module(result), "result.mlir")
            name = function.properties["sym_name"].value
            if _instances(s) > 200_000:  # passes/matmul_1024 would run for hours
                counts["not runnable"] += 1
                continue
            try:
                outcome = check_equivalent(function, reread.function(name))
            except ExecutionError:
                counts["not runnable"] += 1
                continue
            assert outcome, f"{path} @{name}: {outcome}"
            counts["same results"] += 1
    return outputs, counts


def _instances(s: Schedule) -> int:
    """How many statement instances run (for parameters: at most a few, as the random
    inputs of ``check_equivalent`` choose them)."""
    total = 0
    for st in s.statements:
        domain = st.domain
        if domain.dim(isl.dim_type.param):
            domain = domain.intersect_params(_small_params(domain))
        total += domain.count_val().to_python()
    return total


def _small_params(domain: isl.Set) -> isl.Set:
    params = isl.Set.universe(domain.get_space().params())
    for k in range(domain.dim(isl.dim_type.param)):
        params = params.lower_bound_val(
            isl.dim_type.param, k, isl.Val.int_from_si(params.get_ctx(), 1)
        )
        params = params.upper_bound_val(
            isl.dim_type.param, k, isl.Val.int_from_si(params.get_ctx(), 8)
        )
    return params


@pytest.fixture(scope="module")
def round_trips() -> tuple[list[Module], dict[str, int]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnalysisWarning)
        return _round_trips()


def test_printed_schedules_of_the_corpus_apply_unchanged(round_trips) -> None:
    _, counts = round_trips
    assert counts["same results"] >= 100, counts
    assert counts["refused"] <= 25, counts


@pytest.mark.mlir
def test_mlir_opt_accepts_every_output(round_trips, mlir_opt: str) -> None:
    outputs, _ = round_trips
    text = "\n// -----\n".join(affine.print_module(m) for m in outputs)
    result = run_mlir_opt(mlir_opt, text, "--split-input-file")
    assert result.returncode == 0, result.stderr


def test_facades() -> None:
    import poly
    import transforms

    module = affine.parse(STENCIL_1D, "st.mlir")
    s = transforms.schedule_of(module)
    assert isinstance(s, poly.Schedule) and transforms.Schedule is poly.Schedule
    with pytest.raises(transforms.ScheduleError):
        transforms.apply_schedule(module, s.reverse("%i"))
