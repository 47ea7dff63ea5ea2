"""Questions about one set asked of ISL sets (poly/sets.py): points, counts, emptiness and
ranges of ISL sets with their parameters bound by name or position, checked against
enumeration."""

from __future__ import annotations

import itertools

import islpy as isl
import pytest
from affine_strategies import integer_sets
from hypothesis import given, settings

import affine
import poly
from affine import IntegerSet, dim
from poly.model import build_model
from poly.space import param_names

TRIANGLE = "[N] -> { S[i, j] : 0 <= i < N and 0 <= j <= i }"


def _brute(s: IntegerSet, symbols: tuple[int, ...]) -> set[tuple[int, ...]]:
    box = range(-12, 13)
    return {p for p in itertools.product(box, repeat=s.num_dims) if s.contains(p, symbols)}


def _boxed(s: IntegerSet) -> IntegerSet:
    """``s`` within ``-12 <= d_i <= 12``, so that enumeration sees every point."""
    extra = [e for i in range(s.num_dims) for e in (dim(i) + 12, 12 - dim(i))]
    flags = s.eq_flags + (False,) * len(extra)
    return IntegerSet.get(s.num_dims, s.num_symbols, s.constraints + tuple(extra), flags)


def test_points_of_an_isl_set_with_a_parameter_bound_by_name_or_position() -> None:
    triangle = isl.Set(TRIANGLE)  # made in islpy's default context, not the toolkit's
    expected = [(i, j) for i in range(4) for j in range(i + 1)]
    assert list(poly.points(triangle, {"N": 4})) == expected
    assert list(poly.points(triangle, {0: 4})) == expected
    assert poly.count_points(triangle, {"N": 4}) == 10
    assert poly.dim_range(triangle, 1, {"N": 4}) == (0, 3)
    assert poly.is_empty(triangle, {"N": 0}) and not poly.is_empty(triangle, {"N": 1})
    assert list(poly.points(isl.BasicSet("{ [i] : 0 <= i < 3 }"))) == [(0,), (1,), (2,)]


def test_unbound_unknown_and_unbounded_sets_are_refused() -> None:
    triangle = isl.Set(TRIANGLE)
    with pytest.raises(ValueError, match=r"bind the symbols \['N'\]"):
        list(poly.points(triangle))
    with pytest.raises(ValueError, match="has no parameter 'M'"):
        list(poly.points(triangle, {"M": 3}))
    with pytest.raises(ValueError, match="infinitely many points"):
        poly.count_points(isl.Set("{ [i] : i >= 0 }"))


def test_points_of_a_wrapped_relation_list_inputs_then_outputs() -> None:
    shift = isl.Map("[N] -> { [i] -> [i + 1] : 0 <= i < N }")
    assert list(poly.points(shift.wrap(), {"N": 3})) == [(0, 1), (1, 2), (2, 3)]


def test_points_of_a_statement_domain_of_the_model() -> None:
    module = affine.parse(
        """
func.func @f(%A: memref<?xf32>, %N: index) {
  affine.for %i = 0 to %N {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %v = affine.load %A[%j] : memref<?xf32>
    }
  }
  return
}
"""
    )
    (statement,) = build_model(module).statements
    (parameter,) = param_names(statement.domain)
    assert list(poly.points(statement.domain, {parameter: 3})) == [
        (0, 0),
        (1, 0),
        (1, 1),
        (2, 0),
        (2, 1),
        (2, 2),
    ]


@settings(max_examples=60, deadline=None)
@given(integer_sets(num_dims=2, num_symbols=1))
def test_isl_sets_have_the_points_of_the_integer_sets_they_come_from(s: IntegerSet) -> None:
    boxed = _boxed(s)
    as_isl = poly.set_to_isl(boxed)
    expected = _brute(boxed, (2,))
    assert set(poly.points(as_isl, {"s0": 2})) == expected
    assert poly.count_points(as_isl, {0: 2}) == len(expected)
    assert poly.is_empty(as_isl, {"s0": 2}) == (not expected)
