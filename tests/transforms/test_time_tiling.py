"""Time tiles (transforms.time_tiling over poly.time_tiles): a stencil's time loop tiled with
the outer dimensions its sweeps write, leaning back by the smallest legal skew per sweep;
every tiling computes the original's results, and what cannot be tiled says why."""

from __future__ import annotations

from pathlib import Path

import pytest

import affine
from affine.ir.core import Operation
from tests.conftest import corpus_kernel, run_mlir_opt
from transforms.machine import detect
from transforms.register_tiling import jammed_rows
from transforms.time_tiling import (
    MIN_GAIN,
    TimeTilePlan,
    TimeTiling,
    plan_time_tiles,
    time_tile_function,
    whole_row_groups,
)

KERNELS = Path(__file__).resolve().parents[1] / "corpus" / "kernels"


kernel = corpus_kernel  # a corpus kernel, at sizes of its // scale: header when given


def guarded_rows(op: Operation) -> list[Operation]:
    """The innermost affine.for ops with an affine.if inside."""
    loops = [x for x in op.walk() if x.name == "affine.for"]
    innermost = [
        x for x in loops if not any(y.name == "affine.for" for y in x.walk() if y is not x)
    ]
    return [x for x in innermost if any(y.name == "affine.if" for y in x.walk())]


def loop_depths(op: Operation, depth: int = 0) -> list[int]:
    """The depth of every innermost affine.for."""
    found = []
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                inside = depth + (inner.name == "affine.for")
                below = loop_depths(inner, inside)
                found += below or ([inside] if inner.name == "affine.for" else [])
    return found


# (kernel, time size, space sizes, skew): sweeps of a step line up by the rows they write;
# jacobi-1d's second sweep reads B[i +- 1] of the first, the next step's first sweep reads
# A[i +- 1] of the second: one row back per sweep (skew 1) keeps every dependence forward.
# seidel-2d updates in place: A[i + 1] of the step before is read at (t, i), one row back
# per step. Tiles as wide as the rows (64 > 40) need no skew.
CASES = [
    ("jacobi_1d", 2, (3,), 1),
    ("jacobi_1d", 2, (5,), 1),
    ("jacobi_1d", 4, (64,), 0),
    ("jacobi_2d", 3, (4,), 1),
    ("jacobi_2d", 3, (4, 4), 1),
    ("heat_3d", 2, (3, 5), 1),
    ("heat_3d", 3, (2, 4), 1),
    ("fdtd_2d", 2, (5,), 1),
    ("fdtd_2d", 3, (4, 4), 1),
    ("seidel_2d", 2, (5,), 1),
]


@pytest.mark.parametrize(("name", "bt", "sizes", "skew"), CASES)
def test_time_tiles_compute_the_original_results(
    name: str, bt: int, sizes: tuple[int, ...], skew: int
) -> None:
    module = kernel(name)
    result = time_tile_function(module, name, detect(), bt, sizes)
    (plan,) = result.tiled
    assert plan.tiling.skew == skew
    assert result.schedule is not None and result.schedule.check()
    # tile loops around each sweep's own loops (a space tile as wide as the rows is no loop)
    depth = max(loop_depths(module.function(name)))
    wide = sizes == (64,)
    assert max(loop_depths(result.module.function(name))) == depth + 1 + len(sizes) - wide
    assert guarded_rows(result.module.function(name)) == []
    assert affine.check_equivalent(module, result.module)


def test_a_sweep_that_never_runs_does_not_stop_the_time_tiles() -> None:
    # jacobi-1d with an empty loop (5 to 5) inside the time loop: its statement has no
    # instance, so no row of the schedule to read; the other sweeps are tiled as usual
    text = (KERNELS / "jacobi_1d.mlir").read_text()
    start = text.index("    affine.for %i")
    empty = """    affine.for %e = 5 to 5 {
      %x = affine.load %A[%e] : memref<40xf32>
      affine.store %x, %B[%e] : memref<40xf32>
    }
"""
    module = affine.parse(text[:start] + empty + text[start:], "jacobi_1d.mlir")
    result = time_tile_function(module, "jacobi_1d", detect(), 2, (5,))
    (plan,) = result.tiled
    assert len(plan.loop.statements) == 2 and plan.tiling.skew == 1
    assert affine.check_equivalent(module, result.module)


def test_a_tile_leans_back_one_row_per_sweep_and_its_rows_have_no_guard() -> None:
    module = kernel("jacobi_1d")
    result = time_tile_function(module, "jacobi_1d", detect(), 4, (8,))
    # time tile o1 = floor(t / 4); space tile o3 = floor((i + 2t + k) / 8) for sweep k
    text = str(result.schedule)
    assert text.startswith("{ S0[t, i] -> [0, o1, 0, o3, 0, t, 0, i, 0]")
    assert "S1[t, i] -> [0, o1, 0, o3, 0, t, 1, i, 0]" in text
    assert text.count("-3 + t <= 4o1 <= t") == 2
    assert "-7 + 2t + i <= 8o3 <= 2t + i" in text and "-6 + 2t + i <= 8o3 <= 1 + 2t + i" in text
    text = affine.print_module(result.module)
    # each sweep's row: from max(1, its tile's left edge) to min(39, its right edge)
    assert text.count("affine.for %arg5 = max") == 2
    assert affine.check_equivalent(module, result.module)


def test_tiles_that_no_skew_makes_legal_are_refused_with_the_dependence() -> None:
    # seidel-2d's j dimension would need a skew of 2 per step where i needs 1
    plans, _ = plan_time_tiles(kernel("seidel_2d").function("seidel_2d"), detect(), 2, (4, 4))
    (reason,) = plans
    assert isinstance(reason, str)
    assert reason.startswith("%t: no skew up to 4 makes time tiles legal (illegal: the RAW")
    assert "affine.load %A[%i - 1, %j + 1]" in reason


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("gemm", "%i: S0 writes where %i says: not a time loop"),
        ("adi", "%t: S3 does not write exactly one known element"),
    ],
)
def test_nests_that_are_no_time_loop_say_why(name: str, why: str) -> None:
    result = time_tile_function(kernel(name), name, detect(), 2, (4,))
    assert result.schedule is None and result.tiled == []
    assert why in result.plans + result.others


def buffered_heat(write: str, read: str = "%t mod 2", n: int = 24, steps: int = 9) -> str:
    """A 2-D heat step from buffer ``read`` of A into buffer ``write`` (subscripts)."""
    t = f"memref<3x{n}x{n}xf32>"
    loads = "\n".join(
        f"        %v{k} = affine.load %A[{read}, %i{di}, %j{dj}] : {t}"
        for k, (di, dj) in enumerate(
            [("", ""), (" - 1", ""), (" + 1", ""), ("", " - 1"), ("", " + 1")]
        )
    )
    return f"""
func.func @heat(%A: {t}) {{
  %q = arith.constant 0.2 : f32
  affine.for %t = 0 to {steps} {{
    affine.for %i = 1 to {n - 1} {{
      affine.for %j = 1 to {n - 1} {{
{loads}
        %a1 = arith.addf %v0, %v1 : f32
        %a2 = arith.addf %a1, %v2 : f32
        %a3 = arith.addf %a2, %v3 : f32
        %a4 = arith.addf %a3, %v4 : f32
        %v = arith.mulf %q, %a4 : f32
        affine.store %v, %A[{write}, %i, %j] : {t}
      }}
    }}
  }}
  return
}}
"""


# A[(t + 1) mod 2] = f(A[t mod 2]) (or three levels: A[(t + 2) mod 3] from (t + 1) mod 3
# and t mod 3, a wave equation's): the leading subscript only t moves chooses a buffer,
# the others are the space the tiles cut (rank 2). A subscript that i moves too is no
# buffer. (written, read, time size, space sizes, skew or the reason refused)
BUFFERED = [
    ("(%t + 1) mod 2", "%t mod 2", 3, (5,), 1),
    ("(%t + 1) mod 2", "%t mod 2", 3, (5, 6), 1),
    ("(%t + 2) mod 3", "(%t + 1) mod 3", 2, (4, 7), 1),
    ("(%t + %i) mod 2", "%t mod 2", 3, (5,), "%t: S0 writes where %t says: not a time loop"),
]


@pytest.mark.parametrize(("write", "read", "bt", "sizes", "expected"), BUFFERED)
def test_buffers_chosen_by_the_time_step_leave_the_other_subscripts_to_tile(
    write: str, read: str, bt: int, sizes: tuple[int, ...], expected: int | str
) -> None:
    module = affine.parse(buffered_heat(write, read), "heat.mlir")
    result = time_tile_function(module, "heat", detect(), bt, sizes)
    if isinstance(expected, str):
        assert result.tiled == [] and expected in result.others, result.others
        return
    (plan,) = result.tiled
    assert (plan.loop.buffers, plan.loop.rank, plan.tiling.skew) == (1, 2, expected)
    for backend in ("interp", "c"):
        assert affine.check_equivalent(module, result.module, backend=backend, rtol=0.0)


PARAMETRIC_BUFFERED_HEAT = """
func.func @heat(%A: memref<2x?x?xf32>, %N: index, %T: index) {
  %q = arith.constant 0.2 : f32
  affine.for %t = 0 to %T {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
        %c = affine.load %A[%t mod 2, %i, %j] : memref<2x?x?xf32>
        %n = affine.load %A[%t mod 2, %i - 1, %j] : memref<2x?x?xf32>
        %s = affine.load %A[%t mod 2, %i + 1, %j] : memref<2x?x?xf32>
        %a1 = arith.addf %c, %n : f32
        %a2 = arith.addf %a1, %s : f32
        %v = arith.mulf %q, %a2 : f32
        affine.store %v, %A[(%t + 1) mod 2, %i, %j] : memref<2x?x?xf32>
      }
    }
  }
  return
}
"""


def test_buffers_are_chosen_by_a_time_loop_of_unknown_steps() -> None:
    # t mod 2 takes 2 values whatever T is; only where the steps are known must they be
    # more than the buffers (gemm's C[i][j] under i: 20 values in 20 steps, no buffer)
    import numpy as np

    module = affine.parse(PARAMETRIC_BUFFERED_HEAT, "heat.mlir")
    result = time_tile_function(module, "heat", detect(), 3, (5,))
    (plan,) = result.tiled
    assert (plan.loop.buffers, plan.loop.rank) == (1, 2)
    a = np.random.default_rng(0).standard_normal((2, 30, 30)).astype(np.float32)
    for backend in ("interp", "c"):
        assert affine.check_equivalent(module, result.module, a, 30, 13, backend=backend, rtol=0.0)


def test_a_tile_of_buffered_rows_touches_every_buffer_of_its_rows() -> None:
    # 8 steps x 32 rows, skew 1: rows of 32 + 8 halo x 1024 columns in each of the 3
    # buffers of A (4 bytes): 3 x 40 x 1024 x 4
    from transforms.time_tiling import _footprint

    module = affine.parse(buffered_heat("(%t + 1) mod 2", n=1024), "heat.mlir")
    result = time_tile_function(module, "heat", detect(), 8, (32,))
    (plan,) = result.tiled
    assert _footprint(plan.loop, plan.tiling) == 3 * 40 * 1024 * 4


def test_the_auto_scheduler_time_tiles_a_stencil_on_buffers_chosen_by_the_step() -> None:
    # heat on A[t mod 2] (2 x 1024^2 f32, 8 MiB, 64 steps) with a 256 KiB L2: no time loop
    # before; at 2000^2 x 100 steps 3.0x, in 3-D (160^3 x 60) 1.9x, a wave equation on
    # A[t mod 3] 2.8-3.5x
    from transforms.auto_scheduler import auto_schedule

    module = affine.parse(buffered_heat("(%t + 1) mod 2", n=1024, steps=64), "heat.mlir")
    (report,) = auto_schedule(module, l2=256).functions
    assert report.chosen.startswith("original+time tiles"), report.chosen
    assert report.tiles[0].startswith("time tiles of %t: "), report.tiles


def test_sizes_fit_the_l2_cache_and_rows_stay_long() -> None:
    # jacobi-1d at 2M points: 8 bytes per row (A and B); 1-d rows of at least 1024 points;
    # 32 steps x 1024 points read 1024 + 2 * 32 rows for 32 * 1024 updates: traffic / 30.1
    module = kernel("jacobi_1d", {"N": 2_000_000, "T": 500})
    machine = detect().override(l2=1024 * 1024)
    (plan,), _ = plan_time_tiles(module.function("jacobi_1d"), machine)
    assert isinstance(plan, TimeTilePlan)
    assert (plan.tiling.time_size, plan.tiling.space_sizes, plan.tiling.skew) == (32, (1024,), 1)
    assert round(plan.gain, 1) == 30.1


# heat-3d: a row (i, j) is N floats in A and B, tiles leave k whole and lean back 2 rows a
# step (two sweeps); two consecutive steps of a b x b tile touch (b + 4)^2 rows, which must
# fit L2 (1 MiB), the whole tile's (b + 2 bt)^2 rows need not. b = 16 fits up to N = 327
# (20^2 x 327 x 8 bytes = 1022 KiB), 32 never (36^2 x 8 x 120 = 1215 KiB); of 16 x 16,
# 8 steps cut the traffic most (8 x 256 / 32^2 = 2; 4 steps 1.78, 16 steps 1.78). The
# whole tile of 8 steps (32^2 x 260 x 8 bytes = 2080 KiB at N = 260) exceeds L2: sized by
# it, the tiles were 2 steps (traffic / 1.28), which ran 0.92x, against 2.1x for these.
@pytest.mark.parametrize("n", [120, 260])
def test_two_steps_of_a_tile_fit_the_l2_cache(n: int) -> None:
    module = kernel("heat_3d", {"N": n, "T": 500})
    machine = detect().override(l2=1024 * 1024)
    (plan,), _ = plan_time_tiles(module.function("heat_3d"), machine)
    assert isinstance(plan, TimeTilePlan)
    assert (plan.tiling.time_size, plan.tiling.space_sizes, plan.tiling.skew) == (8, (16, 16), 1)
    assert plan.gain == 2


# (space sizes, rows jammed per written dimension, the sizes offered): a size along a
# jammed dimension that is not a multiple of its rows r becomes the multiples just below
# and above it, so register tiles of r rows fill the tile with whole groups (16 = 3 x 5 + 1
# leaves a row alone); multiples of r and sizes no larger than r stay, as do the
# dimensions nothing is jammed along.
ROW_GROUPS = [
    ((16, 16), {1: 5}, [(16, 15), (16, 20)]),
    ((16, 15), {1: 5}, [(16, 15)]),
    ((32,), {0: 8}, [(32,)]),
    ((16, 16), {0: 3, 1: 5}, [(15, 15), (15, 20), (18, 15), (18, 20)]),
    ((4, 16), {0: 5}, [(4, 16)]),
    ((16, 16), {2: 5}, [(16, 16)]),
    ((16, 16), {}, [(16, 16)]),
]


@pytest.mark.parametrize(("sizes", "rows", "offered"), ROW_GROUPS)
def test_tiles_hold_whole_groups_of_jammed_rows(sizes: tuple, rows: dict, offered: list) -> None:
    grouped = whole_row_groups(TimeTiling(8, sizes, 1), rows)
    assert [t.space_sizes for t in grouped] == offered
    assert all((t.time_size, t.skew) == (8, 1) for t in grouped)


def test_heat_3d_s_tiles_hold_whole_groups_of_its_five_rows() -> None:
    # 32 registers of 512 bits: heat-3d's sweeps jam 5 rows of j (5R + 3 vectors), the
    # second written dimension. Of the sizes offered, 8 steps x 16 x 20 cut the traffic
    # most: (16 + 16) x (20 + 16) rows read for 8 x 16 x 20 updates, 2.22 (16 x 15: 1.9);
    # two steps touch 20 x 24 x 120 x 8 bytes (450 KiB), within L2 (1 MiB).
    module = kernel("heat_3d", {"N": 120, "T": 500})
    machine = detect().override(l2=1024 * 1024, vector_bits=512, vector_registers=32)
    function = module.function("heat_3d")
    rows = jammed_rows(function, machine)
    assert rows == {1: 5}
    (plan,), _ = plan_time_tiles(function, machine, rows=rows)
    assert isinstance(plan, TimeTilePlan)
    assert (plan.tiling.time_size, plan.tiling.space_sizes) == (8, (16, 20))
    assert plan.gain == pytest.approx(8 * 16 * 20 / (32 * 36))


# jacobi-2d at 1300^2 (A and B, 8 bytes a point) on L1 32 KiB, L2 512 KiB, 8 f32 lanes.
# One step of a tile b x c touches (b + 2) x (c + 2) x 8 bytes (a halo of one row per
# sweep): within 5/8 of L1 for 16 x 128 (18.7 KiB), not 32 x 128 (35 KiB); c >= 16 x 8.
# 16 steps x 16 x 128 read (16 + 32) x (128 + 32) points for 16 x 16 x 128 updates:
# traffic / 4.27, its 48 x 160 x 8 bytes (60 KiB) within L2. 32 steps tie on the traffic
# with twice the data; fewer rows cut less (8 x 128: 2.56). On 16 lanes rows of 128 are
# too short, and the tiles keep whole rows: 32 steps x 32 rows (traffic / 10.7), two steps
# of which touch (32 + 4) x 1300 x 8 bytes (366 KiB, within L2; measured at LARGE sizes
# 1.64x, against 1.55x for the 8 steps whose whole tile fits).
L1_STEPS = [(256, (16, (16, 128))), (512, (32, (32,)))]


@pytest.mark.parametrize(("bits", "expected"), L1_STEPS)
def test_steps_of_a_2d_stencil_s_tiles_fit_the_l1_cache(bits: int, expected: tuple) -> None:
    module = kernel("jacobi_2d", {"N": 1300, "T": 500})
    machine = detect().override(l1=32 * 1024, l2=512 * 1024, vector_bits=bits)
    (plan,), _ = plan_time_tiles(module.function("jacobi_2d"), machine)
    assert isinstance(plan, TimeTilePlan)
    assert (plan.tiling.time_size, plan.tiling.space_sizes) == expected, plan.describe()


def test_steps_whose_rows_share_l1_sets_give_way_to_whole_rows() -> None:
    # rows of 4 KiB (1024 floats) all fall into the same sets of a 32 KiB 8-way L1 (4 KiB
    # a way): a step of 16 x 128 holds 2 x 18 rows of 130 floats, 36 lines in each of its
    # sets, and would not stay in L1 from one step to the next; whole rows are tiled
    # instead, as at 1300^2 on 16 lanes (above)
    module = kernel("jacobi_2d", {"N": 1024, "T": 500})
    machine = detect().override(l1=32 * 1024, l2=512 * 1024, vector_bits=256)
    assert machine.l1_set_span == 4096
    (plan,), _ = plan_time_tiles(module.function("jacobi_2d"), machine)
    assert isinstance(plan, TimeTilePlan)
    assert (plan.tiling.time_size, plan.tiling.space_sizes) == (32, (32,)), plan.describe()


# (N, rows jammed along j, tiles): heat-3d's time tiles over (i, j) with rows of k whole,
# two steps of which fit L2 (1 MiB) and that divide the traffic by ROTATED_GAIN (1.3).
# 120^3: 16 x 20 (2.22, above). 300^3: 16 x 20 no longer fits ((16 + 4) x (20 + 4) rows
# of 1200 bytes in each of two arrays: 1.1 MiB), 16 x 15 does (8 x 16 x 15 updates per
# 32 x 31 rows read: 1.94). 512^3: rows of 2 KiB fall into two L1 sets, so 3 rows are
# jammed, not 5; no square tile both fits and divides by 1.3 (8 x 8: at most 1.0;
# 16 x 16: 1.6 MiB), a tile twice as long along j does: 4 steps x 8 x 15, 4 x 8 x 15
# updates per 16 x 23 rows (1.30).
HEAT_3D_TILES = [
    (120, {1: 5}, (8, (16, 20))),
    (300, {1: 5}, (8, (16, 15))),
    (512, {1: 3}, (4, (8, 15))),
]


@pytest.mark.parametrize(("n", "rows", "tiles"), HEAT_3D_TILES)
def test_3d_stencil_tiles_with_long_rows_fit_the_l2_cache(n: int, rows: dict, tiles: tuple) -> None:
    from transforms.auto_scheduler import ROTATED_GAIN

    function = kernel("heat_3d", {"N": n, "T": 50}).function("heat_3d")
    machine = detect().override(l2=1024 * 1024, vector_bits=512, vector_registers=32)
    assert jammed_rows(function, machine) == rows
    (plan,), _ = plan_time_tiles(function, machine, rows=rows, min_gain=ROTATED_GAIN)
    assert isinstance(plan, TimeTilePlan), plan
    assert (plan.tiling.time_size, plan.tiling.space_sizes) == tiles, plan.describe()


def test_steps_holding_whole_groups_of_rows_still_fit_the_l1_cache() -> None:
    # as above (256-bit vectors, L1 32 KiB), with 5 rows jammed along i: 16 x 128 becomes
    # 15 x 128 or 20 x 128, and 20 x 128 (22 x 130 x 8 bytes = 22.3 KiB) no longer fits
    # 5/8 of L1 (20 KiB): the tiles chosen hold whole groups and one step of them fits
    module = kernel("jacobi_2d", {"N": 1300, "T": 500})
    machine = detect().override(l1=32 * 1024, l2=512 * 1024, vector_bits=256)
    (plan,), _ = plan_time_tiles(module.function("jacobi_2d"), machine, rows={0: 5})
    assert isinstance(plan, TimeTilePlan)
    b, c = plan.tiling.space_sizes
    assert b % 5 == 0 and c >= 16 * 8, plan.describe()
    assert (b + 2) * (c + 2) * 8 <= 32 * 1024 * 5 / 8, plan.describe()


def test_the_auto_scheduler_jams_eight_rows_in_l1_sized_steps() -> None:
    # jacobi-2d at 300^2 (703 KiB, more than L2) with 256-bit vectors: 16 steps x 16 x 128
    # tiles (one step 18.7 KiB), 8 rows jammed in each sweep (loads not rotated)
    from transforms.auto_scheduler import auto_schedule

    module = kernel("jacobi_2d", {"N": 300, "T": 5})
    result = auto_schedule(module, l1=32, l2=512, vector_bits=256)
    (report,) = result.functions
    assert report.tiles[0].startswith(
        "time tiles of %t: 16 steps x 16 x 128 of the first 2 written dimensions"
    ), report.tiles
    assert [t.split(": ", 1)[1].split(",")[0] for t in report.tiles[1:]] == [
        "8 rows of affine.for at jacobi_2d.mlir:5:5",
        "8 rows of affine.for at jacobi_2d.mlir:20:5",
    ]
    assert affine.check_equivalent(module, result.module, backend="c")


# A 9-point box filter summed in a loop carried in iter_args, copied back each step: in
# one step of L1-sized tiles (16 x 8 x 256) its 9 reads of 3 rows leave traffic / 2.84,
# under the auto-scheduler's MIN_GAIN, and its register tiles (the sum in iter_args) do
# not rotate loads; tiles of whole rows divide the traffic by 16 (1500^2 x 100 steps:
# 1.51-1.59x, where the source was kept before).
BOX9 = """
func.func @box9(%A: memref<1500x1500xf32>, %B: memref<1500x1500xf32>) {
  %c = arith.constant 0.111111112 : f32
  affine.for %t = 0 to 100 {
    affine.for %i = 1 to 1499 {
      affine.for %j = 1 to 1499 {
        %s = affine.for %di = -1 to 2 iter_args(%acc = %c) -> (f32) {
          %a = affine.load %A[%i + %di, %j - 1] : memref<1500x1500xf32>
          %b = affine.load %A[%i + %di, %j] : memref<1500x1500xf32>
          %d = affine.load %A[%i + %di, %j + 1] : memref<1500x1500xf32>
          %s1 = arith.addf %acc, %a : f32
          %s2 = arith.addf %s1, %b : f32
          %s3 = arith.addf %s2, %d : f32
          affine.yield %s3 : f32
        }
        %r = arith.mulf %s, %c : f32
        affine.store %r, %B[%i, %j] : memref<1500x1500xf32>
      }
    }
    affine.for %i = 1 to 1499 {
      affine.for %j = 1 to 1499 {
        %v = affine.load %B[%i, %j] : memref<1500x1500xf32>
        affine.store %v, %A[%i, %j] : memref<1500x1500xf32>
      }
    }
  }
  return
}
"""


def test_tiles_below_the_gain_asked_for_give_way_to_those_that_reach_it() -> None:
    from transforms.auto_scheduler import auto_schedule

    module = affine.parse(BOX9, "box9.mlir")
    machine = detect().override(l1=48 * 1024, l2=1024 * 1024, vector_bits=512)
    (steps,), _ = plan_time_tiles(module.function("box9"), machine)
    (rows,), _ = plan_time_tiles(module.function("box9"), machine, min_gain=MIN_GAIN)
    assert isinstance(steps, TimeTilePlan) and isinstance(rows, TimeTilePlan)
    assert len(steps.tiling.space_sizes) == 2 and steps.gain < MIN_GAIN, steps.describe()
    assert len(rows.tiling.space_sizes) == 1 and rows.gain >= MIN_GAIN, rows.describe()
    result = auto_schedule(module, l1=48, l2=1024, vector_bits=512)
    (report,) = result.functions
    assert report.chosen.startswith("original+time tiles"), report.chosen
    assert report.tiles[0].startswith(rows.describe()), report.tiles
    assert any(r.startswith("time tiles not taken: ") for r in report.remarks), report.remarks
    assert affine.check_equivalent(module, result.module, backend="c")


COLUMN_JACOBI_2D = """
func.func @jacobi_cm(%A: memref<200x200xf32>, %B: memref<200x200xf32>) {
  %f = arith.constant 0.2 : f32
  affine.for %t = 0 to 6 {
    affine.for %j = 1 to 199 {
      affine.for %i = 1 to 199 {
        %c = affine.load %A[%i, %j] : memref<200x200xf32>
        %n = affine.load %A[%i - 1, %j] : memref<200x200xf32>
        %s = affine.load %A[%i + 1, %j] : memref<200x200xf32>
        %w = affine.load %A[%i, %j - 1] : memref<200x200xf32>
        %e = affine.load %A[%i, %j + 1] : memref<200x200xf32>
        %s1 = arith.addf %c, %n : f32
        %s2 = arith.addf %s1, %s : f32
        %s3 = arith.addf %s2, %w : f32
        %s4 = arith.addf %s3, %e : f32
        %v = arith.mulf %f, %s4 : f32
        affine.store %v, %B[%i, %j] : memref<200x200xf32>
      }
    }
    affine.for %j = 1 to 199 {
      affine.for %i = 1 to 199 {
        %c = affine.load %B[%i, %j] : memref<200x200xf32>
        affine.store %c, %A[%i, %j] : memref<200x200xf32>
      }
    }
  }
  return
}
"""


FDTD_BY_COLUMNS = """
func.func @fdtd_2d(%ex: memref<60x70xf32>, %ey: memref<60x70xf32>, %hz: memref<60x70xf32>, %fict: memref<4xf32>) {
  %half = arith.constant 0.5 : f32
  %c07 = arith.constant 0.7 : f32
  affine.for %t = 0 to 4 {
    affine.for %j = 0 to 70 {
      %f = affine.load %fict[%t] : memref<4xf32>
      affine.store %f, %ey[0, %j] : memref<60x70xf32>
    }
    affine.for %j = 0 to 70 {
      affine.for %i = 1 to 60 {
        %e = affine.load %ey[%i, %j] : memref<60x70xf32>
        %h = affine.load %hz[%i, %j] : memref<60x70xf32>
        %hm = affine.load %hz[%i - 1, %j] : memref<60x70xf32>
        %d = arith.subf %h, %hm : f32
        %m = arith.mulf %half, %d : f32
        %v = arith.subf %e, %m : f32
        affine.store %v, %ey[%i, %j] : memref<60x70xf32>
      }
    }
    affine.for %j = 1 to 70 {
      affine.for %i = 0 to 60 {
        %e = affine.load %ex[%i, %j] : memref<60x70xf32>
        %h = affine.load %hz[%i, %j] : memref<60x70xf32>
        %hm = affine.load %hz[%i, %j - 1] : memref<60x70xf32>
        %d = arith.subf %h, %hm : f32
        %m = arith.mulf %half, %d : f32
        %v = arith.subf %e, %m : f32
        affine.store %v, %ex[%i, %j] : memref<60x70xf32>
      }
    }
    affine.for %j = 0 to 69 {
      affine.for %i = 0 to 59 {
        %h = affine.load %hz[%i, %j] : memref<60x70xf32>
        %xp = affine.load %ex[%i, %j + 1] : memref<60x70xf32>
        %x = affine.load %ex[%i, %j] : memref<60x70xf32>
        %yp = affine.load %ey[%i + 1, %j] : memref<60x70xf32>
        %y = affine.load %ey[%i, %j] : memref<60x70xf32>
        %d1 = arith.subf %xp, %x : f32
        %d2 = arith.addf %d1, %yp : f32
        %d3 = arith.subf %d2, %y : f32
        %m = arith.mulf %c07, %d3 : f32
        %v = arith.subf %h, %m : f32
        affine.store %v, %hz[%i, %j] : memref<60x70xf32>
      }
    }
  }
  return
}
"""


# Stencils whose sweeps walk their arrays by columns: reordered (i outside j) they are as
# cheap in the model as ISL's schedule, and their time loops are tiled from there, before
# any chains in ISL's order (jacobi-2d 1500^2 x 100 steps: 29.3 ms against 332.8 for ISL's
# tiles, 2602 the source; fdtd-2d 1000 x 1200 x 100: 25.7 ms against 191.2 for ISL's
# order with chains); the schedule, over the reordered loops, is not reported as the
# source's.
@pytest.mark.parametrize("source", ["jacobi", "fdtd"])
def test_a_stencil_written_column_by_column_gets_time_tiles_over_its_rows(source: str) -> None:
    from transforms.auto_scheduler import auto_schedule

    text = COLUMN_JACOBI_2D if source == "jacobi" else FDTD_BY_COLUMNS
    module = affine.parse(text, f"{source}.mlir")
    result = auto_schedule(module, l1=8, l2=16 if source == "fdtd" else 64, vector_bits=512)
    (report,) = result.functions
    assert report.chosen.startswith("tile+time tiles"), report.chosen
    assert report.tiles[0].startswith("time tiles of %t: "), report.tiles
    assert report.schedule == ""
    assert any("bands reordered" in r for r in report.remarks), report.remarks
    for backend in ("interp", "c"):
        assert affine.check_equivalent(module, result.module, backend=backend)


def test_without_a_fitting_tile_the_sizes_say_so() -> None:
    module = kernel("heat_3d", {"N": 120, "T": 500})
    schedule_loops = plan_time_tiles(module.function("heat_3d"), detect().override(l2=64 * 1024))
    (reason,), _ = schedule_loops
    assert reason == "%t: no time tile that fits the L2 cache (64 KiB) cuts the traffic"


def test_the_auto_scheduler_time_tiles_a_stencil_whose_data_leave_the_l2_cache() -> None:
    # 2 x 4000 floats (31 KiB) against an L2 of 16 KiB: time tiles of 32 steps x 1024
    from transforms.auto_scheduler import auto_schedule

    module = kernel("jacobi_1d", {"N": 4000, "T": 8})
    result = auto_schedule(module, l2=16)
    (report,) = result.functions
    assert report.chosen == "original+time tiles+regtile"
    assert report.tiles[0] == (
        "time tiles of %t: 32 steps x 1024 of the first written dimension, skew 1 per sweep "
        "(2 sweeps per step); the model's traffic / 30.1"
    )
    # each sweep a vector loop whose loads of A[i - 1], A[i], A[i + 1] are rotated
    assert [t.split(":")[0] for t in report.tiles[1:]] == [
        "register tile of band at affine.for at jacobi_1d.mlir"
    ] * 2 + ["loads rotated in affine.for at jacobi_1d.mlir"] * 2
    assert all(" -> 1 per iteration, 1 carried" in t for t in report.tiles[3:])
    # 8 steps: one time tile, so no loop for it
    assert "-1023 + 2t + i <= 1024o1 <= 2t + i" in report.schedule
    assert affine.check_equivalent(module, result.module, backend="c")
    # with the L2 holding the data time tiles have nothing to gain: rotated loads alone
    (report,) = auto_schedule(module, l2=64).functions
    assert report.chosen == "original+regtile"


def red_black_sweep(first: str) -> str:
    """One colour's sweep of an in-place 5-point Gauss-Seidel on 96 x 96, j of step 2 from
    the bound map ``first`` of i."""
    t = "memref<96x96xf32>"
    return f"""    affine.for %i = 1 to 95 {{
      affine.for %j = {first}(%i) to 95 step 2 {{
        %a = affine.load %A[%i - 1, %j] : {t}
        %b = affine.load %A[%i + 1, %j] : {t}
        %c = affine.load %A[%i, %j - 1] : {t}
        %d = affine.load %A[%i, %j + 1] : {t}
        %s1 = arith.addf %a, %b : f32
        %s2 = arith.addf %s1, %c : f32
        %s3 = arith.addf %s2, %d : f32
        %r = arith.mulf %q, %s3 : f32
        affine.store %r, %A[%i, %j] : {t}
      }}
    }}
"""


RED_BLACK = f"""
#red = affine_map<(d0) -> (d0 mod 2 + 1)>
#black = affine_map<(d0) -> (2 - d0 mod 2)>
func.func @red_black(%A: memref<96x96xf32>) {{
  %q = arith.constant 0.25 : f32
  affine.for %t = 0 to 70 {{
{red_black_sweep("#red")}{red_black_sweep("#black")}  }}
  return
}}
"""


def test_red_black_sweeps_of_step_two_get_time_tiles_that_keep_their_parity() -> None:
    # Gauss-Seidel in place, red points (i + j odd) then black, j of step 2 from a bound
    # in i mod 2: time tiles of 32 steps (three of them over 70) skew i by one a sweep and
    # keep j's step and parity (2000^2 x 50 steps: 1.98x)
    from transforms.auto_scheduler import auto_schedule

    module = affine.parse(RED_BLACK, "red_black.mlir")
    result = auto_schedule(module, l1=4, l2=16, l3=64)
    (report,) = result.functions
    assert report.chosen == "original+time tiles", report.chosen
    assert report.tiles[0].startswith("time tiles of %t: 32 steps"), report.tiles
    text = affine.print_module(result.module)
    assert text.count("step 2") == 2 and "mod 2" in text
    for backend in ("interp", "c"):
        assert affine.check_equivalent(module, result.module, backend=backend, rtol=0.0)


PARAMETRIC_JACOBI_2D = """
func.func @jacobi_2d(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %N: index, %T: index) {
  %fifth = arith.constant 0.2 : f32
  affine.for %t = 0 to %T {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
        %c = affine.load %A[%i, %j] : memref<?x?xf32>
        %n = affine.load %A[%i - 1, %j] : memref<?x?xf32>
        %s = affine.load %A[%i + 1, %j + 1] : memref<?x?xf32>
        %a = arith.addf %c, %n : f32
        %b = arith.addf %a, %s : f32
        %v = arith.mulf %fifth, %b : f32
        affine.store %v, %B[%i, %j] : memref<?x?xf32>
      }
    }
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
        %c = affine.load %B[%i, %j - 1] : memref<?x?xf32>
        affine.store %c, %A[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}
"""


def test_a_stencil_of_unknown_sizes_gets_the_tiles_of_sizes_of_1024() -> None:
    # the sizes as parameters and the memrefs of unknown shape: tiles sized as everywhere
    # for an unknown extent (TYPICAL_PARAMETER, 1024), the writes' subscripts read in the
    # function's parameters (N, T); correct at any N and T, the degenerate ones too
    import numpy as np

    from transforms.auto_scheduler import auto_schedule

    module = affine.parse(PARAMETRIC_JACOBI_2D, "jacobi_2d.mlir")
    machine = detect().override(l1=32 * 1024, l2=512 * 1024, vector_bits=256)
    (plan,), _ = plan_time_tiles(module.function("jacobi_2d"), machine)
    sized = kernel("jacobi_2d", {"N": 1024, "T": 500}).function("jacobi_2d")
    (static_plan,), _ = plan_time_tiles(sized, machine)
    assert isinstance(plan, TimeTilePlan) and isinstance(static_plan, TimeTilePlan)
    assert plan.tiling == static_plan.tiling
    result = auto_schedule(module, l1=32, l2=512, vector_bits=256)
    (report,) = result.functions
    assert report.tiles[0] == static_plan.describe()
    assert "(its data: 8192 KiB)" in report.text()
    for n, t in [(2, 3), (3, 1), (20, 0), (45, 7), (150, 19)]:
        rng = np.random.default_rng(n)
        a, b = (rng.uniform(-1, 1, (n, n)).astype(np.float32) for _ in range(2))
        assert affine.check_equivalent(module, result.module, a, b, n, t, backend="c")


def test_the_pass_remarks_at_each_time_loop_and_refuses_sizes_that_do_not_fit() -> None:
    import transforms

    module = kernel("fdtd_2d")
    result = transforms.run_pass(module, "affine-time-tile", time_size=2, space_sizes=(4,))
    (remark,) = result.remarks
    assert remark.splitlines()[0] == (
        "fdtd_2d.mlir:6:3: remark: time tiles of %t: 2 steps x 4 of the first written "
        "dimension, skew 1 per sweep (4 sweeps per step); the model's traffic / 0.667"
    )
    assert affine.check_equivalent(module, result.module)
    result = transforms.run_pass(module, "affine-time-tile", time_size=2, space_sizes=(4, 4, 4))
    (remark,) = result.remarks
    assert remark.splitlines()[0].endswith(
        "not time-tiled: %t: 3 space tile sizes given; its sweeps write 2 dimensions"
    )
    assert affine.print_module(result.module) == affine.print_module(module)


@pytest.mark.mlir
@pytest.mark.parametrize("name", ["jacobi_1d", "heat_3d", "fdtd_2d"])
def test_mlir_opt_reads_time_tiles(mlir_opt: str, name: str) -> None:
    result = time_tile_function(kernel(name), name, detect(), 2, (4,))
    done = run_mlir_opt(mlir_opt, affine.print_module(result.module))
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("name", "bt", "sizes"), [("jacobi_2d", 3, (7,)), ("fdtd_2d", 3, (2,))])
def test_register_tiles_cut_rows_inside_time_tiles(name: str, bt: int, sizes: tuple) -> None:
    # a sweep's rows in a tile run from max(1, its left edge): groups of 8 rows under an
    # affine.if per result of the max, all under a test that the tile has rows of this sweep
    # at all (fdtd-2d's tiles of 2 rows leave some sweeps without any)
    from transforms.register_tiling import register_tile_function
    from transforms.registry import PassContext

    module = kernel(name)
    tiled = time_tile_function(module, name, detect(), bt, sizes).module.clone()
    context = PassContext(print_op_on_diagnostic=False)
    done = register_tile_function(tiled.function(name), detect(), context, fma=False)
    assert len(done) >= 2 and all(" rows of " in line for line in done)
    assert "affine.vector_load" in affine.print_module(tiled)
    assert affine.check_equivalent(module, tiled)


def test_the_auto_scheduler_puts_register_tiles_inside_time_tiles() -> None:
    # jacobi-2d at 200 x 200 (2 x 156 KiB) against an L2 of 64 KiB: a row of both arrays is
    # 1.6 KiB, so two steps of tiles of 32 rows (+ 2 x 2 rows of halo) fit; 32 steps of
    # them read 32 + 2 x 32 rows for 32 x 32 row updates: traffic / 10.7
    from transforms.auto_scheduler import auto_schedule

    module = kernel("jacobi_2d", {"N": 200, "T": 64})
    result = auto_schedule(module, l2=64)
    (report,) = result.functions
    assert report.chosen == "original+time tiles+regtile"
    assert report.tiles[0] == (
        "time tiles of %t: 32 steps x 32 of the first written dimension, skew 1 per sweep "
        "(2 sweeps per step); the model's traffic / 10.7"
    )
    # a register tile in each sweep, its loads of B[i][j - 1..j + 1] rotated
    assert [t.split(" ")[0] for t in report.tiles[1:]] == ["register"] * 2 + ["loads"] * 2
    # the time loop tiled: tile loops over steps and rows around each sweep's t, i, j
    assert max(loop_depths(result.module.function("jacobi_2d"))) == 5
    assert affine.check_equivalent(module, result.module, backend="c")


def test_the_tuner_starts_from_time_tiles_of_several_sizes() -> None:
    from transforms.tuner import TuneSpace

    module = kernel("jacobi_1d", {"N": 4000, "T": 8})
    bases = [b for b in TuneSpace(module, "jacobi_1d", auto=False).bases if "time" in b.name]
    # the model's sizes for this machine's L2, then twice and four times them (tiles as
    # wide as the rows would build the same module as a smaller multiple: dropped)
    shapes = [tuple(int(x) for x in b.name.removeprefix("time tiles ").split("x")) for b in bases]
    assert 1 <= len(shapes) <= 3
    assert all(s == tuple(2**k * x for x in shapes[0]) for k, s in enumerate(shapes))
    steps, points = shapes[-1]
    assert bases[-1].options == f'--affine-time-tile="time-size={steps} space-sizes={points}"'
    assert affine.check_equivalent(module, bases[-1].module, backend="c")


# (kernel, rows behind per statement): sweeps fused row by row run each statement where it
# writes, shifted by the fewest rows the dependences within a step allow. fdtd-2d: hz row i
# (S3) reads ey row i + 1 (S1) and ex[i][j + 1] (S2), so it runs one row behind; ey[0][j]
# (S0) and ex row i need nothing. jacobi-1d/2d: A row i (S1) reads B row i + 1 (S0).
# heat-3d's A = f(B) likewise.
FUSION_SHIFTS = [
    ("fdtd_2d", {"S0": 0, "S1": 0, "S2": 0, "S3": 1}),
    ("jacobi_1d", {"S0": 0, "S1": 1}),
    ("jacobi_2d", {"S0": 0, "S1": 1}),
    ("heat_3d", {"S0": 0, "S1": 1}),
]


@pytest.mark.parametrize(("name", "shifts"), FUSION_SHIFTS)
def test_sweeps_fuse_row_by_row_with_the_fewest_rows_behind(
    name: str, shifts: dict[str, int]
) -> None:
    from poly.schedule import Schedule
    from poly.time_tiles import find_time_loops, fused_schedule, fusion_shifts

    module = kernel(name)
    schedule = Schedule.of(module.function(name))
    (loop,), _ = find_time_loops(schedule)
    assert fusion_shifts(schedule, loop) == shifts
    fused = fused_schedule(schedule, loop, shifts)
    # one row fewer behind is illegal for every statement that has a shift
    for statement, rows in shifts.items():
        if rows:
            assert not fused_schedule(schedule, loop, {**shifts, statement: rows - 1}).check()
    result = fused.apply(split=True)
    # split at the rows and columns where only some statements run: no guard in a row
    assert guarded_rows(result.function(name)) == []
    assert affine.check_equivalent(module, result)


def test_a_sweep_that_writes_an_element_twice_a_step_is_not_fused() -> None:
    from poly.schedule import Schedule
    from poly.time_tiles import find_time_loops, fusion_shifts

    module = affine.parse(
        """
func.func @f(%A: memref<16xf32>, %B: memref<16xf32>) {
  affine.for %t = 0 to 4 {
    affine.for %i = 0 to 16 {
      affine.for %k = 0 to 3 {
        %a = affine.load %A[%i] : memref<16xf32>
        %b = affine.load %B[%i] : memref<16xf32>
        %s = arith.addf %a, %b : f32
        affine.store %s, %B[%i] : memref<16xf32>
      }
    }
    affine.for %i = 0 to 16 {
      %b = affine.load %B[%i] : memref<16xf32>
      affine.store %b, %A[%i] : memref<16xf32>
    }
  }
  return
}
""",
        "f.mlir",
    )
    schedule = Schedule.of(module.function("f"))
    (loop,), _ = find_time_loops(schedule)
    assert fusion_shifts(schedule, loop) == "%t: S0 writes an element twice in a step"


@pytest.mark.parametrize(("name", "sizes"), [("fdtd_2d", (5,)), ("jacobi_2d", (4,))])
def test_fused_time_tiles_compute_the_original_results(name: str, sizes: tuple[int]) -> None:
    module = kernel(name)
    result = time_tile_function(module, name, detect(), 3, sizes, fuse=True)
    (plan,) = result.tiled
    assert plan.tiling.fused and "fused row by row" in plan.describe()
    assert guarded_rows(result.module.function(name)) == []
    assert affine.check_equivalent(module, result.module)


def test_the_auto_scheduler_fuses_sweeps_where_forwarding_saves_loads() -> None:
    # fdtd-2d at 200 x 240 (563 KiB) against an L2 of 64 KiB: its four sweeps fused row by
    # row, hz[i][j] loaded once for ey and ex, ey[i + 1][j] and ex[i][j] of the same
    # iteration forwarded to hz's update: 3 of 11 loads of the full rows' loop
    from transforms.auto_scheduler import auto_schedule

    module = kernel("fdtd_2d", {"TMAX": 6, "NX": 200, "NY": 240})
    result = auto_schedule(module, l2=64)
    (report,) = result.functions
    assert "its 4 sweeps fused row by row (S3 1 behind)" in report.tiles[0]
    assert report.tiles[1] == (
        "the fused sweeps' loads of values loaded or stored before in the same iteration "
        "forwarded: 27% of the innermost loop's loads (the schedule re-applies with "
        "--affine-schedule split)"
    )
    assert report.split and "  schedule (apply with split): " in result.text()
    assert affine.check_equivalent(module, result.module, backend="c")
    # jacobi-1d's fused step saves 1 of 6 loads: its sweeps stay apart, with rows jammed
    module = kernel("jacobi_1d", {"N": 4000, "T": 8})
    (report,) = auto_schedule(module, l2=16).functions
    assert "skew 1 per sweep (2 sweeps per step)" in report.tiles[0]
    assert any(
        r.startswith("sweeps not fused: ") and "saves 17% of the loads" in r for r in report.remarks
    )
    assert not report.split


@pytest.mark.parametrize("fuse", [False, True])
def test_a_statement_outside_every_loop_keeps_its_place(fuse: bool) -> None:
    # A[0] = 0 before jacobi-1d's time loop: a statement with no loop (no time dimension)
    text = (KERNELS / "jacobi_1d.mlir").read_text()
    start = text.index("  affine.for %t")
    store = "  %z = arith.constant 0.0 : f32\n  affine.store %z, %A[0] : memref<40xf32>\n"
    module = affine.parse(text[:start] + store + text[start:], "jacobi_1d.mlir")
    result = time_tile_function(module, "jacobi_1d", detect(), 2, (5,), fuse=fuse)
    (plan,) = result.tiled
    assert plan.tiling.fused == fuse
    assert affine.check_equivalent(module, result.module)


@pytest.mark.parametrize(
    ("name", "rows", "fused"),
    [("fdtd_2d", 4, True), ("fdtd_2d", 5, False), ("jacobi_2d", 4, True), ("heat_3d", 4, True)],
)
def test_fused_sweeps_of_unknown_sizes_keep_their_results(
    name: str, rows: int, fused: bool
) -> None:
    # sizes as arguments: fdtd-2d's split loops in tiles of 5 rows would need a condition
    # affine.if cannot write (a disjunction over NX, NY and TMAX), so its sweeps are tiled
    # apart instead
    import numpy as np

    from affine.exec.inputs import signature
    from tests.parametric import parametric

    source = (KERNELS / f"{name}.mlir").read_text()
    text, sizes = parametric(source)
    module = affine.parse(text, f"{name}.mlir")
    result = time_tile_function(module, name, detect(), 2, (rows,), fuse=True)
    (plan,) = result.tiled
    assert plan.tiling.fused == fused
    if not fused:
        assert result.others[-1].startswith(
            "sweeps not fused: the schedule cannot be written as affine loops: "
            "disjunctive condition"
        )
    rng = np.random.default_rng(0)
    arrays = [
        rng.uniform(-1, 1, t.shape).astype(np.float32)
        for t in signature(kernel(name).function(name))[0]
    ]
    assert affine.check_equivalent(module, result.module, *arrays, *sizes, backend="c")


def test_the_pass_says_why_sweeps_are_not_fused_and_tiles_them_apart() -> None:
    import transforms

    # fdtd-2d's columns: hz[i][j] reads ex[i][j + 1], which fused rows leave unshifted
    module = kernel("fdtd_2d")
    result = transforms.run_pass(
        module, "affine-time-tile", time_size=2, space_sizes=(5, 5), fuse=True
    )
    tiled, why = (r.splitlines()[0] for r in result.remarks)
    assert "skew 1 per sweep (4 sweeps per step)" in tiled
    assert why.startswith(
        "fdtd_2d.mlir:3:1: remark: sweeps not fused: %t: no skew up to 4 makes time tiles legal"
    )
    assert affine.check_equivalent(module, result.module)
    # a sweep reading the row 5 below what the one before wrote would run 5 rows behind
    text = (KERNELS / "jacobi_1d.mlir").read_text().replace("%B[%i + 1]", "%B[%i + 5]")
    text = text.replace(
        "affine.for %i = 1 to 39 {\n      %l = affine.load %B",
        "affine.for %i = 1 to 35 {\n      %l = affine.load %B",
    )
    module = affine.parse(text, "jacobi_1d.mlir")
    result = transforms.run_pass(
        module, "affine-time-tile", time_size=2, space_sizes=(8,), fuse=True
    )
    assert any(
        "sweeps not fused: %t: S1 would run more than 4 rows behind" in r for r in result.remarks
    ), result.remarks


def test_sizes_are_chosen_where_no_memref_has_the_innermost_written_dimension() -> None:
    # mlir-opt's tiled matmul over memrefs with a tiled layout (as -affine-loop-tile writes
    # it): the outer tile loop is taken as a time loop, and no memref's shape gives the
    # length of a row along its last written dimension, so no step tile is sized by it
    # (the size search failed on an empty max before)
    text = """
#tiled = affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>
func.func @tiled_layout(%A: memref<16x16xf32, #tiled>, %B: memref<16x16xf32>, %C: memref<16x16xf32, #tiled>) {
  %zero = arith.constant 0.000000e+00 : f32
  affine.for %ii = 0 to 16 step 3 {
    affine.for %jj = 0 to 16 step 3 {
      affine.for %i = affine_map<(d0) -> (d0)>(%ii) to min affine_map<(d0) -> (d0 + 3, 16)>(%ii) {
        affine.for %j = affine_map<(d0) -> (d0)>(%jj) to min affine_map<(d0) -> (d0 + 3, 16)>(%jj) {
          affine.store %zero, %C[%i, %j] : memref<16x16xf32, #tiled>
          affine.for %k = 0 to 16 {
            %a = affine.load %A[%i, %k] : memref<16x16xf32, #tiled>
            %b = affine.load %B[%k, %j] : memref<16x16xf32>
            %p = arith.mulf %a, %b : f32
            %c = affine.load %C[%i, %j] : memref<16x16xf32, #tiled>
            %s = arith.addf %c, %p : f32
            affine.store %s, %C[%i, %j] : memref<16x16xf32, #tiled>
          }
        }
      }
    }
  }
  return
}
"""
    module = affine.parse(text, "tiled.mlir")
    result = time_tile_function(module, "tiled_layout", detect())
    assert affine.check_equivalent(module, result.module)
