"""Integer sets through ISL (poly/sets.py), checked against enumeration of small boxes."""

from __future__ import annotations

import itertools

import pytest
from affine_strategies import integer_sets
from hypothesis import given, settings

from affine import IntegerSet, parse_integer_set
from poly import (
    canonical_set,
    count_points,
    difference,
    dim_bounds,
    dim_range,
    intersection,
    is_empty,
    is_subset,
    points,
    sets_equal,
    union,
)

BOX = range(-12, 13)


def _bounded(s: IntegerSet) -> IntegerSet:
    """``s`` within the box ``-12 <= d_i <= 12`` so that enumeration sees every point."""
    from affine import dim

    extra = []
    for i in range(s.num_dims):
        extra += [dim(i) + 12, -dim(i) + 12]
    return IntegerSet.get(
        s.num_dims, s.num_symbols, s.constraints + tuple(extra), s.eq_flags + (False,) * len(extra)
    )


def _points(s: IntegerSet, symbols=(2,)) -> set[tuple[int, ...]]:
    return {p for p in itertools.product(BOX, repeat=s.num_dims) if s.contains(p, symbols)}


def _union_points(sets: list[IntegerSet], symbols=(2,)) -> set[tuple[int, ...]]:
    return set().union(*(_points(s, symbols) for s in sets)) if sets else set()


@settings(max_examples=80, deadline=None)
@given(integer_sets(num_dims=2, num_symbols=1))
def test_emptiness_and_counting_match_enumeration(s: IntegerSet) -> None:
    b = _bounded(s)
    enumerated = _points(b)
    assert is_empty(b, {0: 2}) == (not enumerated)
    assert count_points(b, {0: 2}) == len(enumerated)
    assert set(points(b, {0: 2})) == enumerated
    if enumerated:
        for position in range(2):
            values = [p[position] for p in enumerated]
            assert dim_range(b, position, {0: 2}) == (min(values), max(values))


@settings(max_examples=60, deadline=None)
@given(integer_sets(num_dims=2, num_symbols=1), integer_sets(num_dims=2, num_symbols=1))
def test_set_algebra_matches_enumeration(a: IntegerSet, b: IntegerSet) -> None:
    a, b = _bounded(a), _bounded(b)
    pa, pb = _points(a), _points(b)
    assert _union_points(union(a, b)) == pa | pb
    assert _points(intersection(a, b)) == pa & pb
    assert _union_points(difference(a, b)) == pa - pb
    assert _points(canonical_set(a)) == pa


def test_canonical_constraints() -> None:
    # Redundant bounds go, an implicit equality is found, no integer point means empty.
    s = parse_integer_set("(d0) : (d0 >= 0, d0 - 5 >= 0, -d0 + 5 >= 0, d0 * 2 >= 0)")
    assert str(canonical_set(s)) == "(d0) : (d0 - 5 == 0)"
    assert canonical_set(parse_integer_set("(d0) : (d0 * 2 - 1 == 0)")) == IntegerSet.empty(1, 0)
    # Over the rationals 2*d0 = 1 has a solution; over the integers it does not.
    assert is_empty(parse_integer_set("(d0, d1) : (d0 * 2 - d1 * 2 - 1 == 0)"))
    # Two spellings of one set give one canonical form.
    a = parse_integer_set("(d0)[s0] : (d0 >= 0, s0 - d0 - 1 >= 0)")
    b = parse_integer_set("(d0)[s0] : (-d0 + s0 - 1 >= 0, d0 * 3 >= 0, d0 + 5 >= 0)")
    assert canonical_set(a) == canonical_set(b)
    assert sets_equal(a, b) and is_subset(a, b)


def test_union_of_adjacent_intervals_coalesces() -> None:
    a = parse_integer_set("(d0) : (d0 >= 0, -d0 + 3 >= 0)")
    b = parse_integer_set("(d0) : (d0 - 4 >= 0, -d0 + 9 >= 0)")
    assert [str(s) for s in union(a, b)] == ["(d0) : (-d0 + 9 >= 0, d0 >= 0)"]
    c = parse_integer_set("(d0) : (d0 - 6 >= 0, -d0 + 9 >= 0)")
    assert len(union(a, c)) == 2


def test_parametric_bounds() -> None:
    # d0 >= max(s0, s1), d0 <= 100: the lower bound is s0 or s1 depending on which is larger.
    s = parse_integer_set("(d0)[s0, s1] : (d0 - s0 >= 0, d0 - s1 >= 0, -d0 + 100 >= 0)")
    lower, upper = dim_bounds(s, 0)
    assert sorted(str(value) for _, value in lower) == ["s0", "s1"]
    assert [str(value) for _, value in upper] == ["100"]
    for condition, value in lower:
        for s0, s1 in itertools.product(range(0, 5), repeat=2):
            if condition.contains([], [s0, s1]):
                assert value.evaluate([], [s0, s1]) == max(s0, s1)
    # Unbounded in the symbols: the range over all symbol values is open above.
    loop = parse_integer_set("(d0)[s0] : (d0 >= 0, s0 - d0 - 1 >= 0)")
    assert dim_range(loop, 0) == (0, None)
    assert dim_range(loop, 0, {0: 10}) == (0, 9)
    with pytest.raises(ValueError, match="empty"):
        dim_range(IntegerSet.empty(1, 0), 0)


def test_counting_needs_bound_symbols() -> None:
    loop = parse_integer_set("(d0)[s0] : (d0 >= 0, s0 - d0 - 1 >= 0)")
    with pytest.raises(ValueError, match="bind the symbols"):
        count_points(loop)
    assert count_points(loop, {0: 7}) == 7
