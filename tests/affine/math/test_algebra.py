"""Map algebra without a solver (affine/math/algebra.py): composition, inversion, specialisation,
reshaping, and the one-to-one proof by recovering the dims."""

from __future__ import annotations

import itertools

import pytest
from affine_strategies import box, exprs, maps
from hypothesis import given, settings
from hypothesis import strategies as st

from affine import AffineMap, dim, parse_affine_map, parse_integer_set, symbol
from affine.math.algebra import (
    NotInvertibleError,
    compose,
    concat_results,
    drop_unused_dims,
    drop_unused_symbols,
    fix_dims,
    insert_dims,
    insert_symbols,
    inverse,
    permute_dims,
    provably_one_to_one,
    specialize_symbols,
    substitute,
)


def test_seed_affine_map42_specialised() -> None:
    # #affine_map42 = (d0, d1)[s0] -> (d0, d0 + d1 + floordiv(s0, 2)) size (10, s0):
    # binding s0 (the %N of the alloc) to 7 adds floor(7/2) = 3 to the second result.
    m = parse_affine_map("(d0, d1)[s0] -> (d0, d0 + d1 + floordiv(s0, 2)) size (10, s0)")
    assert str(specialize_symbols(m, {0: 7})) == "(d0, d1) -> (d0, d0 + d1 + 3)"


def test_specialisation_makes_semi_affine_maps_affine() -> None:
    m = parse_affine_map("(d0)[s0, s1] -> (d0 * s0 + s1, d0 mod s0, d0 floordiv s1)")
    assert m.is_semi_affine()
    bound = specialize_symbols(m, {0: 4})
    assert str(bound) == "(d0)[s0] -> (d0 * 4 + s0, d0 mod 4, d0 floordiv s0)"
    both = specialize_symbols(m, {0: 4, 1: 3})
    assert both.is_pure_affine() and both.num_symbols == 0
    s = parse_integer_set("(d0)[s0, s1] : (d0 * s0 - s1 >= 0)")
    assert str(specialize_symbols(s, {0: 2, 1: 5})) == "(d0) : (d0 - 3 >= 0)"
    with pytest.raises(ValueError, match="no symbols"):
        specialize_symbols(m, {5: 1})


def test_compose_and_substitute() -> None:
    # The seed's #imap_tiled composed with the column-major layout (j, i):
    # (d0..d3)[M, N] -> (128*d1 + d3, 128*d0 + d2).
    tiled = parse_affine_map("(d0, d1, d2, d3)[s0, s1] -> (d0 * 128 + d2, d1 * 128 + d3)")
    col_major = parse_affine_map("(d0, d1)[s0, s1] -> (d1, d0)")
    composed = compose(col_major, tiled)
    assert str(composed) == "(d0, d1, d2, d3)[s0, s1, s2, s3] -> (d1 * 128 + d3, d0 * 128 + d2)"
    # d1 := d0 + 1, s0 := 2*s0 in d0 + d1*s0 gives d0 + 2*d0*s0 + 2*s0 (d1 now unused).
    m = parse_affine_map("(d0, d1)[s0] -> (d0 + d1 * s0)")
    substituted = substitute(m, {1: dim(0) + 1}, {0: symbol(0) * 2})
    assert str(substituted) == "(d0, d1)[s0] -> (d0 + (d0 * s0) * 2 + s0 * 2)"


def test_reshaping_helpers() -> None:
    m = parse_affine_map("(d0, d1, d2)[s0, s1] -> (d0 + d2 * 2, s1)")
    assert str(insert_dims(m, 1)) == "(d0, d1, d2, d3)[s0, s1] -> (d0 + d3 * 2, s1)"
    assert str(insert_symbols(m, 0)) == "(d0, d1, d2)[s0, s1, s2] -> (d0 + d2 * 2, s2)"
    assert str(permute_dims(m, [2, 0, 1])) == "(d0, d1, d2)[s0, s1] -> (d1 + d0 * 2, s1)"
    compressed, kept = drop_unused_dims(m)
    assert (str(compressed), kept) == ("(d0, d1)[s0, s1] -> (d0 + d1 * 2, s1)", [0, 2])
    compressed, kept = drop_unused_symbols(m)
    assert (str(compressed), kept) == ("(d0, d1, d2)[s0] -> (d0 + d2 * 2, s0)", [1])
    assert str(fix_dims(m, {0: 3})) == "(d0, d1)[s0, s1] -> (d1 * 2 + 3, s1)"
    assert str(concat_results([m, m.sub_map([1])])) == (
        "(d0, d1, d2)[s0, s1] -> (d0 + d2 * 2, s1, s1)"
    )
    with pytest.raises(ValueError):
        permute_dims(m, [0, 0, 1])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(d0, d1) -> (d1, d0)", "(d0, d1) -> (d1, d0)"),
        # Unimodular: [[2, 1], [1, 1]] has determinant 1.
        ("(d0, d1) -> (d0 * 2 + d1, d0 + d1)", "(d0, d1) -> (d0 - d1, -d0 + d1 * 2)"),
        # A skew with a symbolic offset.
        ("(d0, d1)[s0] -> (d0 + d1 + s0, d1 + 2)", "(d0, d1)[s0] -> (d0 - d1 - s0 + 2, d1 - 2)"),
    ],
)
def test_inverse_table(text: str, expected: str) -> None:
    m = parse_affine_map(text)
    inv = inverse(m)
    assert str(inv) == expected
    for point in itertools.product(range(-3, 4), repeat=m.num_dims):
        syms = [5] * m.num_symbols
        assert inv.evaluate(m.evaluate(point, syms), syms) == list(point)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("(d0) -> (d0 * 2)", "determinant 2"),
        ("(d0, d1) -> (d0)", "1 result"),
        ("(d0, d1) -> (d0 + d1, d0 + d1)", "singular"),
        ("(d0, d1) -> (d0 floordiv 32, d0 mod 32)", "not linear in the dims"),
        ("(d0)[s0] -> (d0 * s0)", "not linear in the dims"),
    ],
)
def test_inverse_refuses_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(NotInvertibleError, match=reason):
        inverse(parse_affine_map(text))


def _unimodular_maps() -> st.SearchStrategy[AffineMap]:
    """Products of elementary integer row operations (determinant ±1) with offsets."""
    ops = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(-3, 3)), max_size=5)

    def build(args) -> AffineMap:
        steps, offsets, swap = args
        rows = [[int(i == j) for j in range(3)] for i in range(3)]
        for target, source, factor in steps:
            if target != source:
                rows[target] = [a + factor * b for a, b in zip(rows[target], rows[source])]
        if swap:
            rows[0], rows[1] = rows[1], rows[0]
        results = [
            sum((dim(j) * c for j, c in enumerate(row)), start=dim(0) * 0) + off + symbol(0)
            for row, off in zip(rows, offsets)
        ]
        return AffineMap.get(3, 1, results)

    return st.tuples(ops, st.lists(st.integers(-5, 5), min_size=3, max_size=3), st.booleans()).map(
        build
    )


@settings(max_examples=100, deadline=None)
@given(_unimodular_maps())
def test_inverse_of_unimodular_maps(m: AffineMap) -> None:
    inv = inverse(m)
    for point in itertools.product(range(-2, 3), repeat=3):
        assert inv.evaluate(m.evaluate(point, [4]), [4]) == list(point)
        assert m.evaluate(inv.evaluate(point, [4]), [4]) == list(point)


@settings(max_examples=150, deadline=None)
@given(
    maps(num_dims=2, num_symbols=1, num_results=2), maps(num_dims=2, num_symbols=1, num_results=2)
)
def test_composition_agrees_with_evaluation(outer: AffineMap, inner: AffineMap) -> None:
    composed = compose(outer, inner)
    for ds, ss in box(2, 1, range(-3, 4), range(1, 3)):
        # Symbols of the outer map first, then those of the inner map.
        assert composed.evaluate(ds, ss + ss) == outer.evaluate(inner.evaluate(ds, ss), ss)


@settings(max_examples=100, deadline=None)
@given(
    exprs(num_dims=2, num_symbols=2, semi_affine=True, negative_divisors=False), st.integers(1, 4)
)
def test_specialisation_agrees_with_evaluation(e, value: int) -> None:
    m = AffineMap.get(2, 2, [e])
    bound = specialize_symbols(m, {1: value})
    for ds, ss in box(2, 1, range(-3, 4), range(1, 4)):
        try:
            expected = m.evaluate(ds, [ss[0], value])
        except (ZeroDivisionError, ValueError):
            continue
        assert bound.evaluate(ds, ss) == expected


@pytest.mark.parametrize(
    ("text", "proved"),
    [
        ("(d0, d1) -> (d1, d0)", True),
        # The tiled layout: d0 = 32 * (d0 floordiv 32) + d0 mod 32.
        ("(d0, d1) -> (d0 floordiv 32, d1 floordiv 32, d0 mod 32, d1 mod 32)", True),
        ("(d0, d1)[s0] -> (d0 * 2 + d1 + s0, d1)", True),
        # #imap_tiled: one-to-one only on an index space with d2, d3 < 128 (poly decides it).
        ("(d0, d1, d2, d3)[s0, s1] -> (d0 * 128 + d2, d1 * 128 + d3)", False),
        ("(d0, d1) -> (d0 * 64 + d1)", False),
        ("(d0) -> (d0 floordiv 2)", False),
    ],
)
def test_provably_one_to_one(text: str, proved: bool) -> None:
    assert provably_one_to_one(parse_affine_map(text)) is proved


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        maps(num_dims=2, num_symbols=0, num_results=2),
        maps(num_dims=2, num_symbols=0, num_results=3),
        st.tuples(st.integers(2, 9), st.integers(-3, 3)).map(
            lambda t: AffineMap.get(
                2, 0, [dim(0).floordiv(t[0]), dim(1) + dim(0) * t[1], dim(0) % t[0]]
            )
        ),
    )
)
def test_a_proof_of_one_to_one_is_never_wrong(m: AffineMap) -> None:
    if not provably_one_to_one(m):
        return
    images: dict = {}
    for point in itertools.product(range(-5, 6), repeat=2):
        image = tuple(m.evaluate(point))
        assert images.setdefault(image, point) == point, str(m)


@settings(max_examples=50, deadline=None)
@given(_unimodular_maps())
def test_unimodular_maps_are_proved_one_to_one(m: AffineMap) -> None:
    assert provably_one_to_one(m)
