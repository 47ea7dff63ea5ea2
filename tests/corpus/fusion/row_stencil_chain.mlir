// Row stencil chain: B = A * A (B private), C[i][j] = B[i-1][j] + B[i][j] + B[i+1][j].
// Fused by rows, B lives three rows at a time: memref<3x64xf32> indexed (i mod 3).
// scale: 64=N 63=N-1
func.func @row_stencil(%A: memref<64x64xf32>, %C: memref<64x64xf32>) {
  %B = memref.alloc() : memref<64x64xf32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %a = affine.load %A[%i, %j] : memref<64x64xf32>
      %m = arith.mulf %a, %a : f32
      affine.store %m, %B[%i, %j] : memref<64x64xf32>
    }
  }
  affine.for %i = 1 to 63 {
    affine.for %j = 0 to 64 {
      %u = affine.load %B[%i - 1, %j] : memref<64x64xf32>
      %c = affine.load %B[%i, %j] : memref<64x64xf32>
      %d = affine.load %B[%i + 1, %j] : memref<64x64xf32>
      %s = arith.addf %u, %c : f32
      %t = arith.addf %s, %d : f32
      affine.store %t, %C[%i, %j] : memref<64x64xf32>
    }
  }
  memref.dealloc %B : memref<64x64xf32>
  return
}
