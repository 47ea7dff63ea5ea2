"""Which ops make a statement, how statements and loops are named, and what is refused
(poly/schedule_program.py): golden descriptions and exact messages."""

from __future__ import annotations

import pytest
from schedule_programs import CALL, IMPERFECT

import affine
from poly.schedule import Schedule
from poly.schedule_program import ScheduleError


def schedule_of(text: str) -> Schedule:
    module = affine.parse(text, "f.mlir")
    return Schedule.of(module.functions()[-1])


def refusal(text: str) -> str:
    with pytest.raises(ScheduleError) as caught:
        schedule_of(text)
    return caught.value.render()


def test_runs_between_loops_are_cut_where_no_value_crosses() -> None:
    s = schedule_of(IMPERFECT)
    assert s.describe() == (
        "S0[i] at f.mlir:4 in %i: affine.store; writes %y\n"
        "S1[i] at f.mlir:5-12 in %i: affine.for, affine.store; reads %A, %x; writes %y\n"
        "S2[i] at f.mlir:15-17 in %i: affine.load, arith.mulf, affine.store; reads %y; "
        "writes %z\n"
        "S3[i] at f.mlir:19 in %i: affine.store; writes %A\n"
        "schedule: { S0[i] -> [0, i, 0]; S1[i] -> [0, i, 1]; S2[i] -> [0, i, 2]; "
        "S3[i] -> [0, i, 3] }"
    )
    # the affine.if is a constraint on the instances (its else block the negation); the
    # constant is recomputed in S2
    assert str(s.statements[2].domain) == "{ S2[i] : 8 <= i <= 15 }"
    assert str(s.statements[3].domain) == "{ S3[i] : 0 <= i <= 7 }"
    assert [op.name for op in s.statements[2].recompute] == ["arith.constant"]
    assert [op.name for op in s.program.prologue] == ["arith.constant"]


def test_a_value_used_in_a_later_loop_makes_the_loop_part_of_its_statement() -> None:
    s = schedule_of(
        """\
func.func @f(%A: memref<8x8xf32>, %x: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %p = affine.load %x[%i] : memref<8xf32>
    affine.for %j = 0 to 8 {
      %a = affine.load %A[%i, %j] : memref<8x8xf32>
      %m = arith.mulf %a, %p : f32
      affine.store %m, %A[%i, %j] : memref<8x8xf32>
    }
    affine.for %j = 0 to 8 {
      %c1 = arith.constant 1.0 : f32
      %k = affine.apply affine_map<(d0) -> (7 - d0)>(%j)
      %a = affine.load %A[%i, %k] : memref<8x8xf32>
      %m = arith.addf %a, %c1 : f32
      affine.store %m, %A[%i, %j] : memref<8x8xf32>
    }
  }
  return
}
"""
    )
    assert s.describe() == (
        "S0[i] at f.mlir:3-4 in %i: affine.load, affine.for; reads %x, %A; writes %A\n"
        "S1[i, j] at f.mlir:12-14 in %i, %j@9: affine.load, arith.addf, affine.store; "
        "reads %A; writes %A\n"
        "schedule: { S0[i] -> [0, i, 0, 0, 0]; S1[i, j] -> [0, i, 1, j, 0] }"
    )
    assert s.loops == ["%i", "%j@9"]
    assert [op.name for op in s.statements[1].recompute] == ["arith.constant", "affine.apply"]


def test_names_are_identifiers_isl_reads_back() -> None:
    s = schedule_of(
        """\
func.func @f(%max: memref<8xf32>, %0: index) {
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to %0 {
    affine.store %z, %max[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    affine.for %floor = 0 to 8 {
      affine.store %z, %max[%floor] : memref<8xf32>
    }
  }
  return
}
"""
    )
    assert str(s) == ("[v0] -> { S0[i] -> [0, i, 0, 0, 0]; S1[i, floor_] -> [1, i, 0, floor_, 0] }")
    assert s.loops == ["%i@3", "%i@6", "%floor"]
    assert str(s.replace(str(s))) == str(s)


def test_an_op_with_unseen_effects_is_a_statement_of_its_own() -> None:
    s = schedule_of(CALL)
    assert [st.describe() for st in s.statements] == [
        "S0[i] at f.mlir:5 in %i: affine.store; writes %A",
        "S1[i] at f.mlir:6 in %i: func.call",
    ]
    assert [op.name for op in s.statements[1].unseen] == ["func.call"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            """\
func.func @f(%A: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = affine.load %A[%c0] : memref<8xf32>
  return %v : f32
}
""",
            "f.mlir:4:3: error: %v defined at f.mlir:3:8 is used here, outside the statement "
            "that computes it: values that cross statements cannot be rescheduled\n"
            "  return %v : f32\n  ^",
        ),
        (
            """\
func.func @f(%A: memref<8xf32>, %c: i1) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return
^bb2:
  return
}
""",
            "f.mlir:1:1: error: a function body of several blocks cannot be scheduled\n"
            "func.func @f(%A: memref<8xf32>, %c: i1) {\n^",
        ),
        (
            """\
func.func @f(%A: memref<8xf32>) {
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 step 0 {
    affine.store %z, %A[%i] : memref<8xf32>
  }
  return
}
""",
            "f.mlir:3:3: error: a loop of step 0 never ends and cannot be rescheduled\n"
            "  affine.for %i = 0 to 8 step 0 {\n  ^",
        ),
        (
            """\
func.func @f(%A: memref<8xf32>, %n: index) {
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to affine_map<(d0)[s0] -> (d0 mod s0)>(%i)[%n] {
      affine.store %z, %A[%j] : memref<8xf32>
    }
  }
  return
}
""",
            "f.mlir:5:7: error: the instances of this op are not an affine set (non-affine "
            "upper bound d0 mod s0 dropped), so it cannot be rescheduled\n"
            "      affine.store %z, %A[%j] : memref<8xf32>\n      ^",
        ),
        (
            """\
func.func @f(%A: memref<?x?xf32>, %m: index) {
  %c0 = arith.constant 0 : index
  %rows = memref.dim %A, %c0 : memref<?x?xf32>
  affine.for %t = 0 to %m {
    %s = memref.subview %A[0, 0] [%rows, %t] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
    %d = memref.dim %s, %c0 : memref<?x?xf32, strided<[?, 1]>>
    affine.for %i = 0 to %d {
      %v = affine.load %A[%i, %t] : memref<?x?xf32>
      affine.store %v, %A[%t, %i] : memref<?x?xf32>
    }
  }
  return
}
""",
            "f.mlir:6:10: error: %d bounds the loops of S0 as a symbol but is computed inside "
            "a loop; schedules need such values at the function's top level\n"
            "    %d = memref.dim %s, %c0 : memref<?x?xf32, strided<[?, 1]>>\n         ^",
        ),
    ],
    ids=["returned-value", "several-blocks", "step-0", "non-affine-bound", "symbol-in-loop"],
)
def test_refusals(text: str, message: str) -> None:
    assert refusal(text) == message
