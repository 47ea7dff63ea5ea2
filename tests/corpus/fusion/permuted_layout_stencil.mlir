// A shifted read of a buffer with a permuted layout, fused with or without recomputation.
func.func @st(%in: memref<8x10xf32>, %out: memref<8x8xf32>) {
  %A = memref.alloc() : memref<8x10xf32, affine_map<(d0, d1) -> (d1, d0)>>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 10 {
      %v = affine.load %in[%i, %j] : memref<8x10xf32>
      %w = arith.addf %v, %v : f32
      affine.store %w, %A[%i, %j] : memref<8x10xf32, affine_map<(d0, d1) -> (d1, d0)>>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %a = affine.load %A[%i, %j] : memref<8x10xf32, affine_map<(d0, d1) -> (d1, d0)>>
      %b = affine.load %A[%i, %j + 2] : memref<8x10xf32, affine_map<(d0, d1) -> (d1, d0)>>
      %s = arith.addf %a, %b : f32
      affine.store %s, %out[%i, %j] : memref<8x8xf32>
    }
  }
  return
}
