// Affine maps with `size`, named maps used as memref layouts, `alloc(...)[...]`
// (seeds/000 "Dimensions and Symbols", "Named affine mappings").
#affine_map2to3 = (d0, d1)[s0] -> (d0, d1 + s0, d1 - s0) size (10,20,30)

// Affine map out-of-line definition and usage example.
#affine_map42 =
  (d0, d1)[s0] -> (d0, d0 + d1 + floordiv(s0,2)) size (10, s0)

func @maps(%N: index) {
  // Binds %N to the s0 symbol in affine_map2to3.
  %x = alloc()[%N] : memref<40x50xf32, #affine_map2to3>

  // Use an affine mapping definition in an alloc instruction, binding the
  // SSA value %N to the symbol s0.
  %a = alloc()[%N] : memref<4x4xf32, #affine_map42>

  // Same thing with an inline affine mapping definition.
  %b = alloc()[%N] : memref<4x4xf32, (d0, d1)[s0] -> (d0, d0 + d1 + floordiv(s0,2))
                                           size (10, s0)>
  return
}
