"""Memref layouts (affine/analysis/layout.py): compositions, strided forms, exact solver-free bounds,
normalisation of types and the IR rewrite, checked by running the kernels."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from affine_strategies import maps
from hypothesis import given, settings
from hypothesis import strategies as st

from affine import AffineMap, parse, parse_affine_map, parse_type, print_module
from affine.analysis.layout import (
    BOX_ORACLE,
    LayoutNotNormalizable,
    composed_layout,
    normalize_memref_type,
    normalize_memrefs,
    strided_form,
)
from affine.dialects.verifier import verify
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


# -- the IR rewrite ----------------------------------------------------------------------------------

CALLS = f"""
#tile = {TILED_64.replace("16", "4")}
func.func private @ext(memref<8x8xf32, #tile>) -> memref<8x8xf32, #tile>
func.func @callee(%m: memref<8x8xf32, #tile>, %i: index) -> memref<8x8xf32, #tile> {{
  %v = affine.load %m[%i, %i] : memref<8x8xf32, #tile>
  affine.store %v, %m[%i + 1, %i] : memref<8x8xf32, #tile>
  %w = affine.vector_load %m[%i, 0] : memref<8x8xf32, #tile>, vector<4xf32>
  affine.vector_store %w, %m[%i, 4] : memref<8x8xf32, #tile>, vector<4xf32>
  affine.prefetch %m[%i, %i], read, locality<3>, data : memref<8x8xf32, #tile>
  return %m : memref<8x8xf32, #tile>
}}
func.func @caller(%i: index) {{
  %a = memref.alloc() : memref<8x8xf32, #tile>
  %r = call @callee(%a, %i) : (memref<8x8xf32, #tile>, index) -> memref<8x8xf32, #tile>
  %x = affine.load %r[%i, 2] : memref<8x8xf32, #tile>
  %e = call @ext(%r) : (memref<8x8xf32, #tile>) -> memref<8x8xf32, #tile>
  memref.dealloc %a : memref<8x8xf32, #tile>
  return
}}
"""


def test_rewrite_of_allocs_arguments_results_and_calls() -> None:
    module = parse(CALLS)
    before = print_module(module)
    out = normalize_memrefs(module)
    verify(out)
    assert print_module(module) == before  # the input is untouched
    text = print_module(out)
    assert "#tile" not in text and "floordiv 4, d1 floordiv 4" not in text.split("module")[0]
    assert "func.func private @ext(memref<2x2x4x4xf32>) -> memref<2x2x4x4xf32>" in text
    assert (
        "func.func @callee(%arg0: memref<2x2x4x4xf32>, %arg1: index) -> memref<2x2x4x4xf32>" in text
    )
    assert "affine.load %arg0[%arg1 floordiv 4, %arg1 floordiv 4, %arg1 mod 4, %arg1 mod 4]" in text
    assert "%arg0[(%arg1 + 1) floordiv 4, %arg1 floordiv 4, (%arg1 + 1) mod 4, %arg1 mod 4]" in text
    # The vectors at [i, 0] and [i, 4] are whole rows of 4-element tiles.
    assert "affine.vector_store %1, %arg0[%arg1 floordiv 4, 1, %arg1 mod 4, 0]" in text
    assert "%alloc = memref.alloc() : memref<2x2x4x4xf32>" in text
    assert (
        "call @callee(%alloc, %arg0) : (memref<2x2x4x4xf32>, index) -> memref<2x2x4x4xf32>" in text
    )
    assert "affine.load %0[%arg0 floordiv 4, 0, %arg0 mod 4, 2]" in text
    assert "memref.dealloc %alloc : memref<2x2x4x4xf32>" in text


def test_uses_that_cannot_be_rewritten_leave_the_call_chain_alone() -> None:
    text = (
        CALLS
        + f"""
func.func @split(%i: index) {{
  %a = memref.alloc() : memref<8x8xf32, {TILED_64.replace("16", "4")}>
  %r = call @callee(%a, %i) : (memref<8x8xf32, {TILED_64.replace("16", "4")}>, index) -> memref<8x8xf32, {TILED_64.replace("16", "4")}>
  %v = affine.vector_load %a[%i, 2] : memref<8x8xf32, {TILED_64.replace("16", "4")}>, vector<4xf32>
  return
}}
func.func @alone() {{
  %b = memref.alloc() : memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
  memref.dealloc %b : memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
  return
}}
"""
    )
    remarks: list[str] = []
    out = normalize_memrefs(parse(text), remarks=remarks)
    printed = print_module(out)
    # A vector at column 2 straddles two 4-wide tiles: @split, and through calls @callee,
    # @caller and @ext, keep their layouts; @alone is independent.
    assert "memref<2x2x4x4xf32>" not in printed
    assert "memref.alloc() : memref<4x4xf32>" in printed
    assert any("@split is left alone: affine.vector_load" in r for r in remarks)
    assert any("@caller is left alone: it calls or is called by" in r for r in remarks)


def test_memref_load_store_and_dim_are_rewritten_soundly() -> None:
    # mlir-opt 22 keeps the old index order for memref.load (llvm-project #111646) and
    # lets memref.dim read the new shape; here the indices go through the layout and the dim
    # is the old size.
    module = parse(
        """
func.func @f(%i: index, %j: index, %v: f32) -> (f32, index) {
  %a = memref.alloc() : memref<8x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
  memref.store %v, %a[%i, %j] : memref<8x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
  %x = memref.load %a[%i, %j] : memref<8x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
  %c0 = arith.constant 0 : index
  %d = memref.dim %a, %c0 : memref<8x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
  return %x, %d : f32, index
}
"""
    )
    out = normalize_memrefs(module)
    verify(out)
    text = print_module(out)
    assert "memref.alloc() : memref<4x8xf32>" in text
    assert "memref.dim" not in text and "%c8 = arith.constant 8 : index" in text
    from affine.exec.interp import Interpreter

    for i, j in [(1, 2), (7, 3), (0, 0)]:
        before = Interpreter(module).call("f", [i, j, np.float32(2.5)])
        after = Interpreter(out).call("f", [i, j, np.float32(2.5)])
        assert [float(x) for x in before] == [float(x) for x in after] == [2.5, 8.0]


KERNEL = """
func.func @kernel(%in: memref<{n}x{n}xf32>, %out: memref<{n}x{n}xf32>) {{
  %t = memref.alloc() : memref<{n}x{n}xf32, {layout}>
  affine.for %i = 0 to {n} {{
    affine.for %j = 0 to {n} {{
      %v = affine.load %in[%i, %j] : memref<{n}x{n}xf32>
      affine.store %v, %t[%j, %i] : memref<{n}x{n}xf32, {layout}>
    }}
  }}
  affine.for %i = 0 to {n} {{
    affine.for %j = 0 to {n} {{
      %a = affine.load %t[%i, %j] : memref<{n}x{n}xf32, {layout}>
      %b = affine.load %t[({n} - 1) - %i, %j] : memref<{n}x{n}xf32, {layout}>
      %s = arith.addf %a, %b : f32
      affine.store %s, %out[%i, %j] : memref<{n}x{n}xf32>
    }}
  }}
  memref.dealloc %t : memref<{n}x{n}xf32, {layout}>
  return
}}
"""

KERNEL_LAYOUTS = {
    "tiled": "affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>",
    "transposed": "affine_map<(d0, d1) -> (d1, d0)>",
    "offset": "affine_map<(d0, d1) -> (d0 + 3, d1 + 1)>",
    "strided": "strided<[32, 2], offset: 5>",
    "skewed": "affine_map<(d0, d1) -> (d0, d0 + d1)>",
}


@pytest.mark.parametrize("name", sorted(KERNEL_LAYOUTS))
def test_rewritten_kernels_compute_the_same_results(name: str) -> None:
    from affine.exec.equivalence import check_equivalent

    module = parse(KERNEL.format(n=10, layout=KERNEL_LAYOUTS[name]))
    out = normalize_memrefs(module)
    verify(out)
    assert "memref.alloc() : memref<10x10xf32, " not in print_module(out)
    result = check_equivalent(module, out, backend="interp", seed=3)
    assert not result.mismatches
