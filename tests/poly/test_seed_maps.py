"""The maps of the seed specification (tests/corpus/seed, from seeds/000 and 002) through the
affine math: compositions, one-to-one checks, specialisation, normalisation, ISL."""

from __future__ import annotations

import pytest
from conftest import CORPUS

from affine import Module, dim, parse, parse_affine_map
from affine.analysis.layout import LayoutNotNormalizable, composed_layout
from affine.ir.types import F32, MemRefType
from affine.math.simplify import simplify_expr
from poly import build_model, map_from_isl, map_to_isl, normalize_memref_type, one_to_one_on
from transforms.memref_normalization import normalize_memrefs

SEED = CORPUS / "seed"


def _allocs(name: str) -> list[MemRefType]:
    module: Module = parse((SEED / f"{name}.mlir").read_text())
    return [op.results[0].type for op in module.walk() if op.name == "memref.alloc"]


def test_slice_then_column_major() -> None:
    # %D : memref<8x8xf32, #imap_slice, #layout_map_col_major>
    # #imap_slice (i, j)[M, N, OI, OJ] -> (i + OI, j + OJ) puts the 8x8 slice at (OI, OJ) of
    # an MxN matrix; column-major storage then swaps: (j + OJ, i + OI).  The composition
    # has the symbols of both maps: [M, N, OI, OJ, M', N'].
    t = _allocs("memref_composition")[3]
    assert str(composed_layout(t)) == "(d0, d1)[s0, s1, s2, s3, s4, s5] -> (d1 + s3, d0 + s2)"
    assert one_to_one_on(t)[0].one_to_one
    # With OI = 2, OJ = 3 the slice occupies rows 3..10 and columns 2..9 of the storage.
    new_type, m = normalize_memref_type(t, {0: 16, 1: 16, 2: 2, 3: 3, 4: 16, 5: 16})
    assert new_type == MemRefType([11, 10], F32)
    assert m.evaluate([7, 7]) == [10, 9]


def test_tiled_index_space_then_row_major() -> None:
    # %E : memref<2x2x128x128xf32, #imap_tiled, #layout_map_row_major, vmem>
    # #imap_tiled (d0, d1, d2, d3)[M, N] -> (128*d0 + d2, 128*d1 + d3): tile (d0, d1),
    # element (d2, d3) of the tile; row-major storage is the identity.  One-to-one since
    # d2, d3 < 128; the 2x2 tiles of 128x128 fill a 256x256 matrix.
    t = _allocs("memref_composition")[4]
    assert str(composed_layout(t)) == (
        "(d0, d1, d2, d3)[s0, s1, s2, s3] -> (d0 * 128 + d2, d1 * 128 + d3)"
    )
    assert one_to_one_on(t)[0].one_to_one
    new_type, _ = normalize_memref_type(t, {0: 256, 1: 256, 2: 256, 3: 256})
    assert new_type == MemRefType([256, 256], F32, memory_space=t.memory_space)


def test_model_of_layouts_whose_symbols_share_a_value() -> None:
    # %E's composition has the symbols [M, N, M', N'], all four bound by the alloc to %M, %N,
    # %M, %N: two parameters.  The store at [3, 5, 3, 5] writes element (387, 645).
    module = parse((SEED / "memref_composition.mlir").read_text())
    store = build_model(module.functions()[0]).accesses[-1]
    assert store.kind == "write"
    assert str(store.relation) == "[p0, p1] -> { S1[] -> M1[r0 = 387, r1 = 645] }"
    # a symbol subtracted from another bound to the same value cancels: element i exactly
    module = parse(
        """
        #shift = affine_map<(d0)[s0, s1] -> (d0 + s0 - s1)>
        func.func @f(%n: index) {
          %A = memref.alloc()[%n, %n] : memref<8xf32, #shift>
          affine.for %i = 0 to 8 {
            %v = affine.load %A[%i] : memref<8xf32, #shift>
          }
          return
        }
        """
    )
    (load,) = build_model(module.functions()[0]).accesses
    assert str(load.relation) == "[p0] -> { S0[i0_0] -> M0[r0 = i0_0] : 0 <= i0_0 <= 7 }"


def test_affine_map42_floordiv_of_a_symbol() -> None:
    # #affine_map42 = (d0, d1)[s0] -> (d0, d0 + d1 + floordiv(s0, 2)) size (10, s0), with
    # s0 bound to %N by the alloc: a 4x4 memref shifted right by N/2 in each row (and by
    # the row index).  N = 10: the second index reaches 3 + 3 + 5 = 11.
    t = _allocs("maps_and_alloc")[1]
    assert one_to_one_on(t)[0].one_to_one
    assert normalize_memref_type(t, {0: 10})[0] == MemRefType([4, 12], F32)
    # floordiv(s0, 2) is affine in the symbol, so ISL takes the map without binding it.
    m = t.layout_map()
    assert map_from_isl(map_to_isl(m)) == m


def test_affine_map2to3_is_one_to_one_but_may_go_negative() -> None:
    # #affine_map2to3 = (d0, d1)[s0] -> (d0, d1 + s0, d1 - s0): the third result is negative
    # for d1 < s0, which no identity layout can store.
    t = _allocs("maps_and_alloc")[0]
    assert one_to_one_on(t)[0].one_to_one
    with pytest.raises(LayoutNotNormalizable, match="negative value -5"):
        normalize_memref_type(t, {0: 5})
    assert normalize_memref_type(t, {0: 0})[0] == MemRefType([40, 50, 50], F32)


def test_semi_affine_symbolic_tiles() -> None:
    # #sym_tile = (d0, d1)[s0] -> (floordiv(d0, s0), d1, d0 mod s0): tiles of s0 rows.
    # Semi-affine: ISL needs s0 bound; with T = 8, 64 rows are 8 tiles of 8.
    t = _allocs("semi_affine_seed")[0]
    assert t.layout_map().is_semi_affine()
    assert one_to_one_on(t, {0: 8})[0].one_to_one
    assert normalize_memref_type(t, {0: 8})[0] == MemRefType([8, 64, 8], F32)
    with pytest.raises(LayoutNotNormalizable, match="not bound"):
        normalize_memref_type(t)


def test_map10_two_divisions() -> None:
    # #map10 = (d0, d1) -> (floordiv(d0, 8) + floordiv(d1, 128)): already in normal form;
    # with 0 <= d1 < 128 the second division is 0.
    m = parse_affine_map("(d0, d1) -> (floordiv(d0,8) + floordiv(d1,128))")
    (r,) = m.results
    assert simplify_expr(r, 2, 0) is r
    assert str(simplify_expr(r, 2, 0, {dim(1): (0, 127)})) == "d0 floordiv 8"
    assert map_from_isl(map_to_isl(m)) == m


def test_seed_modules_keep_layouts_with_unbound_symbols() -> None:
    # The allocs bind layout symbols to function arguments, not constants: nothing can be
    # normalised, and each refusal is reported.
    module = parse((SEED / "maps_and_alloc.mlir").read_text())
    remarks: list[str] = []
    out = normalize_memrefs(module, remarks)
    assert str(out) == str(module)
    assert len(remarks) == 3 and all("not constants" in r for r in remarks)
