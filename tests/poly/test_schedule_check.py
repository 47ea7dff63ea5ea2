"""Schedule legality (poly/schedule_check.py) on kernels: the exact verdicts, with the
dependence, the accesses and their source positions, a witness pair and its distance."""

from __future__ import annotations

from pathlib import Path

import pytest
from schedule_programs import CALL, STENCIL

import affine
from poly.schedule import Schedule

KERNELS = Path(__file__).parent.parent / "corpus" / "kernels"


def kernel(name: str) -> Schedule:
    text = (KERNELS / f"{name}.mlir").read_text()
    return Schedule.of(affine.parse(text, f"{name}.mlir").functions()[0])


@pytest.fixture(scope="module")
def seidel() -> Schedule:
    return kernel("seidel_2d")


@pytest.fixture(scope="module")
def jacobi() -> Schedule:
    return kernel("jacobi_2d")


STORE = "S0 (affine.store %v, %A[%i, %j] at seidel_2d.mlir:26:9)"


def verdict(s: Schedule, **options) -> str:
    v = s.check(**options)
    return f"{v.status}: {v.reason}" if v.reason else v.status


def test_the_source_order_is_legal(seidel: Schedule, jacobi: Schedule) -> None:
    assert verdict(seidel) == "legal"
    assert verdict(jacobi) == "legal"


def test_interchange_reverses_a_dependence(seidel: Schedule) -> None:
    assert verdict(seidel.interchange("%i", "%j")) == (
        f"illegal: the RAW dependence from {STORE} to S0 (affine.load %A[%i - 1, %j + 1] at "
        "seidel_2d.mlir:10:16) is reversed (S0[t = 0, i = 17, j = 18] and "
        "S0[t = 0, i = 18, j = 17], distance (0, -1, 1) on %t, %j, %i)"
    )


def test_seidel_tiles_only_once_skewed(seidel: Schedule) -> None:
    assert verdict(seidel.tile(["%t", "%i", "%j"], [4, 4, 4])) == (
        f"illegal: the RAW dependence from {STORE} to S0 (affine.load %A[%i - 1, %j + 1] at "
        "seidel_2d.mlir:10:16) is reversed (S0[t = 0, i = 1, j = 16] and "
        "S0[t = 3, i = 2, j = 15], distance (0, 0, -4, 3, 1, -1) on %t.tile, %i.tile, "
        "%j.tile, %t.point, %i.point, %j.point)"
    )
    skewed = seidel.skew("%i", {"%t": 1}).skew("%j", {"%t": 2, "%i": 1})
    assert str(skewed) == "{ S0[t, i, j] -> [0, t, 0, t + i, 0, 3t + i + j, 0] }"
    assert verdict(skewed.tile(["%t", "%i", "%j"], [4, 4, 4])) == "legal"
    assert verdict(skewed.tile(["%t", "%i", "%j"], [4, 4, 4]), value_based=True) == "legal"


def test_jacobi_time_tiling_needs_the_shift(jacobi: Schedule) -> None:
    fused = jacobi.fuse("%i@6", "%i@21").fuse("%j@7", "%j@22")
    skewed = fused.skew("%i@6", {"%t": 2}).skew("%j@7", {"%t": 2})
    assert verdict(skewed) == (
        "illegal: the RAW dependence from S0 (affine.store %v, %B[%i, %j] at "
        "jacobi_2d.mlir:18:9) to S1 (affine.load %B[%i, %j + 1] at jacobi_2d.mlir:25:14) is "
        "reversed (S0[t = 9, i = 18, j = 18] and S1[t = 9, i = 18, j = 17], distance "
        "(0, 0, -1) on %t, %i@6, %j@7)"
    )
    shifted = skewed.shift("%i@6", 1, ["S1"]).shift("%j@7", 1, ["S1"])
    assert str(shifted) == (
        "{ S0[t, i, j] -> [0, t, 0, 2t + i, 0, 2t + j, 0]; "
        "S1[t, i, j] -> [0, t, 0, 1 + 2t + i, 0, 1 + 2t + j, 1] }"
    )
    assert verdict(shifted.tile(["%t", "%i@6", "%j@7"], [4, 4, 4])) == "legal"


def test_parallel_marks(seidel: Schedule, jacobi: Schedule) -> None:
    assert verdict(seidel.parallel("%j")) == (
        f"illegal: the RAW dependence from {STORE} to S0 (affine.load %A[%i, %j - 1] at "
        "seidel_2d.mlir:11:16) is carried by parallel loop %j (S0[t = 0, i = 18, j = 17] and "
        "S0[t = 0, i = 18, j = 18], distance (0, 0, 1) on %t, %i, %j)"
    )
    inner = jacobi.parallel("%i@6").parallel("%j@7").parallel("%i@21").parallel("%j@22")
    assert verdict(inner) == "legal"
    assert verdict(jacobi.parallel("%t")).startswith("illegal: the RAW dependence")


def test_instances_at_the_same_time_are_a_violation(seidel: Schedule) -> None:
    assert verdict(seidel.replace("{ S0[t, i, j] -> [t, i] }")) == (
        f"illegal: the RAW dependence from {STORE} to S0 (affine.load %A[%i, %j - 1] at "
        "seidel_2d.mlir:11:16) is reversed: both run at the same time (S0[t = 0, i = 18, "
        "j = 17] and S0[t = 0, i = 18, j = 18], distance (0, 0) on %t, %i)"
    )


def test_parametric_tiles_need_a_permutable_band() -> None:
    s = Schedule.of(affine.parse(STENCIL, "s.mlir").functions()[0])
    assert str(s) == "[T, N] -> { S0[t, i, j] -> [0, t, 0, i, 0, j, 0] }"
    assert verdict(s.tile(["%i", "%j"], ["%S", "%S"])) == (
        "illegal: the RAW dependence from S0 (affine.store %c, %A[%i, %j] at s.mlir:8:9) to "
        "S0 (affine.load %A[%i - 1, %j + 1] at s.mlir:5:14) has a negative distance on %j, "
        "so band %i, %j cannot be tiled (S0[t = 0, i = 1, j = 2] and S0[t = 0, i = 2, j = 1], "
        "distance (0, 1, -1) on %t, %i, %j)"
    )
    assert verdict(s.skew("%j", {"%i": 1}).tile(["%i", "%j"], ["%S", "%S"])) == "legal"


def test_unseen_effects_make_any_reordering_unknown() -> None:
    s = Schedule.of(affine.parse(CALL, "c.mlir").functions()[-1])
    assert verdict(s) == "legal"
    assert verdict(s.reverse("%i")) == (
        "unknown: the order of S1 (func.call @g() at c.mlir:6:5) before S0 (affine.store %z, "
        "%A[%i] at c.mlir:5:5) is reversed (S1[i = 0] and S0[i = 7], distance (-7) on %i); "
        "func.call at c.mlir:6:5 may have effects the dependence analysis cannot see"
    )
    assert not s.reverse("%i").check()


# A call between a buffer's writes and reads. The call cannot reach %t when %t is a local
# allocation it is not given, so only the RAW flow on %t orders the nests (fusing them is
# legal); given %t (or with %t a function argument) the call may write it.
CALL_AND_BUFFER = """\
func.func private @g({buffer})
func.func @f(%out: memref<8xf32>{argument}) {{
  %z = arith.constant 1.0 : f32
  {alloc}
  affine.for %i = 0 to 8 {{
    affine.store %z, %t[%i] : memref<8xf32>
  }}
  affine.for %k = 0 to 8 {{
    func.call @g({operand}) : ({buffer}) -> ()
    %v = affine.load %t[%k] : memref<8xf32>
    affine.store %v, %out[%k] : memref<8xf32>
  }}
  return
}}
"""


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        ({"alloc": "%t = memref.alloc() : memref<8xf32>", "argument": ""}, "legal"),
        ({"alloc": "%t = memref.alloca() : memref<8xf32>", "argument": ""}, "legal"),
        ({"alloc": "", "argument": ", %t: memref<8xf32>"}, "unknown"),
        (
            {
                "alloc": "%t = memref.alloc() : memref<8xf32>",
                "argument": "",
                "buffer": "memref<8xf32>",
                "operand": "%t",
            },
            "unknown",
        ),
    ],
)
def test_unseen_effects_reach_only_buffers_they_can_name(
    shape: dict[str, str], expected: str
) -> None:
    text = CALL_AND_BUFFER.format(**({"buffer": "", "operand": ""} | shape))
    s = Schedule.of(affine.parse(text, "c.mlir").functions()[-1])
    assert verdict(s.fuse("%i", "%k")).split(":")[0] == expected


def test_a_budget_hit_is_unknown(seidel: Schedule) -> None:
    tiled = seidel.skew("%i", {"%t": 1}).tile(["%t", "%i"], [4, 4])
    assert verdict(tiled, max_operations=1000) == (
        "unknown: the legality check of a schedule exceeded the ISL budget of 1000 "
        "operations; the answer is unknown (raise the budget with poly.budget(...) to try "
        "harder)"
    )


TWO_STATEMENT_CONSUMER = """
func.func @f(%A: memref<10xf32>, %B: memref<10xf32>, %C: memref<10xf32>, %D: memref<10xf32>) {
  %T = memref.alloc() : memref<10xf32>
  affine.for %i = 0 to 10 {
    %a = affine.load %A[%i] : memref<10xf32>
    affine.store %a, %T[%i] : memref<10xf32>
  }
  affine.for %i = 0 to 10 {
    %t = affine.load %T[%i] : memref<10xf32>
    affine.store %t, %B[%i] : memref<10xf32>
    %c = affine.load %C[%i] : memref<10xf32>
    affine.store %c, %D[%i] : memref<10xf32>
  }
  return
}
"""


def test_two_constant_dimensions_in_a_row_keep_the_outer_order() -> None:
    """In ``[0, i, 0, i, 0]`` against ``[0, i, 1, 0, 0]`` / ``[0, i, 1, 1, 0]`` the first
    sequence puts S0 first; the second only orders S1 before S2 (the tree splices the
    inner sequence into the outer one, so the 2d+1 map keeps both positions)."""
    s = Schedule.of(affine.parse(TWO_STATEMENT_CONSUMER, "two.mlir").functions()[0])
    fused = "{ S0[i] -> [i, 0, i, 0]; S1[i] -> [i, 1, 0, 0]; S2[i] -> [i, 1, 1, 0] }"
    assert verdict(s.replace(fused)) == "legal"
    reversed_ = "{ S0[i] -> [i, 1, i, 0]; S1[i] -> [i, 0, 0, 0]; S2[i] -> [i, 0, 1, 0] }"
    assert verdict(s.replace(reversed_)).startswith("illegal: the RAW dependence from S0")
