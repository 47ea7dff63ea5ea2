"""--affine-loop-fusion: fused code computes the original's results (interpreter and C),
mlir-opt 22 reads every output, remarks name every candidate, and mlir-opt's own fusion
is shown wrong where ours is right."""

from __future__ import annotations

from pathlib import Path

import pytest

import affine
import transforms
from tests.conftest import run_mlir_opt

ROOT = Path(__file__).resolve().parents[1] / "corpus"
KERNELS = [
    *sorted((ROOT / "fusion").glob("*.mlir")),
    *(
        ROOT / "kernels" / f"{name}.mlir"
        for name in (
            "doitgen fdtd_2d two_mm three_mm gemver mvt bicg atax jacobi_1d gesummv".split()
        )
    ),
]
OPTIONS = [
    *(
        {"mode": mode, "maximal": maximal}
        for mode in ("greedy", "producer", "sibling")
        for maximal in (False, True)
    ),
    {"mode": "greedy", "maximal": False, "compute_tolerance": 100.0},  # recomputes freely
]


def _parse(path: Path) -> affine.Module:
    return affine.parse(path.read_text(), str(path))


def _entry(module: affine.Module) -> str:
    """The last function with a body (a kernel's callees come first)."""
    bodies = [f for f in module.functions() if f.regions and f.regions[0].blocks]
    return str(bodies[-1].properties["sym_name"].value)  # type: ignore[union-attr]


def _equivalent(original: affine.Module, fused: affine.Module, backend: str) -> None:
    entry = _entry(original)
    result = affine.check_equivalent(original, fused, backend=backend, f_entry=entry, g_entry=entry)
    assert result, result


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.stem)
def test_greedy_fusion_computes_the_same_results_in_both_backends(path: Path) -> None:
    module = _parse(path)
    result = transforms.fuse(module)
    _equivalent(module, result.module, "interp")
    _equivalent(module, result.module, "c")


def test_a_buffer_with_a_layout_map_keeps_its_shape() -> None:
    module = _parse(ROOT / "fusion" / "permuted_layout.mlir")
    result = transforms.fuse(module)
    assert any(
        "%A kept: %A has a layout map (memref<4x6xf32, affine_map<(d0, d1) -> (d1, d0)>>)" in r
        for r in result.remarks
    ), result.remarks
    _equivalent(module, result.module, "interp")


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(str(v) for v in o.values()))
@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.stem)
def test_every_mode_computes_the_same_results(path: Path, options: dict) -> None:
    module = _parse(path)
    result = transforms.fuse(module, **options)
    _equivalent(module, result.module, "interp")
    _equivalent(module, result.module, "c")


@pytest.mark.mlir
@pytest.mark.parametrize("mode", ["greedy", "producer", "sibling"])
def test_mlir_opt_reads_every_output(mlir_opt: str, mode: str) -> None:
    for path in KERNELS:
        result = transforms.fuse(_parse(path), mode=mode, maximal=True)
        done = run_mlir_opt(mlir_opt, affine.print_module(result.module))
        assert done.returncode == 0, (path.name, done.stderr)


def test_element_wise_chain_gets_a_one_element_private_buffer() -> None:
    result = transforms.fuse(_parse(ROOT / "fusion" / "elementwise_chain.mlir"))
    text = affine.print_module(result.module)
    assert "memref.alloc() : memref<1xf32>" in text
    assert "%alloc[0]" in text and "%alloc[%" not in text
    assert text.count("affine.for") == 1
    (remark,) = result.remarks
    assert "fused the nest of %i" in remark and "at depth 1" in remark
    assert "%B private: memref<64xf32> -> memref<1xf32>" in remark


def test_local_buffer_threshold_places_the_private_buffer_in_fast_memory() -> None:
    path = ROOT / "fusion" / "elementwise_chain.mlir"
    result = transforms.fuse(_parse(path), local_buf_threshold=1, fast_mem_space=2)
    assert "memref.alloc() : memref<1xf32, 2>" in affine.print_module(result.module)
    _equivalent(_parse(path), result.module, "interp")


def test_stencil_consumer_runs_the_producer_one_iteration_ahead() -> None:
    result = transforms.fuse(_parse(ROOT / "fusion" / "stencil_chain.mlir"))
    (remark,) = result.remarks
    assert "fused" in remark and "S0[i = 1 + i0]" in remark  # the exact slice, shifted
    assert "a value of %B flows from one fused iteration to a later one" in remark


def test_doitgen_is_refused_with_the_dependence_it_would_reverse() -> None:
    result = transforms.fuse(_parse(ROOT / "kernels" / "doitgen.mlir"))
    (remark,) = result.remarks
    assert "not fused" in remark and "is reversed" in remark
    assert "affine.load %sum[%p]" in remark


def test_a_call_between_the_nests_is_a_barrier() -> None:
    result = transforms.fuse(_parse(ROOT / "fusion" / "call_barrier.mlir"))
    (remark,) = result.remarks
    assert "not fused" in remark and "cannot be decided" in remark
    assert "func.call @observe" in remark


def test_a_call_reaches_only_the_buffers_it_can_name() -> None:
    path = ROOT / "fusion" / "call_in_consumer.mlir"
    result = transforms.fuse(_parse(path))
    (remark,) = result.remarks
    assert (
        "fused the nest of %i" in remark and "%t private: memref<64xf32> -> memref<1xf32>" in remark
    )
    # the producer reads a function argument, which the call may write: no fusion
    text = path.read_text().replace(
        "%ii = arith.index_cast %i : index to i32",
        "%x = affine.load %in[%i] : memref<64xf32>\n    %ii = arith.fptosi %x : f32 to i32",
    )
    (remark,) = transforms.fuse(affine.parse(text, "call.mlir")).remarks
    assert "not fused" in remark
    assert (
        "func.call at call.mlir:21:5 may have effects the dependence analysis cannot see" in remark
    )


def test_check_fusion_is_public_and_says_why() -> None:
    from poly.slices import PRODUCER, candidates

    module = _parse(ROOT / "kernels" / "doitgen.mlir")
    schedule = transforms.schedule_of(module)
    (candidate,) = candidates(schedule, PRODUCER)
    verdict = transforms.check_fusion(schedule, candidate)
    assert not verdict and verdict.status == "illegal"
    assert "RAW dependence" in verdict.reason


def test_bad_mode_is_an_option_error() -> None:
    with pytest.raises(transforms.PolyError, match="invalid value 'fastest' for option 'mode'"):
        transforms.fuse(_parse(ROOT / "fusion" / "elementwise_chain.mlir"), mode="fastest")


@pytest.mark.mlir
@pytest.mark.parametrize("name", ["doitgen", "fdtd_2d"])
def test_mlir_opt_fusion_is_wrong_where_ours_is_right(mlir_opt: str, name: str) -> None:
    path = ROOT / "kernels" / f"{name}.mlir"
    original = _parse(path)
    done = run_mlir_opt(mlir_opt, path.read_text(), "--affine-loop-fusion")
    assert done.returncode == 0, done.stderr
    theirs = affine.parse(done.stdout, f"mlir-opt-{name}.mlir")
    assert not affine.check_equivalent(original, theirs)
    _equivalent(original, transforms.fuse(original).module, "interp")


def test_a_consumer_of_two_statements_fuses() -> None:
    from tests.poly.test_schedule_check import TWO_STATEMENT_CONSUMER

    module = affine.parse(TWO_STATEMENT_CONSUMER, "two.mlir")
    result = transforms.fuse(module)
    (remark,) = result.remarks
    assert remark.startswith("two.mlir:5:10: remark: fused") and "%T private" in remark
    assert affine.print_module(result.module).count("affine.for") == 1
    _equivalent(module, result.module, "interp")


# A random program (tests/nestgen.py) on which fusing the store nest into the consumer
# regenerated the very code it started from: greedy maximal fusion used to accept that
# "fusion" again and again and never end.
REGENERATES_ITSELF = """
#map = affine_map<(d0) -> (7, d0 + 3)>
func.func @nest(%A: memref<6x8xf32>) {
  affine.for %i = 1 to 7 step 2 {
    affine.for %j = 1 to 7 step 2 {
      affine.parallel (%k) = (0) to (6) {
        %c = arith.constant -2.500000e-01 : f32
        affine.store %c, %A[%k, (%i + %j) mod 8] : memref<6x8xf32>
      }
    }
    affine.for %j = 2 to min #map(%i) step 2 {
      %r = affine.parallel (%k) = (0) to (6) reduce ("addf") -> (f32) {
        %0 = affine.load %A[(%j * 2 + 9) mod 6, ((-%i - %j * 2 + %k) floordiv 3 + 3) mod 8] : memref<6x8xf32>
        %1 = affine.load %A[(-%i - %j - %k * 2 + 3) mod 6, (%i + %j + %k * 2 + 5) mod 8] : memref<6x8xf32>
        %2 = arith.maximumf %0, %1 : f32
        %3 = affine.load %A[((%k + 1) floordiv 3) mod 6, (%i + %j * 3 + %k * 3 + 4) mod 8] : memref<6x8xf32>
        %4 = arith.subf %2, %3 : f32
        affine.yield %4 : f32
      }
    }
  }
  return
}
"""


def test_a_fusion_that_regenerates_seen_code_is_no_progress() -> None:
    module = affine.parse(REGENERATES_ITSELF, "again.mlir")
    result = transforms.fuse(module, maximal=True)
    assert any("the regenerated code is no progress" in r for r in result.remarks)
    _equivalent(module, result.module, "interp")


# the corpus' mod_floordiv with its sizes as arguments: B[(5 * i) mod 64] written under a
# size %n, read by a triangular consumer: the fused
# schedule's slice inverts the modulo under the parameter, which ISL turns into functions
# only after about 10**6 operations (30 s); the read stops at its budget and the fusion is
# refused with the reason instead of running that long
MODULO_UNDER_A_SIZE = """
func.func @mod_floordiv(%A: memref<?x?xf32>, %B: memref<?xf32>, %C: memref<?x?xf32>, %D: memref<?xf32>, %n: index, %m: index) {
  affine.for %i = 0 to %n {
    %v = affine.load %A[%i floordiv 4, %i mod 4] : memref<?x?xf32>
    affine.store %v, %B[(%i * 5) mod 64] : memref<?xf32>
  }
  affine.for %i = 0 to %n {
    %b = affine.load %B[%i] : memref<?xf32>
    %c = affine.load %C[(%i - 5) floordiv 4 + 2, (%i - 7) mod 4] : memref<?x?xf32>
    %s = arith.addf %b, %c : f32
    affine.store %s, %C[(%i - 5) floordiv 4 + 2, (%i - 7) mod 4] : memref<?x?xf32>
  }
  affine.for %j = 0 to %m {
    affine.for %i = affine_map<(d0) -> (d0 ceildiv 2)>(%j) to affine_map<(d0) -> ((d0 * 3) ceildiv 2 + 1)>(%j) {
      %b = affine.load %B[%i] : memref<?xf32>
      %d = affine.load %D[%j] : memref<?xf32>
      %s = arith.addf %d, %b : f32
      affine.store %s, %D[%j] : memref<?xf32>
    }
  }
  return
}
"""


def test_a_schedule_too_costly_to_read_refuses_the_fusion_with_the_reason() -> None:
    import numpy as np

    from poly.schedule_tree import READ_BUDGET

    module = affine.parse(MODULO_UNDER_A_SIZE, "scatter.mlir")
    result = transforms.fuse(module)
    expected = f"cannot be read as functions of its instances within {READ_BUDGET} ISL operations"
    assert any(expected in r for r in result.remarks), result.remarks
    rng = np.random.default_rng(0)
    a, c = (rng.uniform(-1, 1, shape).astype(np.float32) for shape in ((16, 4), (18, 4)))
    b, d = (rng.uniform(-1, 1, 64).astype(np.float32) for _ in range(2))
    assert affine.check_equivalent(module, result.module, a, b, c, d, 64, 16)


# mlir-opt's should_fuse_but_not_remove_src, observable: the consumer needs 17 of the 100
# producer instances; the other 83 run before the fused loop. They used to share one loop
# over the two segments with an affine.if per segment (one loop more than the input).
PARTIAL_SLICE = """
func.func @partial(%m: memref<100xf32>, %out: memref<17xf32>) {
  %c = arith.constant 7.0 : f32
  affine.for %i = 0 to 100 {
    affine.store %c, %m[%i] : memref<100xf32>
  }
  affine.for %i = 0 to 17 {
    %v = affine.load %m[%i] : memref<100xf32>
    affine.store %v, %out[%i] : memref<17xf32>
  }
  return
}
"""


def test_producer_instances_outside_the_slice_run_in_a_loop_of_their_own() -> None:
    module = affine.parse(PARTIAL_SLICE, "partial.mlir")
    result = transforms.fuse(module)
    text = affine.print_module(result.module)
    assert "affine.if" not in text and text.count("affine.for") == 2
    assert "affine.for %arg2 = 17 to 100" in text
    _equivalent(module, result.module, "interp")


def test_a_slice_isl_cannot_minimise_in_its_budget_is_undecided_not_a_hang() -> None:
    # the earliest use of each producer instance over eight modulo subscripts: ISL's lexmin
    # runs for minutes; under the slice budget fusion says it cannot decide, at each depth
    module = _parse(ROOT / "budget" / "modulo_slice_budget.mlir")
    result = transforms.fuse(module)
    (remark,) = [r for r in result.remarks if "through %A1" in r]
    assert "fusing at depth 1 cannot be decided" in remark, remark
    assert "exceeded the ISL budget of 1000000 operations" in remark, remark
    assert affine.print_module(result.module) == affine.print_module(module)


def test_a_gather_from_a_memref_of_unknown_size_fuses_to_the_same_results() -> None:
    # the subscript %r is loaded: the elements of %D it may read are unbounded (its size is
    # not known), which the cost model's byte count must say rather than fail on
    text = (
        (ROOT / "fusion" / "gathered_rows.mlir")
        .read_text()
        .replace("memref<16xf32>", "memref<?xf32>")
    )
    module = affine.parse(text, "gathered_dynamic.mlir")
    result = transforms.fuse(module)
    assert any("remark: fused the nest of %i" in r for r in result.remarks), result.remarks
    entry = "gathered_rows"
    check = affine.check_equivalent(
        module, result.module, f_entry=entry, g_entry=entry, sizes={1: (16,)}
    )
    assert check, check
