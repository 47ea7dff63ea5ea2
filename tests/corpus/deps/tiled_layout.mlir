// A 4x4-tiled layout: logical A[i][j] lives at (i floordiv 4, j floordiv 4, i mod 4, j mod 4).
func.func @tiled(%c: f32) {
  %A = memref.alloc() : memref<8x8xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>>
  affine.for %i = 0 to 8 {
    affine.for %j = 1 to 8 {
      %v = affine.load %A[%i, %j - 1] : memref<8x8xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>>
      affine.store %v, %A[%i, %j] : memref<8x8xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>>
    }
  }
  memref.dealloc %A : memref<8x8xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>>
  return
}
