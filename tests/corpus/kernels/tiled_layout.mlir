// Matrix product whose operand A and result C are stored in 4x4 tiles (a multi-result
// layout map: physical index (i floordiv 4, j floordiv 4, i mod 4, j mod 4)).
// scale: 16=N
#tiled = affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>
func.func @tiled_layout(%A: memref<16x16xf32, #tiled>, %B: memref<16x16xf32>, %C: memref<16x16xf32, #tiled>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      affine.store %zero, %C[%i, %j] : memref<16x16xf32, #tiled>
      affine.for %k = 0 to 16 {
        %a = affine.load %A[%i, %k] : memref<16x16xf32, #tiled>
        %b = affine.load %B[%k, %j] : memref<16x16xf32>
        %p = arith.mulf %a, %b : f32
        %c = affine.load %C[%i, %j] : memref<16x16xf32, #tiled>
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<16x16xf32, #tiled>
      }
    }
  }
  return
}
