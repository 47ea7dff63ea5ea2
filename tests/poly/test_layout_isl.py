"""Layouts with ISL (poly/layout.py): one-to-one checks of compositions, footprints and
bounding boxes against enumeration, and the ISL normalisation oracle against the box one.

(Named apart from tests/affine/analysis/test_layout.py: test modules share one namespace.)"""

from __future__ import annotations

import itertools

import pytest
from affine_strategies import maps
from hypothesis import given, settings
from hypothesis import strategies as st

from affine import AffineMap, IntegerSet, dim, parse_affine_map, parse_integer_set, parse_type
from affine.analysis.layout import BOX_ORACLE
from affine.ir.types import F32, MemRefType
from poly import (
    ISL_ORACLE,
    bounding_box,
    footprint,
    normalize_memref_type,
    one_to_one_on,
    parametric_bounding_box,
)

IMAP_TILED = "affine_map<(d0, d1, d2, d3)[s0, s1] -> (d0 * 128 + d2, d1 * 128 + d3)>"
COL_MAJOR = "affine_map<(d0, d1)[s0, s1] -> (d1, d0)>"


def test_seed_imap_tiled_is_one_to_one_on_its_index_space() -> None:
    # #imap_tiled maps [M/128, N/128, 128, 128] to [M, N]: one-to-one because d2, d3 < 128.
    t = parse_type(f"memref<2x2x128x128xf32, {IMAP_TILED}, {COL_MAJOR}>")
    assert [v.one_to_one for v in one_to_one_on(t)] == [True, True]
    # With inner extents of 200 two tiles overlap, e.g. (0, 0, 199, 0) and (1, 0, 71, 0).
    wide = parse_type(f"memref<2x2x200x128xf32, {IMAP_TILED}>")
    (verdict,) = one_to_one_on(wide)
    assert not verdict.one_to_one
    x, y, _ = verdict.witness
    assert x != y and verdict.map.evaluate(x, [0, 0]) == verdict.map.evaluate(y, [0, 0])
    assert all(0 <= a < n for a, n in zip(x + y, (2, 2, 200, 128) * 2))


def test_dynamic_sizes_and_symbols_range_over_all_values() -> None:
    # (d0 floordiv s0, d0 mod s0) is not Presburger until s0 is bound; bound, it is 1-1.
    t = parse_type("memref<?xf32, affine_map<(d0)[s0] -> (d0 * 2 + s0)>>")
    assert one_to_one_on(t)[0].one_to_one
    t = parse_type("memref<?x4xf32, affine_map<(d0, d1) -> (d0 * 4 + d1)>>")
    assert one_to_one_on(t)[0].one_to_one
    t = parse_type("memref<?x5xf32, affine_map<(d0, d1) -> (d0 * 4 + d1)>>")
    assert not one_to_one_on(t)[0].one_to_one
    semi = parse_type("memref<8xf32, affine_map<(d0)[s0] -> (d0 floordiv s0, d0 mod s0)>>")
    assert one_to_one_on(semi, {0: 4})[0].one_to_one


def test_strided_layouts_are_one_map() -> None:
    assert one_to_one_on(parse_type("memref<4x8xf32, strided<[8, 1], offset: 3>>"))[0].one_to_one
    overlapping = parse_type("memref<4x8xf32, strided<[4, 1]>>")
    assert not one_to_one_on(overlapping)[0].one_to_one


def _domains() -> st.SearchStrategy[IntegerSet]:
    """Boxes with an extra constraint, within [0, 9]^2."""
    extra = st.tuples(st.integers(-2, 2), st.integers(-2, 2), st.integers(-5, 10))
    return extra.map(
        lambda t: IntegerSet.get(
            2,
            0,
            [dim(0), -dim(0) + 9, dim(1), -dim(1) + 9, dim(0) * t[0] + dim(1) * t[1] + t[2]],
            [False] * 5,
        )
    )


@settings(max_examples=80, deadline=None)
@given(maps(num_dims=2, num_symbols=0, num_results=2), _domains())
def test_footprint_and_bounding_box_match_enumeration(
    access: AffineMap, domain: IntegerSet
) -> None:
    touched = {
        tuple(access.evaluate(p))
        for p in itertools.product(range(10), repeat=2)
        if domain.contains(p)
    }
    if not touched:
        with pytest.raises(ValueError, match="touches nothing"):
            bounding_box(access, domain)
        return
    assert footprint(access, domain) == len(touched)
    assert bounding_box(access, domain) == [
        (min(e[k] for e in touched), max(e[k] for e in touched)) for k in range(2)
    ]


def test_parametric_bounding_box() -> None:
    access = parse_affine_map("(d0, d1)[s0] -> (d0 * 2 + s0, d1)")
    domain = parse_integer_set("(d0, d1)[s0] : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, s0 - d1 - 1 >= 0)")
    (rows, cols) = parametric_bounding_box(access, domain)
    assert [str(v) for _, v in rows[0]] == ["s0"] and [str(v) for _, v in rows[1]] == ["s0 + 18"]
    assert [str(v) for _, v in cols[1]] == ["s0 - 1"]
    assert bounding_box(access, domain, {0: 4}) == [(4, 22), (0, 3)]
    assert footprint(access, domain, {0: 4}) == 40
    with pytest.raises(ValueError, match="bind every symbol"):
        footprint(access, domain)


@settings(max_examples=150, deadline=None)
@given(
    maps(num_dims=2, num_symbols=0, num_results=2),
    st.lists(st.integers(1, 6), min_size=2, max_size=2),
)
def test_isl_oracle_agrees_with_the_box_oracle(m: AffineMap, shape: list[int]) -> None:
    assert ISL_ORACLE.result_bounds(m, shape) == BOX_ORACLE.result_bounds(m, shape)
    assert ISL_ORACLE.one_to_one(m, shape) == BOX_ORACLE.one_to_one(m, shape)


def test_normalization_of_large_memrefs() -> None:
    # 2^20 elements: ISL bounds are immediate where enumeration would not be.
    t = parse_type(
        "memref<1024x1024xf32, affine_map<(d0, d1) -> (d1 floordiv 32, d0 floordiv 32, "
        "d1 mod 32, d0 mod 32)>>"
    )
    new_type, _ = normalize_memref_type(t)
    assert new_type == MemRefType([32, 32, 32, 32], F32)
    skew = parse_type("memref<1000x1000xf32, affine_map<(d0, d1) -> (d0 + d1, d1)>>")
    assert normalize_memref_type(skew)[0] == MemRefType([1999, 1000], F32)
