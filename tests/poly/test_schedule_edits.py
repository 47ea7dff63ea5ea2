"""Schedule edits (poly/schedule_edits.py): each returns a new schedule, printed here as its
2d+1 map (golden), leaves the one it edited unchanged, records itself in a history that
replays; misuse is refused with the exact reason."""

from __future__ import annotations

import islpy as isl
import pytest

import affine
from poly.schedule import Schedule
from poly.schedule_program import ScheduleError

TWO_NESTS = """\
func.func @f(%A: memref<10x10xf32>, %B: memref<10x10xf32>, %N: index) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
      %v = affine.load %A[%i, %j] : memref<10x10xf32>
      affine.store %v, %B[%i, %j] : memref<10x10xf32>
    }
  }
  affine.for %k = 0 to 10 {
    affine.for %l = 0 to 10 {
      %v = affine.load %B[%k, %l] : memref<10x10xf32>
      %w = arith.addf %v, %v : f32
      affine.store %w, %A[%k, %l] : memref<10x10xf32>
    }
  }
  return
}
"""

ORIGINAL = "{ S0[i, j] -> [0, i, 0, j, 0]; S1[k, l] -> [1, k, 0, l, 0] }"
TILE = "(o1) mod 4 = 0 and (o3) mod 8 = 0 and -3 + i <= o1 <= i and -7 + j <= o3 <= j"


@pytest.fixture(scope="module")
def s() -> Schedule:
    return Schedule.of(affine.parse(TWO_NESTS, "f.mlir").functions()[0])


@pytest.mark.parametrize(
    ("edit", "printed", "loops"),
    [
        (
            lambda s: s.interchange("%i", "%j"),
            "{ S0[i, j] -> [0, j, 0, i, 0]; S1[k, l] -> [1, k, 0, l, 0] }",
            ["%j", "%i", "%k", "%l"],
        ),
        (
            lambda s: s.permute(["%l", "%k"]),
            "{ S0[i, j] -> [0, i, 0, j, 0]; S1[k, l] -> [1, l, 0, k, 0] }",
            ["%i", "%j", "%l", "%k"],
        ),
        (
            lambda s: s.skew("%j", {"%i": 2}),
            "{ S0[i, j] -> [0, i, 0, 2i + j, 0]; S1[k, l] -> [1, k, 0, l, 0] }",
            ["%i", "%j", "%k", "%l"],
        ),
        (
            lambda s: s.reverse("%k"),
            "{ S0[i, j] -> [0, i, 0, j, 0]; S1[k, l] -> [1, -k, 0, l, 0] }",
            ["%i", "%j", "%k", "%l"],
        ),
        (
            lambda s: s.shift("%k", 3),
            "{ S0[i, j] -> [0, i, 0, j, 0]; S1[k, l] -> [1, 3 + k, 0, l, 0] }",
            ["%i", "%j", "%k", "%l"],
        ),
        (
            lambda s: s.scale("%j", 2),
            "{ S0[i, j] -> [0, i, 0, 2j, 0]; S1[k, l] -> [1, k, 0, l, 0] }",
            ["%i", "%j", "%k", "%l"],
        ),
        (
            lambda s: s.strip_mine("%j", 4),
            "{ S0[i, j] -> [0, i, 0, o3, 0, j, 0] : (o3) mod 4 = 0 and -3 + j <= o3 <= j; "
            "S1[k, l] -> [1, k, 0, l, 0, 0, 0] }",
            ["%i", "%j.tile", "%j.point", "%k", "%l"],
        ),
        (
            lambda s: s.tile(["%i", "%j"], [4, 8]),
            f"{{ S0[i, j] -> [0, o1, 0, o3, 0, i, 0, j, 0] : {TILE}; "
            "S1[k, l] -> [1, k, 0, l, 0, 0, 0, 0, 0] }",
            ["%i.tile", "%j.tile", "%i.point", "%j.point", "%k", "%l"],
        ),
        (
            lambda s: s.tile(["%i", "%j"], ["%N", "%N"]),  # a mark: the order is unchanged
            ORIGINAL,
            ["%i", "%j", "%k", "%l"],
        ),
        (
            lambda s: s.wavefront(["%i", "%j"]),
            "{ S0[i, j] -> [0, i + j, 0, j, 0]; S1[k, l] -> [1, k, 0, l, 0] }",
            ["%i.wave", "%j", "%k", "%l"],
        ),
        (
            lambda s: s.fuse("%i", "%k"),
            "{ S0[i, j] -> [0, i, 0, j, 0]; S1[k, l] -> [0, k, 1, l, 0] }",
            ["%i", "%j", "%l"],
        ),
        (
            lambda s: s.fuse("%i", "%k").fuse("%j", "%l"),
            "{ S0[i, j] -> [0, i, 0, j, 0]; S1[k, l] -> [0, k, 0, l, 1] }",
            ["%i", "%j"],
        ),
        (
            lambda s: s.fuse("%i", "%k").distribute("%i"),
            ORIGINAL,
            ["%i", "%j", "%i.2", "%l"],
        ),
        (lambda s: s.parallel("%j"), ORIGINAL, ["%i", "%j", "%k", "%l"]),
        (
            lambda s: s.replace("{ S0[i, j] -> [j, i]; S1[k, l] -> [10 + k, l] }"),
            "{ S0[i, j] -> [0, j, 0, i, 0]; S1[k, l] -> [0, 10 + k, 0, l, 0] }",
            ["c0", "c1"],
        ),
        (
            lambda s: s.replace_band("%i", "{ S0[i, j] -> [i + j, j] }"),
            "{ S0[i, j] -> [0, i + j, 0, j, 0, j, 0]; S1[k, l] -> [1, k, 0, l, 0, 0, 0] }",
            ["c0", "c1", "%j", "%k", "%l"],
        ),
    ],
    ids=[
        "interchange",
        "permute",
        "skew",
        "reverse",
        "shift",
        "scale",
        "strip-mine",
        "tile",
        "tile-parametric",
        "wavefront",
        "fuse",
        "fuse-twice",
        "distribute",
        "parallel",
        "replace",
        "replace-band",
    ],
)
def test_edits(s: Schedule, edit, printed: str, loops: list[str]) -> None:
    edited = edit(s)
    assert str(edited) == printed
    assert edited.loops == loops
    assert str(s) == ORIGINAL and s.history == ()  # the value edited is unchanged
    again = s.replace(str(edited))  # the printed map reads back to the same order
    assert again.map.is_equal(edited.map)


def test_marks_show_in_the_tree(s: Schedule) -> None:
    text = s.parallel("%j").tile(["%k", "%l"], ["%N", "%N"]).tree_text()
    assert text == (
        'domain: "{ S0[i, j] : 0 <= i <= 9 and 0 <= j <= 9; S1[k, l] : 0 <= k <= 9 and '
        '0 <= l <= 9 }"\n'
        "child:\n"
        "  sequence:\n"
        '  - filter: "{ S0[i, j] }"\n'
        "    child:\n"
        '      schedule: "[{ S0[i, j] -> [(i)] }]"\n'
        "      child:\n"
        '        schedule: "[{ S0[i, j] -> [(j)] }]"\n'
        "        coincident: [ 1 ]\n"
        '  - filter: "{ S1[k, l] }"\n'
        "    child:\n"
        '      mark: "tile %N %N"\n'
        "      child:\n"
        '        schedule: "[{ S1[k, l] -> [(k)] }, { S1[k, l] -> [(l)] }]"\n'
        "        permutable: 1\n"
    )
    again = s.replace(text)
    assert again.loops == ["%i", "%j", "%k", "%l"]
    assert again.tree_text() == text


def test_history_prints_and_replays(s: Schedule) -> None:
    edited = s.tile(["%i", "%j"], [4, 8]).fuse("%i.tile", "%k").parallel("%l")
    assert edited.history_text() == (
        "tile(['%i', '%j'], [4, 8])\nfuse('%i.tile', '%k')\nparallel('%l')"
    )
    replayed = s.replay(edited.history_text())
    assert str(replayed) == str(edited) and replayed.history == edited.history
    other = Schedule.of(affine.parse(TWO_NESTS, "g.mlir").functions()[0])
    assert str(other.replay(edited.history)) == str(edited)


def test_islpy_objects_from_another_context(s: Schedule) -> None:
    foreign = isl.Context()
    as_map = isl.UnionMap.read_from_str(foreign, "{ S1[k, l] -> [1, l, k]; S0[i, j] -> [0, j, i] }")
    assert str(s.replace(as_map)) == (
        "{ S0[i, j] -> [0, j, 0, i, 0]; S1[k, l] -> [1, l, 0, k, 0] }"
    )
    as_tree = isl.Schedule.read_from_str(foreign, str(s.interchange("%i", "%j").tree()))
    assert str(s.replace(as_tree)) == str(s.interchange("%i", "%j"))
    assert s.replace(as_map).history_text() == f"replace({str(as_map)!r})"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s.interchange("%i", "%l"), "%l is not perfectly nested in %i"),
        (lambda s: s.skew("%i", {"%j": 1}), "%j is not a loop around %i"),
        (lambda s: s.reverse("%q"), "no loop named %q in the schedule (loops: %i, %j, %k, %l)"),
        (lambda s: s.fuse("%i", "%l"), "%i and %l are not loops of sibling nests"),
        (
            lambda s: s.tile(["%i", "%j"], [4, 8]).fuse("%j.tile", "%k"),
            "%j.tile is not the outermost loop of a nest (%i.tile is)",
        ),
        (
            lambda s: s.tile(["%i", "%j"], ["%M", "%M"]),
            "tile size %M is not an index value of the function valid as a symbol (those are: %N)",
        ),
        (lambda s: s.tile(["%i", "%j"], [4, 0]), "tile sizes must be positive, got 0"),
        (
            lambda s: s.tile(["%i", "%j"], ["%N", "%N"]).skew("%j", {"%i": 1}),
            "%j is in a band tiled with parametric sizes (%N, %N); edit the band before tiling it",
        ),
        (
            lambda s: s.distribute("%j"),
            "nothing to distribute: the loops from %j inward hold one part",
        ),
        (lambda s: s.replace("{ S0[i, j] -> [j, i] }"), "the schedule does not schedule S1"),
        (
            lambda s: s.replace("{ S0[i] -> [i]; S1[k, l] -> [k, l] }"),
            "the schedule gives S0 1 dimensions; it has 2 (%i, %j)",
        ),
        (
            lambda s: s.replace("{ S0[i, j] -> [j, i]; S1[k, l] -> [k, l]; S7[x] -> [x] }"),
            "no statement S7 (statements: S0, S1)",
        ),
        (
            lambda s: s.replace("[M] -> { S0[i, j] -> [M, i]; S1[k, l] -> [k, l] }"),
            "the schedule uses parameter M, which the function does not have (parameters: none)",
        ),
        (
            lambda s: s.replace("{ S0[i, j] -> [j, i]; S1[k, l] -> [k, l] : k < 5 }"),
            "the schedule of S1 leaves some of its instances out",
        ),
        (
            lambda s: s.replace(
                "{ S0[i, j] -> [j, i]; S1[k, l] -> [k, l]; S1[k, l] -> [k + 1, l] }"
            ),
            "the schedule of S1 maps an instance to several times",
        ),
        (
            lambda s: s.replace("{ S0[i, j] -> [j, i }"),
            "cannot read the schedule as a union map such as { S0[i, j] -> [j, i] } (isl: call "
            "to isl_union_map_read_from_str failed: syntax error)",
        ),
        (
            lambda s: s.replay("skew('%j', {'%i': 1})\nprint('x')"),
            "'print' is not a schedule edit",
        ),
    ],
)
def test_refusals(s: Schedule, edit, message: str) -> None:
    with pytest.raises(ScheduleError) as caught:
        edit(s)
    assert caught.value.message == message


def test_a_statement_that_never_runs_needs_no_time() -> None:
    # ISL drops an empty map from a union: its scheduler's answer for a function with a
    # loop of no iterations (k from 0 to 0) does not name that loop's statement
    text = TWO_NESTS.replace("affine.for %k = 0 to 10", "affine.for %k = 0 to 0")
    s = Schedule.of(affine.parse(text, "f.mlir").functions()[0])
    swapped = s.replace("{ S0[i, j] -> [j, i] }")
    assert swapped.check()
    assert affine.check_equivalent(affine.parse(text, "f.mlir"), swapped.apply())
