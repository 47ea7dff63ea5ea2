"""ISL's scheduler over a function's statements (poly/schedule_isl.py), and ISL's trees read
back into schedules: exact schedules on kernels, the budget, nested sequences."""

from __future__ import annotations

from pathlib import Path

import islpy as isl
import pytest

import affine
from poly.context import IslBudgetExceeded
from poly.schedule import Schedule
from poly.schedule_isl import compute_schedule, innermost_first
from poly.space import read_user_text

KERNELS = Path(__file__).parent.parent / "corpus" / "kernels"


def kernel(name: str) -> tuple[affine.Module, Schedule]:
    text = (KERNELS / f"{name}.mlir").read_text()
    module = affine.parse(text, f"{name}.mlir")
    return module, Schedule.of(module.functions()[0])


def isl_schedule(s: Schedule, **options) -> Schedule:
    dependences, _ = s.program.dependences()
    return s.replace(compute_schedule(s.program, dependences, **options))


def test_jacobi_2d_gets_a_skewed_permutable_band() -> None:
    module, s = kernel("jacobi_2d")
    chosen = isl_schedule(s)
    assert str(chosen) == (
        "{ S0[t, i, j] -> [0, t, 0, 2t + i, 0, 2t + j, 0]; "
        "S1[t, i, j] -> [0, t, 0, 1 + 2t + i, 0, 1 + 2t + j, 0] }"
    )
    assert chosen.check().legal
    assert affine.check_equivalent(module, chosen.apply(), backend="interp")


def test_seidel_2d_gets_a_band_skewed_by_the_time_loop() -> None:
    module, s = kernel("seidel_2d")
    chosen = isl_schedule(s)
    assert str(chosen) == "{ S0[t, i, j] -> [0, t, 0, t + i, 0, 2t + i + j, 0] }"
    assert affine.check_equivalent(module, chosen.apply(), backend="interp")


def test_innermost_first_moves_each_statements_last_dimension_to_the_front() -> None:
    _, s = kernel("lu")
    rotation = innermost_first(s.program.domain)
    # S0[i] stays; S2[i, j] -> [j, i]; S1, S3[i, j, k] -> [k, i, j]
    assert rotation.is_bijective()
    for point, image in (
        ("S0[3]", "S0[3]"),
        ("S2[5, 2]", "S2[2, 5]"),
        ("S1[5, 3, 1]", "S1[1, 5, 3]"),
    ):
        one = read_user_text(isl.UnionSet, "{ " + point + " }")
        assert one.apply(rotation).is_equal(read_user_text(isl.UnionSet, "{ " + image + " }"))


def test_lu_with_innermost_loops_outside_is_right_looking() -> None:
    """ISL keeps the order it is given where the dependences allow: seen with ``k`` first,
    LU's updates ``A[i][j] -= A[i][k] * A[k][j]`` run step by step of ``k`` over the whole
    trailing matrix, each row ``i`` by ``j`` (stride 1), and the division of ``A[i][j]`` at
    step ``j``; the same updates of each element in the same order."""
    module, s = kernel("lu")
    chosen = isl_schedule(s, serialize_sccs=True, innermost_outside=True)
    assert str(chosen) == (
        "{ S0[i] -> [0, i, 0, 0, 0, 0, 0]; S1[i, j, k] -> [1, k, 0, i, 0, j, 2]; "
        "S2[i, j] -> [1, j, 0, i, 0, 1 + j, 0]; S3[i, j, k] -> [1, k, 0, i, 0, j, 1] }"
    )
    assert chosen.check().legal
    assert affine.check_equivalent(module, chosen.apply(), backend="interp")


def test_the_budget_is_an_error_not_a_hang() -> None:
    _, s = kernel("adi")
    dependences, _ = s.program.dependences()
    with pytest.raises(IslBudgetExceeded, match="ISL's scheduler"):
        compute_schedule(s.program, dependences, max_operations=1000)


def test_a_set_nested_in_a_sequence_keeps_its_place() -> None:
    """ISL puts independent statements in a set inside a sequence; read back, they stay
    before the next child of the sequence (trisolv: S1 writes x[i] before S2 reads it)."""
    module, s = kernel("trisolv")
    tree = (
        '{ domain: "{ S3[i] : 0 <= i <= 23; S2[i, j] : 0 <= i <= 23 and 0 <= j < i; '
        'S1[i] : 0 <= i <= 23; S0[i] : 0 <= i <= 23 }", child: { sequence: [ '
        '{ filter: "{ S1[i]; S0[i] }", child: { set: [ '
        '{ filter: "{ S0[i] }", child: { schedule: "[{ S0[i] -> [(i)] }]" } }, '
        '{ filter: "{ S1[i] }", child: { schedule: "[{ S1[i] -> [(i)] }]" } } ] } }, '
        '{ filter: "{ S3[i]; S2[i, j] }", child: { schedule: "[{ S3[i] -> [(i)]; '
        'S2[i, j] -> [(j)] }]", child: { sequence: [ { filter: "{ S3[i] }" }, '
        '{ filter: "{ S2[i, j] }", child: { schedule: "[{ S2[i, j] -> [(i)] }]" } } ] } } } ] } }'
    )
    chosen = s.replace(tree)
    assert str(chosen) == (
        "{ S0[i] -> [0, i, 0, 0, 0]; S1[i] -> [1, i, 0, 0, 0]; S2[i, j] -> [2, j, 1, i, 0]; "
        "S3[i] -> [2, i, 0, 0, 0] }"
    )
    assert chosen.check().legal
    assert affine.check_equivalent(module, chosen.apply(), backend="interp")
