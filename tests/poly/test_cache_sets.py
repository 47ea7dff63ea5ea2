"""Lines per cache set (poly.tile_model.most_lines_in_a_set): byte ranges of arrays whose
starts are aligned alike, a set every ``span`` bytes (a cache's size over its ways)."""

from __future__ import annotations

import pytest

from poly.tile_model import assumed_strides, most_lines_in_a_set

LINE = 64
SPAN = 4096  # 32 KiB over 8 ways, 48 KiB over 12: 64 sets of 64-byte lines

# (ranges as (array, start, length), most lines in one set). A line's set is its number
# mod 64; a range covers the lines from start // 64 to (start + length - 1) // 64, and a
# line counts once however many ranges cover it.
SETS = [
    ([("A", 0, 64)], 1),
    # rows 4096 bytes apart: every row's first line in set 0
    ([("A", 4096 * r, 64) for r in range(10)], 10),
    # rows 4000 bytes apart: row r starts at line 62.5 r, one line each: sets 0, 62, 61, ...
    ([("A", 4000 * r, 64) for r in range(10)], 1),
    # rows 2048 bytes apart: sets 0 and 32 take turns
    ([("A", 2048 * r, 64) for r in range(10)], 5),
    # the same line of two arrays: two lines in its set; of one array twice: one
    ([("A", 0, 64), ("B", 0, 64)], 2),
    ([("A", 0, 64), ("A", 8, 32)], 1),
    # a range crossing a line boundary takes a line of each of two sets
    ([("A", -4, 64), ("B", 0, 64)], 2),
    # 1 KiB rows 4 KiB apart: 16 sets, each with a line of every row
    ([("A", 4096 * r, 1024) for r in range(6)] + [("B", 4096 * r, 1024) for r in range(4)], 10),
    # a whole span: every set once
    ([("A", 0, SPAN)], 1),
    ([], 0),
]


@pytest.mark.parametrize(("ranges", "most"), SETS)
def test_lines_per_set(ranges: list, most: int) -> None:
    assert most_lines_in_a_set(ranges, LINE, SPAN) == most


def test_strides_of_known_and_assumed_shapes() -> None:
    import affine

    module = affine.parse(
        "func.func @f(%a: memref<4x5x6xf32>, %b: memref<?x7xf32>, %e: memref<4x?xf32>,"
        " %c: memref<4x5xf32, strided<[10, 1]>>, %d: memref<4x5xf32, strided<[?, 1]>>) {\n"
        "  return\n}\n",
        "f.mlir",
    )
    types = [a.type for a in module.functions()[0].regions[0].blocks[0].arguments]
    # row-major, an unknown extent taken as 1024 (TYPICAL_PARAMETER, as tiles are sized);
    # strided layouts give theirs, unknown strides none
    strides = [[30, 6, 1], [7, 1], [1024, 1], [10, 1], None]
    assert [assumed_strides(t) for t in types] == strides
