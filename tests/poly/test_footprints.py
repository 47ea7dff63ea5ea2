"""Footprint shapes (poly/footprints.py): whether a region fills its bounding box, against
enumeration of its points, with and without parameters."""

from __future__ import annotations

import itertools

import islpy as isl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poly.footprints import COUNTABLE, bounding_box, element_count, is_box

# (region of memref A, fills its box): the math of each row in its comment
IS_BOX = [
    ("{ A[i, j] : 0 <= i < 4 and 2 <= j <= 7 }", True),  # a rectangle
    ("{ A[i, j] : 0 <= i < 4 and 0 <= j <= i }", False),  # a triangle: (0, 1) is missing
    ("{ A[i] : 0 <= i < 9 and i mod 3 = 0 }", False),  # 0, 3, 6 of 0..6
    ("{ A[i] : exists k : i = (3 * k) mod 5 and 0 <= k < 5 }", True),  # 3k mod 5 covers 0..4
    ("{ A[i] : exists k : i = (2 * k) mod 6 and 0 <= k < 6 }", False),  # even residues only
    ("[N] -> { A[i] : N <= i < N + 4 }", True),  # N..N+3 for every N
    ("[N] -> { A[i] : 0 <= i < N and N <= 8 }", False),  # boxes have constant extents: 0..7
    ("[N] -> { A[i] : 0 <= i < 8 and i != N }", False),  # a hole at N for 0 <= N < 8
    ("{ A[i] : 0 <= i < 100000 and i != 77777 }", False),  # past COUNTABLE: ISL's subset test
]


@pytest.mark.parametrize(("text", "filled"), IS_BOX)
def test_is_box(text: str, filled: bool) -> None:
    assert is_box(isl.Set(text)) is filled


def _points(region: isl.Set) -> set[tuple[int, ...]]:
    found: set[tuple[int, ...]] = set()
    region.foreach_point(
        lambda p: found.add(
            tuple(int(p.get_coordinate_val(isl.dim_type.set, k).to_python()) for k in range(2))
        )
    )
    return found


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(2, 6)), max_size=2),
    st.integers(1, 6),
    st.integers(1, 6),
)
def test_is_box_and_element_count_agree_with_enumeration(mods, rows: int, columns: int) -> None:
    """{ (a i + b j) mod m, ... } images of a small grid: counted points against the box."""
    images = ", ".join(f"({a} * i + {b} * j) mod {m}" for a, b, m in mods) or "i, j"
    images = images if len(mods) != 1 else images + ", j"
    region = isl.Map(
        f"{{ [i, j] -> A[{images}] : 0 <= i < {rows} and 0 <= j < {columns} }}"
    ).range()
    points = _points(region)
    assert element_count(region) == len(points)
    ranges = [range(min(p[k] for p in points), max(p[k] for p in points) + 1) for k in range(2)]
    assert is_box(region) is (points == set(itertools.product(*ranges)))
    assert len(points) <= COUNTABLE


# (region, its bounding box's extents): the greatest extent over the parameters
BOXES = [
    ("{ A[i, j] : 0 <= i < 4 and 2 <= j <= 7 }", [4, 6]),
    ("[N] -> { A[i] : N <= i < N + 4 }", [4]),
    # row i0 of i from 1 step 2, j from i step 3: j runs 29 - i0 to 31 - i0 past i0, the
    # extent's expression ISL writes with a /2 (its own max_val refused it)
    (
        "[i0] -> { A[i0, j] : (1 + i0) mod 2 = 0 and (3 + i0 + 2j) mod 6 = 0 and "
        "0 < i0 <= 30 and i0 <= j <= 31 }",
        [1, 31],
    ),
]


@pytest.mark.parametrize(("text", "extents"), BOXES)
def test_bounding_box_extents(text: str, extents: list[int]) -> None:
    box = bounding_box(isl.Set(text))
    assert not isinstance(box, str), box
    assert box.extents == extents
