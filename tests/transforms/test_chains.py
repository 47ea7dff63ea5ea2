"""Chains side by side (transforms.unroll_jam.interleave_chains): an innermost loop whose
every iteration reads what the one before wrote runs as many chains side by side as the
enclosing loop is unrolled and jammed, after the skew that makes the jam legal."""

from __future__ import annotations

from pathlib import Path

import pytest

import affine
from affine.ops import ForOp
from tests.conftest import run_mlir_opt
from transforms.unroll_jam import band_width, interleave_chains, memory_streams

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
@pytest.mark.parametrize("kernel", ["seidel_2d", "cholesky"])  # skewed ramps; a tail jam
def test_mlir_opt_reads_the_interleaved_chains(kernel: str, mlir_opt: str) -> None:
    module = affine.parse((KERNELS / f"{kernel}.mlir").read_text(), f"{kernel}.mlir")
    result, done = interleave_chains(module, kernel)
    assert done, f"no chains interleaved in {kernel}"
    printed = run_mlir_opt(mlir_opt, affine.print_module(result))
    assert printed.returncode == 0, printed.stderr


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


def test_cholesky_runs_eight_dot_products_side_by_side_and_then_each_division() -> None:
    # A[i][j] -= A[i][k] * A[j][k] for k < j, then A[i][j] /= A[j][j]: iteration j + 1 of
    # %k reads A[i][j] at k = j, after j's division. Jammed plainly the copies would read it
    # before; jammed over k < 8 * floor(j / 8), which every copy runs, and each copy's
    # remaining k and its division after, in order of j, every dependence holds
    module = affine.parse((KERNELS / "cholesky.mlir").read_text(), "cholesky.mlir")
    result, done = interleave_chains(module, "cholesky")
    ((_, line),) = done
    assert (
        line.startswith("8 chains of %k at cholesky.mlir:") and "then each iteration of %j" in line
    )
    assert affine.check_equivalent(module, result)


def test_trisolv_rows_run_side_by_side_before_each_row_is_divided() -> None:
    module = affine.parse((KERNELS / "trisolv.mlir").read_text(), "trisolv.mlir")
    result, done = interleave_chains(module, "trisolv")
    ((_, line),) = done
    assert line.startswith("8 chains of %j at trisolv.mlir:")
    assert affine.check_equivalent(module, result)


# x[i] starts from x[i - 1] (before the chain loop): copy c + 1's start, run with the
# copies' starts before the shared iterations, would read x[i] before copy c's tail ends
CARRIED_START = """
func.func @carried(%L: memref<24x24xf64>, %x: memref<24xf64>) {
  affine.for %i = 1 to 24 {
    %p = affine.load %x[%i - 1] : memref<24xf64>
    affine.store %p, %x[%i] : memref<24xf64>
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %l = affine.load %L[%i, %j] : memref<24x24xf64>
      %xj = affine.load %x[%j] : memref<24xf64>
      %m = arith.mulf %l, %xj : f64
      %xi = affine.load %x[%i] : memref<24xf64>
      %s = arith.subf %xi, %m : f64
      affine.store %s, %x[%i] : memref<24xf64>
    }
  }
  return
}
"""


def test_a_tail_jam_that_reverses_a_dependence_is_refused_with_it() -> None:
    from poly.schedule import Schedule
    from poly.tail_jam import tail_jam
    from transforms.loop_utils import is_loop

    module = affine.parse(CARRIED_START, "carried.mlir")
    function = module.function("carried")
    outer, inner = [op for op in function.walk() if is_loop(op)]
    verdict = tail_jam(Schedule.of(function), outer, inner, 4)
    assert isinstance(verdict, str) and verdict.startswith("the jammed schedule is not legal")
    assert "x[" in verdict or "%x" in verdict
    result, done = interleave_chains(module, "carried")
    assert done == [] and result is module


@pytest.mark.parametrize(
    "kernel, function", [("cholesky", "cholesky"), ("trisolv", "trisolv"), ("lu", "lu")]
)
@pytest.mark.parametrize("factor", [2, 3, 5, 8])
def test_tail_jams_of_every_factor_compute_the_original(
    kernel: str, function: str, factor: int
) -> None:
    # groups of `factor` rows, 24 not always a multiple: partial first and last groups
    from poly.schedule import Schedule
    from poly.tail_jam import tail_jam
    from transforms.loop_utils import is_loop

    module = affine.parse((KERNELS / f"{kernel}.mlir").read_text(), f"{kernel}.mlir")
    func = module.function(function)
    loops = [op for op in func.walk() if is_loop(op)]
    pairs = [(o, i) for o in loops for i in loops if i.parent_op is o]
    jammed = 0
    for outer, inner in pairs:
        schedule = tail_jam(Schedule.of(func), outer, inner, factor)
        if isinstance(schedule, str):
            assert schedule.startswith(
                ("the jammed schedule is not legal", "the jammed loop holds a loop")
            ), schedule
            continue
        jammed += 1
        assert affine.check_equivalent(module, schedule.apply(separate=True))
    assert jammed >= 1


def test_durbin_with_its_iter_args_in_memory_is_left_as_it_is() -> None:
    # after --affine-expand-iter-args durbin's chain loop holds no statement the schedule
    # models (its ops run as part of the statement around it): no tail jam, and no error
    from transforms.auto_scheduler import expanded_module

    module = affine.parse((KERNELS / "durbin.mlir").read_text(), "durbin.mlir")
    expanded = expanded_module(module, "@durbin")
    assert expanded is not None
    result, done = interleave_chains(expanded, "durbin")
    assert all("finishes" not in line for _, line in done)
    assert affine.check_equivalent(module, result)


# y[i] += A[i][j - i + 10] x[j] for j within 10 of i: row i's chain starts at i - 10, so
# the rows of a group start one apart; each row's first iterations before the group's shared
# ones run alone (its head), then the 8 rows side by side over a copies loop of constant
# bounds (0 to 8: LLVM unrolls it and holds the 8 sums in registers), then each row's end
BANDED = """
func.func @banded(%A: memref<40x21xf32>, %x: memref<40xf32>, %y: memref<40xf32>) {
  affine.for %i = 0 to 40 {
    affine.for %j = max affine_map<(d0) -> (0, d0 - 10)>(%i)
        to min affine_map<(d0) -> (40, d0 + 11)>(%i) {
      %a = affine.load %A[%i, %j - %i + 10] : memref<40x21xf32>
      %xj = affine.load %x[%j] : memref<40xf32>
      %yi = affine.load %y[%i] : memref<40xf32>
      %p = arith.mulf %a, %xj : f32
      %s = arith.addf %yi, %p : f32
      affine.store %s, %y[%i] : memref<40xf32>
    }
  }
  return
}
"""


def test_a_bands_rows_run_side_by_side_over_a_loop_of_constant_bounds() -> None:
    module = affine.parse(BANDED, "banded.mlir")
    result, done = interleave_chains(module, "banded")
    ((_, line),) = done
    assert line.startswith("8 chains of %j at banded.mlir:")
    text = affine.print_module(result)
    loops = [op for op in result.functions()[0].walk() if op.name == "affine.for"]
    innermost = [ForOp(op) for op in loops if not any(o in loops for o in op.nested_ops())]
    steady = [f for f in innermost if f.has_constant_lower_bound() and f.has_constant_upper_bound()]
    assert [(f.constant_lower_bound, f.constant_upper_bound) for f in steady] == [(0, 8)], text
    assert affine.check_equivalent(module, result)
    assert affine.check_equivalent(module, result, backend="c")


# the most iterations of a band: a lower bound that moves, an upper bound a constant above
BAND_WIDTHS = [
    ("max affine_map<(d0) -> (0, d0 - 3)>(%i) to min affine_map<(d0) -> (40, d0 + 4)>(%i)", 7),
    ("affine_map<(d0) -> (d0)>(%i) to affine_map<(d0) -> (d0 + 5)>(%i)", 5),
    ("max affine_map<(d0) -> (0, d0 - 3)>(%i) to affine_map<(d0) -> (d0)>(%i)", 3),
    ("0 to 40", None),  # fixed: not a band
    ("affine_map<(d0) -> (d0)>(%i) to 40", None),  # a triangle: i to 40
    ("0 to min affine_map<(d0) -> (8, d0)>(%i)", None),
]


@pytest.mark.parametrize("bounds, width", BAND_WIDTHS)
def test_band_width(bounds: str, width: int | None) -> None:
    text = f"""
func.func @f(%y: memref<40xf32>) {{
  affine.for %i = 0 to 40 {{
    affine.for %j = {bounds} {{
      %v = affine.load %y[%j] : memref<40xf32>
    }}
  }}
  return
}}
"""
    inner = [op for op in affine.parse(text).function("f").walk() if op.name == "affine.for"][1]
    assert band_width(inner) == width


def test_chains_over_a_short_band_are_left_alone_with_the_reason() -> None:
    from transforms.auto_scheduler import chains_left_alone

    remarks: list[str] = []
    module = affine.parse(BANDED, "banded.mlir")
    result, done = interleave_chains(
        module, "banded", left_alone=chains_left_alone, remarks=remarks
    )
    assert done == [] and result is module
    assert remarks == [
        "chains of %j at banded.mlir:4:5 left as they are: a band of at most 21 iterations, "
        "whose chains the out-of-order core overlaps already (side by side only over bands "
        "wider than 256)"
    ]


# y[i] += x[2i + k] h[k]: the chain loop k runs 32 steps of 6 ops, which LLVM unrolls
# whole (FULL_UNROLL_OPS) and then vectorises i; 8 chains side by side ran 0.15x
FIR = """
func.func @fir(%x: memref<{n}xf32>, %h: memref<{k}xf32>, %y: memref<64xf32>) {{
  affine.for %i = 0 to 64 {{
    affine.for %k = 0 to {k} {{
      %v = affine.load %x[%i * 2 + %k] : memref<{n}xf32>
      %w = affine.load %h[%k] : memref<{k}xf32>
      %c = affine.load %y[%i] : memref<64xf32>
      %p = arith.mulf %v, %w : f32
      %s = arith.addf %c, %p : f32
      affine.store %s, %y[%i] : memref<64xf32>
    }}
  }}
  return
}}
"""


@pytest.mark.parametrize("taps, alone", [(32, True), (50, True), (51, False), (64, False)])
def test_chains_that_llvm_unrolls_whole_are_left_alone(taps: int, alone: bool) -> None:
    # 6 ops a step: 50 x 6 = 300 is within LLVM's threshold, 51 x 6 is not
    from transforms.auto_scheduler import chains_left_alone

    module = affine.parse(FIR.format(n=128 + taps, k=taps), "fir.mlir")
    remarks: list[str] = []
    _, done = interleave_chains(module, "fir", left_alone=chains_left_alone, remarks=remarks)
    assert (done == []) is alone
    assert remarks == (
        [
            "chains of %k at fir.mlir:4:5 left as they are: LLVM unrolls it whole and "
            "vectorises the loop around it"
        ]
        if alone
        else []
    )
