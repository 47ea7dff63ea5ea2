"""Memref layouts (affine/analysis/layout.py): compositions, strided forms, exact solver-free bounds,
normalisation of types (the IR rewrite is tested in tests/transforms)."""

from __future__ import annotations

import itertools

import pytest
from affine_strategies import maps
from hypothesis import given, settings
from hypothesis import strategies as st

from affine import AffineMap, parse_affine_map, parse_type
from affine.analysis.layout import (
    BOX_ORACLE,
    LayoutNotNormalizable,
    composed_layout,
    normalize_memref_type,
    strided_form,
)
from affine.ir.strides import strided_from_map
from affine.ir.types import DYNAMIC, F32, MemRefType, StridedLayout

TILED_64 = "affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d0 mod 16, d1 mod 16)>"


def test_seed_compositions_compose_index_maps_then_layout() -> None:
    # memref<2x2x128x128xf32, #imap_tiled, #layout_map_col_major>: the tiled index
    # (d0, d1, d2, d3) is the matrix index (128*d0 + d2, 128*d1 + d3), stored column-major,
    # i.e. at (128*d1 + d3, 128*d0 + d2).  Symbols: those of the first map, then the second.
    t = parse_type(
        "memref<2x2x128x128xf32, "
        "affine_map<(d0, d1, d2, d3)[s0, s1] -> (d0 * 128 + d2, d1 * 128 + d3)>, "
        "affine_map<(d0, d1)[s0, s1] -> (d1, d0)>>"
    )
    assert str(composed_layout(t)) == (
        "(d0, d1, d2, d3)[s0, s1, s2, s3] -> (d1 * 128 + d3, d0 * 128 + d2)"
    )
    # #imap_slice = (i, j)[M, N, OI, OJ] -> (i + OI, j + OJ) size (M, N): a slice at offset
    # (OI, OJ) of an MxN matrix.
    t = parse_type("memref<4x4xf32, affine_map<(d0, d1)[s0, s1, s2, s3] -> (d0 + s2, d1 + s3)>>")
    assert composed_layout(t).evaluate([1, 2], [8, 8, 3, 4]) == [4, 6]


def test_composition_uses_the_shape_only_when_asked() -> None:
    # On a 64-element memref, d0 mod 64 is d0 (other indices are out of bounds anyway).
    t = parse_type("memref<64xf32, affine_map<(d0) -> (d0 mod 64, d0 floordiv 64)>>")
    assert str(composed_layout(t)) == "(d0) -> (d0, 0)"
    assert str(composed_layout(t, within_shape=False)) == "(d0) -> (d0 mod 64, d0 floordiv 64)"


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.one_of(st.integers(-9, 64), st.just(DYNAMIC)), min_size=1, max_size=4),
    st.one_of(st.integers(0, 99), st.just(DYNAMIC)),
)
def test_strided_layouts_round_trip_through_maps(strides: list[int], offset: int) -> None:
    layout = StridedLayout(strides, offset)
    assert strided_from_map(layout.to_affine_map()) == layout


def test_strided_forms() -> None:
    assert strided_form(parse_type("memref<4x8xf32>")) == StridedLayout([8, 1], 0)
    assert strided_form(parse_type("memref<4x8xf32, affine_map<(d0, d1) -> (d1, d0)>>")) == (
        StridedLayout([1, 4], 0)
    )
    linear = parse_type("memref<4x8xf32, affine_map<(d0, d1) -> (d0 * 16 + d1 * 2 + 3)>>")
    assert strided_form(linear) == StridedLayout([16, 2], 3)
    assert strided_form(parse_type(f"memref<64x64xf32, {TILED_64}>")) is None
    assert strided_from_map(parse_affine_map("(d0, d1) -> (d0, d1)")) is None
    assert strided_from_map(parse_affine_map("(d0)[s0] -> (d0 * s0 + s0)")) is None


@pytest.mark.parametrize(
    ("layout", "shape", "new_shape", "index", "new_index"),
    [
        # 16x16 tiles of a 64x64 matrix: (tile row, tile column, row in tile, column in tile).
        (TILED_64, [64, 64], [4, 4, 16, 16], [17, 35], [1, 2, 1, 3]),
        # Tiles that do not divide the shape: 10 = 2 full tiles of 4 and a partial one.
        ("affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>",
         [10, 10], [3, 3, 4, 4], [9, 5], [2, 1, 1, 1]),
        # Column-major (transposed) storage.
        ("affine_map<(d0, d1) -> (d1, d0)>", [4, 8], [8, 4], [1, 2], [2, 1]),
        # A linear layout with an offset: 2*d0 + d1 + 5 <= 2*3 + 1 + 5 = 12.
        ("affine_map<(d0, d1) -> (d0 * 2 + d1 + 5)>", [4, 2], [13], [1, 1], [8]),
        # strided<[16, 2], offset: 3> on 4x8: at most 3*16 + 7*2 + 3 = 65.
        ("strided<[16, 2], offset: 3>", [4, 8], [66], [1, 2], [23]),
        # An offset layout keeps the rank: (d0 + 2) on 4 elements needs 6.
        ("affine_map<(d0) -> (d0 + 2)>", [4], [6], [3], [5]),
    ],
)  # fmt: skip
def test_normalize_memref_type(layout, shape, new_shape, index, new_index) -> None:
    t = parse_type(f"memref<{'x'.join(map(str, shape))}xf32, {layout}>")
    new_type, m = normalize_memref_type(t)
    assert new_type == MemRefType(new_shape, F32)
    assert m.evaluate(index) == new_index


@pytest.mark.parametrize(
    ("t", "new_shape"),
    [
        ("memref<0x4xf32, affine_map<(d0, d1) -> (d1, d0)>>", [0, 0]),
        ("memref<4x0xf32, affine_map<(d0, d1) -> (d1 floordiv 2, d0, d1 mod 2)>>", [0, 0, 0]),
    ],
)
def test_a_memref_with_no_elements_normalizes_to_one_with_none(t: str, new_shape) -> None:
    # no index to bound the layout's results by (ISL's bounds of an empty box are infinite)
    new_type, m = normalize_memref_type(parse_type(t))
    assert new_type == MemRefType(new_shape, F32)
    assert m == parse_type(t).layout_map()


def test_normalize_binds_symbols_to_constants() -> None:
    # #affine_map42 = (d0, d1)[s0] -> (d0, d0 + d1 + floordiv(s0, 2)): with %N = 10 the
    # second result reaches 3 + 3 + 5 = 11 on a 4x4 memref.
    t = parse_type("memref<4x4xf32, affine_map<(d0, d1)[s0] -> (d0, d0 + d1 + s0 floordiv 2)>>")
    new_type, m = normalize_memref_type(t, {0: 10})
    assert new_type == MemRefType([4, 12], F32)
    assert str(m) == "(d0, d1) -> (d0, d0 + d1 + 5)"


@pytest.mark.parametrize(
    ("t", "reason"),
    [
        ("memref<4xf32, affine_map<(d0) -> (d0 - 2)>>", "negative value -2"),
        ("memref<4x4xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>>", "not bound to constants"),
        ("memref<?x4xf32, affine_map<(d0, d1) -> (d1, d0)>>", "dynamic sizes"),
        ("memref<4x4xf32, affine_map<(d0, d1) -> (d0 + d1)>>", "not one-to-one"),
        ("memref<4x?xf32, strided<[?, 1], offset: ?>>", "dynamic sizes"),
        ("memref<4x4xf32, strided<[?, 1]>>", "not bound to constants"),
    ],
)
def test_normalization_is_refused_with_a_reason(t: str, reason: str) -> None:
    with pytest.raises(LayoutNotNormalizable, match=reason):
        normalize_memref_type(parse_type(t))


def test_semi_affine_layouts_are_refused_unless_bound() -> None:
    # Row-major with a symbolic row length: s0 = 4 packs the 4x4 memref into 16 elements;
    # s0 = 3 makes rows overlap, which is not one-to-one.
    t = parse_type("memref<4x4xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>>")
    with pytest.raises(LayoutNotNormalizable, match="not bound"):
        normalize_memref_type(t)
    assert normalize_memref_type(t, {0: 4})[0] == MemRefType([16], F32)
    with pytest.raises(LayoutNotNormalizable, match="not one-to-one"):
        normalize_memref_type(t, {0: 3})


def test_identity_layouts_are_unchanged() -> None:
    t = parse_type("memref<4x?xf32>")
    assert normalize_memref_type(t) == (t, AffineMap.identity(2))


def _small_layouts() -> st.SearchStrategy[tuple[AffineMap, list[int]]]:
    return st.tuples(
        maps(num_dims=2, num_symbols=0, num_results=2),
        st.lists(st.integers(1, 7), min_size=2, max_size=2),
    )


@settings(max_examples=200, deadline=None)
@given(_small_layouts())
def test_box_oracle_is_exact(case: tuple[AffineMap, list[int]]) -> None:
    m, shape = case
    images = [tuple(m.evaluate(p)) for p in itertools.product(*(range(n) for n in shape))]
    bounds = BOX_ORACLE.result_bounds(m, shape)
    for k, (low, high) in enumerate(bounds):
        values = [image[k] for image in images]
        assert (low, high) == (min(values), max(values))
    assert BOX_ORACLE.one_to_one(m, shape) == (len(set(images)) == len(images))
